// The engine process protocol's vocabulary (docs/trace-format.md, "Engine process protocol"): the names of
// the commands the app sends and the engine answers, and of the events a measurement streams, so the app
// and the engine spell them from one place. The protocol's version is kProtocolVersion (trace.hpp).
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace rdmalab::protocol {

// ---- commands (each answered by one `result` event of the same name) ---------------------------------

inline constexpr std::string_view kHello = "hello";
inline constexpr std::string_view kDevices = "devices";
inline constexpr std::string_view kOpStart = "op.start";
inline constexpr std::string_view kOpStep = "op.step";
inline constexpr std::string_view kOpRun = "op.run";
inline constexpr std::string_view kOpReset = "op.reset";
inline constexpr std::string_view kLabStart = "lab.start";
inline constexpr std::string_view kLabStep = "lab.step";
inline constexpr std::string_view kLabRun = "lab.run";
inline constexpr std::string_view kLabReset = "lab.reset";
inline constexpr std::string_view kWorkStart = "work.start";
inline constexpr std::string_view kWorkDo = "work.do";
inline constexpr std::string_view kWorkReset = "work.reset";
inline constexpr std::string_view kWorkSave = "work.save";
inline constexpr std::string_view kBenchStart = "bench.start";
inline constexpr std::string_view kBenchStop = "bench.stop";
inline constexpr std::string_view kBenchWait = "bench.wait";
inline constexpr std::string_view kQuit = "quit";

/// The result that answers a line that is not a command at all (not a JSON object, no `cmd`, ...).
inline constexpr std::string_view kInvalid = "invalid";

/// One command of the protocol: its name and what it does, in a line.
struct Command {
    std::string_view name;
    std::string_view summary;
};

/// Every command, in the order docs/trace-format.md's table lists them.
inline constexpr std::array<Command, 18> kCommands{{
    {kHello, "names the engine, its trace format and its protocol; refuses another protocol"},
    {kDevices, "lists the RDMA devices (or explains why there is none)"},
    {kOpStart, "prepares a loopback operation (an opcode, a size, a fault) and lists its steps"},
    {kOpStep, "performs the operation's next step"},
    {kOpRun, "performs the operation's remaining steps"},
    {kOpReset, "releases the operation's objects in teardown order"},
    {kLabStart, "parses, checks and instantiates a lab (by id or by its text) and lists its steps"},
    {kLabStep, "performs the lab's next step and checks its expectations"},
    {kLabRun, "performs the lab's remaining steps"},
    {kLabReset, "destroys what the lab still holds, children before parents"},
    {kWorkStart, "opens an empty workbench session"},
    {kWorkDo, "checks and performs one lab step in the workbench session"},
    {kWorkReset, "destroys every object of the workbench session"},
    {kWorkSave, "writes the workbench session as a lab file's text"},
    {kBenchStart, "starts a measurement on a worker thread; measure events stream while it runs"},
    {kBenchStop, "asks the running measurement to stop after the current iteration"},
    {kBenchWait, "answers when the running measurement has ended"},
    {kQuit, "stops a running measurement, releases everything and ends the engine"},
}};

/// The command named `name`, or nullptr.
const Command* find_command(std::string_view name);
/// Every command's name in kCommands' order, joined by ", " (what the engine's error for an unknown
/// command lists).
std::string command_names();

// ---- the `measure` events of a measurement (bench.start) ------------------------------------------------

inline constexpr std::string_view kBenchBegin = "bench.begin";       ///< a run (a kind at a size) begins
inline constexpr std::string_view kBenchSamples = "bench.samples";   ///< a latency run's new samples
inline constexpr std::string_view kBenchProgress = "bench.progress"; ///< a bandwidth run's progress
inline constexpr std::string_view kBenchResult = "bench.result";     ///< a run's figures
/// a traced run's pipeline since the last one (bench.start's trace_wr)
inline constexpr std::string_view kBenchPipeline = "bench.pipeline";
inline constexpr std::string_view kBenchDone = "bench.done"; ///< the measurement ended

} // namespace rdmalab::protocol
