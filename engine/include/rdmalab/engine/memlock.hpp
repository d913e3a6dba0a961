// The locked-memory limit of the process, lowered for a while and restored: what a lab needs to show the
// limit that memory registration runs into (RLIMIT_MEMLOCK) on a machine where the program runs as root.
#pragma once

#include "rdmalab/format/trace.hpp"

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <optional>

namespace rdmalab {

/// Lowers the soft RLIMIT_MEMLOCK to a given size and, while the object lives, keeps the calling thread
/// from ignoring it; the destructor restores both.
///
/// Why the capability: registering memory pins its pages, and the kernel (ib_umem_get) refuses the pin
/// with ENOMEM when the process's pinned pages would exceed RLIMIT_MEMLOCK *and* the caller lacks
/// CAP_IPC_LOCK. Root holds CAP_IPC_LOCK, so as root a lowered limit alone changes nothing. The object
/// therefore also clears CAP_IPC_LOCK from the *effective* set of the calling thread (capset(2); the
/// permitted set keeps it, so the destructor can raise it again).
///
/// Why per thread: Linux keeps capability sets per thread, and capset(2) changes only the caller's, while
/// the rlimit is the whole process's. So only registrations made on the thread that created the object
/// are held to the limit; a registration on another thread of a root process still passes. The lab runner
/// performs every step of a run on one thread of the run's own, which is why a lab can rely on it. The
/// destructor must run on the same thread (capset cannot change another thread's sets); elsewhere it
/// restores only the limit and traces why.
///
/// Beware: capset gives the thread new credentials, and the kernel refuses write()-based uverbs commands
/// (EACCES, ib_uverbs_write) on device files opened under other credentials, even after the capability is
/// raised again: use it on a thread whose earlier device files no longer matter (the runner's run thread).
///
/// Traced: `setrlimit` and `capset` verb events (data: the limits or the capability bit).
class LockedMemoryLimit {
  public:
    /// Sets the soft limit to `bytes` (the hard limit is left alone; a soft limit above it is EINVAL) and,
    /// when `drop_ipc_lock` and the thread holds CAP_IPC_LOCK in its effective set, clears it. Throws the
    /// explained RdmaError when a call fails, with nothing left changed.
    LockedMemoryLimit(std::uint64_t bytes, bool drop_ipc_lock, std::shared_ptr<Tracer> tracer);
    ~LockedMemoryLimit();
    LockedMemoryLimit(const LockedMemoryLimit&) = delete;
    LockedMemoryLimit& operator=(const LockedMemoryLimit&) = delete;

    /// The soft limit before, in bytes; nullopt when it was unlimited.
    std::optional<std::uint64_t> previous() const { return previous_; }
    std::uint64_t limit() const { return limit_; }
    /// The thread held CAP_IPC_LOCK in its effective set before.
    bool had_ipc_lock() const { return had_ipc_lock_; }
    /// The object cleared it (and will restore it).
    bool dropped_ipc_lock() const { return dropped_ipc_lock_; }

  private:
    void restore_capability() noexcept;
    std::shared_ptr<Tracer> tracer_;
    std::uint64_t limit_ = 0;
    std::uint64_t previous_soft_ = 0; ///< the raw rlim_cur (RLIM_INFINITY included)
    std::uint64_t hard_ = 0;
    std::optional<std::uint64_t> previous_;
    bool had_ipc_lock_ = false;
    bool dropped_ipc_lock_ = false;
    pid_t thread_ = 0;
};

/// Whether the calling thread has CAP_IPC_LOCK in its effective set (capget(2)); false when it cannot tell.
bool thread_has_ipc_lock();

} // namespace rdmalab
