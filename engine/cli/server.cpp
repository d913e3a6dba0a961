// The engine process's command handling (server.hpp): one JSON command per line in; trace events and
// command results out (docs/trace-format.md, "Engine process protocol").
#include "server.hpp"

#include "cli.hpp"

#include "rdmalab/engine/bench.hpp"
#include "rdmalab/engine/device.hpp"
#include "rdmalab/engine/errors.hpp"
#include "rdmalab/labrun/lab_run.hpp"
#include "rdmalab/labrun/workbench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>

namespace rdmalab::cli {

namespace {

/// A command field of the wrong type or out of range; the reply names the field.
class CommandFieldError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

const char* json_type(const nlohmann::json& v) {
    return v.is_number_integer() ? "integer" : v.type_name();
}

/// Typed, checked access to the fields of one command: a wrong type is a CommandFieldError naming the
/// field, never a library exception. (rdmalab/format/fields.hpp does the same for trace events, whose readers
/// need type checks only; commands also need ranges, and their errors use the protocol's wording.)
class CommandFields {
  public:
    explicit CommandFields(const nlohmann::json& command) : c_(command) {}

    bool has(const char* field) const { return c_.contains(field); }
    const nlohmann::json& raw(const char* field) const { return c_.at(field); }

    std::string string(const char* field, std::string fallback) const {
        if (!has(field)) return fallback;
        const auto& v = c_.at(field);
        if (!v.is_string()) throw mismatch(field, "a string", v);
        return v.get<std::string>();
    }
    bool boolean(const char* field, bool fallback) const {
        if (!has(field)) return fallback;
        const auto& v = c_.at(field);
        if (!v.is_boolean()) throw mismatch(field, "true or false", v);
        return v.get<bool>();
    }
    /// An integer in [lo, hi], or fallback when the field is absent.
    long long integer(const char* field, long long lo, long long hi, long long fallback) const {
        if (!has(field)) return fallback;
        return integer_value(field, c_.at(field), lo, hi);
    }
    static long long integer_value(const std::string& field, const nlohmann::json& v, long long lo,
                                   long long hi) {
        const bool integral =
            v.is_number_unsigned() ? v.get<std::uint64_t>() <= std::uint64_t(hi) : v.is_number_integer();
        if (!integral || v.get<long long>() < lo || v.get<long long>() > hi)
            throw CommandFieldError(
                fmt::format("field '{}' must be an integer in {} .. {} (got {})", field, lo, hi, brief(v)));
        return v.get<long long>();
    }

    static CommandFieldError mismatch(const std::string& field, const char* expected,
                                      const nlohmann::json& v) {
        return CommandFieldError(fmt::format("field '{}' must be {} (got {})", field, expected, brief(v)));
    }
    /// A short rendering of a value for error messages (a long string or array is cut).
    static std::string brief(const nlohmann::json& v) {
        if (v.is_array() || v.is_object()) return fmt::format("{} of {} entries", json_type(v), v.size());
        std::string text = v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        if (text.size() > 40) text = text.substr(0, 37) + "...";
        return fmt::format("{} {}", json_type(v), text);
    }

  private:
    const nlohmann::json& c_;
};

/// Offset (0-based) of the first byte that is not part of well-formed UTF-8 (a stray continuation byte, a
/// truncated sequence, an overlong form, a surrogate, beyond U+10FFFF), or npos.
std::size_t invalid_utf8_at(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto lead = static_cast<unsigned char>(s[i]);
        const std::size_t n = lead < 0x80             ? 1
                              : (lead & 0xE0) == 0xC0 ? 2
                              : (lead & 0xF0) == 0xE0 ? 3
                              : (lead & 0xF8) == 0xF0 ? 4
                                                      : 0;
        if (n == 0 || i + n > s.size()) return i;
        std::uint32_t cp = n == 1 ? lead : n == 2 ? lead & 0x1Fu : n == 3 ? lead & 0x0Fu : lead & 0x07u;
        for (std::size_t k = 1; k < n; ++k) {
            const auto next = static_cast<unsigned char>(s[i + k]);
            if ((next & 0xC0) != 0x80) return i;
            cp = (cp << 6) | (next & 0x3Fu);
        }
        const bool overlong = (n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
        if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
        i += n;
    }
    return std::string_view::npos;
}

/// Parses a command line into `object`; returns why it is not a JSON object (empty when it is), naming
/// the byte at fault (1-based) so a sender can find it.
std::string read_object(const std::string& line, nlohmann::json& object) {
    if (const auto nul = line.find('\0'); nul != std::string::npos)
        return fmt::format("a NUL byte at byte {}", nul + 1);
    if (const auto bad = invalid_utf8_at(line); bad != std::string_view::npos)
        return fmt::format("invalid UTF-8 at byte {}", bad + 1);
    try {
        object = nlohmann::json::parse(line);
    } catch (const nlohmann::json::parse_error& e) {
        return fmt::format("not valid JSON at byte {}", e.byte);
    } catch (const nlohmann::json::exception& e) {
        // A number beyond a double's range (1e400) is out_of_range, not a parse_error.
        return fmt::format("not valid JSON: {}", e.what());
    }
    if (!object.is_object()) return fmt::format("a JSON {}, not an object", object.type_name());
    return {};
}

/// Reads one line of at most `limit` bytes. Returns false at end of input. A longer line is consumed
/// to its end without being kept (memory stays bounded) and `too_long` is set.
bool read_line(std::istream& in, std::string& line, std::size_t limit, bool& too_long) {
    line.clear();
    too_long = false;
    std::streambuf* buf = in.rdbuf();
    bool any = false;
    for (;;) {
        const int ch = buf->sbumpc();
        if (ch == std::char_traits<char>::eof()) return any;
        any = true;
        if (ch == '\n') return true;
        if (line.size() < limit)
            line.push_back(static_cast<char>(ch));
        else
            too_long = true;
    }
}

} // namespace

/// A measurement running on its own thread while the server keeps reading commands (bench.stop).
/// A reporter thread drains the live feed every kReportIntervalMs and emits "measure" events, so
/// front ends get batched figures at a steady rate whatever the message rate.
class BenchJob {
  public:
    static constexpr int kReportIntervalMs = 40;

    BenchJob(std::shared_ptr<Tracer> tracer, nlohmann::json id, std::vector<BenchOptions> runs,
             BenchRunner runner)
        : tracer_(std::move(tracer)), id_(std::move(id)), runs_(std::move(runs)), runner_(std::move(runner)) {
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
    /// Blocks until the measurement ends and both its threads are gone (bench.wait, for scripts).
    void wait() {
        if (worker_.joinable()) worker_.join();
        if (reporter_.joinable()) reporter_.join(); // woken by the worker when done_ was set
    }
    bool running() const { return !done_.load(); }

  private:
    void work() {
        nlohmann::json done = {{"ok", true}, {"runs", runs_.size()}};
        std::size_t completed = 0;
        try {
            // The first run always begins, so a stop that arrives before the worker does still yields
            // one bench.result (with no samples), as it would a moment later.
            for (std::size_t i = 0; i < runs_.size() && (i == 0 || !feed_.stop_requested()); ++i) {
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
                BenchResult result = runner_(o);
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
        {
            std::lock_guard lock(wake_mutex_); // so the reporter either sees done_ or is waiting
            done_ = true;
        }
        wake_.notify_all();
        emit("bench.done", std::move(done));
        tracer_->flush();
    }

    /// Ends with the measurement (the worker drains the last batch itself), so an idle engine keeps no
    /// thread waking every kReportIntervalMs until the next bench.start or quit.
    void report() {
        std::unique_lock wake(wake_mutex_);
        while (!finished_ && !done_) {
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
    BenchRunner runner_;
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

class Server::Impl {
  public:
    Impl(std::shared_ptr<TraceSink> out, BenchRunner runner)
        : tracer_(std::make_shared<Tracer>()), runner_(std::move(runner)) {
        tracer_->add_sink(std::move(out));
    }
    ~Impl() {
        bench_.reset(); // stops and joins a running measurement first
        operation_.reset();
        lab_.reset();
        workbench_.reset();
        tracer_->flush();
    }
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;

    void flush() { tracer_->flush(); }

    /// Answers a line that is not a command at all.
    void invalid(std::size_t line_number, const std::string& why) {
        reply(nullptr, "invalid", false, {{"error", fmt::format("line {}: {}", line_number, why)}});
    }

    /// Handles one command line; returns false on "quit".
    bool handle(const std::string& line, std::size_t line_number) {
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
            reply(id, "invalid", false,
                  {{"error",
                    fmt::format("line {}: field 'cmd' must be a string naming a command ({})", line_number,
                                fields.has("cmd") ? "got " + CommandFields::brief(fields.raw("cmd"))
                                                  : "it is missing")}});
            return true;
        }
        const std::string cmd = fields.raw("cmd").get<std::string>();
        try {
            if (cmd == "hello") {
                hello(id, fields);
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
            } else if (bench_ && bench_->running() &&
                       (cmd.rfind("op.", 0) == 0 || cmd.rfind("lab.", 0) == 0 ||
                        cmd.rfind("work.", 0) == 0)) {
                reply(
                    id, cmd, false,
                    {{"error", "a measurement is running; send bench.stop (or wait for bench.done) first"}});
            } else if (cmd == "op.start") {
                start(id, command);
            } else if (cmd == "op.step") {
                if (!require_operation(id, cmd)) return true;
                const std::size_t index = operation_->next_step();
                const bool ok = operation_->run_next();
                reply(id, cmd, ok, progress(index, ok));
            } else if (cmd == "op.run") {
                if (!require_operation(id, cmd)) return true;
                operation_->run_all();
                const bool ok = operation_->outcome().success;
                reply(id, cmd, ok, progress(operation_->next_step(), ok));
            } else if (cmd == "op.reset") {
                operation_.reset(); // destructor tears down in the canonical order, traced
                reply(id, cmd, true, {});
            } else if (cmd == "lab.start") {
                start_lab(id, command);
            } else if (cmd == "lab.step") {
                step_lab(id);
            } else if (cmd == "lab.run") {
                run_lab(id);
            } else if (cmd == "lab.reset") {
                const bool had = lab_ != nullptr;
                lab_.reset(); // tears down children before parents, traced
                reply(id, cmd, true, {{"had_lab", had}});
            } else if (cmd == "work.start") {
                start_workbench(id, command);
            } else if (cmd == "work.do") {
                do_workbench(id, command);
            } else if (cmd == "work.reset") {
                if (!require_workbench(id, cmd)) return true;
                workbench_->reset(); // tears down children before parents, traced
                reply(id, cmd, true, {});
            } else if (cmd == "work.save") {
                save_workbench(id, command);
            } else if (cmd == "quit") {
                bench_.reset(); // stops and joins a running measurement
                operation_.reset();
                lab_.reset();
                workbench_.reset();
                reply(id, cmd, true, {});
                return false;
            } else {
                reply(
                    id, cmd.empty() ? "invalid" : cmd, false,
                    {{"error", fmt::format("unknown command '{}'; known: hello, devices, op.start, op.step, "
                                           "op.run, op.reset, lab.start, lab.step, lab.run, lab.reset, "
                                           "work.start, work.do, work.reset, work.save, "
                                           "bench.start, bench.stop, bench.wait, quit",
                                           cmd)}});
            }
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

  private:
    /// Names the engine, its trace format and its protocol; refuses an app that speaks another protocol
    /// (its optional `protocol` field), naming both numbers.
    void hello(const nlohmann::json& id, const CommandFields& fields) {
        const long long theirs =
            fields.integer("protocol", 0, std::numeric_limits<int>::max(), kProtocolVersion);
        nlohmann::json data = {{"tool", "rdmalab-cli"},
                               {"version", RDMALAB_VERSION},
                               {"format", kTraceFormatVersion},
                               {"protocol", kProtocolVersion}};
        if (theirs == kProtocolVersion) return reply(id, "hello", true, std::move(data));
        std::error_code ec;
        const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
        const std::string where = ec || self.empty() ? std::string() : " at " + self.string();
        data["error"] =
            fmt::format("the app speaks engine protocol {}, this engine (rdmalab-cli {}{}) speaks "
                        "{}: install the same rdmalab version on both sides",
                        theirs, RDMALAB_VERSION, where, kProtocolVersion);
        reply(id, "hello", false, std::move(data));
    }

    void start(const nlohmann::json& id, const nlohmann::json& command) {
        OperationOptions options;
        const CommandFields f(command);
        const auto op = op_kind_from_string(f.string("op", ""));
        if (!op) {
            reply(id, "op.start", false,
                  {{"error", "field 'op' must be one of send, send_imm, write, write_imm, read, cas, faa"}});
            return;
        }
        options.op = *op;
        if (f.has("size")) {
            if (!f.raw("size").is_number_unsigned() || f.raw("size").get<std::uint64_t>() == 0) {
                reply(id, "op.start", false,
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
        const CommandFields f(c);
        std::vector<BenchKind> kinds;
        const nlohmann::json kind_list =
            f.has("kinds") ? f.raw("kinds") : nlohmann::json::array({f.string("kind", "")});
        if (!kind_list.is_array() || kind_list.empty() || kind_list.size() > kMaxBenchKinds)
            return fail(fmt::format("field 'kinds' must be an array of 1 .. {} kinds", kMaxBenchKinds));
        for (const auto& k : kind_list) {
            const auto kind = k.is_string() ? bench_kind_from_string(k.get<std::string>()) : std::nullopt;
            if (!kind)
                return fail(
                    fmt::format("field 'kind' must be one of send_lat, write_lat, read_lat, atomic_lat, "
                                "tcp_lat, write_bw, read_bw, send_bw, tcp_bw (got {})",
                                CommandFields::brief(k)));
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
        reply(id, "bench.start", true, {{"runs", plan}});
        bench_ = std::make_unique<BenchJob>(tracer_, id, std::move(runs), runner_);
    }

    /// lab.start: {"lab": ID} or {"text": YAML, "name": FILE NAME}, "params": {NAME: VALUE}, "seed",
    /// "lang": "en"|"zh", "device". An id is looked up in the engine's own lab folder only; the engine opens
    /// no file a command names (docs/security.md), so a lab of the user's own comes as its text.
    void start_lab(const nlohmann::json& id, const nlohmann::json& command) {
        auto fail = [&](const std::string& message) { reply(id, "lab.start", false, {{"error", message}}); };
        const CommandFields f(command);
        const bool byText = f.has("text");
        const std::string name = byText ? f.string("name", "lab.start text") : f.string("lab", "");
        const std::string text = byText ? f.string("text", "") : std::string();
        if (byText && f.has("lab")) return fail("give either field 'lab' (an id) or field 'text', not both");
        if (!byText && name.empty())
            return fail("field 'lab' must name a lab by its id (rdmalab-cli lab list), or field 'text' must "
                        "hold the lab's YAML");
        if (!byText && labs::names_a_lab_file(name))
            return fail(
                fmt::format("field 'lab' must be a lab id, not a file (got \"{}\"): the engine opens no "
                            "file a command names; send the lab's YAML in field 'text' instead",
                            name.substr(0, 80)));
        if (f.has("dir"))
            return fail("field 'dir' is not accepted: the engine looks lab ids up only in its own lab folder "
                        "(RDMALAB_LABS_DIR, else the installed curriculum)");
        labs::ParameterValues parameters;
        if (f.has("params")) {
            const auto& p = f.raw("params");
            if (!p.is_object())
                return fail(fmt::format("field 'params' must be an object of NAME: VALUE (got {})",
                                        CommandFields::brief(p)));
            for (const auto& [key, value] : p.items()) {
                if (value.is_string())
                    parameters[key] = value.get<std::string>();
                else if (value.is_number_integer() || value.is_boolean())
                    parameters[key] = value.dump();
                else
                    return fail(
                        fmt::format("field 'params.{}' must be a string, an integer or a boolean (got {})",
                                    key, CommandFields::brief(value)));
            }
        }
        labs::LabRunOptions options;
        options.language = f.string("lang", "en");
        if (options.language != "en" && options.language != "zh")
            return fail(fmt::format("field 'lang' must be en or zh (got \"{}\")", options.language));
        options.device = f.string("device", "");
        options.parameters = parameters;
        labs::LabError error;
        const std::string seed = f.string("seed", "");
        auto lab = byText ? labs::prepare_lab_text(text, name, parameters, error, seed)
                          : labs::prepare_lab(name, parameters, labs::default_labs_directory(), error, seed);
        if (!lab) return fail(error.to_string());
        lab_.reset();
        tracer_->record(session_event(options.device, "serve lab " + lab->id));
        lab_ = std::make_unique<labs::LabRun>(std::move(*lab), tracer_, options);
        nlohmann::json steps = nlohmann::json::array();
        for (std::size_t i = 0; i < lab_->steps().size(); ++i) {
            const auto& s = lab_->steps()[i];
            steps.push_back({{"id", s.id},
                             {"title", lab_->step_title(i)},
                             {"action", s.action.empty() ? "note" : s.action},
                             {"creates", s.creates()},
                             {"expectations", s.expect.size()},
                             {"predict", s.predict.has_value()}});
        }
        const auto& l = lab_->lab();
        reply(id, "lab.start", true,
              {{"lab",
                {{"id", l.id},
                 {"chapter", l.chapter},
                 {"title", l.title.get(options.language)},
                 {"file", l.file}}},
               {"steps", steps},
               {"seed", seed},
               {"values", labs::seeded_values(lab_->lab(), seed)},
               {"ask", lab_->prediction_json(0)},
               {"questions", lab_->questions_json()}});
    }

    /// work.start: {"lang": "en"|"zh", "device"}: an empty workbench session (the last one torn down).
    void start_workbench(const nlohmann::json& id, const nlohmann::json& command) {
        const CommandFields f(command);
        labs::LabRunOptions options;
        options.language = f.string("lang", "en");
        if (options.language != "en" && options.language != "zh") {
            reply(id, "work.start", false,
                  {{"error", fmt::format("field 'lang' must be en or zh (got \"{}\")", options.language)}});
            return;
        }
        options.device = f.string("device", "");
        workbench_.reset();
        tracer_->record(session_event(options.device, "serve workbench"));
        workbench_ = std::make_unique<labs::Workbench>(tracer_, options);
        reply(id, "work.start", true, {});
    }

    bool require_workbench(const nlohmann::json& id, const std::string& cmd) {
        if (workbench_) return true;
        reply(id, cmd, false, {{"error", "no workbench: send work.start first"}});
        return false;
    }

    /// work.do: {"step": {"do": ACTION, ...}}: one lab step, checked against the session's steps and
    /// performed. ok unless it was refused or its verb failed (the outcome says how; the session goes on).
    void do_workbench(const nlohmann::json& id, const nlohmann::json& command) {
        if (!require_workbench(id, "work.do")) return;
        const CommandFields f(command);
        if (!f.has("step") || !f.raw("step").is_object()) {
            reply(id, "work.do", false,
                  {{"error", "field 'step' must be a lab step: {\"do\": ACTION, FIELD: VALUE, ...} "
                             "(docs/lab-format.md)"}});
            return;
        }
        const auto done = workbench_->perform(f.raw("step"));
        if (!done.accepted) {
            reply(id, "work.do", false,
                  {{"error", done.error.to_string()}, {"field", done.error.field}, {"refused", true}});
            return;
        }
        nlohmann::json data = {{"step_index", done.index}, {"step", done.id},
                               {"performed", done.step},   {"text", done.text},
                               {"outcome", done.outcome},  {"snapshot", done.snapshot}};
        const bool ok = !done.outcome.contains("error");
        if (!ok) {
            data["error"] = done.outcome["error"];
            data["error_info"] = done.outcome["error_info"];
        }
        reply(id, "work.do", ok, data);
    }

    /// work.save: {"lab_id", "title", "chapter"}: the session as a lab file's text ("yaml").
    void save_workbench(const nlohmann::json& id, const nlohmann::json& command) {
        if (!require_workbench(id, "work.save")) return;
        const CommandFields f(command);
        labs::LabError error;
        const std::string text = workbench_->to_lab(f.string("lab_id", "my-lab"), f.string("title", "My lab"),
                                                    static_cast<int>(f.integer("chapter", 1, 99, 1)), error);
        if (text.empty()) {
            reply(id, "work.save", false, {{"error", error.to_string()}, {"field", error.field}});
            return;
        }
        reply(id, "work.save", true, {{"yaml", text}, {"steps", workbench_->size()}});
    }

    bool require_lab(const nlohmann::json& id, const std::string& cmd) {
        if (lab_) return true;
        reply(id, cmd, false, {{"error", "no lab: send lab.start first"}});
        return false;
    }

    /// lab.step: exactly the next step; ok unless it failed unexpectedly (a broken expectation is a
    /// verdict, not a failed command: its `state` says broken).
    void step_lab(const nlohmann::json& id) {
        if (!require_lab(id, "lab.step")) return;
        if (lab_->done()) {
            reply(id, "lab.step", false,
                  {{"error", "the lab has no step left to run (lab.reset, or lab.start to run it again)"},
                   {"done", true}});
            return;
        }
        const std::size_t index = lab_->next_step();
        lab_->run_next();
        const auto& outcome = lab_->outcome(index);
        nlohmann::json data = {{"step_index", index},
                               {"next_step", lab_->next_step()},
                               {"done", lab_->done()},
                               {"title", lab_->step_title(index)},
                               {"text", lab_->step_text(index)},
                               {"state", to_string(outcome.state)},
                               {"outcome", lab_->outcome_json(index)}};
        if (lab_->done())
            data["summary"] = lab_->summary_json();
        else
            data["ask"] = lab_->prediction_json(lab_->next_step()); // rendered with what is known now
        const bool ok = !outcome.failed_unexpectedly;
        if (!ok && outcome.error) {
            data["error"] = outcome.error->to_string();
            data["error_info"] = outcome.error->to_json();
        }
        reply(id, "lab.step", ok, data);
    }

    /// lab.run: every remaining step; ok when every expectation of the lab held.
    void run_lab(const nlohmann::json& id) {
        if (!require_lab(id, "lab.run")) return;
        const std::size_t first = lab_->next_step();
        lab_->run_all();
        nlohmann::json outcomes = nlohmann::json::array();
        for (std::size_t i = first; i < lab_->next_step(); ++i)
            outcomes.push_back(lab_->outcome_json(i));
        nlohmann::json data = {{"first_step", first},
                               {"next_step", lab_->next_step()},
                               {"done", lab_->done()},
                               {"outcomes", outcomes},
                               {"summary", lab_->summary_json()}};
        const bool ok = lab_->all_held();
        if (!ok) {
            const auto summary = lab_->summary_json();
            data["error"] =
                fmt::format("lab {}: {} expectation(s) broken, {} step(s) not run", lab_->lab().id,
                            summary["broken"].get<std::size_t>(), summary["not_run"].get<std::size_t>());
        }
        reply(id, "lab.run", ok, data);
    }

    bool require_operation(const nlohmann::json& id, const std::string& cmd) {
        if (operation_) return true;
        reply(id, cmd, false, {{"error", "no operation: send op.start first"}});
        return false;
    }

    /// op.step / op.run result data; a failed step also carries `error` (protocol: every failure has one).
    nlohmann::json progress(std::size_t index, bool ok) const {
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
    BenchRunner runner_;
    std::unique_ptr<LoopbackOperation> operation_;
    std::unique_ptr<labs::LabRun> lab_;
    std::unique_ptr<labs::Workbench> workbench_;
    std::unique_ptr<BenchJob> bench_;
};

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
