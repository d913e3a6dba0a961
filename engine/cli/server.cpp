// The engine process's command handling (server.hpp): one JSON command per line in; trace events and
// command results out (docs/trace-format.md, "Engine process protocol"). The command table and its
// dispatch, and the session, operation and measurement commands; the lab and workbench commands are in
// server_labs.cpp.
#include "server_impl.hpp"

#include "cli.hpp"

#include "rdmalab/engine/device.hpp"
#include "rdmalab/engine/errors.hpp"
#include "rdmalab/format/protocol.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <filesystem>
#include <limits>
#include <new>
#include <optional>
#include <system_error>
#include <utility>
#include <vector>

namespace rdmalab::cli {

// ---- the command table ----------------------------------------------------------------------------------

std::span<const Server::Impl::Handler> Server::Impl::handlers() {
    using enum Needs;
    using enum WhileMeasuring;
    static constexpr std::array<Handler, protocol::kCommands.size()> kTable{{
        {protocol::kHello, &Impl::hello},
        {protocol::kDevices, &Impl::devices},
        {protocol::kOpStart, &Impl::start_operation, nothing, refused},
        {protocol::kOpStep, &Impl::step_operation, operation, refused},
        {protocol::kOpRun, &Impl::run_operation, operation, refused},
        {protocol::kOpReset, &Impl::reset_operation, nothing, refused},
        {protocol::kLabStart, &Impl::start_lab, nothing, refused},
        {protocol::kLabStep, &Impl::step_lab, lab, refused},
        {protocol::kLabRun, &Impl::run_lab, lab, refused},
        {protocol::kLabReset, &Impl::reset_lab, nothing, refused},
        {protocol::kWorkStart, &Impl::start_workbench, nothing, refused},
        {protocol::kWorkDo, &Impl::do_workbench, workbench, refused},
        {protocol::kWorkReset, &Impl::reset_workbench, workbench, refused},
        {protocol::kWorkSave, &Impl::save_workbench, workbench, refused},
        {protocol::kBenchStart, &Impl::start_bench},
        {protocol::kBenchStop, &Impl::stop_bench},
        {protocol::kBenchWait, &Impl::wait_bench},
        {.name = protocol::kQuit, .run = &Impl::quit, .ends_session = true},
    }};
    // One row per command of the protocol, in its order: a command added there has no handler until it
    // has a row here.
    static_assert(
        [] {
            for (std::size_t i = 0; i < kTable.size(); ++i)
                if (kTable[i].name != protocol::kCommands[i].name) return false;
            return true;
        }(),
        "the command table must list protocol::kCommands, in their order");
    return kTable;
}

const Server::Impl::Handler* Server::Impl::find_handler(std::string_view name) {
    for (const auto& handler : handlers())
        if (handler.name == name) return &handler;
    return nullptr;
}

std::string Server::Impl::missing(Needs needs) const {
    switch (needs) {
    case Needs::operation:
        return operation_ ? "" : fmt::format("no operation: send {} first", protocol::kOpStart);
    case Needs::lab:
        return lab_ ? "" : fmt::format("no lab: send {} first", protocol::kLabStart);
    case Needs::workbench:
        return workbench_ ? "" : fmt::format("no workbench: send {} first", protocol::kWorkStart);
    case Needs::nothing:
        break;
    }
    return {};
}

bool Server::Impl::dispatch(const Handler& handler, const nlohmann::json& id, const CommandFields& fields) {
    if (handler.while_measuring == WhileMeasuring::refused && bench_ && bench_->running()) {
        reply(id, handler.name, false,
              {{"error", fmt::format("a measurement is running; send {} (or wait for {}) first",
                                     protocol::kBenchStop, protocol::kBenchDone)}});
        return true;
    }
    if (const std::string why = missing(handler.needs); !why.empty()) {
        reply(id, handler.name, false, {{"error", why}});
        return true;
    }
    (this->*handler.run)(id, fields);
    return !handler.ends_session;
}

// ---- one command line -------------------------------------------------------------------------------------

Server::Impl::Impl(std::shared_ptr<TraceSink> out, BenchRunner runner)
    : tracer_(std::make_shared<Tracer>()), runner_(std::move(runner)) {
    tracer_->add_sink(std::move(out));
}

Server::Impl::~Impl() {
    bench_.reset(); // stops and joins a running measurement first
    operation_.reset();
    lab_.reset();
    workbench_.reset();
    tracer_->flush();
}

void Server::Impl::invalid(std::size_t line_number, const std::string& why) {
    reply(nullptr, protocol::kInvalid, false, {{"error", fmt::format("line {}: {}", line_number, why)}});
}

bool Server::Impl::handle(const std::string& line, std::size_t line_number) {
    if (json_nesting_depth(line) > kMaxCommandNesting) {
        invalid(line_number, fmt::format("nested deeper than {} levels", kMaxCommandNesting));
        return true;
    }
    nlohmann::json command;
    if (const std::string why = read_object(line, command); !why.empty()) {
        invalid(line_number, "not a JSON object: " + why);
        return true;
    }
    const CommandFields fields(command);
    nlohmann::json id;
    if (fields.has("id")) {
        id = fields.raw("id");
        if (!id.is_string() && !id.is_number() && !id.is_null()) {
            invalid(line_number, fmt::format("field 'id' must be a string or a number (got {})",
                                             CommandFields::brief(id)));
            return true;
        }
    }
    if (!fields.has("cmd") || !fields.raw("cmd").is_string()) {
        reply(
            id, protocol::kInvalid, false,
            {{"error", fmt::format("line {}: field 'cmd' must be a string naming a command ({})", line_number,
                                   fields.has("cmd") ? "got " + CommandFields::brief(fields.raw("cmd"))
                                                     : "it is missing")}});
        return true;
    }
    const std::string cmd = fields.raw("cmd").get<std::string>();
    try {
        if (const Handler* handler = find_handler(cmd)) return dispatch(*handler, id, fields);
        reply(id, cmd.empty() ? protocol::kInvalid : std::string_view(cmd), false,
              {{"error", fmt::format("unknown command '{}'; known: {}", cmd, protocol::command_names())}});
    } catch (const RdmaError& e) {
        reply(id, cmd, false, {{"error", e.info().to_string()}, {"error_info", e.info().to_json()}});
    } catch (const CommandFieldError& e) {
        reply(id, cmd, false, {{"error", fmt::format("line {}: {}", line_number, e.what())}});
    } catch (const std::bad_alloc&) {
        reply(id, cmd, false,
              {{"error", "the engine ran out of memory for this command; nothing was started. Ask for "
                         "smaller sizes or fewer runs"}});
    } catch (const std::exception& e) {
        reply(id, cmd, false, {{"error", e.what()}});
    }
    return true;
}

void Server::Impl::reply(const nlohmann::json& id, std::string_view cmd, bool ok, nlohmann::json data) {
    TraceEvent e;
    e.kind = EventKind::Result;
    e.name = std::string(cmd);
    if (!id.is_null()) e.ids = {{"id", id}};
    data["ok"] = ok;
    e.data = std::move(data);
    tracer_->record(std::move(e));
}

// ---- the session's own commands ---------------------------------------------------------------------------

/// Names the engine, its trace format and its protocol; refuses an app that speaks another protocol
/// (its optional `protocol` field), naming both numbers.
void Server::Impl::hello(const nlohmann::json& id, const CommandFields& fields) {
    const long long theirs = fields.integer("protocol", 0, std::numeric_limits<int>::max(), kProtocolVersion);
    nlohmann::json data = {{"tool", "rdmalab-cli"},
                           {"version", RDMALAB_VERSION},
                           {"format", kTraceFormatVersion},
                           {"protocol", kProtocolVersion}};
    if (theirs == kProtocolVersion) return reply(id, protocol::kHello, true, std::move(data));
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    const std::string where = ec || self.empty() ? std::string() : " at " + self.string();
    data["error"] = fmt::format("the app speaks engine protocol {}, this engine (rdmalab-cli {}{}) speaks "
                                "{}: install the same rdmalab version on both sides",
                                theirs, RDMALAB_VERSION, where, kProtocolVersion);
    reply(id, protocol::kHello, false, std::move(data));
}

void Server::Impl::devices(const nlohmann::json& id, const CommandFields&) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& d : list_devices())
        list.push_back(to_json(d));
    nlohmann::json data = {{"devices", list}};
    if (list.empty()) data["no_device"] = explain_no_device().to_json();
    reply(id, protocol::kDevices, true, data);
}

void Server::Impl::quit(const nlohmann::json& id, const CommandFields&) {
    bench_.reset(); // stops and joins a running measurement
    operation_.reset();
    lab_.reset();
    workbench_.reset();
    reply(id, protocol::kQuit, true, {});
}

// ---- a lesson's loopback operation (op.*) -----------------------------------------------------------------

void Server::Impl::start_operation(const nlohmann::json& id, const CommandFields& f) {
    OperationOptions options;
    const auto op = op_kind_from_string(f.string("op", ""));
    if (!op) {
        reply(id, protocol::kOpStart, false,
              {{"error", fmt::format("field 'op' must be one of {}", fmt::join(op_kind_names(), ", "))}});
        return;
    }
    options.op = *op;
    if (f.has("size")) {
        if (!f.raw("size").is_number_unsigned() || f.raw("size").get<std::uint64_t>() == 0) {
            reply(id, protocol::kOpStart, false,
                  {{"error", fmt::format("field 'size' must be a positive integer (got {})",
                                         CommandFields::brief(f.raw("size")))}});
            return;
        }
        options.size = f.raw("size").get<std::size_t>();
    } else if (*op == OpKind::CompareSwap || *op == OpKind::FetchAdd) {
        options.size = 8;
    }
    options.message = f.string("message", options.message);
    options.device = f.string("device", options.device);
    options.inline_data = f.boolean("inline", false);
    const auto fault = fault_kind_from_string(f.string("fault", "none"));
    if (!fault) {
        reply(
            id, protocol::kOpStart, false,
            {{"error", fmt::format("field 'fault' must be one of {}", fmt::join(fault_kind_names(), ", "))}});
        return;
    }
    options.fault = *fault;
    if (const auto problem = validate(options); !problem.empty()) {
        reply(id, protocol::kOpStart, false, {{"error", problem}});
        return;
    }
    operation_.reset();
    tracer_->record(session_event(options.device, fmt::format("serve op {}", to_string(options.op))));
    operation_ = std::make_unique<LoopbackOperation>(options, tracer_);
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& s : operation_->steps())
        steps.push_back({{"id", s.id}, {"title", s.title}, {"ep", std::string(1, char(s.endpoint))}});
    reply(id, protocol::kOpStart, true, {{"steps", steps}});
}

void Server::Impl::step_operation(const nlohmann::json& id, const CommandFields&) {
    const std::size_t index = operation_->next_step();
    const bool ok = operation_->run_next();
    reply(id, protocol::kOpStep, ok, progress(index, ok));
}

void Server::Impl::run_operation(const nlohmann::json& id, const CommandFields&) {
    operation_->run_all();
    const bool ok = operation_->outcome().success;
    reply(id, protocol::kOpRun, ok, progress(operation_->next_step(), ok));
}

void Server::Impl::reset_operation(const nlohmann::json& id, const CommandFields&) {
    operation_.reset(); // destructor tears down in the canonical order, traced
    reply(id, protocol::kOpReset, true, {});
}

nlohmann::json Server::Impl::progress(std::size_t index, bool ok) const {
    nlohmann::json data = {{"step_index", index},
                           {"next_step", operation_->next_step()},
                           {"done", operation_->done()},
                           {"outcome", outcome_json(*operation_)}};
    if (!ok) {
        const auto& outcome = operation_->outcome();
        data["error"] = outcome.error ? outcome.error->to_string() : outcome.summary;
        if (outcome.error) data["error_info"] = outcome.error->to_json();
    }
    return data;
}

// ---- measurements (bench.*) ---------------------------------------------------------------------------

/// bench.start: {"kind"|"kinds", "size"|"sizes"|"sweep", "iters", "seconds", "warmup", "window",
/// "device", "max_size", "cpus", "trace_wr"}; runs every kind at every size, kinds outermost.
void Server::Impl::start_bench(const nlohmann::json& id, const CommandFields& f) {
    auto fail = [&](const std::string& message) {
        reply(id, protocol::kBenchStart, false, {{"error", message}});
    };
    if (bench_ && bench_->running())
        return fail(fmt::format("a measurement is already running; send {} first", protocol::kBenchStop));
    std::vector<BenchKind> kinds;
    const nlohmann::json kind_list =
        f.has("kinds") ? f.raw("kinds") : nlohmann::json::array({f.string("kind", "")});
    if (!kind_list.is_array() || kind_list.empty() || kind_list.size() > kMaxBenchKinds)
        return fail(fmt::format("field 'kinds' must be an array of 1 .. {} kinds", kMaxBenchKinds));
    for (const auto& k : kind_list) {
        const auto kind = k.is_string() ? bench_kind_from_string(k.get<std::string>()) : std::nullopt;
        if (!kind)
            return fail(fmt::format("field 'kind' must be one of {} (got {})",
                                    fmt::join(bench_kind_names(), ", "), CommandFields::brief(k)));
        kinds.push_back(*kind);
    }
    const long long iters = f.integer("iters", 1, 100000000, 1000);
    const long long warmup = f.integer("warmup", 0, 1000000, 100);
    const long long window = f.integer("window", 1, 1024, 64);
    const long long max_size = f.integer("max_size", 1, 1LL << 30, 8LL << 20);
    double seconds = 0;
    if (f.has("seconds")) {
        const auto& v = f.raw("seconds");
        if (!v.is_number() || !(v.get<double>() > 0) || v.get<double>() > 3600)
            return fail(fmt::format("field 'seconds' must be a number in (0, 3600] (got {})",
                                    CommandFields::brief(v)));
        seconds = v.get<double>();
    }
    std::optional<int> cpu_a, cpu_b;
    if (f.has("cpus")) {
        const auto& cpus = f.raw("cpus");
        if (!cpus.is_array() || cpus.empty() || cpus.size() > 2)
            return fail("field 'cpus' must be [A] or [A, B] with CPU numbers 0 .. 4095");
        cpu_a = int(CommandFields::integer_value("cpus", cpus[0], 0, 4095));
        if (cpus.size() == 2) cpu_b = int(CommandFields::integer_value("cpus", cpus[1], 0, 4095));
    }
    std::vector<std::size_t> sizes;
    const bool sweep = f.boolean("sweep", false);
    if (sweep) {
        for (auto s : sweep_sizes())
            if (static_cast<long long>(s) <= max_size) sizes.push_back(s);
    } else if (f.has("sizes")) {
        const auto& list = f.raw("sizes");
        if (!list.is_array() || list.empty() || list.size() > kMaxBenchSizes)
            return fail(fmt::format("field 'sizes' must be an array of 1 .. {} sizes", kMaxBenchSizes));
        for (const auto& v : list)
            sizes.push_back(std::size_t(CommandFields::integer_value("sizes", v, 1, 1LL << 30)));
    } else {
        sizes.push_back(std::size_t(f.integer("size", 1, 1LL << 30, 2)));
    }
    const std::string device = f.string("device", "");
    const bool trace_wr = f.boolean("trace_wr", false);
    std::vector<BenchOptions> runs;
    for (auto kind : kinds) {
        for (auto size : sizes) {
            BenchOptions o;
            o.kind = kind;
            o.size = kind == BenchKind::AtomicLat ? 8 : size;
            o.iterations = sweep && seconds <= 0 ? sweep_iterations(int(iters), size) : int(iters);
            o.seconds = seconds;
            o.warmup = int(warmup);
            o.window = int(window);
            o.device = device;
            o.cpu_a = cpu_a;
            o.cpu_b = cpu_b;
            o.keep_samples = false; // samples travel in bench.samples events
            runs.push_back(o);
            if (kind == BenchKind::AtomicLat) break; // atomics are 8 bytes, whatever the sweep
        }
    }
    bench_.reset();
    tracer_->record(session_event(device, "serve bench"));
    nlohmann::json plan = nlohmann::json::array();
    for (const auto& r : runs)
        plan.push_back({{"kind", to_string(r.kind)}, {"size", r.size}, {"iters", r.iterations}});
    reply(id, protocol::kBenchStart, true, {{"runs", plan}});
    bench_ = std::make_unique<BenchJob>(tracer_, id, std::move(runs), runner_, trace_wr);
}

void Server::Impl::stop_bench(const nlohmann::json& id, const CommandFields&) {
    const bool running = bench_ && bench_->running();
    if (bench_) bench_->stop();
    reply(id, protocol::kBenchStop, true, {{"was_running", running}});
}

void Server::Impl::wait_bench(const nlohmann::json& id, const CommandFields&) {
    if (bench_) bench_->wait();
    reply(id, protocol::kBenchWait, true, {});
}

// ---- Server ---------------------------------------------------------------------------------------------

Server::Server(std::shared_ptr<TraceSink> out, BenchRunner runner)
    : impl_(std::make_unique<Impl>(std::move(out), std::move(runner))) {}
Server::~Server() = default;
bool Server::handle(const std::string& line, std::size_t line_number) {
    return impl_->handle(line, line_number);
}
void Server::invalid(std::size_t line_number, const std::string& why) {
    impl_->invalid(line_number, why);
}
void Server::flush() {
    impl_->flush();
}

void serve_lines(std::istream& in, Server& server) {
    std::string line;
    std::size_t line_number = 0;
    bool too_long = false;
    while (read_line(in, line, kMaxCommandLineBytes, too_long)) {
        ++line_number;
        if (too_long) {
            server.invalid(line_number, fmt::format("longer than {} bytes; ignored", kMaxCommandLineBytes));
            continue;
        }
        if (line.empty()) continue;
        if (!server.handle(line, line_number)) break;
    }
}

} // namespace rdmalab::cli
