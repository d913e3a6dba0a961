// Two-host RDMA kinds over rdma_cm (bench/remote.hpp has the protocol): A measures with the loops of
// bench/loops.cpp and ends with the stop marker; B serves with its half of each loop.
#include "bench/common.hpp"
#include "bench/loops.hpp"
#include "bench/remote.hpp"
#include "net/resolve.hpp"
#include "net/socket.hpp"

#include "rdmalab/engine/device.hpp"
#include "rdmalab/engine/errors.hpp"
#include "rdmalab/engine/names.hpp"
#include "rdmalab/engine/verbs.hpp"

#include <arpa/inet.h>
#include <endian.h>
#include <fmt/format.h>
#include <poll.h>
#include <rdma/rdma_cma.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

namespace rdmalab::bench_detail::remote {

namespace {

using detail::resolve_ipv4;
using net::address_text;

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

bool software_device(const std::string& name) {
    try {
        for (const auto& d : list_devices())
            if (d.name == name) return d.software;
    } catch (const std::exception&) {
    }
    return false;
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
        rd_atomic = rd_atomic_depth(context->query_device().max_qp_rd_atom);
        pd = ProtectionDomain::alloc(context, Endpoint::None);
        scq = CompletionQueue::create(context, Endpoint::None, cq_entries(depth));
        rcq = CompletionQueue::create(context, Endpoint::None, cq_entries(depth));
        qp = QueuePair::create(pd, scq, rcq, IBV_QPT_RC, queue_capacity(depth));
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
        // a send_bw run. kMinRnrTimer (0.64 ms) is what the loopback pair and perftest use.
        if (to == IBV_QPS_RTR && (mask & IBV_QP_MIN_RNR_TIMER)) attr.min_rnr_timer = kMinRnrTimer;
        qp->modify(attr, mask, name);
    }
};

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
        fail({.verb = "rdma_get_cm_event",
              .err = 0,
              .code = "RDMA_CM_EVENT_DISCONNECTED",
              .meaning = "the peer disconnected",
              .cause = "A disconnected before its end marker: its measurement failed or it was stopped.",
              .fix = "Look at A's output (`bench KIND --connect`) for its error."});
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
        fail({.verb = "rdma_resolve_addr",
              .err = -e.status,
              .code = code,
              .meaning = errno_text(-e.status),
              .cause = fmt::format(
                  "{} could not be resolved to a local RDMA device: no RDMA device on the interface "
                  "that routes to it, or the host did not answer ARP.",
                  where),
              .fix = "Use the IP address of the peer's RDMA interface (`rdma link show` on both hosts; in "
                     "the test "
                     "bed $RDMALAB_CM_ADDR)."});
    case RDMA_CM_EVENT_ROUTE_ERROR:
        fail({.verb = "rdma_resolve_route",
              .err = -e.status,
              .code = code,
              .meaning = errno_text(-e.status),
              .cause =
                  fmt::format("No RoCE route to {}: rdma_cm cannot route over a loopback interface, and the "
                              "interface needs an RDMA device.",
                              where),
              .fix = "Use an address of a non-loopback interface with an RDMA device (in the test bed "
                     "$RDMALAB_CM_ADDR)."});
    case RDMA_CM_EVENT_REJECTED: {
        BenchReply reply{};
        if (e.data.size() >= sizeof reply) std::memcpy(&reply, e.data.data(), sizeof reply);
        if (be32toh(reply.magic) == kMagic && be32toh(reply.status) == kStatusWrongKind)
            fail({.verb = "rdma_connect",
                  .err = ECONNREFUSED,
                  .code = code,
                  .meaning = "the listener rejected the connection",
                  .cause = fmt::format("The listener at {} serves bench {}, this side asked for {}.", where,
                                       kind_name(reply.kind), to_string(kind)),
                  .fix = "Start both sides with the same KIND."});
        fail({.verb = "rdma_connect",
              .err = ECONNREFUSED,
              .code = code,
              .meaning = fmt::format("the connection was rejected (status {})", e.status),
              .cause = fmt::format(
                  "Nothing listens on {} (rdma_cm port space), or the listener there is not `rdmalab-cli "
                  "bench` (e.g. `rdmalab-cli op --listen`).",
                  where),
              .fix = kListenFix});
    }
    case RDMA_CM_EVENT_UNREACHABLE:
        fail(
            {.verb = "rdma_connect",
             .err = EHOSTUNREACH,
             .code = code,
             .meaning = "the peer did not answer the connection request",
             .cause = fmt::format("No rdma_cm answered at {}: the host is down, or packets are lost.", where),
             .fix = kListenFix});
    default:
        fail({.verb = "rdma_connect",
              .err = e.status < 0 ? -e.status : 0,
              .code = code,
              .meaning = "unexpected connection event",
              .cause = fmt::format("The connection to {} could not be set up (status {}).", where, e.status),
              .fix = kListenFix});
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

/// `window`: the bandwidth window, or send_lat's receive depth (A computes it, B gets it in the request).
RdmaPlan plan_for(BenchKind kind, std::size_t size, int window) {
    RdmaPlan p;
    p.latency = is_latency(kind);
    p.size = kind == BenchKind::AtomicLat ? 8 : std::max<std::size_t>(size, 1);
    // Latency: [0, size) is where the peer writes, [size, 2 size) the local source (as the loopback pair).
    p.region = p.latency ? 2 * p.size : p.size;
    p.depth = kind == BenchKind::SendLat ? std::clamp(window, 2, int(kSendLatRecvDepth))
              : p.latency                ? kLatencyDepth
                                         : std::max(1, window);
    return p;
}

/// A's measurement over the connection: the shared loop, then the end marker for the kinds B's CPU takes
/// part in (write_lat: the last byte kStopTag; send kinds: a SEND with immediate data kStopImm).
BenchResult a_measure(const BenchOptions& o, Connection& c, const Remote& peer, const RdmaPlan& plan,
                      int timeout_ms) {
    Stall stall{timeout_ms, remote_stall_error};
    const RdmaEnd a{c.qp->get(), c.scq->get(), c.rcq->get(), c.mr.get(), peer.addr, peer.rkey};
    BenchResult r =
        plan.latency ? latency_loop(o, a, plan.size, stall) : bandwidth_loop(o, a, plan.size, stall);
    if (o.kind == BenchKind::WriteLat) {
        ibv_sge sge{};
        ibv_send_wr wr = latency_wr(o.kind, *c.mr, peer.addr, peer.rkey, plan.size, sge);
        c.mr->data()[2 * plan.size - 1] = kStopTag;
        post_send(a.qp, wr);
        poll_one(a.scq, stall, "RDMA_WRITE (end marker)");
    } else if (o.kind == BenchKind::SendLat || o.kind == BenchKind::SendBw) {
        ibv_sge sge{c.mr->address(), static_cast<std::uint32_t>(plan.size), c.mr->lkey()};
        ibv_send_wr wr{};
        wr.sg_list = &sge;
        wr.num_sge = 1;
        wr.opcode = IBV_WR_SEND_WITH_IMM;
        wr.imm_data = htonl(kStopImm);
        wr.send_flags = IBV_SEND_SIGNALED;
        post_send(a.qp, wr);
        for (;;) { // earlier unsignaled requests of a timed send_bw run may complete first
            const ibv_wc wc = poll_one(a.scq, stall, "SEND_WITH_IMM (end marker)");
            if (wc.opcode == IBV_WC_SEND) break;
        }
    }
    if (plan.latency) {
        const bool full = o.kind == BenchKind::ReadLat || o.kind == BenchKind::AtomicLat;
        r.notes.insert(r.notes.begin(),
                       fmt::format("A (this process) measures, B is another process or host, each "
                                   "busy-polling; CPU figures cover only this side (A), per message {}",
                                   full ? "= per operation" : "sent or received by A"));
        if (o.kind == BenchKind::SendLat)
            r.notes.push_back(
                fmt::format("{} receives kept posted on each side (as ib_send_lat's rx depth)", plan.depth));
    } else {
        r.notes.push_back("A (this process) sends and measures, B is another process or host; CPU figures "
                          "cover only this side (A)");
    }
    return r;
}

// ------------------------------------------------------------------ B: RDMA

/// How long B waits for its own reply to complete (A stopping is seen through the disconnect).
constexpr int kServeStallMs = 600000;

void b_serve(Connection& c, BenchKind kind, const RdmaPlan& plan, const Remote& a,
             rdma_event_channel* channel) {
    PeerWatch watch{channel};
    Stall stall{kServeStallMs, remote_stall_error};
    const std::size_t size = plan.size;
    ibv_qp* qp = c.qp->get();
    if (kind == BenchKind::WriteLat || kind == BenchKind::SendLat) {
        ibv_sge sge{};
        ibv_send_wr wr = latency_wr(kind, *c.mr, a.addr, a.rkey, size, sge);
        volatile std::uint8_t* in = c.mr->data() + size - 1;
        std::uint8_t* src_last = c.mr->data() + 2 * size - 1;
        for (long i = 0;; ++i) {
            if (kind == BenchKind::WriteLat) {
                const std::uint8_t tag = write_lat_tag(i);
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
                post_recv(qp, *c.mr, size);
            }
            watch.progress();
            post_send(qp, wr);
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
                post_recv(qp, *c.mr, size);
            }
        }
    }
    // read_lat, atomic_lat, write_bw, read_bw: B's CPU takes no part; the caller waits for the disconnect.
}

} // namespace

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
            post_recv(c.qp->get(), *c.mr, plan.size);
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
        fail({.verb = "rdma_connect",
              .err = EPROTO,
              .code = "EPROTO",
              .meaning = "the peer is not an rdmalab bench listener",
              .cause = "The accept carried no rdmalab bench private data.",
              .fix = kListenFix});
    std::memcpy(&rep, rep_event.data.data(), sizeof rep);
    if (be32toh(rep.magic) != kMagic || be32toh(rep.length) < plan.size)
        fail({.verb = "rdma_connect",
              .err = EPROTO,
              .code = "EPROTO",
              .meaning = "the peer's reply is not what this version expects",
              .cause = fmt::format(
                  "Its buffer is {} bytes for a {}-byte measurement, or it is another rdmalab version.",
                  be32toh(rep.length), plan.size),
              .fix = "Run the same rdmalab version on both sides."});
    const Remote target{be64toh(rep.addr), be32toh(rep.rkey)};
    c.transition(IBV_QPS_RTR, "INIT->RTR");
    c.transition(IBV_QPS_RTS, "RTR->RTS");
    check(rdma_establish(c.id), "rdma_establish", peer);

    RemoteBenchResult out;
    BenchOptions eff = o;
    eff.window = plan.depth;
    out.result = a_measure(eff, c, target, plan, remote.timeout_ms);
    out.result.device = c.device;
    out.result.software = software_device(c.device);
    out.peer = peer;
    out.mode = "two hosts (rdma_cm)";
    rdma_disconnect(c.id);
    (void)next_event(ch.channel, 2000); // DISCONNECTED; B may already be gone, the result stands
    return out;
}

void rdma_listener(BenchKind kind, const RemoteBenchOptions& remote, const Say& say) {
    const std::string bind_text = remote::bind_text(remote);
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
            fail_refused("rdma_accept", ours, req.kind, kind, "the connection request");
        }
        const RdmaPlan plan = plan_for(kind, be32toh(req.size), static_cast<int>(be32toh(req.window)));
        const Remote a{be64toh(req.addr), be32toh(req.rkey)};
        c.setup(plan.region, plan.depth);
        c.transition(IBV_QPS_INIT, "RESET->INIT");
        if (kind == BenchKind::SendLat || kind == BenchKind::SendBw)
            for (int i = 0; i < (kind == BenchKind::SendLat ? plan.depth : send_bw_recvs(plan.depth)); ++i)
                post_recv(c.qp->get(), *c.mr, plan.size);
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

} // namespace rdmalab::bench_detail::remote
