// Device discovery and inspection: what `ibv_devinfo -v` shows that a student needs.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rdmalab {

class Tracer;

/// One GID table entry of a port.
struct GidEntry {
    int index = 0;
    std::string gid;    ///< textual IPv6 form, e.g. "::ffff:127.0.0.1" or "fe80::..."
    std::string type;   ///< "IB", "RoCE v1", "RoCE v2"
    std::string netdev; ///< network interface the GID belongs to (RoCE), empty for IB
};

/// One physical port.
struct PortInfo {
    int port = 1;
    std::string state; ///< "PORT_ACTIVE", ...
    bool active = false;
    std::string phys_state; ///< "LINK_UP", ...
    std::string link_layer; ///< "Ethernet" or "InfiniBand"
    int active_mtu = 0;     ///< bytes
    int max_mtu = 0;        ///< bytes
    std::string speed;      ///< per lane, e.g. "10.0 Gbps"
    std::string width;      ///< "1X", "4X"
    std::uint16_t lid = 0;
    int gid_table_len = 0;
    std::vector<GidEntry> gids; ///< only valid (non-zero) entries
};

/// One RDMA device with the capabilities lessons refer to.
struct DeviceInfo {
    std::string name;      ///< "rxe0", "mlx5_0"
    std::string node_guid; ///< "0011:2233:4455:6677"
    std::string sys_image_guid;
    std::string fw_ver;
    std::string transport; ///< "InfiniBand" (RoCE devices report IB transport) or "iWARP"
    std::string driver;    ///< "rxe" for SoftRoCE, "mlx5" ...
    bool software = false; ///< true for SoftRoCE (rxe) and Soft-iWARP (siw)
    std::uint32_t vendor_id = 0;
    std::uint32_t vendor_part_id = 0;
    std::uint64_t max_mr_size = 0;
    int max_qp = 0;
    int max_qp_wr = 0;
    int max_sge = 0;
    int max_cq = 0;
    int max_cqe = 0;
    int max_mr = 0;
    int max_pd = 0;
    int max_qp_rd_atom = 0;
    std::string atomic_cap; ///< "ATOMIC_NONE", "ATOMIC_HCA", "ATOMIC_GLOB"
    int phys_port_cnt = 0;
    std::vector<PortInfo> ports;
};

nlohmann::json to_json(const GidEntry& gid);
nlohmann::json to_json(const PortInfo& port);
nlohmann::json to_json(const DeviceInfo& device);

/// Lists every RDMA device with its ports and GID tables. Empty when there is none (not an error).
/// Throws RdmaError when a device exists but cannot be opened or queried.
std::vector<DeviceInfo> list_devices(Tracer* tracer = nullptr);

/// Multi-line human-readable rendering (like a compact `ibv_devinfo -v`).
std::string format_device(const DeviceInfo& device);

/// The kernel driver of a device ("rxe", "siw", "mlx5_core", ...; "unknown"), from sysfs.
std::string device_driver(const std::string& device);
/// True for a software device (SoftRoCE rxe, Soft-iWARP siw): the NIC's work is done by a CPU.
bool is_software_device(const std::string& device);

/// Index of the RoCE v2 GID to use on a port (IPv4-mapped preferred), nullopt when none.
std::optional<int> pick_rocev2_gid(const PortInfo& port);

} // namespace rdmalab
