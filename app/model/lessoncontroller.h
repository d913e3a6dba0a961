// Drives one lesson: live on the engine process, as a lab run by its lab runner (lab.start, then each Step
// is one lab.step), or as a replay of a recorded trace (each Step reveals the events of the next recorded
// step). Play steps on its own, waiting for the views to finish animating each step first.
#pragma once

#include "engineclient.h"
#include "labstate.h"

#include <QObject>
#include <QTimer>

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
    const LabState& state() const { return state_; }
    /// Every event of this session, in order (what "Save trace" writes).
    const std::vector<TraceEvent>& sessionEvents() const { return session_; }
    /// Replay: the whole recording being replayed (sessionEvents() holds what has been revealed).
    const std::vector<TraceEvent>& replayEvents() const { return replay_; }

    /// Pause between steps while playing, in ms (the speed control).
    void setStepDelay(int ms) { stepDelayMs_ = ms; }
    int stepDelay() const { return stepDelayMs_; }
    /// Wait for animationsIdle() before the next step while playing (the main window does; tests need not).
    void setWaitForAnimations(bool wait) { waitForAnimations_ = wait; }

  public slots:
    /// Starts a live lesson: the engine prepares lab `lab` with its parameters size and message (`text`), its
    /// texts rendered in `language`; nothing touches the device until step().
    void startLive(const QString& lab, int size, const QString& text, const QString& language = "en");
    /// Loads a recording for replay.
    void startReplay(std::vector<TraceEvent> events, const QString& source);
    void step();
    void play();
    void pause();
    /// Live: releases the engine's objects and prepares the same lesson again. Replay: back to the start.
    void reset();
    /// The views finished animating what arrived.
    void animationsIdle();
    /// Feeds events from the engine (connected to EngineClient::eventsArrived).
    void onEngineEvents(const std::vector<TraceEvent>& events);
    void onEngineDied(const QString& message);

  signals:
    /// Events to show, in order. `fresh` is false for a state rebuild after reset.
    void eventsReady(const std::vector<rdmalab::TraceEvent>& events);
    void stateReset();
    void changed();
    void finishedChanged(bool success);
    void message(const QString& text);

  private:
    void feed(const std::vector<TraceEvent>& events);
    void scheduleNext();

    EngineClient* engine_;
    Mode mode_ = Mode::Idle;
    LabState state_;
    std::vector<TraceEvent> session_;
    std::vector<TraceEvent> replay_;
    std::size_t replayCursor_ = 0;
    QString lab_;
    int size_ = 64;
    QString message_;
    QString language_;
    bool playing_ = false;
    bool finished_ = false;
    bool awaitingStep_ = false;
    bool animating_ = false;
    bool waitForAnimations_ = false;
    int stepDelayMs_ = 600;
    int stepCommandId_ = -1;
    QTimer nextStepTimer_;
};

} // namespace rdmalab::app
