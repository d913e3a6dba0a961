// The engine process under abuse: every malformed, mistyped, out-of-range, oversized or out-of-order input
// is answered with an error naming what is wrong, and the process stays up with bounded memory.
#include "testutil.hpp"

#include "rdmalab/format/protocol.hpp"
#include "rdmalab/format/trace.hpp"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <deque>

namespace {

namespace protocol = rdmalab::protocol;

/// `rdmalab-cli serve --stdio` as a child process, fed line by line.
class Engine {
  public:
    Engine() {
        process_.setProgram(RDMALAB_CLI_PATH);
        process_.setArguments({"serve", "--stdio"});
        process_.start();
    }
    ~Engine() {
        if (process_.state() != QProcess::NotRunning) {
            process_.kill();
            process_.waitForFinished(5000);
        }
    }
    bool started() { return process_.waitForStarted(10000); }
    bool alive() const { return process_.state() == QProcess::Running; }

    void send(const QByteArray& bytes) {
        process_.write(bytes);
        process_.waitForBytesWritten(60000);
    }
    /// Sends one line and returns the `result` event that answers it (the next one on stdout).
    nlohmann::json ask(const QByteArray& line) {
        send(line + '\n');
        return nextResult();
    }
    /// The next `result` event. Other events read on the way are kept for nextEvent(): a measurement's
    /// thread may emit its bench.result before the engine answers the bench.stop that ended it.
    nlohmann::json nextResult(int timeoutMs = 60000) {
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < timeoutMs) {
            while (process_.canReadLine()) {
                auto event = nlohmann::json::parse(process_.readLine().toStdString(), nullptr, false);
                if (event.is_discarded()) continue;
                if (event.value("kind", "") == "result") return event;
                pending_.push_back(std::move(event));
            }
            if (!process_.waitForReadyRead(1000) && !alive()) break;
        }
        return nullptr;
    }
    /// Reads events until one satisfies `want` (returned) or the time is up (null).
    template <class Want> nlohmann::json nextEvent(Want want, int timeoutMs = 60000) {
        while (!pending_.empty()) { // read while waiting for a result: the oldest first
            nlohmann::json event = std::move(pending_.front());
            pending_.pop_front();
            if (want(event)) return event;
        }
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < timeoutMs) {
            while (process_.canReadLine()) {
                const auto event = nlohmann::json::parse(process_.readLine().toStdString(), nullptr, false);
                if (!event.is_discarded() && want(event)) return event;
            }
            if (!process_.waitForReadyRead(1000) && !alive()) break;
        }
        return nullptr;
    }
    /// Peak resident memory of the engine so far, in KiB (VmHWM), or -1.
    long peakKiB() const {
        QFile status(QStringLiteral("/proc/%1/status").arg(process_.processId()));
        if (!status.open(QIODevice::ReadOnly)) return -1;
        for (const auto& line : status.readAll().split('\n'))
            if (line.startsWith("VmHWM:")) return line.mid(6).trimmed().split(' ').value(0).toLong();
        return -1;
    }
    QProcess& process() { return process_; }

  private:
    QProcess process_;
    std::deque<nlohmann::json> pending_; ///< events nextResult() read past, for nextEvent()
};

QString errorOf(const nlohmann::json& result) {
    if (!result.is_object()) return QStringLiteral("<no result>");
    return QString::fromStdString(result["data"].value("error", std::string("<no error field>")));
}

} // namespace

class TestServeAbuse : public QObject {
    Q_OBJECT

  private slots:
    void cmdOfEveryWrongTypeIsAnsweredAndTheEngineStaysUp() {
        Engine engine;
        QVERIFY(engine.started());
        for (const char* value : {"1", "null", "[]", "{}", "true", "1.5", "[\"hello\"]"}) {
            const auto result = engine.ask(QByteArray("{\"id\":7,\"cmd\":") + value + "}");
            QVERIFY2(result.is_object(), value);
            QCOMPARE(result["data"]["ok"].get<bool>(), false);
            QVERIFY2(errorOf(result).contains("field 'cmd' must be a string"), qPrintable(errorOf(result)));
            QCOMPARE(result["ids"]["id"].get<int>(), 7); // still answers the right request
            QVERIFY(engine.alive());
        }
        const auto missing = engine.ask(R"({"id":8})");
        QVERIFY2(errorOf(missing).contains("field 'cmd'") && errorOf(missing).contains("missing"),
                 qPrintable(errorOf(missing)));
        QCOMPARE(engine.ask(R"({"id":9,"cmd":"hello"})")["data"]["ok"].get<bool>(), true);
    }

    void helloAnnouncesTheProtocolAndRefusesAnAppOfAnother() {
        Engine engine;
        QVERIFY(engine.started());
        const QByteArray ours = QByteArray::number(rdmalab::kProtocolVersion);
        const QByteArray other = QByteArray::number(rdmalab::kProtocolVersion + 41);
        for (const QByteArray& line :
             {QByteArray(R"({"id":1,"cmd":"hello"})"), R"({"id":2,"cmd":"hello","protocol":)" + ours + "}"}) {
            const auto result = engine.ask(line);
            QVERIFY2(result.is_object() && result["data"]["ok"].get<bool>(), line.constData());
            QCOMPARE(result["data"]["protocol"].get<int>(), rdmalab::kProtocolVersion);
            QCOMPARE(result["data"]["format"].get<int>(), rdmalab::kTraceFormatVersion);
            QCOMPARE(result["data"]["version"].get<std::string>(), std::string(RDMALAB_VERSION));
        }
        const auto refused = engine.ask(R"({"id":3,"cmd":"hello","protocol":)" + other + "}");
        QVERIFY(refused.is_object());
        QCOMPARE(refused["ids"]["id"].get<int>(), 3);
        QCOMPARE(refused["data"]["ok"].get<bool>(), false);
        QCOMPARE(refused["data"]["protocol"].get<int>(), rdmalab::kProtocolVersion); // still says its own
        const QString error = errorOf(refused);
        QVERIFY2(
            error.contains("the app speaks engine protocol " + QString::fromLatin1(other)) &&
                error.contains("this engine (rdmalab-cli " RDMALAB_VERSION " at ") &&
                error.contains(QStringLiteral("rdmalab-cli) speaks %1:").arg(rdmalab::kProtocolVersion)) &&
                error.contains("install the same rdmalab version on both sides"),
            qPrintable(error));
        const auto mistyped = engine.ask(R"({"id":4,"cmd":"hello","protocol":"1"})");
        QVERIFY2(errorOf(mistyped).contains("field 'protocol' must be an integer"),
                 qPrintable(errorOf(mistyped)));
        QVERIFY(engine.alive()); // a refused app may still say hello again
        QCOMPARE(engine.ask(R"({"id":5,"cmd":"hello","protocol":)" + ours + "}")["data"]["ok"].get<bool>(),
                 true);
    }

    void linesThatAreNotJsonObjectsAreRefusedByLine() {
        Engine engine;
        QVERIFY(engine.started());
        const QList<QByteArray> bad = {"hello",
                                       "[1,2]",
                                       "\"cmd\"",
                                       "{\"cmd\":\"hello\"",
                                       QByteArray("{\"cmd\":\"\xff\xfe\"}"),
                                       QByteArray("{\"cmd\":\"hel\0lo\"}", 16),
                                       "{\"cmd\":\"hello\"} trailing",
                                       "{\"cmd\":\"op.start\",\"size\":1e400}"};
        // Each refusal says why: where the JSON breaks, which byte is not UTF-8, where the NUL is.
        const QStringList why = {
            "not valid JSON at byte 1", "a JSON array, not an object", "a JSON string, not an object",
            "not valid JSON at byte 15", "invalid UTF-8 at byte 9", "a NUL byte at byte 12",
            "not valid JSON at byte 19",
            // found by fuzz_engine_command: it ended the engine before
            "not valid JSON: [json.exception.out_of_range.406] number overflow parsing '1e400'"};
        int line = 0;
        for (const auto& text : bad) {
            ++line;
            const auto result = engine.ask(text);
            QCOMPARE(QString::fromStdString(result.value("name", "")), QStringLiteral("invalid"));
            QCOMPARE(errorOf(result),
                     QStringLiteral("line %1: not a JSON object: %2").arg(line).arg(why[line - 1]));
            QVERIFY(engine.alive());
        }
    }

    void aDeeplyNestedIdIsRefusedWithoutRecursing() {
        Engine engine;
        QVERIFY(engine.started());
        const int levels = 100000;
        const QByteArray line =
            "{\"id\":" + QByteArray(levels, '[') + QByteArray(levels, ']') + ",\"cmd\":\"hello\"}";
        const auto result = engine.ask(line);
        QVERIFY2(errorOf(result).contains("nested deeper than"), qPrintable(errorOf(result)));
        QVERIFY(engine.alive());
        const auto object = engine.ask(R"({"id":{"a":1},"cmd":"hello"})");
        QVERIFY2(errorOf(object).contains("field 'id' must be a string or a number"),
                 qPrintable(errorOf(object)));
        QCOMPARE(engine.ask(R"({"id":"x","cmd":"hello"})")["data"]["ok"].get<bool>(), true);
    }

    void aHundredMegabyteLineIsSkippedWithBoundedMemory() {
        Engine engine;
        QVERIFY(engine.started());
        QCOMPARE(engine.ask(R"({"id":1,"cmd":"hello"})")["data"]["ok"].get<bool>(), true);
        const long before = engine.peakKiB();
        QVERIFY(before > 0);
        const QByteArray chunk(1 << 20, 'x');
        engine.send("{\"id\":2,\"cmd\":\"hello\",\"pad\":\"");
        for (int i = 0; i < 100; ++i)
            engine.send(chunk);
        const auto result = engine.ask("\"}");
        QVERIFY2(errorOf(result).contains("longer than 4194304 bytes"), qPrintable(errorOf(result)));
        QVERIFY(engine.alive());
        const long grown = engine.peakKiB() - before;
        // Holding the line would need 100 MiB at least; a bounded reader keeps at most its 4 MiB limit, which
        // a sanitizer's shadow memory multiplies (ThreadSanitizer's build: about 42 MiB measured).
        QVERIFY2(grown < 64 * 1024, qPrintable(QStringLiteral("peak memory grew by %1 KiB").arg(grown)));
        QCOMPARE(engine.ask(R"({"id":3,"cmd":"hello"})")["data"]["ok"].get<bool>(), true);
    }

    void wrongFieldTypesAndRangesNameTheField() {
        Engine engine;
        QVERIFY(engine.started());
        const struct {
            const char* line;
            const char* expected;
        } cases[] = {
            {R"({"cmd":"op.start","op":1})", "field 'op' must be a string"},
            {R"({"cmd":"op.start","op":"write","size":-5})", "field 'size' must be a positive integer"},
            {R"({"cmd":"op.start","op":"write","size":0})", "field 'size' must be a positive integer"},
            {R"({"cmd":"op.start","op":"write","size":18446744073709551616})",
             "field 'size' must be a positive integer"},
            {R"({"cmd":"op.start","op":"write","size":1.5})", "field 'size' must be a positive integer"},
            {R"({"cmd":"op.start","op":"write","size":"64"})", "field 'size' must be a positive integer"},
            {R"({"cmd":"op.start","op":"write","size":2147483648})", "at most 1 GiB"},
            {R"({"cmd":"op.start","op":"write","message":5})", "field 'message' must be a string"},
            {R"({"cmd":"op.start","op":"write","inline":"yes"})", "field 'inline' must be true or false"},
            {R"({"cmd":"op.start","op":"write","device":[]})", "field 'device' must be a string"},
            {R"({"cmd":"op.start","op":"write","fault":{}})", "field 'fault' must be a string"},
            {R"({"cmd":"bench.start","kind":"write_lat","iters":-1})",
             "field 'iters' must be an integer in 1 .. 100000000"},
            {R"({"cmd":"bench.start","kind":"write_lat","iters":1e20})", "field 'iters' must be an integer"},
            {R"({"cmd":"bench.start","kind":"write_lat","iters":"5"})", "field 'iters' must be an integer"},
            {R"({"cmd":"bench.start","kind":"write_lat","window":0})",
             "field 'window' must be an integer in 1 .. 1024"},
            {R"({"cmd":"bench.start","kind":"write_lat","seconds":-1})",
             "field 'seconds' must be a number in (0, 3600]"},
            {R"({"cmd":"bench.start","kind":"write_lat","seconds":"nan"})",
             "field 'seconds' must be a number"},
            {R"({"cmd":"bench.start","kind":"write_lat","cpus":[1,2,3]})",
             "field 'cpus' must be [A] or [A, B]"},
            {R"({"cmd":"bench.start","kind":"write_lat","cpus":[-1]})",
             "field 'cpus' must be an integer in 0 .. 4095"},
            {R"({"cmd":"bench.start","kind":"write_lat","sweep":1})", "field 'sweep' must be true or false"},
            {R"({"cmd":"bench.start","kind":7})", "field 'kind' must be a string"},
            {R"({"cmd":"bench.start","kinds":[7]})", "field 'kind' must be one of"},
            {R"({"cmd":"bench.start","kind":"write_lat","sizes":[0]})",
             "field 'sizes' must be an integer in 1 .. 1073741824"},
            {R"({"cmd":"bench.start","kind":"write_lat","sizes":"big"})", "field 'sizes' must be an array"},
            {R"({"cmd":"bench.start","kind":"write_lat","size":-2})",
             "field 'size' must be an integer in 1 .. 1073741824"},
            // Numbers out of range: 2^64, 2^64 - 1, negative, fractions, exponents, for every integer field.
            {"{\"cmd\":\"bench.start\",\"kind\":\"write_lat\",\"iters\":18446744073709551616}",
             "field 'iters' must be an integer in 1 .. 100000000"},
            {"{\"cmd\":\"bench.start\",\"kind\":\"write_lat\",\"iters\":18446744073709551615}",
             "field 'iters' must be an integer in 1 .. 100000000 (got integer 18446744073709551615)"},
            {"{\"cmd\":\"bench.start\",\"kind\":\"write_lat\",\"iters\":2.5}",
             "field 'iters' must be an integer in 1 .. 100000000 (got number 2.5)"},
            {"{\"cmd\":\"bench.start\",\"kind\":\"write_lat\",\"warmup\":-1}",
             "field 'warmup' must be an integer in 0 .. 1000000"},
            {"{\"cmd\":\"bench.start\",\"kind\":\"write_lat\",\"warmup\":1e3}",
             "field 'warmup' must be an integer in 0 .. 1000000 (got number 1000.0)"},
            {"{\"cmd\":\"bench.start\",\"kind\":\"write_lat\",\"window\":1025}",
             "field 'window' must be an integer in 1 .. 1024"},
            {"{\"cmd\":\"bench.start\",\"kind\":\"write_lat\",\"max_size\":0}",
             "field 'max_size' must be an integer in 1 .. 1073741824"},
            {"{\"cmd\":\"bench.start\",\"kind\":\"write_lat\",\"seconds\":3600.5}",
             "field 'seconds' must be a number in (0, 3600] (got number 3600.5)"},
            {"{\"cmd\":\"bench.start\",\"kind\":\"write_lat\",\"cpus\":[0.5]}",
             "field 'cpus' must be an integer in 0 .. 4095"},
            {"{\"cmd\":\"bench.start\",\"kind\":\"write_lat\",\"sizes\":[64,-1]}",
             "field 'sizes' must be an integer in 1 .. 1073741824 (got integer -1)"},
            {"{\"cmd\":\"op.start\",\"op\":\"write\",\"size\":-1e3}",
             "field 'size' must be a positive integer"},
            {"{\"cmd\":\"op.start\",\"op\":\"nosuch\"}", "field 'op' must be one of"},
            {"{\"cmd\":\"op.start\",\"op\":\"write\",\"fault\":\"nosuch\"}", "field 'fault' must be one of"},
        };
        for (const auto& c : cases) {
            const auto result = engine.ask(c.line);
            QVERIFY2(result.is_object() && !result["data"]["ok"].get<bool>(), c.line);
            QVERIFY2(errorOf(result).contains(QString::fromUtf8(c.expected)),
                     qPrintable(QStringLiteral("%1 -> %2").arg(c.line, errorOf(result))));
            QVERIFY(engine.alive());
        }
    }

    void anAmplifyingMeasurementRequestIsRefusedBeforeAllocating() {
        Engine engine;
        QVERIFY(engine.started());
        QByteArray sizes = "[";
        for (int i = 1; i <= 100000; ++i) // 9 kinds x 100,000 sizes in a line under the 1 MiB limit
            sizes += QByteArray::number(i) + (i < 100000 ? "," : "]");
        const auto result =
            engine.ask(R"({"cmd":"bench.start","kinds":["send_lat","write_lat","read_lat","atomic_lat",)"
                       R"("tcp_lat","write_bw","read_bw","send_bw","tcp_bw"],"sizes":)" +
                       sizes + "}");
        QVERIFY2(errorOf(result).contains("field 'sizes' must be an array of 1 .. 64 sizes"),
                 qPrintable(errorOf(result)));
        QVERIFY(engine.alive());
    }

    void commandsOutOfOrderAreAnswered() {
        Engine engine;
        QVERIFY(engine.started());
        QVERIFY(errorOf(engine.ask(R"({"cmd":"op.step"})")).contains("no operation: send op.start first"));
        QVERIFY(errorOf(engine.ask(R"({"cmd":"op.run"})")).contains("no operation"));
        const auto stop = engine.ask(R"({"cmd":"bench.stop"})");
        QCOMPARE(stop["data"]["ok"].get<bool>(), true);
        QCOMPARE(stop["data"]["was_running"].get<bool>(), false);
        QCOMPARE(engine.ask(R"({"cmd":"op.reset"})")["data"]["ok"].get<bool>(), true);
        QCOMPARE(engine.ask(R"({"cmd":"bench.wait"})")["data"]["ok"].get<bool>(), true);
        QVERIFY(errorOf(engine.ask(R"({"cmd":"nosuch"})")).contains("unknown command 'nosuch'"));
        QVERIFY(engine.alive());
    }

    void badLabCommandsAreAnsweredWithAnError() {
        Engine engine;
        QVERIFY(engine.started());
        QFile exampleFile(RDMALAB_SOURCE_DIR +
                          QStringLiteral("/tests/data/labs/write-needs-remote-write.yaml"));
        QVERIFY(exampleFile.open(QIODevice::ReadOnly));
        const std::string example = exampleFile.readAll().toStdString();
        // lab.start with the example lab's text, its name and `more` fields.
        const auto withText = [&](int id, const nlohmann::json& more) {
            nlohmann::json command = {{"id", id},
                                      {"cmd", "lab.start"},
                                      {"text", example},
                                      {"name", "mine/write-needs-remote-write.yaml"}};
            command.update(more);
            return QByteArray::fromStdString(command.dump());
        };
        const struct {
            QByteArray line;
            const char* error;
        } cases[] = {
            {R"({"id":1,"cmd":"lab.step"})", "no lab: send lab.start first"},
            {R"({"id":2,"cmd":"lab.run"})", "no lab: send lab.start first"},
            {R"({"id":3,"cmd":"lab.start"})", "field 'lab' must name a lab by its id"},
            {R"({"id":4,"cmd":"lab.start","lab":17})", "field 'lab' must be a string"},
            {R"({"id":5,"cmd":"lab.start","lab":"no-such-lab"})", "no lab 'no-such-lab' in"},
            // The engine opens no file a command names: a path is refused without being opened.
            {R"({"id":6,"cmd":"lab.start","lab":"/nonexistent/x.yaml"})", "must be a lab id, not a file"},
            {R"({"id":6,"cmd":"lab.start","lab":"/dev/zero"})", "must be a lab id, not a file"},
            {R"({"id":6,"cmd":"lab.start","lab":"/etc/passwd"})", "send the lab's YAML in field 'text'"},
            {R"({"id":6,"cmd":"lab.start","lab":"x.yaml"})", "must be a lab id, not a file"},
            {R"({"id":6,"cmd":"lab.start","lab":"write-needs-remote-write","dir":"/etc"})",
             "field 'dir' is not accepted"},
            {withText(6, {{"lab", "write-needs-remote-write"}}),
             "either field 'lab' (an id) or field 'text'"},
            {withText(6, {{"text", 17}}), "field 'text' must be a string"},
            {withText(6, {{"text", "lab: 1\nid: [unclosed\n"}}), "mine/write-needs-remote-write.yaml:"},
            {withText(6, {{"text", std::string((1 << 20) + 1, '#')}}), "a lab is at most 1048576 bytes"},
            {withText(7, {{"params", {{"size", "2MiB"}}}}), "size"},
            {withText(8, {{"params", {{"nosuch", 1}}}}), "nosuch"},
            {withText(9, {{"params", {1}}}), "field 'params' must be an object"},
            {withText(10, {{"params", {{"size", {1}}}}}),
             "field 'params.size' must be a string, an integer or a boolean"},
            {withText(11, {{"lang", "fr"}}), "field 'lang' must be en or zh"},
        };
        for (const auto& c : cases) {
            const auto result = engine.ask(c.line);
            QVERIFY2(result.is_object(), c.line.left(200).constData());
            QCOMPARE(result["data"]["ok"].get<bool>(), false);
            QVERIFY2(errorOf(result).contains(c.error),
                     qPrintable(c.line.left(200) + " -> " + errorOf(result).toUtf8()));
            QVERIFY2(!errorOf(result).contains("root:"),
                     qPrintable(errorOf(result))); // nothing of /etc/passwd
            QVERIFY(engine.alive());
        }
        // A good start answers with the steps; nothing touches the device until lab.step.
        const auto start = engine.ask(withText(12, {{"params", {{"size", 128}}}, {"lang", "zh"}}));
        QVERIFY2(start["data"]["ok"].get<bool>(), qPrintable(errorOf(start)));
        QCOMPARE(start["data"]["lab"]["id"].get<std::string>(), std::string("write-needs-remote-write"));
        QCOMPARE(start["data"]["lab"]["file"].get<std::string>(),
                 std::string("mine/write-needs-remote-write.yaml"));
        QCOMPARE(start["data"]["steps"].size(), std::size_t(13));
        QCOMPARE(start["data"]["steps"][0]["title"].get<std::string>(), std::string("打开设备"));
        QCOMPARE(engine.ask(R"({"cmd":"lab.reset"})")["data"]["had_lab"].get<bool>(), true);
        QVERIFY(errorOf(engine.ask(R"({"cmd":"lab.step"})")).contains("no lab"));
        // A lab of the curriculum by its id.
        const auto byId = engine.ask(R"({"id":13,"cmd":"lab.start","lab":"write"})");
        QVERIFY2(byId["data"]["ok"].get<bool>(), qPrintable(errorOf(byId)));
        QCOMPARE(byId["data"]["lab"]["id"].get<std::string>(), std::string("write"));
        QVERIFY(engine.alive());
    }

    void startingTwiceAndStoppingNothingAreAnswered() {
        Engine engine;
        QVERIFY(engine.started());
        // op.start twice: the second replaces the first (nothing touched the device yet), so the next
        // op.step is the new operation's first step.
        const auto first = engine.ask("{\"id\":1,\"cmd\":\"op.start\",\"op\":\"write\"}");
        QVERIFY2(first["data"]["ok"].get<bool>(), qPrintable(errorOf(first)));
        const auto second = engine.ask("{\"id\":2,\"cmd\":\"op.start\",\"op\":\"read\"}");
        QVERIFY2(second["data"]["ok"].get<bool>(), qPrintable(errorOf(second)));
        const auto step = engine.ask("{\"id\":3,\"cmd\":\"op.step\"}");
        QCOMPARE(step["ids"]["id"].get<int>(), 3);
        QCOMPARE(step["data"]["step_index"].get<int>(), 0);
        QCOMPARE(step["data"]["outcome"]["op"].get<std::string>(), std::string("read"));
        // bench.stop twice with nothing running, op.reset twice.
        for (int i = 0; i < 2; ++i) {
            const auto stop = engine.ask("{\"cmd\":\"bench.stop\"}");
            QCOMPARE(stop["data"]["ok"].get<bool>(), true);
            QCOMPARE(stop["data"]["was_running"].get<bool>(), false);
            QCOMPARE(engine.ask("{\"cmd\":\"op.reset\"}")["data"]["ok"].get<bool>(), true);
        }
        QVERIFY(errorOf(engine.ask("{\"cmd\":\"op.step\"}")).contains("no operation: send op.start first"));
        QVERIFY(engine.alive());
    }

    void aMeasurementStoppedInItsWarmUpReportsNoSamples() {
        // TCP needs no RDMA device. A million warm-up round trips take many seconds, so the stop arrives
        // before the first measured iteration: the result has no statistics (not 0.0 us) and comes at
        // once (the stop ends the warm-up too). While it runs, a second bench.start and an op.start are
        // refused.
        for (const char* kind : {"tcp_lat", "tcp_bw"}) {
            Engine engine;
            QVERIFY(engine.started());
            const QByteArray start = QByteArray("{\"id\":1,\"cmd\":\"bench.start\",\"kind\":\"") + kind +
                                     "\",\"size\":64,\"warmup\":1000000,\"iters\":1000}";
            const auto started = engine.ask(start);
            QVERIFY2(started["data"]["ok"].get<bool>(), qPrintable(errorOf(started)));
            const auto again = engine.ask(start);
            QVERIFY2(errorOf(again).contains("a measurement is already running"), qPrintable(errorOf(again)));
            const auto op = engine.ask("{\"cmd\":\"op.start\",\"op\":\"write\"}");
            QVERIFY2(errorOf(op).contains("a measurement is running"), qPrintable(errorOf(op)));
            QElapsedTimer clock;
            clock.start();
            const auto stop = engine.ask("{\"id\":2,\"cmd\":\"bench.stop\"}");
            QCOMPARE(stop["data"]["was_running"].get<bool>(), true);
            const auto result = engine.nextEvent(
                [](const nlohmann::json& e) { return e.value("name", "") == "bench.result"; });
            QVERIFY2(result.is_object(), kind);
            const auto& d = result["data"];
            QCOMPARE(d["iters"].get<int>(), 0);
            QCOMPARE(d["no_samples"].get<bool>(), true);
            if (QByteArray(kind) == "tcp_lat") {
                QVERIFY2(d.contains("lat_us") && d["lat_us"].is_null(), d.dump().c_str());
                QVERIFY2(d["rtt_us"].is_null(), d.dump().c_str());
            } else {
                QVERIFY2(d.contains("bw_MBps") && d["bw_MBps"].is_null(), d.dump().c_str());
            }
            QVERIFY2(d["cpu"]["user_us_per_msg"].is_null(), d.dump().c_str());
            const auto done =
                engine.nextEvent([](const nlohmann::json& e) { return e.value("name", "") == "bench.done"; });
            QVERIFY(done.is_object());
            QCOMPARE(done["data"]["stopped"].get<bool>(), true);
            QCOMPARE(done["data"]["ok"].get<bool>(), true);
            QVERIFY2(
                clock.elapsed() < 10000,
                qPrintable(
                    QStringLiteral("%1 took %2 ms to stop in its warm-up").arg(kind).arg(clock.elapsed())));
            QVERIFY(engine.alive());
        }
    }

    void aStopSentTogetherWithTheStartStillGetsItsResult() {
        // The stop can reach the engine before its measurement thread has begun the first run; that run
        // must still report (no samples), or a client waiting for bench.result waits for ever.
        for (int attempt = 0; attempt < 5; ++attempt) {
            Engine engine;
            QVERIFY(engine.started());
            engine.send("{\"id\":1,\"cmd\":\"bench.start\",\"kind\":\"tcp_lat\",\"size\":64,"
                        "\"warmup\":1000000,\"iters\":1000}\n{\"id\":2,\"cmd\":\"bench.stop\"}\n");
            const auto result = engine.nextEvent(
                [](const nlohmann::json& e) { return e.value("name", "") == "bench.result"; });
            QVERIFY2(result.is_object(), "no bench.result after a stop sent with the start");
            QCOMPARE(result["data"]["no_samples"].get<bool>(), true);
            const auto done =
                engine.nextEvent([](const nlohmann::json& e) { return e.value("name", "") == "bench.done"; });
            QVERIFY(done.is_object());
            QCOMPARE(done["data"]["completed"].get<int>(), 1);
            QCOMPARE(done["data"]["stopped"].get<bool>(), true);
        }
    }

    void aFloodOfCommandsKeepsMemoryBounded() {
        // Under ASan, freed memory is held in a quarantine (256 MiB by default) and the peak would measure
        // that, not the engine: the engine started here keeps none (no effect on an ordinary build).
        const QByteArray asanOptions = qgetenv("ASAN_OPTIONS");
        qputenv("ASAN_OPTIONS", asanOptions + (asanOptions.isEmpty() ? "" : ":") + "quarantine_size_mb=0");
        Engine engine;
        if (asanOptions.isEmpty())
            qunsetenv("ASAN_OPTIONS");
        else
            qputenv("ASAN_OPTIONS", asanOptions);
        QVERIFY(engine.started());
        QCOMPARE(engine.ask("{\"cmd\":\"hello\"}")["data"]["ok"].get<bool>(), true);
        const long before = engine.peakKiB();
        QVERIFY(before > 0);
        // 100,000 commands of every kind that needs no device, good and bad, in one write.
        const QList<QByteArray> kinds = {"{\"cmd\":\"hello\"}",
                                         "{\"cmd\":\"nosuch\"}",
                                         "not json",
                                         "{\"cmd\":\"op.step\"}",
                                         "{\"cmd\":\"bench.stop\"}",
                                         "{\"cmd\":\"op.start\",\"op\":\"write\",\"size\":-1}"};
        const int count = 100000;
        QByteArray flood;
        for (int i = 0; i < count; ++i)
            flood += kinds[i % kinds.size()] + '\n';
        flood += "{\"id\":\"last\",\"cmd\":\"hello\"}\n";
        engine.send(flood);
        int answered = 0;
        const auto last = engine.nextEvent(
            [&](const nlohmann::json& e) {
                if (e.value("kind", "") != "result") return false;
                ++answered;
                return e.contains("ids") && e["ids"].value("id", "") == "last";
            },
            120000);
        QVERIFY(last.is_object());
        QCOMPARE(answered, count + 1); // every line answered, none twice
        QVERIFY(engine.alive());
        const long grown = engine.peakKiB() - before;
        QVERIFY2(grown < 32 * 1024, qPrintable(QStringLiteral("peak memory grew by %1 KiB").arg(grown)));
    }

    void aFloodOfCommandsIsAnsweredInFull() {
        Engine engine;
        QVERIFY(engine.started());
        const int count = 100000;
        QByteArray flood;
        for (int i = 0; i < count; ++i)
            flood += "{\"id\":" + QByteArray::number(i) + ",\"cmd\":\"hello\"}\n";
        flood += "{\"id\":\"end\",\"cmd\":\"quit\"}\n";
        engine.send(flood);
        engine.process().closeWriteChannel();
        QVERIFY(engine.process().waitForFinished(120000));
        QCOMPARE(engine.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(engine.process().exitCode(), 0);
        int answered = 0, lastId = -1;
        bool inOrder = true;
        for (const auto& line : engine.process().readAllStandardOutput().split('\n')) {
            const auto event = nlohmann::json::parse(line.toStdString(), nullptr, false);
            if (event.is_discarded() || event.value("name", "") != "hello") continue;
            const int id = event["ids"]["id"].get<int>();
            inOrder = inOrder && id == lastId + 1 && event["data"]["ok"].get<bool>();
            lastId = id;
            ++answered;
        }
        QCOMPARE(answered, count);
        QVERIFY(inOrder);
    }

    void theEngineEndsWithTheProgramThatStartedIt() {
        // Issue 32: a killed app left its engine running (its stdin pipe was still open in another process,
        // here this test's). A shell starts the engine on a copy of its stdin, prints the engine's pid and
        // waits; the shell is killed with SIGKILL, and the engine must be gone within 5 s.
        QProcess shell;
        shell.setProgram(QStringLiteral("/bin/sh"));
        shell.setArguments({QStringLiteral("-c"),
                            QStringLiteral("exec 3<&0; \"$0\" serve --stdio <&3 & echo $!; wait"),
                            RDMALAB_CLI_PATH});
        shell.start();
        QVERIFY(shell.waitForStarted(10000));
        QVERIFY(shell.waitForReadyRead(10000));
        const QByteArray pid = shell.readLine().trimmed();
        QVERIFY2(!pid.isEmpty(), "the shell printed no pid");
        const QString stat = QStringLiteral("/proc/") + QString::fromLatin1(pid) + QStringLiteral("/stat");
        // Running (not gone, and not a zombie nobody has reaped yet: a container's init may not reap).
        auto alive = [&stat] {
            QFile file(stat);
            if (!file.open(QIODevice::ReadOnly)) return false;
            const QByteArray line = file.readAll();
            const auto close = line.lastIndexOf(')');
            return close >= 0 && line.size() > close + 2 && line[close + 2] != 'Z' && line[close + 2] != 'X';
        };
        // The engine answers before the shell goes: it is up and reading.
        shell.write("{\"id\":1,\"cmd\":\"hello\"}\n");
        QVERIFY(shell.waitForReadyRead(10000));
        QVERIFY(alive());
        shell.kill();
        QVERIFY(shell.waitForFinished(5000));
        QElapsedTimer waited;
        waited.start();
        while (alive() && waited.elapsed() < 5000)
            QTest::qWait(50);
        QVERIFY2(
            !alive(),
            qPrintable(
                QStringLiteral("engine %1 still runs 5 s after the app died").arg(QString::fromLatin1(pid))));
    }

    void everyCommandOfTheProtocolIsAnswered() {
        // The engine has a handler for every command of rdmalab/format/protocol.hpp (none is "unknown"),
        // answers it under its own name, and lists them all for a name it does not know.
        Engine engine;
        QVERIFY(engine.started());
        int id = 1;
        for (const auto& command : protocol::kCommands) {
            if (command.name == protocol::kQuit) continue;
            const QByteArray name = QByteArray::fromStdString(std::string(command.name));
            const auto result =
                engine.ask("{\"id\":" + QByteArray::number(id) + ",\"cmd\":\"" + name + "\"}");
            QVERIFY2(result.is_object(), name.constData());
            QCOMPARE(QString::fromStdString(result.value("name", "")), QString::fromLatin1(name));
            QCOMPARE(result["ids"]["id"].get<int>(), id);
            QVERIFY2(!errorOf(result).contains("unknown command"), qPrintable(errorOf(result)));
            ++id;
        }
        const QString unknown = errorOf(engine.ask(R"({"cmd":"nosuch"})"));
        QVERIFY2(unknown.endsWith(QString::fromStdString("known: " + protocol::command_names())),
                 qPrintable(unknown));
        QCOMPARE(engine.ask(R"({"cmd":"quit"})")["data"]["ok"].get<bool>(), true);
    }

    void everyCommandOfTheProtocolIsDocumented() {
        // docs/trace-format.md's command table lists exactly the commands of protocol::kCommands, in order.
        QFile doc(RDMALAB_SOURCE_DIR + QStringLiteral("/docs/trace-format.md"));
        QVERIFY(doc.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(doc.readAll());
        const qsizetype begin = text.indexOf(QStringLiteral("\n## Engine process protocol"));
        QVERIFY(begin >= 0);
        const qsizetype end = text.indexOf(QStringLiteral("\n## "), begin + 1);
        const QString section = text.mid(begin, end < 0 ? -1 : end - begin);
        static const QRegularExpression row(QStringLiteral("^\\| `([a-z.]+)` \\|"),
                                            QRegularExpression::MultilineOption);
        QStringList documented;
        for (auto it = row.globalMatch(section); it.hasNext();)
            documented << it.next().captured(1);
        QStringList commands;
        for (const auto& command : protocol::kCommands)
            commands << QString::fromStdString(std::string(command.name));
        QCOMPARE(documented, commands);
    }

    void endOfInputEndsTheEngineCleanly() {
        Engine engine;
        QVERIFY(engine.started());
        engine.send("{\"cmd\":\"hello\"}\n{\"cmd\":\"op.start\",\"op\":\"write\"}\n");
        engine.process().closeWriteChannel();
        QVERIFY(engine.process().waitForFinished(30000));
        QCOMPARE(engine.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(engine.process().exitCode(), 0);
    }
};

QTEST_GUILESS_MAIN(TestServeAbuse)
#include "tst_serve_abuse.moc"
