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
#include <optional>
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

/// The names of the options main() reads, each checked against the table when the app starts.
struct OptionNames {
    QString language = option("lang"), replay = option("replay"), bench = option("bench"),
            size = option("size"), sweep = option("sweep"), maxSize = option("max-size"),
            iters = option("iters"), seconds = option("seconds"), device = option("device"),
            cpus = option("cpus"), tab = option("tab"), autoplay = option("autoplay"),
            screenshot = option("screenshot"), exportFile = option("export"), quit = option("quit"),
            engine = option("engine"), lesson = option("lesson"), present = option("present"),
            delay = option("step-delay"), reopen = option("reopen-unfinished"), lab = option("lab"),
            labs = option("labs"), report = option("report"), seed = option("seed"),
            workbench = option("workbench"), windowSize = option("window-size"),
            engineProgram = option("engine-program"), traceWr = option("trace-wr");
};

/// --engine local|vm|ssh://…, or (as before) the path of the rdmalab-cli to run locally: sets where every
/// window's engine runs and returns the rdmalab-cli to run here (empty: the default); nullopt after saying
/// why the value is refused.
std::optional<QString> chooseEngine(const QCommandLineParser& parser, const OptionNames& o,
                                    const rdmalab::app::VmOptions& vm) {
    QString program = parser.value(o.engineProgram);
    const QString where = parser.value(o.engine);
    if (where == QLatin1String("vm")) {
        rdmalab::app::EngineClient::setDefaultHost(rdmalab::app::EngineHost::Vm, vm);
    } else if (where.startsWith(QLatin1String("ssh:"))) {
        QString error;
        auto ssh = rdmalab::app::parseSshUrl(where, &error);
        if (!ssh) {
            std::fprintf(stderr, "rdmalab: --engine: %s\n", qPrintable(error));
            return std::nullopt;
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
            return std::nullopt;
        }
        if (program.isEmpty()) program = where;
    }
    return program;
}

/// --window-size: the size to open at (a projector's 1280x720, for screenshots), instead of the screen's fit;
/// an invalid size when not given, nullopt after saying why the value is refused.
std::optional<QSize> openSize(const QCommandLineParser& parser, const OptionNames& o) {
    if (!parser.isSet(o.windowSize)) return QSize();
    const QSize size = rdmalab::app::parseWindowSize(parser.value(o.windowSize));
    if (!size.isValid()) {
        std::fprintf(stderr,
                     "rdmalab: --window-size needs WIDTHxHEIGHT in pixels (e.g. 1280x720), not '%s'\n",
                     qPrintable(parser.value(o.windowSize)));
        return std::nullopt;
    }
    return size;
}

/// What the lab, measurement and lesson windows read alike: --autoplay, --screenshot and --quit.
template <typename Options>
void readRunToTheEnd(const QCommandLineParser& parser, const OptionNames& o, Options& options) {
    options.autoplay = parser.isSet(o.autoplay);
    options.screenshot = parser.value(o.screenshot);
    options.quitWhenDone = parser.isSet(o.quit);
}

rdmalab::app::LabWindowOptions labOptions(const QCommandLineParser& parser, const OptionNames& o) {
    rdmalab::app::LabWindowOptions options;
    options.lab = parser.value(o.lab);
    readRunToTheEnd(parser, o, options);
    options.report = parser.value(o.report);
    options.seed = parser.value(o.seed);
    options.presentation = parser.isSet(o.present);
    return options;
}

/// --size (repeatable; the message sizes) and --cpus A[,B] of a measurement into `options`; false after
/// saying why a value is refused.
bool readSizesAndCpus(const QCommandLineParser& parser, const OptionNames& o, const QString& kind,
                      rdmalab::app::BenchStartOptions& options) {
    for (const auto& s : parser.values(o.size)) {
        bool ok = false;
        const qint64 v = s.toLongLong(&ok);
        if (!ok || v <= 0) {
            std::fprintf(stderr, "rdmalab: --size needs a positive number of bytes, not '%s'\n",
                         qPrintable(s));
            return false;
        }
        if (kind == "compare" && options.sizes == std::vector<qint64>{2, 65536}) options.sizes.clear();
        options.sizes.push_back(v);
    }
    if (options.sizes.empty()) options.sizes = {2};
    if (!parser.isSet(o.cpus)) return true;
    const QStringList parts = parser.value(o.cpus).split(',');
    for (const auto& part : parts) {
        bool ok = false;
        const int cpu = part.toInt(&ok);
        if (!ok || cpu < 0 || cpu > 4095 || parts.size() > 2) {
            std::fprintf(stderr, "rdmalab: --cpus needs A or A,B (CPU numbers, e.g. 0,1), not '%s'\n",
                         qPrintable(parser.value(o.cpus)));
            return false;
        }
        options.cpus.push_back(cpu);
    }
    return true;
}

/// The measurement window's options (--bench KIND|compare, or a --replay of a measurement); nullopt after
/// saying why a value is refused.
std::optional<rdmalab::app::BenchStartOptions> benchOptions(const QCommandLineParser& parser,
                                                            const OptionNames& o, bool benchReplay) {
    rdmalab::app::BenchStartOptions options;
    const QString kind = parser.value(o.bench);
    if (kind == "compare") {
        options.kinds = rdmalab::app::BenchWindow::comparisonKinds();
        options.sizes = {2, 65536};
        options.tab = "compare";
    } else if (!kind.isEmpty()) {
        options.kinds = {kind};
    }
    if (!readSizesAndCpus(parser, o, kind, options)) return std::nullopt;
    options.sweep = parser.isSet(o.sweep);
    if (parser.isSet(o.maxSize)) options.maxSize = parser.value(o.maxSize).toLongLong();
    if (parser.isSet(o.iters)) options.iters = std::max(1, parser.value(o.iters).toInt());
    if (parser.isSet(o.seconds)) options.seconds = parser.value(o.seconds).toDouble();
    options.device = parser.value(o.device);
    options.traceWr = parser.isSet(o.traceWr);
    if (parser.isSet(o.tab)) options.tab = parser.value(o.tab);
    readRunToTheEnd(parser, o, options);
    options.exportPath = parser.value(o.exportFile);
    options.replayFile = benchReplay ? parser.value(o.replay) : QString();
    return options;
}

rdmalab::app::WorkbenchWindowOptions workbenchOptions(const QCommandLineParser& parser,
                                                      const OptionNames& o) {
    rdmalab::app::WorkbenchWindowOptions options;
    readRunToTheEnd(parser, o, options);
    options.presentation = parser.isSet(o.present);
    return options;
}

rdmalab::app::StartOptions lessonOptions(const QCommandLineParser& parser, const OptionNames& o) {
    rdmalab::app::StartOptions options;
    options.lesson = parser.value(o.lesson);
    options.replayFile = parser.value(o.replay);
    readRunToTheEnd(parser, o, options);
    options.presentation = parser.isSet(o.present);
    options.reopenUnfinished = parser.isSet(o.reopen);
    options.automaticEngineHost = !parser.isSet(o.engine);
    if (parser.isSet(o.delay))
        options.stepDelayMs = parser.value(o.delay).toInt();
    else if (options.autoplay)
        options.stepDelayMs = 60;
    if (options.autoplay && !parser.isSet(o.delay)) options.animationSpeed = 4.0; // headless: no slow motion
    return options;
}

/// Opens a Window with `options` in the app's `language` and with its engine (`engineProgram`; empty: the
/// default), at `size` when valid, and runs the app until it ends.
template <typename Window, typename Options>
int runWindow(QApplication& app, Options options, const QString& language, const QString& engineProgram,
              QSize size) {
    options.language = language;
    options.engineProgram = engineProgram;
    Window window(options);
    if (size.isValid()) window.resize(size);
    window.show();
    return app.exec();
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
    const OptionNames o;
    parser.process(app);
    // The app's VM downloads Debian's kernel on first use (the status line shows how far).
    rdmalab::app::VmOptions vm;
    vm.downloadKernel = true;
    const auto program = chooseEngine(parser, o, vm);
    if (!program) return 2;
    const auto size = openSize(parser, o);
    if (!size) return 2;

    // The interface's language: --language, else the last choice (View ▸ Language), else the system's.
    if (parser.isSet(o.language) && !rdmalab::app::Language::isKnown(parser.value(o.language))) {
        std::fprintf(stderr, "rdmalab: --lang needs en (English) or zh (Simplified Chinese), not '%s'\n",
                     qPrintable(parser.value(o.language)));
        return 2;
    }
    auto* appLanguage = rdmalab::app::Language::instance();
    appLanguage->set(rdmalab::app::Language::startLanguage(parser.isSet(o.language) ? parser.value(o.language)
                                                                                    : QString()));
    const QString lang = appLanguage->current();
    if (parser.isSet(o.lab) || parser.isSet(o.labs))
        return runWindow<rdmalab::app::LabWindow>(app, labOptions(parser, o), lang, *program, *size);
    if (parser.isSet(o.workbench))
        return runWindow<rdmalab::app::WorkbenchWindow>(app, workbenchOptions(parser, o), lang, *program,
                                                        *size);
    const bool benchReplay =
        parser.isSet(o.replay) && rdmalab::app::recordingHoldsMeasurements(parser.value(o.replay));
    if (parser.isSet(o.bench) || benchReplay) {
        auto options = benchOptions(parser, o, benchReplay);
        if (!options) return 2;
        return runWindow<rdmalab::app::BenchWindow>(app, *options, lang, *program, *size);
    }
    auto options = lessonOptions(parser, o);
    options.vm = vm;
    return runWindow<rdmalab::app::MainWindow>(app, options, lang, *program, *size);
}
