// perftest's method, once: A's half of the measured loops (RDMA latency and bandwidth, the TCP stream),
// used by the loopback measurement (B is a PeerThread on the same device) and by the two-host one (B is
// another process, reached through rdma_cm or TCP). The callers set up the endpoints and B's half.
#pragma once

#include "bench/common.hpp"

#include "rdmalab/engine/bench.hpp"
#include "rdmalab/engine/verbs.hpp"

#include <infiniband/verbs.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace rdmalab::bench_detail {

/// Above this size every bandwidth work request is signaled (perftest's MSG_SIZE_CQ_MOD_LIMIT).
constexpr std::size_t kSignalEveryAbove = 8192;
/// Largest signaling interval (perftest's default cq_mod, DEF_CQ_MOD).
constexpr int kMaxSignalInterval = 100;
/// Receive work requests kept posted for send_lat on each side, as ib_send_lat (rx depth 512, at most the
/// number of iterations).
constexpr long kSendLatRecvDepth = 512;
/// Queue depth of the other latency kinds: one request in flight and a few to spare.
constexpr int kLatencyDepth = 4;
/// One bandwidth work request in this many is signaled: perftest's cq_mod (100, at most its tx depth) and,
/// above 8 KiB, every one ("to prevent incorrect BW calculation"). With the default window of 64, one in
/// 32 keeps the send queue from draining before a completion frees it.
inline long signal_interval(int window, std::size_t size) {
    return size > kSignalEveryAbove ? 1 : std::max(1, std::min(window / 2, kMaxSignalInterval));
}
/// Receives posted beyond the window for send_bw, so a SEND never arrives before B re-posts.
constexpr int kSendBwSpareRecvs = 2;
/// Receives B keeps posted for send_bw.
inline int send_bw_recvs(int window) {
    return window + kSendBwSpareRecvs;
}
/// write_lat's last byte: tags run 1..254 and 255 ends a two-host run (perftest's (char)++scnt wraps at
/// 256; the tag only has to differ from the previous one).
constexpr std::uint8_t kStopTag = 0xff;
inline std::uint8_t write_lat_tag(long i) {
    return static_cast<std::uint8_t>(i % (kStopTag - 1) + 1);
}
/// RNR NAK timer of the receive side (perftest's MIN_RNR_TIMER, 0.64 ms).
constexpr std::uint8_t kMinRnrTimer = 12;

/// Every region and QP of a measurement grants all access: each kind uses the same setup.
constexpr unsigned kAccess =
    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;

/// Outstanding RDMA READs and atomics per QP: the device's limit, at most 16 (the largest a QP attribute
/// takes on the NICs perftest knows).
inline std::uint8_t rd_atomic_depth(int max_qp_rd_atom) {
    return static_cast<std::uint8_t>(std::clamp(max_qp_rd_atom, 1, 16));
}

/// Completion queue entries for a queue depth.
inline int cq_entries(int depth) {
    return depth * 2 + 16;
}
/// QP capacity for a queue depth: no inline data (perftest inlines only on NICs it recognises).
QpCapacity queue_capacity(int depth);
/// send_lat's receive depth for these options (fixed count: at most the iterations, at least 2).
int send_lat_recv_depth(const BenchOptions& o);

/// ibv_post_send, throwing the explained error.
void post_send(ibv_qp* qp, ibv_send_wr& wr);
/// One receive of `size` bytes at the start of `mr`.
void post_recv(ibv_qp* qp, const MemoryRegion& mr, std::size_t size);

/// A latency work request from `local` to the peer's region: the source is [size, 2 size) of `local`,
/// the destination [0, size) of the peer's; the opcode follows `kind` (atomics: fetch-and-add 1).
ibv_send_wr latency_wr(BenchKind kind, const MemoryRegion& local, std::uint64_t peer_addr,
                       std::uint32_t peer_rkey, std::size_t size, ibv_sge& sge);

/// Writes one event of A's loop into the binary tier when BenchOptions::wr_tracer asks for it: a branch
/// when it does not, a clock read and a 32-byte store when it does.
class WrRecorder {
  public:
    WrRecorder(const BenchOptions& o, const ibv_qp* qp)
        : ring_(o.wr_tracer ? &o.wr_tracer->ring() : nullptr), qpn_(qp->qp_num) {}
    void operator()(fast::RecordKind kind, std::uint64_t wr_id = 0, std::uint32_t length = 0,
                    std::uint16_t code = 0, std::uint32_t aux = 0) const noexcept {
        if (ring_ != nullptr)
            ring_->push(fast::Record{fast::Clock::now(), wr_id, qpn_, length, kind, code, aux});
    }

  private:
    fast::Ring* ring_;
    std::uint32_t qpn_;
};

/// A's end of an RDMA measurement and the peer's region.
struct RdmaEnd {
    ibv_qp* qp = nullptr;
    ibv_cq* scq = nullptr;
    ibv_cq* rcq = nullptr;
    const MemoryRegion* mr = nullptr; ///< latency: [0, size) the peer writes, [size, 2 size) the source
    std::uint64_t peer_addr = 0;
    std::uint32_t peer_rkey = 0;
    /// Event mode (BenchOptions::completion_events): the channels of scq and rcq; null: busy polling.
    ibv_comp_channel* scq_channel = nullptr;
    ibv_comp_channel* rcq_channel = nullptr;
};

/// A's latency loop (ib_*_lat's client): warm-up, one sample from one post to the next, the feed's
/// samples and stop. send_lat's receives must be posted (send_lat_recv_depth) and B must be answering.
/// Fills size, basis, iterations, elapsed time, statistics and CPU per message of the result.
BenchResult latency_loop(const BenchOptions& o, const RdmaEnd& a, std::size_t size, Stall& stall);

/// A's bandwidth loop (ib_*_bw's client): a window of outstanding requests, one in
/// min(window / 2, 100) signaled (every one above 8 KiB); the feed's progress and stop.
BenchResult bandwidth_loop(const BenchOptions& o, const RdmaEnd& a, std::size_t size, Stall& stall);

/// What tcp_bw's sender measured.
struct StreamRun {
    long measured = 0;
    double start_us = 0, end_us = 0;
    Usage before, after;
};

/// tcp_bw's sender: the warm-up messages, then `send_one()` until the count or the time is reached; the
/// clock stops when `await_all(total)` returns (B has every message). `await_warmup(sent)` returns when B
/// has the warm-up; `delivered(warm, measured)` is the measured messages the progress reports. A stop
/// request ends the warm-up too when `stop_in_warmup` (the two-host protocol expects every warm-up
/// message).
template <class Send, class AwaitWarmup, class AwaitAll, class Delivered>
StreamRun stream(const BenchOptions& o, bool stop_in_warmup, Send&& send_one, AwaitWarmup&& await_warmup,
                 AwaitAll&& await_all, Delivered&& delivered) {
    StreamRun s;
    warmup_begins();
    long warm = 0; // bench.stop ends the warm-up too: then nothing is measured
    for (; warm < o.warmup && !(stop_in_warmup && o.feed && o.feed->stop_requested()); ++warm)
        send_one();
    await_warmup(warm);
    warmup_ends(warm);
    s.before = Usage::take();
    s.start_us = now_us();
    while (keep_going(o, s.measured, s.start_us)) {
        send_one();
        ++s.measured;
        if (o.feed && (s.measured & 63) == 0) {
            const double t = now_us();
            o.feed->progress(std::max(0L, delivered(warm, s.measured)), (t - s.start_us) / 1e6, t);
        }
    }
    await_all(warm + s.measured);
    s.end_us = now_us();
    s.after = Usage::take();
    return s;
}

} // namespace rdmalab::bench_detail
