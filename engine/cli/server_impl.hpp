// The engine process's command handling behind Server (server.hpp): the command table and one handler per
// command of the protocol (rdmalab/format/protocol.hpp). server.cpp dispatches and answers the session,
// operation and measurement commands; server_labs.cpp the lab and workbench commands. Internal.
#pragma once

#include "bench_job.hpp"
#include "command_line.hpp"
#include "server.hpp"

#include "rdmalab/engine/operation.hpp"
#include "rdmalab/format/trace.hpp"
#include "rdmalab/labrun/lab_run.hpp"
#include "rdmalab/labrun/workbench.hpp"

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace rdmalab::cli {

class Server::Impl {
  public:
    Impl(std::shared_ptr<TraceSink> out, BenchRunner runner);
    ~Impl();
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;

    void flush() { tracer_->flush(); }
    /// Answers a line that is not a command at all.
    void invalid(std::size_t line_number, const std::string& why);
    /// Handles one command line; returns false on "quit".
    bool handle(const std::string& line, std::size_t line_number);

  private:
    /// What a command needs to exist before it runs (the dispatcher refuses it otherwise, naming the
    /// command that makes it).
    enum class Needs { nothing, operation, lab, workbench };
    /// Whether a command runs while a measurement does. op.*, lab.* and work.* are refused: a lesson's
    /// calls would compete with the busy-polling loop and disturb both.
    enum class WhileMeasuring { runs, refused };

    /// One row of the command table: a command of the protocol and how the dispatcher treats it.
    struct Handler {
        std::string_view name; ///< protocol::kCommands' name, in its order
        void (Impl::*run)(const nlohmann::json& id, const CommandFields& fields);
        Needs needs = Needs::nothing;
        WhileMeasuring while_measuring = WhileMeasuring::runs;
        bool ends_session = false; ///< handle() returns false after it (quit)
    };

    /// Every command's row, in protocol::kCommands' order (server.cpp checks both at compile time).
    static std::span<const Handler> handlers();
    /// The command's row, or nullptr for a name the protocol does not have.
    static const Handler* find_handler(std::string_view name);
    /// Checks what the table says of `handler` and runs it; returns false when the session ends.
    bool dispatch(const Handler& handler, const nlohmann::json& id, const CommandFields& fields);
    /// Why a command that needs `needs` cannot run now, or empty.
    std::string missing(Needs needs) const;

    // ---- session, operation and measurement commands (server.cpp) -------------------------------------
    void hello(const nlohmann::json& id, const CommandFields& fields);
    void devices(const nlohmann::json& id, const CommandFields& fields);
    void start_operation(const nlohmann::json& id, const CommandFields& fields);
    void step_operation(const nlohmann::json& id, const CommandFields& fields);
    void run_operation(const nlohmann::json& id, const CommandFields& fields);
    void reset_operation(const nlohmann::json& id, const CommandFields& fields);
    void start_bench(const nlohmann::json& id, const CommandFields& fields);
    void stop_bench(const nlohmann::json& id, const CommandFields& fields);
    void wait_bench(const nlohmann::json& id, const CommandFields& fields);
    void quit(const nlohmann::json& id, const CommandFields& fields);
    /// op.step / op.run result data; a failed step also carries `error` (protocol: every failure has one).
    nlohmann::json progress(std::size_t index, bool ok) const;

    // ---- lab and workbench commands (server_labs.cpp) ---------------------------------------------------
    void start_lab(const nlohmann::json& id, const CommandFields& fields);
    void step_lab(const nlohmann::json& id, const CommandFields& fields);
    void run_lab(const nlohmann::json& id, const CommandFields& fields);
    void reset_lab(const nlohmann::json& id, const CommandFields& fields);
    void start_workbench(const nlohmann::json& id, const CommandFields& fields);
    void do_workbench(const nlohmann::json& id, const CommandFields& fields);
    void reset_workbench(const nlohmann::json& id, const CommandFields& fields);
    void save_workbench(const nlohmann::json& id, const CommandFields& fields);

    /// The `result` event that answers command `cmd` (the protocol: exactly one per command).
    void reply(const nlohmann::json& id, std::string_view cmd, bool ok, nlohmann::json data);

    std::shared_ptr<Tracer> tracer_;
    BenchRunner runner_;
    std::unique_ptr<LoopbackOperation> operation_;
    std::unique_ptr<labs::LabRun> lab_;
    std::unique_ptr<labs::Workbench> workbench_;
    std::unique_ptr<BenchJob> bench_;
};

} // namespace rdmalab::cli
