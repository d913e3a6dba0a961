// Lessons: the shipped lessons load and cover every engine step of their operation; bad lesson files are
// rejected with file, line and field; placeholders render.
#include "rdmalab/lesson.hpp"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <map>
#include <string>
#include <vector>

using namespace rdmalab::labs;

namespace {

// The engine's steps for each operation on a loopback pair, in order (engine/src/operation.cpp).
const std::map<std::string, std::vector<std::string>> kEngineSteps = {
    {"send",
     {"open_device", "alloc_pd_A",  "alloc_pd_B",  "reg_mr_A",  "reg_mr_B",  "create_cq_A", "create_cq_B",
      "create_qp_A", "create_qp_B", "init_A",      "init_B",    "rtr_A",     "rtr_B",       "rts_A",
      "rts_B",       "post_recv_B", "post_send_A", "poll_cq_A", "poll_cq_B", "verify"}},
    {"write",
     {"open_device", "alloc_pd_A", "alloc_pd_B", "reg_mr_A", "reg_mr_B", "create_cq_A", "create_cq_B",
      "create_qp_A", "create_qp_B", "init_A", "init_B", "rtr_A", "rtr_B", "rts_A", "rts_B", "post_send_A",
      "poll_cq_A", "verify"}},
    {"read",
     {"open_device", "alloc_pd_A", "alloc_pd_B", "reg_mr_A", "reg_mr_B", "create_cq_A", "create_cq_B",
      "create_qp_A", "create_qp_B", "init_A", "init_B", "rtr_A", "rtr_B", "rts_A", "rts_B", "post_send_A",
      "poll_cq_A", "verify"}},
};

// A minimal valid lesson; tests change one line of it.
const char* const kValid = "id: demo\n"            // 1
                           "order: 5\n"            // 2
                           "title:\n"              // 3
                           "  en: Demo\n"          // 4
                           "  zh: 演示\n"          // 5
                           "op: write\n"           // 6
                           "size: 32\n"            // 7
                           "steps:\n"              // 8
                           "  - id: open_device\n" // 9
                           "    text:\n"           // 10
                           "      en: Open it.\n"  // 11
                           "  - id: post_send_A\n" // 12
                           "    text:\n"           // 13
                           "      en: Post it.\n"  // 14
                           "      zh: 提交。\n";   // 15

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::string replace_line(const std::string& text, int line, const std::string& replacement) {
    std::string out;
    int n = 1;
    std::size_t start = 0;
    while (start < text.size()) {
        auto end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        out += (n == line ? replacement : text.substr(start, end - start)) + "\n";
        start = end + 1;
        ++n;
    }
    return out;
}

} // namespace

class LessonsTest : public QObject {
    Q_OBJECT
  private slots:
    void shippedLessonsLoadInOrder() {
        std::vector<LessonError> errors;
        const auto lessons = load_lessons(RDMALAB_LESSONS_DIR, errors);
        std::string all;
        for (const auto& e : errors)
            all += e.to_string() + "\n";
        QVERIFY2(errors.empty(), all.c_str());
        QVERIFY(lessons.size() >= 3);
        const std::vector<std::pair<std::string, int>> expected = {{"send", 1}, {"write", 2}, {"read", 3}};
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(lessons[i].id, expected[i].first);
            QCOMPARE(lessons[i].order, expected[i].second);
            QCOMPARE(lessons[i].op, expected[i].first);
            QCOMPARE(lessons[i].size, std::size_t(64));
            QVERIFY(!lessons[i].message.empty());
            QVERIFY(!lessons[i].title.en.empty() && !lessons[i].title.zh.empty());
            QVERIFY(!lessons[i].summary.en.empty() && !lessons[i].summary.zh.empty());
            QVERIFY(!lessons[i].references.empty());
            QVERIFY(contains(lessons[i].file, lessons[i].id + ".yaml"));
        }
    }

    void shippedLessonsCoverEveryEngineStep() {
        std::vector<LessonError> errors;
        const auto lessons = load_lessons(RDMALAB_LESSONS_DIR, errors);
        QVERIFY(errors.empty());
        for (const auto& [id, steps] : kEngineSteps) {
            const auto it =
                std::find_if(lessons.begin(), lessons.end(), [&](const Lesson& l) { return l.id == id; });
            QVERIFY2(it != lessons.end(), id.c_str());
            for (const auto& step_id : steps) {
                const std::string what = id + ": " + step_id;
                const LessonStep* step = it->step(step_id);
                QVERIFY2(step != nullptr, what.c_str());
                QVERIFY2(!step->title.en.empty() && !step->title.zh.empty(), what.c_str());
                QVERIFY2(!step->text.en.empty() && !step->text.zh.empty(), what.c_str());
                QVERIFY2(step->text.get("zh") == step->text.zh, what.c_str());
            }
            // No text for steps the operation does not run (a typo in a step id would never be shown).
            for (const auto& step : it->steps) {
                const std::string what = id + ": unexpected step " + step.id;
                QVERIFY2(std::find(steps.begin(), steps.end(), step.id) != steps.end(), what.c_str());
            }
            QCOMPARE(it->steps.size(), steps.size());
        }
    }

    void chineseTextsHaveNoStraySpaces() {
        // A folded YAML block (">-") joins lines with a space, which is wrong between two Chinese characters.
        std::vector<LessonError> errors;
        const auto lessons = load_lessons(RDMALAB_LESSONS_DIR, errors);
        const QRegularExpression stray(
            QStringLiteral("[\\x{3000}-\\x{303f}\\x{4e00}-\\x{9fff}\\x{ff00}-\\x{ffef}] +"
                           "[\\x{3000}-\\x{303f}\\x{4e00}-\\x{9fff}\\x{ff00}-\\x{ffef}]"));
        for (const auto& lesson : lessons) {
            std::vector<std::pair<std::string, std::string>> texts = {{"title", lesson.title.zh},
                                                                      {"summary", lesson.summary.zh}};
            for (const auto& step : lesson.steps) {
                texts.emplace_back(step.id + ".title", step.title.zh);
                texts.emplace_back(step.id + ".text", step.text.zh);
            }
            for (const auto& [where, text] : texts) {
                const auto match = stray.match(QString::fromStdString(text));
                const std::string what =
                    lesson.id + " " + where + ": '" + match.captured().toStdString() + "'";
                QVERIFY2(!match.hasMatch(), what.c_str());
            }
        }
    }

    void validLessonLoads() {
        QTemporaryDir dir;
        const auto path = write(dir, "demo.yaml", kValid);
        LessonError error;
        const auto lesson = load_lesson(path, error);
        QVERIFY2(lesson.has_value(), error.to_string().c_str());
        QCOMPARE(lesson->id, std::string("demo"));
        QCOMPARE(lesson->order, 5);
        QCOMPARE(lesson->size, std::size_t(32));
        QCOMPARE(lesson->steps.size(), std::size_t(2));
        QCOMPARE(lesson->file, path);
        QVERIFY(lesson->step("nope") == nullptr);
        // Missing Chinese falls back to English.
        QCOMPARE(lesson->step("open_device")->text.get("zh"), std::string("Open it."));
        QCOMPARE(lesson->step("post_send_A")->text.get("zh"), std::string("提交。"));
        QCOMPARE(lesson->step("post_send_A")->text.get("en"), std::string("Post it."));
    }

    void syntaxErrorReportsLine() {
        QTemporaryDir dir;
        const auto path = write(dir, "bad.yaml", replace_line(kValid, 6, "op: [write"));
        LessonError error;
        QVERIFY(!load_lesson(path, error));
        QCOMPARE(error.file, path);
        QVERIFY2(error.line >= 6 && error.line <= 7, error.to_string().c_str());
        QVERIFY2(contains(error.to_string(), path + ":" + std::to_string(error.line) + ":"),
                 error.to_string().c_str());

        const auto path2 = write(dir, "bad2.yaml", replace_line(kValid, 7, "size: 32: 4"));
        QVERIFY(!load_lesson(path2, error));
        QCOMPARE(error.line, 7);
    }

    void missingTitleEnglishNamesField() {
        QTemporaryDir dir;
        const auto path = write(dir, "bad.yaml", replace_line(kValid, 4, ""));
        LessonError error;
        QVERIFY(!load_lesson(path, error));
        QCOMPARE(error.field, std::string("title.en"));
        QCOMPARE(error.line, 3);
        QVERIFY2(contains(error.to_string(), "field 'title.en'"), error.to_string().c_str());
    }

    void missingStepTextNamesField() {
        QTemporaryDir dir;
        const auto path = write(dir, "bad.yaml", replace_line(kValid, 14, ""));
        LessonError error;
        QVERIFY(!load_lesson(path, error));
        QCOMPARE(error.field, std::string("steps[1].text.en"));
        QCOMPARE(error.line, 13);
    }

    void unknownKeyNamesKeyAndLine() {
        QTemporaryDir dir;
        const auto path = write(dir, "bad.yaml", replace_line(kValid, 7, "sise: 32"));
        LessonError error;
        QVERIFY(!load_lesson(path, error));
        QCOMPARE(error.line, 7);
        QCOMPARE(error.column, 1);
        QCOMPARE(error.field, std::string("sise"));
        QVERIFY2(contains(error.message, "unknown key 'sise'"), error.to_string().c_str());
    }

    void negativeSizeNamesField() {
        QTemporaryDir dir;
        const auto path = write(dir, "bad.yaml", replace_line(kValid, 7, "size: -3"));
        LessonError error;
        QVERIFY(!load_lesson(path, error));
        QCOMPARE(error.field, std::string("size"));
        QCOMPARE(error.line, 7);
        QVERIFY2(contains(error.to_string(), path + ":7:7: field 'size': "), error.to_string().c_str());

        const auto path2 = write(dir, "bad2.yaml", replace_line(kValid, 7, "size: many"));
        QVERIFY(!load_lesson(path2, error));
        QCOMPARE(error.field, std::string("size"));
    }

    void duplicateStepIdIsAnError() {
        QTemporaryDir dir;
        const auto path = write(dir, "bad.yaml", replace_line(kValid, 12, "  - id: open_device"));
        LessonError error;
        QVERIFY(!load_lesson(path, error));
        QCOMPARE(error.field, std::string("steps[1].id"));
        QCOMPARE(error.line, 12);
        QVERIFY2(contains(error.message, "duplicate step id 'open_device'"), error.to_string().c_str());
    }

    void invalidIdAndOpAreErrors() {
        QTemporaryDir dir;
        LessonError error;
        QVERIFY(!load_lesson(write(dir, "a.yaml", replace_line(kValid, 1, "id: Demo-1")), error));
        QCOMPARE(error.field, std::string("id"));
        QCOMPARE(error.line, 1);
        QVERIFY(!load_lesson(write(dir, "b.yaml", replace_line(kValid, 6, "op: rdma_write")), error));
        QCOMPARE(error.field, std::string("op"));
        QCOMPARE(error.line, 6);
        QVERIFY(!load_lesson(write(dir, "c.yaml", "id: x\ntitle:\n  en: X\nop: send\nsteps: []\n"), error));
        QCOMPARE(error.field, std::string("steps"));
        QVERIFY(!load_lesson(write(dir, "d.yaml", replace_line(kValid, 7, "op: read")), error));
        QCOMPARE(error.field, std::string("op"));
        QCOMPARE(error.line, 7);
        QVERIFY2(contains(error.message, "appears twice (first on line 6)"), error.to_string().c_str());
        QVERIFY(!load_lesson(dir.filePath("missing.yaml").toStdString(), error));
        QVERIFY(!error.message.empty());
    }

    void loadLessonsSkipsBadFilesAndSorts() {
        QTemporaryDir dir;
        write(dir, "z.yaml", replace_line(replace_line(kValid, 1, "id: first"), 2, "order: 1"));
        write(dir, "a.yaml", replace_line(replace_line(kValid, 1, "id: second"), 2, "order: 2"));
        write(dir, "bad.yaml", replace_line(kValid, 7, "size: 0"));
        write(dir, "notes.txt", "not a lesson");
        std::vector<LessonError> errors;
        const auto lessons = load_lessons(dir.path().toStdString(), errors);
        QCOMPARE(lessons.size(), std::size_t(2));
        QCOMPARE(lessons[0].id, std::string("first"));
        QCOMPARE(lessons[1].id, std::string("second"));
        QCOMPARE(errors.size(), std::size_t(1));
        QVERIFY(contains(errors[0].file, "bad.yaml"));
        QCOMPARE(errors[0].field, std::string("size"));
    }

    void renderReplacesKnownPlaceholders() {
        const std::map<std::string, std::string> values = {{"rkey", "0x1234"}, {"size", "64"}};
        QCOMPARE(render("B's rkey {rkey} covers {size} bytes", values),
                 std::string("B's rkey 0x1234 covers 64 bytes"));
        QCOMPARE(render("{qpn} stays, {rkey} goes", values), std::string("{qpn} stays, 0x1234 goes"));
        QCOMPARE(render("{ {} {rkey", values), std::string("{ {} {rkey"));
        QCOMPARE(render("", values), std::string());
        QCOMPARE(render("{size}{size}", values), std::string("6464"));
    }

  private:
    static std::string write(const QTemporaryDir& dir, const QString& name, const std::string& text) {
        const std::string path = dir.filePath(name).toStdString();
        std::ofstream(path) << text;
        return path;
    }
};

QTEST_GUILESS_MAIN(LessonsTest)
#include "tst_lessons.moc"
