// `rdmalab-cli serve --stdio`: the engine as a process. One JSON command per line on stdin; trace events
// and command results as JSON Lines on stdout (docs/trace-format.md, "Engine process protocol").
#include "cli.hpp"

#include "rdmalab/device.hpp"
#include "rdmalab/errors.hpp"

#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <string>

namespace rdmalab::cli {

namespace {

class Server {
  public:
    Server() : tracer_(std::make_shared<Tracer>()) {
        tracer_->add_sink(std::make_shared<JsonLinesSink>(stdout, true));
    }

    /// Handles one command line; returns false on "quit".
    bool handle(const std::string& line, std::size_t line_number) {
        nlohmann::json command = nlohmann::json::parse(line, nullptr, false);
        if (command.is_discarded() || !command.is_object()) {
            reply(nullptr, "invalid", false,
                  {{"error", fmt::format("line {}: not a JSON object", line_number)}});
            return true;
        }
        const nlohmann::json id = command.value("id", nlohmann::json());
        const std::string cmd = command.value("cmd", "");
        try {
            if (cmd == "hello") {
                reply(
                    id, cmd, true,
                    {{"tool", "rdmalab-cli"}, {"version", RDMALAB_VERSION}, {"format", kTraceFormatVersion}});
            } else if (cmd == "devices") {
                nlohmann::json list = nlohmann::json::array();
                for (const auto& d : list_devices())
                    list.push_back(to_json(d));
                nlohmann::json data = {{"devices", list}};
                if (list.empty()) data["no_device"] = explain_no_device().to_json();
                reply(id, cmd, true, data);
            } else if (cmd == "op.start") {
                start(id, command);
            } else if (cmd == "op.step") {
                if (!require_operation(id, cmd)) return true;
                const std::size_t index = operation_->next_step();
                const bool ok = operation_->run_next();
                reply(id, cmd, ok, progress(index));
            } else if (cmd == "op.run") {
                if (!require_operation(id, cmd)) return true;
                operation_->run_all();
                reply(id, cmd, operation_->outcome().success, progress(operation_->next_step()));
            } else if (cmd == "op.reset") {
                operation_.reset(); // destructor tears down in the canonical order, traced
                reply(id, cmd, true, {});
            } else if (cmd == "quit") {
                operation_.reset();
                reply(id, cmd, true, {});
                return false;
            } else {
                reply(
                    id, cmd.empty() ? "invalid" : cmd, false,
                    {{"error", fmt::format("unknown command '{}'; known: hello, devices, op.start, op.step, "
                                           "op.run, op.reset, quit",
                                           cmd)}});
            }
        } catch (const RdmaError& e) {
            reply(id, cmd, false, {{"error", e.info().to_string()}, {"error_info", e.info().to_json()}});
        } catch (const std::exception& e) {
            reply(id, cmd, false, {{"error", e.what()}});
        }
        return true;
    }

  private:
    void start(const nlohmann::json& id, const nlohmann::json& command) {
        OperationOptions options;
        const auto op = op_kind_from_string(command.value("op", ""));
        if (!op) {
            reply(id, "op.start", false,
                  {{"error", "field 'op' must be one of send, send_imm, write, write_imm, read, cas, faa"}});
            return;
        }
        options.op = *op;
        if (command.contains("size")) {
            if (!command["size"].is_number_unsigned()) {
                reply(id, "op.start", false, {{"error", "field 'size' must be a positive integer"}});
                return;
            }
            options.size = command["size"].get<std::size_t>();
        } else if (*op == OpKind::CompareSwap || *op == OpKind::FetchAdd) {
            options.size = 8;
        }
        options.message = command.value("message", options.message);
        options.device = command.value("device", options.device);
        options.inline_data = command.value("inline", false);
        const auto fault = fault_kind_from_string(command.value("fault", "none"));
        if (!fault) {
            reply(id, "op.start", false,
                  {{"error", "field 'fault' must be one of none, bad-rkey, no-remote-access, out-of-bounds, "
                             "no-recv"}});
            return;
        }
        options.fault = *fault;
        if (const auto problem = validate(options); !problem.empty()) {
            reply(id, "op.start", false, {{"error", problem}});
            return;
        }
        operation_.reset();
        tracer_->record(session_event(options.device, fmt::format("serve op {}", to_string(options.op))));
        operation_ = std::make_unique<LoopbackOperation>(options, tracer_);
        nlohmann::json steps = nlohmann::json::array();
        for (const auto& s : operation_->steps())
            steps.push_back({{"id", s.id}, {"title", s.title}, {"ep", std::string(1, char(s.endpoint))}});
        reply(id, "op.start", true, {{"steps", steps}});
    }

    bool require_operation(const nlohmann::json& id, const std::string& cmd) {
        if (operation_) return true;
        reply(id, cmd, false, {{"error", "no operation: send op.start first"}});
        return false;
    }

    nlohmann::json progress(std::size_t index) const {
        return {{"step_index", index},
                {"next_step", operation_->next_step()},
                {"done", operation_->done()},
                {"outcome", outcome_json(*operation_)}};
    }

    void reply(const nlohmann::json& id, const std::string& cmd, bool ok, nlohmann::json data) {
        TraceEvent e;
        e.kind = EventKind::Result;
        e.name = cmd;
        if (!id.is_null()) e.ids = {{"id", id}};
        data["ok"] = ok;
        e.data = std::move(data);
        tracer_->record(std::move(e));
    }

    std::shared_ptr<Tracer> tracer_;
    std::unique_ptr<LoopbackOperation> operation_;
};

} // namespace

int serve_stdio() {
    Server server;
    std::string line;
    std::size_t line_number = 0;
    while (std::getline(std::cin, line)) {
        ++line_number;
        if (line.empty()) continue;
        if (!server.handle(line, line_number)) break;
    }
    return 0;
}

} // namespace rdmalab::cli
