// rdmalab-cli: the headless front end of the engine, and with `serve` the engine as a process.
#include "cli.hpp"
#include "lab_cli.hpp"
#include "options.hpp"
#include "wire_cli.hpp"

#include "rdmalab/engine/bench.hpp"
#include "rdmalab/engine/bench_remote.hpp"
#include "rdmalab/engine/cm.hpp"
#include "rdmalab/engine/device.hpp"
#include "rdmalab/engine/errors.hpp"
#include "rdmalab/format/describe.hpp"
#include "rdmalab/format/manpage.hpp"

#include "rdmalab/engine/names.hpp"
#include <algorithm>

#include <fmt/format.h>
#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <limits>
#include <optional>
#include <string_view>

namespace rdmalab::cli {

namespace {

int usage_error(const std::string& message) {
    std::fprintf(stderr,
                 "rdmalab-cli: %s\n\n%s\n`rdmalab-cli --help` lists every option and value; so does `man "
                 "rdmalab-cli`.\n",
                 message.c_str(), usage_text().c_str());
    return kExitUsage;
}

/// "a, b, c": the allowed values of an option in the table, for error messages.
std::string allowed_values(std::string_view command, std::string_view option) {
    std::string out;
    for (const auto& v : find_option(*find_command(command), option)->values)
        out += (out.empty() ? "" : ", ") + v;
    return out;
}

std::optional<std::uint64_t> parse_number(std::string_view text) {
    std::uint64_t value = 0;
    std::uint64_t scale = 1;
    if (!text.empty()) {
        const char last = text.back();
        if (last == 'k' || last == 'K') scale = 1024;
        if (last == 'm' || last == 'M') scale = std::uint64_t{1024} * 1024;
        if (scale != 1) text.remove_suffix(1);
    }
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size() || text.empty()) return std::nullopt;
    if (value > std::numeric_limits<std::uint64_t>::max() / scale) return std::nullopt; // would wrap
    return value * scale;
}

/// A duration in seconds: a finite decimal number and nothing else ("5abc", "nan", "inf" are not).
std::optional<double> parse_seconds(std::string_view text) {
    double value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size() || text.empty() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

/// Reports a trace that could not be written completely; true when everything was written.
bool trace_written(JsonLinesSink& sink, const std::string& where) {
    const int err = sink.finish();
    if (err == 0) return true;
    std::fprintf(stderr,
                 "rdmalab-cli: writing the trace to %s failed: %s (%s); the trace is incomplete.\n"
                 "  fix: free space there, or write the trace somewhere else (--trace FILE)\n",
                 where.c_str(), errno_name(err).c_str(), errno_text(err).c_str());
    return false;
}

/// The CPUs of --cpus "A" or "A,B"; b < 0 when only A was given.
struct CpuChoice {
    int a = -1, b = -1;
};

std::optional<CpuChoice> parse_cpus(std::string_view text) {
    auto one = [](std::string_view t) -> int { // a plain CPU number: no sign, no k/M suffix
        unsigned n = 0;
        const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
        return ec == std::errc{} && end == t.data() + t.size() && n <= 65535 ? int(n) : -1;
    };
    const auto comma = text.find(',');
    CpuChoice c;
    c.a = one(text.substr(0, comma));
    if (comma != std::string_view::npos) {
        c.b = one(text.substr(comma + 1));
        if (c.b < 0) return std::nullopt;
    }
    if (c.a < 0) return std::nullopt;
    return c;
}

int cmd_devices(const std::vector<std::string>& args) {
    bool json = false;
    for (const auto& a : args) {
        if (a == "--json")
            json = true;
        else
            return usage_error(fmt::format("devices: unknown argument '{}'", a));
    }
    try {
        const auto devices = list_devices();
        if (json) {
            nlohmann::json out = nlohmann::json::array();
            for (const auto& d : devices)
                out.push_back(to_json(d));
            std::printf("%s\n", nlohmann::json{{"devices", out}}.dump(2).c_str());
        } else {
            for (const auto& d : devices)
                std::printf("%s\n", format_device(d).c_str());
        }
        if (devices.empty()) {
            std::fprintf(stderr, "%s\n", explain_no_device().to_string().c_str());
            return kExitFailure;
        }
        return 0;
    } catch (const RdmaError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return kExitFailure;
    }
}

/// Where `op` runs: both sides here, or one side of a pair over rdma_cm.
enum class OpMode { Loopback, Listen, Connect };

/// What `op` was asked on its command line.
struct OpRequest {
    OperationOptions options;
    bool json = false;
    std::string trace_path;
    bool wire = false;
    std::string pcapng_path;
    OpMode mode = OpMode::Loopback;
    CmOptions cm;
};

/// Reads `op`'s arguments into `r`: 0, or the status of the usage error it has reported.
int parse_op_args(const std::vector<std::string>& args, OpRequest& r) {
    if (args.empty()) return usage_error("op: missing OPCODE");
    const auto op = op_kind_from_string(args[0]);
    if (!op) return usage_error(fmt::format("op: unknown OPCODE '{}'", args[0]));
    r.options.op = *op;
    bool size_given = false;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const auto& a = args[i];
        auto value = [&](const char* what) -> std::optional<std::string> {
            if (i + 1 >= args.size()) return std::nullopt;
            (void)what;
            return args[++i];
        };
        if (a == "--json") {
            r.json = true;
        } else if (a == "--inline") {
            r.options.inline_data = true;
        } else if (a == "--size") {
            auto v = value("--size");
            auto n = v ? parse_number(*v) : std::nullopt;
            if (!n) return usage_error("op: --size needs a byte count (e.g. 64, 4k, 1M)");
            r.options.size = *n;
            size_given = true;
        } else if (a == "--message") {
            auto v = value("--message");
            if (!v) return usage_error("op: --message needs a text");
            r.options.message = *v;
        } else if (a == "--device") {
            auto v = value("--device");
            if (!v) return usage_error("op: --device needs a device name");
            r.options.device = *v;
        } else if (a == "--ib-port") {
            auto v = value("--ib-port");
            auto n = v ? parse_number(*v) : std::nullopt;
            if (!n || *n == 0 || *n > 255) return usage_error("op: --ib-port needs a port number 1..255");
            r.options.port = static_cast<std::uint8_t>(*n);
        } else if (a == "--fault") {
            auto v = value("--fault");
            auto f = v ? fault_kind_from_string(*v) : std::nullopt;
            if (!f || *f == FaultKind::None)
                return usage_error("op: --fault needs one of " + allowed_values("op", "--fault"));
            r.options.fault = *f;
        } else if (a == "--listen") {
            r.mode = OpMode::Listen;
            if (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) r.cm.address = args[++i];
        } else if (a == "--connect") {
            auto v = value("--connect");
            if (!v) return usage_error("op: --connect needs the listener's host or IP address");
            r.mode = OpMode::Connect;
            r.cm.address = *v;
        } else if (a == "--cm-port") {
            auto v = value("--cm-port");
            auto n = v ? parse_number(*v) : std::nullopt;
            if (!n || *n == 0 || *n > 65535) return usage_error("op: --cm-port needs a port number 1..65535");
            r.cm.port = static_cast<std::uint16_t>(*n);
        } else if (a == "--trace") {
            auto v = value("--trace");
            if (!v) return usage_error("op: --trace needs a file name");
            r.trace_path = *v;
        } else if (a == "--wire") {
            r.wire = true;
        } else if (a == "--pcapng") {
            auto v = value("--pcapng");
            if (!v) return usage_error("op: --pcapng needs a file name");
            r.pcapng_path = *v;
        } else {
            return usage_error(fmt::format("op: unknown argument '{}'", a));
        }
    }
    if (!size_given && (r.options.op == OpKind::CompareSwap || r.options.op == OpKind::FetchAdd))
        r.options.size = 8;
    if (!r.pcapng_path.empty() && !r.wire)
        return usage_error("op: --pcapng saves the capture of --wire: add --wire");
    if (const auto problem = validate(r.options); !problem.empty()) return usage_error("op: " + problem);
    return 0;
}

/// Adds `op`'s sinks to `tracer`: the JSON lines or the described steps on standard output, and the --trace
/// file; false after saying why that file cannot be written.
bool add_op_sinks(const OpRequest& r, Tracer& tracer, std::shared_ptr<JsonLinesSink>& json_sink,
                  std::shared_ptr<JsonLinesSink>& trace_sink) {
    if (r.json) {
        json_sink = std::make_shared<JsonLinesSink>(stdout, true);
        tracer.add_sink(json_sink);
    } else {
        tracer.add_sink(std::make_shared<CallbackSink>([](const TraceEvent& e) {
            if (e.kind == EventKind::Step)
                std::printf("\n%s\n", describe(e).c_str());
            else
                std::printf("    %s\n", describe(e).c_str());
            std::fflush(stdout);
        }));
    }
    if (!r.trace_path.empty()) {
        try {
            trace_sink = std::make_shared<JsonLinesSink>(r.trace_path);
            tracer.add_sink(trace_sink);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "rdmalab-cli: %s\n", e.what());
            return false;
        }
    }
    return true;
}

int cmd_op(const std::vector<std::string>& args) {
    OpRequest r;
    if (const int status = parse_op_args(args, r); status != 0) return status;
    const OperationOptions& options = r.options;
    const bool json = r.json;
    const OpMode mode = r.mode;
    const CmOptions& cm = r.cm;
    auto tracer = std::make_shared<Tracer>();
    std::shared_ptr<JsonLinesSink> json_sink, trace_sink;
    if (!add_op_sinks(r, *tracer, json_sink, trace_sink)) return kExitFailure;
    tracer->record(session_event(options.device, fmt::format("op {}", to_string(options.op))));
    bool success = false;
    std::optional<cli::WireSession> wire_session;
    if (r.wire)
        wire_session.emplace(
            cli::WireRequest{.loopback = mode == OpMode::Loopback,
                             .address = cm.address,
                             .listening = mode == OpMode::Listen,
                             .pcapng = r.pcapng_path,
                             .operation = fmt::format("{} {} B", to_string(options.op), options.size),
                             .window = std::nullopt},
            *tracer, mode == OpMode::Listen ? Endpoint::B : Endpoint::A);
    auto finish = [&](const nlohmann::json& result, const OperationOutcome& outcome) {
        if (wire_session && !wire_session->finish()) success = false;
        if (json) {
            TraceEvent event;
            event.kind = EventKind::Result;
            event.name = "op";
            event.data = result;
            tracer->record(event);
        } else {
            std::printf("\n%s: %s\n", outcome.success ? "OK" : "FAILED", outcome.summary.c_str());
        }
    };
    if (mode == OpMode::Loopback) {
        LoopbackOperation operation(options, tracer);
        operation.run_all();
        success = operation.outcome().success;
        operation.teardown();
        finish(outcome_json(operation), operation.outcome());
    } else {
        if (mode == OpMode::Listen && !json)
            std::printf("B: waiting for A on %s:%u (start `rdmalab-cli op %s --connect HOST` there)\n",
                        cm.address.empty() ? "0.0.0.0" : cm.address.c_str(), cm.port,
                        std::string(to_string(options.op)).c_str());
        const auto outcome = mode == OpMode::Listen ? run_cm_listener(options, cm, tracer)
                                                    : run_cm_connector(options, cm, tracer);
        success = outcome.success;
        nlohmann::json result = {{"op", to_string(options.op)}, {"fault", to_string(options.fault)},
                                 {"size", options.size},        {"side", mode == OpMode::Listen ? "B" : "A"},
                                 {"success", outcome.success},  {"summary", outcome.summary},
                                 {"checks", outcome.checks}};
        if (outcome.error) result["error"] = outcome.error->to_json();
        finish(result, outcome);
    }
    tracer->flush();
    // Both checked: a lost trace is a failure even when the operation itself succeeded.
    const bool json_ok = !json_sink || trace_written(*json_sink, "standard output");
    const bool trace_ok = !trace_sink || trace_written(*trace_sink, "'" + r.trace_path + "'");
    return success && json_ok && trace_ok ? 0 : kExitFailure;
}

/// Where `bench` runs: both sides here, or one side of a pair over rdma_cm.
enum class BenchMode { Loopback, Listen, Connect };

/// What `bench` was asked on its command line.
struct BenchRequest {
    BenchOptions options;
    bool json = false, sweep = false, samples = false;
    BenchMode mode = BenchMode::Loopback;
    RemoteBenchOptions remote;
    std::vector<std::string> measuring; ///< options only the measuring side takes
    bool wire = false;                  ///< --wire: capture a window of the measurement's packets
    bool wire_bounds = false;           ///< --wire-packets, --wire-ms or --pcapng was given
    wire::CaptureWindow wire_window;
    std::string pcapng_path;
    bool trace_wr = false;                       ///< --trace-wr: untraced against every work request traced
    int trace_wr_rounds = kDefaultTraceWrRounds; ///< --trace-wr-rounds
    bool trace_wr_rounds_given = false;          ///< --trace-wr-rounds was given
};

/// Reads `bench`'s arguments into `r`: 0, or the status of the usage error it has reported.
int parse_bench_args(const std::vector<std::string>& args, BenchRequest& r) {
    if (args.empty()) return usage_error("bench: missing KIND");
    const auto kind = bench_kind_from_string(args[0]);
    if (!kind) return usage_error(fmt::format("bench: unknown KIND '{}'", args[0]));
    r.options.kind = *kind;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const auto& a = args[i];
        if (a != "--listen" && a != "--connect" && a != "--cm-port" && a != "--json" && a != "--cpus")
            r.measuring.push_back(a);
        auto number = [&](const char* what) -> std::optional<std::uint64_t> {
            if (i + 1 >= args.size()) return std::nullopt;
            (void)what;
            return parse_number(args[++i]);
        };
        if (a == "--json") {
            r.json = true;
        } else if (a == "--sweep") {
            r.sweep = true;
        } else if (a == "--samples") {
            r.samples = true;
        } else if (a == "--events") {
            r.options.completion_events = true;
        } else if (a == "--size") {
            auto n = number("--size");
            if (!n || *n == 0 || *n > (1ULL << 30)) return usage_error("bench: --size needs 1 B .. 1 GiB");
            r.options.size = *n;
        } else if (a == "--iters") {
            auto n = number("--iters");
            if (!n || *n == 0 || *n > 100000000) return usage_error("bench: --iters needs 1 .. 100000000");
            r.options.iterations = static_cast<int>(*n);
        } else if (a == "--warmup") {
            auto n = number("--warmup");
            if (!n || *n > 1000000) return usage_error("bench: --warmup needs 0 .. 1000000");
            r.options.warmup = static_cast<int>(*n);
        } else if (a == "--window") {
            auto n = number("--window");
            if (!n || *n == 0 || *n > 1024) return usage_error("bench: --window needs 1 .. 1024");
            r.options.window = static_cast<int>(*n);
        } else if (a == "--seconds") {
            if (i + 1 >= args.size()) return usage_error("bench: --seconds needs a duration");
            r.options.seconds = parse_seconds(args[++i]).value_or(-1);
            if (!(r.options.seconds > 0) || r.options.seconds > 3600)
                return usage_error("bench: --seconds needs 0 < S <= 3600");
        } else if (a == "--device") {
            if (i + 1 >= args.size()) return usage_error("bench: --device needs a name");
            r.options.device = args[++i];
        } else if (a == "--cpus") {
            const auto cpus = i + 1 < args.size() ? parse_cpus(args[++i]) : std::nullopt;
            if (!cpus) return usage_error("bench: --cpus needs A or A,B (CPU numbers, e.g. --cpus 0,1)");
            r.options.cpu_a = cpus->a;
            if (cpus->b >= 0) r.options.cpu_b = cpus->b;
        } else if (a == "--listen") {
            r.mode = BenchMode::Listen;
            if (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) r.remote.address = args[++i];
        } else if (a == "--connect") {
            if (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0)
                return usage_error("bench: --connect needs the listener's host or IP address");
            r.mode = BenchMode::Connect;
            r.remote.address = args[++i];
        } else if (a == "--cm-port") {
            auto n = number("--cm-port");
            if (!n || *n == 0 || *n > 65535)
                return usage_error("bench: --cm-port needs a port number 1..65535");
            r.remote.port = static_cast<std::uint16_t>(*n);
        } else if (a == "--trace-wr") {
            r.trace_wr = true;
        } else if (a == "--trace-wr-rounds") {
            auto n = number("--trace-wr-rounds");
            if (!n || *n == 0 || *n > 20) return usage_error("bench: --trace-wr-rounds needs 1 .. 20");
            r.trace_wr_rounds = static_cast<int>(*n);
            r.trace_wr_rounds_given = true;
        } else if (a == "--wire") {
            r.wire = true;
        } else if (a == "--wire-packets") {
            auto n = number("--wire-packets");
            if (!n || *n == 0 || *n > 300000) return usage_error("bench: --wire-packets needs 1 .. 300000");
            r.wire_window.packets = static_cast<std::size_t>(*n);
            r.wire_bounds = true;
        } else if (a == "--wire-ms") {
            auto n = number("--wire-ms");
            if (!n || *n == 0 || *n > 60000) return usage_error("bench: --wire-ms needs 1 .. 60000");
            r.wire_window.span_ms = *n;
            r.wire_bounds = true;
        } else if (a == "--pcapng") {
            if (i + 1 >= args.size()) return usage_error("bench: --pcapng needs a file name");
            r.pcapng_path = args[++i];
            r.wire_bounds = true;
        } else {
            return usage_error(fmt::format("bench: unknown argument '{}'", a));
        }
    }
    return 0;
}

/// `bench --listen`: side B of a measurement that the other host (--connect) chooses and runs.
int run_bench_listener(BenchRequest& r) {
    r.remote.cpu = r.options.cpu_a;
    if (r.options.cpu_b) return usage_error("bench --listen: --cpus takes one CPU here (this process is B)");
    if (!r.measuring.empty() || r.json)
        return usage_error(fmt::format("bench --listen: '{}' belongs to the measuring side (--connect), "
                                       "which chooses sizes and counts; the listener takes only [ADDR], "
                                       "--cm-port and --cpus",
                                       r.json ? std::string("--json") : r.measuring.front()));
    try {
        run_remote_bench_listener(r.options.kind, r.remote, [](const std::string& line) {
            std::printf("%s\n", line.c_str());
            std::fflush(stdout);
        });
    } catch (const RdmaError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return kExitFailure;
    }
    return 0;
}

int cmd_bench(const std::vector<std::string>& args) {
    BenchRequest r;
    if (const int status = parse_bench_args(args, r); status != 0) return status;
    if (r.mode == BenchMode::Listen) return run_bench_listener(r);
    BenchOptions& options = r.options;
    const bool json = r.json, sweep = r.sweep, samples = r.samples;
    const BenchMode mode = r.mode;
    const RemoteBenchOptions& remote = r.remote;
    if (options.completion_events && (mode == BenchMode::Connect || options.kind != BenchKind::SendLat))
        return usage_error("bench: --events applies to send_lat in a loopback pair only");
    if (mode == BenchMode::Connect && options.cpu_b)
        return usage_error("bench --connect: --cpus takes one CPU here (this process is A; pin B with its "
                           "own --cpus)");
    if (mode == BenchMode::Connect && !options.device.empty())
        return usage_error("bench --connect: --device does not apply; rdma_cm uses the device of the "
                           "interface that routes to HOST");
    if (r.wire_bounds && !r.wire)
        return usage_error(
            "bench: --wire-packets, --wire-ms and --pcapng bound and save the capture of --wire: "
            "add --wire");
    if (r.wire && sweep)
        return usage_error("bench: --wire captures one measurement: choose one --size, not --sweep");
    if (r.trace_wr_rounds_given && !r.trace_wr)
        return usage_error("bench: --trace-wr-rounds sets the runs of --trace-wr: add --trace-wr");
    if (r.trace_wr && (sweep || kMeasurementKinds[static_cast<std::size_t>(options.kind)].tcp))
        return usage_error("bench: --trace-wr traces the work requests of one RDMA measurement: an RDMA "
                           "kind and one --size, not --sweep");
    if (options.kind == BenchKind::AtomicLat) options.size = 8;
    options.keep_samples = samples;
    // The window's capture: its start, end and counts are printed (or returned in the JSON), its packets
    // only saved with --pcapng, so a 2000-packet window does not flood the result.
    Tracer wire_tracer;
    nlohmann::json wire_report = nlohmann::json::array();
    wire_tracer.add_sink(std::make_shared<CallbackSink>([&](const TraceEvent& e) {
        if (e.kind != EventKind::Packet || e.name == "packet") return;
        if (json)
            wire_report.push_back({{"event", e.name}, {"data", e.data}});
        else
            std::printf(" %s\n", describe(e).c_str());
    }));
    std::optional<cli::WireSession> wire_session;
    if (r.wire)
        wire_session.emplace(
            cli::WireRequest{.loopback = mode != BenchMode::Connect,
                             .address = remote.address,
                             .pcapng = r.pcapng_path,
                             .operation = fmt::format("bench {} {} B", to_string(options.kind), options.size),
                             .window = r.wire_window},
            wire_tracer, Endpoint::A);
    const std::vector<std::size_t> sizes =
        sweep ? (options.kind == BenchKind::AtomicLat ? std::vector<std::size_t>{8} : sweep_sizes())
              : std::vector<std::size_t>{options.size};
    std::vector<BenchResult> results;
    std::vector<RemoteBenchResult> remote_results;
    try {
        for (std::size_t k = 0; k < sizes.size(); ++k) {
            const auto size = sizes[k];
            BenchOptions o = options;
            o.size = size;
            // Large messages take long under emulation: scale the count down, keep at least 100.
            if (sweep && o.seconds <= 0) o.iterations = sweep_iterations(options.iterations, size);
            if (mode == BenchMode::Connect && r.trace_wr) {
                // One connection per run (untraced and traced each round); the last one tells the listener
                // to exit afterwards. The peer and mode shown are the last connection's.
                const int runs = 2 * r.trace_wr_rounds;
                int run = 0;
                RemoteBenchResult last;
                results.push_back(run_traced_comparison(o, r.trace_wr_rounds, [&](const BenchOptions& each) {
                    last = run_remote_bench(each, remote, ++run == runs);
                    return last.result;
                }));
                last.result = results.back();
                remote_results.push_back(std::move(last));
            } else if (mode == BenchMode::Connect) {
                // One connection per size; the last one tells the listener to exit afterwards.
                remote_results.push_back(run_remote_bench(o, remote, k + 1 == sizes.size()));
                results.push_back(remote_results.back().result);
            } else if (r.trace_wr) {
                results.push_back(run_traced_comparison(
                    o, r.trace_wr_rounds, [](const BenchOptions& each) { return run_bench(each); }));
            } else {
                results.push_back(run_bench(o));
            }
        }
    } catch (const RdmaError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return kExitFailure;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "rdmalab-cli bench: %s\n", e.what());
        return kExitFailure;
    }
    const bool wire_saved = !wire_session || wire_session->finish();
    if (json) {
        nlohmann::json out = nlohmann::json::array();
        for (std::size_t k = 0; k < results.size(); ++k)
            out.push_back(mode == BenchMode::Connect ? to_json(remote_results[k], samples)
                                                     : to_json(results[k], samples));
        if (r.wire) out[0]["wire"] = wire_report;
        std::printf("%s\n", (sweep ? out : out[0]).dump(2).c_str());
    } else {
        std::printf("%s", format_table(results).c_str());
        if (mode == BenchMode::Connect)
            std::printf(" peer: %s  mode: %s\n", remote_results.front().peer.c_str(),
                        remote_results.front().mode.c_str());
        for (const auto& note : results.front().notes)
            std::printf(" note: %s\n", note.c_str());
    }
    return wire_saved ? 0 : kExitFailure;
}

int cmd_serve(const std::vector<std::string>& args) {
    bool stdio = false;
    for (const auto& a : args) {
        if (a == "--stdio")
            stdio = true;
        else
            return usage_error(fmt::format("serve: unknown argument '{}'", a));
    }
    if (!stdio) return usage_error("serve: only `serve --stdio` exists");
    return serve_stdio();
}

} // namespace

} // namespace rdmalab::cli

int main(int argc, char** argv) {
    using namespace rdmalab::cli;
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        std::printf("%s", help_text().c_str());
        return args.empty() ? kExitUsage : 0;
    }
    if (args[0] == "--version") {
        std::printf("rdmalab-cli %s (trace format %d)\n", RDMALAB_VERSION, rdmalab::kTraceFormatVersion);
        return 0;
    }
    if (args[0] == "--man") {
        std::printf("%s", rdmalab::man::render(man_page()).c_str());
        return 0;
    }
    const std::string command = args[0];
    args.erase(args.begin());
    const auto* spec = find_command(command);
    if (!spec) return usage_error(fmt::format("unknown command '{}'", command));
    if (std::find(args.begin(), args.end(), "--help") != args.end() ||
        std::find(args.begin(), args.end(), "-h") != args.end()) {
        std::printf("%s", command_help_text(*spec).c_str());
        return 0;
    }
    // The table decides which options exist: one the parser below knows but the table (and so --help
    // and the man page) does not is refused too.
    if (const auto unknown = first_unknown_option(*spec, args))
        return usage_error(fmt::format("{}: unknown argument '{}'", command, *unknown));
    if (command == "devices") return cmd_devices(args);
    if (command == "op") return cmd_op(args);
    if (command == "bench") return cmd_bench(args);
    if (command == "serve") return cmd_serve(args);
    if (command == "lab") return cmd_lab(args);
    return usage_error(fmt::format("command '{}' is in the table but has no parser", command));
}
