// Measurement statistics, TCP measurements on loopback, and the documented JSON of `rdmalab-cli bench`.
#include "testutil.hpp"

#include "bench/common.hpp" // engine-internal: the stall guard and the peer thread of the measured loops
#include "rdmalab/engine/bench.hpp"
#include "rdmalab/engine/syscount.hpp"
#include "verbs/traced_call.hpp" // engine-internal: how an event shows a call's system calls

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <chrono>

using namespace rdmalab;
using rdmalab::test::runCli;

class BenchTest : public QObject {
    Q_OBJECT
  private slots:
    void statisticsOfKnownSamples() {
        std::vector<double> samples;
        for (int i = 100; i >= 1; --i)
            samples.push_back(i); // unsorted on purpose
        const auto s = compute_stats(samples);
        QCOMPARE(s.min, 1.0);
        QCOMPARE(s.max, 100.0);
        QCOMPARE(s.p50, 50.0);
        QCOMPARE(s.p90, 90.0);
        QCOMPARE(s.p99, 99.0);
        QCOMPARE(s.p999, 100.0);
        QCOMPARE(s.mean, 50.5);
        QVERIFY(std::abs(s.stdev - 29.0115) < 1e-3);
        QCOMPARE(s.samples.front(), 100.0); // samples stay in measurement order
        QCOMPARE(compute_stats({}).max, 0.0);
    }

    void aSyscallCountIsShownOrItsAbsenceExplained() {
        // How an event shows a tally: the number, or why there is none.
        nlohmann::json data;
        detail::syscall_fields(SyscallTally{.count = 1, .counted = 1, .uncounted = 0, .why = {}}, data);
        QCOMPARE(data.dump(), std::string(R"({"syscalls":1})"));
        data = nlohmann::json::object();
        detail::syscall_fields(SyscallTally{.count = 0, .counted = 2, .uncounted = 1, .why = {}}, data);
        QCOMPARE(
            data.dump(),
            std::string(R"({"syscalls_why":"1 of the 3 calls this event shows ran without the counter"})"));
        data = nlohmann::json::object();
        detail::syscall_fields(SyscallTally{.count = 5, .counted = 1, .uncounted = 0, .why = "no tracefs"},
                               data);
        QCOMPARE(data.dump(), std::string(R"({"syscalls_why":"no tracefs"})"));
        // A meter that cannot count still runs the call, and hands its reason to the tally.
        const SyscallMeter meter;
        SyscallTally tally;
        QCOMPARE(meter.count([] { return 7; }, tally), 7);
        if (meter.available()) {
            QCOMPARE(tally.counted, 1u);
            QVERIFY(tally.why.empty());
        } else {
            QVERIFY(!meter.why().empty());
            QCOMPARE(tally.why, meter.why());
            QCOMPARE(tally.counted, 0u);
        }
    }

    void stallGivesUpAfterItsTimeoutWithTheWaitNamed() {
        using namespace std::chrono;
        bench_detail::Stall stall{60, [](int timeout_ms, const char* waiting_for) {
                                      return ErrorInfo{"ibv_poll_cq",
                                                       ETIMEDOUT,
                                                       "ETIMEDOUT",
                                                       "timed out",
                                                       std::to_string(timeout_ms) + " ms on " + waiting_for,
                                                       "fix"};
                                  }};
        const auto begin = steady_clock::now();
        try {
            for (;;)
                stall.tick("B's reply");
        } catch (const RdmaError& e) {
            QCOMPARE(QString::fromStdString(e.info().verb), QStringLiteral("ibv_poll_cq"));
            QCOMPARE(QString::fromStdString(e.info().cause), QStringLiteral("60 ms on B's reply"));
        }
        QVERIFY(steady_clock::now() - begin >= milliseconds(60));
        // Progress restarts the clock: ticks with a reset in between never give up.
        for (int round = 0; round < 50; ++round) {
            stall.reset();
            for (int i = 0; i < 10000; ++i)
                stall.tick("B's reply");
        }
    }

    void stallEndsAtOnceWhenItsAbortFlagIsSet() {
        std::atomic<bool> peer_failed{true};
        bench_detail::Stall stall{600000, [](int, const char*) { return ErrorInfo{}; }, &peer_failed};
        bool aborted = false;
        try {
            for (;;)
                stall.tick("a completion");
        } catch (const bench_detail::StallAborted&) {
            aborted = true;
        }
        QVERIFY(aborted);
    }

    void peerThreadErrorReachesTheMeasuringThread() {
        bench_detail::PeerThread peer;
        peer.start([] {
            throw RdmaError(ErrorInfo{"ibv_post_send", ENOMEM, "ENOMEM", "Cannot allocate memory",
                                      "send queue full", "fix"});
        });
        QTRY_VERIFY(peer.failed.load());
        try {
            peer.finish();
            QFAIL("finish() did not rethrow B's error");
        } catch (const RdmaError& e) {
            QCOMPARE(QString::fromStdString(e.info().verb), QStringLiteral("ibv_post_send"));
            QCOMPARE(QString::fromStdString(e.info().code), QStringLiteral("ENOMEM"));
        }
    }

    void peerThreadErrorThatFollowsFromAsIsDropped() {
        bench_detail::PeerThread peer;
        peer.start([] { throw RdmaError(ErrorInfo{"recv", 0, "EOF", "closed", "A closed it", "fix"}); });
        QTRY_VERIFY(peer.failed.load());
        peer.finish(false); // A's own error is the one to report
        peer.finish();      // and the dropped error does not come back
    }

    void peerThreadStopsAWaitingBodyWithoutAnError() {
        bench_detail::PeerThread peer;
        peer.start([&peer] {
            bench_detail::Stall stall{600000, [](int, const char*) { return ErrorInfo{}; }, &peer.stop};
            for (;;)
                stall.tick("A's next message"); // ends with StallAborted once A sets stop
        });
        peer.finish(); // returns: a body ended by its stop is not an error
        QVERIFY(!peer.failed.load());
    }

    void tcpPingPongMeasuresHalfRoundTrip() {
        BenchOptions o;
        o.kind = BenchKind::TcpLat;
        o.size = 64;
        o.iterations = 300;
        o.warmup = 20;
        const auto r = run_bench(o);
        QCOMPARE(r.iterations, 300L);
        QVERIFY(r.latency.has_value());
        QCOMPARE(r.latency->samples.size(), 300u);
        QVERIFY(r.latency->min > 0);
        QVERIFY(r.latency->min <= r.latency->p50 && r.latency->p50 <= r.latency->p99 &&
                r.latency->p99 <= r.latency->max);
        QVERIFY(QString::fromStdString(r.latency_basis).startsWith("half round trip"));
        QVERIFY(r.cpu.user_s + r.cpu.sys_s > 0);
        QVERIFY(r.device.find("TCP") != std::string::npos);
    }

    void tcpStreamMeasuresBandwidth() {
        BenchOptions o;
        o.kind = BenchKind::TcpBw;
        o.size = 65536;
        o.iterations = 2000;
        o.warmup = 50;
        const auto r = run_bench(o);
        QCOMPARE(r.iterations, 2000L);
        QVERIFY(r.bw_MBps > 1);
        QVERIFY(std::abs(r.bw_Gbps - r.bw_MBps * 8 / 1000) < 1e-9);
        QVERIFY(std::abs(r.msg_rate_Mpps - r.bw_MBps / 65536.0) < 1e-6 * r.bw_MBps);
    }

    void pinnedEndpointsAreReportedAndTheThreadIsRestored() {
        cpu_set_t before;
        CPU_ZERO(&before);
        QCOMPARE(pthread_getaffinity_np(pthread_self(), sizeof before, &before), 0);
        int cpu = 0;
        while (!CPU_ISSET(cpu, &before))
            ++cpu;
        BenchOptions o;
        o.kind = BenchKind::TcpLat;
        o.iterations = 50;
        o.warmup = 5;
        o.cpu_a = cpu;
        o.cpu_b = cpu;
        const auto r = run_bench(o);
        QCOMPARE(r.iterations, 50L);
        QCOMPARE(r.cpu_a, std::optional<int>(cpu));
        const auto note = QString("A pinned to CPU %1, B to CPU %1 (--cpus)").arg(cpu);
        QVERIFY2(std::any_of(r.notes.begin(), r.notes.end(),
                             [&](const std::string& n) { return QString::fromStdString(n) == note; }),
                 qPrintable(note));
        cpu_set_t after;
        CPU_ZERO(&after);
        QCOMPARE(pthread_getaffinity_np(pthread_self(), sizeof after, &after), 0);
        QVERIFY(CPU_EQUAL(&before, &after)); // the measuring thread got its CPUs back
    }

    void cliPinsWithCpusAndExplainsABadCpu() {
        auto run = runCli({"bench", "tcp_lat", "--iters", "20", "--cpus", "0", "--json"});
        QCOMPARE(run.exitCode, 0);
        const auto j = QJsonDocument::fromJson(run.out.toUtf8()).object();
        QCOMPARE(j["cpus"].toObject()["a"].toInt(-1), 0);
        QVERIFY(!j["cpus"].toObject().contains("b"));
        run = runCli({"bench", "tcp_lat", "--iters", "20", "--cpus", "4000"});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("sched_setaffinity failed: EINVAL"), qPrintable(run.err));
        QVERIFY2(run.err.contains("Endpoint A was asked to run on CPU 4000"), qPrintable(run.err));
        for (const char* bad : {"0,x", "1k", "-1", "0,", ""}) { // plain CPU numbers only
            run = runCli({"bench", "tcp_lat", "--cpus", bad});
            QCOMPARE(run.exitCode, 2);
            QVERIFY2(run.err.contains("--cpus needs A or A,B"), bad);
        }
    }

    void cliJsonHasTheDocumentedFields() {
        const auto run = runCli({"bench", "tcp_lat", "--size", "32", "--iters", "200", "--json"});
        QCOMPARE(run.exitCode, 0);
        const auto j = QJsonDocument::fromJson(run.out.toUtf8()).object();
        QCOMPARE(j["kind"].toString(), QString("tcp_lat"));
        QCOMPARE(j["size"].toInt(), 32);
        QCOMPARE(j["iters"].toInt(), 200);
        QVERIFY(!j["device"].toString().isEmpty());
        const auto lat = j["lat_us"].toObject();
        for (const char* key : {"min", "p50", "mean", "p90", "p99", "p999", "max", "stdev"})
            QVERIFY2(lat.contains(key), key);
        const auto cpu = j["cpu"].toObject();
        for (const char* key : {"user_s", "sys_s", "user_us_per_msg", "sys_us_per_msg", "switches_per_msg"})
            QVERIFY2(cpu.contains(key), key);
        const auto bw = runCli({"bench", "tcp_bw", "--size", "4k", "--iters", "500", "--json"});
        const auto b = QJsonDocument::fromJson(bw.out.toUtf8()).object();
        for (const char* key : {"bw_MBps", "bw_Gbps", "msg_rate_Mpps"})
            QVERIFY2(b[key].toDouble() > 0, key);
    }

    void aRunWithoutSamplesReportsNoStatistics() {
        // A measurement stopped before its first measured iteration has no statistics: none of its figures
        // may read as a result (it used to say 0.0 us).
        BenchResult lat;
        lat.kind = BenchKind::TcpLat;
        lat.size = 64;
        lat.iterations = 0;
        lat.latency = compute_stats({});
        lat.latency_basis = "half round trip (test)";
        auto j = to_json(lat, true);
        QCOMPARE(j["no_samples"].get<bool>(), true);
        QVERIFY2(j["lat_us"].is_null(), j.dump().c_str());
        QVERIFY2(j["rtt_us"].is_null(), j.dump().c_str());
        QVERIFY(j["samples_us"].empty());
        QVERIFY2(j["cpu"]["user_us_per_msg"].is_null(), j.dump().c_str());
        QVERIFY2(j["cpu"]["switches_per_msg"].is_null(), j.dump().c_str());
        BenchResult bw;
        bw.kind = BenchKind::TcpBw;
        bw.size = 4096;
        const auto b = to_json(bw);
        QCOMPARE(b["no_samples"].get<bool>(), true);
        for (const char* key : {"bw_MBps", "bw_Gbps", "msg_rate_Mpps"})
            QVERIFY2(b[key].is_null(), key);
        for (const auto& result : {lat, bw}) {
            const QString table = QString::fromStdString(format_table({result}));
            QVERIFY2(table.contains("no samples (stopped before the first measured iteration)"),
                     qPrintable(table));
            QVERIFY2(!table.contains("0.00"), qPrintable(table));
        }
        // One sample is a result.
        lat.iterations = 1;
        lat.latency = compute_stats({3.5});
        j = to_json(lat);
        QCOMPARE(j["no_samples"].get<bool>(), false);
        QCOMPARE(j["lat_us"]["p50"].get<double>(), 3.5);
    }

    void cliSaysNoSamplesForARunThatMeasuredNothing() {
        // A duration shorter than any step of the clock ends the run at its first check, before a sample.
        const auto table = runCli({"bench", "tcp_lat", "--seconds", "1e-300", "--warmup", "1"});
        QVERIFY2(table.exitCode == 0, qPrintable(table.out + table.err));
        QVERIFY2(table.out.contains("no samples (stopped before the first measured iteration)"),
                 qPrintable(table.out));
        QVERIFY2(!table.out.contains(" 0.00 "), qPrintable(table.out));
        const auto json = runCli({"bench", "tcp_lat", "--seconds", "1e-300", "--warmup", "1", "--json"});
        QCOMPARE(json.exitCode, 0);
        const auto o = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QCOMPARE(o["iters"].toInt(-1), 0);
        QCOMPARE(o["no_samples"].toBool(), true);
        QVERIFY2(o.contains("lat_us") && o["lat_us"].isNull(), qPrintable(json.out));
    }

    void cliSweepPrintsAnArray() {
        const auto run = runCli({"bench", "tcp_lat", "--sweep", "--iters", "20", "--warmup", "2", "--json"});
        QCOMPARE(run.exitCode, 0);
        const auto a = QJsonDocument::fromJson(run.out.toUtf8()).array();
        QCOMPARE(a.size(), 23); // 2 B .. 8 MiB
        QCOMPARE(a.first().toObject()["size"].toInt(), 2);
        QCOMPARE(a.last().toObject()["size"].toInt(), 8 * 1024 * 1024);
    }

    void cliRejectsBadArguments() {
        auto run = runCli({"bench", "warp_lat"});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("unknown KIND 'warp_lat'"));
        run = runCli({"bench", "write_lat", "--iters", "0"});
        QCOMPARE(run.exitCode, 2);
        run = runCli({"bench", "write_lat", "--seconds", "-1"});
        QCOMPARE(run.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(BenchTest)
#include "tst_bench.moc"
