// Two-host measurements (see bench_remote.hpp). A measures with the loops of bench.cpp, adapted to a peer
// in another process: A's half of each loop is here, B's half runs in the listener.
//
// Wire protocol, one connection per measurement (per size of a sweep):
//   RDMA: A's connect request carries BenchRequest (kind, size, window, last, A's buffer address and
//         rkey); B's accept carries BenchReply (B's buffer address, rkey, length). A rejected request
//         carries a BenchReply with a status. A ends a run that needs B's CPU (write_lat, send_lat,
//         send_bw) with a stop marker (write_lat: last byte kStopTag; send kinds: a SEND with immediate
//         data kStopImm), then disconnects; B waits for the disconnect in every kind.
//   TCP:  A sends TcpHeader, B answers a 4-byte status. tcp_lat: B echoes until EOF. tcp_bw: B sends
//         8 bytes (its byte count) once the warm-up has arrived and again at EOF; A's clock stops on
//         the second.
#include "rdmalab/bench_remote.hpp"

#include "bench_common.hpp"
#include "resolve.hpp"

#include "rdmalab/device.hpp"
#include "rdmalab/errors.hpp"
#include "rdmalab/names.hpp"
#include "rdmalab/trace.hpp"
#include "rdmalab/verbs.hpp"

#include <arpa/inet.h>
#include <endian.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <rdma/rdma_cma.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>

namespace rdmalab {

namespace {

constexpr std::uint32_t kMagic = 0x5244424e; // "RDBN"
constexpr std::uint8_t kWireVersion = 1;
constexpr std::uint8_t kStopTag = 0xff;        // write_lat: tags run 1..254, 255 ends the run
constexpr std::uint32_t kStopImm = 0x53544f50; // send kinds: immediate data of A's final SEND ("STOP")
constexpr std::uint32_t kStatusOk = 0, kStatusWrongKind = 1, kStatusBadRequest = 2;
constexpr unsigned kAccess =
    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;

// A -> B in the connect request (at most 56 bytes), big-endian.
struct BenchRequest {
    std::uint32_t magic;
    std::uint8_t version, kind, last, pad;
    std::uint32_t size;
    std::uint32_t window;
    std::uint32_t rkey; // A's region: where B writes its write_lat replies
    std::uint64_t addr;
};
static_assert(sizeof(BenchRequest) <= 56, "REQ private data is limited to 56 bytes");

// B -> A in the accept (or the reject), big-endian.
struct BenchReply {
    std::uint32_t magic;
    std::uint32_t status;
    std::uint64_t addr;
    std::uint32_t rkey;
    std::uint32_t length;
    std::uint8_t kind; // what B serves
    std::uint8_t pad[7];
};

struct TcpHeader {
    std::uint32_t magic;
    std::uint8_t version, kind, last, pad;
    std::uint32_t size;
    std::uint32_t warmup;
};

using bench_detail::cpu_between;
using bench_detail::keep_going;
using bench_detail::now_us;
using bench_detail::poll_one;
using bench_detail::Stall;
using bench_detail::Usage;
using bench_detail::warmup_begins;
using bench_detail::warmup_ends;

// ------------------------------------------------------------------ errors

const char* kListenFix =
    "Start `rdmalab-cli bench KIND --listen [ADDR] --cm-port N` on the peer first, with the "
    "same KIND and port, and pass the peer's address to --connect.";

[[noreturn]] void fail(ErrorInfo info) {
    throw RdmaError(std::move(info));
}

ErrorInfo timeout_error(const std::string& verb, int timeout_ms, const std::string& what) {
    return {verb,
            ETIMEDOUT,
            "ETIMEDOUT",
            errno_text(ETIMEDOUT),
            fmt::format("No {} within {} s: the peer is not running, not reachable, or stopped answering.",
                        what, timeout_ms / 1000.0),
            std::string(kListenFix) + " Look at the listener's output for its own error."};
}

/// A failed socket or rdma_cm call, with causes for the errors a two-host run meets.
ErrorInfo socket_error(const std::string& verb, int err, const std::string& where) {
    ErrorInfo info = explain_errno(verb, err);
    switch (err) {
    case ECONNREFUSED:
        info.cause = fmt::format("Nothing listens on {}.", where);
        info.fix = kListenFix;
        break;
    case ETIMEDOUT:
    case EAGAIN:
        info.code = errno_name(err);
        info.fix = std::string(kListenFix) + " Look at the listener's output for its own error.";
        info.cause =
            fmt::format("{} did not answer in time: it is not running, not reachable, or stopped.", where);
        break;
    case EHOSTUNREACH:
    case ENETUNREACH:
    case EADDRNOTAVAIL:
    case ENODEV:
        info.cause =
            fmt::format("{}: {} is not reachable from here, or not an address of an interface with an "
                        "RDMA device (rdma_cm cannot use 127.0.0.1 or other loopback addresses).",
                        errno_text(err), where);
        info.fix = "Use an IP address of the interface the RDMA device sits on (`rdma link show`; in the "
                   "test bed $RDMALAB_CM_ADDR).";
        break;
    case EADDRINUSE:
        info.cause = fmt::format("{} is already in use (another listener, or a previous run).", where);
        info.fix = "Pick another --cm-port on both sides, or stop the other listener.";
        break;
    case ECONNRESET:
    case EPIPE:
        info.cause = fmt::format("{} closed the connection in the middle of the measurement.", where);
        info.fix = "Look at the listener's output for its error.";
        break;
    default:
        break;
    }
    return info;
}

[[noreturn]] void fail_errno(const std::string& verb, int err, const std::string& where) {
    fail(socket_error(verb, err, where));
}

void check(int ret, const std::string& verb, const std::string& where) {
    if (ret != 0) fail_errno(verb, errno, where);
}

using detail::resolve_ipv4;

std::string address_text(const sockaddr* sa) {
    char text[INET_ADDRSTRLEN] = {};
    const auto* in = reinterpret_cast<const sockaddr_in*>(sa);
    inet_ntop(AF_INET, &in->sin_addr, text, sizeof text);
    return fmt::format("{}:{}", text, ntohs(in->sin_port));
}

bool software_device(const std::string& name) {
    try {
        for (const auto& d : list_devices())
            if (d.name == name) return d.software;
    } catch (const std::exception&) {
    }
    return false;
}

std::string kind_name(std::uint8_t kind) {
    return kind <= static_cast<std::uint8_t>(BenchKind::TcpBw) ? std::string(to_string(BenchKind(kind)))
                                                               : fmt::format("kind #{}", kind);
}

// ------------------------------------------------------------------ rdma_cm plumbing

struct CmEvent {
    rdma_cm_event_type type{};
    int status = 0;
    rdma_cm_id* id = nullptr;
    std::vector<std::uint8_t> data;
    std::uint8_t initiator_depth = 0, responder_resources = 0;
};

/// The next event on the channel, or nothing after timeout_ms (-1: wait for ever).
std::optional<CmEvent> next_event(rdma_event_channel* channel, int timeout_ms) {
    pollfd pfd{channel->fd, POLLIN, 0};
    int ready;
    while ((ready = ::poll(&pfd, 1, timeout_ms)) < 0 && errno == EINTR) {
    }
    if (ready < 0) fail_errno("poll", errno, "the rdma_cm event channel");
    if (ready == 0) return std::nullopt;
    rdma_cm_event* event = nullptr;
    if (rdma_get_cm_event(channel, &event) != 0) fail_errno("rdma_get_cm_event", errno, "the event channel");
    CmEvent e;
    e.type = event->event;
    e.status = event->status;
    e.id = event->id;
    if (event->param.conn.private_data && event->param.conn.private_data_len > 0) {
        const auto* p = static_cast<const std::uint8_t*>(event->param.conn.private_data);
        e.data.assign(p, p + event->param.conn.private_data_len);
    }
    e.initiator_depth = event->param.conn.initiator_depth;
    e.responder_resources = event->param.conn.responder_resources;
    rdma_ack_cm_event(event);
    return e;
}

struct Channel {
    rdma_event_channel* channel = nullptr;
    rdma_cm_id* listen_id = nullptr;
    Channel() {
        channel = rdma_create_event_channel();
        if (!channel) {
            ErrorInfo info = explain_errno("rdma_create_event_channel", errno);
            const ErrorInfo none = explain_no_device();
            info.cause =
                fmt::format("/dev/infiniband/rdma_cm is missing or unusable: the rdma_ucm module is not "
                            "loaded or this machine has no RDMA device. {}",
                            none.cause);
            info.fix = none.fix;
            fail(std::move(info));
        }
    }
    ~Channel() {
        if (listen_id) rdma_destroy_id(listen_id);
        if (channel) rdma_destroy_event_channel(channel);
    }
    Channel(const Channel&) = delete;
    Channel& operator=(const Channel&) = delete;
};

/// One connection's verbs objects on the device rdma_cm picked; destroyed QP first, the cm id last.
struct Connection {
    rdma_cm_id* id = nullptr;
    std::shared_ptr<Context> context;
    std::shared_ptr<ProtectionDomain> pd;
    std::shared_ptr<CompletionQueue> scq, rcq;
    std::shared_ptr<QueuePair> qp;
    std::shared_ptr<MemoryRegion> mr;
    std::string device;
    std::uint8_t rd_atomic = 1;

    Connection() = default;
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;
    ~Connection() {
        qp.reset();
        mr.reset();
        scq.reset();
        rcq.reset();
        pd.reset();
        context.reset();
        if (id) rdma_destroy_id(id);
    }

    void setup(std::size_t region, int depth) {
        context = Context::borrow(id->verbs, nullptr);
        device = context->device_name();
        rd_atomic = static_cast<std::uint8_t>(std::clamp(context->query_device().max_qp_rd_atom, 1, 16));
        pd = ProtectionDomain::alloc(context, Endpoint::None);
        const int cqe = depth * 2 + 16;
        scq = CompletionQueue::create(context, Endpoint::None, cqe);
        rcq = CompletionQueue::create(context, Endpoint::None, cqe);
        QpCapacity cap;
        cap.max_send_wr = static_cast<std::uint32_t>(depth + 4);
        cap.max_recv_wr = static_cast<std::uint32_t>(depth + 4);
        cap.max_inline_data = 0;
        qp = QueuePair::create(pd, scq, rcq, IBV_QPT_RC, cap);
        mr = MemoryRegion::allocate(pd, region, kAccess);
    }

    /// A transition with the attributes rdma_cm computed for this connection (INIT: with every access
    /// flag, since rdma_cm grants the active side none when the QP is not its own; RTR: see below).
    void transition(ibv_qp_state to, const char* name) {
        ibv_qp_attr attr{};
        int mask = 0;
        attr.qp_state = to;
        check(rdma_init_qp_attr(id, &attr, &mask), "rdma_init_qp_attr", std::string(qp_state_name(to)));
        if (to == IBV_QPS_INIT) {
            attr.qp_access_flags = kAccess;
            mask |= IBV_QP_ACCESS_FLAGS;
        }
        // rdma_cm leaves the RNR NAK timer at 0, which encodes 655 ms: one receive posted late would stall
        // a send_bw run. 12 (0.64 ms) is what the loopback pair and perftest use.
        if (to == IBV_QPS_RTR && (mask & IBV_QP_MIN_RNR_TIMER)) attr.min_rnr_timer = 12;
        qp->modify(attr, mask, name);
    }

    void post_recv(std::size_t size) {
        ibv_sge sge{mr->address(), static_cast<std::uint32_t>(std::max<std::size_t>(size, 1)), mr->lkey()};
        ibv_recv_wr wr{};
        wr.sg_list = &sge;
        wr.num_sge = 1;
        ibv_recv_wr* bad = nullptr;
        if (int ret = ibv_post_recv(qp->get(), &wr, &bad); ret != 0)
            fail(explain_errno("ibv_post_recv", ret));
    }
};

void post(ibv_qp* qp, ibv_send_wr& wr) {
    ibv_send_wr* bad = nullptr;
    if (int ret = ibv_post_send(qp, &wr, &bad); ret != 0) fail(explain_errno("ibv_post_send", ret));
}

/// A two-host wait that made no progress: the peer, or the path to it, stopped.
ErrorInfo remote_stall_error(int timeout_ms, const char* waiting_for) {
    return timeout_error("ibv_poll_cq", timeout_ms, waiting_for);
}

/// B: while busy-waiting for A, looks for A's disconnect after about a million idle spins.
struct PeerWatch {
    rdma_event_channel* channel;
    unsigned spins = 0;
    bool disconnected = false;
    void progress() { spins = 0; }
    /// True when A has disconnected.
    bool gone() {
        if (++spins < (1u << 20) || (spins & 0xfff) != 0) return false;
        pollfd pfd{channel->fd, POLLIN, 0};
        if (::poll(&pfd, 1, 0) <= 0) return false;
        auto e = next_event(channel, 0);
        if (e && e->type == RDMA_CM_EVENT_DISCONNECTED) disconnected = true;
        return disconnected;
    }
    [[noreturn]] void fail_gone() const {
        fail({"rdma_get_cm_event", 0, "RDMA_CM_EVENT_DISCONNECTED", "the peer disconnected",
              "A disconnected before its end marker: its measurement failed or it was stopped.",
              "Look at A's output (`bench KIND --connect`) for its error."});
    }
};

// ------------------------------------------------------------------ A: RDMA

struct Remote {
    std::uint64_t addr = 0;
    std::uint32_t rkey = 0;
};

[[noreturn]] void fail_connect_event(const CmEvent& e, const std::string& where, BenchKind kind) {
    const std::string code(rdma_event_str(e.type));
    switch (e.type) {
    case RDMA_CM_EVENT_ADDR_ERROR:
        fail({"rdma_resolve_addr", -e.status, code, errno_text(-e.status),
              fmt::format("{} could not be resolved to a local RDMA device: no RDMA device on the interface "
                          "that routes to it, or the host did not answer ARP.",
                          where),
              "Use the IP address of the peer's RDMA interface (`rdma link show` on both hosts; in the test "
              "bed $RDMALAB_CM_ADDR)."});
    case RDMA_CM_EVENT_ROUTE_ERROR:
        fail({"rdma_resolve_route", -e.status, code, errno_text(-e.status),
              fmt::format("No RoCE route to {}: rdma_cm cannot route over a loopback interface, and the "
                          "interface needs an RDMA device.",
                          where),
              "Use an address of a non-loopback interface with an RDMA device (in the test bed "
              "$RDMALAB_CM_ADDR)."});
    case RDMA_CM_EVENT_REJECTED: {
        BenchReply reply{};
        if (e.data.size() >= sizeof reply) std::memcpy(&reply, e.data.data(), sizeof reply);
        if (be32toh(reply.magic) == kMagic && be32toh(reply.status) == kStatusWrongKind)
            fail({"rdma_connect", ECONNREFUSED, code, "the listener rejected the connection",
                  fmt::format("The listener at {} serves bench {}, this side asked for {}.", where,
                              kind_name(reply.kind), to_string(kind)),
                  "Start both sides with the same KIND."});
        fail({"rdma_connect", ECONNREFUSED, code,
              fmt::format("the connection was rejected (status {})", e.status),
              fmt::format(
                  "Nothing listens on {} (rdma_cm port space), or the listener there is not `rdmalab-cli "
                  "bench` (e.g. `rdmalab-cli op --listen`).",
                  where),
              kListenFix});
    }
    case RDMA_CM_EVENT_UNREACHABLE:
        fail({"rdma_connect", EHOSTUNREACH, code, "the peer did not answer the connection request",
              fmt::format("No rdma_cm answered at {}: the host is down, or packets are lost.", where),
              kListenFix});
    default:
        fail({"rdma_connect", e.status < 0 ? -e.status : 0, code, "unexpected connection event",
              fmt::format("The connection to {} could not be set up (status {}).", where, e.status),
              kListenFix});
    }
}

CmEvent expect(rdma_event_channel* channel, rdma_cm_event_type type, int timeout_ms, const std::string& verb,
               const std::string& where, BenchKind kind) {
    auto e = next_event(channel, timeout_ms);
    if (!e) fail(timeout_error(verb, timeout_ms, fmt::format("{} from {}", rdma_event_str(type), where)));
    if (e->type != type) fail_connect_event(*e, where, kind);
    return *e;
}

struct RdmaPlan {
    std::size_t size = 1, region = 1;
    int depth = 4;
    bool latency = true;
};

/// Receives kept posted on each side for send_lat, as bench.cpp (ib_send_lat's rx depth 512, at most the
/// number of iterations).
int send_lat_recv_depth(const BenchOptions& o) {
    const long planned = o.seconds > 0 ? 512 : long(o.warmup) + o.iterations;
    return static_cast<int>(std::clamp(planned, 2L, 512L));
}

/// `window`: the bandwidth window, or send_lat's receive depth (A computes it, B gets it in the request).
RdmaPlan plan_for(BenchKind kind, std::size_t size, int window) {
    RdmaPlan p;
    p.latency = is_latency(kind);
    p.size = kind == BenchKind::AtomicLat ? 8 : std::max<std::size_t>(size, 1);
    // Latency: [0, size) is where the peer writes, [size, 2 size) the local source (as bench.cpp).
    p.region = p.latency ? 2 * p.size : p.size;
    p.depth = kind == BenchKind::SendLat ? std::clamp(window, 2, 512) : p.latency ? 4 : std::max(1, window);
    return p;
}

BenchResult a_latency(const BenchOptions& o, Connection& c, const Remote& peer, std::size_t size,
                      int timeout_ms) {
    BenchResult r;
    r.size = size;
    Stall stall{timeout_ms, remote_stall_error};
    std::vector<double> samples;
    samples.reserve(static_cast<std::size_t>(std::max(o.iterations, 1)));
    const MemoryRegion& mr = *c.mr;
    ibv_sge sge{mr.address() + size, static_cast<std::uint32_t>(size), mr.lkey()};
    ibv_send_wr wr{};
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.wr.rdma.remote_addr = peer.addr;
    wr.wr.rdma.rkey = peer.rkey;
    volatile std::uint8_t* in = mr.data() + size - 1; // last byte B writes into A
    std::uint8_t* src_last = mr.data() + 2 * size - 1;
    ibv_qp* qp = c.qp->get();
    const bool full = o.kind == BenchKind::ReadLat || o.kind == BenchKind::AtomicLat;
    r.latency_basis = full ? "full round trip (one operation, as ib_read_lat/ib_atomic_lat)"
                           : "half round trip (ping-pong / 2, as ib_send_lat/ib_write_lat)";
    if (o.kind == BenchKind::WriteLat) {
        wr.opcode = IBV_WR_RDMA_WRITE;
    } else if (o.kind == BenchKind::SendLat) {
        wr.opcode = IBV_WR_SEND; // the receives were posted before connecting
    } else if (o.kind == BenchKind::ReadLat) {
        wr.opcode = IBV_WR_RDMA_READ;
        sge.addr = mr.address(); // read B's [0,size) into A's [0,size)
    } else {
        wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
        wr.wr.atomic.remote_addr = peer.addr;
        wr.wr.atomic.rkey = peer.rkey;
        wr.wr.atomic.compare_add = 1;
    }
    // As bench.cpp and perftest: one sample is the time from one post to the next (tposted[i+1] -
    // tposted[i]), so everything the loop does between two posts is part of it.
    Usage u0 = Usage::take();
    double start = 0, end = 0, prev_post = 0;
    long measured = 0;
    warmup_begins();
    for (long i = 0;; ++i) {
        if (i == o.warmup) {
            warmup_ends(long(o.warmup) * (full ? 1 : 2));
            u0 = Usage::take();
        }
        const double t = now_us(); // this iteration's post time
        if (i > o.warmup) {
            const double dt = t - prev_post;
            samples.push_back(full ? dt : dt / 2);
            ++measured;
            if (o.feed) o.feed->add_sample(samples.back(), t);
        }
        if (i == o.warmup) start = t;
        if (i >= o.warmup && !keep_going(o, measured, start)) {
            end = t;
            break;
        }
        prev_post = t;
        const auto tag = static_cast<std::uint8_t>(i % 254 + 1);
        if (o.kind == BenchKind::WriteLat) {
            // ib_write_lat's client: post the WRITE, wait for its completion, then for the peer's.
            *src_last = tag;
            post(qp, wr);
            poll_one(c.scq->get(), stall, "RDMA_WRITE");
            stall.reset();
            while (*in != tag)
                stall.tick("B's RDMA WRITE reply");
        } else if (o.kind == BenchKind::SendLat) {
            // ib_send_lat's client: post the SEND, wait for its completion, then for the reply's receive
            // completion, and post that receive again.
            post(qp, wr);
            poll_one(c.scq->get(), stall, "SEND");
            poll_one(c.rcq->get(), stall, "RECV of B's reply");
            c.post_recv(size);
        } else {
            post(qp, wr);
            poll_one(c.scq->get(), stall,
                     o.kind == BenchKind::ReadLat ? "RDMA_READ" : "ATOMIC_FETCH_AND_ADD");
        }
    }
    const Usage u1 = Usage::take();
    // End marker for the kinds B's CPU takes part in.
    if (o.kind == BenchKind::WriteLat) {
        *src_last = kStopTag;
        post(qp, wr);
        poll_one(c.scq->get(), stall, "RDMA_WRITE (end marker)");
    } else if (o.kind == BenchKind::SendLat) {
        wr.opcode = IBV_WR_SEND_WITH_IMM;
        wr.imm_data = htonl(kStopImm);
        post(qp, wr);
        poll_one(c.scq->get(), stall, "SEND_WITH_IMM (end marker)");
    }
    r.iterations = measured;
    r.elapsed_s = (end - start) / 1e6;
    r.latency = compute_stats(std::move(samples));
    if (!o.keep_samples) r.latency->samples.clear();
    r.cpu = cpu_between(u0, u1, measured * (full ? 1 : 2));
    r.notes.push_back(fmt::format("A (this process) measures, B is another process or host, each "
                                  "busy-polling; CPU figures cover only this side (A), per message {}",
                                  full ? "= per operation" : "sent or received by A"));
    r.notes.push_back("one sample is the time from one post to the next, as perftest; every work request is "
                      "signaled and no data is sent inline");
    if (o.kind == BenchKind::SendLat)
        r.notes.push_back(fmt::format("{} receives kept posted on each side (as ib_send_lat's rx depth)",
                                      c.qp->capacity().max_recv_wr - 4));
    return r;
}

BenchResult a_bandwidth(const BenchOptions& o, Connection& c, const Remote& peer, std::size_t size,
                        int timeout_ms) {
    BenchResult r;
    r.size = size;
    const int window = std::max(1, o.window);
    Stall stall{timeout_ms, remote_stall_error};
    ibv_sge sge{c.mr->address(), static_cast<std::uint32_t>(size), c.mr->lkey()};
    ibv_send_wr wr{};
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = o.kind == BenchKind::WriteBw  ? IBV_WR_RDMA_WRITE
                : o.kind == BenchKind::ReadBw ? IBV_WR_RDMA_READ
                                              : IBV_WR_SEND;
    wr.wr.rdma.remote_addr = peer.addr;
    wr.wr.rdma.rkey = peer.rkey;
    ibv_qp* qp = c.qp->get();
    // As bench.cpp (perftest): one in min(window / 2, 100) signaled, every one above 8 KiB.
    const long signal_every = size > 8192 ? 1 : std::max(1, std::min(window / 2, 100));
    std::deque<long> signaled_upto;
    long target = long(o.warmup) + o.iterations;
    long posted = 0, completed = 0, measured_from = 0;
    Usage u0 = Usage::take(), u1;
    double start = now_us(), end = start;
    bool started = false, stopped = false;
    warmup_begins();
    ibv_wc wcs[16];
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
            // Signal one request in `signal_every` (perftest's cq_mod); an RC send queue completes in order.
            const bool last = o.seconds <= 0 && posted + 1 == target;
            wr.send_flags = ((posted + 1) % signal_every == 0 || last) ? IBV_SEND_SIGNALED : 0;
            post(qp, wr);
            ++posted;
            if (wr.send_flags) signaled_upto.push_back(posted);
        }
        const int n = ibv_poll_cq(c.scq->get(), 16, wcs);
        if (n < 0) fail(explain_errno("ibv_poll_cq", -n));
        if (n == 0)
            stall.tick("a bandwidth completion");
        else
            stall.reset();
        for (int k = 0; k < n; ++k) {
            if (wcs[k].status != IBV_WC_SUCCESS) fail(explain_wc_status(wcs[k].status, "bandwidth"));
            completed = signaled_upto.front();
            signaled_upto.pop_front();
        }
        if (o.feed && started && n > 0) {
            const double t = now_us();
            o.feed->progress(completed - measured_from, (t - start) / 1e6, t);
        }
        if (started && !stopped && o.seconds <= 0 && completed - measured_from >= o.iterations) {
            end = now_us();
            u1 = Usage::take();
            stopped = true;
        }
        if (!more && signaled_upto.empty()) break;
    }
    if (!stopped) {
        end = now_us();
        u1 = Usage::take();
    }
    if (o.kind == BenchKind::SendBw) { // end marker: B stops reposting receives
        wr.opcode = IBV_WR_SEND_WITH_IMM;
        wr.imm_data = htonl(kStopImm);
        wr.send_flags = IBV_SEND_SIGNALED;
        post(qp, wr);
        for (;;) { // earlier unsignaled requests of a timed run may complete first (they are unsignaled)
            const ibv_wc wc = poll_one(c.scq->get(), stall, "SEND_WITH_IMM (end marker)");
            if (wc.opcode == IBV_WC_SEND) break;
        }
    }
    const long measured =
        (o.seconds > 0 || !stopped) ? std::max(0L, completed - measured_from) : o.iterations;
    r.iterations = measured;
    r.elapsed_s = (end - start) / 1e6;
    const double bytes = double(measured) * double(size);
    r.bw_MBps = r.elapsed_s > 0 ? bytes / r.elapsed_s / 1e6 : 0;
    r.bw_Gbps = r.bw_MBps * 8 / 1000;
    r.msg_rate_Mpps = r.elapsed_s > 0 ? double(measured) / r.elapsed_s / 1e6 : 0;
    r.cpu = cpu_between(u0, u1, measured);
    r.notes.push_back(signal_every == 1
                          ? fmt::format("window of {} outstanding work requests, every one signaled "
                                        "(as perftest above 8 KiB)",
                                        window)
                          : fmt::format("window of {} outstanding work requests, one in {} signaled", window,
                                        signal_every));
    r.notes.push_back("A (this process) sends and measures, B is another process or host; CPU figures cover "
                      "only this side (A)");
    return r;
}

RemoteBenchResult rdma_connector(const BenchOptions& o, const RemoteBenchOptions& remote, bool last) {
    const std::string where = fmt::format("{}:{}", remote.address, remote.port);
    const RdmaPlan plan =
        plan_for(o.kind, o.size, o.kind == BenchKind::SendLat ? send_lat_recv_depth(o) : o.window);
    Channel ch;
    Connection c;
    check(rdma_create_id(ch.channel, &c.id, nullptr, RDMA_PS_TCP), "rdma_create_id", where);
    const auto addr = resolve_ipv4(remote.address, remote.port, false);
    const std::string peer = address_text(addr->ai_addr);
    check(rdma_resolve_addr(c.id, nullptr, addr->ai_addr, 2000), "rdma_resolve_addr", peer);
    expect(ch.channel, RDMA_CM_EVENT_ADDR_RESOLVED, remote.timeout_ms, "rdma_resolve_addr", peer, o.kind);
    check(rdma_resolve_route(c.id, 2000), "rdma_resolve_route", peer);
    expect(ch.channel, RDMA_CM_EVENT_ROUTE_RESOLVED, remote.timeout_ms, "rdma_resolve_route", peer, o.kind);

    c.setup(plan.region, plan.depth);
    c.transition(IBV_QPS_INIT, "RESET->INIT");
    if (o.kind == BenchKind::SendLat)
        for (int i = 0; i < plan.depth; ++i)
            c.post_recv(plan.size);
    BenchRequest req{};
    req.magic = htobe32(kMagic);
    req.version = kWireVersion;
    req.kind = static_cast<std::uint8_t>(o.kind);
    req.last = last ? 1 : 0;
    req.size = htobe32(static_cast<std::uint32_t>(plan.size));
    req.window = htobe32(static_cast<std::uint32_t>(plan.depth));
    req.rkey = htobe32(c.mr->rkey());
    req.addr = htobe64(c.mr->address());
    rdma_conn_param param{};
    param.private_data = &req;
    param.private_data_len = sizeof req;
    param.responder_resources = c.rd_atomic;
    param.initiator_depth = c.rd_atomic;
    param.retry_count = 7;
    param.rnr_retry_count = 7;
    param.qp_num = c.qp->qp_num();
    check(rdma_connect(c.id, &param), "rdma_connect", peer);
    const CmEvent rep_event =
        expect(ch.channel, RDMA_CM_EVENT_CONNECT_RESPONSE, remote.timeout_ms, "rdma_connect", peer, o.kind);
    BenchReply rep{};
    if (rep_event.data.size() < sizeof rep)
        fail({"rdma_connect", EPROTO, "EPROTO", "the peer is not an rdmalab bench listener",
              "The accept carried no rdmalab bench private data.", kListenFix});
    std::memcpy(&rep, rep_event.data.data(), sizeof rep);
    if (be32toh(rep.magic) != kMagic || be32toh(rep.length) < plan.size)
        fail({"rdma_connect", EPROTO, "EPROTO", "the peer's reply is not what this version expects",
              fmt::format(
                  "Its buffer is {} bytes for a {}-byte measurement, or it is another rdmalab version.",
                  be32toh(rep.length), plan.size),
              "Run the same rdmalab version on both sides."});
    const Remote target{be64toh(rep.addr), be32toh(rep.rkey)};
    c.transition(IBV_QPS_RTR, "INIT->RTR");
    c.transition(IBV_QPS_RTS, "RTR->RTS");
    check(rdma_establish(c.id), "rdma_establish", peer);

    RemoteBenchResult out;
    BenchOptions eff = o;
    eff.window = plan.depth;
    out.result = plan.latency ? a_latency(eff, c, target, plan.size, remote.timeout_ms)
                              : a_bandwidth(eff, c, target, plan.size, remote.timeout_ms);
    out.result.device = c.device;
    out.result.software = software_device(c.device);
    out.peer = peer;
    out.mode = "two hosts (rdma_cm)";
    rdma_disconnect(c.id);
    (void)next_event(ch.channel, 2000); // DISCONNECTED; B may already be gone, the result stands
    return out;
}

// ------------------------------------------------------------------ B: RDMA

void b_serve(Connection& c, BenchKind kind, const RdmaPlan& plan, const Remote& a,
             rdma_event_channel* channel) {
    PeerWatch watch{channel};
    Stall stall{600000, remote_stall_error};
    const std::size_t size = plan.size;
    ibv_qp* qp = c.qp->get();
    if (kind == BenchKind::WriteLat || kind == BenchKind::SendLat) {
        const MemoryRegion& mr = *c.mr;
        ibv_sge sge{mr.address() + size, static_cast<std::uint32_t>(size), mr.lkey()};
        ibv_send_wr wr{};
        wr.sg_list = &sge;
        wr.num_sge = 1;
        wr.send_flags = IBV_SEND_SIGNALED;
        wr.opcode = kind == BenchKind::WriteLat ? IBV_WR_RDMA_WRITE : IBV_WR_SEND;
        wr.wr.rdma.remote_addr = a.addr;
        wr.wr.rdma.rkey = a.rkey;
        volatile std::uint8_t* in = mr.data() + size - 1;
        std::uint8_t* src_last = mr.data() + 2 * size - 1;
        for (long i = 0;; ++i) {
            if (kind == BenchKind::WriteLat) {
                const auto tag = static_cast<std::uint8_t>(i % 254 + 1);
                std::uint8_t v;
                while ((v = *in) != tag) {
                    if (v == kStopTag) return;
                    if (watch.gone()) watch.fail_gone();
                }
                *src_last = tag;
            } else {
                ibv_wc wc{};
                int n;
                while ((n = ibv_poll_cq(c.rcq->get(), 1, &wc)) == 0)
                    if (watch.gone()) watch.fail_gone();
                if (n < 0) fail(explain_errno("ibv_poll_cq", -n));
                if (wc.status != IBV_WC_SUCCESS) fail(explain_wc_status(wc.status, "RECV of A's ping"));
                if ((wc.wc_flags & IBV_WC_WITH_IMM) && ntohl(wc.imm_data) == kStopImm) return;
                c.post_recv(size);
            }
            watch.progress();
            post(qp, wr);
            poll_one(c.scq->get(), stall, kind == BenchKind::WriteLat ? "RDMA_WRITE reply" : "SEND reply");
        }
    }
    if (kind == BenchKind::SendBw) {
        ibv_wc wcs[16];
        for (;;) {
            const int n = ibv_poll_cq(c.rcq->get(), 16, wcs);
            if (n < 0) fail(explain_errno("ibv_poll_cq", -n));
            if (n == 0 && watch.gone()) watch.fail_gone();
            if (n > 0) watch.progress();
            for (int k = 0; k < n; ++k) {
                if (wcs[k].status != IBV_WC_SUCCESS) fail(explain_wc_status(wcs[k].status, "RECV"));
                if ((wcs[k].wc_flags & IBV_WC_WITH_IMM) && ntohl(wcs[k].imm_data) == kStopImm) return;
                c.post_recv(size);
            }
        }
    }
    // read_lat, atomic_lat, write_bw, read_bw: B's CPU takes no part; the caller waits for the disconnect.
}

// ------------------------------------------------------------------ TCP

struct Fd {
    int fd = -1;
    Fd() = default;
    explicit Fd(int f) : fd(f) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

void write_all(int fd, const void* data, std::size_t n, const std::string& where) {
    bench_detail::write_all(fd, data, n, where, socket_error);
}

bool read_all(int fd, void* data, std::size_t n, const std::string& where) {
    return bench_detail::read_all(fd, data, n, where, socket_error);
}

void read_exact(int fd, void* data, std::size_t n, const std::string& where) {
    if (!read_all(fd, data, n, where))
        fail({"recv", 0, "EOF", "the peer closed the connection",
              fmt::format("{} closed the connection before answering: it failed or serves something else.",
                          where),
              "Look at the listener's output for its error."});
}

void set_timeouts(int fd, int timeout_ms) {
    timeval tv{timeout_ms / 1000, (timeout_ms % 1000) * 1000};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

void set_nodelay(int fd) {
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

/// The interface that holds the socket's local address ("rdmalab0"), for the device field.
std::string local_interface(int fd) {
    sockaddr_in local{};
    socklen_t len = sizeof local;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &len) != 0) return "?";
    ifaddrs* list = nullptr;
    if (getifaddrs(&list) != 0) return "?";
    std::string name = "?";
    for (ifaddrs* i = list; i; i = i->ifa_next)
        if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET &&
            reinterpret_cast<sockaddr_in*>(i->ifa_addr)->sin_addr.s_addr == local.sin_addr.s_addr) {
            name = i->ifa_name;
            break;
        }
    freeifaddrs(list);
    return name;
}

/// Non-blocking connect with a timeout.
int tcp_connect(const sockaddr* addr, socklen_t len, int timeout_ms, const std::string& where) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (fd < 0) fail_errno("socket", errno, where);
    Fd guard(fd);
    if (::connect(fd, addr, len) != 0) {
        if (errno != EINPROGRESS) fail_errno("connect", errno, where);
        pollfd pfd{fd, POLLOUT, 0};
        const int ready = ::poll(&pfd, 1, timeout_ms);
        if (ready == 0)
            fail(timeout_error("connect", timeout_ms, fmt::format("TCP connection to {}", where)));
        int err = 0;
        socklen_t elen = sizeof err;
        ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen);
        if (ready < 0) err = errno;
        if (err != 0) fail_errno("connect", err, where);
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    guard.fd = -1;
    return fd;
}

RemoteBenchResult tcp_connector(const BenchOptions& o, const RemoteBenchOptions& remote, bool last) {
    const std::size_t size = std::max<std::size_t>(o.size, 1);
    const auto addr = resolve_ipv4(remote.address, remote.port, false);
    const std::string peer = address_text(addr->ai_addr);
    Fd s(tcp_connect(addr->ai_addr, addr->ai_addrlen, remote.timeout_ms, peer));
    set_timeouts(s.fd, remote.timeout_ms);
    if (o.kind == BenchKind::TcpLat) set_nodelay(s.fd); // bandwidth keeps the default, as iperf3 does
    TcpHeader h{};
    h.magic = htobe32(kMagic);
    h.version = kWireVersion;
    h.kind = static_cast<std::uint8_t>(o.kind);
    h.last = last ? 1 : 0;
    h.size = htobe32(static_cast<std::uint32_t>(size));
    h.warmup = htobe32(static_cast<std::uint32_t>(o.warmup));
    write_all(s.fd, &h, sizeof h, peer);
    BenchReply status{};
    read_exact(s.fd, &status, sizeof status, peer);
    if (be32toh(status.magic) != kMagic)
        fail({"connect", EPROTO, "EPROTO", "the peer is not an rdmalab bench listener",
              fmt::format("{} answered with something else.", peer), kListenFix});
    if (be32toh(status.status) != kStatusOk)
        fail({"connect", ECONNREFUSED, "rejected", "the listener refused the measurement",
              fmt::format("The listener at {} serves bench {}, this side asked for {}.", peer,
                          kind_name(status.kind), to_string(o.kind)),
              "Start both sides with the same KIND."});

    RemoteBenchResult out;
    BenchResult& r = out.result;
    r.device = fmt::format("TCP ({}, kernel stack)", local_interface(s.fd));
    r.size = size;
    std::vector<std::uint8_t> buf(size, 'a');
    if (o.kind == BenchKind::TcpLat) {
        r.latency_basis = "half round trip (ping-pong / 2, as sockperf ping-pong)";
        bench_detail::PingPong run = bench_detail::ping_pong(o, [&] {
            write_all(s.fd, buf.data(), size, peer);
            read_exact(s.fd, buf.data(), size, peer);
        });
        ::shutdown(s.fd, SHUT_WR);
        std::uint8_t byte;
        (void)::recv(s.fd, &byte, 1, 0); // B's EOF
        std::move(run).fill(o, r);
    } else {
        warmup_begins();
        for (long i = 0; i < o.warmup; ++i)
            write_all(s.fd, buf.data(), size, peer);
        std::uint64_t got = 0;
        read_exact(s.fd, &got, sizeof got, peer); // B has the warm-up
        warmup_ends(o.warmup);
        const Usage u0 = Usage::take();
        const double start = now_us();
        long measured = 0;
        while (keep_going(o, measured, start)) {
            write_all(s.fd, buf.data(), size, peer);
            ++measured;
            if (o.feed && (measured & 63) == 0) {
                const double t = now_us();
                o.feed->progress(measured, (t - start) / 1e6, t);
            }
        }
        ::shutdown(s.fd, SHUT_WR);
        read_exact(s.fd, &got, sizeof got, peer); // B's count at EOF: every byte arrived
        const double end = now_us();
        const Usage u1 = Usage::take();
        const std::uint64_t want = std::uint64_t(o.warmup + measured) * size;
        if (be64toh(got) != want)
            fail({"recv", EPROTO, "EPROTO", "byte count mismatch",
                  fmt::format("B received {} bytes, A sent {}.", be64toh(got), want),
                  "Run the same rdmalab version on both sides."});
        r.iterations = measured;
        r.elapsed_s = (end - start) / 1e6;
        const double bytes = double(measured) * double(size);
        r.bw_MBps = r.elapsed_s > 0 ? bytes / r.elapsed_s / 1e6 : 0;
        r.bw_Gbps = r.bw_MBps * 8 / 1000;
        r.msg_rate_Mpps = r.elapsed_s > 0 ? double(measured) / r.elapsed_s / 1e6 : 0;
        r.cpu = cpu_between(u0, u1, measured);
        r.notes.push_back(
            "the clock stops when B reports that every byte arrived (one extra half round trip)");
    }
    r.notes.push_back(
        "each message is copied by the CPU twice: into the socket buffer on send() and out of it "
        "on recv(); every send()/recv() is a system call");
    r.notes.push_back("A (this process) measures, B is another process or host; CPU figures cover only this "
                      "side (A)");
    out.peer = peer;
    out.mode = "two hosts (TCP)";
    return out;
}

void tcp_serve(int fd, BenchKind kind, const TcpHeader& h, const std::string& peer) {
    const std::size_t size = std::max<std::uint32_t>(be32toh(h.size), 1);
    if (kind == BenchKind::TcpLat) {
        std::vector<std::uint8_t> buf(size);
        while (read_all(fd, buf.data(), size, peer))
            write_all(fd, buf.data(), size, peer);
        return;
    }
    std::vector<std::uint8_t> chunk(std::max<std::size_t>(size, 65536));
    const std::uint64_t warm = std::uint64_t(be32toh(h.warmup)) * size;
    std::uint64_t bytes = 0;
    bool acked = false;
    for (;;) {
        if (!acked && bytes >= warm) {
            const std::uint64_t n = htobe64(bytes);
            write_all(fd, &n, sizeof n, peer);
            acked = true;
        }
        const ssize_t n = ::recv(fd, chunk.data(), chunk.size(), 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail_errno("recv", errno, peer);
        if (n == 0) break;
        bytes += static_cast<std::uint64_t>(n);
    }
    const std::uint64_t total = htobe64(bytes);
    write_all(fd, &total, sizeof total, peer);
}

void tcp_listener(BenchKind kind, const RemoteBenchOptions& remote,
                  const std::function<void(const std::string&)>& say) {
    const std::string bind_text =
        fmt::format("{}:{}", remote.address.empty() ? "0.0.0.0" : remote.address, remote.port);
    const auto addr = resolve_ipv4(remote.address, remote.port, true);
    Fd l(::socket(AF_INET, SOCK_STREAM, 0));
    if (l.fd < 0) fail_errno("socket", errno, bind_text);
    const int one = 1;
    ::setsockopt(l.fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    check(::bind(l.fd, addr->ai_addr, addr->ai_addrlen), "bind", bind_text);
    check(::listen(l.fd, 4), "listen", bind_text);
    say(fmt::format("B: listening on {} for bench {} (TCP); waiting up to {} s for `rdmalab-cli bench {} "
                    "--connect HOST --cm-port {}`",
                    bind_text, to_string(kind), remote.accept_timeout_ms / 1000, to_string(kind),
                    remote.port));
    for (int served = 0;; ++served) {
        const int wait_ms = served == 0 ? remote.accept_timeout_ms : remote.next_timeout_ms;
        pollfd pfd{l.fd, POLLIN, 0};
        const int ready = ::poll(&pfd, 1, wait_ms);
        if (ready == 0) fail(timeout_error("accept", wait_ms, "TCP connection"));
        if (ready < 0) fail_errno("poll", errno, bind_text);
        sockaddr_in from{};
        socklen_t len = sizeof from;
        Fd c(::accept(l.fd, reinterpret_cast<sockaddr*>(&from), &len));
        if (c.fd < 0) fail_errno("accept", errno, bind_text);
        const std::string peer = address_text(reinterpret_cast<sockaddr*>(&from));
        set_timeouts(c.fd, remote.next_timeout_ms); // the header; cleared below
        TcpHeader h{};
        read_exact(c.fd, &h, sizeof h, peer);
        BenchReply status{};
        status.magic = htobe32(kMagic);
        status.kind = static_cast<std::uint8_t>(kind);
        const bool ours = be32toh(h.magic) == kMagic && h.version == kWireVersion;
        const bool ok = ours && h.kind == static_cast<std::uint8_t>(kind);
        status.status = htobe32(ok ? kStatusOk : ours ? kStatusWrongKind : kStatusBadRequest);
        write_all(c.fd, &status, sizeof status, peer);
        if (!ok)
            fail({"accept", EPROTO, "rejected",
                  ours ? fmt::format("A asked for bench {}, this side serves {}", kind_name(h.kind),
                                     to_string(kind))
                       : std::string("the connection is not from `rdmalab-cli bench --connect`"),
                  "The two sides were started with different KINDs, or another program connected.",
                  "Start both sides with the same KIND (`bench KIND --listen` / `bench KIND --connect "
                  "HOST`)."});
        set_timeouts(c.fd, 0);
        if (kind == BenchKind::TcpLat) set_nodelay(c.fd);
        tcp_serve(c.fd, kind, h, peer);
        say(fmt::format("B: served bench {} of {} B for {} over {}{}", to_string(kind), be32toh(h.size), peer,
                        local_interface(c.fd), h.last ? " (last)" : ""));
        if (h.last) return;
    }
}

} // namespace

void run_remote_bench_listener(BenchKind kind, const RemoteBenchOptions& remote,
                               const std::function<void(const std::string&)>& say) {
    const bench_detail::CpuPin pin(remote.cpu, "B");
    if (is_tcp(kind)) return tcp_listener(kind, remote, say);
    const std::string bind_text =
        fmt::format("{}:{}", remote.address.empty() ? "0.0.0.0" : remote.address, remote.port);
    Channel ch;
    check(rdma_create_id(ch.channel, &ch.listen_id, nullptr, RDMA_PS_TCP), "rdma_create_id", bind_text);
    const auto addr = resolve_ipv4(remote.address, remote.port, true);
    check(rdma_bind_addr(ch.listen_id, addr->ai_addr), "rdma_bind_addr", bind_text);
    check(rdma_listen(ch.listen_id, 4), "rdma_listen", bind_text);
    say(fmt::format("B: listening on {} for bench {} (rdma_cm); waiting up to {} s for `rdmalab-cli bench {} "
                    "--connect HOST --cm-port {}`",
                    bind_text, to_string(kind), remote.accept_timeout_ms / 1000, to_string(kind),
                    remote.port));
    for (int served = 0;;) {
        const int wait_ms = served == 0 ? remote.accept_timeout_ms : remote.next_timeout_ms;
        auto e = next_event(ch.channel, wait_ms);
        if (!e) fail(timeout_error("rdma_get_cm_event", wait_ms, "connection request"));
        if (e->type != RDMA_CM_EVENT_CONNECT_REQUEST) continue; // stray event of a finished connection
        Connection c;
        c.id = e->id;
        BenchRequest req{};
        BenchReply reply{};
        reply.magic = htobe32(kMagic);
        reply.kind = static_cast<std::uint8_t>(kind);
        if (e->data.size() >= sizeof req) std::memcpy(&req, e->data.data(), sizeof req);
        if (be32toh(req.magic) != kMagic || req.version != kWireVersion ||
            req.kind != static_cast<std::uint8_t>(kind)) {
            const bool ours = be32toh(req.magic) == kMagic && req.version == kWireVersion;
            reply.status = htobe32(ours ? kStatusWrongKind : kStatusBadRequest);
            rdma_reject(c.id, &reply, sizeof reply);
            fail({"rdma_accept", EPROTO, "rejected",
                  ours ? fmt::format("A asked for bench {}, this side serves {}", kind_name(req.kind),
                                     to_string(kind))
                       : std::string("the connection request is not from `rdmalab-cli bench --connect`"),
                  "The two sides were started with different KINDs, or another program connected.",
                  "Start both sides with the same KIND (`bench KIND --listen` / `bench KIND --connect "
                  "HOST`)."});
        }
        const RdmaPlan plan = plan_for(kind, be32toh(req.size), static_cast<int>(be32toh(req.window)));
        const Remote a{be64toh(req.addr), be32toh(req.rkey)};
        c.setup(plan.region, plan.depth);
        c.transition(IBV_QPS_INIT, "RESET->INIT");
        if (kind == BenchKind::SendLat || kind == BenchKind::SendBw)
            for (int i = 0; i < (kind == BenchKind::SendLat ? plan.depth : plan.depth + 2); ++i)
                c.post_recv(plan.size);
        c.transition(IBV_QPS_RTR, "INIT->RTR");
        c.transition(IBV_QPS_RTS, "RTR->RTS");
        reply.status = htobe32(kStatusOk);
        reply.addr = htobe64(c.mr->address());
        reply.rkey = htobe32(c.mr->rkey());
        reply.length = htobe32(static_cast<std::uint32_t>(plan.size));
        rdma_conn_param param{};
        param.private_data = &reply;
        param.private_data_len = sizeof reply;
        param.responder_resources = std::min(c.rd_atomic, std::max<std::uint8_t>(e->initiator_depth, 1));
        param.initiator_depth = std::min(c.rd_atomic, std::max<std::uint8_t>(e->responder_resources, 1));
        param.rnr_retry_count = 7;
        param.qp_num = c.qp->qp_num();
        const std::string peer = address_text(rdma_get_peer_addr(c.id));
        check(rdma_accept(c.id, &param), "rdma_accept", peer);
        // A may start before ESTABLISHED reaches B: B's QP is ready (RTS) and A's writes simply land.
        b_serve(c, kind, plan, a, ch.channel);
        for (;;) { // A disconnects when it is done
            auto done = next_event(ch.channel, -1);
            if (done && done->type == RDMA_CM_EVENT_DISCONNECTED) break;
            if (done && done->type == RDMA_CM_EVENT_CONNECT_REQUEST) rdma_reject(done->id, nullptr, 0);
        }
        rdma_disconnect(c.id);
        ++served;
        say(fmt::format("B: served bench {} of {} B for {} on {}{}", to_string(kind), plan.size, peer,
                        c.device, req.last ? " (last)" : ""));
        if (req.last) return;
    }
}

RemoteBenchResult run_remote_bench(const BenchOptions& options, const RemoteBenchOptions& remote, bool last) {
    const bench_detail::CpuPin pin(options.cpu_a, "A");
    // Counts A's side: this thread and the threads it starts.
    const bench_detail::SyscallScope syscalls(options.warmup);
    RemoteBenchResult out =
        is_tcp(options.kind) ? tcp_connector(options, remote, last) : rdma_connector(options, remote, last);
    BenchResult& r = out.result;
    r.kind = options.kind;
    r.cpu_a = options.cpu_a;
    syscalls.explain(r.cpu);
    if (auto note = bench_detail::pinning_note(options, false); !note.empty()) r.notes.push_back(note);
    if (options.feed) {
        if (r.bw_MBps > 0) options.feed->progress(r.iterations, r.elapsed_s, 0);
        options.feed->publish();
    }
    if (options.feed && options.feed->stop_requested())
        r.notes.push_back("stopped early on request: fewer iterations than asked");
    if (r.software)
        r.notes.push_back("SoftRoCE: RDMA implemented in software by the kernel; not hardware numbers");
    return out;
}

nlohmann::json to_json(const RemoteBenchResult& result, bool with_samples) {
    nlohmann::json j = to_json(result.result, with_samples);
    j["peer"] = result.peer;
    j["mode"] = result.mode;
    return j;
}

} // namespace rdmalab
