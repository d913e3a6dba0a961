// Counting system calls: how many times a measured loop enters the kernel, per message.
#pragma once

#include <cerrno>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>

namespace rdmalab {

/// Counts the system calls of the calling thread (and, by default, of every thread it creates
/// afterwards), with perf_event_open on the raw_syscalls:sys_enter tracepoint. Needs tracefs and
/// permission to count the tracepoint; when either is missing, available() is false and why() says what
/// is missing, so a report can print "not measured" with the reason instead of a number.
class SyscallCounter {
  public:
    enum class Threads {
        ThisAndLater, ///< this thread and the threads it creates afterwards (inherited)
        ThisOnly,     ///< this thread alone
    };
    explicit SyscallCounter(Threads threads = Threads::ThisAndLater);
    ~SyscallCounter();
    SyscallCounter(const SyscallCounter&) = delete;
    SyscallCounter& operator=(const SyscallCounter&) = delete;

    bool available() const { return fd_ >= 0; }
    const std::string& why() const { return why_; }
    /// System calls so far: this thread plus (ThisAndLater) the threads created after construction
    /// (running or exited). Empty when not available or the read fails. The read is itself a system
    /// call, counted in the value it returns (the tracepoint fires on entry, before the value is read).
    std::optional<std::uint64_t> read() const;

  private:
    int fd_ = -1;
    std::string why_;
};

/// What a SyscallMeter measured over one or more calls that one trace event shows.
struct SyscallTally {
    std::uint64_t count = 0;     ///< system calls made inside the counted calls, the bracket's own excluded
    std::uint64_t counted = 0;   ///< calls counted
    std::uint64_t uncounted = 0; ///< calls made while no meter was attached
    std::string why;             ///< non-empty: the count is not known, and why
};

/// Counts the system calls the calling thread makes inside single calls (one verb call each), for the
/// trace events that show them. It opens a SyscallCounter for the constructing thread only and brackets
/// each call between two reads of it. The second read is a system call that the difference includes, so
/// the meter measures an empty bracket at construction (bracket_cost(), 1 on Linux) and subtracts it.
class SyscallMeter {
  public:
    SyscallMeter();
    bool available() const { return why_.empty(); }
    const std::string& why() const { return why_; }
    /// System calls an empty bracket counts (the counter's own read); subtracted from every count.
    std::uint64_t bracket_cost() const { return bracket_cost_; }

    /// Runs `call` (returning a value) between two reads of the counter and adds the system calls made
    /// inside it to `tally`; errno is what `call` left. When the meter is not available, or `call` runs
    /// on another thread than the one counted, it only runs `call` and puts the reason into `tally`.
    template <typename Call> auto count(Call&& call, SyscallTally& tally) const {
        if (!usable_here(tally)) return call();
        const auto before = counter_.read();
        auto result = call();
        const int err = errno;
        const auto after = counter_.read();
        errno = err;
        add(before, after, tally);
        return result;
    }

  private:
    bool usable_here(SyscallTally& tally) const;
    void add(std::optional<std::uint64_t> before, std::optional<std::uint64_t> after,
             SyscallTally& tally) const;
    SyscallCounter counter_{SyscallCounter::Threads::ThisOnly};
    std::thread::id owner_ = std::this_thread::get_id();
    std::uint64_t bracket_cost_ = 0;
    std::string why_;
};

} // namespace rdmalab
