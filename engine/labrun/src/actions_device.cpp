// The actions of the device, its port and GID table, and protection domains: open_device, query_device,
// query_port, query_gid_table, alloc_pd, dealloc_pd (docs/lab-format.md).
#include "actions.hpp"
#include "rdmalab/engine/device.hpp"
#include "rdmalab/engine/names.hpp"

#include <fmt/format.h>

#include <sys/utsname.h>

#include <cstdlib>

namespace rdmalab::labs::run {

namespace {

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

} // namespace

void do_open_device(State& s, const Step& step, StepResult& r) {
    if (s.device) throw LabRunError("the device is already open (a lab opens it once)");
    const std::string name = !s.options.device.empty() ? s.options.device : text(step, "device");
    const auto port =
        static_cast<std::uint8_t>(s.options.port > 0 ? s.options.port : integer(step, "port", 1));
    DeviceState d;
    // Two hosts: the device under this host's address on the wire, unless the lab or --device names one.
    const std::string address = !text(step, "address").empty()               ? text(step, "address")
                                : s.options.peer && s.options.device.empty() ? s.options.peer->local_address()
                                                                             : std::string();
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

} // namespace rdmalab::labs::run
