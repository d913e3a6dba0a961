// Counting system calls: how many times a measured loop enters the kernel, per message.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace rdmalab {

/// Counts the system calls of the calling thread and of every thread it creates afterwards, with
/// perf_event_open on the raw_syscalls:sys_enter tracepoint (inherited by new threads). Needs tracefs
/// and permission to count the tracepoint; when either is missing, available() is false and why()
/// says what is missing, so a report can print "not measured" with the reason instead of a number.
class SyscallCounter {
  public:
    SyscallCounter();
    ~SyscallCounter();
    SyscallCounter(const SyscallCounter&) = delete;
    SyscallCounter& operator=(const SyscallCounter&) = delete;

    bool available() const { return fd_ >= 0; }
    const std::string& why() const { return why_; }
    /// System calls so far: this thread plus the threads created after construction (running or
    /// exited). Empty when not available or the read fails.
    std::optional<std::uint64_t> read() const;

  private:
    int fd_ = -1;
    std::string why_;
};

} // namespace rdmalab
