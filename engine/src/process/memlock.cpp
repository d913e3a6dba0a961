// LockedMemoryLimit: RLIMIT_MEMLOCK lowered with setrlimit(2), CAP_IPC_LOCK cleared from the calling
// thread's effective set with capset(2), both restored. The capability calls are the raw system calls
// (linux/capability.h): two words of bits, no library needed.
#include "rdmalab/engine/memlock.hpp"

#include "verbs/traced_call.hpp"

#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>

namespace rdmalab {

using namespace detail;

namespace {

constexpr unsigned kWord = CAP_IPC_LOCK / 32;
constexpr std::uint32_t kBit = 1U << (CAP_IPC_LOCK % 32);

struct CapabilitySets {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0}; // pid 0: the calling thread
    __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3]{};
};

int capget_thread(CapabilitySets& sets) {
    return static_cast<int>(syscall(SYS_capget, &sets.header, sets.data));
}

int capset_thread(CapabilitySets& sets) {
    return static_cast<int>(syscall(SYS_capset, &sets.header, sets.data));
}

pid_t this_thread() {
    return static_cast<pid_t>(syscall(SYS_gettid));
}

nlohmann::json limit_json(std::uint64_t value) {
    if (value == RLIM_INFINITY) return "unlimited";
    return value;
}

/// Sets CAP_IPC_LOCK in (raise) or out of (!raise) the calling thread's effective set, traced.
void set_ipc_lock(const TraceScope& scope, bool raise) {
    CapabilitySets sets;
    if (capget_thread(sets) != 0) {
        const int err = errno;
        fail(scope, explain_errno("capget", err, "reading the thread's capability sets", "读取线程的能力集"));
    }
    if (raise)
        sets.data[kWord].effective |= kBit;
    else
        sets.data[kWord].effective &= ~kBit;
    traced_call(
        VerbCall{.scope = scope, .verb = "capset"}, [&] { return capset_thread(sets); },
        [&](const auto&, nlohmann::json&, nlohmann::json& data) {
            data["args"] = {{"capability", "CAP_IPC_LOCK"},
                            {"set", "effective"},
                            {"thread", "calling"},
                            {"change", raise ? "raise" : "clear"}};
        },
        [&](const auto& call) {
            ErrorInfo info = explain_errno("capset", call.err, "CAP_IPC_LOCK in the effective set",
                                           "有效集中的 CAP_IPC_LOCK");
            if (raise && call.err == EPERM) {
                info.cause =
                    "CAP_IPC_LOCK is no longer in the thread's permitted set, so it cannot be raised "
                    "into the effective set again.";
                info.fix = "Restart the program to regain the capability.";
                info.zh.cause = "CAP_IPC_LOCK 已不在线程的许可集（permitted）中，因此无法再把它提升到有效集"
                                "（effective）中。";
                info.zh.fix = "重新启动程序，以重新获得这个能力。";
                info.seal();
            }
            return info;
        });
}

} // namespace

bool thread_has_ipc_lock() {
    CapabilitySets sets;
    return capget_thread(sets) == 0 && (sets.data[kWord].effective & kBit) != 0;
}

LockedMemoryLimit::LockedMemoryLimit(std::uint64_t bytes, bool drop_ipc_lock, std::shared_ptr<Tracer> tracer)
    : tracer_(std::move(tracer)), limit_(bytes), thread_(this_thread()) {
    const TraceScope scope{tracer_, Endpoint::None};
    rlimit old{};
    getrlimit(RLIMIT_MEMLOCK, &old);
    previous_soft_ = old.rlim_cur;
    hard_ = old.rlim_max;
    if (old.rlim_cur != RLIM_INFINITY) previous_ = old.rlim_cur;
    rlimit lowered = old;
    lowered.rlim_cur = bytes;
    traced_call(
        VerbCall{.scope = scope, .verb = "setrlimit"}, [&] { return setrlimit(RLIMIT_MEMLOCK, &lowered); },
        [&](const auto&, nlohmann::json&, nlohmann::json& data) {
            data["args"] = {
                {"resource", "RLIMIT_MEMLOCK"}, {"soft", bytes}, {"hard", limit_json(old.rlim_max)}};
            data["previous_soft"] = limit_json(old.rlim_cur);
        },
        [&](const auto& call) {
            ErrorInfo info = explain_errno("setrlimit", call.err, "RLIMIT_MEMLOCK");
            if (call.err == EINVAL && old.rlim_max != RLIM_INFINITY && bytes > old.rlim_max) {
                info.cause =
                    fmt::format("The soft limit asked for, {} bytes, is above the hard limit, {} bytes; "
                                "only a process with CAP_SYS_RESOURCE may raise the hard limit.",
                                bytes, old.rlim_max);
                info.fix = "Ask for a limit at or below the hard limit (`ulimit -H -l`).";
                info.zh.cause = fmt::format("申请的软限制 {} 字节高于硬限制 {} 字节；只有具备 "
                                            "CAP_SYS_RESOURCE 的进程才能调高硬限制。",
                                            bytes, old.rlim_max);
                info.zh.fix = "申请不超过硬限制的值（`ulimit -H -l`）。";
                info.seal();
            }
            return info;
        });
    had_ipc_lock_ = thread_has_ipc_lock();
    if (drop_ipc_lock && had_ipc_lock_) {
        try {
            set_ipc_lock(scope, false);
        } catch (...) {
            setrlimit(RLIMIT_MEMLOCK, &old); // nothing left changed
            throw;
        }
        dropped_ipc_lock_ = true;
    }
}

void LockedMemoryLimit::restore_capability() noexcept {
    if (!dropped_ipc_lock_) return;
    const TraceScope scope{tracer_, Endpoint::None};
    try {
        if (this_thread() != thread_) {
            // capset(2) changes only the calling thread's sets: the thread that dropped the capability
            // must raise it again. Say so rather than raising it on the wrong thread.
            if (scope.on())
                scope.record(EventKind::Error, "capset", {},
                             ErrorInfo{.verb = "capset",
                                       .err = 0,
                                       .code = "WRONG_THREAD",
                                       .meaning = "CAP_IPC_LOCK was cleared on another thread",
                                       .cause = "The locked-memory limit was released on a thread other than "
                                                "the one that lowered it; capabilities are per thread.",
                                       .fix = "Release it on the thread that created it.",
                                       .zh = {.meaning = "CAP_IPC_LOCK 是在另一个线程上清除的",
                                              .cause = "锁定内存上限是在另一个线程上释放的，而不是在降低它的"
                                                       "那个线程上；能力是按线程区分的。",
                                              .fix = "在创建它的那个线程上释放它。"}}
                                 .seal()
                                 .to_json());
            return;
        }
        set_ipc_lock(scope, true);
    } catch (...) {
        // Reported by the traced call; a destructor never throws.
    }
}

LockedMemoryLimit::~LockedMemoryLimit() {
    restore_capability();
    rlimit restored{};
    restored.rlim_cur = previous_soft_;
    restored.rlim_max = hard_;
    traced_release(
        TraceScope{tracer_, Endpoint::None}, "setrlimit",
        [&] { return setrlimit(RLIMIT_MEMLOCK, &restored); },
        [&](nlohmann::json&, nlohmann::json& data) {
            data["args"] = {{"resource", "RLIMIT_MEMLOCK"},
                            {"soft", limit_json(previous_soft_)},
                            {"hard", limit_json(hard_)}};
        });
}

} // namespace rdmalab
