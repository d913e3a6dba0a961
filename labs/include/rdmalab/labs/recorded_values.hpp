// The values a lesson's texts name, read from a recording of the engine's loopback operation (`rdmalab-cli
// op`, and the main window's lessons before they ran as labs). Such a recording carries no rendered text:
// its replay renders the lab's texts with these (labs::render). A lesson run as a lab needs none: the lab
// runner renders its texts, and its recording carries them (lab.step's answers). Qt-free and verbs-free.
#pragma once

#include "rdmalab/format/trace.hpp"
#include "rdmalab/labs/lab.hpp"

#include <map>
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

} // namespace rdmalab::labs
