// Drives measurements on the engine process (bench.start / bench.stop) and turns its "measure" events
// into BenchRun records the charts draw. Also opens a recorded measurement trace as a replay.
#pragma once

#include "benchdata.h"
#include "engineclient.h"

#include "rdmalab/format/fields.hpp"

#include <QObject>
#include <QStringList>

#include <vector>

namespace rdmalab::app {

class BenchSession : public QObject {
    Q_OBJECT
  public:
    /// What to measure: every kind at every size (kinds outermost), as the engine's bench.start takes it.
    struct Request {
        QStringList kinds;
        std::vector<qint64> sizes; ///< ignored with sweep
        bool sweep = false;
        qint64 maxSize = 0; ///< sweep: largest size (0: the engine's 8 MiB)
        int iters = 1000;
        double seconds = 0; ///< > 0: run each measurement this long instead of `iters`
        int warmup = 100;
        int window = 64;
        QString device;       ///< empty: the engine's first device
        QList<int> cpus;      ///< [A] or [A, B]: pin the endpoints to these CPUs (empty: not pinned)
        bool traceWr = false; ///< measure each RDMA run untraced, then with every work request traced
    };

    explicit BenchSession(EngineClient* engine, QObject* parent = nullptr);

    /// Sends bench.start; false (with lastError()) when the engine is not running or one is running.
    bool start(const Request& request);
    /// Asks the engine to stop after the current iteration; results so far are kept.
    void stop();
    /// Opens recorded events (a saved measurement trace) as a replay: nothing is measured.
    void openReplay(const std::vector<TraceEvent>& events, const QString& source);
    void clear();
    /// Reads `event` as a session would, on a scratch one; throws FieldError for a field of the wrong type.
    static void checkFields(const TraceEvent& event);

    bool running() const { return running_; }
    bool isReplay() const { return replay_; }
    QString replaySource() const { return replaySource_; }
    const std::vector<BenchRun>& runs() const { return runs_; }
    /// Index of the run receiving samples (or the last one), -1 when there is none.
    int currentRun() const { return current_; }
    QString lastError() const { return lastError_; }
    /// Device of the measurements (from the results, or the session header).
    QString device() const { return device_; }
    bool softwareDevice() const { return softwareDevice_; }
    /// Every event of this measurement session in order: what Save writes and autosave keeps.
    const std::vector<TraceEvent>& events() const { return events_; }

  public slots:
    /// Feeds events from the engine (connected to EngineClient::eventsArrived).
    void handleEvents(const std::vector<rdmalab::TraceEvent>& events);
    void onEngineDied(const QString& message);

  signals:
    /// Data arrived (many times a second while running; views redraw on their own timer).
    void dataChanged();
    void runStarted(int index);
    void runFinished(int index);
    /// The whole request ended: ok, stopped early, or failed with `error` (verb, status, cause, fix).
    void finished(bool ok, const QString& error);
    void runningChanged(bool running);

  private:
    /// Runs in one plan: far above any real one (every kind at every size of a sweep is about 200), low
    /// enough that a hostile index cannot make the app allocate gigabytes.
    static constexpr int kMaxRuns = 10000;

    void apply(const TraceEvent& e);
    BenchRun* runAt(const Fields& data);
    void fail(const QString& error);

    EngineClient* engine_;
    std::vector<BenchRun> runs_;
    std::vector<TraceEvent> events_;
    int requestId_ = -1;
    int current_ = -1;
    bool running_ = false;
    bool replay_ = false;
    QString replaySource_;
    QString lastError_;
    QString device_;
    bool softwareDevice_ = false;
};

} // namespace rdmalab::app
