// The main window's lessons: the labs send, write and read, run live through the engine's lab runner
// (lab.start, lab.step) with the size and message the toolbar sets as their parameters, and which of them a
// recording shows.
#pragma once

#include "rdmalab/labs/lab.hpp"

#include <QString>

#include <array>
#include <string_view>
#include <vector>

namespace rdmalab::app {

/// The ids of the labs the main window offers as lessons, in its order. Their step ids are those of the
/// engine's loopback operation (LoopbackOperation), so a recording of `rdmalab-cli op` replays with their
/// texts (tests/host/tst_lessons.cpp checks both).
inline constexpr std::array<std::string_view, 3> kLessonLabs = {"send", "write", "read"};

/// A lab the main window runs as a lesson, with the parameter values its toolbar starts from.
struct Lesson {
    labs::Lab lab;
    int size = 64;   ///< the lab's `size` parameter's default (64 when it has none)
    QString message; ///< its `message` parameter's default: what the source buffer is filled with

    const std::string& id() const { return lab.id; }
    /// The lab's step `id`, or nullptr.
    const labs::Step* step(std::string_view id) const { return lab.step(id); }
};

/// The lessons among `labs`, in the order of kLessonLabs; one whose lab is not among them is left out.
std::vector<Lesson> lessonsAmong(const std::vector<labs::Lab>& labs);

/// The id of the lesson a recording shows, from its session's mode: "serve lab write" (a lesson run as a
/// lab), "op write" or "serve op write" (the engine's loopback operation: `rdmalab-cli op`, and the lessons
/// before they ran as labs); empty for any other mode.
QString lessonOfMode(const QString& mode);

/// The session's mode says the engine's loopback operation made the recording ("op write", "serve op
/// write"): its steps carry no rendered text.
bool recordsLoopbackOperation(const QString& mode);

} // namespace rdmalab::app
