#include "rdmalab/engine/cm.hpp"

#include "explain/cm_failure.hpp"
#include "net/resolve.hpp"
#include "ops/op_common.hpp"
#include "rdmalab/engine/names.hpp"
#include "verbs/traced_call.hpp"

#include <endian.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <netdb.h>
#include <poll.h>
#include <rdma/rdma_cma.h>

#include <cerrno>
#include <cstring>
#include <optional>

namespace rdmalab {

using namespace detail;

std::uint64_t fnv1a(const std::uint8_t* data, std::size_t length) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (std::size_t i = 0; i < length; ++i) {
        hash ^= data[i];
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

namespace {

constexpr std::uint32_t kMagic = 0x52444c42; // "RDLB"
constexpr std::uint8_t kWireVersion = 1;

// Connect request private data (A -> B). Fixed-size, big-endian fields; fits the 56 bytes a REQ carries.
struct RequestData {
    std::uint32_t magic;
    std::uint8_t version;
    std::uint8_t op;
    std::uint8_t fault;
    std::uint8_t pad;
    std::uint32_t size;
    std::uint32_t imm;
    std::uint64_t payload_hash; // of A's buffer (send/write)
    std::uint64_t operand;      // atomics: FAA add / CAS swap
    std::uint64_t compare;      // CAS compare
};
// Accept private data (B -> A): where B's buffer is and what it holds.
struct ReplyData {
    std::uint32_t magic;
    std::uint32_t rkey;
    std::uint64_t addr;
    std::uint32_t length;
    std::uint32_t pad;
    std::uint64_t payload_hash; // of B's buffer (read)
    std::uint64_t initial;      // atomics: B's 8 bytes before the operation
};
static_assert(sizeof(RequestData) <= 56, "REQ private data is limited to 56 bytes");

struct EventChannel {
    rdma_event_channel* channel = nullptr;
    ~EventChannel() {
        if (channel) rdma_destroy_event_channel(channel);
    }
};

struct CmId {
    rdma_cm_id* id = nullptr;
    ~CmId() {
        if (id) rdma_destroy_id(id);
    }
};

/// Side state; members are declared so that destruction runs QP, CQ, MR, PD, context, then the cm ids.
struct Side {
    std::shared_ptr<Tracer> tracer;
    Endpoint endpoint;
    EventChannel channel;
    CmId listen_id;
    CmId id;
    std::shared_ptr<Context> context;
    std::shared_ptr<ProtectionDomain> pd;
    std::shared_ptr<MemoryRegion> mr;
    std::shared_ptr<CompletionQueue> cq;
    std::shared_ptr<QueuePair> qp;

    ~Side() {
        qp.reset();
        cq.reset();
        mr.reset();
        pd.reset();
        context.reset();
    }

    TraceScope scope() const { return TraceScope{tracer, endpoint}; }

    /// Traces an rdma_cm call that returned `ret` (0, or -1 with errno set) and throws when it failed.
    void traced(const char* verb, int ret, nlohmann::json args = nlohmann::json::object()) const {
        const TraceScope trace = scope();
        traced_call(
            VerbCall{.scope = trace, .verb = verb}, [ret] { return ret; },
            [&](const auto& outcome, nlohmann::json&, nlohmann::json& data) {
                data["args"] = std::move(args);
                data["errno"] = outcome.ok() ? 0 : outcome.err;
            },
            [&](const auto& outcome) {
                const int err = outcome.err;
                ErrorInfo info = explain_errno(verb, err);
                if (err == ECONNREFUSED || err == EADDRNOTAVAIL || err == ENODEV || err == EADDRINUSE) {
                    info.cause =
                        fmt::format("{}: the address is not on an RDMA-capable interface, is in use, "
                                    "or nothing listens there.",
                                    errno_text(err));
                    info.fix =
                        "Use an IP address of the interface the RDMA device sits on (`rdma link show`; "
                        "not 127.0.0.1: rdma_cm cannot use a device on the loopback interface), start "
                        "the listener first, or pick another --cm-port.";
                    info.zh.cause = fmt::format("{}：该地址不在支持 RDMA 的网络接口上，或者已被占用，或者"
                                                "那里没有监听方。",
                                                errno_text_zh(err));
                    info.zh.fix = "使用 RDMA 设备所在网络接口的 IP 地址（`rdma link show`；不要用 127.0.0.1："
                                  "rdma_cm 无法使用回环接口上的设备），先启动监听方，或者换一个 --cm-port。";
                    info.seal();
                }
                return info;
            });
    }

    /// Waits for one rdma_cm event of the expected type; copies its private data.
    std::vector<std::uint8_t> wait_event(rdma_cm_event_type expected, int timeout_ms,
                                         rdma_cm_id** new_id = nullptr) {
        pollfd pfd{channel.channel->fd, POLLIN, 0};
        const int ready = ::poll(&pfd, 1, timeout_ms);
        if (ready <= 0) {
            fail(scope(),
                 ErrorInfo{.verb = "rdma_get_cm_event",
                           .err = ETIMEDOUT,
                           .code = "ETIMEDOUT",
                           .meaning = "no connection event arrived in time",
                           .cause = fmt::format("Waited {} ms for {}: the peer is not running, not "
                                                "reachable through an RDMA device, or failed.",
                                                timeout_ms, rdma_event_str(expected)),
                           .fix = "Start the listener (--listen) before the connector (--connect) and "
                                  "check the address and --cm-port on both sides.",
                           .zh = {.meaning = "没有按时收到连接事件",
                                  .cause = fmt::format("等了 {0} ms 仍没有等到 {1}：对端没有运行、无法通过 "
                                                       "RDMA 设备到达，或者已经失败。",
                                                       timeout_ms, rdma_event_str(expected)),
                                  .fix =
                                      "先启动监听方（--listen），再启动连接方（--connect），并检查两端的地址"
                                      "和 --cm-port。"}}
                     .seal());
        }
        rdma_cm_event* event = nullptr;
        if (rdma_get_cm_event(channel.channel, &event) != 0) traced("rdma_get_cm_event", -1);
        const rdma_cm_event_type type = event->event;
        const int status = event->status;
        std::vector<std::uint8_t> data;
        if (event->param.conn.private_data && event->param.conn.private_data_len > 0) {
            const auto* p = static_cast<const std::uint8_t*>(event->param.conn.private_data);
            data.assign(p, p + event->param.conn.private_data_len);
        }
        if (new_id) *new_id = event->id;
        rdma_ack_cm_event(event);
        if (tracer && tracer->enabled())
            tracer->record(endpoint, EventKind::Verb, "rdma_get_cm_event", {},
                           {{"ret", 0},
                            {"event", rdma_event_str(type)},
                            {"status", status},
                            {"private_data_len", data.size()}});
        if (type != expected) {
            ErrorInfo info{
                .verb = type == RDMA_CM_EVENT_REJECTED ? "rdma_connect" : "rdma_get_cm_event",
                .err = status < 0 ? -status : 0,
                .code = rdma_event_str(type),
                .meaning = fmt::format("expected {}", rdma_event_str(expected)),
                .cause = describe_cm_failure(type, status),
                .fix = "Check both sides' output; start the listener first; use the same OPCODE on both.",
                .zh = {.meaning = fmt::format("预期的是 {}", rdma_event_str(expected)),
                       .cause = describe_cm_failure_zh(type, status),
                       .fix = "查看两端的输出；先启动监听方；两端使用同一个 OPCODE。"}};
            if (type == RDMA_CM_EVENT_ADDR_ERROR || type == RDMA_CM_EVENT_ROUTE_ERROR ||
                type == RDMA_CM_EVENT_UNREACHABLE) {
                info.fix = "Use an IP address of an interface that has an RDMA device (`rdma link show`; "
                           "not 127.0.0.1: rdma_cm needs a non-loopback interface), reachable from here.";
                info.zh.fix = "使用挂有 RDMA 设备、且从本机可以到达的网络接口的 IP 地址（`rdma link show`；"
                              "不要用 127.0.0.1：rdma_cm 需要非回环接口）。";
            }
            info.seal();
            fail(scope(), std::move(info));
        }
        return data;
    }

    /// One named transition with the attributes rdma_cm computed for this connection.
    void transition(ibv_qp_state to, const char* name) {
        ibv_qp_attr attr{};
        int mask = 0;
        attr.qp_state = to;
        const int ret = rdma_init_qp_attr(id.id, &attr, &mask);
        traced("rdma_init_qp_attr", ret, {{"qp_state", qp_state_name(to)}});
        qp->modify(attr, mask, name);
    }

    /// The event channel and the rdma_cm id (`*where`) a side starts with.
    void create_id(rdma_cm_id** where) {
        channel.channel = rdma_create_event_channel();
        if (!channel.channel) traced("rdma_create_event_channel", -1);
        traced("rdma_create_id", rdma_create_id(channel.channel, where, nullptr, RDMA_PS_TCP),
               {{"port_space", "RDMA_PS_TCP"}});
    }

    void step(const std::string& step_id, const std::string& title) const {
        if (tracer && tracer->enabled())
            tracer->record(endpoint, EventKind::Step, step_id, {}, {{"title", title}});
    }

    void setup_objects(std::size_t size, unsigned access, const char* label) {
        context = Context::borrow(id.id->verbs, tracer);
        pd = ProtectionDomain::alloc(context, endpoint);
        mr = MemoryRegion::allocate(pd, size, access, label);
        cq = CompletionQueue::create(context, endpoint, 16);
        qp = QueuePair::create(pd, cq, cq, IBV_QPT_RC);
    }
};

/// A side that ran to its end: its verdict, recorded as a `verified` or `not_verified` check event.
void finish_side(const std::shared_ptr<Tracer>& tracer, Endpoint endpoint, bool ok, OperationOutcome& out) {
    out.success = ok;
    out.finished = true;
    if (tracer && tracer->enabled())
        tracer->record(endpoint, EventKind::Check, out.success ? "verified" : "not_verified", {},
                       {{"ok", out.success}, {"checks", out.checks}, {"summary", out.summary}});
}

/// A side stopped by an error: the error and a one-line summary naming the side.
void side_failed(const char* side, const RdmaError& e, OperationOutcome& out) {
    out.error = e.info();
    out.finished = true;
    out.summary = fmt::format("{} failed: {} {}", side, e.info().verb, e.info().code);
}

/// Runs one side: `steps(side, out)` performs it and returns whether its checks held; an RdmaError stops
/// it, and the summary names the side (`name`).
template <class Steps>
OperationOutcome run_side(const std::shared_ptr<Tracer>& tracer, Endpoint endpoint, const char* name,
                          const Steps& steps) {
    OperationOutcome out;
    Side side;
    side.tracer = tracer;
    side.endpoint = endpoint;
    try {
        const bool ok = steps(side, out);
        finish_side(tracer, endpoint, ok, out);
    } catch (const RdmaError& e) {
        side_failed(name, e, out);
    }
    return out;
}

/// A connection event's private data as a T, or nothing when the peer sent less: it is no rdmalab peer.
template <class T> std::optional<T> private_data_as(const std::vector<std::uint8_t>& bytes) {
    if (bytes.size() < sizeof(T)) return std::nullopt;
    T value{};
    std::memcpy(&value, bytes.data(), sizeof value);
    return value;
}

/// The texts of an explanation in English and in Chinese.
struct Texts {
    std::string en;
    std::string zh;
};

/// An EPROTO failure of `verb`: the peer's private data does not follow rdmalab's protocol.
ErrorInfo protocol_error(const char* verb, const char* code, Texts meaning, Texts cause, Texts fix) {
    return ErrorInfo{
        .verb = verb,
        .err = EPROTO,
        .code = code,
        .meaning = std::move(meaning.en),
        .cause = std::move(cause.en),
        .fix = std::move(fix.en),
        .zh = {.meaning = std::move(meaning.zh), .cause = std::move(cause.zh), .fix = std::move(fix.zh)}}
        .seal();
}

/// What rdma_connect and rdma_accept are given: `data` as the private data, one RDMA READ or atomic
/// outstanding each way, this QP's number, and the RNR retry count the *peer* is to use (see
/// accept_connection).
template <class T>
rdma_conn_param conn_param(const T& data, std::uint32_t qp_num, std::uint8_t rnr_retry_count) {
    rdma_conn_param param{};
    param.private_data = &data;
    param.private_data_len = sizeof data;
    param.responder_resources = 1;
    param.initiator_depth = 1;
    param.rnr_retry_count = rnr_retry_count;
    param.qp_num = qp_num;
    return param;
}

// B, the listener: listen_on, accept_request, setup_responder, accept_connection, serve, verify_responder.

/// What A asked B to serve, from its connect request.
struct ServedRequest {
    OpKind op = OpKind::Send;
    FaultKind fault = FaultKind::None;
    std::size_t size = 0;
    RequestData wire{}; ///< the request as it arrived, big-endian
};

/// B's first step: an rdma_cm id listening on the address and port of `cm`.
void listen_on(Side& b, const CmOptions& cm) {
    const std::string address = cm.address.empty() ? "0.0.0.0" : cm.address;
    b.step("listen", fmt::format("B: listen for a connection on {}:{} (rdma_listen)", address, cm.port));
    b.create_id(&b.listen_id.id);
    const detail::AddrInfo addr = detail::resolve_ipv4(cm.address, cm.port, true);
    b.traced("rdma_bind_addr", rdma_bind_addr(b.listen_id.id, addr->ai_addr),
             {{"address", address}, {"port", cm.port}});
    b.traced("rdma_listen", rdma_listen(b.listen_id.id, 1), {{"backlog", 1}});
}

/// Waits for A's connect request (its id becomes `b.id`) and reads what A asks for; rejects a request
/// that is not rdmalab's or that asks for another operation than the one B serves.
ServedRequest accept_request(Side& b, OpKind served, const CmOptions& cm) {
    rdma_cm_id* conn = nullptr;
    const auto bytes = b.wait_event(RDMA_CM_EVENT_CONNECT_REQUEST, cm.accept_timeout_ms, &conn);
    b.id.id = conn;
    const auto wire = private_data_as<RequestData>(bytes);
    if (!wire) {
        rdma_reject(conn, nullptr, 0);
        throw RdmaError(
            protocol_error("rdma_accept", "EPROTO",
                           {"the connection request is not from rdmalab", "连接请求不是来自 rdmalab"},
                           {"The peer's private data is missing or too short.",
                            "对端的私有数据（private_data）缺失或太短。"},
                           {"Connect with `rdmalab-cli op OPCODE --connect HOST`.",
                            "用 `rdmalab-cli op OPCODE --connect HOST` 发起连接。"}));
    }
    const ServedRequest request{.op = static_cast<OpKind>(wire->op),
                                .fault = static_cast<FaultKind>(wire->fault),
                                .size = be32toh(wire->size),
                                .wire = *wire};
    if (be32toh(wire->magic) != kMagic || wire->version != kWireVersion || request.op != served) {
        rdma_reject(conn, nullptr, 0);
        throw RdmaError(protocol_error(
            "rdma_accept", "rejected",
            {fmt::format("A asked for '{}', this side serves '{}'",
                         wire->op <= 6 ? to_string(request.op) : "?", to_string(served)),
             fmt::format("A 请求的是“{}”，本端提供的是“{}”", wire->op <= 6 ? to_string(request.op) : "?",
                         to_string(served))},
            {"The two sides were started with different OPCODEs (or different rdmalab versions).",
             "两端启动时用了不同的 OPCODE（或者不同版本的 rdmalab）。"},
            {"Start both sides with the same OPCODE.", "两端用同一个 OPCODE 启动。"}));
    }
    return request;
}

/// B's objects, its region holding what the operation needs there: the atomic's initial value (returned)
/// or the data A reads.
std::uint64_t setup_responder(Side& b, const ServedRequest& request, const OperationOptions& options) {
    const unsigned access = responder_access(request.op, request.fault);
    b.step("setup_B",
           fmt::format("B: PD, {}-byte region with access {}, CQ and RC QP on the device rdma_cm chose",
                       request.size, fmt::join(access_flag_names(access), "|")));
    b.setup_objects(request.size, access, "B buffer");
    const auto bytes = b.mr->bytes();
    std::uint64_t initial = 0;
    if (is_atomic(request.op)) {
        initial = options.atomic_initial;
        std::memcpy(bytes.data(), &initial, 8);
    } else if (request.op == OpKind::Read) {
        fill_pattern(bytes, options.message);
    }
    return initial;
}

/// B readies its QP (INIT, the receive the operation consumes, RTR, RTS) and accepts, telling A where its
/// region is and what it holds. Returns whether a receive was posted.
bool accept_connection(Side& b, const ServedRequest& request, std::uint64_t initial, const CmOptions& cm) {
    b.step("connect_B", "B: INIT, post a receive if the operation needs one, RTR, RTS, then accept");
    b.transition(IBV_QPS_INIT, "RESET->INIT");
    const bool post_recv = needs_recv(request.op) && request.fault != FaultKind::NoRecv;
    if (post_recv) {
        RecvRequest recv;
        recv.wr_id = 2;
        if (request.op != OpKind::WriteImm)
            recv.sges.push_back({b.mr->address(), static_cast<std::uint32_t>(request.size), b.mr->lkey()});
        b.qp->post_recv(recv);
    }
    b.transition(IBV_QPS_RTR, "INIT->RTR");
    b.transition(IBV_QPS_RTS, "RTR->RTS");
    const auto bytes = b.mr->bytes();
    ReplyData reply{};
    reply.magic = htobe32(kMagic);
    reply.rkey = htobe32(b.mr->rkey());
    reply.addr = htobe64(b.mr->address());
    reply.length = htobe32(static_cast<std::uint32_t>(request.size));
    reply.payload_hash = htobe64(fnv1a(bytes.data(), bytes.size()));
    reply.initial = htobe64(initial);
    // The RNR retry count a side sends is the one its *peer* uses: the CM REP carries how often the
    // REQ's sender (A) retries after an RNR NAK, and rdma_init_qp_attr gives A's RTS that value. So the
    // no-recv fault (A fails at the first RNR NAK) is set here, by B.
    rdma_conn_param param = conn_param(reply, b.qp->qp_num(), request.fault == FaultKind::NoRecv ? 0 : 7);
    b.traced("rdma_accept", rdma_accept(b.id.id, &param),
             {{"qp_num", b.qp->qp_num()},
              {"rkey", b.mr->rkey()},
              {"addr", fmt::format("0x{:x}", b.mr->address())}});
    b.wait_event(RDMA_CM_EVENT_ESTABLISHED, cm.timeout_ms);
    return post_recv;
}

/// B waits while A works: for its receive's completion if it posted one, then for A's disconnect.
void serve(Side& b, bool post_recv, const CmOptions& cm, OperationOutcome& out) {
    b.step("serve_B", "B: wait for A's operation and its disconnect");
    if (post_recv) {
        auto wcs = b.cq->poll_until(1, std::chrono::milliseconds(cm.timeout_ms));
        if (!wcs.empty()) out.responder_completion = wcs.front();
    }
    b.wait_event(RDMA_CM_EVENT_DISCONNECTED, cm.timeout_ms);
    rdma_disconnect(b.id.id);
    b.context->poll_async_events();
}

/// B's checks of its region (`before` is what it held before A's operation) and of its receive's
/// completion; with a fault, also the summary. Returns whether every check held.
bool verify_responder(const Side& b, const ServedRequest& request, std::uint64_t initial,
                      const std::vector<std::uint8_t>& before, OperationOutcome& out) {
    Checklist check{out.checks};
    const auto bytes = b.mr->bytes();
    const bool changed = !std::equal(bytes.begin(), bytes.end(), before.begin());
    const OpKind op = request.op;
    if (request.fault != FaultKind::None) {
        check(!changed || request.fault == FaultKind::NoRecv,
              "B's buffer is unchanged: the faulty access was refused");
        out.summary = fmt::format("served fault {}; B's QP state {}", to_string(request.fault),
                                  qp_state_name(b.qp->query_state()));
    } else if (is_atomic(op)) {
        std::uint64_t now = 0;
        std::memcpy(&now, bytes.data(), 8);
        const std::uint64_t operand = be64toh(request.wire.operand);
        const std::uint64_t want = op == OpKind::CompareSwap ? operand : initial + operand;
        check(now == want,
              fmt::format("B's 8 bytes changed from {} to {} (expected {})", initial, now, want));
    } else if (op == OpKind::Read) {
        check(!changed, "B's buffer is unchanged: A read it without B's CPU taking part");
    } else {
        check(fnv1a(bytes.data(), bytes.size()) == be64toh(request.wire.payload_hash),
              fmt::format("B's buffer holds the {} bytes A sent (hash matches)", request.size));
        if (needs_recv(op)) {
            const auto& wc = out.responder_completion;
            check(wc && wc->ok() && wc->byte_len == request.size,
                  fmt::format("B's receive completion {} byte_len {}",
                              wc ? wc_status_name(wc->status) : "missing", wc ? wc->byte_len : 0));
            if (op != OpKind::Send)
                check(wc && wc->imm_data == be32toh(request.wire.imm),
                      "B's completion carries A's immediate data");
        }
    }
    return check.ok;
}

// A, the connector: resolve_route, setup_requester, connect_to_listener, perform_operation,
// verify_requester, disconnect_from_listener.

/// A's first step: the address and the route to the listener, which choose the device.
void resolve_route(Side& a, const CmOptions& cm) {
    a.step("resolve", fmt::format("A: resolve {}:{} to an RDMA device and a route (rdma_resolve_addr, "
                                  "rdma_resolve_route)",
                                  cm.address, cm.port));
    a.create_id(&a.id.id);
    const detail::AddrInfo addr = detail::resolve_ipv4(cm.address, cm.port, false);
    a.traced("rdma_resolve_addr", rdma_resolve_addr(a.id.id, nullptr, addr->ai_addr, 2000),
             {{"host", cm.address}, {"port", cm.port}});
    a.wait_event(RDMA_CM_EVENT_ADDR_RESOLVED, cm.timeout_ms);
    a.traced("rdma_resolve_route", rdma_resolve_route(a.id.id, 2000));
    a.wait_event(RDMA_CM_EVENT_ROUTE_RESOLVED, cm.timeout_ms);
}

/// A's objects on that device, its region holding what it sends, its QP in INIT.
void setup_requester(Side& a, const OperationOptions& options, std::size_t size) {
    a.step("setup_A", "A: PD, region, CQ and RC QP on the device rdma_cm chose");
    a.setup_objects(size, requester_access(options.op), "A buffer");
    if (!is_atomic(options.op) && options.op != OpKind::Read) fill_pattern(a.mr->bytes(), options.message);
    a.transition(IBV_QPS_INIT, "RESET->INIT");
}

/// A connects, asking B for the operation, and learns B's region from the reply; its QP ends in RTS.
ReplyData connect_to_listener(Side& a, const OperationOptions& options, std::size_t size,
                              const CmOptions& cm) {
    a.step("connect_A", "A: connect, exchanging QP numbers and B's address and rkey (rdma_connect)");
    const auto bytes = a.mr->bytes();
    RequestData req{};
    req.magic = htobe32(kMagic);
    req.version = kWireVersion;
    req.op = static_cast<std::uint8_t>(options.op);
    req.fault = static_cast<std::uint8_t>(options.fault);
    req.size = htobe32(static_cast<std::uint32_t>(size));
    req.imm = htobe32(options.imm_data);
    req.payload_hash = htobe64(fnv1a(bytes.data(), bytes.size()));
    req.operand = htobe64(options.atomic_operand);
    req.compare = htobe64(options.atomic_initial);
    // B's retries (the REQ's count is the REP sender's); A's come from B's REP
    rdma_conn_param param = conn_param(req, a.qp->qp_num(), 7);
    param.retry_count = 7;
    a.traced("rdma_connect", rdma_connect(a.id.id, &param), {{"qp_num", a.qp->qp_num()}});
    const auto rep = private_data_as<ReplyData>(a.wait_event(RDMA_CM_EVENT_CONNECT_RESPONSE, cm.timeout_ms));
    if (!rep)
        throw RdmaError(protocol_error(
            "rdma_connect", "EPROTO", {"the peer is not an rdmalab listener", "对端不是 rdmalab 的监听方"},
            {"The accept carried no rdmalab private data.", "accept 没有携带 rdmalab 的私有数据。"},
            {"Start B with `rdmalab-cli op OPCODE --listen`.",
             "用 `rdmalab-cli op OPCODE --listen` 启动 B。"}));
    if (a.tracer && a.tracer->enabled())
        a.tracer->record(Endpoint::A, EventKind::Data, "peer_region", {{"rkey", be32toh(rep->rkey)}},
                         {{"addr", fmt::format("0x{:x}", be64toh(rep->addr))},
                          {"length", be32toh(rep->length)},
                          {"why", "B's buffer address and rkey, received in the connection's private data"}});
    a.transition(IBV_QPS_RTR, "INIT->RTR");
    a.transition(IBV_QPS_RTS, "RTR->RTS");
    a.traced("rdma_establish", rdma_establish(a.id.id));
    return *rep;
}

/// A posts the operation to B's region (spoiled as the fault asks) and polls for its completion.
void perform_operation(Side& a, const OperationOptions& options, std::size_t size, const ReplyData& rep,
                       OperationOutcome& out) {
    const OpKind op = options.op;
    a.step("post_send_A", fmt::format("A: post {} to B's region", wr_opcode_name(wr_opcode(op))));
    SendRequest wr;
    wr.wr_id = 1;
    wr.opcode = wr_opcode(op);
    wr.inline_data = options.inline_data;
    wr.sges.push_back({a.mr->address(), static_cast<std::uint32_t>(size), a.mr->lkey()});
    if (op == OpKind::SendImm || op == OpKind::WriteImm) wr.imm_data = options.imm_data;
    if (!is_send(op)) {
        wr.remote_addr = be64toh(rep.addr) + (options.fault == FaultKind::OutOfBounds ? 1 : 0);
        wr.rkey = be32toh(rep.rkey) ^ (options.fault == FaultKind::BadRkey ? 0x00ff0000u : 0u);
    }
    if (op == OpKind::CompareSwap) {
        wr.compare_add = options.atomic_initial;
        wr.swap = options.atomic_operand;
    } else if (op == OpKind::FetchAdd) {
        wr.compare_add = options.atomic_operand;
    }
    a.qp->post_send(wr);
    a.step("poll_cq_A", "A: poll for the completion");
    auto wcs = a.cq->poll_until(1, std::chrono::milliseconds(options.timeout_ms));
    if (!wcs.empty()) out.requester_completion = wcs.front();
}

/// A's checks of its completion, its QP's state and (for a READ or an atomic) its buffer against what B
/// reported in `rep`. Returns whether every check held.
bool verify_requester(const Side& a, const OperationOptions& options, std::size_t size, const ReplyData& rep,
                      OperationOutcome& out) {
    const OpKind op = options.op;
    const auto bytes = a.mr->bytes();
    const std::string opcode(wr_opcode_name(wr_opcode(op)));
    Checklist check{out.checks};
    const auto expected = expected_status(options.fault);
    const auto& wc = out.requester_completion;
    check_requester_status(check, wc, expected);
    if (options.fault != FaultKind::None) {
        out.requester_qp_state = std::string(qp_state_name(a.qp->query_state()));
        check_requester_in_error(check, out.requester_qp_state);
        if (wc && !wc->ok()) out.error = explain_wc_status(wc->status, opcode);
    } else if (wc && wc->ok()) {
        check(wc->opcode == expected_wc_opcode(op),
              fmt::format("A's completion opcode {}", wc_opcode_name(wc->opcode)));
        if (op == OpKind::Read)
            check(fnv1a(bytes.data(), bytes.size()) == be64toh(rep.payload_hash),
                  fmt::format("A's buffer holds the {} bytes of B's buffer (hash matches)", size));
        if (is_atomic(op)) {
            std::uint64_t old = 0;
            std::memcpy(&old, bytes.data(), 8);
            check(old == be64toh(rep.initial),
                  fmt::format("A received B's old value {} (expected {})", old, be64toh(rep.initial)));
        }
        if (!is_atomic(op) && op != OpKind::Read)
            out.checks.push_back("info B verifies the bytes it received");
        out.requester_qp_state = std::string(qp_state_name(a.qp->query_state()));
    } else if (wc) {
        out.error = explain_wc_status(wc->status, opcode);
    }
    return check.ok;
}

/// A's last step: it disconnects and waits for the disconnect to complete.
void disconnect_from_listener(Side& a, const CmOptions& cm) {
    a.step("disconnect_A", "A: disconnect (rdma_disconnect)");
    a.traced("rdma_disconnect", rdma_disconnect(a.id.id));
    try {
        a.wait_event(RDMA_CM_EVENT_DISCONNECTED, cm.timeout_ms);
    } catch (const RdmaError&) {
        // B may already be gone; the operation's result stands.
    }
    a.context->poll_async_events();
}

} // namespace

OperationOutcome run_cm_listener(const OperationOptions& options, const CmOptions& cm,
                                 const std::shared_ptr<Tracer>& tracer) {
    return run_side(tracer, Endpoint::B, "B", [&](Side& b, OperationOutcome& out) {
        listen_on(b, cm);
        const ServedRequest request = accept_request(b, options.op, cm);
        const std::uint64_t initial = setup_responder(b, request, options);
        const auto bytes = b.mr->bytes();
        const std::vector<std::uint8_t> before(bytes.begin(), bytes.end());
        const bool post_recv = accept_connection(b, request, initial, cm);
        serve(b, post_recv, cm, out);
        const bool ok = verify_responder(b, request, initial, before, out);
        out.responder_qp_state = std::string(qp_state_name(b.qp->query_state()));
        if (out.summary.empty())
            out.summary =
                ok ? fmt::format("B served {} of {} bytes over rdma_cm and verified its memory on {}",
                                 to_string(request.op), request.size, b.context->device_name())
                   : "B's verification failed";
        return ok;
    });
}

OperationOutcome run_cm_connector(const OperationOptions& options, const CmOptions& cm,
                                  const std::shared_ptr<Tracer>& tracer) {
    return run_side(tracer, Endpoint::A, "A", [&](Side& a, OperationOutcome& out) {
        const std::size_t size = is_atomic(options.op) ? 8 : options.size;
        resolve_route(a, cm);
        setup_requester(a, options, size);
        const ReplyData rep = connect_to_listener(a, options, size, cm);
        perform_operation(a, options, size, rep, out);
        const bool ok = verify_requester(a, options, size, rep, out);
        disconnect_from_listener(a, cm);
        if (!ok)
            out.summary = "A's operation did not verify";
        else if (options.fault == FaultKind::None)
            out.summary = fmt::format("{} of {} bytes over rdma_cm completed on {}", to_string(options.op),
                                      size, a.context->device_name());
        else
            out.summary =
                fmt::format("fault {} observed over rdma_cm: {} and QP in ERR", to_string(options.fault),
                            wc_status_name(expected_status(options.fault)));
        return ok;
    });
}

detail::AddrInfo detail::resolve_ipv4(const std::string& host, std::uint16_t port, bool passive) {
    addrinfo hints{};
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    if (passive) hints.ai_flags = AI_PASSIVE;
    addrinfo* result = nullptr;
    const std::string service = std::to_string(port);
    const int ret = getaddrinfo(host.empty() ? nullptr : host.c_str(), service.c_str(), &hints, &result);
    if (ret != 0)
        throw RdmaError(
            ErrorInfo{.verb = "getaddrinfo",
                      .err = 0,
                      .code = "EAI",
                      .meaning = gai_strerror(ret),
                      .cause = fmt::format("'{}' is not an IPv4 address or a resolvable host name.", host),
                      .fix = "Pass the IP address of the peer's RDMA interface.",
                      .zh = {.meaning = {},
                             .cause = fmt::format("“{}”既不是 IPv4 地址，也不是可以解析的主机名。", host),
                             .fix = "传入对端 RDMA 网络接口的 IP 地址。"}}
                .seal());
    return {result, &freeaddrinfo};
}

} // namespace rdmalab
