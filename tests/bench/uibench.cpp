// rdmalab-uibench: how smooth the main window stays with a long trace. A benchmark, not a test: it replays
// a recording of N events (default 100 000) into the main window offscreen as fast as the lesson controller
// feeds it (no step delay, not waiting for animations: harder than any live session), keeps watching for 10 s
// more while the picture animates what it was given, and reports the data-path picture's frames per second
// and the longest time the event loop could not run (a stall). The picture's queue is not drained: at
// normal speed it holds far more animation than 10 s (`picture_idle` says whether it caught up). The N events
// are a real recording (default tests/data/lesson-write.jsonl, SoftRoCE) repeated with renumbered sequence
// numbers and times, written to a temporary file and opened the way File > Open recording does.
//
// usage: QT_QPA_PLATFORM=offscreen rdmalab-uibench [--recording FILE] [--events N] [--json FILE]
#include "datapath/datapathview.h"
#include "mainwindow.h"
#include "rdmalab/format/buildpaths.hpp"
#include "tracefile.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace rdmalab;
using namespace rdmalab::app;

namespace {

/// Counts the paint events of a widget: each is one frame the picture drew.
class FrameCounter : public QObject {
  public:
    std::vector<qint64> frames; ///< ms since start of each frame
    QElapsedTimer* clock = nullptr;

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Paint) frames.push_back(clock->elapsed());
        return QObject::eventFilter(watched, event);
    }
};

std::vector<TraceEvent> repeated(const std::vector<TraceEvent>& recording, std::size_t count) {
    std::vector<TraceEvent> out;
    out.reserve(count);
    const auto body_start = std::find_if(recording.begin(), recording.end(),
                                         [](const TraceEvent& e) { return e.kind != EventKind::Session; });
    std::copy(recording.begin(), body_start, std::back_inserter(out));
    if (body_start == recording.end()) return out;
    const std::uint64_t t0 = body_start->t_ns;
    const std::uint64_t span = recording.back().t_ns - t0 + 1000;
    for (std::uint64_t copy = 0; out.size() < count; ++copy)
        for (auto it = body_start; it != recording.end() && out.size() < count; ++it) {
            TraceEvent e = *it;
            e.seq = out.size() + 1;
            e.t_ns = recording.front().t_ns + copy * span + (it->t_ns - t0);
            out.push_back(std::move(e));
        }
    return out;
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("rdmalab-uibench"));
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption recordingOption(
        QStringLiteral("recording"), QStringLiteral("A real recording to repeat."), QStringLiteral("file"),
        (QString::fromUtf8(rdmalab::build::source_dir()) + QStringLiteral("/tests/data/lesson-write.jsonl")));
    const QCommandLineOption eventsOption(QStringLiteral("events"), QStringLiteral("Events to replay."),
                                          QStringLiteral("n"), QStringLiteral("100000"));
    const QCommandLineOption jsonOption(QStringLiteral("json"), QStringLiteral("Write the figures as JSON."),
                                        QStringLiteral("file"));
    parser.addOptions({recordingOption, eventsOption, jsonOption});
    parser.process(app);

    TraceFileError error;
    const auto recording = readTraceFile(parser.value(recordingOption), error);
    if (!recording || recording->empty()) {
        std::fprintf(stderr, "rdmalab-uibench: %s\n", qPrintable(error.toString()));
        return 2;
    }
    const std::size_t count = parser.value(eventsOption).toULongLong();
    const auto events = repeated(*recording, count);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("long.jsonl"));
    if (const QString written = writeTraceFile(path, events); !written.isEmpty()) {
        std::fprintf(stderr, "rdmalab-uibench: %s\n", qPrintable(written));
        return 2;
    }
    const std::size_t steps = std::count_if(events.begin(), events.end(),
                                            [](const TraceEvent& e) { return e.kind == EventKind::Step; });

    QElapsedTimer clock;
    clock.start();
    StartOptions options;
    options.replayFile = path;
    MainWindow window(options);
    window.resize(1280, 800);
    window.show();
    auto* controller = window.controller();
    while (controller->mode() != LessonController::Mode::Replay && clock.elapsed() < 120000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    const qint64 openMs = clock.elapsed();
    if (controller->mode() != LessonController::Mode::Replay) {
        std::fprintf(stderr, "rdmalab-uibench: the recording did not open\n");
        return 2;
    }
    auto* picture = window.findChild<DataPathView*>(QStringLiteral("dataPathView"));
    FrameCounter counter;
    QElapsedTimer run;
    counter.clock = &run;
    picture->viewport()->installEventFilter(&counter);
    // The event loop's pulse: a 5 ms timer; any gap far beyond 5 ms is time the window could not respond.
    qint64 lastTick = 0, longestStall = 0, stallsOver50 = 0;
    QTimer pulse;
    pulse.setTimerType(Qt::PreciseTimer);
    QObject::connect(&pulse, &QTimer::timeout, [&] {
        const qint64 now = run.elapsed();
        const qint64 gap = now - lastTick - 5;
        longestStall = std::max(longestStall, gap);
        stallsOver50 += gap > 50 ? 1 : 0;
        lastTick = now;
    });
    controller->setWaitForAnimations(false);
    controller->setStepDelay(0);
    run.start();
    pulse.start(5);
    controller->play();
    while (!controller->finished() && run.elapsed() < 1800000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    const qint64 feedMs = run.elapsed();
    while (!picture->isIdle() && run.elapsed() < feedMs + 10000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    const qint64 replayMs = run.elapsed();
    pulse.stop();
    // Frames per second over each whole second of the replay, and overall.
    std::vector<int> perSecond(static_cast<std::size_t>(replayMs / 1000 + 1), 0);
    for (const qint64 t : counter.frames)
        ++perSecond[static_cast<std::size_t>(t / 1000)];
    const double fps = replayMs > 0 ? 1000.0 * double(counter.frames.size()) / double(replayMs) : 0;
    const int minFps = perSecond.size() > 1 ? *std::min_element(perSecond.begin(), perSecond.end() - 1) : 0;
    const nlohmann::json figures = {{"events", events.size()},
                                    {"steps", steps},
                                    {"recording", parser.value(recordingOption).toStdString()},
                                    {"open_ms", openMs},
                                    {"feed_ms", feedMs},
                                    {"watched_ms", replayMs},
                                    {"picture_idle", picture->isIdle()},
                                    {"frames", counter.frames.size()},
                                    {"fps", fps},
                                    {"min_fps_in_a_second", minFps},
                                    {"longest_stall_ms", longestStall},
                                    {"stalls_over_50ms", stallsOver50},
                                    {"finished", controller->finished()}};
    std::printf("%s\n", figures.dump(2).c_str());
    if (parser.isSet(jsonOption)) {
        QFile out(parser.value(jsonOption));
        if (out.open(QIODevice::WriteOnly)) out.write(QByteArray::fromStdString(figures.dump(2) + "\n"));
    }
    return controller->finished() ? 0 : 1;
}
