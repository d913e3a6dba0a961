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

/// A getrusage snapshot, plus the system calls so far when a SyscallScope is open on this thread.
struct Usage {
    rusage r{};
    std::optional<std::uint64_t> syscalls;
    static Usage take();
};

/// CPU and system calls between two snapshots, per message.
CpuCost cpu_between(const Usage& a, const Usage& b, long messages);

/// Fixed count or duration, and the feed's stop request.
bool keep_going(const BenchOptions& o, long done, double start_us);

/// Throws an RdmaError naming sched_setaffinity unless `cpu` is one this process may run on.
void check_cpu(int cpu, const char* endpoint);

/// Pins the calling thread to one CPU while it lives and then restores its previous CPU set; nothing
/// happens for an empty optional. Check the CPU with check_cpu() first: a failure here is ignored,
/// because peer threads cannot report it.
class CpuPin {
  public:
    explicit CpuPin(std::optional<int> cpu);
    ~CpuPin();
    CpuPin(const CpuPin&) = delete;
    CpuPin& operator=(const CpuPin&) = delete;

  private:
    cpu_set_t previous_{};
    bool pinned_ = false;
};

/// "A on CPU 0, B on CPU 1": the note a result carries when its endpoints were pinned.
std::string pinning_note(const BenchOptions& o, bool peer_is_thread);

/// Counts system calls for one measurement: open it on the measuring thread before the endpoint
/// threads start (the counter inherits into threads created later); Usage::take() then reads it.
class SyscallScope {
  public:
    SyscallScope();
    ~SyscallScope();
    SyscallScope(const SyscallScope&) = delete;
    SyscallScope& operator=(const SyscallScope&) = delete;
    /// Says why system calls are missing from `cpu`, if they are.
    void explain(CpuCost& cpu) const;

  private:
    SyscallCounter counter_;
};

} // namespace rdmalab::bench_detail
