// Internal to the measurement code (bench.cpp, bench_remote.cpp): clocks, CPU and system-call accounting.
#pragma once

#include "rdmalab/bench.hpp"
#include "rdmalab/syscount.hpp"

#include <sched.h>
#include <sys/resource.h>

#include <cstdint>
#include <optional>
#include <string>

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

} // namespace rdmalab::bench_detail
