#include "lessoncontroller.h"

#include "rdmalab/format/fields.hpp"

#include <QElapsedTimer>

#include <algorithm>

namespace rdmalab::app {

LessonReply readLessonReply(const TraceEvent& result) {
    const Fields data(result.data, "data");
    LessonReply reply;
    reply.id = commandId(result);
    reply.ok = data.get<bool>("ok", false);
    reply.error = QString::fromStdString(data.text("error", std::string(protocol::kLabStart) + " failed"));
    reply.finished = data.get<bool>("done", false);
    if (result.name == protocol::kLabStep) reply.success = data.object("summary").get<bool>("ok", false);
    return reply;
}

LessonController::LessonController(EngineClient* engine, QObject* parent) : QObject(parent), engine_(engine) {
    nextStepTimer_.setSingleShot(true);
    connect(&nextStepTimer_, &QTimer::timeout, this, &LessonController::step);
    if (engine_) {
        connect(engine_, &EngineClient::eventsArrived, this, &LessonController::onEngineEvents);
        connect(engine_, &EngineClient::engineDied, this, &LessonController::onEngineDied);
    }
}

void LessonController::startLive(const QString& lab, int size, const QString& text, const QString& language) {
    nextStepTimer_.stop();
    mode_ = Mode::Live;
    lab_ = lab;
    size_ = size;
    message_ = text;
    language_ = language;
    playing_ = false;
    finished_ = false;
    awaitingStep_ = false;
    animating_ = false;
    state_.reset();
    state_.replay = false;
    session_.clear();
    emit stateReset();
    if (!engine_ || !engine_->isRunning()) {
        emit message(tr("The engine is not running: press Restart engine, or open a recording."));
        return;
    }
    // lab.start tears down what the last run still holds; the toolbar's size and message are the lab's
    // parameters.
    engine_->send(protocolName(protocol::kLabStart),
                  {{"lab", lab.toStdString()},
                   {"params", {{"size", size}, {"message", text.toStdString()}}},
                   {"lang", language.toStdString()}});
    emit changed();
}

void LessonController::startReplay(std::vector<TraceEvent> events, const QString& source) {
    replay_ = std::move(events);
    replaySource_ = source;
    rewindReplay();
}

void LessonController::rewindReplay() {
    nextStepTimer_.stop();
    mode_ = Mode::Replay;
    replayCursor_ = 0;
    playing_ = false;
    skipping_ = false;
    finished_ = false;
    awaitingStep_ = false;
    animating_ = false;
    state_.reset();
    state_.replay = true;
    session_.clear();
    emit stateReset();
    // Reveal the header and plan (everything before the first step) at once.
    std::size_t head = 0;
    while (head < replay_.size() && replay_[head].kind != EventKind::Step)
        ++head;
    reveal(head);
    emit message(tr("Replaying %1 — recorded on %2 (%3) at %4")
                     .arg(replaySource_, state_.device.isEmpty() ? tr("an unknown device") : state_.device,
                          state_.host.isEmpty() ? tr("unknown host") : state_.host, state_.date));
    emit changed();
}

void LessonController::step() {
    if (finished_ || awaitingStep_) return;
    if (mode_ == Mode::Live) {
        if (!engine_ || !engine_->isRunning()) return;
        awaitingStep_ = true;
        stepCommandId_ = engine_->send(protocolName(protocol::kLabStep));
        emit changed();
    } else if (mode_ == Mode::Replay) {
        if (fastReplay())
            revealBatch();
        else
            reveal(endOfNextStep(replayCursor_));
        if (replayCursor_ >= replay_.size()) {
            finished_ = true;
            playing_ = false;
            skipping_ = false;
            emit finishedChanged(state_.verified.value_or(false));
        }
        emit changed();
        scheduleNext();
    }
}

void LessonController::play() {
    if (finished_ || mode_ == Mode::Idle) return;
    playing_ = true;
    emit changed();
    if (!awaitingStep_ && (!animating_ || fastReplay())) step();
}

void LessonController::skipToEnd() {
    if (finished_ || mode_ != Mode::Replay) return;
    skipping_ = true;
    play();
}

void LessonController::pause() {
    playing_ = false;
    skipping_ = false;
    nextStepTimer_.stop();
    emit changed();
}

void LessonController::reset() {
    if (mode_ == Mode::Live)
        startLive(lab_, size_, message_, language_);
    else if (mode_ == Mode::Replay)
        rewindReplay();
}

void LessonController::animationsIdle() {
    animating_ = false;
    scheduleNext();
}

void LessonController::scheduleNext() {
    if (!playing_ || finished_ || awaitingStep_) return;
    if (fastReplay()) {
        nextStepTimer_.start(0);
        return;
    }
    if (waitForAnimations_ && animating_) return;
    nextStepTimer_.start(stepDelayMs_);
}

std::span<const TraceEvent> LessonController::sessionEvents() const {
    if (mode_ == Mode::Replay) return std::span<const TraceEvent>(replay_).first(replayCursor_);
    return session_;
}

void LessonController::feed(const std::vector<TraceEvent>& events) {
    if (events.empty()) return;
    for (const auto& e : events)
        state_.apply(e);
    const std::size_t first = session_.size();
    session_.insert(session_.end(), events.begin(), events.end());
    if (waitForAnimations_) animating_ = true;
    emit eventsReady(std::span<const TraceEvent>(session_).subspan(first));
}

void LessonController::reveal(std::size_t end) {
    const std::size_t first = replayCursor_;
    if (end <= first) return;
    for (std::size_t i = first; i < end; ++i)
        state_.apply(replay_[i]);
    replayCursor_ = end;
    if (waitForAnimations_) animating_ = true;
    emit eventsReady(std::span<const TraceEvent>(replay_).subspan(first, end - first));
}

std::size_t LessonController::endOfNextStep(std::size_t from) const {
    std::size_t end = std::min(from + 1, replay_.size()); // the step event itself
    while (end < replay_.size() && replay_[end].kind != EventKind::Step)
        ++end;
    return end;
}

bool LessonController::fastReplay() const {
    return mode_ == Mode::Replay && playing_ && (skipping_ || (stepDelayMs_ == 0 && !waitForAnimations_));
}

void LessonController::revealBatch() {
    QElapsedTimer took;
    took.start();
    std::size_t end = replayCursor_;
    while (end < replay_.size() && end - replayCursor_ < batchEvents_)
        end = endOfNextStep(end);
    const std::size_t revealed = end - replayCursor_;
    reveal(end);
    // The next batch: as many events as fit in kFastBatchMs at the pace this one went, changing by at
    // most half or double at a time so that one slow batch (a repaint, a page fault) does not swing it.
    const double ms = std::max<double>(0.5, double(took.nsecsElapsed()) / 1e6);
    const auto fitting = static_cast<std::size_t>(double(revealed) * kFastBatchMs / ms);
    batchEvents_ = std::clamp(fitting, batchEvents_ / 2, batchEvents_ * 2);
    batchEvents_ = std::clamp<std::size_t>(batchEvents_, 16, 1 << 20);
}

void LessonController::onEngineEvents(const std::vector<TraceEvent>& events) {
    if (mode_ != Mode::Live) return;
    feed(events);
    for (const auto& e : events) {
        if (e.kind != EventKind::Result) continue;
        const LessonReply reply = readLessonReply(e);
        if (e.name == protocol::kLabStart && !reply.ok) emit message(reply.error);
        if (e.name != protocol::kLabStep || reply.id != stepCommandId_) continue;
        awaitingStep_ = false;
        if (reply.finished) {
            finished_ = true;
            playing_ = false;
            emit finishedChanged(reply.success);
        }
    }
    emit changed();
    scheduleNext();
}

void LessonController::onEngineDied(const QString& text) {
    playing_ = false;
    awaitingStep_ = false;
    nextStepTimer_.stop();
    emit message(text);
    emit changed();
}

} // namespace rdmalab::app
