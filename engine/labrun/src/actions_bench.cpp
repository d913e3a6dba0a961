// The actions of time: bench (one measurement of rdmalab's benchmarks, from a lab step) and wait (a pause).
#include "actions.hpp"
#include "rdmalab/engine/bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

namespace rdmalab::labs::run {

void do_bench(State& s, const Step& step, StepResult& r) {
    const std::string kind_name = text(step, "kind");
    const auto kind = bench_kind_from_string(kind_name);
    if (!kind) throw LabRunError("unknown bench kind '" + kind_name + "'");
    BenchOptions o;
    o.kind = *kind;
    o.size = static_cast<std::size_t>(integer(step, "size", 64));
    if (o.kind == BenchKind::AtomicLat) o.size = 8;
    o.iterations = static_cast<int>(integer(step, "iterations", 1000));
    o.warmup = std::min(100, o.iterations);
    o.device = s.device ? s.device->name : s.options.device;
    o.keep_samples = false;
    o.completion_events = text(step, "completion", "busy_poll") == "events";
    const BenchResult result = run_bench(o);
    Results& out = r.results;
    auto ns = [](double us) { return std::to_string(std::llround(us * 1000.0)); };
    if (result.latency) {
        out["p50_ns"] = ns(result.latency->p50);
        out["p99_ns"] = ns(result.latency->p99);
        out["min_ns"] = ns(result.latency->min);
        out["mean_ns"] = ns(result.latency->mean);
    } else {
        for (const char* key : {"p50_ns", "p99_ns", "min_ns", "mean_ns"})
            out[key] = "not measured (a bandwidth kind)";
    }
    out["mb_per_s"] = fmt::format("{:.1f}", result.bw_MBps);
    out["msg_per_s"] = std::to_string(std::llround(result.msg_rate_Mpps * 1e6));
    out["syscalls_per_msg"] = result.cpu.syscalls_per_msg
                                  ? fmt::format("{:.2f}", *result.cpu.syscalls_per_msg)
                                  : "not counted (" + result.cpu.syscalls_note + ")";
    out["cpu_ns_per_msg"] = std::to_string(
        static_cast<long long>((result.cpu.user_us_per_msg + result.cpu.sys_us_per_msg) * 1000.0));
    out["device"] = result.device;
    out["completion"] = o.completion_events ? "events" : "busy_poll";
    out["switches_per_msg"] = fmt::format("{:.2f}", result.cpu.switches_per_msg);
    // Voluntary switches only: a thread that gives up its CPU (a sleep in poll() or read()). A busy poller
    // is switched out only when the kernel preempts it, which on two CPUs shared with rxe's own work can be
    // as often as an event waiter sleeps.
    // Per message as switches_per_msg is: its share of the switches that were voluntary.
    const auto switches = result.cpu.voluntary_switches + result.cpu.involuntary_switches;
    out["sleeps_per_msg"] =
        fmt::format("{:.2f}", switches > 0 ? result.cpu.switches_per_msg *
                                                 static_cast<double>(result.cpu.voluntary_switches) /
                                                 static_cast<double>(switches)
                                           : 0.0);
    // CPU time over wall time: 2.00 when both endpoints' threads never leave the CPU (busy polling).
    out["cpus_busy"] = result.elapsed_s > 0
                           ? fmt::format("{:.2f}", (result.cpu.user_s + result.cpu.sys_s) / result.elapsed_s)
                           : std::string("not measured (no elapsed time)");
    if (s.tracer && s.tracer->enabled())
        s.tracer->record(Endpoint::None, EventKind::Data, "bench", {}, to_json(result));
}

void do_wait(State&, const Step& step, StepResult&) {
    std::this_thread::sleep_for(std::chrono::milliseconds(integer(step, "time", 0)));
}

} // namespace rdmalab::labs::run
