// Argument validation of rdmalab-cli: usage errors exit 2 with a message naming the problem.
#include "testutil.hpp"

#include <QtTest>

using rdmalab::test::runCli;

class CliArgsTest : public QObject {
    Q_OBJECT
  private slots:
    void unknownOpcodeIsAUsageError() {
        const auto run = runCli({"op", "teleport"});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("unknown OPCODE 'teleport'"), qPrintable(run.err));
    }

    void badSizeIsAUsageError() {
        auto run = runCli({"op", "write", "--size", "lots"});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("--size needs a byte count"));
        run = runCli({"op", "write", "--size", "0"});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("at least 1 byte"));
    }

    void atomicsNeedEightBytes() {
        const auto run = runCli({"op", "cas", "--size", "16"});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("exactly 8 bytes"), qPrintable(run.err));
    }

    void faultMustFitTheOperation() {
        auto run = runCli({"op", "write", "--fault", "no-recv"});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("two-sided"));
        run = runCli({"op", "send", "--fault", "bad-rkey"});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("one-sided"));
        run = runCli({"op", "write", "--fault", "gremlins"});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("bad-rkey, no-remote-access, out-of-bounds, no-recv"));
    }

    void unknownCommandAndHelp() {
        auto run = runCli({"frobnicate"});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("unknown command 'frobnicate'"));
        run = runCli({"--help"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("rdmalab-cli op OPCODE"));
    }

    void serveRejectsBadCommandsAndKeepsRunning() {
        const auto run =
            runCli({"serve", "--stdio"}, {},
                   "this is not json\n{\"id\":1,\"cmd\":\"warp\"}\n{\"id\":2,\"cmd\":\"hello\"}\n"
                   "{\"id\":3,\"cmd\":\"op.step\"}\n"
                   "{\"id\":5,\"cmd\":\"bench.start\",\"kind\":\"tcp_lat\",\"cpus\":[0,1,2]}\n"
                   "{\"id\":4,\"cmd\":\"quit\"}\n");
        QCOMPARE(run.exitCode, 0);
        const auto lines = run.out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 6);
        QVERIFY(lines[0].contains("line 1: not a JSON object"));
        QVERIFY(lines[1].contains("unknown command 'warp'"));
        QVERIFY(lines[2].contains("\"format\":1"));
        QVERIFY(lines[3].contains("no operation: send op.start first"));
        QVERIFY2(lines[4].contains("field 'cpus' must be [A] or [A, B]"), qPrintable(lines[4]));
        QVERIFY(lines[5].contains("\"name\":\"quit\""));
    }
};

QTEST_GUILESS_MAIN(CliArgsTest)
#include "tst_cli_args.moc"
