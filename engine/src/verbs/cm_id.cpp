#include "rdmalab/engine/cm_id.hpp"

#include "explain/cm_failure.hpp"
#include "net/resolve.hpp"
#include "rdmalab/engine/names.hpp"
#include "verbs/traced_call.hpp"

#include <fmt/format.h>
#include <poll.h>

#include <algorithm>
#include <cctype>
#include <cerrno>

namespace rdmalab {

using namespace detail;

namespace {

/// What an rdma_cm call's errno means here, with the causes a lab meets.
ErrorInfo explain_cm_call(const char* verb, int err) {
    ErrorInfo info = explain_errno(verb, err);
    switch (err) {
    case ENODEV:
        info.cause =
            "No RDMA device owns this address, or rdma_cm cannot use the device behind it (a SoftRoCE "
            "device on the loopback interface has no route rdma_cm can resolve).";
        info.fix =
            "Use an IP address of the interface an RDMA device sits on (`rdma link show`); in the test "
            "bed that is $RDMALAB_CM_ADDR (10.233.0.1, rxe1).";
        info.zh.cause = "没有哪个 RDMA 设备拥有这个地址，或者 rdma_cm 无法使用它背后的设备（回环接口上的 "
                        "SoftRoCE 设备没有 rdma_cm 能够解析的路由）。";
        info.zh.fix = "使用某个挂有 RDMA 设备的网络接口的 IP 地址（`rdma link show`）；在测试环境中，"
                      "就是 $RDMALAB_CM_ADDR（10.233.0.1，rxe1）。";
        break;
    case EADDRNOTAVAIL:
        info.cause = "The address is not one of this machine's addresses.";
        info.fix = "Bind to an address of a local interface (`ip -4 addr`).";
        info.zh.cause = "该地址不是本机的地址。";
        info.zh.fix = "绑定到本机某个网络接口的地址（`ip -4 addr`）。";
        break;
    case EADDRINUSE:
        info.cause = "Another rdma_cm id is already bound to this address and port.";
        info.fix = "Pick another port, or destroy the id that holds it.";
        info.zh.cause = "另一个 rdma_cm_id 已经绑定到这个地址和端口。";
        info.zh.fix = "换一个端口，或者销毁占用它的那个 id。";
        break;
    case EINVAL:
        info.cause = "The call does not fit the id's state (e.g. connect before the route is resolved, "
                     "accept on an id that is not a connect request, a QP on a device other than the id's).";
        info.fix = "Follow the order of rdma_cm(7): resolve_addr, resolve_route, connect; listen, "
                   "connect_request, accept.";
        info.zh.cause = "该调用与 id 的当前状态不符（例如在路由解析之前就 connect，对不是连接请求的 id 执行 "
                        "accept，或者 QP 所在的设备不是 id 的设备）。";
        info.zh.fix = "按照 rdma_cm(7) 的顺序调用：resolve_addr、resolve_route、connect；listen、"
                      "connect_request、accept。";
        break;
    default:
        break;
    }
    return info.seal();
}

nlohmann::json private_data_json(const std::string& data) {
    return {{"private_data", data}, {"private_data_len", data.size()}};
}

/// `param` carrying `private_data` (which must outlive it), and the arguments its trace event shows: the
/// private data and the parameters rdma_connect and rdma_accept share.
rdma_conn_param with_private_data(const rdma_conn_param& param, const std::string& private_data,
                                  nlohmann::json& args) {
    rdma_conn_param p = param;
    p.private_data = private_data.empty() ? nullptr : private_data.data();
    p.private_data_len = static_cast<std::uint8_t>(private_data.size());
    args = private_data_json(private_data);
    args["responder_resources"] = p.responder_resources;
    args["initiator_depth"] = p.initiator_depth;
    args["rnr_retry_count"] = p.rnr_retry_count;
    return p;
}

} // namespace

std::string cm_event_name(rdma_cm_event_type type) {
    std::string name = rdma_event_str(type);
    constexpr std::string_view prefix = "RDMA_CM_EVENT_";
    if (name.rfind(prefix, 0) == 0) name.erase(0, prefix.size());
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return name;
}

// ---- CmEventChannel ------------------------------------------------------------------------------------

CmEventChannel::CmEventChannel(rdma_event_channel* channel, TraceScope trace)
    : channel_(channel), trace_(std::move(trace)) {}

std::shared_ptr<CmEventChannel> CmEventChannel::create(TraceScope trace) {
    rdma_event_channel* channel = traced_call(
        VerbCall{.scope = trace, .verb = "rdma_create_event_channel"},
        [] { return rdma_create_event_channel(); },
        [](const auto& call, nlohmann::json&, nlohmann::json& data) {
            if (call.ok()) data["fd"] = call.value->fd;
        },
        [](const auto& call) { return explain_cm_call("rdma_create_event_channel", call.err); });
    return std::shared_ptr<CmEventChannel>(new CmEventChannel(channel, std::move(trace)));
}

CmEventChannel::~CmEventChannel() {
    const int fd = channel_->fd;
    traced_release(
        trace_, "rdma_destroy_event_channel",
        [&] {
            rdma_destroy_event_channel(channel_);
            return 0;
        },
        [&](nlohmann::json&, nlohmann::json& data) { data["fd"] = fd; });
}

std::optional<CmEvent> CmEventChannel::next_event(rdma_cm_id* id, std::chrono::milliseconds timeout,
                                                  const TraceScope& trace) {
    auto mine = [id](const CmEvent& e) {
        return (e.type == RDMA_CM_EVENT_CONNECT_REQUEST ? e.listen_id : e.id) == id;
    };
    if (const auto kept = std::find_if(pending_.begin(), pending_.end(), mine); kept != pending_.end()) {
        CmEvent event = std::move(*kept);
        pending_.erase(kept);
        return event;
    }
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        pollfd pfd{channel_->fd, POLLIN, 0};
        if (left.count() <= 0 || ::poll(&pfd, 1, static_cast<int>(left.count())) <= 0) return std::nullopt;
        rdma_cm_event* raw = nullptr;
        traced_call(
            VerbCall{.scope = trace, .verb = "rdma_get_cm_event"},
            [&] { return rdma_get_cm_event(channel_, &raw); },
            [&](const auto& call, nlohmann::json&, nlohmann::json& data) {
                if (!call.ok()) return;
                data["event"] = cm_event_name(raw->event);
                data["status"] = raw->status;
            },
            [](const auto& call) { return explain_cm_call("rdma_get_cm_event", call.err); });
        CmEvent event;
        event.type = raw->event;
        event.name = cm_event_name(raw->event);
        event.status = raw->status;
        event.id = raw->id;
        event.listen_id = raw->listen_id;
        const bool datagram = raw->id && raw->id->ps == RDMA_PS_UDP;
        const void* data = datagram ? raw->param.ud.private_data : raw->param.conn.private_data;
        const std::size_t length =
            datagram ? raw->param.ud.private_data_len : raw->param.conn.private_data_len;
        if (data && length > 0) {
            const auto* bytes = static_cast<const std::uint8_t*>(data);
            event.private_data.assign(bytes, bytes + length);
        }
        if (raw->event == RDMA_CM_EVENT_MULTICAST_JOIN) {
            event.ah_attr = raw->param.ud.ah_attr;
            event.qp_num = raw->param.ud.qp_num;
            event.qkey = raw->param.ud.qkey;
        }
        traced_call(
            VerbCall{.scope = trace, .verb = "rdma_ack_cm_event"}, [&] { return rdma_ack_cm_event(raw); },
            [&](const auto&, nlohmann::json&, nlohmann::json& out) { out["event"] = event.name; },
            [](const auto& call) { return explain_cm_call("rdma_ack_cm_event", call.err); });
        if (mine(event)) return event;
        pending_.push_back(std::move(event));
    }
}

// ---- CmId ----------------------------------------------------------------------------------------------

CmId::CmId(std::shared_ptr<CmEventChannel> channel, rdma_cm_id* id, TraceScope trace)
    : channel_(std::move(channel)), id_(id), trace_(std::move(trace)) {}

std::shared_ptr<CmId> CmId::create(std::shared_ptr<CmEventChannel> channel, rdma_port_space space,
                                   TraceScope trace) {
    rdma_cm_id* id = nullptr;
    const char* space_name = space == RDMA_PS_UDP ? "RDMA_PS_UDP" : "RDMA_PS_TCP";
    traced_call(
        VerbCall{.scope = trace, .verb = "rdma_create_id"},
        [&] { return rdma_create_id(channel->get(), &id, nullptr, space); },
        [&](const auto&, nlohmann::json&, nlohmann::json& data) {
            data["args"] = {{"port_space", space_name}, {"channel_fd", channel->get()->fd}};
        },
        [](const auto& call) { return explain_cm_call("rdma_create_id", call.err); });
    return std::shared_ptr<CmId>(new CmId(std::move(channel), id, std::move(trace)));
}

std::shared_ptr<CmId> CmId::adopt(std::shared_ptr<CmEventChannel> channel, rdma_cm_id* id, TraceScope trace) {
    return std::shared_ptr<CmId>(new CmId(std::move(channel), id, std::move(trace)));
}

CmId::~CmId() {
    traced_release(
        trace_, "rdma_destroy_id", [&] { return rdma_destroy_id(id_); }, no_fields);
}

void CmId::traced(const char* verb, int ret, nlohmann::json args) const {
    traced_call(
        VerbCall{.scope = trace_, .verb = verb}, [ret] { return ret; },
        [&](const auto& call, nlohmann::json&, nlohmann::json& data) {
            data["args"] = std::move(args);
            data["errno"] = call.ok() ? 0 : call.err;
        },
        [verb](const auto& call) { return explain_cm_call(verb, call.err); });
}

void CmId::bind(const std::string& address, std::uint16_t port) {
    const AddrInfo addr = resolve_ipv4(address, port, true);
    traced("rdma_bind_addr", rdma_bind_addr(id_, addr->ai_addr), {{"address", address}, {"port", port}});
}

void CmId::listen(int backlog) {
    traced("rdma_listen", rdma_listen(id_, backlog), {{"backlog", backlog}});
}

void CmId::resolve_addr(const std::string& address, std::uint16_t port, std::chrono::milliseconds timeout) {
    const AddrInfo addr = resolve_ipv4(address, port, false);
    traced("rdma_resolve_addr",
           rdma_resolve_addr(id_, nullptr, addr->ai_addr, static_cast<int>(timeout.count())),
           {{"address", address}, {"port", port}, {"timeout_ms", timeout.count()}});
}

void CmId::resolve_route(std::chrono::milliseconds timeout) {
    traced("rdma_resolve_route", rdma_resolve_route(id_, static_cast<int>(timeout.count())),
           {{"timeout_ms", timeout.count()}});
}

void CmId::connect(const rdma_conn_param& param, const std::string& private_data) {
    nlohmann::json args;
    rdma_conn_param p = with_private_data(param, private_data, args);
    args["retry_count"] = p.retry_count;
    traced("rdma_connect", rdma_connect(id_, &p), std::move(args));
}

void CmId::accept(const rdma_conn_param& param, const std::string& private_data) {
    nlohmann::json args;
    rdma_conn_param p = with_private_data(param, private_data, args);
    traced("rdma_accept", rdma_accept(id_, &p), std::move(args));
}

void CmId::reject(const std::string& private_data) {
    traced("rdma_reject",
           rdma_reject(id_, private_data.empty() ? nullptr : private_data.data(),
                       static_cast<std::uint8_t>(private_data.size())),
           private_data_json(private_data));
}

void CmId::disconnect() {
    traced("rdma_disconnect", rdma_disconnect(id_), nlohmann::json::object());
}

void CmId::join_multicast(const std::string& group_address) {
    const AddrInfo addr = resolve_ipv4(group_address, 0, false);
    traced("rdma_join_multicast", rdma_join_multicast(id_, addr->ai_addr, nullptr),
           {{"group", group_address}});
}

void CmId::leave_multicast(const std::string& group_address) {
    const AddrInfo addr = resolve_ipv4(group_address, 0, false);
    traced("rdma_leave_multicast", rdma_leave_multicast(id_, addr->ai_addr), {{"group", group_address}});
}

void CmId::release_multicast(const std::string& group_address) noexcept {
    try {
        const AddrInfo addr = resolve_ipv4(group_address, 0, false);
        traced_release(
            trace_, "rdma_leave_multicast", [&] { return rdma_leave_multicast(id_, addr->ai_addr); },
            [&](nlohmann::json&, nlohmann::json& data) {
                data["args"] = {{"group", group_address}};
            });
    } catch (...) {
    }
}

std::optional<CmEvent> CmId::next_event(std::chrono::milliseconds timeout) {
    return channel_->next_event(id_, timeout, trace_);
}

std::shared_ptr<QueuePair> CmId::create_qp(std::shared_ptr<ProtectionDomain> pd,
                                           std::shared_ptr<CompletionQueue> send_cq,
                                           std::shared_ptr<CompletionQueue> recv_cq, ibv_qp_type type,
                                           const QpCapacity& capacity) {
    ibv_qp_init_attr init{};
    init.send_cq = send_cq->get();
    init.recv_cq = recv_cq->get();
    init.qp_type = type;
    init.cap.max_send_wr = capacity.max_send_wr;
    init.cap.max_recv_wr = capacity.max_recv_wr;
    init.cap.max_send_sge = capacity.max_send_sge;
    init.cap.max_recv_sge = capacity.max_recv_sge;
    init.cap.max_inline_data = capacity.max_inline_data;
    traced_call(
        VerbCall{.scope = trace_, .verb = "rdma_create_qp", .timed = true},
        [&] { return rdma_create_qp(id_, pd->get(), &init); },
        [&](const auto& call, nlohmann::json& ids, nlohmann::json& data) {
            ids = {{"pd", pd->handle()}, {"send_cq", send_cq->id()}, {"recv_cq", recv_cq->id()}};
            if (call.ok() && id_->qp) ids["qpn"] = id_->qp->qp_num;
            data["args"] = {{"qp_type", qp_type_name(type)},
                            {"max_send_wr", capacity.max_send_wr},
                            {"max_recv_wr", capacity.max_recv_wr}};
        },
        [&](const auto& call) {
            ErrorInfo info = explain_cm_call("rdma_create_qp", call.err);
            if (call.err == EINVAL && pd->context()->get() != id_->verbs) {
                info.cause =
                    "The PD is on another device context than the id: rdma_create_qp needs the PD and "
                    "CQs of the device the id is bound to (open the device with `address`).";
                info.zh.cause = "PD 所在的设备上下文与 id 的不同：rdma_create_qp 需要的是 id 所绑定设备上的 "
                                "PD 和 CQ（用 `address` 打开设备）。";
                info.seal();
            }
            return info;
        });
    QpCapacity granted;
    granted.max_send_wr = init.cap.max_send_wr;
    granted.max_recv_wr = init.cap.max_recv_wr;
    granted.max_send_sge = init.cap.max_send_sge;
    granted.max_recv_sge = init.cap.max_recv_sge;
    granted.max_inline_data = init.cap.max_inline_data;
    // The QP keeps its id alive: rdma_destroy_qp needs it, and the id must outlive its QP.
    return QueuePair::adopt(
        std::move(pd), std::move(send_cq), std::move(recv_cq), id_->qp, granted, trace_.endpoint,
        [self = shared_from_this()] { rdma_destroy_qp(self->get()); }, "rdma_destroy_qp");
}

} // namespace rdmalab
