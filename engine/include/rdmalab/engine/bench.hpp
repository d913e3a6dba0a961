// Measurements: RDMA and TCP latency and bandwidth on a loopback pair, with perftest's methodology
// (ping-pong halved for SEND/WRITE latency, busy polling, warm-up excluded) and the CPU they cost.
#pragma once

#include "rdmalab/format/binary_trace.hpp"
#include "rdmalab/format/measurement.hpp"
#include "rdmalab/format/pipeline.hpp"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdmalab {

/// Hands live figures from a running measurement to another thread (the engine process's reporter),
/// and a stop request back. The measured loop keeps new samples in a private buffer and publishes them
/// under the lock at most every kPublishIntervalUs, so being watched costs the loop next to nothing.
class BenchFeed {
  public:
    static constexpr double kPublishIntervalUs = 10'000;

    /// What was published since the last take().
    struct Snapshot {
        std::vector<double> new_samples_us; ///< latency kinds, in order
        long messages = 0;                  ///< measured messages completed so far
        double elapsed_s = 0;               ///< measured time so far (warm-up excluded)
    };

    void request_stop() { stop_.store(true, std::memory_order_relaxed); }
    bool stop_requested() const { return stop_.load(std::memory_order_relaxed); }
    /// Drains the published samples; thread-safe.
    Snapshot take();

    // Called by the measured loop (one thread).
    void add_sample(double sample_us, double now_us);
    void progress(long messages, double elapsed_s, double now_us);
    /// Publishes whatever the loop still holds (end of a measurement).
    void publish();
    /// Forgets everything (between measurements of a sweep).
    void reset();
    /// While muted (set by the loop's own thread between runs), samples and progress are dropped — a
    /// comparison run that a live view should not show — and stop requests still arrive.
    void set_muted(bool muted) { muted_ = muted; }

  private:
    std::vector<double> local_;
    double last_publish_us_ = 0;
    long local_messages_ = 0;
    double local_elapsed_s_ = 0;
    std::mutex mutex_;
    std::vector<double> shared_;
    long shared_messages_ = 0;
    double shared_elapsed_s_ = 0;
    std::atomic<bool> stop_{false};
    bool muted_ = false;
};

struct BenchOptions {
    BenchKind kind = BenchKind::WriteLat;
    std::size_t size = 2;  ///< message bytes (atomics: 8)
    int iterations = 1000; ///< measured iterations (after warm-up)
    double seconds = 0;    ///< if > 0: run for this long instead of a fixed count
    int warmup = 100;      ///< iterations before measuring, not counted
    int window = 64;       ///< bandwidth: outstanding work requests (perftest's tx depth)
    std::string device;    ///< empty: first device
    /// Pin endpoint A (the measuring thread) and B (its peer thread in a loopback pair) to these CPUs for
    /// the measurement; unset: the scheduler places them. With two processes, cpu_a pins this side.
    std::optional<int> cpu_a, cpu_b;
    bool keep_samples = true;
    /// send_lat in a loopback pair only: both endpoints wait for each completion on a completion channel
    /// (ibv_req_notify_cq, then sleep in poll() on the channel and ibv_get_cq_event) instead of busy
    /// polling, as perftest's --events. Other kinds and two-host runs refuse it.
    bool completion_events = false;
    BenchFeed* feed = nullptr; ///< optional: live samples/progress out, stop requests in
    /// Optional: A's loop writes every post, poll and completion of the run (warm-up included) into this
    /// tracer's binary tier: a 32-byte record each, no allocation (RDMA kinds; TCP records nothing).
    fast::BinaryTracer* wr_tracer = nullptr;
};

/// Latency statistics in microseconds.
struct LatencyStats {
    double min = 0, p50 = 0, mean = 0, p90 = 0, p99 = 0, p999 = 0, max = 0, stdev = 0;
    std::vector<double> samples; ///< per iteration, in order
};

/// Computes the statistics of `samples` (µs); percentiles by nearest rank.
LatencyStats compute_stats(std::vector<double> samples);

/// CPU the measured loop used (both endpoints: they run in this process), from getrusage.
struct CpuCost {
    double user_s = 0, sys_s = 0;
    long voluntary_switches = 0, involuntary_switches = 0;
    double user_us_per_msg = 0, sys_us_per_msg = 0, switches_per_msg = 0;
    /// System calls of both endpoints per message (perf tracepoint raw_syscalls:sys_enter); empty when
    /// they could not be counted, and then `syscalls_note` says why.
    std::optional<double> syscalls_per_msg;
    long long syscalls = -1;
    std::string syscalls_note;
};

/// `bench --trace-wr`: what tracing every work request cost, measured in the same invocation, and the
/// pipeline the traced runs recorded.
struct WrTraceReport {
    int rounds = 0;                       ///< untraced and traced runs, alternated
    std::vector<double> untraced, traced; ///< each run's figure: MB/s (bandwidth) or p50 µs (latency)
    double untraced_median = 0, traced_median = 0; ///< what ratio and ns_per_wr come from
    std::string figure;                            ///< "bw_MBps" or "p50_us"
    double ratio = 0;     ///< traced over untraced throughput (latency: untraced p50 over traced p50)
    double ns_per_wr = 0; ///< added time per work request, from the two medians
    std::uint64_t records = 0, overruns = 0;
    fast::Calibration calibration;
    fast::PipelineSummary pipeline; ///< the last traced run's
};

struct BenchResult {
    BenchKind kind = BenchKind::WriteLat;
    std::string device;    ///< "rxe0", or "loopback TCP (lo)"
    bool software = false; ///< SoftRoCE / software device: not hardware numbers
    std::size_t size = 0;
    long iterations = 0;
    double elapsed_s = 0;
    std::optional<LatencyStats> latency;
    std::string latency_basis; ///< "half round trip" or "full round trip (one operation)"
    double bw_MBps = 0, bw_Gbps = 0, msg_rate_Mpps = 0;
    CpuCost cpu;
    std::optional<int> cpu_a, cpu_b; ///< the CPUs the endpoints were pinned to, if they were
    bool completion_events = false;  ///< the endpoints slept on completion events instead of busy polling
    std::vector<std::string> notes;
    std::optional<WrTraceReport> wr_trace; ///< with --trace-wr

    /// False when not one iteration was measured (a stop before the first): then there are no statistics,
    /// and to_json reports `no_samples: true` with null figures instead of zeros.
    bool has_samples() const { return iterations > 0; }
};

/// Runs one measurement. Throws RdmaError (verbs) or std::runtime_error (sockets) on failure.
BenchResult run_bench(const BenchOptions& options);

/// `bench --trace-wr`'s rounds when --trace-wr-rounds does not say.
inline constexpr int kDefaultTraceWrRounds = 3;

/// `--trace-wr`: runs `measure` untraced and with every work request traced, alternately `rounds` times
/// each, and returns the traced result (the median traced run's figures) with its WrTraceReport.
/// `measure` is run_bench or a two-host run; it gets the options with wr_tracer set or not.
/// `after_batch`, when set, is called on the drainer thread after each batch of records is folded (a live
/// view takes the folder's recent slice there).
BenchResult run_traced_comparison(const BenchOptions& options, int rounds,
                                  const std::function<BenchResult(const BenchOptions&)>& measure,
                                  const std::function<void(fast::PipelineFolder&)>& after_batch = {});

/// The stable JSON form documented in docs/bench-format.md.
nlohmann::json to_json(const BenchResult& result, bool with_samples = false);

/// Text table in the style of perftest's output.
std::string format_table(const std::vector<BenchResult>& results);

/// 2 B .. 8 MiB in powers of two.
std::vector<std::size_t> sweep_sizes();

/// Iterations for one size of a sweep: above 64 KiB the count shrinks in proportion to the size (large
/// messages take long, especially under emulation), never below 100 nor above `base`.
int sweep_iterations(int base, std::size_t size);

} // namespace rdmalab
