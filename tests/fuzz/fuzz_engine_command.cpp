// libFuzzer target: the engine process's command parser. The input is what the app (or anyone) writes to
// `rdmalab-cli serve --stdio`, any bytes, read as lines by the same loop and Server the process uses. The
// protocol's promises are checked: every event it emits is a trace event that reads back, every non-empty
// line gets exactly one `result` (up to a `quit`), and every failed result says why in `data.error`.
//
// Without an RDMA device (the fuzzing host has none) op.* commands fail cleanly at their first verb. A
// measurement would be real (the TCP kinds need no device) and could run for an hour, so bench.start runs
// a quick stand-in for run_bench: it feeds at most 64 samples through the real BenchFeed and reporter,
// honours bench.stop, and fails for one size, so the result, stop and failure paths are all exercised.
#include "server.hpp"

#include "rdmalab/engine/errors.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <string_view>

namespace {

using namespace rdmalab;

BenchResult quick_bench(const BenchOptions& o) {
    if (o.size == 3) // a failing run: the bench.done error path
        throw RdmaError(ErrorInfo{"ibv_post_send", 22, "EINVAL", "Invalid argument", "fuzz", "none"});
    BenchResult r;
    r.kind = o.kind;
    r.device = "fuzz";
    r.size = o.size;
    std::vector<double> samples;
    const long planned = std::min(o.iterations, 64);
    for (long i = 0; i < planned && !(o.feed && o.feed->stop_requested()); ++i) {
        const double sample = 1.0 + double(i % 7) / 8;
        samples.push_back(sample);
        // Synthetic clock 20 ms per sample: the feed publishes each one.
        if (o.feed) o.feed->add_sample(sample, double(i + 1) * 20'000.0);
    }
    r.iterations = static_cast<long>(samples.size());
    r.elapsed_s = double(samples.size()) * 1e-6;
    if (is_latency(o.kind)) {
        r.latency = compute_stats(std::move(samples));
        r.latency_basis = "half round trip (fuzz)";
    } else if (r.iterations > 0) {
        r.bw_MBps = double(o.size);
        r.bw_Gbps = r.bw_MBps * 8 / 1000;
        r.msg_rate_Mpps = 1;
    }
    if (o.feed) o.feed->publish();
    return r;
}

/// Checks every event the server emits (called from the server's and the measurement's threads, under
/// the tracer's lock).
class CheckingSink final : public TraceSink {
  public:
    void write(const TraceEvent& event) override {
        const std::string line = to_json_line(event);
        TraceParseError error;
        if (!parse_json_line(line, error)) __builtin_trap(); // what the engine writes, the app must read
        if (event.kind == EventKind::Measure && event.name == "bench.result") {
            // A run without samples has no statistics (docs/bench-format.md), never zeros.
            const auto& d = event.data;
            if (!d.contains("iters") || !d.contains("no_samples")) __builtin_trap();
            const bool none = d["iters"] == 0;
            if (d["no_samples"] != none) __builtin_trap();
            if (none && d.contains("lat_us") && !d["lat_us"].is_null()) __builtin_trap();
        }
        if (event.kind != EventKind::Result) return;
        const auto& d = event.data;
        if (!d.is_object() || !d.contains("ok") || !d["ok"].is_boolean()) __builtin_trap();
        if (!d["ok"].get<bool>() && !(d.contains("error") && d["error"].is_string())) __builtin_trap();
        ++results;
        if (event.name == "quit") quit_at = results;
    }
    std::size_t results = 0;
    std::size_t quit_at = 0; ///< the quit's result number (1-based), 0 without one
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string input(reinterpret_cast<const char*>(data), size);
    // Lines the server must answer, counted here independently of its reader.
    std::size_t lines = 0;
    for (std::size_t begin = 0; begin < input.size();) {
        const std::size_t end = std::min(input.find('\n', begin), input.size());
        if (end > begin) ++lines;
        begin = end + 1;
    }
    auto sink = std::make_shared<CheckingSink>();
    {
        rdmalab::cli::Server server(sink, quick_bench);
        std::istringstream in(input);
        rdmalab::cli::serve_lines(in, server);
    } // end of input: a running measurement is stopped and joined, an operation released
    if (sink->quit_at == 0 && sink->results != lines) __builtin_trap();
    if (sink->quit_at != 0 && (sink->results != sink->quit_at || sink->results > lines)) __builtin_trap();
    return 0;
}
