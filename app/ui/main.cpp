// rdmalab: the desktop app. It never calls verbs itself: it drives `rdmalab-cli serve --stdio`.
#include "benchwindow.h"
#include "mainwindow.h"
#include "tracefile.h"

#include <QApplication>
#include <QCommandLineParser>

#include <cstdio>
#include <memory>

namespace {

/// True when `path` is a recorded measurement (it holds "measure" events), not a lesson trace.
bool isMeasurementTrace(const QString& path) {
    rdmalab::app::TraceFileError error;
    const auto events = rdmalab::app::readTraceFile(path, error);
    if (!events) return false; // the lesson window reports the bad file with its line and field
    for (const auto& e : *events)
        if (e.kind == rdmalab::EventKind::Measure) return true;
    return false;
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("rdmalab");
    QApplication::setOrganizationName("rdmalab");
    QApplication::setApplicationVersion(RDMALAB_VERSION);

    QCommandLineParser parser;
    parser.setApplicationDescription("Watch real RDMA operations one verbs call at a time, and measure TCP "
                                     "against RDMA side by side.");
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption lesson("lesson", "Lesson to open: send, write or read.", "id", "write");
    QCommandLineOption replay("replay", "Replay a recorded trace (JSON Lines) instead of running live.",
                              "file");
    QCommandLineOption autoplay("autoplay", "Play the lesson (or run the measurement) to the end without "
                                            "waiting for input.");
    QCommandLineOption screenshot("screenshot",
                                  "Save a PNG of the window when the lesson or measurement ends.", "file");
    QCommandLineOption quit("quit", "Quit when the lesson or measurement ends (exit 0 if it succeeded).");
    QCommandLineOption present("present", "Start in presentation mode (large fonts, high contrast).");
    QCommandLineOption language("lang", "Lesson text language: en or zh.", "lang", "en");
    QCommandLineOption delay("step-delay", "Pause between steps while playing, in ms.", "ms");
    QCommandLineOption engine("engine", "Path of rdmalab-cli (the engine process).", "path");
    QCommandLineOption bench(
        "bench",
        "Open the measurement window for KIND: send_lat, write_lat, read_lat, atomic_lat, "
        "tcp_lat, write_bw, read_bw, send_bw, tcp_bw, or 'compare' (TCP next to RDMA).",
        "kind");
    QCommandLineOption sweep("sweep", "Measure every message size from 2 B to 8 MiB (powers of two).");
    QCommandLineOption size("size", "Message size in bytes (measurement; may repeat).", "bytes");
    QCommandLineOption maxSize("max-size", "Largest size of a sweep, in bytes.", "bytes");
    QCommandLineOption iters("iters", "Measured iterations per size (default 1000).", "n");
    QCommandLineOption seconds("seconds", "Measure each size for this long instead of --iters.", "s");
    QCommandLineOption device("device", "RDMA device to measure on (default: the first).", "name");
    QCommandLineOption cpus("cpus",
                            "Pin endpoint A (the measuring thread) and B to these CPUs, e.g. 0,1 "
                            "(as taskset does for perftest, sockperf and iperf3).",
                            "A[,B]");
    QCommandLineOption tab("tab", "Measurement page to show: live, cpu or compare.", "page");
    QCommandLineOption exportFile("export", "Write the results to FILE (.csv or .json) when done.", "file");
    parser.addOptions({lesson, replay, autoplay, screenshot, quit, present, language, delay, engine, bench,
                       sweep, size, maxSize, iters, seconds, device, cpus, tab, exportFile});
    parser.process(app);

    const QString lang = parser.value(language) == "zh" ? "zh" : "en";
    const bool benchReplay = parser.isSet(replay) && isMeasurementTrace(parser.value(replay));
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
        o.engineProgram = parser.value(engine);
        rdmalab::app::BenchWindow window(o);
        window.show();
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
    options.engineProgram = parser.value(engine);
    if (parser.isSet(delay))
        options.stepDelayMs = parser.value(delay).toInt();
    else if (options.autoplay)
        options.stepDelayMs = 60;
    if (options.autoplay && !parser.isSet(delay)) options.animationSpeed = 4.0; // headless: no slow motion

    rdmalab::app::MainWindow window(options);
    window.show();
    return app.exec();
}
