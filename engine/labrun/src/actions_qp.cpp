// The actions of queue pairs and address handles: create_qp, connect, the named transitions (to_init ..
// to_reset), modify_qp with any attribute mask, query_qp, create_ah.
#include "actions.hpp"
#include "rdmalab/engine/names.hpp"

#include <arpa/inet.h>

#include <fmt/format.h>

#include <random>

namespace rdmalab::labs::run {

namespace {

constexpr unsigned kDefaultQpAccess =
    IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;

ibv_mtu mtu_choice(const State& s, const Step& step, const std::string& field) {
    const std::string value = text(step, field, "port");
    if (value == "256") return IBV_MTU_256;
    if (value == "512") return IBV_MTU_512;
    if (value == "1024") return IBV_MTU_1024;
    if (value == "2048") return IBV_MTU_2048;
    if (value == "4096") return IBV_MTU_4096;
    return s.device ? s.device->active_mtu : IBV_MTU_1024;
}

void transition_results(State& s, const std::string& name, const TransitionReport& report,
                        std::uint64_t dur_ns, Results& out) {
    out["from"] = state_name(report.from);
    out["to"] = state_name(report.to);
    std::string mask;
    for (const auto& m : report.mask_names)
        mask += (mask.empty() ? "" : ",") + lower(m);
    out["mask"] = mask;
    out["dur_ns"] = std::to_string(dur_ns);
    set_qp_values(s, name);
}

ibv_ah_attr address_of(const State& s, std::uint8_t port) {
    const auto& d = *s.device;
    ibv_ah_attr ah{};
    ah.is_global = 1;
    ah.port_num = port;
    ah.grh.dgid = d.gid;
    ah.grh.sgid_index = static_cast<std::uint8_t>(d.gid_index);
    ah.grh.hop_limit = 1;
    return ah;
}

PathInfo path_to(const State& s, const QpState& peer, const Step& step, std::uint8_t port) {
    const auto& d = *s.device;
    PathInfo path;
    path.remote_qpn = peer.qp->qp_num();
    path.remote_psn = peer.psn;
    path.remote_gid = d.gid;
    path.sgid_index = d.gid_index;
    path.port = port;
    path.path_mtu = mtu_choice(s, step, "mtu");
    path.max_dest_rd_atomic = static_cast<std::uint8_t>(integer(step, "max_dest_rd_atomic", 1));
    path.min_rnr_timer = static_cast<std::uint8_t>(integer(step, "min_rnr_timer", 1));
    path.use_grh = true;
    return path;
}

ibv_qp_state state_from(const std::string& name) {
    if (name == "init") return IBV_QPS_INIT;
    if (name == "rtr") return IBV_QPS_RTR;
    if (name == "rts") return IBV_QPS_RTS;
    if (name == "sqd") return IBV_QPS_SQD;
    if (name == "sqe") return IBV_QPS_SQE;
    if (name == "err") return IBV_QPS_ERR;
    return IBV_QPS_RESET;
}

int mask_bit(const std::string& name) {
    static const std::map<std::string, int> bits = {
        {"state", IBV_QP_STATE},
        {"access_flags", IBV_QP_ACCESS_FLAGS},
        {"pkey_index", IBV_QP_PKEY_INDEX},
        {"port", IBV_QP_PORT},
        {"qkey", IBV_QP_QKEY},
        {"av", IBV_QP_AV},
        {"path_mtu", IBV_QP_PATH_MTU},
        {"dest_qpn", IBV_QP_DEST_QPN},
        {"rq_psn", IBV_QP_RQ_PSN},
        {"max_dest_rd_atomic", IBV_QP_MAX_DEST_RD_ATOMIC},
        {"min_rnr_timer", IBV_QP_MIN_RNR_TIMER},
        {"sq_psn", IBV_QP_SQ_PSN},
        {"timeout", IBV_QP_TIMEOUT},
        {"retry_cnt", IBV_QP_RETRY_CNT},
        {"rnr_retry", IBV_QP_RNR_RETRY},
        {"max_qp_rd_atomic", IBV_QP_MAX_QP_RD_ATOMIC},
    };
    const auto it = bits.find(name);
    return it == bits.end() ? 0 : it->second;
}

template <typename Transition>
void simple_transition(State& s, const Step& step, StepResult& r, Transition how) {
    const std::string name = text(step, "qp");
    auto& q = s.object(s.qps, step, "qp");
    TransitionReport report;
    const auto dur = timed([&] { report = how(*q.qp); });
    transition_results(s, name, report, dur, r.results);
}

/// The results of a step that created QP `qp` in RESET: qpn, the granted capacities, state.
void created_qp_results(const QueuePair& qp, std::map<std::string, std::string>& out) {
    const auto& got = qp.capacity();
    out["qpn"] = std::to_string(qp.qp_num());
    out["max_send_wr"] = std::to_string(got.max_send_wr);
    out["max_recv_wr"] = std::to_string(got.max_recv_wr);
    out["max_send_sge"] = std::to_string(got.max_send_sge);
    out["max_recv_sge"] = std::to_string(got.max_recv_sge);
    out["max_inline_data"] = std::to_string(got.max_inline_data);
    out["state"] = "reset";
}

/// A QP's default first send PSN.
std::uint32_t first_psn(std::uint32_t qpn) {
    // A fixed pseudo-random 24-bit PSN per QP number, as rc_pingpong draws one with lrand48, but repeatable.
    std::minstd_rand random(qpn + 1);
    return static_cast<std::uint32_t>(random()) & 0xffffff;
}

} // namespace

void set_qp_values(State& s, const std::string& name) {
    const auto& q = s.qps.at(name);
    s.values[name + ".qpn"] = std::to_string(q.qp->qp_num());
    s.values[name + ".psn"] = std::to_string(q.psn);
    s.values[name + ".state"] = state_name(q.qp->last_known_state());
    s.values[name + ".type"] = lower(qp_type_name(q.qp->type()));
    s.values[name + ".access"] = access_names(q.access);
}

QpCapacity requested_capacity(const Step& step) {
    QpCapacity cap;
    cap.max_send_wr = static_cast<std::uint32_t>(integer(step, "max_send_wr", 16));
    cap.max_recv_wr = static_cast<std::uint32_t>(integer(step, "max_recv_wr", 16));
    cap.max_send_sge = static_cast<std::uint32_t>(integer(step, "max_send_sge", 1));
    cap.max_recv_sge = static_cast<std::uint32_t>(integer(step, "max_recv_sge", 1));
    cap.max_inline_data = static_cast<std::uint32_t>(integer(step, "max_inline_data", 0));
    return cap;
}

void keep_created_qp(State& s, const Step& step, const std::string& name,
                     const std::shared_ptr<QueuePair>& qp, Results& out) {
    s.qps[name] = QpState{qp, static_cast<std::uint32_t>(integer(step, "psn", first_psn(qp->qp_num()))), 0};
    remember(s, name);
    set_qp_values(s, name);
    created_qp_results(*qp, out);
}

void do_create_qp(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "as");
    auto& pd = s.object(s.pds, step, "pd");
    auto& send_cq = s.object(s.cqs, step, "send_cq");
    auto recv_cq = arg(step, "recv_cq") ? s.object(s.cqs, step, "recv_cq") : send_cq;
    const std::string type = text(step, "type", "rc");
    const ibv_qp_type qp_type = type == "ud" ? IBV_QPT_UD : type == "uc" ? IBV_QPT_UC : IBV_QPT_RC;
    const QpCapacity cap = requested_capacity(step);
    std::shared_ptr<SharedReceiveQueue> srq;
    if (arg(step, "srq")) srq = s.object(s.srqs, step, "srq");
    auto qp = QueuePair::create(pd, send_cq, recv_cq, qp_type, cap, endpoint_of(name), srq);
    keep_created_qp(s, step, name, qp, r.results);
}

/// Two hosts: this host's QP of the pair goes RESET, INIT, RTR, RTS with the other host's QP number, first
/// PSN and GID, which its run sent over the lab's link; the other host does the same for its QP.
void connect_across(State& s, const Step& step) {
    const auto& d = device(s);
    const std::string a_name = text(step, "a"), b_name = text(step, "b");
    const bool a_here = endpoint_of(a_name) == s.options.side;
    const std::string here = a_here ? a_name : b_name, there = a_here ? b_name : a_name;
    auto& q = s.object(s.qps, step, a_here ? "a" : "b");
    const Value* access_value = arg(step, "access");
    const unsigned access = access_value ? access_bits(flag_list(access_value)) : kDefaultQpAccess;
    q.qp->to_init(d.port, access);
    q.access = access;
    PathInfo path;
    path.remote_qpn = static_cast<std::uint32_t>(std::stoul(peer_value(s, there + ".qpn")));
    path.remote_psn = static_cast<std::uint32_t>(std::stoul(peer_value(s, there + ".psn")));
    const std::string gid = peer_value(s, "peer.device.gid");
    if (inet_pton(AF_INET6, gid.c_str(), path.remote_gid.raw) != 1)
        throw LabRunError("the other host's GID '" + gid + "' is not an IPv6 address");
    path.sgid_index = d.gid_index;
    path.port = d.port;
    path.path_mtu = mtu_choice(s, step, "mtu");
    path.max_dest_rd_atomic = static_cast<std::uint8_t>(integer(step, "max_dest_rd_atomic", 1));
    path.min_rnr_timer = static_cast<std::uint8_t>(integer(step, "min_rnr_timer", 1));
    path.use_grh = true;
    if (const Value* qpn = arg(step, "remote_qpn"); qpn && a_here)
        path.remote_qpn = static_cast<std::uint32_t>(qpn->integer);
    q.qp->to_rtr(path);
    RtsParams rts;
    rts.timeout = static_cast<std::uint8_t>(integer(step, "timeout", 14));
    rts.retry_cnt = static_cast<std::uint8_t>(integer(step, "retry_cnt", 7));
    rts.rnr_retry = static_cast<std::uint8_t>(integer(step, "rnr_retry", 7));
    rts.max_rd_atomic = static_cast<std::uint8_t>(integer(step, "max_rd_atomic", 1));
    rts.sq_psn = q.psn;
    q.qp->to_rts(rts);
    set_qp_values(s, here);
}

void do_connect(State& s, const Step& step, StepResult&) {
    if (s.options.peer) return connect_across(s, step);
    const auto& d = device(s);
    const std::string a_name = text(step, "a"), b_name = text(step, "b");
    auto& a = s.object(s.qps, step, "a");
    auto& b = s.object(s.qps, step, "b");
    const Value* access_value = arg(step, "access");
    const unsigned access = access_value ? access_bits(flag_list(access_value)) : kDefaultQpAccess;
    a.qp->to_init(d.port, access);
    b.qp->to_init(d.port, access);
    a.access = access;
    b.access = access;
    PathInfo a_path = path_to(s, b, step, d.port);
    if (const Value* qpn = arg(step, "remote_qpn"))
        a_path.remote_qpn = static_cast<std::uint32_t>(qpn->integer);
    a.qp->to_rtr(a_path);
    b.qp->to_rtr(path_to(s, a, step, d.port));
    RtsParams rts;
    rts.timeout = static_cast<std::uint8_t>(integer(step, "timeout", 14));
    rts.retry_cnt = static_cast<std::uint8_t>(integer(step, "retry_cnt", 7));
    rts.rnr_retry = static_cast<std::uint8_t>(integer(step, "rnr_retry", 7));
    rts.max_rd_atomic = static_cast<std::uint8_t>(integer(step, "max_rd_atomic", 1));
    rts.sq_psn = a.psn;
    a.qp->to_rts(rts);
    rts.sq_psn = b.psn;
    b.qp->to_rts(rts);
    set_qp_values(s, a_name);
    set_qp_values(s, b_name);
}

void do_to_init(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "qp");
    auto& q = s.object(s.qps, step, "qp");
    const Value* access_value = arg(step, "access");
    const unsigned access = access_value ? access_bits(flag_list(access_value)) : kDefaultQpAccess;
    const auto port = static_cast<std::uint8_t>(integer(step, "port", device(s).port));
    const auto qkey = static_cast<std::uint32_t>(u64(arg(step, "qkey"), kDefaultQkey));
    TransitionReport report;
    const auto dur = timed([&] { report = q.qp->to_init(port, access, 0, qkey); });
    if (q.qp->type() != IBV_QPT_UD) q.access = access;
    transition_results(s, name, report, dur, r.results);
}

void do_to_rtr(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "qp");
    auto& q = s.object(s.qps, step, "qp");
    PathInfo path;
    if (q.qp->type() != IBV_QPT_UD) {
        if (!arg(step, "peer"))
            throw LabRunError(fmt::format("step '{}': an RC or UC QP's RTR needs `peer`", step.id));
        path = path_to(s, s.object(s.qps, step, "peer"), step, device(s).port);
        if (const Value* v = arg(step, "remote_qpn"))
            path.remote_qpn = static_cast<std::uint32_t>(v->integer);
        if (const Value* v = arg(step, "remote_psn"))
            path.remote_psn = static_cast<std::uint32_t>(v->integer);
    }
    TransitionReport report;
    const auto dur = timed([&] { report = q.qp->to_rtr(path); });
    transition_results(s, name, report, dur, r.results);
}

void do_to_rts(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "qp");
    auto& q = s.object(s.qps, step, "qp");
    RtsParams rts;
    rts.timeout = static_cast<std::uint8_t>(integer(step, "timeout", 14));
    rts.retry_cnt = static_cast<std::uint8_t>(integer(step, "retry_cnt", 7));
    rts.rnr_retry = static_cast<std::uint8_t>(integer(step, "rnr_retry", 7));
    rts.max_rd_atomic = static_cast<std::uint8_t>(integer(step, "max_rd_atomic", 1));
    rts.sq_psn = static_cast<std::uint32_t>(integer(step, "sq_psn", q.psn));
    TransitionReport report;
    const auto dur = timed([&] { report = q.qp->to_rts(rts); });
    transition_results(s, name, report, dur, r.results);
}

void do_to_sqd(State& s, const Step& step, StepResult& r) {
    simple_transition(s, step, r, [](QueuePair& qp) { return qp.to_sqd(); });
}
void do_to_err(State& s, const Step& step, StepResult& r) {
    simple_transition(s, step, r, [](QueuePair& qp) { return qp.to_err(); });
}
void do_to_reset(State& s, const Step& step, StepResult& r) {
    simple_transition(s, step, r, [](QueuePair& qp) { return qp.to_reset(); });
}

void do_modify_qp(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "qp");
    auto& q = s.object(s.qps, step, "qp");
    const std::string target = text(step, "state");
    ibv_qp_attr attr{};
    attr.qp_state = state_from(target);
    const Value* attrs = arg(step, "attrs");
    auto field = [&](const char* key) { return attrs ? attrs->find(key) : nullptr; };
    auto number = [&](const char* key, std::uint64_t fallback) { return u64(field(key), fallback); };
    attr.port_num = static_cast<std::uint8_t>(number("port", device(s).port));
    attr.qp_access_flags = field("access") ? access_bits(flag_list(field("access"))) : 0;
    attr.pkey_index = static_cast<std::uint16_t>(number("pkey_index", 0));
    attr.qkey = static_cast<std::uint32_t>(number("qkey", kDefaultQkey));
    if (const Value* peer = field("peer")) {
        const auto it = s.qps.find(peer->text);
        if (it == s.qps.end())
            throw LabRunError("attrs.peer names '" + peer->text + "', which does not exist");
        attr.ah_attr = address_of(s, device(s).port);
        attr.dest_qp_num = it->second.qp->qp_num();
        attr.rq_psn = it->second.psn;
    }
    const std::string mtu = field("mtu") ? field("mtu")->text : "port";
    attr.path_mtu = mtu == "256"    ? IBV_MTU_256
                    : mtu == "512"  ? IBV_MTU_512
                    : mtu == "1024" ? IBV_MTU_1024
                    : mtu == "2048" ? IBV_MTU_2048
                    : mtu == "4096" ? IBV_MTU_4096
                                    : device(s).active_mtu;
    attr.dest_qp_num = static_cast<std::uint32_t>(number("dest_qpn", attr.dest_qp_num));
    attr.rq_psn = static_cast<std::uint32_t>(number("rq_psn", attr.rq_psn));
    attr.max_dest_rd_atomic = static_cast<std::uint8_t>(number("max_dest_rd_atomic", 1));
    attr.min_rnr_timer = static_cast<std::uint8_t>(number("min_rnr_timer", 1));
    attr.sq_psn = static_cast<std::uint32_t>(number("sq_psn", q.psn));
    attr.timeout = static_cast<std::uint8_t>(number("timeout", 14));
    attr.retry_cnt = static_cast<std::uint8_t>(number("retry_cnt", 7));
    attr.rnr_retry = static_cast<std::uint8_t>(number("rnr_retry", 7));
    attr.max_rd_atomic = static_cast<std::uint8_t>(number("max_rd_atomic", 1));
    int mask = 0;
    for (const auto& bit : flag_list(arg(step, "mask")))
        mask |= mask_bit(bit);
    const std::string transition =
        fmt::format("{}->{}", qp_state_name(q.qp->last_known_state()), qp_state_name(attr.qp_state));
    TransitionReport report;
    const auto dur = timed([&] { report = q.qp->modify(attr, mask, transition); });
    if (mask & IBV_QP_ACCESS_FLAGS) q.access = attr.qp_access_flags;
    transition_results(s, name, report, dur, r.results);
}

void do_query_qp(State& s, const Step& step, StepResult& r) {
    auto& q = s.object(s.qps, step, "qp");
    const ibv_qp_attr a = q.qp->query_attributes();
    r.results["state"] = state_name(a.qp_state);
    r.results["sq_psn"] = std::to_string(a.sq_psn);
    r.results["rq_psn"] = std::to_string(a.rq_psn);
    r.results["dest_qpn"] = std::to_string(a.dest_qp_num);
    r.results["sq_draining"] = a.sq_draining ? "yes" : "no";
    s.values[text(step, "qp") + ".state"] = state_name(a.qp_state);
}

void do_create_ah(State& s, const Step& step, StepResult&) {
    const std::string name = text(step, "as");
    auto& pd = s.object(s.pds, step, "pd");
    if (arg(step, "group")) {
        // The join event's ah_attr: the group's multicast GID, through the port and GID the join chose.
        const auto& group = s.object(s.groups, step, "group");
        if (!group->qp_num)
            throw LabRunError(fmt::format("step '{}': group {} has no join event (the join failed)", step.id,
                                          text(step, "group")));
        auto ah = AddressHandle::create(pd, group->ah_attr);
        s.ahs[name] = ah;
        remember(s, name);
        s.values[name + ".gid"] = gid_to_string(group->ah_attr.grh.dgid);
        return;
    }
    if (!arg(step, "peer"))
        throw LabRunError(fmt::format("step '{}': create_ah needs `peer` or `group`", step.id));
    ibv_ah_attr attr = address_of(s, device(s).port);
    if (s.options.peer && !s.qps.contains(text(step, "peer"))) {
        // Two hosts: the peer's QP is on the other host, behind the GID its run sent.
        const std::string gid = peer_value(s, "peer.device.gid");
        if (inet_pton(AF_INET6, gid.c_str(), attr.grh.dgid.raw) != 1)
            throw LabRunError("the other host's GID '" + gid + "' is not an IPv6 address");
    } else {
        s.object(s.qps, step, "peer"); // must exist; every endpoint is on this device, so its GID is ours
    }
    auto ah = AddressHandle::create(pd, attr);
    s.ahs[name] = ah;
    remember(s, name);
    s.values[name + ".gid"] = gid_to_string(attr.grh.dgid);
}

} // namespace rdmalab::labs::run
