#include "rdmalab/engine/syscount.hpp"

#include <fmt/format.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace rdmalab {

namespace {

/// The tracepoint's id, from whichever tracefs mount exists.
std::optional<long> sys_enter_id() {
    for (const char* dir : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}) {
        std::ifstream in(std::string(dir) + "/events/raw_syscalls/sys_enter/id");
        long id = -1;
        if (in >> id) return id;
    }
    return std::nullopt;
}

} // namespace

SyscallCounter::SyscallCounter(Threads threads) {
    const auto id = sys_enter_id();
    if (!id) {
        why_ = "tracefs is not mounted or has no raw_syscalls:sys_enter tracepoint (mount it: "
               "`mount -t tracefs tracefs /sys/kernel/tracing`, as root)";
        return;
    }
    perf_event_attr attr{};
    attr.type = PERF_TYPE_TRACEPOINT;
    attr.size = sizeof attr;
    attr.config = static_cast<std::uint64_t>(*id);
    // ThisAndLater: count the threads this thread starts (the peer thread of a loopback pair).
    attr.inherit = threads == Threads::ThisAndLater ? 1 : 0;
    attr.exclude_hv = 1;
    const long fd = syscall(SYS_perf_event_open, &attr, 0 /* this thread */, -1 /* any CPU */, -1, 0);
    if (fd < 0) {
        const int err = errno;
        why_ = fmt::format("perf_event_open(raw_syscalls:sys_enter) failed: {} ({}); counting a tracepoint "
                           "needs CAP_PERFMON or /proc/sys/kernel/perf_event_paranoid <= 1",
                           std::strerror(err), err);
        return;
    }
    fd_ = static_cast<int>(fd);
}

SyscallCounter::~SyscallCounter() {
    if (fd_ >= 0) ::close(fd_);
}

std::optional<std::uint64_t> SyscallCounter::read() const {
    if (fd_ < 0) return std::nullopt;
    std::uint64_t value = 0;
    if (::read(fd_, &value, sizeof value) != static_cast<ssize_t>(sizeof value)) return std::nullopt;
    return value;
}

} // namespace rdmalab
