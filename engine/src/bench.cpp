#include "rdmalab/bench.hpp"

#include "bench_common.hpp"

#include "rdmalab/device.hpp"
#include "rdmalab/errors.hpp"
#include "rdmalab/names.hpp"
#include "rdmalab/syscount.hpp"
#include "rdmalab/trace.hpp"
#include "rdmalab/verbs.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <deque>
#include <numeric>

namespace rdmalab {

namespace {

using bench_detail::cpu_between;
using bench_detail::CpuPin;
using bench_detail::keep_going;
using bench_detail::now_us;
using bench_detail::PeerThread;
using bench_detail::poll_one;
using bench_detail::Stall;
using bench_detail::Usage;
using bench_detail::warmup_begins;
using bench_detail::warmup_ends;


/// How long a loopback wait may see no progress. Both endpoints are on this host, so only a device that
/// stopped completing (or a stuck peer thread) waits that long: an 8 MiB WRITE on SoftRoCE under
/// emulation takes well under a second.
constexpr int kLoopbackStallMs = 30000;

ErrorInfo loopback_stall_error(int timeout_ms, const char* waiting_for) {
    return {
        "ibv_poll_cq",
        ETIMEDOUT,
        "ETIMEDOUT",
        errno_text(ETIMEDOUT),
        fmt::format("No progress on {} for {} s. Both endpoints are on this device, so the device stopped "
                    "completing work requests (for SoftRoCE: its network interface went down, or "
                    "rdma_rxe was unloaded).",
                    waiting_for, timeout_ms / 1000.0),
        "Check the port with `rdmalab-cli devices` (state PORT_ACTIVE) and, for SoftRoCE, its interface "
        "with `ip link`; then run the measurement again."};
}

ErrorInfo loopback_tcp_stall_error(int timeout_ms, const char* waiting_for) {
    return {"recv",
            ETIMEDOUT,
            "ETIMEDOUT",
            errno_text(ETIMEDOUT),
            fmt::format("No progress on {} for {} s: the loopback TCP connection between A and B stopped "
                        "moving data.",
                        waiting_for, timeout_ms / 1000.0),
            "Run the measurement again; if it repeats, look at the two sockets with `ss -tni`."};
}

/// Two endpoints on one device, RC-connected, untraced: the measured loops use raw verbs on these objects.
struct Pair {
    std::shared_ptr<Context> context;
    std::shared_ptr<ProtectionDomain> pd_a, pd_b;
    std::shared_ptr<CompletionQueue> scq_a, rcq_a, scq_b, rcq_b;
    std::shared_ptr<QueuePair> qp_a, qp_b;
    std::shared_ptr<MemoryRegion> mr_a, mr_b;
    std::string device;
    bool software = false;

    Pair(const BenchOptions& o, std::size_t region_size, int depth) {
        context = Context::open(o.device, nullptr);
        device = context->device_name();
        for (const auto& d : list_devices())
            if (d.name == device) software = d.software;
        context->require_active_port(1);
        const int gid_index = context->rocev2_gid_index(1);
        const ibv_gid gid = context->query_gid(1, gid_index);
        const auto attr = context->query_device();
        const auto rd = static_cast<std::uint8_t>(std::clamp(attr.max_qp_rd_atom, 1, 16));
        pd_a = ProtectionDomain::alloc(context, Endpoint::A);
        pd_b = ProtectionDomain::alloc(context, Endpoint::B);
        const int cqe = depth * 2 + 16;
        scq_a = CompletionQueue::create(context, Endpoint::A, cqe);
        rcq_a = CompletionQueue::create(context, Endpoint::A, cqe);
        scq_b = CompletionQueue::create(context, Endpoint::B, cqe);
        rcq_b = CompletionQueue::create(context, Endpoint::B, cqe);
        QpCapacity cap;
        cap.max_send_wr = static_cast<std::uint32_t>(depth + 4);
        cap.max_recv_wr = static_cast<std::uint32_t>(depth + 4);
        cap.max_inline_data = 0;
        qp_a = QueuePair::create(pd_a, scq_a, rcq_a, IBV_QPT_RC, cap);
        qp_b = QueuePair::create(pd_b, scq_b, rcq_b, IBV_QPT_RC, cap);
        const unsigned access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
                                IBV_ACCESS_REMOTE_ATOMIC;
        if (auto shortfall = explain_memory_shortfall(
                2 * std::uint64_t(region_size), fmt::format("A's and B's {}-byte regions", region_size)))
            throw RdmaError(std::move(*shortfall));
        mr_a = MemoryRegion::allocate(pd_a, region_size, access);
        mr_b = MemoryRegion::allocate(pd_b, region_size, access);
        const ibv_mtu mtu = context->query_port(1).active_mtu;
        PathInfo path;
        path.remote_gid = gid;
        path.sgid_index = gid_index;
        path.path_mtu = mtu;
        path.max_dest_rd_atomic = rd;
        RtsParams rts;
        rts.max_rd_atomic = rd;
        connect_pair(*qp_a, *qp_b, 1, access, path, rts);
    }
};

void post(ibv_qp* qp, ibv_send_wr& wr) {
    ibv_send_wr* bad = nullptr;
    if (int ret = ibv_post_send(qp, &wr, &bad); ret != 0)
        throw RdmaError(explain_errno("ibv_post_send", ret));
}

void post_recv(ibv_qp* qp, const MemoryRegion& mr, std::size_t size) {
    ibv_sge sge{mr.address(), static_cast<std::uint32_t>(std::max<std::size_t>(size, 1)), mr.lkey()};
    ibv_recv_wr wr{};
    wr.sg_list = &sge;
    wr.num_sge = 1;
    ibv_recv_wr* bad = nullptr;
    if (int ret = ibv_post_recv(qp, &wr, &bad); ret != 0)
        throw RdmaError(explain_errno("ibv_post_recv", ret));
}

// ------------------------------------------------------------------ RDMA latency

/// Receive work requests kept posted for send_lat on each side, as perftest's ib_send_lat (rx_depth 512,
/// at most the number of iterations).
constexpr long kSendLatRecvDepth = 512;

BenchResult rdma_latency(const BenchOptions& o) {
    const std::size_t size = o.kind == BenchKind::AtomicLat ? 8 : std::max<std::size_t>(o.size, 1);
    const long total_planned = o.seconds > 0 ? -1 : long(o.warmup) + o.iterations;
    const int recv_depth =
        o.kind != BenchKind::SendLat
            ? 4
            : static_cast<int>(total_planned > 0 ? std::clamp(total_planned, 2L, kSendLatRecvDepth)
                                                 : kSendLatRecvDepth);
    // Each region: [0, size) is where the peer writes; [size, 2 size) is the local source.
    Pair pair(o, 2 * size, recv_depth);
    BenchResult r;
    r.device = pair.device;
    r.software = pair.software;
    r.size = size;
    std::vector<double> samples;
    samples.reserve(static_cast<std::size_t>(std::max(o.iterations, 1)));
    auto make_wr = [&](const MemoryRegion& local, const MemoryRegion& remote, ibv_sge& sge) {
        sge = {local.address() + size, static_cast<std::uint32_t>(size), local.lkey()};
        ibv_send_wr wr{};
        wr.sg_list = &sge;
        wr.num_sge = 1;
        wr.send_flags = IBV_SEND_SIGNALED;
        wr.wr.rdma.remote_addr = remote.address();
        wr.wr.rdma.rkey = remote.rkey();
        return wr;
    };
    ibv_sge sge_a{}, sge_b{};
    ibv_send_wr wr_a = make_wr(*pair.mr_a, *pair.mr_b, sge_a);
    ibv_send_wr wr_b = make_wr(*pair.mr_b, *pair.mr_a, sge_b);
    volatile std::uint8_t* a_in = pair.mr_a->data() + size - 1; // last byte B writes into A
    volatile std::uint8_t* b_in = pair.mr_b->data() + size - 1;
    std::uint8_t* a_src_last = pair.mr_a->data() + 2 * size - 1;
    std::uint8_t* b_src_last = pair.mr_b->data() + 2 * size - 1;
    ibv_qp* qa = pair.qp_a->get();
    ibv_qp* qb = pair.qp_b->get();
    const bool one_sided_full = o.kind == BenchKind::ReadLat || o.kind == BenchKind::AtomicLat;
    r.latency_basis = one_sided_full ? "full round trip (one operation, as ib_read_lat/ib_atomic_lat)"
                                     : "half round trip (ping-pong / 2, as ib_send_lat/ib_write_lat)";
    // B's waits end when A sets peer.stop; A's end when B has failed (peer.failed).
    PeerThread peer;
    Stall a_stall{kLoopbackStallMs, loopback_stall_error, &peer.failed};
    auto repost_after = [&](long received) {
        return total_planned < 0 || received + recv_depth <= total_planned;
    };

    if (o.kind == BenchKind::WriteLat) {
        wr_a.opcode = wr_b.opcode = IBV_WR_RDMA_WRITE;
        peer.start([&] {
            const CpuPin pin_b(o.cpu_b);
            Stall stall{kLoopbackStallMs, loopback_stall_error, &peer.stop};
            for (long i = 0;; ++i) {
                const auto tag = static_cast<std::uint8_t>(i % 255 + 1);
                stall.reset();
                while (*b_in != tag)
                    stall.tick("A's RDMA WRITE");
                *b_src_last = tag;
                post(qb, wr_b);
                poll_one(pair.scq_b->get(), stall, "B's RDMA_WRITE");
                if (total_planned > 0 && i + 1 >= total_planned) return;
            }
        });
    } else if (o.kind == BenchKind::SendLat) {
        wr_a.opcode = wr_b.opcode = IBV_WR_SEND;
        for (int i = 0; i < recv_depth; ++i) {
            post_recv(qa, *pair.mr_a, size);
            post_recv(qb, *pair.mr_b, size);
        }
        // B as ib_send_lat's server: wait for the receive completion, post the receive again, send the
        // reply and wait for its send completion. As perftest, a receive is posted again only while
        // the posted ones do not cover the remaining iterations (rcnt + rx_depth <= iters).
        peer.start([&] {
            const CpuPin pin_b(o.cpu_b);
            Stall stall{kLoopbackStallMs, loopback_stall_error, &peer.stop};
            for (long i = 0;; ++i) {
                poll_one(pair.rcq_b->get(), stall, "RECV of A's SEND");
                if (repost_after(i + 1)) post_recv(qb, *pair.mr_b, size);
                post(qb, wr_b);
                poll_one(pair.scq_b->get(), stall, "B's SEND");
                if (total_planned > 0 && i + 1 >= total_planned) return;
            }
        });
    } else if (o.kind == BenchKind::ReadLat) {
        wr_a.opcode = IBV_WR_RDMA_READ;
        wr_a.sg_list->addr = pair.mr_a->address(); // read B's [0,size) into A's [0,size)
    } else {
        wr_a.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
        wr_a.wr.atomic.remote_addr = pair.mr_b->address();
        wr_a.wr.atomic.rkey = pair.mr_b->rkey();
        wr_a.wr.atomic.compare_add = 1;
    }

    // As perftest: one sample is the time from one post to the next (tposted[i+1] - tposted[i]), so
    // everything the loop does between two posts is part of it.
    Usage u0, u1;
    double start = 0, end = 0, prev_post = 0;
    long measured = 0;
    const long messages_per_iteration = one_sided_full ? 1 : 2;
    warmup_begins();
    try {
        for (long i = 0;; ++i) {
            if (i < o.warmup && o.feed && o.feed->stop_requested()) { // stopped in the warm-up: no samples
                warmup_ends(i * messages_per_iteration);
                u0 = Usage::take();
                start = end = now_us();
                break;
            }
            if (i == o.warmup) {
                warmup_ends(o.warmup * messages_per_iteration);
                u0 = Usage::take();
            }
            const double t = now_us(); // this iteration's post time (perftest's tposted[i])
            if (i > o.warmup) {
                const double dt = t - prev_post;
                samples.push_back(one_sided_full ? dt : dt / 2);
                ++measured;
                if (o.feed) o.feed->add_sample(samples.back(), t);
            }
            if (i == o.warmup) start = t;
            if (i >= o.warmup && !keep_going(o, measured, start)) {
                end = t;
                break;
            }
            prev_post = t;
            const auto tag = static_cast<std::uint8_t>(i % 255 + 1);
            if (o.kind == BenchKind::WriteLat) {
                // ib_write_lat's client: post the WRITE, wait for its completion, then for the peer's.
                *a_src_last = tag;
                post(qa, wr_a);
                poll_one(pair.scq_a->get(), a_stall, "RDMA_WRITE");
                a_stall.reset();
                while (*a_in != tag)
                    a_stall.tick("B's RDMA WRITE reply");
            } else if (o.kind == BenchKind::SendLat) {
                // ib_send_lat's client: post the SEND, wait for its completion, then for the reply's
                // receive completion, and post that receive again if still needed.
                post(qa, wr_a);
                poll_one(pair.scq_a->get(), a_stall, "SEND");
                poll_one(pair.rcq_a->get(), a_stall, "RECV of B's reply");
                if (repost_after(i + 1)) post_recv(qa, *pair.mr_a, size);
            } else {
                post(qa, wr_a);
                poll_one(pair.scq_a->get(), a_stall,
                         o.kind == BenchKind::ReadLat ? "RDMA_READ" : "ATOMIC_FETCH_AND_ADD");
            }
        }
    } catch (...) {
        peer.finish(); // rethrows B's error if B failed first: that is the cause of A's
        throw;
    }
    u1 = Usage::take();
    peer.finish();
    r.iterations = measured;
    r.elapsed_s = (end - start) / 1e6;
    r.latency = compute_stats(std::move(samples));
    r.cpu = cpu_between(u0, u1, measured * messages_per_iteration);
    if (!o.keep_samples) r.latency->samples.clear();
    r.notes.push_back(
        "A and B are two threads of one process on one device, each busy-polling (perftest uses "
        "two processes); CPU figures cover both");
    r.notes.push_back("one sample is the time from one post to the next, as perftest; every work request is "
                      "signaled and no data is sent inline (perftest inlines small messages only on NICs it "
                      "recognises, none on rxe)");
    if (o.kind == BenchKind::SendLat)
        r.notes.push_back(
            fmt::format("{} receives kept posted on each side (as ib_send_lat's rx depth), posted again only "
                        "while they do not cover the remaining iterations",
                        recv_depth));
    return r;
}

// ------------------------------------------------------------------ RDMA bandwidth

/// Above this size every bandwidth work request is signaled (perftest's MSG_SIZE_CQ_MOD_LIMIT).
constexpr std::size_t kSignalEveryAbove = 8192;
/// Largest signaling interval (perftest's default cq_mod).
constexpr int kMaxSignalInterval = 100;

BenchResult rdma_bandwidth(const BenchOptions& o) {
    const std::size_t size = std::max<std::size_t>(o.size, 1);
    const int window = std::max(1, o.window);
    Pair pair(o, size, window);
    BenchResult r;
    r.device = pair.device;
    r.software = pair.software;
    r.size = size;
    ibv_sge sge{pair.mr_a->address(), static_cast<std::uint32_t>(size), pair.mr_a->lkey()};
    ibv_send_wr wr{};
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.opcode = o.kind == BenchKind::WriteBw  ? IBV_WR_RDMA_WRITE
                : o.kind == BenchKind::ReadBw ? IBV_WR_RDMA_READ
                                              : IBV_WR_SEND;
    wr.wr.rdma.remote_addr = pair.mr_b->address();
    wr.wr.rdma.rkey = pair.mr_b->rkey();
    ibv_qp* qa = pair.qp_a->get();
    PeerThread receiver; // SEND: B re-posts a receive for each one completed
    Stall a_stall{kLoopbackStallMs, loopback_stall_error, &receiver.failed};
    if (o.kind == BenchKind::SendBw) {
        for (int i = 0; i < window + 2; ++i)
            post_recv(pair.qp_b->get(), *pair.mr_b, size);
        receiver.start([&] {
            const CpuPin pin_b(o.cpu_b);
            ibv_wc wcs[16];
            while (!receiver.stop.load(std::memory_order_relaxed)) {
                const int n = ibv_poll_cq(pair.rcq_b->get(), 16, wcs);
                if (n < 0) throw RdmaError(explain_errno("ibv_poll_cq", -n));
                for (int k = 0; k < n; ++k) {
                    if (wcs[k].status != IBV_WC_SUCCESS)
                        throw RdmaError(explain_wc_status(wcs[k].status, "RECV of A's SEND"));
                    post_recv(pair.qp_b->get(), *pair.mr_b, size);
                }
            }
        });
    }
    // perftest signals one work request in cq_mod (100, at most its tx depth) and, above 8 KiB, every
    // one ("to prevent incorrect BW calculation"). With the default window of 64, one in 32 keeps the
    // send queue from draining before a completion frees it.
    const long signal_every =
        size > kSignalEveryAbove ? 1 : std::max(1, std::min(window / 2, kMaxSignalInterval));
    std::deque<long> signaled_upto;              // posted-count at each signaled request, oldest first
    long target = long(o.warmup) + o.iterations; // work requests to post (fixed-count mode)
    long posted = 0, completed = 0, measured_from = 0;
    Usage u0 = Usage::take(), u1;
    double start = now_us(), end = start;
    bool started = false, stopped = false;
    warmup_begins();
    ibv_wc wcs[16];
    try {
        for (;;) {
            // The warm-up ends when its requests have completed (at once without one), before the next post.
            if (!started && completed >= o.warmup) {
                warmup_ends(posted); // each post is the doorbell's system call on rxe
                started = true;
                measured_from = completed;
                if (o.seconds <= 0) target = measured_from + o.iterations;
                u0 = Usage::take();
                start = now_us();
            }
            const bool stop_asked = o.feed && o.feed->stop_requested();
            const bool more = stop_asked      ? false
                              : o.seconds > 0 ? (!started || now_us() - start < o.seconds * 1e6)
                                              : posted < target;
            while (more && posted - completed < window && (o.seconds > 0 || posted < target)) {
                // Signal one request in `signal_every` (perftest's cq_mod): a completion stands for the
                // unsignaled requests before it, since an RC send queue completes in order.
                const bool last = o.seconds <= 0 && posted + 1 == target;
                wr.send_flags = ((posted + 1) % signal_every == 0 || last) ? IBV_SEND_SIGNALED : 0;
                post(qa, wr);
                ++posted;
                if (wr.send_flags) signaled_upto.push_back(posted);
            }
            const int n = ibv_poll_cq(pair.scq_a->get(), 16, wcs);
            if (n < 0) throw RdmaError(explain_errno("ibv_poll_cq", -n));
            if (n == 0)
                a_stall.tick("a bandwidth completion");
            else
                a_stall.reset();
            for (int k = 0; k < n; ++k) {
                if (wcs[k].status != IBV_WC_SUCCESS)
                    throw RdmaError(explain_wc_status(wcs[k].status, "bandwidth"));
                completed = signaled_upto.front();
                signaled_upto.pop_front();
            }
            if (o.feed && started && n > 0) {
                const double t = now_us();
                o.feed->progress(completed - measured_from, (t - start) / 1e6, t);
            }
            // Fixed count: the clock stops when exactly `iterations` measured requests have completed.
            if (started && !stopped && o.seconds <= 0 && completed - measured_from >= o.iterations) {
                end = now_us();
                u1 = Usage::take();
                stopped = true;
            }
            // Done when every signaled request has completed (in timed mode a few unsignaled ones may
            // still be in flight; they are not counted and are flushed when the QP is destroyed).
            if (!more && signaled_upto.empty()) break;
        }
    } catch (...) {
        receiver.finish(); // rethrows B's error if B failed first: that is the cause of A's
        throw;
    }
    if (!stopped) {
        end = now_us();
        u1 = Usage::take();
    }
    receiver.finish();
    // Stopped in the warm-up (bench.stop): nothing was measured, whatever completed.
    const long measured = !started                      ? 0
                          : (o.seconds > 0 || !stopped) ? std::max(0L, completed - measured_from)
                                                        : o.iterations;
    if (!started) start = end;
    r.iterations = measured;
    r.elapsed_s = (end - start) / 1e6;
    const double bytes = double(measured) * double(size);
    r.bw_MBps = r.elapsed_s > 0 ? bytes / r.elapsed_s / 1e6 : 0;
    r.bw_Gbps = r.bw_MBps * 8 / 1000;
    r.msg_rate_Mpps = r.elapsed_s > 0 ? double(measured) / r.elapsed_s / 1e6 : 0;
    r.cpu = cpu_between(u0, u1, measured);
    r.notes.push_back(
        signal_every == 1
            ? fmt::format("window of {} outstanding work requests, every one signaled (as perftest above "
                          "8 KiB)",
                          window)
            : fmt::format("window of {} outstanding work requests, one in {} signaled", window,
                          signal_every));
    return r;
}

// ------------------------------------------------------------------ TCP

struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

[[noreturn]] void sock_fail(const char* what) {
    throw RdmaError(explain_errno(what, errno, "loopback TCP pair of the measurement"));
}

ErrorInfo loopback_socket_error(const std::string& verb, int err, const std::string& where) {
    return explain_errno(verb, err, where);
}

const std::string kLoopbackPeer = "the other end of the loopback TCP pair";

void write_all(int fd, const std::uint8_t* data, std::size_t n) {
    bench_detail::write_all(fd, data, n, kLoopbackPeer, loopback_socket_error);
}

ErrorInfo tcp_peer_closed() {
    return {
        "recv",
        0,
        "EOF",
        "the other end closed the connection",
        "The other endpoint of the loopback TCP pair stopped (its own error is reported instead, if it had "
        "one).",
        "Run the measurement again."};
}

bool read_all(int fd, std::uint8_t* data, std::size_t n) {
    return bench_detail::read_all(fd, data, n, kLoopbackPeer, loopback_socket_error);
}

/// A connected TCP pair over 127.0.0.1.
void tcp_pair(Fd& a, Fd& b, bool nodelay) {
    Fd listener;
    listener.fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (listener.fd < 0) sock_fail("socket");
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(listener.fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) sock_fail("bind");
    if (::listen(listener.fd, 1) != 0) sock_fail("listen");
    socklen_t len = sizeof addr;
    ::getsockname(listener.fd, reinterpret_cast<sockaddr*>(&addr), &len);
    a.fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (::connect(a.fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) sock_fail("connect");
    b.fd = ::accept(listener.fd, nullptr, nullptr);
    if (b.fd < 0) sock_fail("accept");
    if (nodelay) { // latency: no Nagle delay; bandwidth keeps the stack's default, as iperf3 does
        const int one = 1;
        ::setsockopt(a.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        ::setsockopt(b.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
}

BenchResult tcp_bench(const BenchOptions& o) {
    const std::size_t size = std::max<std::size_t>(o.size, 1);
    Fd a, b;
    tcp_pair(a, b, o.kind == BenchKind::TcpLat);
    BenchResult r;
    r.device = "loopback TCP (lo, kernel stack)";
    r.size = size;
    if (auto shortfall =
            explain_memory_shortfall(2 * std::uint64_t(size) + 2 * std::max<std::uint64_t>(size, 65536),
                                     fmt::format("A's and B's {}-byte TCP buffers", size)))
        throw RdmaError(std::move(*shortfall));
    std::vector<std::uint8_t> buf_a(size, 'a'), buf_b(size, 'b');
    if (o.kind == BenchKind::TcpLat) {
        r.latency_basis = "half round trip (ping-pong / 2, as sockperf ping-pong)";
        PeerThread echo;
        echo.start([&] {
            const CpuPin pin_b(o.cpu_b);
            try {
                while (read_all(b.fd, buf_b.data(), size)) // until A shuts its side down
                    write_all(b.fd, buf_b.data(), size);
            } catch (...) {
                ::shutdown(b.fd, SHUT_RDWR); // A, blocked in recv(), sees the end instead of waiting
                throw;
            }
        });
        bench_detail::PingPong run;
        try {
            run = bench_detail::ping_pong(o, [&] {
                write_all(a.fd, buf_a.data(), size);
                if (!read_all(a.fd, buf_a.data(), size)) throw RdmaError(tcp_peer_closed());
            });
        } catch (...) {
            // B's error is the cause only if B failed before A closed the connection B reads.
            const bool b_failed_first = echo.failed.load();
            ::shutdown(a.fd, SHUT_RDWR);
            echo.finish(b_failed_first);
            throw;
        }
        ::shutdown(a.fd, SHUT_RDWR);
        echo.finish();
        std::move(run).fill(o, r);
    } else {
        std::atomic<long> received_msgs{0};
        PeerThread sink;
        sink.start([&] {
            const CpuPin pin_b(o.cpu_b);
            std::vector<std::uint8_t> chunk(std::max<std::size_t>(size, 65536));
            std::uint64_t bytes = 0;
            for (;;) {
                const ssize_t n = ::recv(b.fd, chunk.data(), chunk.size(), 0);
                if (n == 0) return; // A shut its side down: every byte is in
                if (n < 0 && errno == EINTR) continue;
                if (n < 0) {
                    const int err = errno;
                    ::shutdown(b.fd, SHUT_RDWR); // A's send() fails instead of blocking on a full buffer
                    throw RdmaError(
                        explain_errno("recv", err, "B, the receiving end of the loopback TCP pair"));
                }
                bytes += static_cast<std::uint64_t>(n);
                received_msgs.store(static_cast<long>(bytes / size), std::memory_order_relaxed);
            }
        });
        // A waits for B's count; the clock of a stall restarts whenever the count moves.
        Stall a_stall{kLoopbackStallMs, loopback_tcp_stall_error, &sink.failed};
        auto wait_until_received = [&](long want, const char* what) {
            long seen = -1;
            for (long got; (got = received_msgs.load()) < want;) {
                if (got != seen) {
                    seen = got;
                    a_stall.reset();
                }
                a_stall.tick(what);
            }
        };
        long measured = 0;
        double start = 0, end = 0;
        Usage u0, u1;
        try {
            warmup_begins();
            long warm = 0; // bench.stop ends the warm-up too: then nothing is measured
            for (; warm < o.warmup && !(o.feed && o.feed->stop_requested()); ++warm)
                write_all(a.fd, buf_a.data(), size);
            wait_until_received(warm, "the warm-up messages reaching B");
            warmup_ends(warm);
            u0 = Usage::take();
            start = now_us();
            while (keep_going(o, measured, start)) {
                write_all(a.fd, buf_a.data(), size);
                ++measured;
                if (o.feed && (measured & 63) == 0) {
                    const double t = now_us();
                    const long done = received_msgs.load(std::memory_order_relaxed) - warm;
                    o.feed->progress(std::max(0L, done), (t - start) / 1e6, t);
                }
            }
            wait_until_received(warm + measured, "the last messages reaching B");
            end = now_us();
            u1 = Usage::take();
        } catch (...) {
            ::shutdown(a.fd, SHUT_RDWR);
            sink.finish(); // rethrows B's error if B failed first: that is the cause of A's
            throw;
        }
        ::shutdown(a.fd, SHUT_WR);
        sink.finish();
        r.iterations = measured;
        r.elapsed_s = (end - start) / 1e6;
        const double bytes = double(measured) * double(size);
        r.bw_MBps = r.elapsed_s > 0 ? bytes / r.elapsed_s / 1e6 : 0;
        r.bw_Gbps = r.bw_MBps * 8 / 1000;
        r.msg_rate_Mpps = r.elapsed_s > 0 ? double(measured) / r.elapsed_s / 1e6 : 0;
        r.cpu = cpu_between(u0, u1, measured);
    }
    r.notes.push_back(
        "each message is copied by the CPU twice: into the socket buffer on send() and out of it "
        "on recv(); every send()/recv() is a system call");
    return r;
}

} // namespace

BenchFeed::Snapshot BenchFeed::take() {
    Snapshot s;
    std::lock_guard lock(mutex_);
    s.new_samples_us.swap(shared_);
    s.messages = shared_messages_;
    s.elapsed_s = shared_elapsed_s_;
    return s;
}

void BenchFeed::add_sample(double sample_us, double now) {
    local_.push_back(sample_us);
    local_messages_ = static_cast<long>(local_messages_ + 1);
    if (now - last_publish_us_ >= kPublishIntervalUs) {
        last_publish_us_ = now;
        publish();
    }
}

void BenchFeed::progress(long messages, double elapsed_s, double now) {
    local_messages_ = messages;
    local_elapsed_s_ = elapsed_s;
    if (now - last_publish_us_ >= kPublishIntervalUs) {
        last_publish_us_ = now;
        publish();
    }
}

void BenchFeed::publish() {
    std::lock_guard lock(mutex_);
    shared_.insert(shared_.end(), local_.begin(), local_.end());
    local_.clear();
    shared_messages_ = local_messages_;
    shared_elapsed_s_ = local_elapsed_s_;
}

void BenchFeed::reset() {
    std::lock_guard lock(mutex_);
    local_.clear();
    shared_.clear();
    local_messages_ = shared_messages_ = 0;
    local_elapsed_s_ = shared_elapsed_s_ = 0;
    last_publish_us_ = 0;
}

LatencyStats compute_stats(std::vector<double> samples) {
    LatencyStats s;
    if (samples.empty()) return s;
    std::vector<double> sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    auto rank = [&](double p) {
        const auto idx = static_cast<std::size_t>(std::ceil(p * double(sorted.size()))) - 1;
        return sorted[std::min(idx, sorted.size() - 1)];
    };
    s.min = sorted.front();
    s.max = sorted.back();
    s.p50 = rank(0.50);
    s.p90 = rank(0.90);
    s.p99 = rank(0.99);
    s.p999 = rank(0.999);
    s.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / double(sorted.size());
    double var = 0;
    for (double v : sorted)
        var += (v - s.mean) * (v - s.mean);
    s.stdev = sorted.size() > 1 ? std::sqrt(var / double(sorted.size() - 1)) : 0;
    s.samples = std::move(samples);
    return s;
}

BenchResult run_bench(const BenchOptions& options) {
    BenchResult r;
    if (options.cpu_b) bench_detail::check_cpu(*options.cpu_b, "B"); // B's thread pins itself
    const bench_detail::CpuPin pin_a(options.cpu_a, "A");
    // Before the endpoint threads start: the counter inherits into them.
    const bench_detail::SyscallScope syscalls(options.warmup);
    if (is_tcp(options.kind))
        r = tcp_bench(options);
    else if (is_latency(options.kind))
        r = rdma_latency(options);
    else
        r = rdma_bandwidth(options);
    r.kind = options.kind;
    r.cpu_a = options.cpu_a;
    r.cpu_b = options.cpu_b;
    syscalls.explain(r.cpu);
    if (auto note = bench_detail::pinning_note(options, true); !note.empty()) r.notes.push_back(note);
    if (options.feed) {
        if (r.bw_MBps > 0) options.feed->progress(r.iterations, r.elapsed_s, 0);
        options.feed->publish();
    }
    if (options.feed && options.feed->stop_requested())
        r.notes.push_back(r.has_samples() ? "stopped early on request: fewer iterations than asked"
                                          : "stopped on request before the first measured iteration: no "
                                            "samples, so no statistics");
    if (r.software)
        r.notes.push_back("SoftRoCE: RDMA implemented in software by the kernel; not hardware numbers");
    return r;
}

nlohmann::json to_json(const BenchResult& r, bool with_samples) {
    // No measured iteration (stopped before the first one): no statistic exists, so none is reported;
    // zeros would read as a result.
    const bool none = !r.has_samples();
    auto figure = [none](double value) { return none ? nlohmann::json(nullptr) : nlohmann::json(value); };
    nlohmann::json j = {
        {"kind", to_string(r.kind)},
        {"device", r.device},
        {"software_device", r.software},
        {"size", r.size},
        {"iters", r.iterations},
        {"no_samples", none},
        {"elapsed_s", r.elapsed_s},
        {"units", {{"lat", "us"}, {"bw_MBps", "10^6 bytes/s"}, {"bw_Gbps", "10^9 bits/s"}}},
        {"cpu",
         {{"user_s", r.cpu.user_s},
          {"sys_s", r.cpu.sys_s},
          {"voluntary_switches", r.cpu.voluntary_switches},
          {"involuntary_switches", r.cpu.involuntary_switches},
          {"user_us_per_msg", figure(r.cpu.user_us_per_msg)},
          {"sys_us_per_msg", figure(r.cpu.sys_us_per_msg)},
          {"switches_per_msg", figure(r.cpu.switches_per_msg)},
          {"syscalls_per_msg",
           r.cpu.syscalls_per_msg ? nlohmann::json(*r.cpu.syscalls_per_msg) : nlohmann::json(nullptr)}}},
        {"notes", r.notes}};
    if (!r.cpu.syscalls_note.empty()) j["cpu"]["syscalls_note"] = r.cpu.syscalls_note;
    if (r.cpu_a || r.cpu_b) {
        j["cpus"] = nlohmann::json::object();
        if (r.cpu_a) j["cpus"]["a"] = *r.cpu_a;
        if (r.cpu_b) j["cpus"]["b"] = *r.cpu_b;
    }
    if (r.latency && none) {
        j["lat_us"] = nullptr;
        j["lat_basis"] = r.latency_basis;
        if (r.latency_basis.rfind("half", 0) == 0) j["rtt_us"] = nullptr;
        if (with_samples) j["samples_us"] = nlohmann::json::array();
    } else if (r.latency) {
        const auto& l = *r.latency;
        j["lat_us"] = {{"min", l.min}, {"p50", l.p50},   {"mean", l.mean}, {"p90", l.p90},
                       {"p99", l.p99}, {"p999", l.p999}, {"max", l.max},   {"stdev", l.stdev}};
        j["lat_basis"] = r.latency_basis;
        if (r.latency_basis.rfind("half", 0) == 0) // ping-pong: the full round trip too, labelled
            j["rtt_us"] = {{"min", 2 * l.min}, {"p50", 2 * l.p50},    {"mean", 2 * l.mean},
                           {"p90", 2 * l.p90}, {"p99", 2 * l.p99},    {"p999", 2 * l.p999},
                           {"max", 2 * l.max}, {"stdev", 2 * l.stdev}};
        if (with_samples) j["samples_us"] = l.samples;
    } else {
        j["bw_MBps"] = figure(r.bw_MBps);
        j["bw_Gbps"] = figure(r.bw_Gbps);
        j["msg_rate_Mpps"] = figure(r.msg_rate_Mpps);
    }
    return j;
}

std::string format_table(const std::vector<BenchResult>& results) {
    static constexpr const char* kNoSamples = "no samples (stopped before the first measured iteration)";
    std::string out;
    if (results.empty()) return out;
    const auto& first = results.front();
    out += std::string(90, '-') + "\n";
    out += fmt::format(" rdmalab {}  device: {}{}\n", to_string(first.kind), first.device,
                       first.software ? "  (SoftRoCE: software, not hardware numbers)" : "");
    if (first.latency)
        out += fmt::format(" latency: {}{}\n", first.latency_basis,
                           first.latency_basis.rfind("half", 0) == 0
                               ? "; the full round trip is twice this (rtt_us in --json)"
                               : "");
    out += std::string(90, '-') + "\n";
    if (first.latency) {
        out += fmt::format(" {:>9} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8}\n", "#bytes",
                           "#iters", "t_min[us]", "t_p50[us]", "t_avg[us]", "t_p90[us]", "t_p99[us]",
                           "t_p999", "t_max[us]", "stdev");
        for (const auto& r : results) {
            const auto& l = *r.latency;
            if (!r.has_samples()) {
                out += fmt::format(" {:>9} {:>10}   {}\n", r.size, r.iterations, kNoSamples);
                continue;
            }
            out += fmt::format(
                " {:>9} {:>10} {:>9.2f} {:>9.2f} {:>9.2f} {:>9.2f} {:>9.2f} {:>9.2f} {:>9.2f} {:>8.2f}\n",
                r.size, r.iterations, l.min, l.p50, l.mean, l.p90, l.p99, l.p999, l.max, l.stdev);
        }
    } else {
        out += fmt::format(" {:>9} {:>10} {:>14} {:>12} {:>12} {:>14} {:>14}\n", "#bytes", "#iters",
                           "BW avg[MB/s]", "BW[Gb/s]", "MsgRate[Mpps]", "user us/msg", "sys us/msg");
        for (const auto& r : results)
            out += r.has_samples()
                       ? fmt::format(" {:>9} {:>10} {:>14.2f} {:>12.3f} {:>12.6f} {:>14.3f} {:>14.3f}\n",
                                     r.size, r.iterations, r.bw_MBps, r.bw_Gbps, r.msg_rate_Mpps,
                                     r.cpu.user_us_per_msg, r.cpu.sys_us_per_msg)
                       : fmt::format(" {:>9} {:>10}   {}\n", r.size, r.iterations, kNoSamples);
    }
    out += std::string(90, '-') + "\n";
    // What each message cost the CPU: the part of the data path the tables above cannot show.
    out += fmt::format(" {:>9} {:>14} {:>14} {:>14} {:>14}\n", "#bytes", "user us/msg", "sys us/msg",
                       "switches/msg", "syscalls/msg");
    std::string note;
    for (const auto& r : results) {
        if (!r.has_samples()) {
            out += fmt::format(" {:>9}   {}\n", r.size, kNoSamples);
            continue;
        }
        out += fmt::format(" {:>9} {:>14.3f} {:>14.3f} {:>14.3f} {:>14}\n", r.size, r.cpu.user_us_per_msg,
                           r.cpu.sys_us_per_msg, r.cpu.switches_per_msg,
                           r.cpu.syscalls_per_msg ? fmt::format("{:.3f}", *r.cpu.syscalls_per_msg)
                                                  : std::string("not measured"));
        if (!r.cpu.syscalls_note.empty()) note = r.cpu.syscalls_note;
    }
    if (!note.empty()) out += " syscalls not measured: " + note + "\n";
    out += std::string(90, '-') + "\n";
    return out;
}

int sweep_iterations(int base, std::size_t size) {
    if (size <= 65536) return base;
    const auto scaled = static_cast<long long>(base) * 65536 / static_cast<long long>(size);
    return static_cast<int>(std::min<long long>(base, std::max<long long>(100, scaled)));
}

std::vector<std::size_t> sweep_sizes() {
    std::vector<std::size_t> sizes;
    for (std::size_t s = 2; s <= 8u * 1024 * 1024; s *= 2)
        sizes.push_back(s);
    return sizes;
}

} // namespace rdmalab
