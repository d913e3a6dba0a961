// Argument validation of rdmalab-cli: usage errors exit 2 with a message naming the problem.
#include "options.hpp"
#include "rdmalab/format/trace.hpp"
#include "testutil.hpp"

#include <QtTest>

using rdmalab::test::runCli;

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

/// A value the parser takes for an option with this placeholder (and allowed values), or empty when the
/// test does not know the placeholder: a new one must be added here.
QString sampleValue(const rdmalab::cli::OptionSpec& option) {
    if (!option.values.empty()) return qs(option.values.front());
    static const QHash<QString, QString> samples = {
        {"N", "8"},
        {"TEXT", "hello"},
        {"NAME", "rxe0"},
        {"FILE", "/dev/null"},
        {"ADDR", "127.0.0.1"},
        {"HOST", "127.0.0.1"},
        {"S", "1"},
        {"MS", "50"},
        {"A[,B]", "0"},
        {"DIR", "/tmp"},
        {"NAME=VALUE", "size=64"},
        {"PORT", "7473"},
    };
    return samples.value(qs(option.value));
}

} // namespace

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

    void sizesThatWouldWrapAreRefused() {
        // 18014398509481985 KiB is 2^64 + 1024 bytes: it used to wrap to 1024 and run.
        for (const char* size : {"18014398509481985k", "17592186044417M", "18446744073709551616"}) {
            for (const QStringList& base : {QStringList{"op", "write"}, QStringList{"bench", "write_lat"}}) {
                const auto run = runCli(base + QStringList{"--size", size});
                QCOMPARE(run.exitCode, 2);
                QVERIFY2(run.err.contains("--size needs"), qPrintable(run.err));
            }
        }
    }

    void secondsMustBeAFiniteNumber() {
        for (const char* seconds : {"nan", "inf", "5abc", "", "-1", "0", "1e9"}) {
            const auto run = runCli({"bench", "write_lat", "--seconds", seconds});
            QCOMPARE(run.exitCode, 2);
            QVERIFY2(run.err.contains("--seconds needs 0 < S <= 3600"),
                     qPrintable(seconds + (": " + run.err)));
        }
    }

    void aParameterValueNeverCrashesTheRunner() {
        // Issue 32: a text parameter that looked like a size too large for 64 bits aborted `lab run` (an
        // uncaught std::out_of_range): a text parameter stays text.
        auto run = runCli({"lab", "run", "send", "--param", "message=99999999999999999999999KiB"});
        QVERIFY2(!run.crashed, qPrintable(run.err));
        QVERIFY2(!run.err.contains("terminate called"), qPrintable(run.err));
        // The same value for a size parameter is refused by name, before anything runs.
        run = runCli({"lab", "run", "send", "--param", "size=99999999999999999999999KiB"});
        QVERIFY2(!run.crashed, qPrintable(run.err));
        QVERIFY2(run.exitCode != 0, qPrintable(run.out));
        QVERIFY2(run.err.contains("parameter 'size'"), qPrintable(run.err));
    }

    void atomicsNeedEightBytes() {
        const auto run = runCli({"op", "cas", "--size", "16"});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("exactly 8 bytes"), qPrintable(run.err));
    }

    void faultMustFitTheOperation() {
        auto run = runCli({"op", "write", "--fault", "no-recv"});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("consumes a receive"));
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

    // `rdmalab-cli COMMAND --help` prints that command's help and runs nothing (no device is needed).
    void aCommandsOwnHelp() {
        auto run = runCli({"devices", "--help"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.startsWith("usage:\n  rdmalab-cli devices [--json]"), qPrintable(run.out));
        QVERIFY(run.out.contains("GID tables"));
        QVERIFY(!run.out.contains("rdmalab-cli op OPCODE"));
        run = runCli({"bench", "-h"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("--sweep") && !run.out.contains("devices:"), qPrintable(run.out));
    }

    // Each option of the table, followed by a stray word: the parser takes the option (and its value)
    // and stops at the word, so the error names the word, not the option, and nothing runs.
    void everyOptionInTheTableIsAccepted() {
        for (const auto& command : rdmalab::cli::cli_spec().commands) {
            for (const auto& option : command.options) {
                QStringList args = {qs(command.name)};
                // `lab run` takes a lab as its word; with --all, a word is an unknown argument.
                if (command.name == "lab" && option.help.rfind("run:", 0) == 0)
                    args << "run"
                         << "--all";
                else if (command.argument)
                    args << sampleValue(*command.argument);
                args << qs(option.name);
                if (!option.value.empty()) {
                    const QString value = sampleValue(option);
                    QVERIFY2(!value.isEmpty(), qPrintable("no sample value for " + qs(option.value)));
                    args << value;
                }
                args << "stray-word";
                const auto run = runCli(args);
                const QString expected = qs(command.name) + ": unknown argument 'stray-word'";
                QVERIFY2(run.exitCode == 2 && run.err.contains(expected),
                         qPrintable(args.join(' ') + " -> exit " + QString::number(run.exitCode) + ": " +
                                    run.err));
            }
        }
    }

    void globalOptionsOfTheTableWork() {
        for (const auto& option : rdmalab::cli::cli_spec().global_options) {
            for (const auto& name : {option.name, option.short_name}) {
                if (name.empty()) continue;
                const auto run = runCli({qs(name)});
                QVERIFY2(run.exitCode == 0 && !run.out.isEmpty() && run.err.isEmpty(),
                         qPrintable(qs(name) + ": " + run.err));
            }
        }
    }

    // Every option of the other commands that a command lacks is refused by the check the CLI runs first
    // (checked in this process: two hundred CLI processes took over 120 s under ASan on a loaded machine);
    // each command's process then refuses one such option and an unknown one with the message.
    void optionsNotInTheTableAreRefused() {
        const auto& spec = rdmalab::cli::cli_spec();
        for (const auto& command : spec.commands) {
            std::vector<std::string> base = {command.name};
            if (command.argument) base.push_back(sampleValue(*command.argument).toStdString());
            QStringList foreign;
            for (const auto& other : spec.commands)
                for (const auto& option : other.options)
                    if (!rdmalab::cli::find_option(command, option.name)) foreign << qs(option.name);
            foreign.removeDuplicates();
            for (const auto& option : foreign) {
                auto args = base;
                args.push_back(option.toStdString());
                const std::vector<std::string> rest(args.begin() + 1, args.end());
                QCOMPARE(qs(rdmalab::cli::first_unknown_option(command, rest).value_or("")), option);
            }
            QStringList spawned = {"--no-such-option"};
            if (!foreign.isEmpty()) spawned << foreign.front();
            for (const auto& option : spawned) {
                QStringList argv;
                for (const auto& a : base)
                    argv << qs(a);
                const auto run = runCli(argv + QStringList{option});
                const QString expected = qs(command.name) + ": unknown argument '" + option + "'";
                QVERIFY2(run.exitCode == 2 && run.err.contains(expected),
                         qPrintable((argv + QStringList{option}).join(' ') + " -> exit " +
                                    QString::number(run.exitCode) + ": " + run.err));
            }
        }
    }

    // The check skips what the parser consumes: the positional argument and option values.
    void unknownOptionCheckFollowsTheParser() {
        using rdmalab::cli::first_unknown_option;
        const auto* op = rdmalab::cli::find_command("op");
        QVERIFY(op);
        QVERIFY(!first_unknown_option(*op, {"write", "--message", "--sweep"})); // a message
        QCOMPARE(first_unknown_option(*op, {"write", "--listen", "--sweep"}).value_or(""), "--sweep");
        QCOMPARE(first_unknown_option(*op, {"write", "--listen", "10.0.0.1", "--sweep"}).value_or(""),
                 "--sweep");
        QVERIFY(!first_unknown_option(*op, {"--sweep"})); // the OPCODE's place: "unknown OPCODE"
        QCOMPARE(first_unknown_option(*op, {"write", "--json", "--json=1"}).value_or(""), "--json=1");
        // A message that looks like an option reaches the operation.
        const auto run = runCli({"op", "write", "--message", "--sweep", "--size", "0"});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("at least 1 byte"), qPrintable(run.err));
    }

    void helpListsEveryCommandOptionAndValue() {
        const auto run = runCli({"--help"});
        QCOMPARE(run.exitCode, 0);
        const auto& spec = rdmalab::cli::cli_spec();
        auto expect = [&](const std::string& text) {
            QVERIFY2(run.out.contains(qs(text)), qPrintable("--help lacks '" + qs(text) + "'"));
        };
        for (const auto& command : spec.commands) {
            expect("\n" + command.name + ": " + command.summary);
            for (const auto& form : command.synopsis)
                expect("rdmalab-cli " + form.substr(0, form.find(' ')));
            std::vector<rdmalab::cli::OptionSpec> options = command.options;
            if (command.argument) options.push_back(*command.argument);
            for (const auto& option : options) {
                expect("  " + (option.name.empty() ? option.value : option.name));
                for (const auto& value : option.values)
                    expect(value);
            }
        }
        for (const auto& option : spec.global_options) {
            expect("rdmalab-cli " + option.name);
            expect(option.short_name.empty() ? option.name : option.short_name + ", " + option.name);
        }
        for (const auto& status : spec.exit_status)
            expect("  " + std::to_string(status.code) + " " + status.meaning.substr(0, 20));
        // The paragraph the usage always had, and the exit status.
        const QString text = run.out.simplified(); // without the line breaks of the wrapping
        QVERIFY(text.contains("`op` sets up a loopback pair (endpoints A and B on one device"));
        QVERIFY(text.contains("compare tools only with the same placement."));
        QVERIFY(run.out.contains("Exit status:"));
    }

    void usageErrorShowsTheSynopsis() {
        const auto run = runCli({"devices", "--bogus"});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.startsWith("rdmalab-cli: devices: unknown argument '--bogus'\n"),
                 qPrintable(run.err));
        QVERIFY(run.err.contains("rdmalab-cli bench KIND --listen"));
        QVERIFY(run.out.isEmpty());
    }

    void versionIsTheProjectVersion() {
        const auto run = runCli({"--version"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.startsWith(QStringLiteral("rdmalab-cli " RDMALAB_VERSION " (trace format ")),
                 qPrintable(run.out));
    }

    // A capture that cannot start is recorded with its reason and fix, and the operation runs on (here it
    // then fails for want of a device, which is reported as the result).
    void aWireCaptureThatCannotStartSaysWhyAndTheOperationRunsOn() {
        auto run = runCli({"op", "write", "--wire", "--json"});
        QVERIFY2(run.out.contains("\"name\":\"capture.failed\""), qPrintable(run.out));
        QVERIFY(run.out.contains("a loopback pair (A and B on one device) puts no packet on a wire"));
        QVERIFY(run.out.contains("--connect HOST --wire"));
        QVERIFY2(run.out.contains("\"kind\":\"result\""), "the operation ran on to its result");
        run = runCli({"op", "write", "--wire", "--json", "--connect", "203.0.113.9"});
        QVERIFY2(run.out.contains("no network interface here reaches 203.0.113.9"), qPrintable(run.out));
        QVERIFY(run.out.contains("\"kind\":\"result\""));
        run = runCli({"op", "write", "--pcapng", "x.pcapng"});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("--pcapng saves the capture of --wire: add --wire"));
    }

    void aTwoHostLabSkippedOnOneHostIsNotCountedAsHeld() {
        // On one host (here, without any device) a two-host lab skips every step: the summary counts it apart
        // and says how to run it, instead of "1 of 1 labs held every expectation".
        const auto run = runCli({"lab", "run", "--all", "--dir",
                                 RDMALAB_SOURCE_DIR + QStringLiteral("/tests/data/labs-two-hosts")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.out.contains(
                     "0 of 0 labs held every expectation; 1 two-host lab skipped every step (it needs "
                     "two hosts: `lab run LAB --listen ADDR` on one, `--connect HOST` on the other)"),
                 qPrintable(run.out));
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
        QVERIFY(lines[2].contains(QString("\"format\":%1").arg(rdmalab::kTraceFormatVersion)));
        QVERIFY(lines[3].contains("no operation: send op.start first"));
        QVERIFY2(lines[4].contains("field 'cpus' must be [A] or [A, B]"), qPrintable(lines[4]));
        QVERIFY(lines[5].contains("\"name\":\"quit\""));
    }
};

QTEST_GUILESS_MAIN(CliArgsTest)
#include "tst_cli_args.moc"
