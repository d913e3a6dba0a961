// One function per action of the lab language (labs/src/lab_schema.cpp), each through the engine's verbs
// classes, so every call is traced and every failure explained as the engine explains it.
#include "actions_address.hpp"
#include "actions_cm.hpp"
#include "actions_more_a.hpp"
#include "rdmalab/engine/bench.hpp"
#include "rdmalab/engine/device.hpp"
#include "rdmalab/engine/names.hpp"
#include "rdmalab/labs/lab_schema.hpp"
#include "run_state.hpp"

#include <fmt/format.h>

#include <sys/utsname.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <thread>

namespace rdmalab::labs::run {

namespace {

constexpr std::uint32_t kDefaultQkey = 0x11111111;
constexpr unsigned kDefaultQpAccess =
    IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;

using Results = std::map<std::string, std::string>;

} // namespace

// Shared with the other action files (declared in run_state.hpp): from here to first_psn.

DeviceState& device(State& s) {
    if (!s.device) throw LabRunError("no device is open: the lab must begin with an open_device step");
    return *s.device;
}

std::uint64_t timed(const std::function<void()>& call) {
    const auto start = monotonic_ns();
    call();
    return monotonic_ns() - start;
}

void remember(State& s, const std::string& name) {
    s.created.push_back(name);
}

ibv_mtu mtu_choice(const State& s, const Step& step, const std::string& field) {
    const std::string value = text(step, field, "port");
    if (value == "256") return IBV_MTU_256;
    if (value == "512") return IBV_MTU_512;
    if (value == "1024") return IBV_MTU_1024;
    if (value == "2048") return IBV_MTU_2048;
    if (value == "4096") return IBV_MTU_4096;
    return s.device ? s.device->active_mtu : IBV_MTU_1024;
}

void set_qp_values(State& s, const std::string& name) {
    const auto& q = s.qps.at(name);
    s.values[name + ".qpn"] = std::to_string(q.qp->qp_num());
    s.values[name + ".psn"] = std::to_string(q.psn);
    s.values[name + ".state"] = state_name(q.qp->last_known_state());
    s.values[name + ".type"] = lower(qp_type_name(q.qp->type()));
    s.values[name + ".access"] = access_names(q.access);
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

std::uint32_t first_psn(std::uint32_t qpn) {
    // A fixed pseudo-random 24-bit PSN per QP number, as rc_pingpong draws one with lrand48, but repeatable.
    std::minstd_rand random(qpn + 1);
    return static_cast<std::uint32_t>(random()) & 0xffffff;
}

namespace {

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

/// The scatter/gather list of a post step: each item's region, offset, length and (a bad) lkey.
std::vector<Sge> sge_list(State& s, const Step& step) {
    std::vector<Sge> out;
    const Value* list = arg(step, "sge");
    if (!list) return out;
    for (const auto& item : list->list) {
        const Value* mr_name = item.find("mr");
        const auto it = s.mrs.find(mr_name ? mr_name->text : "");
        if (it == s.mrs.end())
            throw LabRunError(fmt::format("step '{}': sge names region '{}', which does not exist", step.id,
                                          mr_name ? mr_name->text : ""));
        const auto& mr = *it->second;
        const std::uint64_t offset = u64(item.find("offset"), 0);
        if (offset > mr.length())
            throw LabRunError(fmt::format("step '{}': sge offset {} is past the end of {} ({} bytes)",
                                          step.id, offset, it->first, mr.length()));
        const std::uint64_t length = u64(item.find("length"), mr.length() - offset);
        out.push_back({mr.address() + offset, static_cast<std::uint32_t>(length),
                       static_cast<std::uint32_t>(u64(item.find("lkey"), mr.lkey()))});
    }
    return out;
}

} // namespace

void record_memory(State& s, const MemoryRegion& mr, const std::string& name, const std::string& when) {
    if (!s.tracer || !s.tracer->enabled()) return;
    const auto bytes = mr.bytes();
    const std::size_t preview = std::min<std::size_t>(bytes.size(), 256);
    std::string hex_text, printable;
    for (std::size_t i = 0; i < preview; ++i) {
        hex_text += fmt::format("{:02x}", bytes[i]);
        printable += (bytes[i] >= 0x20 && bytes[i] < 0x7f) ? char(bytes[i]) : '.';
    }
    s.tracer->record(endpoint_of(name), EventKind::Data, "memory", {{"lkey", mr.lkey()}, {"rkey", mr.rkey()}},
                     {{"when", when},
                      {"object", name},
                      {"addr", hex(mr.address())},
                      {"length", mr.length()},
                      {"preview_len", preview},
                      {"hex", hex_text},
                      {"text", printable},
                      {"changed", nlohmann::json::array()}});
}

namespace {

// ---- the actions ---------------------------------------------------------------------------------------

void do_note(State&, const Step&, StepResult&) {}

/// The running kernel: its release (uname -r) and major * 1000 + minor (6.1 -> 6001, 6.12 -> 6012), a
/// number a `when` can compare where kernels behave differently.
std::pair<std::string, long> kernel_release() {
    utsname name{};
    if (uname(&name) != 0) return {"unknown", 0};
    long major = 0, minor = 0;
    const std::string release = name.release;
    const char* p = release.c_str();
    char* end = nullptr;
    major = std::strtol(p, &end, 10);
    if (end && *end == '.') minor = std::strtol(end + 1, nullptr, 10);
    return {release, major * 1000 + minor};
}

void do_open_device(State& s, const Step& step, StepResult& r) {
    if (s.device) throw LabRunError("the device is already open (a lab opens it once)");
    const std::string name = !s.options.device.empty() ? s.options.device : text(step, "device");
    const auto port =
        static_cast<std::uint8_t>(s.options.port > 0 ? s.options.port : integer(step, "port", 1));
    DeviceState d;
    const std::string address = text(step, "address");
    // With an address, the device is the one rdma_cm binds that address to, whatever --device says.
    d.context = address.empty() ? Context::open(name, s.tracer) : open_device_by_address(s, address, d);
    d.name = d.context->device_name();
    d.port = port;
    d.context->require_active_port(port);
    const ibv_port_attr attr = d.context->query_port(port);
    d.active_mtu = attr.active_mtu;
    const Value* index = arg(step, "gid_index");
    d.gid_index = index ? static_cast<int>(index->integer) : d.context->rocev2_gid_index(port);
    d.gid = d.context->query_gid(port, d.gid_index);
    d.software = is_software_device(d.name);
    const std::string transport =
        d.context->get()->device->transport_type == IBV_TRANSPORT_IWARP ? "iwarp" : "infiniband";
    s.device = d;
    Results& out = r.results;
    out["name"] = d.name;
    out["port"] = std::to_string(port);
    out["gid"] = gid_to_string(d.gid);
    out["gid_index"] = std::to_string(d.gid_index);
    out["mtu"] = std::to_string(mtu_bytes(attr.active_mtu));
    out["link_layer"] = lower(link_layer_name(attr.link_layer));
    out["software"] = d.software ? "yes" : "no";
    out["net_admin"] = thread_has_net_admin() ? "1" : "0"; // may this run change interface addresses
    const auto [release, version] = kernel_release();
    out["kernel"] = release;
    out["kernel_version"] = std::to_string(version);
    out["port_state"] = lower(port_state_name(attr.state).substr(5)); // PORT_ACTIVE -> active
    out["transport"] = transport;
    for (const auto& [key, value] : out)
        s.values["device." + key] = value;
    remember(s, "device");
}

void do_query_device(State& s, const Step&, StepResult& r) {
    const ibv_device_attr a = device(s).context->query_device();
    Results& out = r.results;
    out["max_qp"] = std::to_string(a.max_qp);
    out["max_qp_wr"] = std::to_string(a.max_qp_wr);
    out["max_sge"] = std::to_string(a.max_sge);
    out["max_cq"] = std::to_string(a.max_cq);
    out["max_cqe"] = std::to_string(a.max_cqe);
    out["max_mr"] = std::to_string(a.max_mr);
    out["max_mr_size"] = std::to_string(a.max_mr_size);
    out["max_pd"] = std::to_string(a.max_pd);
    out["max_qp_rd_atom"] = std::to_string(a.max_qp_rd_atom);
    out["max_qp_init_rd_atom"] = std::to_string(a.max_qp_init_rd_atom);
    out["atomic_cap"] = a.atomic_cap == IBV_ATOMIC_HCA    ? "hca"
                        : a.atomic_cap == IBV_ATOMIC_GLOB ? "glob"
                                                          : "none";
    out["max_srq"] = std::to_string(a.max_srq);
    out["max_mw"] = std::to_string(a.max_mw);
    // ibv_query_device has no inline limit: a QP's max_inline_data is known only from ibv_create_qp.
    out["max_inline_data"] = "not reported";
}

void do_query_port(State& s, const Step& step, StepResult& r) {
    auto& d = device(s);
    const auto port = static_cast<std::uint8_t>(integer(step, "port", d.port));
    const ibv_port_attr a = d.context->query_port(port);
    Results& out = r.results;
    out["state"] = lower(port_state_name(a.state).substr(5));
    out["link_layer"] = lower(link_layer_name(a.link_layer));
    out["active_mtu"] = std::to_string(mtu_bytes(a.active_mtu));
    out["max_mtu"] = std::to_string(mtu_bytes(a.max_mtu));
    out["gid_tbl_len"] = std::to_string(a.gid_tbl_len);
    out["active_speed"] = port_speed_text(a.active_speed, a.active_width);
}

void do_query_gid_table(State& s, const Step& step, StepResult& r) {
    auto& d = device(s);
    const auto port = static_cast<std::uint8_t>(integer(step, "port", d.port));
    const auto table = d.context->gid_table(port);
    int rocev2 = 0, mapped = 0;
    std::string listing;
    for (const auto& g : table) {
        if (g.type == "RoCE v2") ++rocev2;
        if (g.gid.rfind("::ffff:", 0) == 0) ++mapped;
        listing += fmt::format("{}{} {} {}", listing.empty() ? "" : "; ", g.index, g.gid, g.type);
    }
    r.results["count"] = std::to_string(table.size());
    r.results["rocev2_count"] = std::to_string(rocev2);
    r.results["ipv4_mapped_count"] = std::to_string(mapped);
    r.results["table"] = listing;
}

void do_alloc_pd(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "as");
    std::shared_ptr<ProtectionDomain> pd;
    const auto dur = timed([&] { pd = ProtectionDomain::alloc(device(s).context, endpoint_of(name)); });
    s.pds[name] = pd;
    remember(s, name);
    s.values[name + ".handle"] = std::to_string(pd->handle());
    r.results["dur_ns"] = std::to_string(dur);
}

void do_dealloc_pd(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "pd");
    auto& pd = s.object(s.pds, step, "pd");
    r.results["dur_ns"] = std::to_string(pd->dealloc());
    s.pds.erase(name);
}

void do_reg_mr(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "as");
    auto& pd = s.object(s.pds, step, "pd");
    const auto size = static_cast<std::size_t>(integer(step, "size", 4096));
    const unsigned access = access_bits(flag_list(arg(step, "access")));
    BufferOptions buffer;
    buffer.read_only = text(step, "mapping", "read_write") == "read_only";
    buffer.align = static_cast<std::size_t>(integer(step, "align", 0));
    const std::string fill = text(step, "fill");
    const Value* fill_u64 = arg(step, "fill_u64");
    buffer.fill = [&](std::span<std::uint8_t> bytes) {
        if (!fill.empty())
            for (std::size_t i = 0; i < bytes.size(); ++i)
                bytes[i] = static_cast<std::uint8_t>(fill[i % fill.size()]);
        if (fill_u64 && bytes.size() >= 8) {
            const std::uint64_t v = fill_u64->as_u64();
            std::memcpy(bytes.data(), &v, 8);
        }
    };
    auto mr = MemoryRegion::allocate(pd, size, access, buffer, name);
    s.mrs[name] = mr;
    remember(s, name);
    s.values[name + ".addr"] = hex(mr->address());
    s.values[name + ".length"] = std::to_string(mr->length());
    s.values[name + ".lkey"] = hex(mr->lkey());
    s.values[name + ".rkey"] = hex(mr->rkey());
    s.values[name + ".access"] = access_names(access);
    Results& out = r.results;
    out["addr"] = hex(mr->address());
    out["length"] = std::to_string(mr->length());
    out["lkey"] = hex(mr->lkey());
    out["rkey"] = hex(mr->rkey());
    out["access"] = access_names(access);
    out["dur_ns"] = std::to_string(mr->registration_ns());
    // How the device builds the key: on rxe rkey = pool index << 8 | an 8-bit key (rxe_mr.c rxe_mr_init).
    out["rkey_index"] = std::to_string(mr->rkey() >> 8);
    out["rkey_key"] = hex(mr->rkey() & 0xffu);
    record_memory(s, *mr, name, "registered");
}

void do_dereg_mr(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "mr");
    auto& mr = s.object(s.mrs, step, "mr");
    r.results["dur_ns"] = std::to_string(mr->deregister());
    s.mrs.erase(name);
}

void do_write_memory(State& s, const Step& step, StepResult&) {
    const std::string name = text(step, "mr");
    auto& mr = s.object(s.mrs, step, "mr");
    if (mr->read_only())
        throw LabRunError(fmt::format("{}'s buffer is mapped read-only: the application cannot write it "
                                      "(a real program would be killed with SIGSEGV)",
                                      name));
    std::vector<std::uint8_t> bytes;
    if (const Value* t = arg(step, "string")) bytes.assign(t->text.begin(), t->text.end());
    if (const Value* h = arg(step, "hex")) {
        const auto decoded = hex_bytes(h->text);
        bytes.insert(bytes.end(), decoded.begin(), decoded.end());
    }
    if (const Value* v = arg(step, "u64")) {
        const std::uint64_t value = v->as_u64();
        bytes.resize(bytes.size() + 8);
        std::memcpy(bytes.data() + bytes.size() - 8, &value, 8);
    }
    const auto offset = static_cast<std::size_t>(integer(step, "offset", 0));
    if (offset + bytes.size() > mr->length())
        throw LabRunError(fmt::format("writing {} bytes at offset {} runs past the end of {} ({} bytes)",
                                      bytes.size(), offset, name, mr->length()));
    std::memcpy(mr->data() + offset, bytes.data(), bytes.size());
    record_memory(s, *mr, name, "written by the application");
}

void do_create_channel(State& s, const Step& step, StepResult&) {
    const std::string name = text(step, "as");
    auto channel = CompletionChannel::create(device(s).context, endpoint_of(name));
    s.channels[name] = channel;
    remember(s, name);
    s.values[name + ".fd"] = std::to_string(channel->get()->fd);
}

void do_create_cq(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "as");
    std::shared_ptr<CompletionChannel> channel;
    if (arg(step, "channel")) channel = s.object(s.channels, step, "channel");
    auto cq = CompletionQueue::create(device(s).context, endpoint_of(name),
                                      static_cast<int>(integer(step, "depth", 16)), channel);
    s.cqs[name] = cq;
    remember(s, name);
    s.values[name + ".cqe"] = std::to_string(cq->get()->cqe);
    r.results["cqe"] = std::to_string(cq->get()->cqe);
}

void do_create_qp(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "as");
    auto& pd = s.object(s.pds, step, "pd");
    auto& send_cq = s.object(s.cqs, step, "send_cq");
    auto recv_cq = arg(step, "recv_cq") ? s.object(s.cqs, step, "recv_cq") : send_cq;
    const std::string type = text(step, "type", "rc");
    const ibv_qp_type qp_type = type == "ud" ? IBV_QPT_UD : type == "uc" ? IBV_QPT_UC : IBV_QPT_RC;
    QpCapacity cap;
    cap.max_send_wr = static_cast<std::uint32_t>(integer(step, "max_send_wr", 16));
    cap.max_recv_wr = static_cast<std::uint32_t>(integer(step, "max_recv_wr", 16));
    cap.max_send_sge = static_cast<std::uint32_t>(integer(step, "max_send_sge", 1));
    cap.max_recv_sge = static_cast<std::uint32_t>(integer(step, "max_recv_sge", 1));
    cap.max_inline_data = static_cast<std::uint32_t>(integer(step, "max_inline_data", 0));
    std::shared_ptr<SharedReceiveQueue> srq;
    if (arg(step, "srq")) srq = s.object(s.srqs, step, "srq");
    auto qp = QueuePair::create(pd, send_cq, recv_cq, qp_type, cap, endpoint_of(name), srq);
    s.qps[name] = QpState{qp, static_cast<std::uint32_t>(integer(step, "psn", first_psn(qp->qp_num()))), 0};
    remember(s, name);
    set_qp_values(s, name);
    created_qp_results(*qp, r.results);
}

void do_connect(State& s, const Step& step, StepResult&) {
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

template <typename Transition>
void simple_transition(State& s, const Step& step, StepResult& r, Transition how) {
    const std::string name = text(step, "qp");
    auto& q = s.object(s.qps, step, "qp");
    TransitionReport report;
    const auto dur = timed([&] { report = how(*q.qp); });
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
    s.object(s.qps, step, "peer"); // must exist; every endpoint is on this device, so its GID is ours
    auto ah = AddressHandle::create(pd, address_of(s, device(s).port));
    s.ahs[name] = ah;
    remember(s, name);
    s.values[name + ".gid"] = gid_to_string(device(s).gid);
}

/// Attaches the system-call meter to `qp` for one post and reports what the posts made.
struct CountedPosts {
    State& s;
    QueuePair& qp;
    std::uint64_t syscalls = 0;
    std::string why;
    // The meter is opened for the step only: while it is open the raw_syscalls tracepoint stays registered,
    // which slows every system call of every thread (a later bench step would measure that).
    CountedPosts(State& state, QueuePair& queue_pair) : s(state), qp(queue_pair) {
        s.meter = std::make_shared<SyscallMeter>();
        qp.count_syscalls(s.meter);
    }
    ~CountedPosts() {
        qp.count_syscalls(nullptr);
        s.meter.reset();
    }
    CountedPosts(const CountedPosts&) = delete;
    CountedPosts& operator=(const CountedPosts&) = delete;
    void add() {
        const auto& tally = qp.last_post_syscalls();
        if (!tally.why.empty())
            why = tally.why;
        else
            syscalls += tally.count;
    }
    void report(Results& out, std::size_t posted, std::size_t calls) const {
        out["posted"] = std::to_string(posted);
        out["calls"] = std::to_string(calls);
        out["syscalls"] = why.empty() ? std::to_string(syscalls) : "not counted (" + why + ")";
    }
};

void do_post_recv(State& s, const Step& step, StepResult& r) {
    auto& q = s.object(s.qps, step, "qp");
    RecvRequest request;
    request.sges = sge_list(s, step);
    request.wr_id = u64(arg(step, "wr_id"), s.next + 1);
    const auto count = static_cast<std::size_t>(integer(step, "count", 1));
    CountedPosts counted(s, *q.qp);
    std::size_t posted = 0;
    try {
        for (; posted < count; ++posted) {
            q.qp->post_recv(request);
            counted.add();
            ++request.wr_id;
        }
    } catch (...) {
        counted.report(r.results, posted, posted + 1);
        throw;
    }
    counted.report(r.results, posted, posted);
}

ibv_wr_opcode wr_opcode(const std::string& name) {
    if (name == "send_imm") return IBV_WR_SEND_WITH_IMM;
    if (name == "write") return IBV_WR_RDMA_WRITE;
    if (name == "write_imm") return IBV_WR_RDMA_WRITE_WITH_IMM;
    if (name == "read") return IBV_WR_RDMA_READ;
    if (name == "cas") return IBV_WR_ATOMIC_CMP_AND_SWP;
    if (name == "faa") return IBV_WR_ATOMIC_FETCH_AND_ADD;
    if (name == "local_inv") return IBV_WR_LOCAL_INV;
    if (name == "send_with_inv") return IBV_WR_SEND_WITH_INV;
    if (name == "bind_mw") return IBV_WR_BIND_MW;
    return IBV_WR_SEND;
}

void do_post_send(State& s, const Step& step, StepResult& r) {
    auto& q = s.object(s.qps, step, "qp");
    SendRequest base;
    base.opcode = wr_opcode(text(step, "opcode"));
    base.sges = sge_list(s, step);
    if (const Value* remote = arg(step, "remote")) {
        if (const Value* mr_name = remote->find("mr")) {
            const auto it = s.mrs.find(mr_name->text);
            if (it == s.mrs.end())
                throw LabRunError("remote.mr names '" + mr_name->text + "', which does not exist");
            base.remote_addr = it->second->address();
            base.rkey = it->second->rkey();
        }
        remote_window(s, step, *remote, base);
        base.remote_addr = u64(remote->find("addr"), base.remote_addr) + u64(remote->find("offset"), 0);
        base.rkey = static_cast<std::uint32_t>(u64(remote->find("rkey"), base.rkey));
        // The same index with another 8-bit key: a guess that is wrong by construction.
        base.rkey ^= static_cast<std::uint32_t>(u64(remote->find("key_xor"), 0) & 0xffu);
    }
    window_request(s, step, base);
    if (const Value* imm = arg(step, "imm")) base.imm_data = static_cast<std::uint32_t>(imm->as_u64());
    if (base.opcode == IBV_WR_ATOMIC_CMP_AND_SWP) {
        base.compare_add = u64(arg(step, "compare"), 0);
        base.swap = u64(arg(step, "swap"), 0);
    } else if (base.opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) {
        base.compare_add = u64(arg(step, "add"), 0);
    }
    base.signaled = boolean(step, "signaled", true);
    base.inline_data = boolean(step, "inline", false);
    base.solicited = boolean(step, "solicited", false);
    base.fence = boolean(step, "fence", false);
    if (arg(step, "ah")) base.ah = s.object(s.ahs, step, "ah");
    if (arg(step, "remote_qp")) base.remote_qpn = s.object(s.qps, step, "remote_qp").qp->qp_num();
    base.remote_qkey = static_cast<std::uint32_t>(u64(arg(step, "qkey"), kDefaultQkey));
    if (arg(step, "group")) {
        const auto& group = s.object(s.groups, step, "group");
        base.remote_qpn = group->qp_num; // 0xFFFFFF: the multicast QP number
        base.remote_qkey = static_cast<std::uint32_t>(u64(arg(step, "qkey"), group->qkey));
    }
    base.wr_id = u64(arg(step, "wr_id"), s.next + 1);
    const auto count = static_cast<std::size_t>(integer(step, "count", 1));
    const auto per_call = static_cast<std::size_t>(integer(step, "per_call", 1));
    const Value* every = arg(step, "signal_every");
    std::vector<SendRequest> requests(count, base);
    for (std::size_t i = 0; i < count; ++i) {
        requests[i].wr_id = base.wr_id + i;
        if (every)
            requests[i].signaled = (i + 1) % static_cast<std::size_t>(every->integer) == 0 || i + 1 == count;
    }
    CountedPosts counted(s, *q.qp);
    std::size_t posted = 0, calls = 0;
    try {
        while (posted < count) {
            const std::size_t n = std::min(per_call, count - posted);
            ++calls;
            q.qp->post_send_list(std::span<const SendRequest>(requests).subspan(posted, n));
            counted.add();
            posted += n;
        }
    } catch (...) {
        counted.report(r.results, posted, calls);
        throw;
    }
    counted.report(r.results, posted, calls);
    if (base.opcode == IBV_WR_BIND_MW) window_posted(s, step);
}

void do_poll_cq(State& s, const Step& step, StepResult& r) {
    auto& cq = s.object(s.cqs, step, "cq");
    const auto count = static_cast<std::size_t>(integer(step, "count", 1));
    r.timeout_ms = static_cast<int>(integer(step, "timeout", kDefaultTimeoutMs));
    const auto timeout = std::chrono::milliseconds(r.timeout_ms);
    // Counted as the posts are (CountedPosts): a meter for this step only.
    s.meter = std::make_shared<SyscallMeter>();
    cq->count_syscalls(s.meter);
    cq->reset_polled_syscalls();
    struct Detach {
        State& s;
        CompletionQueue& cq;
        ~Detach() {
            cq.count_syscalls(nullptr);
            s.meter.reset();
        }
    } detach{s, *cq};
    if (count == 0) {
        // Nothing is expected: watch the CQ for the whole timeout and keep whatever arrives.
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (std::chrono::steady_clock::now() < deadline) {
            auto batch = cq->poll(16);
            r.completions.insert(r.completions.end(), batch.begin(), batch.end());
            if (batch.empty()) std::this_thread::sleep_for(std::chrono::microseconds(100));
        }
    } else {
        r.completions = cq->poll_until(count, timeout);
    }
    Results& out = r.results;
    const SyscallTally& polled = cq->polled_syscalls();
    out["syscalls"] = polled.why.empty() ? std::to_string(polled.count) : "not counted (" + polled.why + ")";
    out["count"] = std::to_string(r.completions.size());
    if (r.completions.empty()) {
        out["status"] = "none";
        return;
    }
    const Completion& c = r.completions.front();
    out["status"] = status_name(c.status);
    out["wr_id"] = std::to_string(c.wr_id);
    out["qp_num"] = std::to_string(c.qp_num);
    if (c.status != IBV_WC_SUCCESS) {
        // ibv_poll_cq(3): the other fields of a failed completion are not valid.
        for (const char* key : {"opcode", "byte_len", "imm", "src_qp", "wc_flags", "invalidated_rkey"})
            out[key] = "undefined";
        return;
    }
    out["opcode"] = opcode_name(c.opcode);
    out["byte_len"] = std::to_string(c.byte_len);
    out["imm"] = c.imm_data ? hex(*c.imm_data) : "none";
    out["src_qp"] = std::to_string(c.src_qp);
    std::string flags;
    for (const auto& f : wc_flag_names(c.wc_flags))
        flags += (flags.empty() ? "" : ",") + f;
    out["wc_flags"] = flags.empty() ? "none" : flags;
    out["invalidated_rkey"] = c.invalidated_rkey ? hex(*c.invalidated_rkey) : "none";
}

void do_req_notify_cq(State& s, const Step& step, StepResult&) {
    s.object(s.cqs, step, "cq")->request_notify(boolean(step, "solicited_only", false));
}

void do_wait_cq_event(State& s, const Step& step, StepResult& r) {
    auto& cq = s.object(s.cqs, step, "cq");
    r.timeout_ms = static_cast<int>(integer(step, "timeout", kDefaultTimeoutMs));
    const bool arrived = cq->wait_event(std::chrono::milliseconds(r.timeout_ms));
    r.event_arrived = arrived;
    r.results["arrived"] = arrived ? "yes" : "no";
}

void do_bench(State& s, const Step& step, StepResult& r) {
    const std::string kind_name = text(step, "kind");
    const auto kind = bench_kind_from_string(kind_name);
    if (!kind) throw LabRunError("unknown bench kind '" + kind_name + "'");
    BenchOptions o;
    o.kind = *kind;
    o.size = static_cast<std::size_t>(integer(step, "size", 64));
    if (o.kind == BenchKind::AtomicLat) o.size = 8;
    o.iterations = static_cast<int>(integer(step, "iterations", 1000));
    o.warmup = std::min(100, o.iterations);
    o.device = s.device ? s.device->name : s.options.device;
    o.keep_samples = false;
    o.completion_events = text(step, "completion", "busy_poll") == "events";
    const BenchResult result = run_bench(o);
    Results& out = r.results;
    auto ns = [](double us) { return std::to_string(std::llround(us * 1000.0)); };
    if (result.latency) {
        out["p50_ns"] = ns(result.latency->p50);
        out["p99_ns"] = ns(result.latency->p99);
        out["min_ns"] = ns(result.latency->min);
        out["mean_ns"] = ns(result.latency->mean);
    } else {
        for (const char* key : {"p50_ns", "p99_ns", "min_ns", "mean_ns"})
            out[key] = "not measured (a bandwidth kind)";
    }
    out["mb_per_s"] = fmt::format("{:.1f}", result.bw_MBps);
    out["msg_per_s"] = std::to_string(std::llround(result.msg_rate_Mpps * 1e6));
    out["syscalls_per_msg"] = result.cpu.syscalls_per_msg
                                  ? fmt::format("{:.2f}", *result.cpu.syscalls_per_msg)
                                  : "not counted (" + result.cpu.syscalls_note + ")";
    out["cpu_ns_per_msg"] = std::to_string(
        static_cast<long long>((result.cpu.user_us_per_msg + result.cpu.sys_us_per_msg) * 1000.0));
    out["device"] = result.device;
    out["completion"] = o.completion_events ? "events" : "busy_poll";
    out["switches_per_msg"] = fmt::format("{:.2f}", result.cpu.switches_per_msg);
    // Voluntary switches only: a thread that gives up its CPU (a sleep in poll() or read()). A busy poller
    // is switched out only when the kernel preempts it, which on two CPUs shared with rxe's own work can be
    // as often as an event waiter sleeps.
    // Per message as switches_per_msg is: its share of the switches that were voluntary.
    const auto switches = result.cpu.voluntary_switches + result.cpu.involuntary_switches;
    out["sleeps_per_msg"] =
        fmt::format("{:.2f}", switches > 0 ? result.cpu.switches_per_msg *
                                                 static_cast<double>(result.cpu.voluntary_switches) /
                                                 static_cast<double>(switches)
                                           : 0.0);
    // CPU time over wall time: 2.00 when both endpoints' threads never leave the CPU (busy polling).
    out["cpus_busy"] = result.elapsed_s > 0
                           ? fmt::format("{:.2f}", (result.cpu.user_s + result.cpu.sys_s) / result.elapsed_s)
                           : std::string("not measured (no elapsed time)");
    if (s.tracer && s.tracer->enabled())
        s.tracer->record(Endpoint::None, EventKind::Data, "bench", {}, to_json(result));
}

void do_wait(State&, const Step& step, StepResult&) {
    std::this_thread::sleep_for(std::chrono::milliseconds(integer(step, "time", 0)));
}

using ActionFunction = void (*)(State&, const Step&, StepResult&);

const std::map<std::string, ActionFunction, std::less<>>& action_table() {
    static const std::map<std::string, ActionFunction, std::less<>> table = {
        {"note", do_note},
        {"open_device", do_open_device},
        {"query_device", do_query_device},
        {"query_port", do_query_port},
        {"query_gid_table", do_query_gid_table},
        {"alloc_pd", do_alloc_pd},
        {"dealloc_pd", do_dealloc_pd},
        {"reg_mr", do_reg_mr},
        {"dereg_mr", do_dereg_mr},
        {"write_memory", do_write_memory},
        {"create_channel", do_create_channel},
        {"create_cq", do_create_cq},
        {"create_qp", do_create_qp},
        {"connect", do_connect},
        {"to_init", do_to_init},
        {"to_rtr", do_to_rtr},
        {"to_rts", do_to_rts},
        {"to_sqd", do_to_sqd},
        {"to_err", do_to_err},
        {"to_reset", do_to_reset},
        {"modify_qp", do_modify_qp},
        {"query_qp", do_query_qp},
        {"create_ah", do_create_ah},
        {"post_recv", do_post_recv},
        {"post_send", do_post_send},
        {"poll_cq", do_poll_cq},
        {"req_notify_cq", do_req_notify_cq},
        {"wait_cq_event", do_wait_cq_event},
        {"bench", do_bench},
        {"wait", do_wait},
        {"cm_bind", do_cm_bind},
        {"cm_listen", do_cm_listen},
        {"cm_resolve", do_cm_resolve},
        {"cm_resolve_route", do_cm_resolve_route},
        {"cm_event", do_cm_event},
        {"cm_create_qp", do_cm_create_qp},
        {"cm_connect", do_cm_connect},
        {"cm_accept", do_cm_accept},
        {"cm_reject", do_cm_reject},
        {"cm_disconnect", do_cm_disconnect},
        {"mcast_join", do_mcast_join},
        {"mcast_leave", do_mcast_leave},
        {"create_srq", do_create_srq},
        {"post_srq_recv", do_post_srq_recv},
        {"modify_srq", do_modify_srq},
        {"query_srq", do_query_srq},
        {"wait_async_event", do_wait_async_event},
        {"alloc_mw", do_alloc_mw},
        {"bind_mw", do_bind_mw},
        {"dealloc_mw", do_dealloc_mw},
        {"set_memlock", do_set_memlock},
        {"query_device_ex", do_query_device_ex},
        {"create_qp_ex", do_create_qp_ex},
        {"post_atomic_write", do_post_atomic_write},
        {"open_xrcd", do_open_xrcd},
        {"add_address", do_add_address},
        {"remove_address", do_remove_address},
    };
    return table;
}

} // namespace

bool implements_every_action() {
    for (const auto& action : schema::actions())
        if (!action_table().contains(action.name)) return false;
    return action_table().size() == schema::actions().size();
}

void perform(State& state, std::size_t index, StepResult& result) {
    const Step& step = state.lab.steps[index];
    const auto it = action_table().find(step.action.empty() ? std::string_view("note") : step.action);
    if (it == action_table().end()) throw LabRunError("the runner has no action '" + step.action + "'");
    it->second(state, step, result);
}

} // namespace rdmalab::labs::run
