// The values a lesson's texts name, read from a recording of the engine's loopback operation (`rdmalab-cli
// op`, and the main window's lessons before they ran as labs). Such a recording carries no rendered text:
// its replay renders the lab's texts with these (labs::render). A lesson run as a lab needs none: the lab
// runner renders its texts, and its recording carries them (lab.step's answers). Qt-free and verbs-free.
#pragma once

#include "rdmalab/format/trace.hpp"
#include "rdmalab/labs/lab.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdmalab::labs {

/// The value paths (docs/lab-format.md, "Value paths and placeholders") that the lesson texts use, as the
/// recorded `events` state them up to their last event, with `parameters` ({size}, {message}) added:
/// {device.name}, {device.mtu}, {device.gid}; for A and B {E.buf.lkey}, {E.buf.rkey}, {E.buf.addr},
/// {E.buf.access}, {E.qp.qpn}, {E.qp.psn} (its first send PSN, known at the peer's RTR), {E.qp.access}; and
/// the results of the step the events end in: {STEP.syscalls} for a post or poll step (worded in
/// `language`, "en" or "zh", when the recording has no count), {STEP.status} and {STEP.byte_len} for a poll
/// step. Keys in hex, PSNs in hex, access flags joined with '|'. Events whose fields have the wrong type
/// are passed over.
std::map<std::string, std::string> recorded_values(const std::vector<TraceEvent>& events,
                                                   const ParameterValues& parameters,
                                                   std::string_view language = "en");

/// recorded_values as a fold, one event at a time: a window replaying a long recording keeps one and asks
/// for the values at each step without reading the events before it again.
class RecordedValues {
  public:
    /// Takes one more event into account (events whose fields have the wrong type are passed over).
    void apply(const TraceEvent& event);
    /// What recorded_values returns for the events applied so far.
    std::map<std::string, std::string> values(const ParameterValues& parameters,
                                              std::string_view language = "en") const;

  private:
    /// A side's QP as the recording leaves it.
    struct QpValues {
        std::uint32_t qpn = 0;
        std::string access = {}; ///< its qp_access_flags as last set
        std::uint32_t sq_psn = 0, rq_psn = 0;
    };
    /// One side's region and QP as the recording leaves them.
    struct SideValues {
        std::map<std::string, std::string> buf; ///< lkey, rkey, addr, access; empty when none is registered
        std::optional<QpValues> qp;
    };
    void applyFields(const TraceEvent& event);

    std::map<std::string, std::string> device_; ///< device.name, device.mtu, device.gid
    std::array<SideValues, 2> sides_;
    std::string step_; ///< the step the events are in
    /// What the events of that step say about its system calls: the count, or why there is none.
    std::optional<std::int64_t> syscalls_;
    std::string syscallsWhy_;
    std::optional<std::pair<std::string, std::string>> completion_; ///< the last one: status, byte_len
};

} // namespace rdmalab::labs
