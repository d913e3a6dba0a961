// Every RDMA measurement kind on the real device, through `rdmalab-cli bench --json`.
#include "testutil.hpp"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using rdmalab::test::runCli;

class BenchDeviceTest : public QObject {
    Q_OBJECT
  private slots:
    void init() { RDMALAB_REQUIRE_DEVICE(); }

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
};

QTEST_GUILESS_MAIN(BenchDeviceTest)
#include "tst_bench_device.moc"
