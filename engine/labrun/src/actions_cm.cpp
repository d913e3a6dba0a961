// The rdma_cm actions (chapter 8) and the UD multicast actions (chapter 24), each through the engine's
// rdma_cm classes (rdmalab/engine/cm_id.hpp), so every call is traced and every failure explained.
#include "actions.hpp"

#include "rdmalab/engine/names.hpp"

#include <fmt/format.h>

namespace rdmalab::labs::run {

namespace {

constexpr int kDefaultCmTimeoutMs = 5000;

std::chrono::milliseconds cm_timeout(const Step& step) {
    return std::chrono::milliseconds(integer(step, "timeout", kDefaultCmTimeoutMs));
}

rdma_port_space port_space(const Step& step) {
    return text(step, "port_space", "tcp") == "udp" ? RDMA_PS_UDP : RDMA_PS_TCP;
}

TraceScope scope_of(const State& s, const std::string& name) {
    return TraceScope{s.tracer, endpoint_of(name)};
}

/// A new id on its own new event channel, kept under `name`.
std::shared_ptr<CmId> new_id(State& s, const std::string& name, rdma_port_space space) {
    const TraceScope trace = scope_of(s, name);
    auto id = CmId::create(CmEventChannel::create(trace), space, trace);
    s.cm_ids[name] = id;
    s.created.push_back(name);
    return id;
}

/// The id's values ({E.id.port}, {E.id.device}) once it is bound to a device.
void set_id_values(State& s, const std::string& name, const CmId& id) {
    s.values[name + ".port"] = std::to_string(ntohs(rdma_get_src_port(id.get())));
    s.values[name + ".device"] = id.verbs() ? ibv_get_device_name(id.verbs()->device) : "none";
}

/// The cm actions need the lab's PDs and CQs on the device rdma_cm bound the id to.
void require_lab_device(State& s, const CmId& id, const std::string& name) {
    const auto& d = device(s);
    if (!id.verbs())
        throw LabRunError(fmt::format("{} is bound to no device yet: bind it (cm_bind) or resolve an address "
                                      "(cm_resolve, then addr_resolved) first",
                                      name));
    if (id.verbs() != d.context->get())
        throw LabRunError(fmt::format(
            "{} is on device {}, the lab's PDs and CQs on {} ({}): rdma_create_qp needs the PD and CQs of "
            "the "
            "context rdma_cm uses for the id's device; open the device with `address:` set to an address of "
            "that device (docs/lab-format.md)",
            name, ibv_get_device_name(id.verbs()->device), d.name,
            d.cm_anchor ? "the device of another address" : "opened without `address`"));
}

/// Text of private data as received: the buffer is zero-padded to the message's private-data size, so
/// the text ends at the first zero byte; other non-printable bytes are shown as '.'.
std::string private_text(const std::vector<std::uint8_t>& data) {
    std::string out;
    for (const auto byte : data) {
        if (byte == 0) break;
        out += (byte >= 0x20 && byte < 0x7f) ? static_cast<char>(byte) : '.';
    }
    return out;
}

rdma_conn_param conn_param(const Step& step) {
    rdma_conn_param p{};
    p.responder_resources = 1;
    p.initiator_depth = 1;
    p.retry_count = static_cast<std::uint8_t>(integer(step, "retry_count", 7));
    p.rnr_retry_count = static_cast<std::uint8_t>(integer(step, "rnr_retry_count", 7));
    return p;
}

} // namespace

std::shared_ptr<Context> open_device_by_address(State& s, const std::string& address, DeviceState& d) {
    const TraceScope trace{s.tracer, Endpoint::None};
    auto anchor = CmId::create(CmEventChannel::create(trace), RDMA_PS_TCP, trace);
    anchor->bind(address, 0);
    if (!anchor->verbs())
        throw RdmaError(ErrorInfo{
            .verb = "rdma_bind_addr",
            .err = ENODEV,
            .code = "ENODEV",
            .meaning = "the address is bound to no RDMA device",
            .cause = fmt::format("{} is a local address, but no RDMA device sits on its interface.", address),
            .fix =
                "Add a SoftRoCE device on that interface (rdma link add rxe1 type rxe netdev IFACE) or use "
                "an address of an interface that has one (`rdma link show`).",
            .zh = {.meaning = "该地址没有绑定到任何 RDMA 设备",
                   .cause = fmt::format("{} 是本机地址，但它所在的网络接口上没有 RDMA 设备。", address),
                   .fix = "在该接口上添加一个 SoftRoCE 设备（`rdma link add rxe1 type rxe netdev IFACE`），"
                          "或者使用挂有 RDMA 设备的网络接口的地址（`rdma link show`）。"}}
                            .seal());
    d.cm_anchor = anchor;
    return Context::borrow(anchor->verbs(), s.tracer);
}

void do_cm_bind(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "as");
    auto id = new_id(s, name, port_space(step));
    id->bind(text(step, "address"), static_cast<std::uint16_t>(integer(step, "port", 0)));
    set_id_values(s, name, *id);
    r.results["port"] = s.values[name + ".port"];
    r.results["device"] = s.values[name + ".device"];
}

void do_cm_listen(State& s, const Step& step, StepResult&) {
    s.object(s.cm_ids, step, "cm_id")->listen(static_cast<int>(integer(step, "backlog", 8)));
}

void do_cm_resolve(State& s, const Step& step, StepResult&) {
    const std::string name = text(step, "as");
    auto id = new_id(s, name, port_space(step));
    id->resolve_addr(text(step, "address"), static_cast<std::uint16_t>(integer(step, "port", 0)),
                     cm_timeout(step));
}

void do_cm_resolve_route(State& s, const Step& step, StepResult&) {
    s.object(s.cm_ids, step, "cm_id")->resolve_route(cm_timeout(step));
}

void do_cm_event(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "cm_id");
    auto& id = s.object(s.cm_ids, step, "cm_id");
    const auto timeout = cm_timeout(step);
    r.timeout_ms = static_cast<int>(timeout.count());
    const std::optional<CmEvent> event = id->next_event(timeout);
    Results& out = r.results;
    if (!event) {
        out["event"] = "none";
        out["status"] = "none";
        out["private_data"] = "";
        out["private_data_len"] = "0";
        return;
    }
    out["event"] = event->name;
    out["status"] = std::to_string(event->status);
    out["private_data"] = private_text(event->private_data);
    out["private_data_len"] = std::to_string(event->private_data.size());
    if (event->type == RDMA_CM_EVENT_ADDR_RESOLVED) set_id_values(s, name, *id);
    if (event->type == RDMA_CM_EVENT_CONNECT_REQUEST) {
        // The new id belongs to the lab from now on: named by request_id, else kept under a generated name
        // so that teardown destroys it (destroying an id that was neither accepted nor rejected rejects it).
        std::string request = text(step, "request_id");
        if (request.empty()) request = fmt::format("{}.request{}", name, s.next + 1);
        auto adopted = CmId::adopt(id->channel(), event->id, scope_of(s, request));
        s.cm_ids[request] = adopted;
        s.created.push_back(request);
        set_id_values(s, request, *adopted);
    }
}

void do_cm_create_qp(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "as");
    const std::string id_name = text(step, "cm_id");
    auto& id = s.object(s.cm_ids, step, "cm_id");
    require_lab_device(s, *id, id_name);
    auto& pd = s.object(s.pds, step, "pd");
    auto& send_cq = s.object(s.cqs, step, "send_cq");
    auto recv_cq = arg(step, "recv_cq") ? s.object(s.cqs, step, "recv_cq") : send_cq;
    QpCapacity cap;
    cap.max_send_wr = static_cast<std::uint32_t>(integer(step, "max_send_wr", 16));
    cap.max_recv_wr = static_cast<std::uint32_t>(integer(step, "max_recv_wr", 16));
    cap.max_inline_data = 0;
    const ibv_qp_type type = text(step, "type", "rc") == "ud" ? IBV_QPT_UD : IBV_QPT_RC;
    auto qp = id->create_qp(pd, send_cq, recv_cq, type, cap);
    s.qps[name] = QpState{qp, 0, 0};
    s.created.push_back(name);
    s.values[name + ".qpn"] = std::to_string(qp->qp_num());
    s.values[name + ".psn"] = "0";
    s.values[name + ".state"] = state_name(qp->last_known_state());
    s.values[name + ".type"] = lower(qp_type_name(qp->type()));
    s.values[name + ".access"] = "none";
    r.results["qpn"] = std::to_string(qp->qp_num());
    r.results["state"] = state_name(qp->last_known_state());
}

void do_cm_connect(State& s, const Step& step, StepResult&) {
    s.object(s.cm_ids, step, "cm_id")->connect(conn_param(step), text(step, "private_data"));
}

void do_cm_accept(State& s, const Step& step, StepResult&) {
    s.object(s.cm_ids, step, "cm_id")->accept(conn_param(step), text(step, "private_data"));
}

void do_cm_reject(State& s, const Step& step, StepResult&) {
    s.object(s.cm_ids, step, "cm_id")->reject(text(step, "private_data"));
}

void do_cm_disconnect(State& s, const Step& step, StepResult&) {
    s.object(s.cm_ids, step, "cm_id")->disconnect();
}

void do_mcast_join(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "as");
    auto& id = s.object(s.cm_ids, step, "cm_id");
    auto group = std::make_shared<MulticastGroup>();
    group->id = id;
    group->address = text(step, "group");
    id->join_multicast(group->address);
    // Joined in the kernel from here on: the membership is the lab's (teardown leaves it) even when
    // the join's event reports an error or does not come.
    group->joined = true;
    s.groups[name] = group;
    s.created.push_back(name);
    s.values[name + ".address"] = group->address;
    const auto timeout = cm_timeout(step);
    r.timeout_ms = static_cast<int>(timeout.count());
    const std::optional<CmEvent> event = id->next_event(timeout);
    Results& out = r.results;
    out["event"] = event ? event->name : "none";
    out["status"] = event ? std::to_string(event->status) : "none";
    if (!event || event->type != RDMA_CM_EVENT_MULTICAST_JOIN) {
        out["qpn"] = "none";
        out["qkey"] = "none";
        return;
    }
    group->ah_attr = event->ah_attr;
    group->qp_num = event->qp_num;
    group->qkey = event->qkey;
    out["qpn"] = hex(event->qp_num);
    out["qkey"] = hex(event->qkey);
    s.values[name + ".qpn"] = out["qpn"];
    s.values[name + ".qkey"] = out["qkey"];
}

void do_mcast_leave(State& s, const Step& step, StepResult&) {
    const std::string name = text(step, "group");
    auto& group = s.object(s.groups, step, "group");
    group->leave();
    s.groups.erase(name);
}

} // namespace rdmalab::labs::run
