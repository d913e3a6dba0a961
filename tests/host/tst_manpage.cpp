// Man pages: the roff writer (escaping, and groff reading its output without a warning), and
// rdmalab-cli's installed page against the option table the program parses with.
#include "options.hpp"
#include "rdmalab/format/manpage.hpp"
#include "testutil.hpp"

#include <QtTest>

using rdmalab::test::renderManPage;
using rdmalab::test::runCli;
using rdmalab::test::runProgram;

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

/// True when a line of `text` starts (after its indentation) with `start`, followed by a blank or its end.
bool hasLineStartingWith(const QString& text, const QString& start) {
    const QRegularExpression re("^\\s*" + QRegularExpression::escape(start) + "(\\s|$)",
                                QRegularExpression::MultilineOption);
    return re.match(text).hasMatch();
}

/// How an option's ".TP" tag reads in the rendered page.
QString tag(const rdmalab::cli::OptionSpec& o) {
    QString t = o.short_name.empty() ? qs(o.name) : qs(o.short_name + ", " + o.name);
    if (!o.value.empty()) {
        if (!t.isEmpty()) t += ' ';
        t += o.value_optional ? "[" + qs(o.value) + "]" : qs(o.value);
    }
    return t;
}

} // namespace

class ManPageTest : public QObject {
    Q_OBJECT
  private slots:
    void writerEscapesRoff() {
        rdmalab::man::ManPage page;
        page.name = "demo-tool";
        page.source = "demo 1.0";
        page.summary = "a page with awkward text";
        page.synopsis = {"run FILE [--dry-run]"};
        page.description = {".starts like a request", "'starts like a request too",
                            "C:\\path\\to and `a-b` and --long-opt, -x, well-known\n.next line"};
        rdmalab::man::Section options{.title = "OPTIONS"};
        options.options.push_back({.names = {"-n", "--dry-run"}, .help = "Do nothing."});
        options.options.push_back(
            {.names = {"--cpus"}, .value = "A[,B]", .help = "CPUs.", .values = {"0,1"}});
        page.sections.push_back(options);
        page.see_also = {"other-tool(1)"};
        const auto roff = qs(rdmalab::man::render(page));

        // Every line that reads as a request is one the writer meant.
        const QStringList requests = {".TH", ".SH", ".SS", ".PP", ".TP", ".br", ".SY", ".YS", ".\\\""};
        for (const auto& line : roff.split('\n'))
            if (line.startsWith('.') || line.startsWith('\''))
                QVERIFY2(requests.contains(line.section(' ', 0, 0)), qPrintable("stray request: " + line));
        QVERIFY(roff.contains("\n\\&.starts like a request\n"));
        QVERIFY(roff.contains("\n\\&'starts like a request too\n"));
        QVERIFY(roff.contains("\n.br\n\\&.next line\n"));
        QVERIFY(roff.contains("C:\\epath\\eto"));
        QVERIFY(roff.contains("\\fB\\%a\\-b\\fR"));
        QVERIFY(roff.contains("\\fB\\%\\-\\-long\\-opt\\fR"));
        QVERIFY(roff.contains("\\fB\\%\\-x\\fR"));
        QVERIFY(roff.contains(" well-known")); // prose keeps its hyphens
        QVERIFY(roff.contains("\\fB\\%\\-n\\fR, \\fB\\%\\-\\-dry\\-run\\fR\n"));
        QVERIFY(roff.contains("\\fB\\%\\-\\-cpus\\fR \\fI\\%A\\fR[,\\fI\\%B\\fR]\n"));
        QVERIFY(roff.contains(".TH \"DEMO\\-TOOL\" 1 \"\" \"demo 1.0\" \"User Commands\"\n"));
        QVERIFY(roff.contains(".SH NAME\ndemo\\-tool \\- a page with awkward text\n"));
        QVERIFY(roff.contains(
            ".SY \"demo\\-tool\"\n\\fB\\%run\\fR \\fI\\%FILE\\fR [\\fB\\%\\-\\-dry\\-run\\fR]\n.YS\n"));

        // groff reads it without a warning, and a reader sees the text as it was written.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile file(dir.filePath("demo-tool.1"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(roff.toUtf8());
        file.close();
        const auto groff = runProgram("groff", {"-man", "-Tutf8", "-ww", "-z", file.fileName()});
        QVERIFY2(groff.exitCode == 0 && groff.err.isEmpty(), qPrintable(groff.err));
        const auto shown = renderManPage(file.fileName());
        QVERIFY2(shown.exitCode == 0, qPrintable(shown.err));
        for (const auto* text :
             {".starts like a request", "starts like a request too", "C:\\path\\to and a-b",
              "--long-opt, -x, well-known", ".next line", "-n, --dry-run", "--cpus A[,B]", "One of: 0,1",
              "demo-tool run FILE [--dry-run]", "other-tool(1)"})
            QVERIFY2(shown.out.contains(QString::fromUtf8(text)),
                     qPrintable(QString("lacks: ") + text + "\n" + shown.out));
    }

    void cliManPageShowsEveryCommandAndOption() {
        const auto shown = renderManPage(RDMALAB_CLI_MAN_PAGE);
        QVERIFY2(shown.exitCode == 0, qPrintable(shown.err));
        const QString& page = shown.out;
        for (const auto* section :
             {"NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "EXIT STATUS", "SEE ALSO"})
            QVERIFY2(QRegularExpression(QString("^%1$").arg(section), QRegularExpression::MultilineOption)
                         .match(page)
                         .hasMatch(),
                     section);
        const auto& spec = rdmalab::cli::cli_spec();
        for (const auto& command : spec.commands) {
            // Its own subsection heading, and its synopsis.
            QVERIFY2(hasLineStartingWith(page, qs(command.name)),
                     qPrintable("no subsection " + qs(command.name)));
            QVERIFY2(page.contains("rdmalab-cli " + qs(command.name) + " "), qPrintable(qs(command.name)));
            std::vector<rdmalab::cli::OptionSpec> options = command.options;
            if (command.argument) options.push_back(*command.argument);
            for (const auto& option : options) {
                QVERIFY2(hasLineStartingWith(page, tag(option)),
                         qPrintable(qs(command.name) + ": no entry '" + tag(option) + "'"));
                for (const auto& value : option.values)
                    QVERIFY2(page.contains(qs(value)),
                             qPrintable(qs(command.name) + ": no value " + qs(value)));
            }
        }
        for (const auto& option : spec.global_options) {
            QVERIFY2(hasLineStartingWith(page, tag(option)), qPrintable("no entry '" + tag(option) + "'"));
            QVERIFY2(hasLineStartingWith(page, "rdmalab-cli " + qs(option.name)),
                     qPrintable(qs(option.name)));
        }
        for (const auto& status : spec.exit_status)
            QVERIFY(hasLineStartingWith(page, QString::number(status.code)));
        for (const auto& ref : spec.see_also)
            QVERIFY2(page.contains(qs(ref)), ref.c_str());
        QVERIFY(page.contains("rdmalab " RDMALAB_VERSION)); // the footer
    }

    void cliManPageIsWhatTheProgramPrints() {
        const auto installed = runProgram("gzip", {"-dc", RDMALAB_CLI_MAN_PAGE});
        QVERIFY2(installed.exitCode == 0, qPrintable(installed.err));
        const auto printed = runCli({"--man"});
        QCOMPARE(printed.exitCode, 0);
        QCOMPARE(installed.out, printed.out);
        QCOMPARE(printed.out, qs(rdmalab::man::render(rdmalab::cli::man_page())));
        QVERIFY(printed.out.startsWith(".\\\" Generated by rdmalab-cli --man"));
    }

    // The synopsis is written by hand (it shows which options go together): it must still name them all.
    void synopsisNamesEveryOption() {
        for (const auto& command : rdmalab::cli::cli_spec().commands) {
            QString forms;
            for (const auto& form : command.synopsis) {
                QVERIFY2(form.rfind(command.name + " ", 0) == 0, form.c_str());
                if (command.argument) {
                    // The placeholder, or (a sub-command such as `lab check`) one of its values right after
                    // the name.
                    bool names_it = form.find(" " + command.argument->value) != form.npos;
                    for (const auto& value : command.argument->values)
                        names_it = names_it || form.rfind(command.name + " " + value + " ", 0) == 0;
                    QVERIFY2(names_it, form.c_str());
                }
                forms += qs(form) + "\n";
            }
            for (const auto& option : command.options)
                QVERIFY2(QRegularExpression(QRegularExpression::escape(qs(option.name)) + "(?![a-z-])")
                             .match(forms)
                             .hasMatch(),
                         qPrintable(qs(command.name) + ": synopsis lacks " + qs(option.name)));
        }
    }
};

QTEST_GUILESS_MAIN(ManPageTest)
#include "tst_manpage.moc"
