// The actions of the extended verbs: query_device_ex, create_qp_ex with its send operations,
// post_atomic_write (chapter 14) and open_xrcd (chapter 7), each through the engine
// (Context::query_device_ex, QueuePair::create_ex and post_atomic_write, XrcDomain), so every call is traced
// and every failure explained.
#include "actions.hpp"

namespace rdmalab::labs::run {

namespace {

/// A capability bit as a number, so a `compare` can assert it: "1" set, "0" not.
std::string bit(bool value) {
    return value ? "1" : "0";
}

ibv_qp_type qp_ex_type(const std::string& name) {
    if (name == "uc") return IBV_QPT_UC;
    if (name == "ud") return IBV_QPT_UD;
    if (name == "xrc_send") return IBV_QPT_XRC_SEND;
    if (name == "xrc_recv") return IBV_QPT_XRC_RECV;
    return IBV_QPT_RC;
}

std::uint64_t send_ops_bits(const std::vector<std::string>& names) {
    static const std::map<std::string, std::uint64_t> bits = {
        {"write", IBV_QP_EX_WITH_RDMA_WRITE},
        {"write_imm", IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM},
        {"send", IBV_QP_EX_WITH_SEND},
        {"send_imm", IBV_QP_EX_WITH_SEND_WITH_IMM},
        {"read", IBV_QP_EX_WITH_RDMA_READ},
        {"cas", IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP},
        {"faa", IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD},
        {"local_inv", IBV_QP_EX_WITH_LOCAL_INV},
        {"bind_mw", IBV_QP_EX_WITH_BIND_MW},
        {"send_inv", IBV_QP_EX_WITH_SEND_WITH_INV},
        {"tso", IBV_QP_EX_WITH_TSO},
        {"flush", kQpExWithFlush},
        {"atomic_write", kQpExWithAtomicWrite},
    };
    std::uint64_t out = 0;
    for (const auto& n : names)
        if (const auto it = bits.find(n); it != bits.end()) out |= it->second;
    return out;
}

} // namespace

void do_query_device_ex(State& s, const Step&, StepResult& r) {
    const ibv_device_attr_ex a = device(s).context->query_device_ex();
    const std::uint64_t ex = a.device_cap_flags_ex;
    r.results["cap_flags_ex"] = hex(ex);
    r.results["atomic_write"] = bit(ex & kDeviceAtomicWrite);
    r.results["flush_global"] = bit(ex & kDeviceFlushGlobal);
    r.results["flush_persistent"] = bit(ex & kDeviceFlushPersistent);
    r.results["xrc"] = bit(a.orig_attr.device_cap_flags & IBV_DEVICE_XRC);
}

void do_create_qp_ex(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "as");
    auto& pd = s.object(s.pds, step, "pd");
    auto& send_cq = s.object(s.cqs, step, "send_cq");
    auto recv_cq = arg(step, "recv_cq") ? s.object(s.cqs, step, "recv_cq") : send_cq;
    std::shared_ptr<XrcDomain> xrcd = arg(step, "xrcd") ? s.object(s.xrcds, step, "xrcd") : nullptr;
    const ibv_qp_type type = qp_ex_type(text(step, "type", "rc"));
    const auto ops_names = flag_list(arg(step, "send_ops"));
    const std::uint64_t ops = send_ops_bits(ops_names);
    const QpCapacity cap = requested_capacity(step);
    auto qp = QueuePair::create_ex(pd, send_cq, recv_cq, type, cap, ops, xrcd, endpoint_of(name));
    keep_created_qp(s, step, name, qp, r.results);
    auto& out = r.results;
    std::string joined;
    for (const auto& n : ops_names)
        joined += (joined.empty() ? "" : ",") + n;
    out["send_ops"] = joined.empty() ? "none" : joined;
}

void do_post_atomic_write(State& s, const Step& step, StepResult& r) {
    auto& q = s.object(s.qps, step, "qp");
    std::uint64_t remote_addr = 0;
    std::uint32_t rkey = 0;
    if (const Value* remote = arg(step, "remote")) {
        if (const Value* mr_name = remote->find("mr")) {
            const auto it = s.mrs.find(mr_name->text);
            if (it == s.mrs.end())
                throw LabRunError("remote.mr names '" + mr_name->text + "', which does not exist");
            remote_addr = it->second->address();
            rkey = it->second->rkey();
        }
        remote_addr = u64(remote->find("addr"), remote_addr) + u64(remote->find("offset"), 0);
        rkey = static_cast<std::uint32_t>(u64(remote->find("rkey"), rkey));
    }
    const std::uint64_t wr_id = u64(arg(step, "wr_id"), s.next + 1);
    // Counted as post_send's requests are: a system-call meter open for this step only.
    s.meter = std::make_shared<SyscallMeter>();
    q.qp->count_syscalls(s.meter);
    struct Detach {
        State& s;
        QueuePair& qp;
        ~Detach() {
            qp.count_syscalls(nullptr);
            s.meter.reset();
        }
    } detach{s, *q.qp};
    r.results["posted"] = "0";
    q.qp->post_atomic_write(wr_id, rkey, remote_addr, u64(arg(step, "value"), 0),
                            boolean(step, "signaled", true));
    r.results["posted"] = "1";
    const auto& tally = q.qp->last_post_syscalls();
    r.results["syscalls"] =
        tally.why.empty() ? std::to_string(tally.count) : "not counted (" + tally.why + ")";
}

void do_open_xrcd(State& s, const Step& step, StepResult&) {
    const std::string name = text(step, "as");
    auto xrcd = XrcDomain::open(device(s).context, endpoint_of(name));
    s.xrcds[name] = xrcd;
    remember(s, name);
    s.values[name + ".device"] = device(s).name;
}

} // namespace rdmalab::labs::run
