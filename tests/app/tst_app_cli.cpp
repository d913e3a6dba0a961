// The app's command line: the parser, --help, --version and the man page all come from one table.
#include "commandline.h"
#include "testutil.hpp"

#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QTemporaryDir>
#include <QtTest>

using rdmalab::app::CommandLineEntry;
using rdmalab::app::commandLineTable;
using rdmalab::test::renderManPage;
using rdmalab::test::runProgram;

namespace {

/// "--lesson" or "-h".
QString typed(const QString& name) {
    return (name.size() == 1 ? "-" : "--") + name;
}

/// Runs the app offscreen (no display needed).
rdmalab::test::CliRun runApp(const QStringList& args, const QString& lessonsDir = {},
                             const QString& sessionsDir = {}) {
    auto environment = QProcessEnvironment::systemEnvironment();
    environment.insert("QT_QPA_PLATFORM", "offscreen");
    if (!lessonsDir.isEmpty()) environment.insert("RDMALAB_LABS_DIR", lessonsDir);
    if (!sessionsDir.isEmpty()) environment.insert("RDMALAB_SESSIONS_DIR", sessionsDir);
    return runProgram(RDMALAB_APP_PATH, args, environment);
}

} // namespace

class AppCliTest : public QObject {
    Q_OBJECT
  private slots:
    void anUnknownLessonFailsInsteadOfRunningAnother() {
        const auto run = runApp({"--lesson", "nosuch", "--autoplay", "--quit"});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("There is no lesson 'nosuch'; the lessons are: ") &&
                     run.err.contains("write"),
                 qPrintable(run.err));
    }

    // --window-size opens the window at that size (the screenshot has it); a size that is not WxH is refused.
    void theLabBrowserWithQuitEndsWhetherOrNotItHasALabToPlay() {
        QTemporaryDir dir;
        const QString png = dir.filePath("labs.png");
        const auto browse = runApp({"--labs", "--screenshot", png, "--quit"}, {}, dir.path());
        QVERIFY2(browse.exitCode == 0 && browse.err != "timed out", qPrintable(browse.err));
        QVERIFY(!QImage(png).isNull());
        const auto nothing = runApp({"--labs", "--autoplay", "--quit"}, {}, dir.path());
        QCOMPARE(nothing.exitCode, 1);
        QVERIFY2(nothing.err.contains("Nothing to play: name a lab with --lab ID."), qPrintable(nothing.err));
    }

    void theWorkbenchWithQuitEndsOnceItsSessionHasStartedOrCannot() {
        // It used to ignore --screenshot and --quit and run until killed. Started (with or without a device:
        // the pair is built later), it shows itself and ends 0; an engine that cannot start ends it 1.
        QTemporaryDir dir;
        const QString png = dir.filePath("workbench.png");
        const auto run = runApp({"--workbench", "--window-size", "1280x720", "--screenshot", png, "--quit"},
                                {}, dir.path());
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(QImage(png).size(), QSize(1280, 720));
        const auto noEngine =
            runApp({"--workbench", "--engine-program", "/nonexistent/rdmalab-cli", "--quit"}, {}, dir.path());
        QCOMPARE(noEngine.exitCode, 1);
        QVERIFY2(noEngine.err.contains("Could not start the engine process '/nonexistent/rdmalab-cli'"),
                 qPrintable(noEngine.err));
    }

    void windowSizeSetsTheScreenshotsSize() {
        QTemporaryDir dir;
        const QString png = dir.filePath("small.png");
        const auto run = runApp(
            {"--replay", (RDMALAB_SOURCE_DIR + QStringLiteral("/tests/data/lesson-send.jsonl")), "--autoplay",
             "--step-delay", "0", "--window-size", "1024x768", "--screenshot", png, "--quit"},
            {}, dir.path());
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(QImage(png).size(), QSize(1024, 768));
        const auto bad = runApp({"--window-size", "big", "--quit"}, {}, dir.path());
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--window-size needs WIDTHxHEIGHT"), qPrintable(bad.err));
        // An unknown language is refused by name, not silently shown in English.
        const auto badLanguage = runApp({"--lang", "xx", "--quit"}, {}, dir.path());
        QCOMPARE(badLanguage.exitCode, 2);
        QVERIFY2(badLanguage.err.contains("--lang needs en (English) or zh (Simplified Chinese), not 'xx'"),
                 qPrintable(badLanguage.err));
        QCOMPARE(runApp({"--lang", "zh_CN", "--version"}, {}, dir.path()).exitCode, 0);
        // A recording that cannot be opened is reported with its line; no lesson ran, so no "did not
        // verify" follows.
        const QString garbage = dir.filePath("garbage.jsonl");
        QFile file(garbage);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a trace event\n");
        file.close();
        const auto unreadable = runApp({"--replay", garbage, "--autoplay", "--quit"}, {}, dir.path());
        QCOMPARE(unreadable.exitCode, 1);
        QVERIFY2(unreadable.err.contains("Cannot open the recording:") && unreadable.err.contains(": line 1"),
                 qPrintable(unreadable.err));
        QVERIFY2(!unreadable.err.contains("did not verify"), qPrintable(unreadable.err));
    }

    // Presentation mode fills the screen: on a 1280x720 projector (an offscreen screen of that size) the
    // window is 1280x720, whatever size it opened at.
    void presentationModeFillsAProjector() {
        QTemporaryDir dir;
        QFile screens(dir.filePath("projector.json"));
        QVERIFY(screens.open(QIODevice::WriteOnly));
        screens.write(R"({"screens": [{"name": "projector", "x": 0, "y": 0, "width": 1280, "height": 720,
                          "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})");
        screens.close();
        auto environment = QProcessEnvironment::systemEnvironment();
        environment.insert("QT_QPA_PLATFORM", "offscreen:configfile=" + screens.fileName());
        environment.insert("RDMALAB_SESSIONS_DIR", dir.path());
        for (const bool present : {false, true}) {
            const QString png = dir.filePath(present ? "present.png" : "normal.png");
            QStringList args{
                "--replay",   (RDMALAB_SOURCE_DIR + QStringLiteral("/tests/data/lesson-send.jsonl")),
                "--autoplay", "--step-delay",
                "0",          "--screenshot",
                png,          "--quit"};
            if (present) args << "--present";
            const auto run = runProgram(RDMALAB_APP_PATH, args, environment);
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
            // Normal: fitted to 90 % of the projector; presented: all of it.
            QCOMPARE(QImage(png).size(), present ? QSize(1280, 720) : QSize(1152, 648));
        }
    }

    void badLessonFilesAreReported() {
        QTemporaryDir dir;
        QFile bad(dir.filePath("broken.yaml"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("id: broken\ntitle: [unclosed\n");
        bad.close();
        const auto run = runApp({"--autoplay", "--quit"}, dir.path());
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("lesson not loaded: ") && run.err.contains("broken.yaml"),
                 qPrintable(run.err));
    }

    // A session an earlier app left unfinished neither blocks nor changes an unattended run: it is named
    // on stderr and left for the next start.
    void anUnattendedRunLeavesTheOfferForTheNextStart() {
        QTemporaryDir dir;
        const auto lines = rdmalab::test::recordingLines("lesson-write.jsonl", 10);
        const QString path =
            rdmalab::test::writeUnfinishedSession(dir.path(), "20240501-100000-000-1", lines, {},
                                                  rdmalab::test::deadProcessId(), "2024-05-01T10:00:00.000");
        const QString png = dir.filePath("replay.png");
        const auto run =
            runApp({"--replay", (RDMALAB_SOURCE_DIR + QStringLiteral("/tests/data/lesson-send.jsonl")),
                    "--autoplay", "--step-delay", "0", "--screenshot", png, "--quit"},
                   {}, dir.path());
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains("10 events) ended without being closed: " + path), qPrintable(run.err));
        QVERIFY(QFileInfo(png).size() > 0);
        QVERIFY(QFile::exists(path + ".open"));
    }

    void reopenUnfinishedOpensTheNewestSessionAndSaysSo() {
        QTemporaryDir dir;
        const auto lines = rdmalab::test::recordingLines("lesson-write.jsonl", 21);
        const QString path = rdmalab::test::writeUnfinishedSession(
            dir.path(), "20240501-100000-000-1", lines.first(20), lines[20].left(50),
            rdmalab::test::deadProcessId(), "2024-05-01T10:00:00.000");
        const QString png = dir.filePath("recovered.png");
        const auto run = runApp({"--reopen-unfinished", "--screenshot", png, "--quit"}, {}, dir.path());
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains("reopened " + path + " as a replay: 20 events"), qPrintable(run.err));
        QVERIFY2(run.err.contains("line 21 was incomplete"), qPrintable(run.err));
        QVERIFY(QFileInfo(png).size() > 0);
        QVERIFY(QFile::exists(path));
        QVERIFY(!QFile::exists(path + ".open"));
        // Nothing left to reopen: said, and a failure.
        const auto none = runApp({"--reopen-unfinished", "--quit"}, {}, dir.path());
        QCOMPARE(none.exitCode, 1);
        QVERIFY2(none.err.contains("There is no unfinished session to reopen in " + dir.path()),
                 qPrintable(none.err));
    }

    void parserTakesEveryOptionOfTheTable() {
        for (const auto& entry : commandLineTable()) {
            for (const auto& name : entry.names) {
                QCommandLineParser parser;
                rdmalab::app::addCommandLineOptions(parser);
                QStringList args = {"rdmalab", typed(name)};
                if (!entry.valueName.isEmpty()) args << "1";
                QVERIFY2(parser.parse(args), qPrintable(args.join(' ') + ": " + parser.errorText()));
                QVERIFY2(parser.isSet(name), qPrintable(name));
            }
        }
        QCommandLineParser parser;
        rdmalab::app::addCommandLineOptions(parser);
        QVERIFY(!parser.parse({"rdmalab", "--no-such-option"}));
        QVERIFY2(parser.errorText().contains("no-such-option"), qPrintable(parser.errorText()));
        // Defaults reach the parser.
        QVERIFY(parser.parse({"rdmalab"}));
        QCOMPARE(parser.value("lesson"), QString("write"));
        QCOMPARE(parser.value("lang"), QString()); // none: the last choice, else the system locale's
    }

    // Both directions: every option of the table is in --help, and every option --help lists (Qt adds
    // some itself: help, help-all, version) is in the table.
    void helpListsExactlyTheTable() {
        const auto run = runApp({"--help"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QStringList inTable;
        for (const auto& entry : commandLineTable())
            for (const auto& name : entry.names) {
                inTable << typed(name);
                QVERIFY2(QRegularExpression(QRegularExpression::escape(typed(name)) + "(?![a-z-])")
                             .match(run.out)
                             .hasMatch(),
                         qPrintable("--help lacks " + typed(name) + "\n" + run.out));
            }
        auto listed = QRegularExpression("(?<![\\w-])--?[a-z][a-z-]*").globalMatch(run.out);
        while (listed.hasNext()) {
            const QString option = listed.next().captured();
            QVERIFY2(inTable.contains(option), qPrintable("--help lists " + option + ", the table does not"));
        }
    }

    void manPageShowsEveryOption() {
        const auto shown = renderManPage(RDMALAB_APP_MAN_PAGE);
        QVERIFY2(shown.exitCode == 0, qPrintable(shown.err));
        const QString& page = shown.out;
        for (const auto* section : {"NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS",
                                    "ENVIRONMENT", "FILES", "SEE ALSO"})
            QVERIFY2(QRegularExpression(QString("^%1$").arg(section), QRegularExpression::MultilineOption)
                         .match(page)
                         .hasMatch(),
                     section);
        QSet<QString> groups;
        for (const auto& entry : commandLineTable()) {
            QStringList names;
            for (const auto& name : entry.names)
                names << typed(name);
            QString tag = names.join(", ");
            if (!entry.valueName.isEmpty()) tag += ' ' + entry.valueName.toUpper();
            // The entry's tag at the start of a line (its .TP paragraph), not only a mention.
            QVERIFY2(QRegularExpression("^\\s*" + QRegularExpression::escape(tag) + "(\\s|$)",
                                        QRegularExpression::MultilineOption)
                         .match(page)
                         .hasMatch(),
                     qPrintable("no entry '" + tag + "'"));
            if (!entry.defaultValue.isEmpty())
                QVERIFY2(page.contains("Default: " + entry.defaultValue), qPrintable(tag));
            groups << entry.group;
        }
        for (const auto& group : groups)
            QVERIFY2(QRegularExpression("^\\s+" + group + "$", QRegularExpression::MultilineOption)
                         .match(page)
                         .hasMatch(),
                     qPrintable("no subsection " + group));
        QVERIFY(page.contains("rdmalab-cli(1)"));
        QVERIFY(page.contains("rdmalab " RDMALAB_VERSION));
    }

    // --man is answered before QApplication exists: it works where no display can be opened, and the
    // page the build installed is what the program prints.
    void manPageNeedsNoDisplay() {
        auto environment = QProcessEnvironment::systemEnvironment();
        environment.insert("QT_QPA_PLATFORM", "xcb");
        environment.remove("DISPLAY");
        environment.remove("WAYLAND_DISPLAY");
        const auto printed = runProgram(RDMALAB_APP_PATH, {"--man"}, environment);
        QVERIFY2(printed.exitCode == 0 && !printed.crashed, qPrintable(printed.err));
        QVERIFY(printed.out.startsWith(".\\\" Generated by rdmalab --man"));
        QCOMPARE(printed.out, QString::fromStdString(rdmalab::man::render(rdmalab::app::manPage())));
        const auto installed = runProgram("gzip", {"-dc", RDMALAB_APP_MAN_PAGE});
        QVERIFY2(installed.exitCode == 0, qPrintable(installed.err));
        QCOMPARE(installed.out, printed.out);
    }

    // Without a display, Qt would abort with "could not connect to display": help and version still print,
    // and a window run says what is missing and how to run headless.
    void withoutADisplayHelpPrintsAndAWindowRunExplains() {
        auto environment = QProcessEnvironment::systemEnvironment();
        environment.remove("QT_QPA_PLATFORM");
        environment.remove("DISPLAY");
        environment.remove("WAYLAND_DISPLAY");
        const auto version = runProgram(RDMALAB_APP_PATH, {"--version"}, environment);
        QVERIFY2(version.exitCode == 0 && !version.crashed, qPrintable(version.err));
        QCOMPARE(version.out.trimmed(), QString("rdmalab " RDMALAB_VERSION));
        const auto help = runProgram(RDMALAB_APP_PATH, {"--help"}, environment);
        QVERIFY2(help.exitCode == 0 && !help.crashed, qPrintable(help.err));
        QVERIFY(help.out.contains("--workbench"));
        const auto window = runProgram(RDMALAB_APP_PATH, {"--lesson", "write"}, environment);
        QVERIFY(!window.crashed);
        QCOMPARE(window.exitCode, 2);
        QVERIFY2(window.err.contains("no display") && window.err.contains("QT_QPA_PLATFORM=offscreen"),
                 qPrintable(window.err));
    }

    void versionIsTheProjectVersion() {
        const auto run = runApp({"--version"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(run.out.trimmed(), QString("rdmalab " RDMALAB_VERSION));
    }
};

QTEST_GUILESS_MAIN(AppCliTest)
#include "tst_app_cli.moc"
