// The loopback measurement (bench.hpp's run_bench): A and B on one device in one process, B on a
// PeerThread; A's half of each loop is bench/loops.cpp, shared with the two-host measurement.
#include "rdmalab/engine/bench.hpp"

#include "bench/common.hpp"
#include "bench/loops.hpp"
#include "net/socket.hpp"

#include "rdmalab/engine/device.hpp"
#include "rdmalab/engine/errors.hpp"
#include "rdmalab/engine/names.hpp"
#include "rdmalab/engine/verbs.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <stdexcept>

namespace rdmalab {

namespace {

using namespace bench_detail;

/// How long a loopback wait may see no progress. Both endpoints are on this host, so only a device that
/// stopped completing (or a stuck peer thread) waits that long: an 8 MiB WRITE on SoftRoCE under
/// emulation takes well under a second.
constexpr int kLoopbackStallMs = 30000;

ErrorInfo loopback_stall_error(int timeout_ms, const char* waiting_for) {
    return {
        .verb = "ibv_poll_cq",
        .err = ETIMEDOUT,
        .code = "ETIMEDOUT",
        .meaning = errno_text(ETIMEDOUT),
        .cause = fmt::format(
            "No progress on {} for {} s. Both endpoints are on this device, so the device stopped "
            "completing work requests (for SoftRoCE: its network interface went down, or "
            "rdma_rxe was unloaded).",
            waiting_for, timeout_ms / 1000.0),
        .fix =
            "Check the port with `rdmalab-cli devices` (state PORT_ACTIVE) and, for SoftRoCE, its interface "
            "with `ip link`; then run the measurement again."};
}

ErrorInfo loopback_tcp_stall_error(int timeout_ms, const char* waiting_for) {
    return {.verb = "recv",
            .err = ETIMEDOUT,
            .code = "ETIMEDOUT",
            .meaning = errno_text(ETIMEDOUT),
            .cause =
                fmt::format("No progress on {} for {} s: the loopback TCP connection between A and B stopped "
                            "moving data.",
                            waiting_for, timeout_ms / 1000.0),
            .fix = "Run the measurement again; if it repeats, look at the two sockets with `ss -tni`."};
}

/// Two endpoints on one device, RC-connected, untraced: the measured loops use raw verbs on these objects.
struct Pair {
    std::shared_ptr<Context> context;
    std::shared_ptr<ProtectionDomain> pd_a, pd_b;
    /// Event mode only: one completion channel per CQ (declared first: destroyed after the CQs).
    std::shared_ptr<CompletionChannel> scq_a_events, rcq_a_events, scq_b_events, rcq_b_events;
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
        const auto rd = rd_atomic_depth(attr.max_qp_rd_atom);
        pd_a = ProtectionDomain::alloc(context, Endpoint::A);
        pd_b = ProtectionDomain::alloc(context, Endpoint::B);
        const int cqe = cq_entries(depth);
        if (o.completion_events) {
            scq_a_events = CompletionChannel::create(context, Endpoint::A);
            rcq_a_events = CompletionChannel::create(context, Endpoint::A);
            scq_b_events = CompletionChannel::create(context, Endpoint::B);
            rcq_b_events = CompletionChannel::create(context, Endpoint::B);
        }
        scq_a = CompletionQueue::create(context, Endpoint::A, cqe, scq_a_events);
        rcq_a = CompletionQueue::create(context, Endpoint::A, cqe, rcq_a_events);
        scq_b = CompletionQueue::create(context, Endpoint::B, cqe, scq_b_events);
        rcq_b = CompletionQueue::create(context, Endpoint::B, cqe, rcq_b_events);
        const QpCapacity cap = queue_capacity(depth);
        qp_a = QueuePair::create(pd_a, scq_a, rcq_a, IBV_QPT_RC, cap);
        qp_b = QueuePair::create(pd_b, scq_b, rcq_b, IBV_QPT_RC, cap);
        if (auto shortfall = explain_memory_shortfall(
                2 * std::uint64_t(region_size), fmt::format("A's and B's {}-byte regions", region_size),
                fmt::format("A 和 B 各自 {} 字节的内存区域", region_size)))
            throw RdmaError(std::move(*shortfall));
        mr_a = MemoryRegion::allocate(pd_a, region_size, kAccess);
        mr_b = MemoryRegion::allocate(pd_b, region_size, kAccess);
        const ibv_mtu mtu = context->query_port(1).active_mtu;
        PathInfo path;
        path.remote_gid = gid;
        path.sgid_index = gid_index;
        path.path_mtu = mtu;
        path.max_dest_rd_atomic = rd;
        path.min_rnr_timer = kMinRnrTimer;
        RtsParams rts;
        rts.max_rd_atomic = rd;
        connect_pair(*qp_a, *qp_b, 1, kAccess, path, rts);
    }

    /// A's end for the shared loops, B's region as the peer's.
    RdmaEnd a_end() const {
        return {qp_a->get(),
                scq_a->get(),
                rcq_a->get(),
                mr_a.get(),
                mr_b->address(),
                mr_b->rkey(),
                channel_of(scq_a_events),
                channel_of(rcq_a_events)};
    }

    static ibv_comp_channel* channel_of(const std::shared_ptr<CompletionChannel>& channel) {
        return channel ? channel->get() : nullptr;
    }
};

/// Runs A's loop while B's thread serves; when B failed first, B's error is the one reported.
template <class Loop> BenchResult run_against(PeerThread& b, const Pair& pair, Loop&& loop) {
    BenchResult r;
    try {
        r = loop(pair.a_end());
    } catch (...) {
        b.finish(); // rethrows B's error if B failed first: that is the cause of A's
        throw;
    }
    b.finish();
    r.device = pair.device;
    r.software = pair.software;
    return r;
}

// ------------------------------------------------------------------ RDMA latency

BenchResult rdma_latency(const BenchOptions& o) {
    const std::size_t size = o.kind == BenchKind::AtomicLat ? 8 : std::max<std::size_t>(o.size, 1);
    const long total_planned = o.seconds > 0 ? -1 : long(o.warmup) + o.iterations;
    const int recv_depth = o.kind == BenchKind::SendLat ? send_lat_recv_depth(o) : kLatencyDepth;
    // Each region: [0, size) is where the peer writes; [size, 2 size) is the local source.
    Pair pair(o, 2 * size, recv_depth);
    ibv_qp* qa = pair.qp_a->get();
    ibv_qp* qb = pair.qp_b->get();
    // B's waits end when A sets peer.stop; A's end when B has failed (peer.failed).
    PeerThread peer;
    Stall a_stall{kLoopbackStallMs, loopback_stall_error, &peer.failed};
    if (o.kind == BenchKind::WriteLat || o.kind == BenchKind::SendLat) {
        if (o.kind == BenchKind::SendLat)
            for (int i = 0; i < recv_depth; ++i) {
                post_recv(qa, *pair.mr_a, size);
                post_recv(qb, *pair.mr_b, size);
            }
        // B as ib_write_lat's or ib_send_lat's server. write_lat: wait for A's tag, write it back.
        // send_lat: wait for the receive completion, post the receive again while the posted ones do
        // not cover the remaining iterations (as perftest, rcnt + rx_depth <= iters), send the reply.
        peer.start([&] {
            const CpuPin pin_b(o.cpu_b);
            Stall stall{kLoopbackStallMs, loopback_stall_error, &peer.stop};
            ibv_sge sge{};
            ibv_send_wr wr =
                latency_wr(o.kind, *pair.mr_b, pair.mr_a->address(), pair.mr_a->rkey(), size, sge);
            volatile std::uint8_t* in = pair.mr_b->data() + size - 1;
            std::uint8_t* src_last = pair.mr_b->data() + 2 * size - 1;
            for (long i = 0;; ++i) {
                if (o.kind == BenchKind::WriteLat) {
                    const std::uint8_t tag = write_lat_tag(i);
                    stall.reset();
                    while (*in != tag)
                        stall.tick("A's RDMA WRITE");
                    *src_last = tag;
                } else {
                    complete_one(pair.rcq_b->get(), Pair::channel_of(pair.rcq_b_events), stall,
                                 "RECV of A's SEND");
                    if (total_planned < 0 || i + 1 + recv_depth <= total_planned)
                        post_recv(qb, *pair.mr_b, size);
                }
                post_send(qb, wr);
                complete_one(pair.scq_b->get(), Pair::channel_of(pair.scq_b_events), stall,
                             o.kind == BenchKind::WriteLat ? "B's RDMA_WRITE" : "B's SEND");
                if (total_planned > 0 && i + 1 >= total_planned) return;
            }
        });
    }
    BenchResult r =
        run_against(peer, pair, [&](const RdmaEnd& a) { return latency_loop(o, a, size, a_stall); });
    r.notes.insert(r.notes.begin(),
                   o.completion_events
                       ? "A and B are two threads of one process on one device, each sleeping on completion "
                         "events for every completion (as perftest's --events; perftest uses two processes); "
                         "CPU figures cover both"
                       : "A and B are two threads of one process on one device, each busy-polling "
                         "(perftest uses two processes); CPU figures cover both");
    if (o.kind == BenchKind::SendLat)
        r.notes.push_back(
            fmt::format("{} receives kept posted on each side (as ib_send_lat's rx depth), posted again only "
                        "while they do not cover the remaining iterations",
                        recv_depth));
    return r;
}

// ------------------------------------------------------------------ RDMA bandwidth

BenchResult rdma_bandwidth(const BenchOptions& o) {
    const std::size_t size = std::max<std::size_t>(o.size, 1);
    const int window = std::max(1, o.window);
    Pair pair(o, size, window);
    PeerThread receiver; // SEND: B re-posts a receive for each one completed
    Stall a_stall{kLoopbackStallMs, loopback_stall_error, &receiver.failed};
    if (o.kind == BenchKind::SendBw) {
        for (int i = 0; i < send_bw_recvs(window); ++i)
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
    return run_against(receiver, pair, [&](const RdmaEnd& a) { return bandwidth_loop(o, a, size, a_stall); });
}

// ------------------------------------------------------------------ TCP

[[noreturn]] void sock_fail(const char* what) {
    throw RdmaError(explain_errno(what, errno, "loopback TCP pair of the measurement"));
}

ErrorInfo loopback_socket_error(const std::string& verb, int err, const std::string& where) {
    return explain_errno(verb, err, where);
}

const std::string kLoopbackPeer = "the other end of the loopback TCP pair";

void write_all(int fd, const std::uint8_t* data, std::size_t n) {
    net::write_all(fd, data, n, kLoopbackPeer, loopback_socket_error);
}

ErrorInfo tcp_peer_closed() {
    return {.verb = "recv",
            .err = 0,
            .code = "EOF",
            .meaning = "the other end closed the connection",
            .cause = "The other endpoint of the loopback TCP pair stopped (its own error is reported "
                     "instead, if it had "
                     "one).",
            .fix = "Run the measurement again."};
}

bool read_all(int fd, std::uint8_t* data, std::size_t n) {
    return net::read_all(fd, data, n, kLoopbackPeer, loopback_socket_error);
}

/// A connected TCP pair over 127.0.0.1.
void tcp_pair(net::Fd& a, net::Fd& b, bool nodelay) {
    net::Fd listener;
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
        net::set_nodelay(a.fd);
        net::set_nodelay(b.fd);
    }
}

BenchResult tcp_bench(const BenchOptions& o) {
    const std::size_t size = std::max<std::size_t>(o.size, 1);
    net::Fd a, b;
    tcp_pair(a, b, o.kind == BenchKind::TcpLat);
    BenchResult r;
    r.device = "loopback TCP (lo, kernel stack)";
    r.size = size;
    if (auto shortfall =
            explain_memory_shortfall(2 * std::uint64_t(size) + 2 * std::max<std::uint64_t>(size, 65536),
                                     fmt::format("A's and B's {}-byte TCP buffers", size),
                                     fmt::format("A 和 B 各自 {} 字节的 TCP 缓冲区", size)))
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
        StreamRun run;
        try {
            run = stream(
                o, true, [&] { write_all(a.fd, buf_a.data(), size); },
                [&](long warm) { wait_until_received(warm, "the warm-up messages reaching B"); },
                [&](long total) { wait_until_received(total, "the last messages reaching B"); },
                [&](long warm, long) { return received_msgs.load(std::memory_order_relaxed) - warm; });
        } catch (...) {
            ::shutdown(a.fd, SHUT_RDWR);
            sink.finish(); // rethrows B's error if B failed first: that is the cause of A's
            throw;
        }
        ::shutdown(a.fd, SHUT_WR);
        sink.finish();
        fill_bandwidth(r, run.measured, run.start_us, run.end_us, run.before, run.after);
    }
    r.notes.push_back(
        "each message is copied by the CPU twice: into the socket buffer on send() and out of it "
        "on recv(); every send()/recv() is a system call");
    return r;
}

} // namespace

BenchResult run_bench(const BenchOptions& options) {
    BenchResult r;
    if (options.completion_events && options.kind != BenchKind::SendLat)
        throw std::runtime_error(fmt::format(
            "bench {}: completion events are measured for send_lat only (both sides wait for completions "
            "there; write_lat's peer watches memory, and the bandwidth kinds keep a window in flight)",
            to_string(options.kind)));
    if (options.cpu_b) check_cpu(*options.cpu_b, "B"); // B's thread pins itself
    const CpuPin pin_a(options.cpu_a, "A");
    // Before the endpoint threads start: the counter inherits into them.
    const SyscallScope syscalls(options.warmup);
    if (is_tcp(options.kind))
        r = tcp_bench(options);
    else if (is_latency(options.kind))
        r = rdma_latency(options);
    else
        r = rdma_bandwidth(options);
    finish_result(options, syscalls, true, r);
    return r;
}

} // namespace rdmalab
