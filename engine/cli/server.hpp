// The engine process's command handling (`rdmalab-cli serve --stdio`), as a library: one JSON command per
// line in, trace events and command results out through a TraceSink (docs/trace-format.md, "Engine process
// protocol"). rdmalab-cli serves stdin/stdout with it; tests/fuzz feeds it command lines without a process.
#pragma once

#include "rdmalab/engine/bench.hpp"
#include "rdmalab/format/trace.hpp"

#include <cstddef>
#include <functional>
#include <istream>
#include <memory>
#include <string>

namespace rdmalab::cli {

/// Bounds on what one command may ask for, so no input can exhaust the engine's memory or stack.
/// A command line: lab.start may carry a lab's text (at most 1 MiB) escaped as JSON; other commands are < 1
/// KiB.
constexpr std::size_t kMaxCommandLineBytes = 4 << 20;
constexpr int kMaxCommandNesting = 16;     ///< arrays/objects inside a command
constexpr std::size_t kMaxBenchSizes = 64; ///< entries of bench.start's "sizes"
constexpr std::size_t kMaxBenchKinds = 16; ///< entries of bench.start's "kinds"

/// Runs one measurement of a bench.start plan (run_bench; the fuzz target passes a quick stand-in).
using BenchRunner = std::function<BenchResult(const BenchOptions&)>;

/// Answers commands. Every event (the commands' trace events, their results, a measurement's `measure`
/// events from its worker threads) goes to `out`. Destroying the server stops a running measurement
/// and releases an operation's objects in teardown order, as `quit` does.
class Server {
  public:
    explicit Server(std::shared_ptr<TraceSink> out, BenchRunner runner = run_bench);
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    /// Handles one command line (without its newline); returns false on "quit".
    bool handle(const std::string& line, std::size_t line_number);
    /// Answers a line that is not a command at all (`invalid`).
    void invalid(std::size_t line_number, const std::string& why);
    /// Flushes the sink.
    void flush();

  private:
    class Impl;
    std::unique_ptr<Impl> impl_;
};

/// Reads command lines from `in` until end of input or `quit` and hands each to `server`. A line longer
/// than kMaxCommandLineBytes is read to its end without being kept and answered as `invalid`; empty
/// lines are skipped. End of input acts as `quit` once the caller destroys the server.
void serve_lines(std::istream& in, Server& server);

} // namespace rdmalab::cli
