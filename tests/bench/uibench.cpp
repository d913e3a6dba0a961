// rdmalab-uibench: how well the main window keeps up with a long trace. A benchmark, not a test: it opens a
// recording of N events (default 100 000) in the main window offscreen the way File > Open recording does,
// replays it with the toolbar's "To the end" (as fast as the window keeps up, the picture showing where the
// replay is), keeps watching up to 10 s more while the picture finishes its animations, and reports the
// events ingested per second (reading the file, and replaying it), the data-path picture's frames per
// second, the longest time the event loop could not run (a stall) while the file loads and while it
// replays, the time to the first frame, and the process's peak memory. The N events are a real recording
// (default tests/data/lesson-write.jsonl, SoftRoCE) repeated with renumbered sequence numbers and times,
// written to a temporary file.
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
#include <QFileInfo>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
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

/// The event loop's stalls in one phase of the run: the longest, and how many exceeded 50 ms.
struct Stalls {
    qint64 longest = 0;
    qint64 over50 = 0;
    void add(qint64 gap) {
        longest = std::max(longest, gap);
        over50 += gap > 50 ? 1 : 0;
    }
};

/// Writes `count` events to `path`: the recording's header, then its body repeated with renumbered sequence
/// numbers and times, one line at a time (the benchmark's own memory stays small: the app's peak is what
/// is measured). Returns the number of steps written, or nothing when the file cannot be written.
std::optional<std::size_t> writeRepeated(const std::vector<TraceEvent>& recording, std::size_t count,
                                         const QString& path) {
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly)) return std::nullopt;
    std::size_t written = 0, steps = 0;
    std::string chunk;
    auto write = [&](const TraceEvent& e) {
        chunk += to_json_line(e);
        chunk += '\n';
        ++written;
        steps += e.kind == EventKind::Step ? 1 : 0;
        if (chunk.size() > (1 << 20)) {
            out.write(chunk.data(), qint64(chunk.size()));
            chunk.clear();
        }
    };
    const auto body_start = std::find_if(recording.begin(), recording.end(),
                                         [](const TraceEvent& e) { return e.kind != EventKind::Session; });
    for (auto it = recording.begin(); it != body_start && written < count; ++it)
        write(*it);
    if (body_start != recording.end()) {
        const std::uint64_t t0 = body_start->t_ns;
        const std::uint64_t span = recording.back().t_ns - t0 + 1000;
        for (std::uint64_t copy = 0; written < count; ++copy)
            for (auto it = body_start; it != recording.end() && written < count; ++it) {
                TraceEvent e = *it;
                e.seq = written + 1;
                e.t_ns = recording.front().t_ns + copy * span + (it->t_ns - t0);
                write(e);
            }
    }
    out.write(chunk.data(), qint64(chunk.size()));
    return out.error() == QFileDevice::NoError ? std::optional(steps) : std::nullopt;
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
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("long.jsonl"));
    const auto steps = writeRepeated(*recording, count, path);
    if (!steps) {
        std::fprintf(stderr, "rdmalab-uibench: cannot write %s\n", qPrintable(path));
        return 2;
    }
    const std::size_t total = count;
    const qint64 fileBytes = QFileInfo(path).size();

    // The event loop's pulse, from before the window opens the file: a 5 ms timer; any gap far beyond 5 ms
    // is time the window could not respond (while the file loads, and while it replays).
    QElapsedTimer run;
    run.start();
    Stalls startup, loading, replaying;
    Stalls* phase = &startup;
    qint64 lastTick = 0;
    QTimer pulse;
    pulse.setTimerType(Qt::PreciseTimer);
    QObject::connect(&pulse, &QTimer::timeout, [&] {
        const qint64 now = run.elapsed();
        phase->add(now - lastTick - 5);
        lastTick = now;
    });
    pulse.start(5);

    StartOptions options;
    options.replayFile = path;
    MainWindow window(options);
    window.resize(1280, 800);
    auto* picture = window.findChild<DataPathView*>(QStringLiteral("dataPathView"));
    FrameCounter counter;
    counter.clock = &run;
    picture->viewport()->installEventFilter(&counter);
    window.show();
    // Building the window and its first frame is the start-up; the file loads on its own thread meanwhile,
    // and from the first frame on the window must stay responsive until the replay is ready.
    while (counter.frames.empty() && run.elapsed() < 60000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    const qint64 firstFrameMs = counter.frames.empty() ? -1 : counter.frames.front();
    phase = &loading;
    auto* controller = window.controller();
    while (controller->mode() != LessonController::Mode::Replay && run.elapsed() < 300000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    const qint64 openMs = run.elapsed();
    if (controller->mode() != LessonController::Mode::Replay) {
        std::fprintf(stderr, "rdmalab-uibench: the recording did not open\n");
        return 2;
    }
    // Replay the way a user skips to the end: the toolbar's "To the end" (as fast as the window keeps up).
    auto* skip = window.findChild<QPushButton*>(QStringLiteral("skipToEndButton"));
    if (!skip || !skip->isEnabled()) {
        std::fprintf(stderr, "rdmalab-uibench: no enabled To the end button\n");
        return 2;
    }
    phase = &replaying;
    const qint64 replayStart = run.elapsed();
    const std::size_t framesBefore = counter.frames.size();
    skip->click();
    while (!controller->finished() && run.elapsed() < replayStart + 1800000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    const qint64 feedMs = run.elapsed() - replayStart;
    while (!picture->isIdle() && run.elapsed() < replayStart + feedMs + 10000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    const qint64 replayMs = run.elapsed() - replayStart;
    pulse.stop();
    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    const std::size_t replayedEvents = controller->sessionEvents().size();
    // Frames per second over each whole second of the replay, and overall.
    std::vector<int> perSecond(static_cast<std::size_t>(replayMs / 1000 + 1), 0);
    for (std::size_t i = framesBefore; i < counter.frames.size(); ++i)
        ++perSecond[static_cast<std::size_t>((counter.frames[i] - replayStart) / 1000)];
    const std::size_t frames = counter.frames.size() - framesBefore;
    const double fps = replayMs > 0 ? 1000.0 * double(frames) / double(replayMs) : 0;
    const int minFps = perSecond.size() > 1 ? *std::min_element(perSecond.begin(), perSecond.end() - 1) : 0;
    const nlohmann::json figures = {
        {"events", total},
        {"steps", *steps},
        {"recording", parser.value(recordingOption).toStdString()},
        {"file_bytes", fileBytes},
        {"first_frame_ms", firstFrameMs},
        {"longest_stall_starting_ms", startup.longest},
        {"open_ms", openMs},
        {"open_events_per_s", openMs > 0 ? 1000.0 * double(total) / double(openMs) : 0},
        {"longest_stall_while_opening_ms", loading.longest},
        {"stalls_over_50ms_while_opening", loading.over50},
        {"feed_ms", feedMs},
        {"events_replayed", replayedEvents},
        {"replay_events_per_s", feedMs > 0 ? 1000.0 * double(replayedEvents) / double(feedMs) : 0},
        {"ingest_events_per_s", openMs + feedMs > 0 ? 1000.0 * double(total) / double(openMs + feedMs) : 0},
        {"watched_ms", replayMs},
        {"picture_idle", picture->isIdle()},
        {"frames", frames},
        {"fps", fps},
        {"min_fps_in_a_second", minFps},
        {"longest_stall_ms", replaying.longest},
        {"stalls_over_50ms", replaying.over50},
        {"peak_rss_mb", usage.ru_maxrss / 1024},
        {"finished", controller->finished()}};
    std::printf("%s\n", figures.dump(2).c_str());
    if (parser.isSet(jsonOption)) {
        QFile out(parser.value(jsonOption));
        if (out.open(QIODevice::WriteOnly)) out.write(QByteArray::fromStdString(figures.dump(2) + "\n"));
    }
    return controller->finished() ? 0 : 1;
}
