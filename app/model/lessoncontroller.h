// Drives one lesson: live on the engine process, as a lab run by its lab runner (lab.start, then each Step
// is one lab.step), or as a replay of a recorded trace (each Step reveals the events of the next recorded
// step). Play steps on its own, waiting for the views to finish animating each step first.
#pragma once

#include "engineclient.h"
#include "labstate.h"

#include <QObject>
#include <QTimer>

#include <span>

namespace rdmalab::app {

/// What the engine's answer to a lesson command says (a `result` event of lab.start or lab.step).
struct LessonReply {
    std::optional<std::int64_t> id; ///< the command it answers
    bool ok = false;
    QString error;         ///< lab.start: why it failed
    bool finished = false; ///< lab.step: the lab has no step left (all ran, or one failed unexpectedly)
    bool success = false;  ///< lab.step: the lab's summary says every expectation held
};
/// Reads a result event (`summary` only of lab.step's); throws FieldError when a field has the wrong type.
LessonReply readLessonReply(const TraceEvent& result);

class LessonController : public QObject {
    Q_OBJECT
  public:
    enum class Mode { Idle, Live, Replay };

    explicit LessonController(EngineClient* engine, QObject* parent = nullptr);

    Mode mode() const { return mode_; }
    bool playing() const { return playing_; }
    bool finished() const { return finished_; }
    bool busy() const { return awaitingStep_; }
    /// A replay playing as fast as the window keeps up (skipToEnd, or no step delay and no waiting for
    /// animations): whole steps revealed in batches.
    bool fastReplay() const;
    const LabState& state() const { return state_; }
    /// Every event of this session, in order (what "Save trace" writes); in a replay, the events revealed
    /// so far (kept once: they are the first events of replayEvents()).
    std::span<const TraceEvent> sessionEvents() const;
    /// Replay: the whole recording being replayed (sessionEvents() holds what has been revealed).
    const std::vector<TraceEvent>& replayEvents() const { return replay_; }

    /// Pause between steps while playing, in ms (the speed control).
    void setStepDelay(int ms) { stepDelayMs_ = ms; }
    int stepDelay() const { return stepDelayMs_; }
    /// Wait for animationsIdle() before the next step while playing (the main window does; tests need not).
    void setWaitForAnimations(bool wait) { waitForAnimations_ = wait; }
    /// A fast replay (fastReplay()) reveals whole steps in batches, each sized so that revealing it and
    /// showing it (eventsReady's receivers) take about this long: the window answers between batches.
    static constexpr int kFastBatchMs = 10;

  public slots:
    /// Starts a live lesson: the engine prepares lab `lab` with its parameters size and message (`text`), its
    /// texts rendered in `language`; nothing touches the device until step().
    void startLive(const QString& lab, int size, const QString& text, const QString& language = "en");
    /// Loads a recording for replay.
    void startReplay(std::vector<TraceEvent> events, const QString& source);
    void step();
    void play();
    /// Replay: plays the rest of the recording as fast as the window keeps up, in batches (the picture
    /// shows where the replay is, not each step's animation); pause() stops it.
    void skipToEnd();
    void pause();
    /// Live: releases the engine's objects and prepares the same lesson again. Replay: back to the start.
    void reset();
    /// The views finished animating what arrived.
    void animationsIdle();
    /// Feeds events from the engine (connected to EngineClient::eventsArrived).
    void onEngineEvents(const std::vector<TraceEvent>& events);
    void onEngineDied(const QString& message);

  signals:
    /// Events to show, in order: the session's next events (valid until the next call into the controller).
    void eventsReady(std::span<const rdmalab::TraceEvent> events);
    void stateReset();
    void changed();
    void finishedChanged(bool success);
    void message(const QString& text);

  private:
    /// Live: keeps the engine's events, folds them into the state and shows them.
    void feed(const std::vector<TraceEvent>& events);
    /// Replay: back to the start of the recording, its header revealed.
    void rewindReplay();
    /// Replay: folds the next recorded events, up to `end`, into the state and shows them.
    void reveal(std::size_t end);
    /// Replay: where the recorded step after the cursor's ends (the next step event, or the end).
    std::size_t endOfNextStep(std::size_t from) const;
    /// Replay, playing with no delay and no waiting: the next batch of whole steps.
    void revealBatch();
    void scheduleNext();

    EngineClient* engine_;
    Mode mode_ = Mode::Idle;
    LabState state_;
    std::vector<TraceEvent> session_;
    std::vector<TraceEvent> replay_;
    QString replaySource_; ///< the recording's name, as the replay's message gives it
    std::size_t replayCursor_ = 0;
    std::size_t batchEvents_ = 256; ///< fast replay: events per batch, adapted to kFastBatchMs
    QString lab_;
    int size_ = 64;
    QString message_;
    QString language_;
    bool playing_ = false;
    bool skipping_ = false; ///< skipToEnd: playing as fast as the window goes
    bool finished_ = false;
    bool awaitingStep_ = false;
    bool animating_ = false;
    bool waitForAnimations_ = false;
    int stepDelayMs_ = 600;
    int stepCommandId_ = -1;
    QTimer nextStepTimer_;
};

} // namespace rdmalab::app
