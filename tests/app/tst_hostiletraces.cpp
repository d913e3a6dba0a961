// Hostile traces: every field of the real recordings given every other JSON type, numbers out of range,
// byte ranges outside the buffer, a wrong-typed event from the engine process, an engine that sends
// garbage. A recording is refused with its file, line and field, or shown; a wrong-typed event from the
// engine is reported and skipped, and an engine that sends what is not a trace event is stopped and
// reported like one that died, its earlier events kept; nothing crashes.
#include "benchsession.h"
#include "datapathview.h"
#include "engineclient.h"
#include "labsession.h"
#include "labstate.h"
#include "lessoncontroller.h"
#include "mainwindow.h"
#include "memoryview.h"
#include "testutil.hpp"
#include "tracefile.h"
#include "verbscode.h"
#include "windowdrivers.h"

#include "rdmalab/format/describe.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <climits>
#include <set>

using namespace rdmalab;
using namespace rdmalab::app;
using rdmalab::test::mainWindow;
using rdmalab::test::windowParts;
using json = nlohmann::json;

namespace {
const QString kData = (RDMALAB_SOURCE_DIR + QStringLiteral("/tests/data/"));

std::vector<std::string> readLines(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
    std::vector<std::string> lines;
    while (!file.atEnd())
        if (const QByteArray line = file.readLine().trimmed(); !line.isEmpty())
            lines.push_back(line.toStdString());
    return lines;
}

void writeLines(const QString& path, const std::vector<std::string>& lines) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) qFatal("cannot write %s", qPrintable(path));
    for (const auto& line : lines)
        file.write(QByteArray::fromStdString(line + "\n"));
}

std::vector<TraceEvent> load(const QString& name) {
    TraceFileError error;
    auto events = readTraceFile(kData + name, error);
    if (!events) qFatal("%s", qPrintable(error.toString()));
    return *events;
}

/// Index of the first line whose event satisfies `match`.
template <typename Match> std::size_t findLine(const std::vector<std::string>& lines, Match match) {
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (match(json::parse(lines[i]))) return i;
    qFatal("no such event");
}

/// Everything the app does with an event it opened, after the `earlier` events of its recording.
void foldEverywhere(const LabState& stateBefore, std::vector<TraceEvent> earlier, const TraceEvent& event) {
    LabState lab = stateBefore;
    lab.apply(event);
    (void)describe(event);
    (void)verbsCode(event);
    earlier.push_back(event);
    BenchSession bench(nullptr);
    bench.openReplay(earlier, QStringLiteral("mutated"));
}

/// A field inside an event's data or ids: where it is, and the path a reader names it by.
struct FieldSite {
    json::json_pointer pointer;
    std::string path;
};

/// Every field of `object`, recursing into nested objects and into the first object of an array of objects.
void collectSites(const json& object, const json::json_pointer& pointer, const std::string& path,
                  std::vector<FieldSite>& out) {
    for (auto it = object.begin(); it != object.end(); ++it) {
        const auto at = pointer / it.key();
        const std::string name = path + "." + it.key();
        out.push_back({at, name});
        if (it->is_object())
            collectSites(*it, at, name, out);
        else if (it->is_array() && !it->empty() && it->front().is_object())
            collectSites(it->front(), at / 0, name + "[0]", out);
    }
}

/// A value of each other JSON type, and for numbers the ones readers forget: negative, huge, fractional.
std::vector<json> replacementsFor(const json& original) {
    std::vector<json> out;
    const json others[] = {json("yes"),   json(7),          json(true),
                           json(nullptr), json::array({1}), json::object({{"k", 1}})};
    for (const auto& value : others)
        if (value.is_number() ? !original.is_number() : value.type() != original.type()) out.push_back(value);
    if (original.is_number())
        for (const json& number : {json(-1), json(std::numeric_limits<std::uint64_t>::max()),
                                   json(std::numeric_limits<std::int64_t>::max()), json(2.5)})
            out.push_back(number);
    return out;
}

QString engineScript(const QTemporaryDir& dir, const QStringList& replies) {
    // A stand-in for `rdmalab-cli serve --stdio`: reads hello and lab.start, answers with `replies`.
    QString text = "#!/bin/sh\nread hello\nread start\n";
    for (const auto& reply : replies)
        text += "printf '%s\\n' '" + reply + "'\n";
    text += "exec cat >/dev/null\n";
    const QString path = dir.filePath("fake-engine.sh");
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
    file.write(text.toUtf8());
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

/// A script standing in for the engine: `body` runs after the shebang.
QString scriptEngine(const QTemporaryDir& dir, const QString& name, const QString& body) {
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
    file.write(("#!/bin/sh\n" + body).toUtf8());
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

const char* const kSessionLine = "{\"v\":1,\"seq\":1,\"t_ns\":1,\"ep\":\"-\",\"kind\":\"session\","
                                 "\"name\":\"rdmalab\",\"ids\":{},\"data\":{\"device\":\"rxe0\","
                                 "\"device_info\":{\"name\":\"rxe0\",\"software\":true}}}";
const char* const kStartLine = "{\"v\":1,\"seq\":2,\"t_ns\":2,\"ep\":\"-\",\"kind\":\"result\","
                               "\"name\":\"lab.start\",\"ids\":{\"id\":1},\"data\":{\"ok\":true,"
                               "\"steps\":[{\"id\":\"open_device\",\"title\":\"Open the device\"}]}}";
const char* const kWrongTypedLine = "{\"v\":1,\"seq\":3,\"t_ns\":3,\"ep\":\"-\",\"kind\":\"session\","
                                    "\"name\":\"rdmalab\",\"ids\":{},\"data\":{\"device\":\"rxe9\","
                                    "\"device_info\":{\"name\":\"rxe9\",\"software\":\"yes\"}}}";
/// The answer of `rdmalab-cli serve --stdio` to the app's first `hello` (id 0), as the engine prints it, with
/// `protocol` set to `protocol` (or left out when it is null, as an engine older than protocol versions).
QString helloLine(const json& protocol) {
    json data = {{"format", 1}, {"ok", true}, {"tool", "rdmalab-cli"}, {"version", "9.8.7"}};
    if (!protocol.is_null()) data["protocol"] = protocol;
    const json line = {{"data", data},    {"ep", "-"}, {"ids", {{"id", 0}}},   {"kind", "result"},
                       {"name", "hello"}, {"seq", 1},  {"t_ns", 947720156767}, {"v", 1}};
    return QString::fromStdString(line.dump());
}

/// A stand-in engine that keeps the first line it reads in `got` and answers it with `hello`.
QString helloEngine(const QTemporaryDir& dir, const QString& hello) {
    return scriptEngine(dir, "other-protocol.sh",
                        "read hello\nprintf '%s\\n' \"$hello\" > '" + dir.filePath("got") +
                            "'\nprintf '%s\\n' '" + hello + "'\nexec cat >/dev/null\n");
}
} // namespace

class HostileTracesTest : public QObject {
    Q_OBJECT
  private slots:
    void everyFieldOfEveryTypeIsRefusedWithItsLineOrShown() {
        QTemporaryDir dir;
        QElapsedTimer clock;
        clock.start();
        // Events of one kind and name are read by the same code: each field of each shape is mutated once
        // (deterministic; keeps the run short under the sanitizers).
        std::set<std::string> shapesSeen;
        int refused = 0, shown = 0;
        for (const QString& name : QDir(kData).entryList({"*.jsonl"}, QDir::Files, QDir::Name)) {
            const auto lines = readLines(kData + name);
            const auto events = load(name);
            QCOMPARE(events.size(), lines.size()); // one event per line, no blank lines
            const QString path = dir.filePath(name);
            LabState stateBefore; // after the events before line i
            for (std::size_t i = 0; i < lines.size(); stateBefore.apply(events[i++])) {
                const json event = json::parse(lines[i]);
                std::vector<FieldSite> sites;
                collectSites(event["data"], json::json_pointer("/data"), "data", sites);
                collectSites(event["ids"], json::json_pointer("/ids"), "ids", sites);
                for (const auto& site : sites) {
                    const std::string shape = event["kind"].get<std::string>() + " " +
                                              event["name"].get<std::string>() + " " + site.path;
                    if (!shapesSeen.insert(shape).second) continue;
                    for (const auto& value : replacementsFor(event.at(site.pointer))) {
                        json mutated = event;
                        mutated[site.pointer] = value;
                        // The mutated event at its line; the lines before it are blank (the reader skips
                        // them), so it is not read again for every mutation. They fold in from `events`.
                        std::vector<std::string> file(i + 1);
                        file[i] = mutated.dump();
                        writeLines(path, file);
                        const QString what =
                            QStringLiteral("%1 line %2: %3 = %4")
                                .arg(name)
                                .arg(i + 1)
                                .arg(QString::fromStdString(site.path), QString::fromStdString(value.dump()));
                        TraceFileError error;
                        if (const auto read = readTraceFile(path, error)) {
                            QCOMPARE(read->size(), std::size_t(1));
                            // Tolerated: shown without throwing, after what led up to it.
                            foldEverywhere(stateBefore,
                                           {events.begin(), events.begin() + static_cast<long>(i)},
                                           read->front());
                            ++shown;
                            continue;
                        }
                        ++refused;
                        const QString expected = QStringLiteral("%1: line %2: field '%3")
                                                     .arg(path)
                                                     .arg(i + 1)
                                                     .arg(QString::fromStdString(site.path));
                        QVERIFY2(error.toString().startsWith(expected),
                                 qPrintable(what + " -> " + error.toString()));
                        QVERIFY2(error.message.startsWith("expected ") && error.message.contains(", found "),
                                 qPrintable(what + " -> " + error.toString()));
                    }
                }
            }
        }
        qInfo("%d mutations: %d refused with their line and field, %d shown; %lld ms", refused + shown,
              refused, shown, static_cast<long long>(clock.elapsed()));
        QVERIFY(refused > 100);
        QVERIFY(shown > 100);
    }

    void aWrongTypedFieldNamesFileLineFieldAndTypes() {
        QTemporaryDir dir;
        auto lines = readLines(kData + "lesson-write.jsonl");
        json session = json::parse(lines[0]);
        session["data"]["device_info"]["software"] = "yes";
        lines[0] = session.dump();
        const QString path = dir.filePath("software-yes.jsonl");
        writeLines(path, lines);
        TraceFileError error;
        QVERIFY(!readTraceFile(path, error));
        QCOMPARE(error.toString(),
                 path + ": line 1: field 'data.device_info.software': expected a boolean, found string");

        lines = readLines(kData + "lesson-write.jsonl");
        const std::size_t rtr = findLine(lines, [](const json& e) { return e["name"] == "INIT->RTR"; });
        json event = json::parse(lines[rtr]);
        event["data"]["attrs"]["dest_qp_num"] = json::object();
        lines[rtr] = event.dump();
        writeLines(path, lines);
        QVERIFY(!readTraceFile(path, error));
        QCOMPARE(error.toString(), QStringLiteral("%1: line %2: field 'data.attrs.dest_qp_num': expected an "
                                                  "integer, found object")
                                       .arg(path)
                                       .arg(rtr + 1));
    }

    // Lines reordered or repeated are refused at the line where the numbering goes back; a session header
    // may start a new numbering (an engine started again), as in a real autosave.
    void eventsOutOfOrderOrRepeatedAreRefusedWithTheirLine() {
        QTemporaryDir dir;
        const auto original = readLines(kData + "lesson-write.jsonl");
        QVERIFY(original.size() > 10);
        const QString path = dir.filePath("reordered.jsonl");
        TraceFileError error;
        auto lines = original;
        std::swap(lines[5], lines[6]);
        writeLines(path, lines);
        QVERIFY(!readTraceFile(path, error));
        QCOMPARE(error.line, std::size_t(7));
        QCOMPARE(error.field, QStringLiteral("seq"));
        QVERIFY2(error.message.contains("out of order or repeated"), qPrintable(error.message));
        lines = original;
        lines.insert(lines.begin() + 4, lines[3]);
        writeLines(path, lines);
        QVERIFY(!readTraceFile(path, error));
        QCOMPARE(error.line, std::size_t(5));
        QCOMPARE(error.message,
                 QStringLiteral("seq %1 comes after seq %1: the events are out of order or repeated "
                                "(a recording lists each event once, in the order it happened)")
                     .arg(json::parse(original[3])["seq"].get<std::uint64_t>()));
        // Two sessions in one file, each numbered from 1: read whole.
        lines = original;
        lines.insert(lines.end(), original.begin(), original.end());
        writeLines(path, lines);
        const auto twice = readTraceFile(path, error);
        QVERIFY2(twice, qPrintable(error.toString()));
        QCOMPARE(twice->size(), 2 * original.size());
    }

    void changedBytesOutsideTheBufferAreRefusedOrClipped() {
        QTemporaryDir dir;
        auto lines = readLines(kData + "lesson-write.jsonl");
        const std::size_t observed = findLine(lines, [](const json& e) {
            return e["kind"] == "data" && !e["data"]["changed"].empty() && e["ep"] == "B";
        });
        json event = json::parse(lines[observed]);
        event["data"]["changed"][0]["offset"] = -8;
        lines[observed] = event.dump();
        const QString path = dir.filePath("negative-offset.jsonl");
        writeLines(path, lines);
        TraceFileError error;
        QVERIFY(!readTraceFile(path, error));
        QCOMPARE(error.line, observed + 1);
        QCOMPARE(error.field, QString("data.changed[0].offset"));

        // Ranges past the bytes the event carries are legal (they are relative to the whole buffer): the
        // model keeps the part it can show.
        const auto huge = std::numeric_limits<std::uint64_t>::max();
        const std::pair<json, json> ranges[] = {{60, huge},
                                                {json(1ULL << 62), json(1ULL << 62)},
                                                {0, json(1ULL << 63)},
                                                {INT_MAX, INT_MAX},
                                                {8, 8}};
        for (const auto& [offset, length] : ranges) {
            TraceEvent memory;
            memory.kind = EventKind::Data;
            memory.endpoint = Endpoint::B;
            memory.name = "memory";
            memory.data = {{"hex", std::string(128, 'a')},
                           {"length", 64},
                           {"changed", json::array({{{"offset", offset}, {"length", length}}})}};
            LabState state;
            state.apply(memory);
            const auto& m = state.memory[1];
            QCOMPARE(m.bytes.size(), qsizetype(64));
            for (const auto& [first, count] : m.changed) {
                const QString range =
                    QStringLiteral("offset %1 length %2 -> %3+%4")
                        .arg(QString::fromStdString(offset.dump()), QString::fromStdString(length.dump()))
                        .arg(first)
                        .arg(count);
                QVERIFY2(first >= 0 && count > 0 && qint64(first) + count <= m.bytes.size(),
                         qPrintable(range));
            }
        }
    }

    void viewsPaintOnlyTheBytesTheyHave() {
        // Whatever the state holds, the views index only the bytes they have.
        LabState state;
        for (auto& m : state.memory) {
            m.bytes = QByteArray(64, 'A');
            m.changed = {{-8, 16}, {60, INT_MAX}, {INT_MAX, INT_MAX}, {INT_MIN, 4}, {4, -3}};
        }
        MemoryView memory;
        memory.resize(480, 640);
        memory.setState(state);
        QVERIFY(!memory.grab().isNull());
        DataPathView dataPath;
        dataPath.resize(900, 600);
        dataPath.setAnimationSpeed(0); // no animation: the state is drawn at once
        dataPath.showEvents({}, state);
        QVERIFY(!dataPath.grab().isNull());
    }

    void describeDoesNotOverflowOnTheLastStepNumber() {
        TraceEvent step;
        step.kind = EventKind::Step;
        step.name = "last";
        step.data = {{"index", INT_MAX}, {"count", INT_MAX}, {"title", "the last step"}};
        QCOMPARE(describe(step), std::string("[-] step 2147483648/2147483647: the last step"));
    }

    void aWrongTypedEventFromTheEngineIsReportedAndSkipped() {
        QTemporaryDir dir;
        const QString script = engineScript(
            dir, {R"({"v":1,"seq":1,"t_ns":1,"ep":"-","kind":"session","name":"rdmalab","ids":{},)"
                  R"("data":{"device":"rxe9","device_info":{"name":"rxe9","software":"yes"}}})",
                  R"({"v":1,"seq":2,"t_ns":2,"ep":"-","kind":"session","name":"rdmalab","ids":{},)"
                  R"("data":{"device":"rxe0","device_info":{"name":"rxe0","software":true}}})",
                  R"({"v":1,"seq":3,"t_ns":3,"ep":"-","kind":"result","name":"lab.start","ids":{"id":1},)"
                  R"("data":{"ok":true,"steps":[{"id":"open_device","title":"Open the device"}]}})"});
        EngineClient engine;
        engine.setProgram(script);
        LessonController controller(&engine);
        QSignalSpy started(&engine, &EngineClient::started);
        QSignalSpy garbage(&engine, &EngineClient::protocolError);
        engine.start();
        QTRY_COMPARE(started.count(), 1);
        controller.startLive("write", 64, "x");
        QTRY_COMPARE(controller.sessionEvents().size(), std::size_t(2)); // what was sound is kept
        QCOMPARE(garbage.count(), 1);
        const QString report = garbage.at(0).at(0).toString();
        QVERIFY2(
            report.contains("line 1: field 'data.device_info.software': expected a boolean, found string"),
            qPrintable(report));
        QCOMPARE(controller.state().device, QString("rxe0"));
        QVERIFY(controller.state().softwareDevice);
        QCOMPARE(controller.state().plannedSteps.size(), std::size_t(1));
        engine.stop();
    }

    void anEngineThatSendsGarbageIsStoppedLikeOneThatDied() {
        QTemporaryDir dir;
        const QString script =
            engineScript(dir, {kSessionLine, kStartLine, "Segmentation fault in libfoo: this is no event"});
        EngineClient engine;
        engine.setProgram(script);
        LessonController controller(&engine);
        QSignalSpy started(&engine, &EngineClient::started);
        QSignalSpy died(&engine, &EngineClient::engineDied);
        QSignalSpy skipped(&engine, &EngineClient::protocolError);
        engine.start();
        QTRY_COMPARE(started.count(), 1);
        controller.startLive("write", 64, "x");
        QTRY_COMPARE(died.count(), 1);
        const QString report = died.at(0).at(0).toString();
        QVERIFY2(report.contains("sent something that is not a trace event: output line 3: field '(line)': "
                                 "not valid JSON") &&
                     report.contains(script) && report.contains("Restart engine"),
                 qPrintable(report));
        QVERIFY(!engine.isRunning()); // stopped, although the script would have waited for more input
        QCOMPARE(controller.sessionEvents().size(), std::size_t(2)); // what came before is kept
        QCOMPARE(controller.state().device, QString("rxe0"));
        QCOMPARE(skipped.count(), 0);
        QTest::qWait(300);
        QCOMPARE(died.count(), 1); // its exit is not reported a second time
        // A restart runs it again from the start.
        engine.start();
        QTRY_COMPARE(started.count(), 2);
        controller.startLive("write", 64, "x");
        QTRY_COMPARE(died.count(), 2);
    }

    void aJsonValueThatIsNoEventStopsTheEngine() {
        QTemporaryDir dir;
        EngineClient engine;
        engine.setProgram(engineScript(dir, {kSessionLine, "[1,2,3]"}));
        LessonController controller(&engine);
        QSignalSpy died(&engine, &EngineClient::engineDied);
        engine.start();
        QTRY_VERIFY(engine.isRunning());
        controller.startLive("write", 64, "x");
        QTRY_COMPARE(died.count(), 1);
        const QString report = died.at(0).at(0).toString();
        QVERIFY2(report.contains("output line 2: field '(event)': expected a JSON object"),
                 qPrintable(report));
        QCOMPARE(controller.sessionEvents().size(), std::size_t(1));
    }

    void theThirdWrongTypedEventStopsTheEngine() {
        QTemporaryDir dir;
        EngineClient engine;
        engine.setProgram(engineScript(
            dir, {kSessionLine, kWrongTypedLine, kWrongTypedLine, kStartLine, kWrongTypedLine, kStartLine}));
        LessonController controller(&engine);
        QSignalSpy died(&engine, &EngineClient::engineDied);
        QSignalSpy skipped(&engine, &EngineClient::protocolError);
        engine.start();
        QTRY_VERIFY(engine.isRunning());
        controller.startLive("write", 64, "x");
        QTRY_COMPARE(died.count(), 1);
        QCOMPARE(skipped.count(), 2); // the first two were skipped and reported
        QVERIFY2(skipped.at(1).at(0).toString().contains("line 3: field 'data.device_info.software'"),
                 qPrintable(skipped.at(1).at(0).toString()));
        const QString report = died.at(0).at(0).toString();
        QVERIFY2(
            report.contains("output line 5: field 'data.device_info.software': expected a boolean, found "
                            "string (3 events had a field of the wrong type)"),
            qPrintable(report));
        QCOMPARE(controller.sessionEvents().size(), std::size_t(2)); // lines 1 and 4; not 6, after the stop
        QVERIFY(!engine.isRunning());
    }

    void anEndlessLineStopsTheEngine() {
        QTemporaryDir dir;
        EngineClient engine;
        // More than kMaxEngineLineBytes and never a newline: it is refused before it ends.
        engine.setProgram(scriptEngine(dir, "endless.sh",
                                       "read hello\nprintf '%s\\n' '" + QString(kSessionLine) +
                                           "'\nexec tr '\\0' x < /dev/zero\n"));
        QSignalSpy died(&engine, &EngineClient::engineDied);
        QSignalSpy events(&engine, &EngineClient::eventsArrived);
        engine.start();
        QTRY_VERIFY(engine.isRunning());
        engine.send("hello");
        QTRY_VERIFY_WITH_TIMEOUT(died.count() == 1, 30000);
        const QString report = died.at(0).at(0).toString();
        QVERIFY2(report.contains("output line 2: longer than 16 MiB"), qPrintable(report));
        QCOMPARE(events.count(), 1); // the event before it arrived
        QVERIFY(!engine.isRunning());
    }

    void anEngineOfAnotherProtocolIsStoppedAndBothVersionsAreNamed() {
        const QString ours = QString::number(kProtocolVersion);
        const struct {
            json protocol;
            QString says;
        } cases[] = {
            {json(kProtocolVersion + 1), "speaks engine protocol " + QString::number(kProtocolVersion + 1)},
            {json(nullptr), "announces no engine protocol"}, // older than protocol versions
            {json("1"), "speaks engine protocol \"1\""}};
        for (const auto& c : cases) {
            QTemporaryDir dir;
            const QString script = helloEngine(dir, helloLine(c.protocol));
            EngineClient engine;
            engine.setProgram(script);
            QSignalSpy died(&engine, &EngineClient::engineDied);
            QSignalSpy events(&engine, &EngineClient::eventsArrived);
            engine.start();
            QTRY_COMPARE(died.count(), 1);
            const QString report = died.at(0).at(0).toString();
            const QString expected = "This app (rdmalab " RDMALAB_VERSION ") speaks engine protocol " + ours +
                                     ", but the engine " + script + " (rdmalab-cli 9.8.7) " + c.says;
            QVERIFY2(report.contains(expected) &&
                         report.contains("install the same rdmalab version on both sides"),
                     qPrintable(report));
            QVERIFY(!engine.isRunning()); // stopped, although the script would have waited for more input
            QCOMPARE(events.count(), 0);  // its hello is not taken for a usable engine's
            QCOMPARE(engine.send("devices"), -1);
            QTest::qWait(100);
            QCOMPARE(died.count(), 1); // its exit is not reported a second time
            // What the app said first: a hello with its protocol, before any other command.
            QFile got(dir.filePath("got"));
            QVERIFY(got.open(QIODevice::ReadOnly));
            const json hello = json::parse(got.readAll().toStdString());
            QVERIFY2(hello == json({{"id", 0}, {"cmd", "hello"}, {"protocol", kProtocolVersion}}),
                     hello.dump().c_str());
        }
    }

    void anEngineOfTheSameProtocolIsUsedAndItsHelloDelivered() {
        EngineClient engine; // the rdmalab-cli of this build
        QSignalSpy died(&engine, &EngineClient::engineDied);
        std::vector<TraceEvent> seen;
        connect(&engine, &EngineClient::eventsArrived, this, [&seen](const std::vector<TraceEvent>& events) {
            seen.insert(seen.end(), events.begin(), events.end());
        });
        engine.start();
        QTRY_VERIFY_WITH_TIMEOUT(!seen.empty(), 20000);
        QCOMPARE(seen.front().name, std::string("hello"));
        QCOMPARE(commandId(seen.front()).value_or(-1), kHelloCommandId);
        QCOMPARE(seen.front().data.value("protocol", -1), kProtocolVersion);
        QCOMPARE(engine.pending(), 0);
        const int id = engine.send("hello"); // a hello of the app's own carries the protocol too
        QVERIFY(id > 0);
        QTRY_VERIFY_WITH_TIMEOUT(seen.size() == 2, 20000);
        QCOMPARE(seen.back().data.value("ok", false), true);
        QCOMPARE(commandId(seen.back()).value_or(-1), std::int64_t(id));
        QVERIFY(engine.isRunning());
        QCOMPARE(died.count(), 0);
        engine.stop();
    }

    void aLabStepAnswerAboutNoStepOfTheLabEndsTheRunWithTheReason() {
        // The engine refused the command itself (no step_index: e.g. its run is gone) or named a step the lab
        // does not have: the session fails with a reason and touches no row (it aborted the app before).
        const struct {
            QString data;
            QString says;
        } cases[] = {{R"({"ok":false,"error":"stoul"})", "The engine refused lab.step: stoul"},
                     {R"({"ok":true,"done":false})", "The engine's answer to lab.step names no step."},
                     {R"({"ok":true,"step_index":7,"next_step":8,"state":"held"})",
                      "The engine's answer to lab.step names step 8, and the lab has 2 steps."}};
        for (const auto& c : cases) {
            QTemporaryDir dir;
            const QString idOf = R"(sed 's/.*"id":\([0-9]*\).*/\1/')";
            const QString body =
                "read hello\nprintf '%s\\n' '" + helloLine(json(kProtocolVersion)) + "'\n" +
                "read start\nid=$(printf '%s' \"$start\" | " + idOf + ")\n" +
                R"(printf '{"v":1,"seq":2,"t_ns":2,"ep":"-","kind":"result","name":"lab.start","ids":{"id":%s},)"
                R"("data":{"ok":true,"lab":{"id":"x","title":"X"},"steps":[{"id":"a","title":"A",)"
                R"("action":"open_device"},{"id":"b","title":"B","action":"close_device"}]}}\n' "$id")"
                "\n" +
                "read step\nid=$(printf '%s' \"$step\" | " + idOf + ")\n" +
                R"(printf '{"v":1,"seq":3,"t_ns":3,"ep":"-","kind":"result","name":"lab.step","ids":{"id":%s},)"
                R"("data":)" +
                c.data +
                R"(}\n' "$id")"
                "\nexec cat >/dev/null\n";
            EngineClient engine;
            engine.setProgram(scriptEngine(dir, "lab-engine.sh", body));
            LabSession session(&engine);
            QSignalSpy failed(&session, &LabSession::failed);
            QSignalSpy stepped(&session, &LabSession::stepFinished);
            QSignalSpy hello(&engine, &EngineClient::eventsArrived);
            engine.start();
            QTRY_VERIFY_WITH_TIMEOUT(hello.count() > 0, 20000); // the engine answered the app's hello
            session.start(QStringLiteral("x"), {}, QStringLiteral("en"));
            QTRY_VERIFY2_WITH_TIMEOUT(session.started(), qPrintable(session.error()), 20000);
            QCOMPARE(session.rowCount(), 2);
            session.step();
            QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 20000);
            QCOMPARE(failed.at(0).at(0).toString(), c.says);
            QCOMPARE(session.error(), c.says);
            QCOMPARE(stepped.count(), 0);
            QVERIFY(!session.busy());
            QVERIFY(!session.playing());
            QCOMPARE(session.row(0).state, QStringLiteral("pending"));
            QCOMPARE(session.row(1).state, QStringLiteral("pending"));
            engine.stop();
        }
    }

    void theWindowShowsAnEngineOfAnotherProtocolAndStaysUp() {
        QTemporaryDir dir;
        StartOptions options;
        options.engineProgram = helloEngine(dir, helloLine(json(kProtocolVersion + 1)));
        MainWindow window(options);
        window.show();
        auto* banner = windowParts(window).engineBanner();
        auto* message = windowParts(window).engineMessage();
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 20000);
        QVERIFY2(message->text().contains(
                     QStringLiteral("speaks engine protocol %1, but the engine").arg(kProtocolVersion)) &&
                     message->text().contains(QStringLiteral("(rdmalab-cli 9.8.7) speaks engine protocol %1")
                                                  .arg(kProtocolVersion + 1)),
                 qPrintable(message->text()));
        QVERIFY(window.isVisible()); // the app stays up
        QVERIFY(!window.engine()->isRunning());
        QVERIFY(!mainWindow(window).sessionLabel()->text().contains("ready"));
    }

    void theWindowShowsAGarbledEngineLikeADeadOneAndOffersARestart() {
        QTemporaryDir dir;
        StartOptions options;
        options.engineProgram =
            scriptEngine(dir, "garbled.sh",
                         "read hello\necho 'rdmalab-cli 0.1 (not what you expected)'\nexec cat >/dev/null\n");
        MainWindow window(options);
        window.show();
        QSignalSpy started(window.engine(), &EngineClient::started);
        auto* banner = windowParts(window).engineBanner();
        auto* message = windowParts(window).engineMessage();
        auto* restart = windowParts(window).restartEngineButton();
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 20000);
        QVERIFY2(message->text().contains("sent something that is not a trace event: output line 1: field "
                                          "'(line)': not valid JSON"),
                 qPrintable(message->text()));
        QVERIFY(window.isVisible()); // the app stays up
        QVERIFY(!window.engine()->isRunning());
        QVERIFY(restart->isVisible() && restart->isEnabled());
        const auto startsBefore = started.count();
        restart->click();
        QTRY_VERIFY_WITH_TIMEOUT(started.count() > startsBefore, 20000); // really started again ...
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible() && !window.engine()->isRunning(),
                                 20000); // ... and refused
        QVERIFY(message->text().contains("not a trace event"));
    }
};

QTEST_MAIN(HostileTracesTest)
#include "tst_hostiletraces.moc"
