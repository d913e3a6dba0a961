// Every RDMA measurement kind on the real device, through `rdmalab-cli bench --json`.
#include "testutil.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cmath>

using rdmalab::test::runCli;

class BenchDeviceTest : public QObject {
    Q_OBJECT
  private slots:
    void init() { RDMALAB_REQUIRE_DEVICE(); }
    void cleanup() { RDMALAB_CHECK_RESOURCES(); }

    void latencyKindsMeasureOnTheDevice() {
        for (const QString kind : {"write_lat", "send_lat", "read_lat", "atomic_lat"}) {
            const auto run =
                runCli({"bench", kind, "--size", "64", "--iters", "200", "--warmup", "20", "--json"});
            QVERIFY2(run.exitCode == 0, qPrintable(kind + ": " + run.err));
            const auto j = QJsonDocument::fromJson(run.out.toUtf8()).object();
            QCOMPARE(j["kind"].toString(), kind);
            QCOMPARE(j["iters"].toInt(), 200);
            QVERIFY(j["device"].toString().startsWith("rxe") || !j["device"].toString().isEmpty());
            const auto lat = j["lat_us"].toObject();
            QVERIFY2(lat["min"].toDouble() > 0 && lat["p50"].toDouble() >= lat["min"].toDouble(),
                     qPrintable(kind));
            QVERIFY(lat["max"].toDouble() >= lat["p99"].toDouble());
            if (j["software_device"].toBool()) {
                bool noted = false;
                for (const auto& n : j["notes"].toArray())
                    noted = noted || n.toString().contains("not hardware");
                QVERIFY2(noted, "SoftRoCE numbers must say they are software numbers");
            }
        }
    }

    // --events: both sides sleep on completion channels. What is asserted is what held in every run in
    // the test bed (failure-catalogue.md, "Completion events on rxe"): the wait goes through the kernel
    // (more system calls and context switches than a busy poll), and busy polling keeps its two threads on
    // their CPUs the whole time while events do not. These are counts taken inside the guest, so a loaded
    // host slows both runs but changes none of them.
    void sendLatencyWithCompletionEvents() {
        auto measure = [](bool events) {
            QStringList args{"bench", "send_lat", "--size", "64",    "--iters",
                             "300",   "--warmup", "50",     "--json"};
            if (events) args << "--events";
            const auto run = runCli(args);
            if (run.exitCode != 0) qWarning("%s", qPrintable(run.err));
            return QJsonDocument::fromJson(run.out.toUtf8()).object();
        };
        const auto busy = measure(false);
        const auto events = measure(true);
        QCOMPARE(busy["completion"].toString(), QString("busy_poll"));
        QCOMPARE(events["completion"].toString(), QString("events"));
        QCOMPARE(events["iters"].toInt(), 300);
        bool noted = false;
        for (const auto& n : events["notes"].toArray())
            noted = noted || n.toString().contains("sleeping on completion events");
        QVERIFY(noted);
        const auto busy_cpu = busy["cpu"].toObject(), events_cpu = events["cpu"].toObject();
        QVERIFY2(events_cpu["syscalls_per_msg"].toDouble() > busy_cpu["syscalls_per_msg"].toDouble() + 1,
                 qPrintable(QString::number(events_cpu["syscalls_per_msg"].toDouble())));
        QVERIFY(events_cpu["switches_per_msg"].toDouble() > busy_cpu["switches_per_msg"].toDouble());
        auto cpus_busy = [](const QJsonObject& j) {
            const auto cpu = j["cpu"].toObject();
            return (cpu["user_s"].toDouble() + cpu["sys_s"].toDouble()) / j["elapsed_s"].toDouble();
        };
        QVERIFY2(cpus_busy(events) < cpus_busy(busy),
                 qPrintable(QString("events %1, busy %2").arg(cpus_busy(events)).arg(cpus_busy(busy))));
        // No latency relation: a wait polls once before it arms the channel, so an event-driven round trip
        // whose completion is already there neither arms nor sleeps, and its fastest sample can beat a busy
        // poll's (15.1 us busy against 13.1 us events in one test-bed run: docs/testing.md).
    }

    void eventsAreRefusedWhereTheyDoNotApply() {
        for (const QStringList& args :
             {QStringList{"bench", "write_lat", "--events"}, QStringList{"bench", "send_bw", "--events"},
              QStringList{"bench", "send_lat", "--events", "--connect", "10.233.0.1"}}) {
            const auto run = runCli(args);
            QVERIFY2(run.exitCode != 0, qPrintable(args.join(' ')));
            QVERIFY2(run.err.contains("--events applies to send_lat in a loopback pair only"),
                     qPrintable(run.err));
        }
    }

    void latencySamplesRunPostToPostAsPerftest() {
        // perftest's sample is tposted[i+1] - tposted[i]: consecutive samples cover the measured time
        // without gaps, so their sum (times 2 for the halved ping-pong kinds) is the elapsed time.
        for (const QString kind : {"write_lat", "send_lat", "read_lat"}) {
            const auto run = runCli(
                {"bench", kind, "--size", "2", "--iters", "150", "--warmup", "10", "--json", "--samples"});
            QVERIFY2(run.exitCode == 0, qPrintable(kind + ": " + run.err));
            const auto j = QJsonDocument::fromJson(run.out.toUtf8()).object();
            const auto samples = j["samples_us"].toArray();
            QCOMPARE(samples.size(), 150);
            double sum = 0;
            for (const auto& v : samples)
                sum += v.toDouble();
            const double factor = kind == "read_lat" ? 1 : 2;
            const double elapsed_us = j["elapsed_s"].toDouble() * 1e6;
            QVERIFY2(
                std::abs(sum * factor - elapsed_us) <= 0.001 * elapsed_us + 1,
                qPrintable(
                    QString("%1: samples %2 us, elapsed %3 us").arg(kind).arg(sum * factor).arg(elapsed_us)));
        }
    }

    void sendLatencyKeepsPerftestsReceiveDepth() {
        // ib_send_lat keeps min(512, iterations) receives posted; so does send_lat (warm-up included).
        const auto run =
            runCli({"bench", "send_lat", "--size", "2", "--iters", "1000", "--warmup", "10", "--json"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto j = QJsonDocument::fromJson(run.out.toUtf8()).object();
        QCOMPARE(j["iters"].toInt(), 1000);
        bool noted = false;
        for (const auto& n : j["notes"].toArray())
            noted = noted || n.toString().startsWith("512 receives kept posted");
        QVERIFY(noted);
    }

    void largeBandwidthMessagesAreAllSignaled() {
        // Above 8 KiB perftest signals every work request; every completion then counts one message and
        // the count must come out exact.
        const auto run =
            runCli({"bench", "write_bw", "--size", "65536", "--iters", "300", "--warmup", "10", "--json"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto j = QJsonDocument::fromJson(run.out.toUtf8()).object();
        QCOMPARE(j["iters"].toInt(), 300);
        QVERIFY(j["bw_MBps"].toDouble() > 0);
        QVERIFY(std::abs(j["msg_rate_Mpps"].toDouble() * 65536 - j["bw_MBps"].toDouble()) <
                1e-6 * j["bw_MBps"].toDouble());
        bool noted = false;
        for (const auto& n : j["notes"].toArray())
            noted = noted || n.toString().contains("every one signaled");
        QVERIFY(noted);
    }

    void bandwidthKindsMeasureOnTheDevice() {
        for (const QString kind : {"write_bw", "read_bw", "send_bw"}) {
            const auto run =
                runCli({"bench", kind, "--size", "4096", "--iters", "500", "--warmup", "20", "--json"});
            QVERIFY2(run.exitCode == 0, qPrintable(kind + ": " + run.err));
            const auto j = QJsonDocument::fromJson(run.out.toUtf8()).object();
            QCOMPARE(j["iters"].toInt(), 500);
            QVERIFY2(j["bw_MBps"].toDouble() > 0, qPrintable(kind));
            QVERIFY(j["msg_rate_Mpps"].toDouble() > 0);
        }
    }

    void everyWorkRequestOfABandwidthRunIsTraced() {
        // --trace-wr: each traced run records every post (warm-up and measured), every poll and every
        // completion of A's loop; the pipeline keeps at most the window outstanding and retires them all.
        const int warmup = 32, iters = 640, window = 16;
        const auto run = runCli({"bench", "write_bw", "--size", "64", "--iters", QString::number(iters),
                                 "--warmup", QString::number(warmup), "--window", QString::number(window),
                                 "--trace-wr", "--trace-wr-rounds", "2", "--json"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto j = QJsonDocument::fromJson(run.out.toUtf8()).object();
        QCOMPARE(j["iters"].toInt(), iters);
        const auto t = j["wr_trace"].toObject();
        QCOMPARE(t["rounds"].toInt(), 2);
        QCOMPARE(t["untraced"].toArray().size(), 2);
        QCOMPARE(t["traced"].toArray().size(), 2);
        QCOMPARE(t["overruns"].toInt(), 0);
        QVERIFY(t["ratio"].toDouble() > 0);
        const auto p = t["pipeline"].toObject();
        const auto total = p["total"].toObject();
        QCOMPARE(p["depth"].toInt(), window);
        QCOMPARE(p["signal_every"].toInt(), window / 2);
        QCOMPARE(total["posts"].toInt(), warmup + iters);
        QCOMPARE(total["doorbells"].toInt(), warmup + iters);
        QCOMPARE(total["completed"].toInt(), warmup + iters);
        // One signaled request in window / 2 (and the last): that many completions.
        QCOMPARE(total["completions"].toInt(), (warmup + iters) / (window / 2));
        QCOMPARE(total["outstanding_max"].toInt(), window);
        QCOMPARE(total["outstanding_end"].toInt(), 0);
        QCOMPARE(p["completion_errors"].toInt(), 0);
        // Records: posts, polls (hit and empty) and completions, each once.
        QCOMPARE(p["records"].toInt(), total["posts"].toInt() + total["polls_hit"].toInt() +
                                           total["polls_empty"].toInt() + total["completions"].toInt());
        QVERIFY(!p["buckets"].toArray().isEmpty());
    }

    void tracingWorkRequestsIsRefusedWhereItDoesNotApply() {
        const auto tcp = runCli({"bench", "tcp_lat", "--trace-wr"});
        QCOMPARE(tcp.exitCode, 2);
        QVERIFY2(tcp.err.contains("an RDMA kind and one --size"), qPrintable(tcp.err));
        const auto rounds = runCli({"bench", "write_bw", "--trace-wr-rounds", "2"});
        QCOMPARE(rounds.exitCode, 2);
        QVERIFY2(rounds.err.contains("add --trace-wr"), qPrintable(rounds.err));
    }
};

QTEST_GUILESS_MAIN(BenchDeviceTest)
#include "tst_bench_device.moc"
