#include "bench/common.hpp"

#include "rdmalab/engine/errors.hpp"
#include "rdmalab/format/trace.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <pthread.h>

#include <algorithm>
#include <cerrno>
#include <utility>

namespace rdmalab::bench_detail {

namespace {

/// The system-call scope of the measurement running on this thread.
thread_local SyscallScope* t_scope = nullptr;

double seconds(const timeval& t) {
    return double(t.tv_sec) + double(t.tv_usec) / 1e6;
}

} // namespace

void Stall::tick(const char* waiting_for) {
    if ((++spins_ & 0xfff) != 0) return;
    if (abort_ && abort_->load(std::memory_order_relaxed)) throw StallAborted{};
    const double t = now_us();
    if (spins_ == 0x1000) since_ = t;
    if (t - since_ > timeout_ms_ * 1000.0) throw RdmaError(on_timeout_(timeout_ms_, waiting_for));
}

void Stall::idle(const char* waiting_for) {
    if (abort_ && abort_->load(std::memory_order_relaxed)) throw StallAborted{};
    const double t = now_us();
    if (spins_++ == 0) since_ = t;
    if (t - since_ > timeout_ms_ * 1000.0) throw RdmaError(on_timeout_(timeout_ms_, waiting_for));
}

ibv_wc wait_one(ibv_cq* cq, ibv_comp_channel* channel, Stall& stall, const char* what) {
    ibv_wc wc{};
    stall.reset();
    for (;;) {
        int n = ibv_poll_cq(cq, 1, &wc);
        if (n != 0) {
            if (n < 0) throw RdmaError(explain_errno("ibv_poll_cq", -n));
            break;
        }
        if (int ret = ibv_req_notify_cq(cq, 0); ret != 0)
            throw RdmaError(explain_errno("ibv_req_notify_cq", ret));
        // A completion written between the empty poll and the arming raises no event: look once more.
        n = ibv_poll_cq(cq, 1, &wc);
        if (n != 0) {
            if (n < 0) throw RdmaError(explain_errno("ibv_poll_cq", -n));
            break;
        }
        pollfd pfd{channel->fd, POLLIN, 0};
        const int ready = ::poll(&pfd, 1, kEventSleepSliceMs);
        if (ready < 0 && errno != EINTR)
            throw RdmaError(explain_errno("poll", errno, "sleeping on the completion channel"));
        if (ready <= 0) {
            stall.idle(what);
            continue;
        }
        ibv_cq* event_cq = nullptr;
        void* event_context = nullptr;
        if (ibv_get_cq_event(channel, &event_cq, &event_context) != 0)
            throw RdmaError(explain_errno("ibv_get_cq_event", errno));
        // Each event is acknowledged at once: the CQ can be destroyed whenever the measurement ends.
        ibv_ack_cq_events(event_cq, 1);
    }
    if (wc.status != IBV_WC_SUCCESS) throw RdmaError(explain_wc_status(wc.status, what));
    return wc;
}

ibv_wc poll_one(ibv_cq* cq, Stall& stall, const char* what) {
    ibv_wc wc{};
    int n;
    stall.reset();
    while ((n = ibv_poll_cq(cq, 1, &wc)) == 0)
        stall.tick(what);
    if (n < 0) throw RdmaError(explain_errno("ibv_poll_cq", -n));
    if (wc.status != IBV_WC_SUCCESS) throw RdmaError(explain_wc_status(wc.status, what));
    return wc;
}

PeerThread::~PeerThread() {
    stop.store(true);
    if (thread_.joinable()) thread_.join();
}

void PeerThread::start(std::function<void()> body) {
    thread_ = std::thread([this, body = std::move(body)] {
        try {
            body();
        } catch (const StallAborted&) {
            // A ended the measurement while B waited: a normal end.
        } catch (...) {
            error_ = std::current_exception();
            failed.store(true);
        }
    });
}

void PeerThread::finish(bool rethrow) {
    stop.store(true);
    if (thread_.joinable()) thread_.join();
    if (auto error = std::exchange(error_, nullptr); error && rethrow) std::rethrow_exception(error);
}

void PingPong::fill(const BenchOptions& o, BenchResult& r) && {
    r.iterations = measured;
    r.elapsed_s = (end_us - start_us) / 1e6;
    r.latency = compute_stats(std::move(half_rtt_us));
    if (!o.keep_samples) r.latency->samples.clear();
    r.cpu = cpu_between(before, after, measured * 2);
}

double now_us() {
    return double(monotonic_ns()) / 1000.0;
}

Usage Usage::take() {
    Usage u;
    getrusage(RUSAGE_SELF, &u.r);
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
    return c;
}

bool keep_going(const BenchOptions& o, long done, double start_us) {
    if (o.feed && o.feed->stop_requested()) return false;
    if (o.seconds > 0) return now_us() - start_us < o.seconds * 1e6;
    return done < o.iterations;
}

void check_cpu(int cpu, const char* endpoint) {
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        throw RdmaError(explain_errno("sched_getaffinity", errno, "reading the CPUs this process may use"));
    if (cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &allowed)) return;
    std::string list;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &allowed)) list += (list.empty() ? "" : ",") + std::to_string(c);
    throw RdmaError(ErrorInfo{
        .verb = "sched_setaffinity",
        .err = EINVAL,
        .code = "EINVAL",
        .meaning = "Invalid argument: no allowed CPU in the requested set",
        .cause = fmt::format(
            "Endpoint {} was asked to run on CPU {}, which this process may not use (it may use {}).",
            endpoint, cpu, list),
        .fix = fmt::format(
            "Pick CPUs from {} (see `nproc` and `taskset -p $$`), e.g. --cpus 0,1 on two CPUs.", list)});
}

std::optional<int> CpuPin::checked(std::optional<int> cpu, const char* endpoint) {
    if (cpu) check_cpu(*cpu, endpoint);
    return cpu;
}

CpuPin::CpuPin(std::optional<int> cpu) {
    if (!cpu) return;
    const pthread_t self = pthread_self();
    if (pthread_getaffinity_np(self, sizeof previous_, &previous_) != 0) return;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(*cpu, &one);
    pinned_ = pthread_setaffinity_np(self, sizeof one, &one) == 0;
}

CpuPin::CpuPin(std::optional<int> cpu, const char* endpoint) : CpuPin(checked(cpu, endpoint)) {}

CpuPin::~CpuPin() {
    if (pinned_) pthread_setaffinity_np(pthread_self(), sizeof previous_, &previous_);
}

std::string pinning_note(const BenchOptions& o, bool peer_is_thread) {
    if (!o.cpu_a && !o.cpu_b) return {};
    std::string text = o.cpu_a ? fmt::format("A pinned to CPU {}", *o.cpu_a) : "A not pinned";
    if (peer_is_thread) text += o.cpu_b ? fmt::format(", B to CPU {}", *o.cpu_b) : ", B not pinned";
    return text + " (--cpus)";
}

SyscallScope::SyscallScope(int warmup) {
    t_scope = this;
    if (warmup <= 0) return;
    counter_.emplace();
    if (!counter_->available()) {
        why_unavailable_ = counter_->why();
        counter_.reset();
    }
}

SyscallScope::~SyscallScope() {
    t_scope = nullptr;
}

void warmup_begins() {
    if (t_scope && t_scope->counter_) t_scope->at_begin_ = t_scope->counter_->read();
}

void warmup_ends(long messages) {
    SyscallScope* s = t_scope;
    if (!s || !s->counter_) return;
    const auto now = s->counter_->read();
    if (s->at_begin_ && now) {
        s->syscalls_ = static_cast<long long>(*now - *s->at_begin_);
        s->messages_ = messages;
    }
    s->counter_.reset(); // the measured iterations run without the tracepoint
}

void SyscallScope::explain(CpuCost& cpu) const {
    if (!why_unavailable_.empty()) {
        cpu.syscalls_note = why_unavailable_;
    } else if (messages_ > 0) {
        cpu.syscalls = syscalls_;
        cpu.syscalls_per_msg = double(syscalls_) / double(messages_);
        cpu.syscalls_note = fmt::format("counted over the {} warm-up messages (the counter slows system "
                                        "calls, so the measured ones run without it)",
                                        messages_);
    } else {
        cpu.syscalls_note = "not counted: system calls are counted during the warm-up, and there was none "
                            "(--warmup 0)";
    }
}

void fill_bandwidth(BenchResult& r, long measured, double start_us, double end_us, const Usage& before,
                    const Usage& after) {
    r.iterations = measured;
    r.elapsed_s = (end_us - start_us) / 1e6;
    const double bytes = double(measured) * double(r.size);
    r.bw_MBps = r.elapsed_s > 0 ? bytes / r.elapsed_s / 1e6 : 0;
    r.bw_Gbps = r.bw_MBps * 8 / 1000;
    r.msg_rate_Mpps = r.elapsed_s > 0 ? double(measured) / r.elapsed_s / 1e6 : 0;
    r.cpu = cpu_between(before, after, measured);
}

void finish_result(const BenchOptions& o, const SyscallScope& syscalls, bool peer_is_thread, BenchResult& r) {
    r.kind = o.kind;
    r.cpu_a = o.cpu_a;
    if (peer_is_thread) r.cpu_b = o.cpu_b;
    syscalls.explain(r.cpu);
    if (auto note = pinning_note(o, peer_is_thread); !note.empty()) r.notes.push_back(note);
    if (o.feed) {
        if (r.bw_MBps > 0) o.feed->progress(r.iterations, r.elapsed_s, 0);
        o.feed->publish();
    }
    if (o.feed && o.feed->stop_requested())
        r.notes.push_back(r.has_samples() ? "stopped early on request: fewer iterations than asked"
                                          : "stopped on request before the first measured iteration: no "
                                            "samples, so no statistics");
    if (r.software)
        r.notes.push_back("SoftRoCE: RDMA implemented in software by the kernel; not hardware numbers");
}

} // namespace rdmalab::bench_detail
