// What the lesson window's inspector shows, without widgets: which event it describes when none is
// selected, the lesson's texts (the lab runner's, or those of a recording of the engine's loopback
// operation rendered from the lab), and the HTML of an event, of the lesson's outcome and of the replay
// note.
#pragma once

#include "labstate.h"

#include "lessons.h"
#include "rdmalab/format/trace.hpp"

#include "rdmalab/labs/lab.hpp"
#include "rdmalab/labs/text.hpp"

#include <QString>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rdmalab::app {

/// The event the inspector describes when none is selected: the last verb call, QP state change, posted
/// work request, completion or error of the current step (the events after the last `step`), passing
/// over ibv_query* calls when the step made another call; null when the step has none of these.
const TraceEvent* inspectedEvent(std::span<const TraceEvent> events);

/// The class of the device the session runs on, as its `session` event says (device_info.software):
/// the lesson texts have a variant for each (docs/lab-format.md, "Device variants"); unknown when the
/// trace does not say.
labs::DeviceClass deviceClassOf(const LabState& state);

/// The lab's summary as the inspector shows it before the first step: the variant of the session's device
/// class in `language`, with the lesson's parameters ({size}, {message}) filled in.
std::string lessonSummaryText(const labs::Lab& lab, const LabState& state, int size, const QString& message,
                              std::string_view language);

/// The explanation of `step`, the step `state` is at, in `language`: the lab runner's, which lab.step's
/// answer carries (a live lesson and its recording); for a recording of the engine's loopback operation,
/// whose steps carry none, the lab's text for the session's device class rendered with the values the
/// events so far state (LabState::recordedValues) and the lesson's parameters. Empty while a live step's
/// answer has not arrived.
std::string lessonStepText(const labs::Step& step, const LabState& state, int size, const QString& message,
                           std::string_view language);

/// One event as the inspector shows it: its name, kind and sequence number, the verbs code it stands
/// for, and its ids and data as a table (lkey and rkey in hex; the memory bytes left out).
QString eventHtml(const TraceEvent& event);

/// The lesson's outcome so far: the error, and the check's summary and lines once it verified or not;
/// empty before either.
QString outcomeHtml(const LabState& state, std::string_view language);

/// A note for the lesson text once a completion of the session has failed: the lesson texts tell the
/// operation as it goes when nothing fails, so the note names the failed status and side and says where
/// the failure is explained; empty while every completion succeeded. In `language` ("en" or "zh").
QString failedRunNoteHtml(const LabState& state, std::string_view language);

/// The note a replay opens with: where and when the recording was made, and that nothing is live.
QString replayNoteHtml(const LabState& state);

/// Plain text as HTML: escaped, line breaks kept.
QString htmlText(const QString& text);

/// What the lesson the inspector explains was started with: the lesson (null: none), its size and message.
struct InspectedLesson {
    const Lesson* lesson = nullptr;
    int size = 0;
    QString message;
};

/// The main window's inspector: in a live lesson its title (and before the first step its summary); the
/// current step's title and text with the real values, after the failed-run note; the event `shown` (null:
/// none); the outcome. A replay starts with the replay note. In `language` ("en" or "zh").
QString inspectorHtml(const LabState& state, const InspectedLesson& lesson, const TraceEvent* shown,
                      bool live, bool replay, std::string_view language);

} // namespace rdmalab::app
