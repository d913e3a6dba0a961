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
            const auto& summary = lessons[i].summary;
            for (auto device : {DeviceClass::unknown, DeviceClass::software, DeviceClass::hardware}) {
                QVERIFY(!summary.get(device, "en").empty());
                QVERIFY(summary.get(device, "zh") != summary.get(device, "en"));
            }
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
                // Every text exists in both languages for every device class (no English fallback shown to a
                // Chinese reader), and a variant is never a copy of another.
                for (auto device : {DeviceClass::unknown, DeviceClass::software, DeviceClass::hardware}) {
                    QVERIFY2(!step->text.get(device, "en").empty(), what.c_str());
                    QVERIFY2(step->text.get(device, "zh") != step->text.get(device, "en"), what.c_str());
                }
                for (const auto* part : {&step->text.common, &step->text.software, &step->text.hardware})
                    QVERIFY2(part->en.empty() == part->zh.empty(), what.c_str());
                if (step->text.varies())
                    QVERIFY2(step->text.software.en != step->text.hardware.en, what.c_str());
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
            std::vector<std::pair<std::string, std::string>> texts = {{"title", lesson.title.zh}};
            auto add = [&](const std::string& where, const DeviceText& text) {
                texts.emplace_back(where, text.common.zh);
                texts.emplace_back(where + ".software", text.software.zh);
                texts.emplace_back(where + ".hardware", text.hardware.zh);
            };
            add("summary", lesson.summary);
            for (const auto& step : lesson.steps) {
                texts.emplace_back(step.id + ".title", step.title.zh);
                add(step.id + ".text", step.text);
            }
            for (const auto& [where, text] : texts) {
                const auto match = stray.match(QString::fromStdString(text));
                const std::string what =
                    lesson.id + " " + where + ": '" + match.captured().toStdString() + "'";
                QVERIFY2(!match.hasMatch(), what.c_str());
            }
        }
    }

    void stepsThatDependOnTheDeviceHaveBothVariants() {
        // A text that speaks of DMA, doorbells, system calls, kernel bypass or what a CPU does tells a
        // different story on SoftRoCE (the kernel's rxe driver does the NIC's work on a CPU, copying every
        // byte, and the send doorbell is a system call) than on an RDMA NIC: such a text must have both.
        // Whole words only: "RDMA" and "rdma_cm" do not speak of DMA.
        const QRegularExpression keywords(QStringLiteral(
            "(?<![A-Za-z_])(DMA|CPU)(?![A-Za-z_])|(?i:doorbell|system call|syscall|kernel bypass|"
            "bypass)|门铃|系统调用|绕过内核|内核旁路|\\{syscalls\\}"));
        QVERIFY(keywords.isValid());
        QVERIFY(!keywords.match("RDMA over rdma_cm").hasMatch());
        QVERIFY(keywords.match("the NIC reads it by DMA.").hasMatch());
        auto mentions = [&](const LocalizedText& text) -> std::string {
            for (const auto* part : {&text.en, &text.zh}) {
                const auto match = keywords.match(QString::fromStdString(*part));
                if (match.hasMatch()) return match.captured().toStdString();
            }
            return {};
        };
        std::vector<LessonError> errors;
        const auto lessons = load_lessons(RDMALAB_LESSONS_DIR, errors);
        QVERIFY(errors.empty());
        int varying = 0;
        for (const auto& lesson : lessons) {
            std::vector<std::pair<std::string, const DeviceText*>> texts = {{"summary", &lesson.summary}};
            for (const auto& step : lesson.steps)
                texts.emplace_back(step.id, &step.text);
            for (const auto& [where, text] : texts) {
                const std::string word = mentions(text->common);
                const std::string what = lesson.id + " " + where + ": mentions '" + word +
                                         "' but lacks a software or a hardware variant";
                if (!word.empty())
                    QVERIFY2(!text->software.en.empty() && !text->hardware.en.empty(), what.c_str());
                if (text->varies()) {
                    ++varying;
                    const std::string both = lesson.id + " " + where + ": has only one variant";
                    QVERIFY2(!text->software.en.empty() && !text->hardware.en.empty(), both.c_str());
                }
            }
            // The software variant of the post and poll steps quotes the engine's count of system calls.
            for (const char* id : {"post_send_A", "poll_cq_A"}) {
                const std::string what = lesson.id + " " + id + ": the SoftRoCE text does not use {syscalls}";
                const LessonStep* step = lesson.step(id);
                QVERIFY2(step && contains(step->text.software.en, "{syscalls}") &&
                             contains(step->text.software.zh, "{syscalls}"),
                         what.c_str());
            }
        }
        QVERIFY(varying >= 3 * 5); // the summaries and the data-path steps of every lesson, at least
    }

    void variantsReplaceTheCommonTextOnTheirDevice() {
        // post_send_A (lines 12-15) gets a software variant only: hardware keeps the common text.
        const std::string oneVariant = std::string(kValid) + "      software:\n"             // 16
                                                             "        en: By system call.\n" // 17
                                                             "        zh: 系统调用。\n";     // 18
        LessonError error;
        auto lesson = parse_lesson(oneVariant, "one.yaml", error);
        QVERIFY2(lesson.has_value(), error.to_string().c_str());
        const DeviceText& text = lesson->step("post_send_A")->text;
        QVERIFY(text.varies());
        QCOMPARE(text.get(DeviceClass::software, "en"), std::string("By system call."));
        QCOMPARE(text.get(DeviceClass::software, "zh"), std::string("系统调用。"));
        QCOMPARE(text.get(DeviceClass::hardware, "en"), std::string("Post it."));
        QCOMPARE(text.get(DeviceClass::hardware, "zh"), std::string("提交。"));
        QCOMPARE(text.get(DeviceClass::unknown, "zh"), std::string("提交。"));
        QVERIFY(text.variant(DeviceClass::hardware) == nullptr);
        QVERIFY(text.variant(DeviceClass::unknown) == nullptr);
        QCOMPARE(text.variant(DeviceClass::software)->en, std::string("By system call."));

        // Both variants and no common text: an unknown device shows both under headings, and a variant
        // without Chinese falls back to its own English, never to the other device's text.
        const std::string variantsOnly = replace_line(replace_line(oneVariant, 14, "      hardware:"), 15,
                                                      "        en: By a register write.") +
                                         "summary:\n  software:\n    en: Soft.\n  hardware:\n    en: Hard.\n";
        lesson = parse_lesson(variantsOnly, "both.yaml", error);
        QVERIFY2(lesson.has_value(), error.to_string().c_str());
        const DeviceText& both = lesson->step("post_send_A")->text;
        QVERIFY(both.common.en.empty());
        QCOMPARE(both.get(DeviceClass::hardware, "zh"), std::string("By a register write."));
        QCOMPARE(both.get(DeviceClass::software, "zh"), std::string("系统调用。"));
        QCOMPARE(both.get(DeviceClass::unknown, "en"),
                 std::string("On a software device (SoftRoCE):\nBy system call.\n\n"
                             "On a hardware RDMA NIC:\nBy a register write."));
        QVERIFY(contains(both.get(DeviceClass::unknown, "zh"), "在软件设备（SoftRoCE）上：\n系统调用。"));
        QCOMPARE(lesson->summary.get(DeviceClass::software, "en"), std::string("Soft."));
        QCOMPARE(lesson->summary.get(DeviceClass::hardware, "en"), std::string("Hard."));
        QVERIFY(
            contains(lesson->summary.get(DeviceClass::unknown, "en"), "Soft.\n\nOn a hardware RDMA NIC:"));
    }

    void malformedVariantsNameFileLineAndField() {
        const std::string base = std::string(kValid);
        struct Case {
            std::string text;
            std::string field;
            int line;
            std::string message;
        };
        const std::vector<Case> cases = {
            {base + "      software:\n", "steps[1].text.software", 16, "has no value"},
            {base + "      software: By system call.\n", "steps[1].text.software", 16, "must be a mapping"},
            {base + "      software:\n        zh: 系统调用。\n", "steps[1].text.software.en", 16,
             "required field is missing"},
            {base + "      software:\n        en: ''\n", "steps[1].text.software.en", 17,
             "must not be empty"},
            {base + "      software:\n        eng: x\n", "steps[1].text.software.eng", 17,
             "unknown key 'eng'"},
            {base + "      softroce:\n        en: x\n", "steps[1].text.softroce", 16,
             "(allowed here: en, zh, software, hardware)"},
            // Without the common English text, both variants are needed.
            {replace_line(replace_line(base, 14, "      software:"), 15, "        en: By system call."),
             "steps[1].text.en", 13, "only when both 'software' and 'hardware'"},
            // A Chinese common text without its English.
            {replace_line(base, 14, "      hardware:\n        en: x\n      software:\n        en: y"),
             "steps[1].text.zh", 18, "needs the English one"},
            {base + "summary:\n  en: S.\n  hardware:\n    en: ''\n", "summary.hardware.en", 19,
             "must not be empty"},
            // Titles have no device variants.
            {replace_line(base, 5, "  software:\n    en: x"), "title.software", 5, "unknown key 'software'"},
        };
        for (const auto& c : cases) {
            LessonError error;
            const bool loaded = parse_lesson(c.text, "variants.yaml", error).has_value();
            const std::string what = c.field + ": " + error.to_string() + "\n" + c.text;
            QVERIFY2(!loaded, what.c_str());
            QVERIFY2(error.field == c.field, what.c_str());
            QVERIFY2(error.line == c.line, what.c_str());
            QVERIFY2(contains(error.message, c.message), what.c_str());
            QVERIFY2(contains(error.to_string(), "variants.yaml:" + std::to_string(c.line) + ":"),
                     what.c_str());
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
        QCOMPARE(lesson->step("open_device")->text.get(DeviceClass::software, "zh"), std::string("Open it."));
        QCOMPARE(lesson->step("post_send_A")->text.get(DeviceClass::hardware, "zh"), std::string("提交。"));
        QCOMPARE(lesson->step("post_send_A")->text.get(DeviceClass::unknown, "en"), std::string("Post it."));
        QVERIFY(!lesson->step("post_send_A")->text.varies());
        QVERIFY(lesson->step("post_send_A")->text.variant(DeviceClass::software) == nullptr);
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
