// The lab format (labs/include/rdmalab/labs/lab.hpp, docs/lab-format.md): the worked example parses into the
// steps, objects and expectations it says; parameters are substituted and checked; every malformed file in
// tests/data/labs-bad is rejected at the line, column and field its first line names, by the library and by
// `rdmalab-cli lab check`; the document names every action, field and expectation of the schema; every lab
// shipped in labs/ parses and is translated.
#include "rdmalab/labs/lab.hpp"
#include "rdmalab/labs/lab_schema.hpp"
#include "rdmalab/labs/troubleshooting.hpp"
#include "testutil.hpp"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <set>
#include <string>

using namespace rdmalab::labs;
using rdmalab::test::runCli;

namespace {

const QString kSource = RDMALAB_SOURCE_DIR;
const QString kExample = kSource + "/tests/data/labs/write-needs-remote-write.yaml";

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

std::string readFile(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    return file.readAll().toStdString();
}

Lab loadExample() {
    LabError error;
    auto lab = load_lab(kExample.toStdString(), error);
    if (!lab) qFatal("the worked example does not parse: %s", error.to_string().c_str());
    return *lab;
}

/// What a bad file's first line says its error is: "# expect: LINE:COLUMN field 'F': MESSAGE-PART".
struct Expected {
    int line = -1;
    int column = -1;
    QString field;
    QString message;
};

Expected expectedOf(const QString& path) {
    QFile file(path);
    Expected e;
    if (!file.open(QIODevice::ReadOnly)) return e;
    const QString first = QString::fromUtf8(file.readLine()).trimmed();
    static const QRegularExpression re(R"(^# expect: (\d+):(\d+) field '([^']*)': (.+)$)");
    const auto m = re.match(first);
    if (!m.hasMatch()) return e;
    e.line = m.captured(1).toInt();
    e.column = m.captured(2).toInt();
    e.field = m.captured(3);
    e.message = m.captured(4);
    return e;
}

QStringList badFiles() {
    QDir dir(kSource + "/tests/data/labs-bad");
    QStringList files;
    for (const auto& name : dir.entryList({"*.yaml"}, QDir::Files, QDir::Name))
        files << dir.filePath(name);
    return files;
}

/// The section of `doc` from the heading `start` to the next heading of the same or a higher level.
QString section(const QString& doc, const QString& start) {
    const auto begin = doc.indexOf("\n" + start + "\n");
    if (begin < 0) return {};
    const int level = static_cast<int>(start.indexOf(' '));
    static const QRegularExpression heading(R"(\n(#+) )");
    auto it = heading.globalMatch(doc, begin + 1 + start.size());
    while (it.hasNext()) {
        const auto m = it.next();
        if (m.capturedLength(1) <= level) return doc.mid(begin, m.capturedStart() - begin);
    }
    return doc.mid(begin);
}

void collectFieldNames(std::span<const schema::Field> fields, QStringList& names) {
    for (const auto& f : fields) {
        if (f.name != "item") names << qs(std::string(f.name));
        collectFieldNames(f.fields, names);
    }
}

/// Lab files of the curriculum: labs/NN-slug/*.yaml.
QStringList curriculumFiles() {
    QStringList files;
    QDirIterator it(kSource + "/labs", {"*.yaml"}, QDir::Files, QDirIterator::Subdirectories);
    static const QRegularExpression chapterDir(R"(/labs/\d\d-[a-z0-9-]+/)");
    while (it.hasNext()) {
        const QString path = it.next();
        if (chapterDir.match(path).hasMatch()) files << path;
    }
    files.sort();
    return files;
}

} // namespace

class LabFormatTest : public QObject {
    Q_OBJECT
  private slots:
    void workedExampleParsesIntoItsStepsObjectsAndExpectations() {
        const Lab lab = loadExample();
        QCOMPARE(lab.id, std::string("write-needs-remote-write"));
        QCOMPARE(lab.chapter, 2);
        QCOMPARE(lab.order, 3);
        QCOMPARE(lab.level, std::string("basic"));
        QCOMPARE(lab.minutes, 10);
        QCOMPARE(lab.objectives.size(), std::size_t(1));
        QCOMPARE(lab.references.size(), std::size_t(2));
        QCOMPARE(lab.references[0].title, std::string("ibv_reg_mr(3)"));
        QCOMPARE(lab.parameters.size(), std::size_t(1));
        const Parameter& size = lab.parameters[0];
        QCOMPARE(size.name, std::string("size"));
        QCOMPARE(size.type, std::string("size"));
        QCOMPARE(size.default_value.integer, std::int64_t(64));
        QCOMPARE(size.min.value_or(-1), std::int64_t(8));
        QCOMPARE(size.max.value_or(-1), std::int64_t(1) << 20);

        QStringList ids;
        for (const auto& s : lab.steps)
            ids << qs(s.id);
        QCOMPARE(ids, (QStringList{"open", "pd_a", "pd_b", "mr_a", "mr_b", "cq_a", "cq_b", "qp_a", "qp_b",
                                   "connect", "write", "poll_a", "b_untouched"}));
        QCOMPARE(lab.steps[0].action, std::string("open_device"));
        QCOMPARE(lab.steps[0].creates(), std::string("device"));
        QCOMPARE(lab.steps[12].action, std::string("note")); // `do` absent

        const Step* mr_b = lab.step("mr_b");
        QVERIFY(mr_b);
        QCOMPARE(mr_b->action, std::string("reg_mr"));
        QCOMPARE(mr_b->creates(), std::string("B.buf"));
        QCOMPARE(mr_b->args.at("pd").text, std::string("B.pd"));
        QCOMPARE(mr_b->args.at("size").text, std::string("{size}")); // substituted by instantiate()
        const Value& access = mr_b->args.at("access");
        QCOMPARE(access.kind, Value::Kind::list);
        QCOMPARE(access.list.size(), std::size_t(1));
        QCOMPARE(access.list[0].text, std::string("local_write"));
        QCOMPARE(mr_b->position.line, 39);
        QVERIFY(mr_b->text.common.en.find("{B.buf.rkey}") != std::string::npos);

        const Step* write = lab.step("write");
        QVERIFY(write);
        QCOMPARE(write->args.at("opcode").text, std::string("write"));
        const Value& sge = write->args.at("sge");
        QCOMPARE(sge.kind, Value::Kind::list);
        QCOMPARE(sge.list.size(), std::size_t(1));
        QCOMPARE(sge.list[0].find("mr")->text, std::string("A.buf"));
        QCOMPARE(write->args.at("remote").find("mr")->text, std::string("B.buf"));

        const Step* poll = lab.step("poll_a");
        QVERIFY(poll);
        QCOMPARE(poll->expect.size(), std::size_t(2));
        QCOMPARE(poll->expect[0].kind, std::string("completion"));
        QCOMPARE(poll->expect[0].value.find("status")->text, std::string("rem_access_err"));
        QCOMPARE(poll->expect[0].value.find("qp")->text, std::string("A.qp"));
        QVERIFY(!poll->expect[0].why.en.empty() && !poll->expect[0].why.zh.empty());
        QCOMPARE(poll->expect[1].kind, std::string("qp_state"));
        QCOMPARE(poll->expect[1].value.find("qp")->text, std::string("A.qp"));
        QCOMPARE(poll->expect[1].value.find("is")->text, std::string("err"));

        const Step* untouched = lab.step("b_untouched");
        QCOMPARE(untouched->expect[0].kind, std::string("bytes"));
        QCOMPARE(untouched->expect[0].value.find("mr")->text, std::string("B.buf"));
        QVERIFY(untouched->expect[0].value.find("zero")->boolean);
        QVERIFY(missing_translations(lab).empty());
    }

    // The example a teacher copies from the document is the one this suite checks.
    void workedExampleIsTheDocumentsExample() {
        const std::string doc = readFile(kSource + "/docs/lab-format.md");
        const std::string open = "## A complete example\n\n```yaml\n";
        const auto begin = doc.find(open);
        QVERIFY(begin != std::string::npos);
        const auto end = doc.find("```", begin + open.size());
        QVERIFY(end != std::string::npos);
        QCOMPARE(doc.substr(begin + open.size(), end - begin - open.size()), readFile(kExample));
    }

    void instantiateSubstitutesParameters() {
        const Lab lab = loadExample();
        LabError error;
        auto defaults = instantiate(lab, {}, error);
        QVERIFY2(defaults, error.to_string().c_str());
        QCOMPARE(defaults->step("mr_a")->args.at("size").kind, Value::Kind::integer);
        QCOMPARE(defaults->step("mr_a")->args.at("size").integer, std::int64_t(64));

        auto four_k = instantiate(lab, {{"size", "4KiB"}}, error);
        QVERIFY2(four_k, error.to_string().c_str());
        QCOMPARE(four_k->step("mr_a")->args.at("size").integer, std::int64_t(4096));
        QCOMPARE(four_k->step("mr_b")->args.at("size").integer, std::int64_t(4096));
        QCOMPARE(four_k->parameter("size")->default_value.integer, std::int64_t(4096));
        // Texts show the value; value paths of the run stay for the runner.
        QCOMPARE(four_k->step("write")->text.common.en,
                 std::string("A posts a WRITE of 4096 bytes to B's region."));
        QVERIFY(four_k->step("mr_a")->text.common.en.find("{A.buf.lkey}") != std::string::npos);
    }

    void whenConditionsAStepAndWhatItCreates() {
        const std::string head = R"(lab: 1
id: when
chapter: 14
title: {en: "When", zh: "条件"}
level: basic
minutes: 1
objectives: [{en: "o", zh: "目标"}]
parameters:
  - {name: want, type: int, default: 1, min: 0, max: 1, text: {en: "w", zh: "期望"}}
steps:
  - {id: open, do: open_device, text: {en: "o", zh: "打开"}}
  - {id: caps, do: query_device_ex, text: {en: "c", zh: "能力"}}
  - {id: pd, do: alloc_pd, as: A.pd, when: {left: caps.xrc, op: "==", right: "{want}"}, text: {en: "p", zh: "保护域"}}
)";
        LabError error;
        // The same condition may name the conditional object and the conditional step's results.
        auto lab = parse_lab(
            head +
                R"(  - {id: mr, do: reg_mr, as: A.mr, pd: A.pd, size: 64, when: {left: caps.xrc, op: "==", right: "{want}"},
     text: {en: "{pd.dur_ns}", zh: "{pd.dur_ns}"}}
)",
            "when.yaml", error);
        QVERIFY2(lab, error.to_string().c_str());
        QVERIFY(lab->step("pd")->when);
        QCOMPARE(lab->step("pd")->when->find("left")->text, std::string("caps.xrc"));
        QVERIFY(!lab->step("caps")->when);
        auto ready = instantiate(*lab, {{"want", "0"}}, error);
        QVERIFY2(ready, error.to_string().c_str());
        QCOMPARE(ready->step("mr")->when->find("right")->integer, std::int64_t(0));
        // Another condition, or none, may not name them.
        QVERIFY(!parse_lab(
            head + R"(  - {id: mr, do: reg_mr, as: A.mr, pd: A.pd, size: 64, text: {en: "m", zh: "区域"}}
)",
            "when.yaml", error));
        QCOMPARE(
            error.message,
            std::string("object 'A.pd' exists only when caps.xrc == {want}: give this step the same 'when'"));
        QVERIFY(!parse_lab(head + R"(  - {id: note, text: {en: "{pd.dur_ns}", zh: "{pd.dur_ns}"}}
)",
                           "when.yaml", error));
        QVERIFY2(error.message.find("step 'pd' exists only when caps.xrc == {want}") != std::string::npos,
                 error.message.c_str());
    }

    void aSeedDrawsVaryingParametersStablyWithinTheirRanges() {
        const std::string text = R"(lab: 1
id: vary
chapter: 2
title: {en: "Vary", zh: "变化"}
level: basic
minutes: 1
objectives: [{en: "o", zh: "目标"}]
parameters:
  - {name: count, type: int, default: 5, min: 1, max: 1000, vary: true, text: {en: "c", zh: "数"}}
  - {name: size, type: size, default: 64, min: 8, max: 4KiB, vary: true, text: {en: "s", zh: "大小"}}
  - {name: op, type: choice, default: write, choices: [write, read, send], vary: true, text: {en: "o", zh: "操作"}}
  - {name: fixed, type: int, default: 7, min: 1, max: 9, text: {en: "f", zh: "固定"}}
steps:
  - {id: note, text: {en: "{count} {size} {op} {fixed}", zh: "{count} {size} {op} {fixed}"}}
)";
        LabError error;
        const auto lab = parse_lab(text, "vary.yaml", error);
        QVERIFY2(lab, error.to_string().c_str());
        QVERIFY(seeded_values(*lab, "").empty()); // no seed: the defaults
        const auto alice = seeded_values(*lab, "alice");
        QCOMPARE(alice, seeded_values(*lab, "alice")); // the same student, the same values
        QCOMPARE(alice.size(), std::size_t(3));        // `fixed` does not vary
        QVERIFY(!alice.count("fixed"));
        std::set<std::string> sizes, counts;
        for (const char* student : {"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"}) {
            const auto v = seeded_values(*lab, student);
            const auto count = std::stoll(v.at("count"));
            QVERIFY(count >= 1 && count <= 1000);
            const auto size = std::stoll(v.at("size"));
            QVERIFY(size >= 8 && size <= 4096 && (size & (size - 1)) == 0); // a power of two in range
            QVERIFY(v.at("op") == "write" || v.at("op") == "read" || v.at("op") == "send");
            sizes.insert(v.at("size"));
            counts.insert(v.at("count"));
            // The drawn values instantiate: they are in range by construction.
            QVERIFY2(instantiate(*lab, v, error), error.to_string().c_str());
        }
        QVERIFY(counts.size() >= 6); // neighbours get different values
        QVERIFY(sizes.size() >= 3);
        // A varying text has nothing to draw from.
        std::string bad = text;
        const std::string from = "{name: fixed, type: int, default: 7, min: 1, max: 9,";
        bad.replace(bad.find(from), from.size(), "{name: fixed, type: text, default: x, vary: true,");
        QVERIFY(!parse_lab(bad, "vary.yaml", error));
        QCOMPARE(error.field, std::string("parameters[3].vary"));
    }

    void aSeedDrawsFromTheWidestRangesWithoutOverflow() {
        // Issue 32: the full 64-bit int range divided by zero (SIGFPE), and a size whose max is 2^62 or more
        // doubled past INT64_MAX and never ended. Both now draw a value in range.
        const std::string text = R"(lab: 1
id: wide
chapter: 2
title: {en: "Wide", zh: "宽"}
level: basic
minutes: 1
objectives: [{en: "o", zh: "目标"}]
parameters:
  - {name: any, type: int, default: 0, min: -9223372036854775808, max: 9223372036854775807, vary: true, text: {en: "a", zh: "任意"}}
  - {name: huge, type: size, default: 8, min: 8, max: 9223372036854775807, vary: true, text: {en: "h", zh: "大"}}
  - {name: top, type: size, default: 4611686018427387904, min: 4611686018427387904, max: 4611686018427387904, vary: true, text: {en: "t", zh: "顶"}}
steps:
  - {id: note, text: {en: "{any} {huge} {top}", zh: "{any} {huge} {top}"}}
)";
        LabError error;
        const auto lab = parse_lab(text, "wide.yaml", error);
        QVERIFY2(lab, error.to_string().c_str());
        std::set<std::string> anys;
        for (const char* student : {"alice", "bob", "carol", "dave"}) {
            const auto v = seeded_values(*lab, student);
            anys.insert(v.at("any"));
            const auto huge = std::stoll(v.at("huge"));
            QVERIFY(huge >= 8 && (huge & (huge - 1)) == 0);
            QCOMPARE(v.at("top"), std::string("4611686018427387904")); // 2^62: the only power of two there
            QVERIFY2(instantiate(*lab, v, error), error.to_string().c_str());
        }
        QVERIFY(anys.size() >= 3);
    }

    void instantiateRejectsBadValues() {
        const Lab lab = loadExample();
        const int param_line = lab.parameters[0].position.line;
        QVERIFY(param_line > 0);
        LabError error;
        QVERIFY(!instantiate(lab, {{"size", "2MiB"}}, error));
        QCOMPARE(error.line, param_line);
        QVERIFY2(qs(error.message).contains("out of range"), error.to_string().c_str());
        QCOMPARE(error.expected, std::string("8 to 1 MiB"));
        QCOMPARE(error.found, std::string("2MiB"));

        QVERIFY(!instantiate(lab, {{"size", "4"}}, error)); // below min
        QVERIFY(!instantiate(lab, {{"size", "lots"}}, error));
        QVERIFY2(qs(error.message).contains("must be a size"), error.to_string().c_str());

        QVERIFY(!instantiate(lab, {{"sise", "64"}}, error));
        QVERIFY2(qs(error.message).contains("unknown parameter 'sise'"), error.to_string().c_str());
        QCOMPARE(error.expected, std::string("one of: size"));
    }

    // A parameter within its own range can still not fit the field it is used in: checked again.
    void instantiateChecksTheFieldAgain() {
        std::string text = readFile(kExample);
        const auto at = text.find("    max: 1MiB");
        QVERIFY(at != std::string::npos);
        text.replace(at, 13, "    max: 64GiB");
        LabError error;
        const auto lab = parse_lab(text, "wide.yaml", error);
        QVERIFY2(lab, error.to_string().c_str());
        QVERIFY(instantiate(*lab, {{"size", "16GiB"}}, error));
        QVERIFY(!instantiate(*lab, {{"size", "32GiB"}}, error));
        QCOMPARE(error.field, std::string("steps[3].size"));
        QVERIFY2(qs(error.message).contains("parameter 'size' = 34359738368 does not fit"),
                 error.to_string().c_str());
        QCOMPARE(error.line, lab->step("mr_a")->args.at("size").position.line);
    }

    void badFilesAreRejectedWhereTheirFirstLineSays() {
        const auto files = badFiles();
        QVERIFY2(files.size() >= 24, qPrintable(QString::number(files.size()) + " bad files"));
        for (const auto& path : files) {
            const Expected want = expectedOf(path);
            QVERIFY2(want.line >= 0,
                     qPrintable(path + ": no '# expect: LINE:COLUMN field 'F': MESSAGE' line"));
            LabError error;
            const auto lab = load_lab(path.toStdString(), error);
            QVERIFY2(!lab, qPrintable(path + " was accepted"));
            const QString got = qs(error.to_string());
            QVERIFY2(error.line == want.line && error.column == want.column,
                     qPrintable(path + ": at " + QString::number(error.line) + ":" +
                                QString::number(error.column) + ": " + got));
            QVERIFY2(qs(error.field) == want.field, qPrintable(path + ": " + got));
            QVERIFY2(qs(error.message).contains(want.message), qPrintable(path + ": " + got));
            QVERIFY2(got.startsWith(
                         path + (want.line > 0 ? QString(":%1:%2: ").arg(want.line).arg(want.column) : ": ")),
                     qPrintable(got));
        }
    }

    void labCheckRejectsEachBadFileWithTheSameText() {
        for (const auto& path : badFiles()) {
            const Expected want = expectedOf(path);
            const auto run = runCli({"lab", "check", path});
            QVERIFY2(run.exitCode == 1 && !run.crashed,
                     qPrintable(path + ": exit " + QString::number(run.exitCode)));
            QString head = path + ":";
            if (want.line > 0) head += QString("%1:%2:").arg(want.line).arg(want.column);
            head += " ";
            if (!want.field.isEmpty()) head += "field '" + want.field + "': ";
            QVERIFY2(run.out.startsWith(head) && run.out.contains(want.message),
                     qPrintable(path + ": " + run.out + run.err));
        }
    }

    void labCheckAcceptsGoodFilesAndFailsOnAnyBadOne() {
        auto run = runCli({"lab", "check", kExample});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, kExample + ": ok (13 steps)\n");
        const QString bad = kSource + "/tests/data/labs-bad/unknown-action.yaml";
        run = runCli({"lab", "check", kExample, bad});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.out.startsWith(kExample + ": ok (13 steps)\n" + bad + ":13:20: field 'steps[2].do': "));
        run = runCli({"lab", "check", kSource + "/tests/data/labs/no-such-file.yaml"});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.out.contains("no-such-file.yaml: cannot open the file"), qPrintable(run.out));
        run = runCli({"lab", "check"});
        QCOMPARE(run.exitCode, 2);
        run = runCli({"lab", "frobnicate"});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("lab: unknown sub-command 'frobnicate'"), qPrintable(run.err));
    }

    void labListShowsIdsTitlesAndParameters() {
        const QString dir = kSource + "/tests/data/labs";
        auto run = runCli({"lab", "list", "--dir", dir, "--json"});
        QCOMPARE(run.exitCode, 0);
        const auto doc = QJsonDocument::fromJson(run.out.toUtf8());
        const auto labs = doc.object().value("labs").toArray();
        QCOMPARE(labs.size(), 1);
        const auto lab = labs[0].toObject();
        QCOMPARE(lab.value("id").toString(), "write-needs-remote-write");
        QCOMPARE(lab.value("chapter").toInt(), 2);
        QCOMPARE(lab.value("title").toObject().value("zh").toString(), "rkey 只授予其内存区域允许的权限");
        const auto param = lab.value("parameters").toArray()[0].toObject();
        QCOMPARE(param.value("name").toString(), "size");
        QCOMPARE(param.value("default").toInt(), 64);
        QCOMPARE(param.value("min").toInt(), 8);
        QCOMPARE(param.value("max").toInt(), 1 << 20);

        run = runCli({"lab", "list", "--dir", dir});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("write-needs-remote-write") && run.out.contains("rkey 只授予") &&
                     run.out.contains("--param size=64  (size [8..1048576])"),
                 qPrintable(run.out));

        run = runCli({"lab", "list", "--dir", kSource + "/tests/data/labs-bad"});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("unknown-action.yaml:13:20: field 'steps[2].do'"), qPrintable(run.err));
    }

    void loadLabsSortsAndRefusesDuplicateIds() {
        QTemporaryDir dir;
        const std::string example = readFile(kExample);
        QDir(dir.path()).mkpath("02-memory-registration");
        QDir(dir.path()).mkpath("01-devices");
        auto write = [&](const QString& name, std::string text) {
            std::ofstream(QDir(dir.path()).filePath(name).toStdString()) << text;
        };
        std::string first = example;
        first.replace(first.find("chapter: 2"), 10, "chapter: 1");
        first.replace(first.find("id: write-needs-remote-write"), 28, "id: first");
        write("01-devices/first.yaml", first);
        write("02-memory-registration/write-needs-remote-write.yaml", example);
        write("02-memory-registration/copy.yaml", example);
        write("chapters.yaml", "chapters: []\n"); // not a lab
        std::vector<LabError> errors;
        const auto labs = load_labs(dir.path().toStdString(), errors);
        QCOMPARE(labs.size(), std::size_t(2));
        QCOMPARE(labs[0].id, std::string("first"));
        QCOMPARE(labs[1].id, std::string("write-needs-remote-write"));
        QCOMPARE(errors.size(), std::size_t(1));
        QVERIFY2(qs(errors[0].message).contains("is already used by"), errors[0].to_string().c_str());
    }

    /// Issue 14: `predict` on a step and `questions` at the end; the question may name only what is known
    /// before the step, the answer and `why` the step's own results.
    void predictionsAndQuestionsParse() {
        const std::string head = R"(lab: 1
id: predict
chapter: 9
title: {en: "Predict", zh: "预测"}
level: basic
minutes: 1
objectives: [{en: "o", zh: "目标"}]
steps:
  - {id: open, do: open_device, text: {en: "o", zh: "打开"}}
)";
        const std::string step = R"(  - id: pd
    do: alloc_pd
    as: A.pd
    text: {en: "p", zh: "保护域"}
    predict:
      question: {en: "QUESTION", zh: "问题"}
      answer: pd.errno
      choices:
        - {value: none, text: {en: "no error", zh: "没有错误"}}
        - {value: ENOMEM, text: {en: "out of memory", zh: "内存不足"}}
      why: {en: "It took {pd.dur_ns} ns.", zh: "用了 {pd.dur_ns} 纳秒。"}
questions:
  - kind: multiple
    text: {en: "Which?", zh: "哪些？"}
    choices:
      - {text: {en: "a", zh: "甲"}, correct: true}
      - {text: {en: "b", zh: "乙"}}
      - {text: {en: "c", zh: "丙"}, correct: true}
    explanation: {en: "Because.", zh: "因为。"}
)";
        auto with = [&](const std::string& question) {
            std::string text = head + step;
            text.replace(text.find("QUESTION"), 8, question);
            return text;
        };
        LabError error;
        auto lab = parse_lab(with("Will it work on {device.name}?"), "predict.yaml", error);
        QVERIFY2(lab, error.to_string().c_str());
        const auto& p = lab->step("pd")->predict;
        QVERIFY(p);
        QCOMPARE(p->answer, std::string("pd.errno"));
        QCOMPARE(p->choices.size(), std::size_t(2));
        QCOMPARE(p->choices[1].value, std::string("ENOMEM"));
        QCOMPARE(p->choices[1].text.zh, std::string("内存不足"));
        QCOMPARE(p->why.en, std::string("It took {pd.dur_ns} ns."));
        QVERIFY(!lab->step("open")->predict);
        QCOMPARE(lab->questions.size(), std::size_t(1));
        QVERIFY(lab->questions[0].multiple);
        QCOMPARE(lab->questions[0].choices.size(), std::size_t(3));
        QVERIFY(lab->questions[0].choices[0].correct && !lab->questions[0].choices[1].correct);
        QCOMPARE(lab->questions[0].explanation.zh, std::string("因为。"));
        QVERIFY(missing_translations(*lab).empty());
        // The question is asked before the step: it may not name the step's results.
        QVERIFY(!parse_lab(with("Longer than {pd.dur_ns}?"), "predict.yaml", error));
        QCOMPARE(error.field, std::string("steps[1].predict.question.en"));
        QVERIFY2(error.message.find("asked before step 'pd' runs") != std::string::npos,
                 error.message.c_str());
        // A missing translation of a choice is reported like any other text's.
        std::string text = with("Q");
        text.erase(text.find(R"(, zh: "没有错误")"), std::string(R"(, zh: "没有错误")").size());
        lab = parse_lab(text, "predict.yaml", error);
        QVERIFY2(lab, error.to_string().c_str());
        QCOMPARE(missing_translations(*lab), std::vector<std::string>{"steps[1].predict.choices[0].text.zh"});
        // The answer is a value the step shows, not a parameter or a text.
        text = with("Q");
        text.replace(text.find("answer: pd.errno"), 16, "answer: nothing");
        QVERIFY(!parse_lab(text, "predict.yaml", error));
        QCOMPARE(error.field, std::string("steps[1].predict.answer"));
        // One choice is not a question.
        text = with("Q");
        text.erase(text.find("        - {value: ENOMEM"),
                   text.find("      why:") - text.find("        - {value: ENOMEM"));
        QVERIFY(!parse_lab(text, "predict.yaml", error));
        QCOMPARE(error.field, std::string("steps[1].predict.choices"));
        QVERIFY2(error.message.find("2 to 8 choices") != std::string::npos, error.message.c_str());
    }

    /// Issue 14, troubleshooting labs: the student's turn is a note with a `solution`; its steps run in
    /// place (later steps may name what they make) and are marked as the reference fix.
    void aTroubleshootingLabHasOneTurnWithASolution() {
        LabError error;
        const auto lab = load_lab(
            RDMALAB_SOURCE_DIR.toStdString() + "/labs/06-qp-state-machine/fix-wrong-peer-qpn.yaml", error);
        QVERIFY2(lab, error.to_string().c_str());
        QVERIFY(lab->troubleshooting());
        QVERIFY(lab->step("your_turn")->your_turn);
        QVERIFY(lab->step("fix_rtr")->solution && !lab->step("fix_rtr")->your_turn);
        QVERIFY(!lab->step("check_poll")->solution);
        const auto steps = troubleshooting_steps(*lab, {}, error);
        QVERIFY2(steps, error.to_string().c_str());
        QCOMPARE(steps->setup.size(), std::size_t(15));
        QCOMPARE(steps->solution.size(), std::size_t(4));
        QCOMPARE(steps->checks.size(), std::size_t(2));
        QCOMPARE(steps->turn.value("id", std::string()), std::string("your_turn"));
        QCOMPARE(steps->setup[11]["remote_qpn"], nlohmann::json("4660"));
        QVERIFY(!steps->turn.contains("solution"));
        // A second try renames the check steps and what names their results, not the objects they use.
        QCOMPARE(steps->checks_for_attempt(1), steps->checks);
        const auto second = steps->checks_for_attempt(2);
        QCOMPARE(second[0]["id"], nlohmann::json("check_write_try2"));
        QCOMPARE(second[1]["id"], nlohmann::json("check_poll_try2"));
        QCOMPARE(second[0]["qp"], nlohmann::json("A.qp"));
        QCOMPARE(second[1]["text"]["en"], nlohmann::json("A's completion: {check_poll_try2.status}."));
        QCOMPARE(steps->checks_for_attempt(3)[1]["text"]["zh"],
                 nlohmann::json("A 的完成项：{check_poll_try3.status}。"));
        const auto plain = parse_lab(readFile(kExample), "x.yaml", error);
        QVERIFY2(plain && !plain->troubleshooting(), error.to_string().c_str());
        const std::string head = R"(lab: 1
id: turn
chapter: 6
title: {en: "Turn", zh: "轮到你"}
level: basic
minutes: 1
objectives: [{en: "o", zh: "目标"}]
steps:
  - {id: open, do: open_device, text: {en: "o", zh: "打开"}}
)";
        QVERIFY(!parse_lab(
            head +
                R"(  - {id: pd, do: alloc_pd, as: A.pd, text: {en: "p", zh: "p"}, solution: [{id: x, text: {en: "x", zh: "x"}}]}
)",
            "turn.yaml", error));
        QCOMPARE(error.field, std::string("steps[1].solution"));
        QVERIFY2(error.message.find("only the student's turn has a solution") != std::string::npos,
                 error.message.c_str());
        const std::string turn =
            R"(  - {id: t1, text: {en: "t", zh: "t"}, solution: [{id: f1, do: alloc_pd, as: A.pd, text: {en: "f", zh: "f"}}]}
)";
        auto ok = parse_lab(
            head + turn + R"(  - {id: use, do: reg_mr, as: A.mr, pd: A.pd, size: 64, text: {en: "m", zh: "m"}}
)",
            "turn.yaml", error);
        QVERIFY2(ok, error.to_string().c_str()); // the check names what the reference fix made
        QVERIFY(!parse_lab(
            head + turn +
                R"(  - {id: t2, text: {en: "t", zh: "t"}, solution: [{id: f2, text: {en: "f", zh: "f"}}]}
)",
            "turn.yaml", error));
        QVERIFY2(error.message.find("one student's turn") != std::string::npos, error.message.c_str());
    }

    void missingTranslationIsReported() {
        std::string text = readFile(kExample);
        const std::string zh = R"(, zh: "A 的保护域。")";
        const auto at = text.find(zh);
        QVERIFY(at != std::string::npos);
        text.erase(at, zh.size());
        LabError error;
        const auto lab = parse_lab(text, "x.yaml", error);
        QVERIFY2(lab, error.to_string().c_str());
        const auto missing = missing_translations(*lab);
        QCOMPARE(missing.size(), std::size_t(1));
        QCOMPARE(missing[0], std::string("steps[1].text.zh"));
    }

    void documentNamesEveryActionFieldAndExpectation() {
        const QString doc = qs(readFile(kSource + "/docs/lab-format.md"));
        const QString actions = section(doc, "### Actions");
        const QString expectations = section(doc, "### Expectations");
        QVERIFY(!actions.isEmpty() && !expectations.isEmpty());
        for (const auto& action : schema::actions()) {
            const QString name = qs(std::string(action.name));
            const QString sub = section(actions, "#### `" + name + "`");
            QVERIFY2(!sub.isEmpty(), qPrintable("docs/lab-format.md, Actions: no '#### `" + name + "`'"));
            QStringList fields;
            collectFieldNames(action.fields, fields);
            for (const auto& field : fields)
                QVERIFY2(sub.contains("`" + field + "`"),
                         qPrintable(name + ": field `" + field + "` not documented"));
            for (const auto& result : action.results) {
                const QString r = qs(std::string(result));
                QVERIFY2(sub.contains("`" + r + "`"),
                         qPrintable(name + ": result `" + r + "` not documented"));
            }
        }
        for (const auto& kind : schema::expectations()) {
            const QString name = qs(std::string(kind.name));
            const QString sub = section(expectations, "#### `" + name + "`");
            QVERIFY2(!sub.isEmpty(),
                     qPrintable("docs/lab-format.md, Expectations: no '#### `" + name + "`'"));
            QVERIFY2(sub.contains("```yaml"), qPrintable(name + ": no example"));
            QStringList fields;
            collectFieldNames(kind.fields, fields);
            for (const auto& field : fields)
                QVERIFY2(sub.contains("`" + field + "`"),
                         qPrintable(name + ": field `" + field + "` not documented"));
        }
    }

    // A step's own keys and an action's fields share one mapping: a field may not take a step key's name.
    void noActionFieldShadowsAStepKey() {
        for (const auto& action : schema::actions())
            for (const auto& field : action.fields)
                for (const char* key : {"id", "do", "title", "text", "expect"})
                    QVERIFY2(field.name != key, qPrintable(qs(std::string(action.name)) + "." + key +
                                                           " collides with the step's key"));
    }

    void everyShippedLabParsesAndIsTranslated() {
        QStringList files = curriculumFiles();
        if (files.isEmpty()) files << kExample; // no curriculum on this branch yet
        std::set<std::string> ids;
        for (const auto& path : files) {
            LabError error;
            const auto lab = load_lab(path.toStdString(), error);
            QVERIFY2(lab, error.to_string().c_str());
            QVERIFY2(instantiate(*lab, {}, error), error.to_string().c_str());
            const auto missing = missing_translations(*lab);
            QVERIFY2(missing.empty(), qPrintable(path + ": no Simplified Chinese for " +
                                                 (missing.empty() ? QString() : qs(missing.front()))));
            QVERIFY2(ids.insert(lab->id).second, qPrintable(path + ": duplicate id " + qs(lab->id)));
            if (path == kExample) continue;
            // labs/NN-slug/ID.yaml with chapter NN inside.
            const QFileInfo info(path);
            QCOMPARE(info.fileName(), qs(lab->id) + ".yaml");
            QCOMPARE(info.dir().dirName().left(2).toInt(), lab->chapter);
        }
    }

    // A sentence of a step's text that names a kernel version states what that kernel does; where the run
    // shows the value it states, a `says` item of the step quotes it, so every run on the test bed's two
    // kernels checks the sentence against the device (docs/lab-format.md, `says`). The sentences below
    // name a kernel but state nothing this step shows; each says why.
    void everyKernelStatementIsChecked() {
        struct Unchecked {
            const char* lab;
            const char* step;
            const char* words; ///< part of the sentence
            const char* reason;
        };
        const Unchecked unchecked[] = {
            {"send", "post_send_A", "In Linux 6.1 the rxe driver starts the requester's work",
             "where the work runs inside the kernel: not observed by the run"},
            {"write", "post_send_A", "In Linux 6.1 the rxe driver starts the requester's work",
             "where the work runs inside the kernel: not observed by the run"},
            {"read", "post_send_A", "In Linux 6.1 the rxe driver starts the requester's work",
             "where the work runs inside the kernel: not observed by the run"},
            {"send", "post_recv_B", "but rxe in Linux 6.1 reports IBV_WC_LOC_QP_OP_ERR",
             "a fault this lab does not provoke (receive-too-small runs it)"},
            {"ud-grh-and-mtu", "poll_c_dropped", "Linux 6.1's rxe fails C's receive instead",
             "the other kernel's behaviour: step poll_c, which runs on Linux 6.1, checks it"},
        };
        const QRegularExpression namesKernel(QStringLiteral(R"(\bLinux 6\.\d+|\b6\.12\b)"));
        const QRegularExpression sentenceEnd(QStringLiteral(R"((?<=[.;])\s+)"));
        int checked = 0;
        QStringList missing;
        for (const auto& path : curriculumFiles()) {
            LabError error;
            const auto lab = load_lab(path.toStdString(), error);
            QVERIFY2(lab, error.to_string().c_str());
            for (const auto& step : lab->steps) {
                QStringList quotes;
                for (const auto& e : step.expect)
                    if (e.kind == "says") quotes << qs(e.value.find("en")->text).simplified();
                for (const auto* text : {&step.text.common, &step.text.software, &step.text.hardware}) {
                    for (const QString& sentence : qs(text->en).simplified().split(sentenceEnd)) {
                        if (!sentence.contains(namesKernel)) continue;
                        const bool quoted = std::any_of(quotes.begin(), quotes.end(), [&](const QString& q) {
                            return sentence.contains(q);
                        });
                        const bool excused =
                            std::any_of(std::begin(unchecked), std::end(unchecked), [&](const Unchecked& u) {
                                return lab->id == u.lab && step.id == u.step &&
                                       sentence.contains(QLatin1String(u.words));
                            });
                        if (quoted) ++checked;
                        if (!quoted && !excused)
                            missing << QStringLiteral("%1, step %2: \"%3\"")
                                           .arg(qs(lab->id), qs(step.id), sentence);
                    }
                }
            }
        }
        QVERIFY2(missing.isEmpty(),
                 qPrintable("a sentence names a kernel but no 'says' item of its step quotes it:\n" +
                            missing.join('\n')));
        QVERIFY2(checked >= 15, qPrintable(QStringLiteral("only %1 kernel statements checked").arg(checked)));
    }

    void chaptersAreTheCurriculum() {
        std::vector<LabError> errors;
        const auto chapters = load_chapters((kSource + "/labs/chapters.yaml").toStdString(), errors);
        QVERIFY2(errors.empty(), errors.empty() ? "" : errors[0].to_string().c_str());
        QCOMPARE(chapters.size(), std::size_t(29));
        for (std::size_t i = 0; i < chapters.size(); ++i) {
            QCOMPARE(chapters[i].number, static_cast<int>(i + 1));
            QVERIFY(!chapters[i].title.en.empty() && !chapters[i].title.zh.empty());
        }
        QCOMPARE(chapters[0].slug, std::string("devices"));
        QCOMPARE(chapters[27].slug, std::string("measuring"));
        // Every chapter directory that exists is NN-slug of its chapter.
        for (const auto& entry : QDir(kSource + "/labs").entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            static const QRegularExpression re(R"(^(\d\d)-(.+)$)");
            const auto m = re.match(entry);
            if (!m.hasMatch()) continue;
            const int n = m.captured(1).toInt();
            QVERIFY2(n >= 1 && n <= 29, qPrintable(entry));
            QCOMPARE(m.captured(2), qs(chapters[static_cast<std::size_t>(n - 1)].slug));
        }
    }

    void errorTextFormat() {
        LabError e{"f.yaml", 3, 7, "steps[1].access[0]", "unknown access flag 'x'", "one of: a, b", "x"};
        QCOMPARE(e.to_string(),
                 "f.yaml:3:7: field 'steps[1].access[0]': unknown access flag 'x' (expected one of: a, b, "
                 "found x)");
        e.expected.clear();
        e.found.clear();
        QCOMPARE(e.to_string(),
                 std::string("f.yaml:3:7: field 'steps[1].access[0]': unknown access flag 'x'"));
        e.field.clear();
        e.line = 0;
        QCOMPARE(e.to_string(), std::string("f.yaml: unknown access flag 'x'"));
    }

    // Hostile inputs end in an error, quickly: never a crash, an exception or a hang.
    void hostileInputsAreRefusedQuickly() {
        const std::vector<std::string> inputs = {
            std::string(200000, '['),
            std::string(100000, '{') + "a",
            "a: &a [*a]\n",
            "lab: 1\nid: x\n" + std::string(1000, ' ') + "\xff\xfe",
            "lab: 99999999999999999999999999\n",
            "- - - - - - - -\n",
            std::string("\0\0\0", 3),
            "lab: 1\nid: x\nchapter: 1\nlevel: intro\nminutes: 1\ntitle: {en: x}\nobjectives: [{en: "
            "x}]\nsteps:\n"
            "  - {id: a, do: open_device, text: {en: '{device.name}{device.}{.}{..}{a.}{A.}{A..x}{}{'}}\n",
        };
        QElapsedTimer timer;
        timer.start();
        for (const auto& input : inputs) {
            LabError error;
            const auto lab = parse_lab(input, "hostile.yaml", error);
            QVERIFY(!lab);
            QVERIFY(!error.message.empty());
        }
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed()) + " ms"));
    }
};

QTEST_GUILESS_MAIN(LabFormatTest)
#include "tst_labformat.moc"
