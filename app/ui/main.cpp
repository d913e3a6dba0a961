// rdmalab: the desktop app. It never calls verbs itself: it drives `rdmalab-cli serve --stdio`.
#include "benchwindow.h"
#include "commandline.h"
#include "labwindow.h"
#include "language.h"
#include "mainwindow.h"
#include "tracefile.h"
#include "windowparts.h"
#include "workbenchwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>

namespace {

/// The name of an option main() reads, checked against the table: a renamed option must not read as unset.
QString option(const char* name) {
    for (const auto& entry : rdmalab::app::commandLineTable())
        if (entry.names.contains(QLatin1String(name))) return QLatin1String(name);
    std::fprintf(stderr, "rdmalab: internal error: --%s is not in the command-line table\n", name);
    std::abort();
}

/// True when the Qt platform would be the default one (xcb or wayland) and there is no display to connect to:
/// QApplication would abort there ("could not connect to display"), so main() answers first.
bool noDisplay() {
    const auto unset = [](const char* name) {
        const char* value = std::getenv(name);
        return value == nullptr || *value == '\0';
    };
    return unset("QT_QPA_PLATFORM") && unset("DISPLAY") && unset("WAYLAND_DISPLAY");
}

/// True when the arguments only ask for text (help or version), which needs no window.
bool asksOnlyForText(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help" || arg == "--help-all" || arg == "-v" || arg == "--version")
            return true;
    }
    return false;
}

} // namespace

int main(int argc, char** argv) {
    // Before QApplication: the build generates the man page where there is no display.
    if (rdmalab::app::wantsManPage(argc, argv)) {
        std::printf("%s", rdmalab::man::render(rdmalab::app::manPage()).c_str());
        return 0;
    }
    if (noDisplay()) {
        if (asksOnlyForText(argc, argv)) {
            ::setenv("QT_QPA_PLATFORM", "offscreen", 1); // help and version print text: no window needed
        } else {
            std::fprintf(stderr,
                         "rdmalab: there is no display to open a window on (DISPLAY and WAYLAND_DISPLAY are "
                         "unset).\nRun it in a desktop session (or over ssh -X), or headless with "
                         "QT_QPA_PLATFORM=offscreen and --screenshot FILE --quit.\n");
            return 2;
        }
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName("rdmalab");
    QApplication::setOrganizationName("rdmalab");
    QApplication::setApplicationVersion(RDMALAB_VERSION);
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/rdmalab.svg")));
    QGuiApplication::setDesktopFileName(QStringLiteral("rdmalab")); // the installed rdmalab.desktop

    QCommandLineParser parser;
    rdmalab::app::addCommandLineOptions(parser); // every option, from the table the man page shows
    const QString language = option("lang"), replay = option("replay"), bench = option("bench"),
                  size = option("size"), sweep = option("sweep"), maxSize = option("max-size"),
                  iters = option("iters"), seconds = option("seconds"), device = option("device"),
                  cpus = option("cpus"), tab = option("tab"), autoplay = option("autoplay"),
                  screenshot = option("screenshot"), exportFile = option("export"), quit = option("quit"),
                  engine = option("engine"), lesson = option("lesson"), present = option("present"),
                  delay = option("step-delay"), reopen = option("reopen-unfinished"), lab = option("lab"),
                  labs = option("labs"), report = option("report"), seedOption = option("seed"),
                  workbench = option("workbench"), windowSize = option("window-size"),
                  engineProgram = option("engine-program");
    parser.process(app);
    // --engine local|vm, or (as before) the path of the rdmalab-cli to run locally.
    QString program = parser.value(engineProgram);
    const QString where = parser.value(engine);
    // The app's VM downloads Debian's kernel on first use (the status line shows how far).
    rdmalab::app::VmOptions vm;
    vm.downloadKernel = true;
    if (where == QLatin1String("vm")) {
        rdmalab::app::EngineClient::setDefaultHost(rdmalab::app::EngineHost::Vm, vm);
    } else if (where.startsWith(QLatin1String("ssh:"))) {
        QString error;
        auto ssh = rdmalab::app::parseSshUrl(where, &error);
        if (!ssh) {
            std::fprintf(stderr, "rdmalab: --engine: %s\n", qPrintable(error));
            return 2;
        }
        ssh->program = program; // --engine-program names the rdmalab-cli on that host
        program.clear();
        rdmalab::app::EngineClient::setDefaultHost(rdmalab::app::EngineHost::Ssh, {}, *ssh);
    } else if (where != QLatin1String("local")) {
        if (!where.contains(QLatin1Char('/'))) {
            std::fprintf(stderr,
                         "rdmalab: --engine needs local, vm, ssh://[USER@]HOST[:PORT] or the path of "
                         "rdmalab-cli, not '%s'\n",
                         qPrintable(where));
            return 2;
        }
        if (program.isEmpty()) program = where;
    }
    // --window-size: the size to open at (a projector's 1280x720, for screenshots), instead of the screen's
    // fit.
    QSize openSize;
    if (parser.isSet(windowSize)) {
        openSize = rdmalab::app::parseWindowSize(parser.value(windowSize));
        if (!openSize.isValid()) {
            std::fprintf(stderr,
                         "rdmalab: --window-size needs WIDTHxHEIGHT in pixels (e.g. 1280x720), not '%s'\n",
                         qPrintable(parser.value(windowSize)));
            return 2;
        }
    }
    auto showAtSize = [&openSize](QWidget& window) {
        if (openSize.isValid()) window.resize(openSize);
        window.show();
    };

    // The interface's language: --language, else the last choice (View ▸ Language), else the system's.
    if (parser.isSet(language) && !rdmalab::app::Language::isKnown(parser.value(language))) {
        std::fprintf(stderr, "rdmalab: --lang needs en (English) or zh (Simplified Chinese), not '%s'\n",
                     qPrintable(parser.value(language)));
        return 2;
    }
    auto* appLanguage = rdmalab::app::Language::instance();
    appLanguage->set(
        rdmalab::app::Language::startLanguage(parser.isSet(language) ? parser.value(language) : QString()));
    const QString lang = appLanguage->current();
    if (parser.isSet(lab) || parser.isSet(labs)) {
        rdmalab::app::LabWindowOptions o;
        o.lab = parser.value(lab);
        o.language = lang;
        o.engineProgram = program;
        o.autoplay = parser.isSet(autoplay);
        o.screenshot = parser.value(screenshot);
        o.report = parser.value(report);
        o.seed = parser.value(seedOption);
        o.quitWhenDone = parser.isSet(quit);
        rdmalab::app::LabWindow window(o);
        showAtSize(window);
        return app.exec();
    }
    if (parser.isSet(workbench)) {
        rdmalab::app::WorkbenchWindowOptions o;
        o.language = lang;
        o.engineProgram = program;
        rdmalab::app::WorkbenchWindow window(o);
        showAtSize(window);
        return app.exec();
    }
    const bool benchReplay =
        parser.isSet(replay) && rdmalab::app::recordingHoldsMeasurements(parser.value(replay));
    if (parser.isSet(bench) || benchReplay) {
        rdmalab::app::BenchStartOptions o;
        const QString kind = parser.value(bench);
        if (kind == "compare") {
            o.kinds = rdmalab::app::BenchWindow::comparisonKinds();
            o.sizes = {2, 65536};
            o.tab = "compare";
        } else if (!kind.isEmpty()) {
            o.kinds = {kind};
        }
        for (const auto& s : parser.values(size)) {
            bool ok = false;
            const qint64 v = s.toLongLong(&ok);
            if (!ok || v <= 0) {
                std::fprintf(stderr, "rdmalab: --size needs a positive number of bytes, not '%s'\n",
                             qPrintable(s));
                return 2;
            }
            if (kind == "compare" && o.sizes == std::vector<qint64>{2, 65536}) o.sizes.clear();
            o.sizes.push_back(v);
        }
        if (o.sizes.empty()) o.sizes = {2};
        o.sweep = parser.isSet(sweep);
        if (parser.isSet(maxSize)) o.maxSize = parser.value(maxSize).toLongLong();
        if (parser.isSet(iters)) o.iters = std::max(1, parser.value(iters).toInt());
        if (parser.isSet(seconds)) o.seconds = parser.value(seconds).toDouble();
        o.device = parser.value(device);
        if (parser.isSet(cpus)) {
            const QStringList parts = parser.value(cpus).split(',');
            for (const auto& part : parts) {
                bool ok = false;
                const int cpu = part.toInt(&ok);
                if (!ok || cpu < 0 || cpu > 4095 || parts.size() > 2) {
                    std::fprintf(stderr, "rdmalab: --cpus needs A or A,B (CPU numbers, e.g. 0,1), not '%s'\n",
                                 qPrintable(parser.value(cpus)));
                    return 2;
                }
                o.cpus.push_back(cpu);
            }
        }
        if (parser.isSet(tab)) o.tab = parser.value(tab);
        o.autoplay = parser.isSet(autoplay);
        o.screenshot = parser.value(screenshot);
        o.exportPath = parser.value(exportFile);
        o.quitWhenDone = parser.isSet(quit);
        o.replayFile = benchReplay ? parser.value(replay) : QString();
        o.language = lang;
        o.engineProgram = program;
        rdmalab::app::BenchWindow window(o);
        showAtSize(window);
        return app.exec();
    }

    rdmalab::app::StartOptions options;
    options.lesson = parser.value(lesson);
    options.replayFile = parser.value(replay);
    options.autoplay = parser.isSet(autoplay);
    options.screenshot = parser.value(screenshot);
    options.quitWhenDone = parser.isSet(quit);
    options.presentation = parser.isSet(present);
    options.language = lang;
    options.engineProgram = program;
    options.reopenUnfinished = parser.isSet(reopen);
    options.automaticEngineHost = !parser.isSet(engine);
    options.vm = vm;
    if (parser.isSet(delay))
        options.stepDelayMs = parser.value(delay).toInt();
    else if (options.autoplay)
        options.stepDelayMs = 60;
    if (options.autoplay && !parser.isSet(delay)) options.animationSpeed = 4.0; // headless: no slow motion

    rdmalab::app::MainWindow window(options);
    showAtSize(window);
    return app.exec();
}
