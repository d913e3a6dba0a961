#include "bench_common.hpp"

#include "rdmalab/trace.hpp"

#include <algorithm>

namespace rdmalab::bench_detail {

namespace {

/// The counter of the measurement running on this thread (see SyscallScope).
thread_local const SyscallCounter* t_syscalls = nullptr;

double seconds(const timeval& t) {
    return double(t.tv_sec) + double(t.tv_usec) / 1e6;
}

} // namespace

double now_us() {
    return double(monotonic_ns()) / 1000.0;
}

Usage Usage::take() {
    Usage u;
    getrusage(RUSAGE_SELF, &u.r);
    if (t_syscalls) u.syscalls = t_syscalls->read();
    return u;
}

CpuCost cpu_between(const Usage& a, const Usage& b, long messages) {
    CpuCost c;
    c.user_s = seconds(b.r.ru_utime) - seconds(a.r.ru_utime);
    c.sys_s = seconds(b.r.ru_stime) - seconds(a.r.ru_stime);
    c.voluntary_switches = b.r.ru_nvcsw - a.r.ru_nvcsw;
    c.involuntary_switches = b.r.ru_nivcsw - a.r.ru_nivcsw;
    const double n = double(std::max(1L, messages));
    c.user_us_per_msg = c.user_s * 1e6 / n;
    c.sys_us_per_msg = c.sys_s * 1e6 / n;
    c.switches_per_msg = double(c.voluntary_switches + c.involuntary_switches) / n;
    if (a.syscalls && b.syscalls) {
        c.syscalls = static_cast<long long>(*b.syscalls - *a.syscalls);
        c.syscalls_per_msg = double(c.syscalls) / n;
    }
    return c;
}

bool keep_going(const BenchOptions& o, long done, double start_us) {
    if (o.feed && o.feed->stop_requested()) return false;
    if (o.seconds > 0) return now_us() - start_us < o.seconds * 1e6;
    return done < o.iterations;
}

SyscallScope::SyscallScope() {
    t_syscalls = &counter_;
}

SyscallScope::~SyscallScope() {
    t_syscalls = nullptr;
}

void SyscallScope::explain(CpuCost& cpu) const {
    if (!cpu.syscalls_per_msg)
        cpu.syscalls_note = counter_.available() ? "the counter could not be read" : counter_.why();
}

} // namespace rdmalab::bench_detail
