// The app's command line: the parser, --help, --version and the man page all come from one table.
#include "commandline.h"
#include "testutil.hpp"

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
rdmalab::test::CliRun runApp(const QStringList& args, const QString& lessonsDir = {}) {
    auto environment = QProcessEnvironment::systemEnvironment();
    environment.insert("QT_QPA_PLATFORM", "offscreen");
    if (!lessonsDir.isEmpty()) environment.insert("RDMALAB_LESSONS_DIR", lessonsDir);
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
        QCOMPARE(parser.value("lang"), QString("en"));
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

    void versionIsTheProjectVersion() {
        const auto run = runApp({"--version"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(run.out.trimmed(), QString("rdmalab " RDMALAB_VERSION));
    }
};

QTEST_GUILESS_MAIN(AppCliTest)
#include "tst_app_cli.moc"
