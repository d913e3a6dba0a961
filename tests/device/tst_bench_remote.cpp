// `rdmalab-cli bench KIND --listen / --connect HOST`: measurements between two processes, RDMA kinds
// through rdma_cm on RDMALAB_CM_ADDR (in the test bed: rxe1 on a dummy Ethernet interface; rdma_cm cannot
// route over loopback), TCP kinds over TCP to the same address.
#include "testutil.hpp"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

using rdmalab::test::runCli;

class BenchRemoteTest : public QObject {
    Q_OBJECT
  private slots:
    void init() { RDMALAB_REQUIRE_DEVICE(); }
    void cleanup() { RDMALAB_CHECK_RESOURCES(); }

    void writeLatBetweenTwoProcessesThroughRdmaCm() {
        const auto j = measure("write_lat", 7801, {"--size", "64", "--iters", "200", "--warmup", "20"});
        if (j.isEmpty()) return;
        QVERIFY2(j["lat_us"].toObject()["p50"].toDouble() > 0, "write_lat p50 must be positive");
        QVERIFY(j["lat_us"].toObject()["max"].toDouble() >= j["lat_us"].toObject()["p50"].toDouble());
        QVERIFY(j["lat_basis"].toString().startsWith("half round trip"));
    }

    void sendBwBetweenTwoProcessesThroughRdmaCm() {
        const auto j = measure("send_bw", 7802, {"--size", "4096", "--iters", "500", "--warmup", "20"});
        if (j.isEmpty()) return;
        QVERIFY2(j["bw_MBps"].toDouble() > 0, "send_bw must move bytes");
        QVERIFY(j["msg_rate_Mpps"].toDouble() > 0);
    }

    void sendLatBetweenTwoProcessesThroughRdmaCm() {
        const auto j = measure("send_lat", 7808, {"--size", "32", "--iters", "300", "--warmup", "10"});
        if (j.isEmpty()) return;
        QVERIFY(j["lat_us"].toObject()["p50"].toDouble() > 0);
        bool depthNoted = false; // 310 iterations planned: 310 receives kept posted on each side
        for (const auto& n : j["notes"].toArray())
            depthNoted = depthNoted || n.toString().startsWith("310 receives kept posted");
        QVERIFY(depthNoted);
    }

    void readLatBetweenTwoProcessesThroughRdmaCm() {
        const auto j = measure("read_lat", 7803, {"--size", "256", "--iters", "200", "--warmup", "10"});
        if (j.isEmpty()) return;
        QVERIFY(j["lat_us"].toObject()["p50"].toDouble() > 0);
        QVERIFY(j["lat_basis"].toString().startsWith("full round trip"));
    }

    void tcpLatBetweenTwoProcesses() {
        const auto j = measure("tcp_lat", 7804, {"--size", "64", "--iters", "200", "--warmup", "20"});
        if (j.isEmpty()) return;
        QVERIFY(j["lat_us"].toObject()["p50"].toDouble() > 0);
        QVERIFY2(j["device"].toString().startsWith("TCP ("), qPrintable(j["device"].toString()));
        QCOMPARE(j["software_device"].toBool(), false);
    }

    void tcpBwSweepAgreesOnEverySizeWithTheListener() {
        const QString address = cmAddress();
        if (address.isEmpty()) return;
        QProcess listener;
        if (!startListener(listener, "tcp_bw", address, 7805)) return;
        const auto run = runCli({"bench", "tcp_bw", "--connect", address, "--cm-port", "7805", "--sweep",
                                 "--seconds", "0.02", "--warmup", "2", "--json"});
        const QString b = finishListener(listener);
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err + "\n--- B:\n" + b));
        QCOMPARE(listener.exitCode(), 0);
        const auto results = QJsonDocument::fromJson(run.out.toUtf8()).array();
        QCOMPARE(results.size(), 23); // 2 B .. 8 MiB
        for (int i = 0; i < results.size(); ++i) {
            const auto r = results[i].toObject();
            QCOMPARE(r["size"].toInteger(), qint64(2) << i);
            QVERIFY2(r["bw_MBps"].toDouble() > 0, qPrintable(QString::number(r["size"].toInteger())));
            QCOMPARE(r["mode"].toString(), QString("two hosts (TCP)"));
        }
        // B served each size on its own connection and exited after the last one.
        QCOMPARE(b.count("B: served bench tcp_bw"), 23);
        QVERIFY2(b.contains("of 8388608 B") && b.contains("(last)"), qPrintable(b));
    }

    void connectWithNobodyListeningEndsWithAnExplanation() {
        const QString address = cmAddress();
        if (address.isEmpty()) return;
        QElapsedTimer timer;
        timer.start();
        const auto rdma = runCli({"bench", "write_lat", "--connect", address, "--cm-port", "7806"});
        // Nobody listening is reported at once (a reject); the bound is the 30 s timeout plus the start-up of
        // an ASan binary under emulation (up to ~25 s in the test bed).
        QVERIFY2(timer.elapsed() < 55000, "the connector must give up within its 30 s timeout");
        QCOMPARE(rdma.exitCode, 1);
        QVERIFY2(rdma.err.contains("rdma_connect failed") || rdma.err.contains("rdma_resolve_route failed"),
                 qPrintable(rdma.err));
        QVERIFY2(rdma.err.contains("cause:") && rdma.err.contains("fix:") && rdma.err.contains("--listen"),
                 qPrintable(rdma.err));

        timer.restart();
        const auto tcp = runCli({"bench", "tcp_lat", "--connect", address, "--cm-port", "7806"});
        QVERIFY(timer.elapsed() < 55000);
        QCOMPARE(tcp.exitCode, 1);
        QVERIFY2(tcp.err.contains("connect failed: ECONNREFUSED"), qPrintable(tcp.err));
        QVERIFY2(tcp.err.contains("fix:") && tcp.err.contains("--listen"), qPrintable(tcp.err));
    }

    void listenerRefusesAnotherKindAndBothSidesSaySo() {
        const QString address = cmAddress();
        if (address.isEmpty()) return;
        QProcess listener;
        if (!startListener(listener, "write_lat", address, 7807)) return;
        const auto run = runCli({"bench", "read_lat", "--connect", address, "--cm-port", "7807"});
        const QString b = finishListener(listener);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("serves bench write_lat, this side asked for read_lat"),
                 qPrintable(run.err));
        QCOMPARE(listener.exitCode(), 1);
        QVERIFY2(b.contains("A asked for bench read_lat, this side serves write_lat"), qPrintable(b));
    }

  private:
    static QString cmAddress() {
        const QString address = qEnvironmentVariable("RDMALAB_CM_ADDR");
        if (address.isEmpty()) {
            if (rdmalab::test::deviceRequired())
                QTest::qFail("RDMALAB_CM_ADDR is not set (the test bed sets it)", __FILE__, __LINE__);
            else
                QTest::qSkip("set RDMALAB_CM_ADDR to an IP address of an RDMA-capable interface", __FILE__,
                             __LINE__);
        }
        return address;
    }

    // Starts `bench KIND --listen ADDR --cm-port PORT` and waits until it listens.
    static bool startListener(QProcess& listener, const QString& kind, const QString& address, int port) {
        listener.setProcessChannelMode(QProcess::MergedChannels);
        listener.start(RDMALAB_CLI_PATH,
                       {"bench", kind, "--listen", address, "--cm-port", QString::number(port)});
        if (!listener.waitForStarted()) {
            QTest::qFail("the listener did not start", __FILE__, __LINE__);
            return false;
        }
        QByteArray out;
        QElapsedTimer timer;
        timer.start();
        while (!out.contains("B: listening") && listener.state() == QProcess::Running &&
               timer.elapsed() < 60000) { // an ASan binary takes up to ~25 s to start under emulation
            listener.waitForReadyRead(200);
            out += listener.peek(1 << 20);
        }
        if (!out.contains("B: listening")) {
            QTest::qFail(
                qPrintable("the listener is not listening: " + QString::fromUtf8(out + listener.readAll())),
                __FILE__, __LINE__);
            listener.kill();
            listener.waitForFinished();
            return false;
        }
        return true;
    }

    static QString finishListener(QProcess& listener) {
        if (listener.state() != QProcess::NotRunning && !listener.waitForFinished(30000)) {
            listener.kill();
            listener.waitForFinished();
        }
        return QString::fromUtf8(listener.readAll());
    }

    // Listener and connector in two processes; returns the connector's JSON after checking what every
    // two-host measurement must carry (empty after a failed check).
    QJsonObject measure(const QString& kind, int port, const QStringList& options) {
        const QString address = cmAddress();
        if (address.isEmpty()) return {};
        QProcess listener;
        if (!startListener(listener, kind, address, port)) return {};
        const auto run =
            runCli(QStringList{"bench", kind, "--connect", address, "--cm-port", QString::number(port)}
                   << options << "--json");
        const QString b = finishListener(listener);
        [&] {
            QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err + "\n--- B:\n" + b));
            QVERIFY2(listener.exitStatus() == QProcess::NormalExit && listener.exitCode() == 0,
                     qPrintable(b));
            QVERIFY2(b.contains("B: served bench " + kind), qPrintable(b));
        }();
        if (QTest::currentTestFailed()) return {};
        const auto j = QJsonDocument::fromJson(run.out.toUtf8()).object();
        const bool tcp = kind.startsWith("tcp");
        [&] {
            QCOMPARE(j["kind"].toString(), kind);
            QCOMPARE(j["iters"].toInt(), options[options.indexOf("--iters") + 1].toInt());
            QCOMPARE(j["size"].toInt(), options[options.indexOf("--size") + 1].toInt());
            QCOMPARE(j["peer"].toString(), address + ":" + QString::number(port));
            QCOMPARE(j["mode"].toString(), tcp ? QString("two hosts (TCP)") : QString("two hosts (rdma_cm)"));
            QVERIFY(j["elapsed_s"].toDouble() > 0);
            QVERIFY(j.contains("software_device") && j.contains("cpu") && j.contains("units"));
            if (!tcp) {
                // The device rdma_cm bound to: the one on the interface that holds RDMALAB_CM_ADDR.
                const QString cmDevice = qEnvironmentVariable("RDMALAB_CM_DEV");
                if (!cmDevice.isEmpty()) QCOMPARE(j["device"].toString(), cmDevice);
                QVERIFY(!j["device"].toString().isEmpty());
                QVERIFY2(b.contains("on " + j["device"].toString()), qPrintable(b)); // B used the same one
            }
            bool sideNoted = false;
            for (const auto& n : j["notes"].toArray())
                sideNoted = sideNoted || n.toString().contains("CPU figures cover only this side");
            QVERIFY2(sideNoted, "two-host CPU figures must say they cover only the measuring side");
        }();
        return QTest::currentTestFailed() ? QJsonObject() : j;
    }
};

QTEST_GUILESS_MAIN(BenchRemoteTest)
#include "tst_bench_remote.moc"
