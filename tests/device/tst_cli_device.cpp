// rdmalab-cli on the real device: devices, op, faults, the memlock failure, and the engine process.
#include "testutil.hpp"

#include "rdmalab/format/trace.hpp"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using rdmalab::test::runCli;

namespace {
QList<QJsonObject> jsonLines(const QString& text) {
    QList<QJsonObject> out;
    for (const auto& line : text.split('\n', Qt::SkipEmptyParts))
        out << QJsonDocument::fromJson(line.toUtf8()).object();
    return out;
}

/// The kernel's count of RDMA objects over every device (`rdma -j resource show`: pd, cq, qp, cm_id, mr,
/// ctx, srq), as "pd=1 cq=2 ..." so a difference names what was left; empty with `error` set on failure.
QString rdmaResources(QString& error) {
    const auto run = rdmalab::test::runProgram("rdma", {"-j", "resource", "show"});
    const auto devices = QJsonDocument::fromJson(run.out.toUtf8()).array();
    if (run.exitCode != 0 || devices.isEmpty()) {
        error =
            QStringLiteral("rdma -j resource show: exit %1: %2%3").arg(run.exitCode).arg(run.out, run.err);
        return {};
    }
    QMap<QString, qint64> total;
    for (const auto& device : devices) {
        const auto o = device.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            if (it.key() != "ifindex" && it.value().isDouble()) total[it.key()] += it.value().toInteger();
    }
    QStringList parts;
    for (auto it = total.begin(); it != total.end(); ++it)
        parts << QStringLiteral("%1=%2").arg(it.key()).arg(it.value());
    return parts.join(' ');
}

/// Reads the engine's stdout until `text` appears or `ms` pass; returns everything read.
QByteArray readUntil(QProcess& process, QByteArray& out, const QByteArray& text, int ms = 60000) {
    QElapsedTimer timer;
    timer.start();
    while (!out.contains(text) && timer.elapsed() < ms && process.state() == QProcess::Running) {
        process.waitForReadyRead(500);
        out += process.readAllStandardOutput();
    }
    out += process.readAllStandardOutput();
    return out;
}
} // namespace

class CliDeviceTest : public QObject {
    Q_OBJECT
  private slots:
    void init() { RDMALAB_REQUIRE_DEVICE(); }
    void cleanup() { RDMALAB_CHECK_RESOURCES(); }

    void devicesJsonListsActiveRoceV2Port() {
        const auto run = runCli({"devices", "--json"});
        QCOMPARE(run.exitCode, 0);
        const auto devices = QJsonDocument::fromJson(run.out.toUtf8()).object()["devices"].toArray();
        QVERIFY(!devices.isEmpty());
        const auto port = devices[0].toObject()["ports"].toArray()[0].toObject();
        QCOMPARE(port["state"].toString(), QString("PORT_ACTIVE"));
        QCOMPARE(port["link_layer"].toString(), QString("Ethernet"));
        bool rocev2 = false;
        for (const auto& gid : port["gids"].toArray())
            rocev2 = rocev2 || gid.toObject()["type"] == "RoCE v2";
        QVERIFY(rocev2);
    }

    void opWritePrintsEachStepAndVerifies() {
        const auto run = runCli({"op", "write", "--size", "256", "--message", "teach RDMA "});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QVERIFY(run.out.contains("ibv_reg_mr("));
        QVERIFY(run.out.contains("RESET->INIT"));
        QVERIFY(run.out.contains("INIT->RTR"));
        QVERIFY(run.out.contains("RTR->RTS"));
        QVERIFY(run.out.contains("ibv_post_send RDMA_WRITE length=256"));
        QVERIFY(run.out.contains("completion IBV_WC_SUCCESS opcode=RDMA_WRITE"));
        QVERIFY(run.out.contains("B's buffer now holds the 256 bytes of A's buffer"));
        QVERIFY(run.out.contains("OK: write of 256 bytes completed and verified"));
    }

    void opJsonAndTraceFileAreValidJsonLines() {
        QTemporaryDir dir;
        const QString trace = dir.filePath("read.jsonl");
        const auto run = runCli({"op", "read", "--size", "64", "--json", "--trace", trace});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        const auto lines = jsonLines(run.out);
        QVERIFY(lines.size() > 20);
        QCOMPARE(lines.first()["kind"].toString(), QString("session"));
        QCOMPARE(lines.last()["kind"].toString(), QString("result"));
        QCOMPARE(lines.last()["data"].toObject()["success"].toBool(), true);
        QFile file(trace);
        QVERIFY(file.open(QIODevice::ReadOnly));
        int count = 0;
        while (!file.atEnd()) {
            const auto line = file.readLine().trimmed().toStdString();
            rdmalab::TraceParseError error;
            QVERIFY2(rdmalab::parse_json_line(line, error).has_value(), error.to_string().c_str());
            ++count;
        }
        QCOMPARE(count, lines.size());
    }

    void aTraceThatCannotBeWrittenFailsTheRun() {
        // The operation itself succeeds; the lost trace must still fail the run, with the reason.
        for (const QStringList& extra : {QStringList{"--trace", "/dev/full"}, QStringList{"--json"}}) {
            const QStringList args = QStringList{"op", "write", "--size", "64"} + extra;
            // --json writes the trace to standard output: point that at /dev/full.
            const QStringList toFullDisk{"sh", "-c", "exec \"$0\" \"$@\" > /dev/full"};
            const auto run = runCli(args, extra.contains("--json") ? toFullDisk : QStringList{});
            QCOMPARE(run.exitCode, 1);
            QVERIFY2(run.err.contains("failed: ENOSPC") && run.err.contains("the trace is incomplete"),
                     qPrintable(run.err));
        }
    }

    void aSizeBeyondTheMachinesMemoryIsRefusedBeforeAllocating() {
        // The test bed has 2 GiB: a 1 GiB write needs two buffers and their copies. It used to be ended
        // by the OOM killer (exit 137, no message).
        const auto run = runCli({"op", "write", "--size", "1024M"});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(!run.crashed, qPrintable(run.err));
        QVERIFY2(run.out.contains("ENOMEM") && run.out.contains("MemAvailable") &&
                     run.out.contains("Nothing was allocated"),
                 qPrintable(run.out + run.err));
    }

    void faultsReportRealStatusAndQpState() {
        const QList<QPair<QStringList, QString>> cases = {
            {{"op", "write", "--fault", "bad-rkey"}, "IBV_WC_REM_ACCESS_ERR"},
            {{"op", "write", "--fault", "no-remote-access"}, "IBV_WC_REM_ACCESS_ERR"},
            {{"op", "write", "--fault", "out-of-bounds"}, "IBV_WC_REM_ACCESS_ERR"},
            {{"op", "send", "--fault", "no-recv"}, "IBV_WC_RNR_RETRY_EXC_ERR"},
        };
        for (const auto& [args, status] : cases) {
            const auto run = runCli(args);
            QVERIFY2(run.exitCode == 0, qPrintable(args.join(' ') + "\n" + run.out + run.err));
            QVERIFY2(run.out.contains("completion " + status), qPrintable(run.out));
            QVERIFY(run.out.contains("QP state ERR"));
            QVERIFY(run.out.contains("IBV_WC_WR_FLUSH_ERR"));
        }
    }

    void regMrUnderSmallMemlockLimitExplainsRlimit() {
        if (geteuid() != 0) QSKIP("needs root to drop to an unprivileged user with setpriv");
        // An unprivileged user without CAP_IPC_LOCK, limited to 64 KiB of locked memory, registers 1 MiB.
        const QStringList wrapper = {"setpriv",        "--reuid=65534",        "--regid=65534",
                                     "--clear-groups", "--inh-caps=-all",      "--bounding-set=-all",
                                     "prlimit",        "--memlock=65536:65536"};
        // The unprivileged user must be able to reach the program: a checkout in a private folder
        // (mktemp -d is 0700) is not, so it runs a copy from a folder everyone can enter.
        const QString shared = QStringLiteral("/tmp/rdmalab-memlock-test-%1").arg(getpid());
        QDir().mkpath(shared);
        QFile::setPermissions(shared, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                          QFile::ReadOther | QFile::ExeOther | QFile::ReadGroup |
                                          QFile::ExeGroup);
        const QString program = shared + "/rdmalab-cli";
        QFile::remove(program);
        QVERIFY(QFile::copy(RDMALAB_CLI_PATH, program));
        const auto run = rdmalab::test::runProgram(
            wrapper.first(), wrapper.mid(1) + QStringList{program, "op", "write", "--size", "1M"},
            QProcessEnvironment::systemEnvironment());
        QDir(shared).removeRecursively();
        QVERIFY2(!run.crashed, qPrintable(run.err));
        QCOMPARE(run.exitCode, 1);
        const QString all = run.out + run.err;
        QVERIFY2(all.contains("ibv_reg_mr failed: ENOMEM"), qPrintable(all));
        QVERIFY2(all.contains("RLIMIT_MEMLOCK) is 64 KiB"), qPrintable(all));
        QVERIFY2(all.contains("needs 1024 KiB"), qPrintable(all));
        QVERIFY(all.contains("ulimit -l"));
    }

    void rdmaCmWriteBetweenTwoProcesses() {
        runCmPair({"write", "--size", "4000"}, "B's buffer holds the 4000 bytes A sent");
    }
    void rdmaCmReadBetweenTwoProcesses() { runCmPair({"read", "--size", "300"}, "B's buffer is unchanged"); }
    void rdmaCmFetchAddBetweenTwoProcesses() { runCmPair({"faa"}, "B's 8 bytes changed from 100 to 105"); }
    void rdmaCmFaultBadRkeyBetweenTwoProcesses() {
        runCmPair({"write", "--fault", "bad-rkey"}, "served fault bad-rkey", "IBV_WC_REM_ACCESS_ERR");
    }

    void serveStepsThroughAWriteOneCallAtATime() {
        const QByteArray script = R"({"id":1,"cmd":"hello"}
{"id":2,"cmd":"op.start","op":"write","size":32,"message":"step"}
{"id":3,"cmd":"op.step"}
{"id":4,"cmd":"op.step"}
{"id":5,"cmd":"op.run"}
{"id":6,"cmd":"op.reset"}
{"id":7,"cmd":"quit"}
)";
        const auto run = runCli({"serve", "--stdio"}, {}, script);
        QCOMPARE(run.exitCode, 0);
        const auto lines = jsonLines(run.out);
        QHash<int, QJsonObject> results;
        int pdBeforeStep4 = 0;
        bool seenStep4 = false;
        QString driver;
        QStringList syscalls; // what the engine process says each post and poll cost
        for (const auto& e : lines) {
            if (e["kind"] == "result") results[e["ids"].toObject()["id"].toInt()] = e["data"].toObject();
            if (e["kind"] == "result" && e["ids"].toObject()["id"].toInt() == 4) seenStep4 = true;
            if (!seenStep4 && e["kind"] == "verb" && e["name"] == "ibv_alloc_pd") ++pdBeforeStep4;
            if (e["kind"] == "session")
                driver = e["data"].toObject()["device_info"].toObject()["driver"].toString();
            const auto data = e["data"].toObject();
            if (e["kind"] == "post_wr" || (e["kind"] == "verb" && e["name"] == "ibv_poll_cq"))
                syscalls << e["name"].toString() + ' ' +
                                (data.contains("syscalls") ? QString::number(data["syscalls"].toInteger())
                                                           : data["syscalls_why"].toString());
        }
        // rxe's doorbell is a write() on the uverbs fd; its receive and completion queues are mapped
        // into the process (see tst_operations, postSendEntersTheKernelAndPostRecvAndPollCqDoNot).
        if (driver == "rxe")
            QCOMPARE(syscalls, (QStringList{"RDMA_WRITE 1", "ibv_poll_cq 0"}));
        else
            QCOMPARE(syscalls.size(), 2);
        QCOMPARE(results.size(), 7);
        QVERIFY(results[2]["ok"].toBool());
        QVERIFY(results[2]["steps"].toArray().size() >= 15);
        QCOMPARE(results[3]["step_index"].toInt(), 0);
        QCOMPARE(results[4]["step_index"].toInt(), 1);
        QCOMPARE(pdBeforeStep4, 1); // step 2 allocated exactly A's PD
        QVERIFY(results[5]["ok"].toBool());
        QVERIFY(results[5]["outcome"].toObject()["success"].toBool());
        QVERIFY(results[6]["ok"].toBool());
    }

    void serveStreamsEveryMeasuredSampleAndTheResult() {
        const QByteArray script =
            R"({"id":1,"cmd":"bench.start","kinds":["write_lat","tcp_lat"],"sizes":[2,4096],"iters":300}
{"id":2,"cmd":"op.start","op":"write"}
{"id":3,"cmd":"bench.wait"}
{"id":4,"cmd":"quit"}
)";
        const auto run = runCli({"serve", "--stdio"}, {}, script);
        QCOMPARE(run.exitCode, 0);
        QHash<int, qsizetype> samples; // run index -> samples streamed
        QHash<int, QJsonObject> results;
        QJsonObject done, opReply;
        int begins = 0;
        for (const auto& e : jsonLines(run.out)) {
            const auto d = e["data"].toObject();
            if (e["kind"] == "measure" && e["name"] == "bench.begin") ++begins;
            if (e["kind"] == "measure" && e["name"] == "bench.samples") {
                QCOMPARE(d["first"].toInt(), int(samples[d["index"].toInt()])); // in order, none lost
                samples[d["index"].toInt()] += d["samples_us"].toArray().size();
            }
            if (e["kind"] == "measure" && e["name"] == "bench.result") results[d["index"].toInt()] = d;
            if (e["kind"] == "measure" && e["name"] == "bench.done") done = d;
            if (e["kind"] == "result" && e["name"] == "op.start") opReply = d;
        }
        QCOMPARE(begins, 4);
        QCOMPARE(results.size(), 4);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(samples[i], qsizetype(300));
            QCOMPARE(results[i]["iters"].toInt(), 300);
            QVERIFY(results[i]["lat_us"].toObject()["p50"].toDouble() > 0);
        }
        QCOMPARE(results[0]["kind"].toString(), QString("write_lat"));
        QCOMPARE(results[1]["size"].toInt(), 4096);
        QVERIFY(results[0]["software_device"].toBool()); // rxe: the result says it is software
        QVERIFY(done["ok"].toBool());
        QCOMPARE(done["completed"].toInt(), 4);
        // A lesson operation may not run while a measurement busy-polls the device.
        QVERIFY(!opReply["ok"].toBool());
        QVERIFY2(opReply["error"].toString().contains("measurement is running"),
                 qPrintable(opReply["error"].toString()));
    }

    void serveStreamsTheTracedRunsPipeline() {
        // trace_wr: write_bw runs untraced (quietly) then traced; the bench.pipeline slices add up to the
        // traced run's pipeline in bench.result, and write_lat streams only the traced run's samples. A
        // warm-up of 64 (a multiple of the 16 that one signaled completion retires) makes the posts exact.
        const QByteArray script =
            R"({"id":1,"cmd":"bench.start","kinds":["write_bw","write_lat"],"size":64,"iters":2000,"warmup":64,"window":32,"trace_wr":true}
{"id":2,"cmd":"bench.wait"}
{"id":3,"cmd":"quit"}
)";
        const auto run = runCli({"serve", "--stdio"}, {}, script);
        QCOMPARE(run.exitCode, 0);
        qint64 posts = 0, completed = 0, slices = 0, samples = 0;
        double lastT = -1; // write_bw's slices
        QHash<int, QJsonObject> results;
        for (const auto& e : jsonLines(run.out)) {
            const auto d = e["data"].toObject();
            if (e["name"] == "bench.pipeline") {
                // write_lat's traced run streams its pipeline too: one work request in flight at most.
                const int depth = d["index"].toInt() == 0 ? 32 : 1;
                QCOMPARE(d["depth"].toInt(), depth);
                QVERIFY(d["outstanding_max"].toInt() <= depth);
                if (d["index"].toInt() != 0) continue;
                QVERIFY(d["t_s"].toDouble() >= lastT); // in time order
                lastT = d["t_s"].toDouble();
                posts += d["posts"].toInteger();
                completed += d["completed"].toInteger();
                ++slices;
            }
            if (e["name"] == "bench.samples") samples += d["samples_us"].toArray().size();
            if (e["name"] == "bench.result") results[d["index"].toInt()] = d;
        }
        QVERIFY(slices > 0);
        const auto bw = results[0]["wr_trace"].toObject();
        QCOMPARE(bw["rounds"].toInt(), 1);
        QCOMPARE(bw["overruns"].toInt(), 0);
        const auto total = bw["pipeline"].toObject()["total"].toObject();
        QCOMPARE(total["posts"].toInteger(), qint64(2064));
        QCOMPARE(posts, qint64(2064));
        QCOMPARE(completed, qint64(2064));
        const auto lat = results[1]["wr_trace"].toObject();
        QCOMPARE(lat["figure"].toString(), QString("p50_us"));
        QCOMPARE(lat["pipeline"].toObject()["total"].toObject()["posts"].toInteger(), qint64(2064));
        QCOMPARE(samples, qint64(2000)); // the traced run's samples only
    }

    void benchCountsSystemCallsPerMessage() {
        // TCP enters the kernel for every send() and recv(); on SoftRoCE each post is a system call
        // (the doorbell) while polling the CQ stays in user space. The test bed mounts tracefs.
        // Counted over the warm-up, so the measured iterations run without the tracepoint's cost.
        auto perMessage = [](const QString& kind, const QString& warmup = "100") {
            const auto run =
                runCli({"bench", kind, "--size", "64", "--iters", "500", "--warmup", warmup, "--json"});
            const auto o = QJsonDocument::fromJson(run.out.toUtf8()).object();
            const auto cpu = o["cpu"].toObject();
            return std::make_pair(cpu["syscalls_per_msg"].toDouble(-1),
                                  cpu["syscalls_note"].toString() + run.err);
        };
        const auto [tcp, tcpNote] = perMessage("tcp_lat");
        QVERIFY2(tcp >= 1.95 && tcp <= 2.2, qPrintable(QString::number(tcp) + " " + tcpNote));
        const auto [write, writeNote] = perMessage("write_lat");
        QVERIFY2(write >= 0.95 && write <= 1.2, qPrintable(QString::number(write) + " " + writeNote));
        QVERIFY2(writeNote.contains("counted over the 200 warm-up messages"), qPrintable(writeNote));
        const auto [none, noneNote] = perMessage("tcp_lat", "0");
        QCOMPARE(none, -1.0); // null: not counted
        QVERIFY2(noneNote.contains("there was none (--warmup 0)"), qPrintable(noneNote));
    }

    void serveStopsAMeasurementAndKeepsWhatItMeasured() {
        QProcess serve;
        serve.start(RDMALAB_CLI_PATH, {"serve", "--stdio"});
        QVERIFY(serve.waitForStarted());
        serve.write(R"({"id":1,"cmd":"bench.start","kind":"write_bw","size":4096,"seconds":60})"
                    "\n");
        QByteArray out;
        QElapsedTimer timer;
        timer.start();
        while (!out.contains("bench.progress") && timer.elapsed() < 30000) {
            serve.waitForReadyRead(1000);
            out += serve.readAllStandardOutput();
        }
        QVERIFY2(out.contains("bench.progress"), out.constData());
        timer.restart();
        serve.write(R"({"id":2,"cmd":"bench.stop"})"
                    "\n");
        while (!out.contains("bench.done") && timer.elapsed() < 30000) {
            serve.waitForReadyRead(1000);
            out += serve.readAllStandardOutput();
        }
        QVERIFY2(timer.elapsed() < 30000, "bench.stop did not end a 60 s measurement within 30 s");
        serve.write(R"({"id":3,"cmd":"quit"})"
                    "\n");
        QVERIFY(serve.waitForFinished(30000));
        out += serve.readAllStandardOutput();
        QJsonObject result, done;
        for (const auto& e : jsonLines(QString::fromUtf8(out))) {
            if (e["name"] == "bench.result") result = e["data"].toObject();
            if (e["name"] == "bench.done") done = e["data"].toObject();
        }
        QVERIFY(done["stopped"].toBool());
        QVERIFY(result["iters"].toInt() > 0); // what was measured before the stop is reported
        QVERIFY(result["bw_MBps"].toDouble() > 0);
        QVERIFY(result["elapsed_s"].toDouble() < 59);
    }

    // stdin closed in the middle: the app died or closed the pipe while a lesson step or a measurement
    // ran. The engine finishes what it is doing, stops, releases every RDMA object in teardown order and
    // exits 0 by itself; the kernel's object counts are back where they were.
    void closingStdinDuringALessonEndsTheEngineCleanly() {
        QString error;
        const QString baseline = rdmaResources(error);
        QVERIFY2(!baseline.isEmpty(), qPrintable(error));
        QProcess serve;
        serve.start(RDMALAB_CLI_PATH, {"serve", "--stdio"});
        QVERIFY(serve.waitForStarted());
        QByteArray script = "{\"id\":1,\"cmd\":\"op.start\",\"op\":\"write\",\"size\":32}\n";
        for (int id = 2; id <= 8; ++id)
            script += "{\"id\":" + QByteArray::number(id) + ",\"cmd\":\"op.step\"}\n";
        serve.write(script);
        QByteArray out;
        readUntil(serve, out, "\"ids\":{\"id\":8}");
        QVERIFY2(out.contains("\"ids\":{\"id\":8}"), out.constData());
        const QString during = rdmaResources(error);
        QVERIFY2(during != baseline, qPrintable("the lesson's objects do not show: " + during));
        // One more step, and stdin closes while the engine performs it.
        serve.write("{\"id\":9,\"cmd\":\"op.step\"}\n");
        serve.closeWriteChannel();
        QElapsedTimer timer;
        timer.start();
        QVERIFY2(serve.waitForFinished(30000), "the engine did not exit within 30 s of end of input");
        out += serve.readAllStandardOutput();
        QCOMPARE(serve.exitStatus(), QProcess::NormalExit);
        QCOMPARE(serve.exitCode(), 0);
        QJsonObject lastStep;
        QStringList destroyed;
        bool afterLastStep = false;
        for (const auto& e : jsonLines(QString::fromUtf8(out))) {
            if (e["kind"] == "result" && e["ids"].toObject()["id"].toInt() == 9) {
                lastStep = e["data"].toObject();
                afterLastStep = true;
            } else if (afterLastStep && e["kind"] == "verb") {
                destroyed << e["name"].toString();
            }
        }
        QVERIFY2(lastStep["ok"].toBool(), out.right(2000).constData()); // the step it was doing was finished
        QCOMPARE(lastStep["step_index"].toInt(), 7);
        // Then teardown, traced, children before parents.
        for (const char* verb :
             {"ibv_destroy_qp", "ibv_destroy_cq", "ibv_dereg_mr", "ibv_dealloc_pd", "ibv_close_device"})
            QVERIFY2(destroyed.contains(verb), qPrintable(verb + (": " + destroyed.join(' '))));
        QVERIFY2(destroyed.indexOf("ibv_destroy_qp") < destroyed.indexOf("ibv_destroy_cq") &&
                     destroyed.indexOf("ibv_dereg_mr") < destroyed.indexOf("ibv_dealloc_pd") &&
                     destroyed.lastIndexOf("ibv_dealloc_pd") < destroyed.indexOf("ibv_close_device"),
                 qPrintable(destroyed.join(' ')));
        QCOMPARE(rdmaResources(error), baseline);
    }

    void closingStdinDuringAMeasurementStopsItAndEndsTheEngine() {
        QString error;
        const QString baseline = rdmaResources(error);
        QVERIFY2(!baseline.isEmpty(), qPrintable(error));
        QProcess serve;
        serve.start(RDMALAB_CLI_PATH, {"serve", "--stdio"});
        QVERIFY(serve.waitForStarted());
        serve.write("{\"id\":1,\"cmd\":\"bench.start\",\"kind\":\"write_lat\",\"size\":64,\"seconds\":60}\n");
        QByteArray out;
        readUntil(serve, out, "bench.samples");
        QVERIFY2(out.contains("bench.samples"), out.constData());
        const QString during = rdmaResources(error);
        QVERIFY2(during != baseline, qPrintable("the measurement's objects do not show: " + during));
        QElapsedTimer timer;
        timer.start();
        serve.closeWriteChannel();
        QVERIFY2(serve.waitForFinished(30000), "the engine did not stop a 60 s measurement within 30 s");
        out += serve.readAllStandardOutput();
        QCOMPARE(serve.exitStatus(), QProcess::NormalExit);
        QCOMPARE(serve.exitCode(), 0);
        QJsonObject result, done;
        for (const auto& e : jsonLines(QString::fromUtf8(out))) {
            if (e["name"] == "bench.result") result = e["data"].toObject();
            if (e["name"] == "bench.done") done = e["data"].toObject();
        }
        QVERIFY2(done["ok"].toBool() && done["stopped"].toBool(), out.right(2000).constData());
        QVERIFY(result["iters"].toInt() > 0); // what was measured is reported
        QVERIFY(result["lat_us"].toObject()["p50"].toDouble() > 0);
        QVERIFY(result["elapsed_s"].toDouble() < 59);
        QCOMPARE(rdmaResources(error), baseline);
    }

    void closingStdinInAMeasurementsWarmUpReportsNoSamples() {
        // A stop (here: end of input) before the first measured iteration: no statistics, not 0.0 us,
        // and the stop ends the warm-up of a million iterations at once.
        for (const char* kind : {"write_lat", "write_bw"}) {
            QString error;
            const QString baseline = rdmaResources(error);
            QVERIFY2(!baseline.isEmpty(), qPrintable(error));
            QProcess serve;
            serve.start(RDMALAB_CLI_PATH, {"serve", "--stdio"});
            QVERIFY(serve.waitForStarted());
            serve.write(QByteArray("{\"id\":1,\"cmd\":\"bench.start\",\"kind\":\"") + kind +
                        "\",\"size\":64,\"warmup\":1000000,\"seconds\":60}\n");
            QByteArray out;
            readUntil(serve, out, "bench.begin");
            QVERIFY2(out.contains("bench.begin"), out.constData());
            QTest::qWait(1500); // into the warm-up: the loopback pair is set up and busy
            serve.closeWriteChannel();
            QVERIFY2(serve.waitForFinished(30000), "the engine did not stop a warm-up within 30 s");
            out += serve.readAllStandardOutput();
            QCOMPARE(serve.exitStatus(), QProcess::NormalExit);
            QCOMPARE(serve.exitCode(), 0);
            QJsonObject result, done;
            for (const auto& e : jsonLines(QString::fromUtf8(out))) {
                if (e["name"] == "bench.result") result = e["data"].toObject();
                if (e["name"] == "bench.done") done = e["data"].toObject();
            }
            QVERIFY2(done["ok"].toBool() && done["stopped"].toBool(), out.right(2000).constData());
            QCOMPARE(result["iters"].toInt(-1), 0);
            QVERIFY2(result["no_samples"].toBool(), out.right(2000).constData());
            const char* figure = QByteArray(kind).endsWith("_lat") ? "lat_us" : "bw_MBps";
            QVERIFY2(result.contains(figure) && result[figure].isNull(), out.right(2000).constData());
            QCOMPARE(rdmaResources(error), baseline);
        }
    }

  private:
    // B listens, A connects, each in its own process, through rdma_cm on the address RDMALAB_CM_ADDR
    // (in the test bed: rxe1 on a dummy Ethernet interface; rdma_cm cannot route over loopback).
    void runCmPair(QStringList args, const QString& listenerSays,
                   const QString& connectorSays = "IBV_WC_SUCCESS") {
        const QString address = qEnvironmentVariable("RDMALAB_CM_ADDR");
        if (address.isEmpty()) {
            if (rdmalab::test::deviceRequired()) QFAIL("RDMALAB_CM_ADDR is not set (the test bed sets it)");
            QSKIP("set RDMALAB_CM_ADDR to an IP address of an RDMA-capable interface");
        }
        static int port = 7600;
        const QString cmPort = QString::number(++port);
        QProcess listener;
        args.prepend("op");
        listener.start(RDMALAB_CLI_PATH, QStringList(args) << "--listen" << address << "--cm-port" << cmPort);
        QVERIFY(listener.waitForStarted());
        // The listener prints its rdma_listen call once it listens.
        QString b;
        QTRY_VERIFY_WITH_TIMEOUT(
            (b += QString::fromUtf8(listener.readAllStandardOutput())).contains("rdma_listen") ||
                listener.state() != QProcess::Running,
            15000);
        const auto connector = runCli(QStringList(args) << "--connect" << address << "--cm-port" << cmPort);
        if (listener.state() != QProcess::NotRunning) QVERIFY(listener.waitForFinished(60000));
        b += QString::fromUtf8(listener.readAllStandardOutput() + listener.readAllStandardError());
        QVERIFY2(connector.exitCode == 0, qPrintable(connector.out + connector.err + "\n--- B:\n" + b));
        QVERIFY2(connector.out.contains("completion " + connectorSays), qPrintable(connector.out));
        QCOMPARE(listener.exitCode(), 0);
        QVERIFY2(b.contains(listenerSays), qPrintable(b));
    }
};

QTEST_GUILESS_MAIN(CliDeviceTest)
#include "tst_cli_device.moc"
