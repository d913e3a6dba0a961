// `rdmalab-cli serve --stdio`: the engine as a process. One JSON command per line on stdin; trace events
// and command results as JSON Lines on stdout (docs/trace-format.md, "Engine process protocol").
#include "cli.hpp"

#include "rdmalab/bench.hpp"
#include "rdmalab/device.hpp"
#include "rdmalab/errors.hpp"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace rdmalab::cli {

namespace {

/// A measurement running on its own thread while the server keeps reading commands (bench.stop).
/// A reporter thread drains the live feed every kReportIntervalMs and emits "measure" events, so
/// front ends get batched figures at a steady rate whatever the message rate.
class BenchJob {
  public:
    static constexpr int kReportIntervalMs = 40;

    BenchJob(std::shared_ptr<Tracer> tracer, nlohmann::json id, std::vector<BenchOptions> runs)
        : tracer_(std::move(tracer)), id_(std::move(id)), runs_(std::move(runs)) {
        worker_ = std::thread([this] { work(); });
        reporter_ = std::thread([this] { report(); });
    }
    ~BenchJob() {
        stop();
        if (worker_.joinable()) worker_.join();
        {
            std::lock_guard lock(wake_mutex_);
            finished_ = true;
        }
        wake_.notify_all();
        if (reporter_.joinable()) reporter_.join();
    }
    BenchJob(const BenchJob&) = delete;
    BenchJob& operator=(const BenchJob&) = delete;

    void stop() { feed_.request_stop(); }
    /// Blocks until the measurement ends (bench.wait, for scripts).
    void wait() {
        if (worker_.joinable()) worker_.join();
    }
    bool running() const { return !done_.load(); }

  private:
    void work() {
        nlohmann::json done = {{"ok", true}, {"runs", runs_.size()}};
        std::size_t completed = 0;
        try {
            for (std::size_t i = 0; i < runs_.size() && !feed_.stop_requested(); ++i) {
                {
                    std::lock_guard lock(run_mutex_);
                    current_ = i;
                    sent_ = 0;
                    feed_.reset();
                }
                BenchOptions o = runs_[i];
                o.feed = &feed_;
                emit("bench.begin", {{"index", i},
                                     {"total", runs_.size()},
                                     {"kind", to_string(o.kind)},
                                     {"size", o.size},
                                     {"iters", o.iterations}});
                BenchResult result = run_bench(o);
                std::lock_guard lock(run_mutex_);
                drain(); // the last samples before the result
                nlohmann::json j = to_json(result, false);
                j["index"] = i;
                emit("bench.result", std::move(j));
                ++completed;
            }
        } catch (const RdmaError& e) {
            done = {{"ok", false}, {"error", e.info().to_string()}, {"error_info", e.info().to_json()}};
        } catch (const std::exception& e) {
            done = {{"ok", false}, {"error", e.what()}};
        }
        done["completed"] = completed;
        done["stopped"] = feed_.stop_requested();
        done_ = true;
        emit("bench.done", std::move(done));
        tracer_->flush();
    }

    void report() {
        std::unique_lock wake(wake_mutex_);
        while (!finished_) {
            wake_.wait_for(wake, std::chrono::milliseconds(kReportIntervalMs));
            std::lock_guard lock(run_mutex_);
            if (!done_) drain();
        }
    }

    /// Emits what the feed published since the last drain (caller holds run_mutex_).
    void drain() {
        BenchFeed::Snapshot s = feed_.take();
        const BenchOptions& o = runs_[current_];
        if (!s.new_samples_us.empty()) {
            for (double& v : s.new_samples_us) // nanosecond resolution keeps the JSON short
                v = std::round(v * 1000.0) / 1000.0;
            const std::size_t first = sent_;
            sent_ += s.new_samples_us.size();
            emit("bench.samples", {{"index", current_},
                                   {"kind", to_string(o.kind)},
                                   {"size", o.size},
                                   {"first", first},
                                   {"samples_us", std::move(s.new_samples_us)}});
        } else if (!is_latency(o.kind) && s.messages > 0 && s.messages != last_messages_) {
            emit("bench.progress", {{"index", current_},
                                    {"kind", to_string(o.kind)},
                                    {"size", o.size},
                                    {"messages", s.messages},
                                    {"bytes", static_cast<double>(s.messages) * static_cast<double>(o.size)},
                                    {"elapsed_s", s.elapsed_s}});
        }
        last_messages_ = s.messages;
    }

    void emit(std::string name, nlohmann::json data) {
        TraceEvent e;
        e.kind = EventKind::Measure;
        e.name = std::move(name);
        if (!id_.is_null()) e.ids = {{"id", id_}};
        e.data = std::move(data);
        tracer_->record(std::move(e));
    }

    std::shared_ptr<Tracer> tracer_;
    nlohmann::json id_;
    std::vector<BenchOptions> runs_; ///< a kind at a size each, in order
    BenchFeed feed_;
    std::mutex run_mutex_;
    std::size_t current_ = 0;
    std::size_t sent_ = 0;
    long last_messages_ = 0;
    std::atomic<bool> done_{false};
    std::mutex wake_mutex_;
    std::condition_variable wake_;
    bool finished_ = false;
    std::thread worker_, reporter_;
};

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
            } else if (cmd == "bench.start") {
                start_bench(id, command);
            } else if (cmd == "bench.stop") {
                const bool running = bench_ && bench_->running();
                if (bench_) bench_->stop();
                reply(id, cmd, true, {{"was_running", running}});
            } else if (cmd == "bench.wait") {
                if (bench_) bench_->wait();
                reply(id, cmd, true, {});
            } else if (bench_ && bench_->running() && cmd.rfind("op.", 0) == 0) {
                reply(
                    id, cmd, false,
                    {{"error", "a measurement is running; send bench.stop (or wait for bench.done) first"}});
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
                bench_.reset(); // stops and joins a running measurement
                operation_.reset();
                reply(id, cmd, true, {});
                return false;
            } else {
                reply(
                    id, cmd.empty() ? "invalid" : cmd, false,
                    {{"error", fmt::format("unknown command '{}'; known: hello, devices, op.start, op.step, "
                                           "op.run, op.reset, bench.start, bench.stop, bench.wait, quit",
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

    /// bench.start: {"kind"|"kinds", "size"|"sizes"|"sweep", "iters", "seconds", "warmup", "window",
    /// "device", "max_size", "cpus"}; runs every kind at every size, kinds outermost.
    void start_bench(const nlohmann::json& id, const nlohmann::json& c) {
        auto fail = [&](const std::string& message) {
            reply(id, "bench.start", false, {{"error", message}});
        };
        if (bench_ && bench_->running())
            return fail("a measurement is already running; send bench.stop first");
        std::vector<BenchKind> kinds;
        nlohmann::json kind_list =
            c.contains("kinds") ? c["kinds"] : nlohmann::json::array({c.value("kind", "")});
        if (!kind_list.is_array() || kind_list.empty())
            return fail("field 'kinds' must be a non-empty array");
        for (const auto& k : kind_list) {
            const auto kind = k.is_string() ? bench_kind_from_string(k.get<std::string>()) : std::nullopt;
            if (!kind)
                return fail(
                    fmt::format("field 'kind' must be one of send_lat, write_lat, read_lat, atomic_lat, "
                                "tcp_lat, write_bw, read_bw, send_bw, tcp_bw (got {})",
                                k.dump()));
            kinds.push_back(*kind);
        }
        auto positive = [&](const char* field, long long lo, long long hi, long long fallback,
                            long long& out) -> bool {
            if (!c.contains(field)) {
                out = fallback;
                return true;
            }
            if (!c[field].is_number_integer() || c[field].get<long long>() < lo ||
                c[field].get<long long>() > hi) {
                fail(fmt::format("field '{}' must be an integer in {} .. {}", field, lo, hi));
                return false;
            }
            out = c[field].get<long long>();
            return true;
        };
        long long iters = 0, warmup = 0, window = 0, max_size = 0;
        if (!positive("iters", 1, 100000000, 1000, iters) || !positive("warmup", 0, 1000000, 100, warmup) ||
            !positive("window", 1, 1024, 64, window) ||
            !positive("max_size", 1, 1LL << 30, 8LL << 20, max_size))
            return;
        double seconds = 0;
        if (c.contains("seconds")) {
            if (!c["seconds"].is_number() || c["seconds"].get<double>() <= 0 ||
                c["seconds"].get<double>() > 3600)
                return fail("field 'seconds' must be a number in (0, 3600]");
            seconds = c["seconds"].get<double>();
        }
        std::optional<int> cpu_a, cpu_b;
        if (c.contains("cpus")) {
            const auto& cpus = c["cpus"];
            const bool shape = cpus.is_array() && !cpus.empty() && cpus.size() <= 2;
            for (std::size_t k = 0; shape && k < cpus.size(); ++k)
                if (!cpus[k].is_number_unsigned() || cpus[k].get<unsigned>() > 4095)
                    return fail("field 'cpus' must be [A] or [A, B] with CPU numbers 0 .. 4095");
            if (!shape) return fail("field 'cpus' must be [A] or [A, B] with CPU numbers 0 .. 4095");
            cpu_a = cpus[0].get<int>();
            if (cpus.size() == 2) cpu_b = cpus[1].get<int>();
        }
        std::vector<std::size_t> sizes;
        const bool sweep = c.value("sweep", false);
        if (sweep) {
            for (auto s : sweep_sizes())
                if (static_cast<long long>(s) <= max_size) sizes.push_back(s);
        } else if (c.contains("sizes")) {
            if (!c["sizes"].is_array() || c["sizes"].empty())
                return fail("field 'sizes' must be a non-empty array");
            for (const auto& s : c["sizes"]) {
                if (!s.is_number_unsigned() || s.get<std::size_t>() == 0 ||
                    s.get<std::size_t>() > (1ULL << 30))
                    return fail("field 'sizes' must hold integers in 1 .. 1073741824");
                sizes.push_back(s.get<std::size_t>());
            }
        } else {
            long long size = 0;
            if (!positive("size", 1, 1LL << 30, 2, size)) return;
            sizes.push_back(static_cast<std::size_t>(size));
        }
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
                o.device = c.value("device", "");
                o.cpu_a = cpu_a;
                o.cpu_b = cpu_b;
                o.keep_samples = false; // samples travel in bench.samples events
                runs.push_back(o);
                if (kind == BenchKind::AtomicLat) break; // atomics are 8 bytes, whatever the sweep
            }
        }
        bench_.reset();
        tracer_->record(session_event(c.value("device", ""), "serve bench"));
        nlohmann::json plan = nlohmann::json::array();
        for (const auto& r : runs)
            plan.push_back({{"kind", to_string(r.kind)}, {"size", r.size}, {"iters", r.iterations}});
        reply(id, "bench.start", true, {{"runs", plan}});
        bench_ = std::make_unique<BenchJob>(tracer_, id, std::move(runs));
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
    std::unique_ptr<BenchJob> bench_;
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
