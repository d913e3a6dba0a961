#include "rdmalab/engine/device.hpp"

#include "rdmalab/engine/errors.hpp"
#include "rdmalab/engine/names.hpp"
#include "rdmalab/engine/verbs.hpp"
#include "rdmalab/format/trace.hpp"

#include <endian.h>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <memory>

namespace rdmalab {

namespace {

std::string guid_text(__be64 guid) {
    const std::uint64_t g = be64toh(guid);
    return fmt::format("{:04x}:{:04x}:{:04x}:{:04x}", (g >> 48) & 0xffff, (g >> 32) & 0xffff,
                       (g >> 16) & 0xffff, g & 0xffff);
}

std::string atomic_cap_name(ibv_atomic_cap cap) {
    switch (cap) {
    case IBV_ATOMIC_NONE:
        return "ATOMIC_NONE";
    case IBV_ATOMIC_HCA:
        return "ATOMIC_HCA";
    case IBV_ATOMIC_GLOB:
        return "ATOMIC_GLOB";
    }
    return "ATOMIC_UNKNOWN";
}

std::string driver_of(const std::string& device) {
    // /sys/class/infiniband/<dev>/device/driver is absent for rxe; the rxe driver exposes "parent".
    std::error_code ec;
    const std::filesystem::path base = "/sys/class/infiniband/" + device;
    auto driver = std::filesystem::read_symlink(base / "device" / "driver", ec);
    if (!ec) return driver.filename().string();
    if (device.rfind("rxe", 0) == 0 || std::filesystem::exists(base / "parent", ec)) return "rxe";
    if (device.rfind("siw", 0) == 0) return "siw";
    return "unknown";
}

std::string netdev_of(ibv_context* context, std::uint8_t port, int index) {
    ibv_gid_entry entry{};
    if (ibv_query_gid_ex(context, port, static_cast<std::uint32_t>(index), &entry, 0) != 0) return {};
    if (entry.ndev_ifindex == 0) return {};
    std::error_code ec;
    for (const auto& dir : std::filesystem::directory_iterator("/sys/class/net", ec)) {
        std::ifstream ifindex(dir.path() / "ifindex");
        unsigned value = 0;
        if (ifindex >> value && value == entry.ndev_ifindex) return dir.path().filename().string();
    }
    return {};
}

} // namespace

std::string device_driver(const std::string& device) {
    return driver_of(device);
}

bool is_software_device(const std::string& device) {
    const std::string driver = driver_of(device);
    return driver == "rxe" || driver == "siw";
}

nlohmann::json to_json(const GidEntry& gid) {
    return {{"index", gid.index}, {"gid", gid.gid}, {"type", gid.type}, {"netdev", gid.netdev}};
}

nlohmann::json to_json(const PortInfo& port) {
    nlohmann::json gids = nlohmann::json::array();
    for (const auto& g : port.gids)
        gids.push_back(to_json(g));
    return {{"port", port.port},
            {"state", port.state},
            {"active", port.active},
            {"phys_state", port.phys_state},
            {"link_layer", port.link_layer},
            {"active_mtu", port.active_mtu},
            {"max_mtu", port.max_mtu},
            {"speed", port.speed},
            {"width", port.width},
            {"lid", port.lid},
            {"gid_table_len", port.gid_table_len},
            {"gids", gids}};
}

nlohmann::json to_json(const DeviceInfo& d) {
    nlohmann::json ports = nlohmann::json::array();
    for (const auto& p : d.ports)
        ports.push_back(to_json(p));
    return {{"name", d.name},
            {"driver", d.driver},
            {"software", d.software},
            {"transport", d.transport},
            {"node_guid", d.node_guid},
            {"sys_image_guid", d.sys_image_guid},
            {"fw_ver", d.fw_ver},
            {"vendor_id", d.vendor_id},
            {"vendor_part_id", d.vendor_part_id},
            {"max_mr_size", d.max_mr_size},
            {"max_qp", d.max_qp},
            {"max_qp_wr", d.max_qp_wr},
            {"max_sge", d.max_sge},
            {"max_cq", d.max_cq},
            {"max_cqe", d.max_cqe},
            {"max_mr", d.max_mr},
            {"max_pd", d.max_pd},
            {"max_qp_rd_atom", d.max_qp_rd_atom},
            {"atomic_cap", d.atomic_cap},
            {"phys_port_cnt", d.phys_port_cnt},
            {"ports", ports}};
}

std::optional<int> pick_rocev2_gid(const PortInfo& port) {
    std::optional<int> any;
    for (const auto& g : port.gids) {
        if (g.type != "RoCE v2") continue;
        if (g.gid.rfind("::ffff:", 0) == 0) return g.index;
        if (!any) any = g.index;
    }
    return any;
}

std::vector<DeviceInfo> list_devices(Tracer* tracer) {
    int count = 0;
    ibv_device** list = ibv_get_device_list(&count);
    if (tracer && tracer->enabled())
        tracer->record(Endpoint::None, EventKind::Verb, "ibv_get_device_list", {},
                       {{"ret", list ? count : -1}});
    std::vector<DeviceInfo> devices;
    if (list == nullptr) return devices;
    std::unique_ptr<ibv_device*, decltype(&ibv_free_device_list)> guard(list, &ibv_free_device_list);
    for (int i = 0; i < count; ++i) {
        DeviceInfo d;
        d.name = ibv_get_device_name(list[i]);
        d.transport = list[i]->transport_type == IBV_TRANSPORT_IWARP ? "iWARP" : "InfiniBand";
        d.driver = driver_of(d.name);
        d.software = d.driver == "rxe" || d.driver == "siw";
        std::unique_ptr<ibv_context, decltype(&ibv_close_device)> context(ibv_open_device(list[i]),
                                                                          &ibv_close_device);
        if (!context)
            throw RdmaError(explain_errno("ibv_open_device", errno, "opening " + d.name, "打开 " + d.name));
        ibv_device_attr attr{};
        if (int ret = ibv_query_device(context.get(), &attr); ret != 0)
            throw RdmaError(explain_errno("ibv_query_device", ret, d.name));
        d.node_guid = guid_text(attr.node_guid);
        d.sys_image_guid = guid_text(attr.sys_image_guid);
        d.fw_ver = attr.fw_ver;
        d.vendor_id = attr.vendor_id;
        d.vendor_part_id = attr.vendor_part_id;
        d.max_mr_size = attr.max_mr_size;
        d.max_qp = attr.max_qp;
        d.max_qp_wr = attr.max_qp_wr;
        d.max_sge = attr.max_sge;
        d.max_cq = attr.max_cq;
        d.max_cqe = attr.max_cqe;
        d.max_mr = attr.max_mr;
        d.max_pd = attr.max_pd;
        d.max_qp_rd_atom = attr.max_qp_rd_atom;
        d.atomic_cap = atomic_cap_name(attr.atomic_cap);
        d.phys_port_cnt = attr.phys_port_cnt;
        for (std::uint8_t p = 1; p <= attr.phys_port_cnt; ++p) {
            ibv_port_attr pa{};
            if (int ret = ibv_query_port(context.get(), p, &pa); ret != 0)
                throw RdmaError(explain_errno("ibv_query_port", ret, fmt::format("{} port {}", d.name, p),
                                              fmt::format("{} 的端口 {}", d.name, p)));
            PortInfo port;
            port.port = p;
            port.state = std::string(port_state_name(pa.state));
            port.active = pa.state == IBV_PORT_ACTIVE;
            port.phys_state = std::string(port_phys_state_name(pa.phys_state));
            port.link_layer = std::string(link_layer_name(pa.link_layer));
            port.active_mtu = mtu_bytes(pa.active_mtu);
            port.max_mtu = mtu_bytes(pa.max_mtu);
            port.speed = port_speed_text(pa.active_speed, pa.active_width);
            port.width = port_width_text(pa.active_width);
            port.lid = pa.lid;
            port.gid_table_len = pa.gid_tbl_len;
            for (int g = 0; g < pa.gid_tbl_len; ++g) {
                ibv_gid_entry entry{};
                if (ibv_query_gid_ex(context.get(), p, static_cast<std::uint32_t>(g), &entry, 0) != 0)
                    continue;
                bool zero = true;
                for (auto byte : entry.gid.raw)
                    zero = zero && byte == 0;
                if (zero) continue;
                GidEntry gid;
                gid.index = g;
                gid.gid = gid_to_string(entry.gid);
                gid.type = std::string(gid_type_name(entry.gid_type));
                gid.netdev = netdev_of(context.get(), p, g);
                port.gids.push_back(gid);
            }
            d.ports.push_back(std::move(port));
        }
        devices.push_back(std::move(d));
    }
    return devices;
}

std::string format_device(const DeviceInfo& d) {
    std::string out =
        fmt::format("{}  ({}{}, transport {})\n", d.name, d.driver,
                    d.software ? ": software RDMA, numbers are not hardware numbers" : "", d.transport);
    out += fmt::format("  node_guid {}  fw_ver {}  vendor 0x{:x}/0x{:x}\n", d.node_guid,
                       d.fw_ver.empty() ? "-" : d.fw_ver, d.vendor_id, d.vendor_part_id);
    out += fmt::format("  max_qp {}  max_qp_wr {}  max_sge {}  max_cq {}  max_cqe {}  max_mr {}  max_pd {}\n",
                       d.max_qp, d.max_qp_wr, d.max_sge, d.max_cq, d.max_cqe, d.max_mr, d.max_pd);
    out += fmt::format("  max_mr_size {}  max_qp_rd_atom {}  atomic_cap {}\n", d.max_mr_size,
                       d.max_qp_rd_atom, d.atomic_cap);
    for (const auto& p : d.ports) {
        out += fmt::format("  port {}: {} ({})  link_layer {}  active_mtu {}  max_mtu {}  speed {} x {}\n",
                           p.port, p.state, p.phys_state, p.link_layer, p.active_mtu, p.max_mtu, p.speed,
                           p.width);
        for (const auto& g : p.gids)
            out += fmt::format("    GID[{:>3}] {:<40} {:<8} {}\n", g.index, g.gid, g.type, g.netdev);
    }
    return out;
}

} // namespace rdmalab
