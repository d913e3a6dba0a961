// Internal to the measurement code (bench/loopback.cpp, bench/remote_*.cpp, bench/loops.cpp): clocks, CPU
// and system-call accounting, the stall guard and the peer thread.
#pragma once

#include "rdmalab/engine/bench.hpp"
#include "rdmalab/engine/errors.hpp"
#include "rdmalab/engine/syscount.hpp"

#include <infiniband/verbs.h>
#include <sched.h>
#include <sys/resource.h>

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace rdmalab::bench_detail {

/// CLOCK_MONOTONIC in microseconds.
double now_us();

/// A getrusage snapshot.
struct Usage {
    rusage r{};
    static Usage take();
};

/// CPU between two snapshots, per message (system calls come from the SyscallScope).
CpuCost cpu_between(const Usage& a, const Usage& b, long messages);

/// Fixed count or duration, and the feed's stop request.
bool keep_going(const BenchOptions& o, long done, double start_us);

/// Thrown by Stall::tick when its abort flag is set: the wait ends because another thread failed or
/// the measurement is over, and that thread's error (if any) is the one to report.
struct StallAborted {};

/// Bounds a busy-wait on the device or the peer (a completion, a byte the peer writes): throws the
/// RdmaError `on_timeout` makes after `timeout_ms` without progress, or StallAborted once `*abort`
/// is set. Reads the clock and the flag every 4096 spins only, so the wait stays a tight loop.
class Stall {
  public:
    using TimeoutError = ErrorInfo (*)(int timeout_ms, const char* waiting_for);
    Stall(int timeout_ms, TimeoutError on_timeout, const std::atomic<bool>* abort = nullptr)
        : timeout_ms_(timeout_ms), on_timeout_(on_timeout), abort_(abort) {}
    /// Progress was made: the next wait starts its own clock.
    void reset() { spins_ = 0; }
    /// One more spin waiting for `waiting_for` ("RDMA_WRITE", "B's reply" ...).
    void tick(const char* waiting_for);
    /// One sleep on a completion channel ended without an event (event mode): checks the abort flag and
    /// the clock every time, since sleeps are few and long.
    void idle(const char* waiting_for);

  private:
    int timeout_ms_;
    TimeoutError on_timeout_;
    const std::atomic<bool>* abort_;
    unsigned spins_ = 0;
    double since_ = 0;
};

/// Busy-polls one completion; throws on a failed poll, an error status (naming `what`) or a stall.
ibv_wc poll_one(ibv_cq* cq, Stall& stall, const char* what);

/// How long one sleep on a completion channel lasts before the stall clock and the abort flag are read.
constexpr int kEventSleepSliceMs = 100;

/// Waits for one completion sleeping on `channel` (perftest's --events): polls; when the CQ is empty,
/// arms it (ibv_req_notify_cq), polls again (a completion written before the arming raises no event),
/// then sleeps in poll() on the channel's fd and takes the event (ibv_get_cq_event, ibv_ack_cq_events).
/// Throws as poll_one does.
ibv_wc wait_one(ibv_cq* cq, ibv_comp_channel* channel, Stall& stall, const char* what);

/// One completion of `cq`: wait_one on `channel` when there is one, else poll_one.
inline ibv_wc complete_one(ibv_cq* cq, ibv_comp_channel* channel, Stall& stall, const char* what) {
    return channel ? wait_one(cq, channel, stall, what) : poll_one(cq, stall, what);
}

/// The peer endpoint's loop (B) on a thread of its own. An exception must not leave a std::thread (that
/// ends the process), so the body's error is kept, `failed` is set for A's stalls to see, and finish()
/// rethrows it on A's thread. A body ended by StallAborted (A set `stop`) ended normally.
class PeerThread {
  public:
    PeerThread() = default;
    /// Stops and joins a body still running; never throws.
    ~PeerThread();
    PeerThread(const PeerThread&) = delete;
    PeerThread& operator=(const PeerThread&) = delete;
    void start(std::function<void()> body);
    /// Sets `stop`, waits for the body and rethrows its error, if it had one and `rethrow` is true. Call
    /// it on A's error path too: B's error, when B failed first, is the cause of A's. Pass false when
    /// B's error can only follow from A's (A closed the connection B was reading).
    void finish(bool rethrow = true);
    std::atomic<bool> stop{false};   ///< set by A: the measurement is over
    std::atomic<bool> failed{false}; ///< set by B: its error waits in finish()

  private:
    std::thread thread_;
    std::exception_ptr error_;
};

/// Throws an RdmaError naming sched_setaffinity unless `cpu` is one this process may run on.
void check_cpu(int cpu, const char* endpoint);

/// Pins the calling thread to one CPU while it lives and then restores its previous CPU set; nothing
/// happens for an empty optional.
class CpuPin {
  public:
    /// Checks the CPU first (check_cpu) and throws its RdmaError: for a thread that can report.
    CpuPin(std::optional<int> cpu, const char* endpoint);
    /// No check, and a failure to pin is ignored: for a peer thread, which cannot report. Check the
    /// CPU with check_cpu() on the reporting thread before starting it.
    explicit CpuPin(std::optional<int> cpu);
    ~CpuPin();
    CpuPin(const CpuPin&) = delete;
    CpuPin& operator=(const CpuPin&) = delete;

  private:
    static std::optional<int> checked(std::optional<int> cpu, const char* endpoint);
    cpu_set_t previous_{};
    bool pinned_ = false;
};

/// "A on CPU 0, B on CPU 1": the note a result carries when its endpoints were pinned.
std::string pinning_note(const BenchOptions& o, bool peer_is_thread);

/// Counts system calls per message over the warm-up iterations. Counting goes through the perf
/// tracepoint raw_syscalls:sys_enter, which slows every system call (by ~20 % of a TCP round trip in
/// the test bed), so the counter is closed when the warm-up ends and the measured iterations run
/// without it. The warm-up takes the same path, so its figure is the steady state's.
/// Open the scope on the measuring thread before the endpoint threads start (the counter inherits
/// into threads created later), then call warmup_begins() and warmup_ends() on that thread.
class SyscallScope {
  public:
    /// Opens the counter when there will be warm-up messages to count (`warmup` > 0); with none it
    /// opens nothing, since opening and closing the first counter makes the kernel register and
    /// unregister the tracepoint, which rewrites kernel code.
    explicit SyscallScope(int warmup);
    ~SyscallScope();
    SyscallScope(const SyscallScope&) = delete;
    SyscallScope& operator=(const SyscallScope&) = delete;
    /// Puts the figure into `cpu`, or says in `cpu.syscalls_note` why there is none.
    void explain(CpuCost& cpu) const;

  private:
    friend void warmup_begins();
    friend void warmup_ends(long messages);
    std::optional<SyscallCounter> counter_;
    std::string why_unavailable_;
    std::optional<std::uint64_t> at_begin_;
    long messages_ = -1;
    long long syscalls_ = -1;
};

/// The warm-up starts now (the measuring thread's SyscallScope, if any, reads its counter).
void warmup_begins();
/// The warm-up ended after `messages` messages: the scope keeps the count and closes its counter.
void warmup_ends(long messages);

/// Iterations, elapsed time, bandwidth, message rate and CPU per message of a bandwidth run into `r`.
void fill_bandwidth(BenchResult& r, long measured, double start_us, double end_us, const Usage& before,
                    const Usage& after);

/// What every measurement ends with, loopback or two-host: kind and CPUs, the system-call figure, the
/// pinning note, the feed's last progress and the stop and SoftRoCE notes. `peer_is_thread`: B is a
/// thread of this process (loopback), so B's CPU is part of the result.
void finish_result(const BenchOptions& o, const SyscallScope& syscalls, bool peer_is_thread, BenchResult& r);

/// What a TCP ping-pong measured: half round trips and the CPU and clock around the measured part.
struct PingPong {
    std::vector<double> half_rtt_us;
    Usage before, after;
    double start_us = 0, end_us = 0;
    long measured = 0;
    /// Iterations, elapsed time, latency statistics and CPU per message (two per round trip) into `r`.
    void fill(const BenchOptions& o, BenchResult& r) &&;
};

/// The TCP ping-pong loop of the loopback and the two-host measurement: `round_trip()` sends one
/// message and reads its echo. Warm-up round trips are not sampled (the system-call count covers
/// them); one sample is half a round trip, as sockperf's.
template <class RoundTrip> PingPong ping_pong(const BenchOptions& o, RoundTrip&& round_trip) {
    PingPong p;
    p.before = Usage::take();
    p.start_us = now_us();
    warmup_begins();
    for (long i = 0;; ++i) {
        if (i < o.warmup && o.feed && o.feed->stop_requested()) { // stopped in the warm-up: no samples
            warmup_ends(i * 2);
            p.before = Usage::take();
            p.start_us = now_us();
            break;
        }
        if (i == o.warmup) {
            warmup_ends(long(o.warmup) * 2);
            p.before = Usage::take();
            p.start_us = now_us();
        }
        if (i >= o.warmup && !keep_going(o, p.measured, p.start_us)) break;
        const double t0 = now_us();
        round_trip();
        if (i >= o.warmup) {
            const double t1 = now_us();
            p.half_rtt_us.push_back((t1 - t0) / 2);
            ++p.measured;
            if (o.feed) o.feed->add_sample(p.half_rtt_us.back(), t1);
        }
    }
    p.end_us = now_us();
    p.after = Usage::take();
    return p;
}

} // namespace rdmalab::bench_detail
