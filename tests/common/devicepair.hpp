// The device fixture of the verbs-level suites (tst_verbs, tst_failures): two endpoints on one device, built
// by hand and connected on demand, with registered buffers, and the helpers that run a refused call or
// collect completions.
#pragma once

#include "rdmalab/engine/errors.hpp"
#include "rdmalab/engine/verbs.hpp"
#include "rdmalab/format/trace.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace rdmalab::test {

/// Local write and every remote right: what a region or a QP gets unless a case bends it.
inline constexpr unsigned kAllRemote =
    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;

/// How a DevicePair is built.
struct PairOptions {
    ibv_qp_type type = IBV_QPT_RC;
    QpCapacity capacity{};
    int cqe = 64;
    /// B's CQ reports completions through a completion channel (CompletionQueue::wait_event).
    bool channel_b = false;
};

/// Two endpoints, A and B, on the first device: a PD, a CQ and a QP each (the QPs in RESET), built by hand
/// so that each case can bend one thing. The tracer records every call into `sink`.
struct DevicePair {
    std::shared_ptr<Tracer> tracer = std::make_shared<Tracer>();
    std::shared_ptr<MemorySink> sink = std::make_shared<MemorySink>();
    std::shared_ptr<Context> context;
    int gid_index = 0; ///< port 1's RoCE v2 GID
    ibv_gid gid{};
    ibv_mtu mtu = IBV_MTU_1024; ///< port 1's active MTU
    std::shared_ptr<ProtectionDomain> pd_a, pd_b;
    std::shared_ptr<CompletionQueue> cq_a, cq_b;
    std::shared_ptr<QueuePair> qp_a, qp_b;

    explicit DevicePair(const PairOptions& options = {});

    /// The RTR path to `peer` on port 1, expecting `psn` (RNR timer 0.01 ms: RNR cases end quickly).
    PathInfo path_to(const QueuePair& peer, std::uint32_t psn = 0) const;
    /// Brings both QPs through INIT and RTR to RTS, each pointing at the other (connect_pair).
    void connect(const RtsParams& rts = {}, unsigned access = kAllRemote);
};

/// A connected RC pair with 4 KiB registered on each side: A's source (local write only, filled with 'a')
/// and B's destination (`dst_access`, zeroed).
struct ConnectedPair : DevicePair {
    std::shared_ptr<MemoryRegion> src, dst;

    explicit ConnectedPair(unsigned dst_access = kAllRemote, const RtsParams& rts = {},
                           const QpCapacity& capacity = {});

    /// A signaled RDMA WRITE of `length` bytes from the start of src to the start of dst.
    SendRequest write(std::uint64_t wr_id, std::uint32_t length = 64) const;
};

/// Runs `call`, which should throw RdmaError: its explanation, or nullopt when the call succeeded.
std::optional<ErrorInfo> failure_of(const std::function<void()>& call);

/// Polls `cq` until `count` completions arrived (or `timeout`), then briefly for any extra one.
std::vector<Completion> collect(CompletionQueue& cq, std::size_t count,
                                std::chrono::milliseconds timeout = std::chrono::seconds(10));

/// True when the first device is SoftRoCE (rxe), where some statuses differ from the IBTA's.
bool isRxe();

} // namespace rdmalab::test
