// The app's lessons as labs: a lab whose steps are, id for id, the steps the engine's LoopbackOperation runs
// for one operation (engine/src/ops/operation.cpp) can be run by the app as a lesson. The app starts that
// operation in the engine and shows, for the step running, the lab's text of the step with that id.
// Qt-free and verbs-free, like the rest of rdmalab_labs.
#pragma once

#include "rdmalab/labs/lab.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdmalab::labs {

/// A lab the app runs as a lesson: what to start in the engine, and the lab for the texts.
struct LoopbackLesson {
    Lab lab;
    std::string op; ///< engine opcode, from the post_send step: send, send_imm, write, write_imm, read...
    std::size_t size = 0; ///< the `size` parameter's default (64 when the lab has none)
    std::string message;  ///< what the source buffer is filled with (the `fill` of its reg_mr, resolved)

    const std::string& id() const { return lab.id; }
    /// The lab's step `id`, or nullptr.
    const Step* step(std::string_view id) const { return lab.step(id); }
};

/// The step ids LoopbackOperation runs, in order, for engine opcode `op` without a fault; empty for an
/// opcode the engine does not know.
std::vector<std::string> loopback_step_ids(std::string_view op);

/// `lab` as a lesson, or std::nullopt when it is not one: its step ids are not LoopbackOperation's for the
/// opcode of its post_send_A step (`why`, when given, says what differs).
std::optional<LoopbackLesson> as_loopback_lesson(const Lab& lab, std::string* why = nullptr);

/// The labs among `labs` that are lessons, in the order given.
std::vector<LoopbackLesson> loopback_lessons(const std::vector<Lab>& labs);

} // namespace rdmalab::labs
