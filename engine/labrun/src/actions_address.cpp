// add_address and remove_address: an IPv4 address added to (and removed from) the interface under the
// lab's RoCE device, through the engine's InterfaceAddress (rtnetlink, traced), and the wait for the
// kernel to add (remove) the matching GID. The kernel updates the GID table from a work queue after the
// address notifier runs, so the GID appears a little after the address: the step waits for it, reading
// the table from sysfs (not a verbs call, so the wait adds no events to the trace).
#include "actions.hpp"

#include "rdmalab/engine/netaddr.hpp"

#include <arpa/inet.h>

#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

namespace rdmalab::labs::run {

namespace {

/// How long address and route resolution wait when a step gives no `timeout:`, in ms.
constexpr int kResolveTimeoutMs = 5000;

std::filesystem::path port_dir(const DeviceState& d) {
    return std::filesystem::path("/sys/class/infiniband") / d.name / "ports" / std::to_string(d.port);
}

std::string first_line(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    return line;
}

/// The interface under the device's port: the netdev of its first GID (sysfs gid_attrs/ndevs/0).
std::string netdev_of(const DeviceState& d) {
    std::string netdev = first_line(port_dir(d) / "gid_attrs" / "ndevs" / "0");
    if (netdev.empty())
        throw LabRunError(
            fmt::format("{} port {} has no network interface (sysfs gid_attrs/ndevs/0 is empty): "
                        "add_address needs a RoCE device",
                        d.name, d.port));
    return netdev;
}

/// The index of the GID equal to `gid` (an IPv6 text form) in the port's table, or nullopt.
std::optional<int> gid_index_of(const DeviceState& d, const std::string& gid) {
    in6_addr wanted{};
    if (inet_pton(AF_INET6, gid.c_str(), &wanted) != 1) return std::nullopt;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(port_dir(d) / "gids", ec)) {
        in6_addr seen{};
        if (inet_pton(AF_INET6, first_line(entry.path()).c_str(), &seen) != 1) continue;
        if (std::memcmp(&seen, &wanted, sizeof(seen)) != 0) continue;
        int index = -1;
        const std::string name = entry.path().filename().string();
        std::from_chars(name.data(), name.data() + name.size(), index);
        return index;
    }
    return std::nullopt;
}

/// Waits until the GID is in the table (`present`) or gone from it; returns the milliseconds it took, or
/// nullopt at the timeout.
std::optional<long> wait_for_gid(const DeviceState& d, const std::string& gid, bool present, int timeout_ms) {
    const auto start = std::chrono::steady_clock::now();
    const auto deadline = start + std::chrono::milliseconds(timeout_ms);
    for (;;) {
        if (gid_index_of(d, gid).has_value() == present)
            return static_cast<long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                         std::chrono::steady_clock::now() - start)
                                         .count());
        if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

} // namespace

void do_add_address(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "as");
    const auto& d = device(s);
    const std::string address = text(step, "address");
    const int prefix = static_cast<int>(integer(step, "prefix", 32));
    const int timeout_ms = static_cast<int>(integer(step, "timeout", kResolveTimeoutMs));
    const std::string gid = ipv4_mapped_gid(address);
    if (gid.empty()) throw LabRunError("'" + address + "' is not an IPv4 address (a.b.c.d)");
    const std::string netdev = netdev_of(d);
    // The kernel follows address changes on Ethernet-type interfaces only (roce_gid_mgmt.c addr_event()):
    // on another type (lo) the address would be added and no GID would ever come.
    if (const std::string type = first_line(std::filesystem::path("/sys/class/net") / netdev / "type");
        type != "1")
        throw LabRunError(
            fmt::format("{} (under {}) is not an Ethernet-type interface (ARPHRD {}): the kernel "
                        "adds GIDs for the addresses of Ethernet interfaces only; open a device "
                        "on one (open_device with `address`)",
                        netdev, d.name, type.empty() ? "unknown" : type));
    auto added = std::make_shared<InterfaceAddress>(netdev, address, prefix, s.tracer);
    s.addresses[name] = added;
    remember(s, name);
    s.values[name + ".netdev"] = added->netdev();
    s.values[name + ".address"] = address;
    s.values[name + ".gid"] = gid;
    r.results["netdev"] = added->netdev();
    r.results["gid"] = gid;
    const auto waited = wait_for_gid(d, gid, true, timeout_ms);
    if (!waited)
        throw LabRunError(fmt::format("the address {} is on {}, but no GID {} appeared in {} port {}'s table "
                                      "within {} ms",
                                      address, added->netdev(), gid, d.name, d.port, timeout_ms));
    r.results["appeared_ms"] = std::to_string(*waited);
    r.results["gid_index"] = std::to_string(gid_index_of(d, gid).value_or(-1));
}

void do_remove_address(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "address");
    const auto& added = s.object(s.addresses, step, "address");
    const auto& d = device(s);
    const int timeout_ms = static_cast<int>(integer(step, "timeout", kResolveTimeoutMs));
    added->remove();
    const std::string gid = ipv4_mapped_gid(added->address());
    const std::string netdev = added->netdev();
    s.addresses.erase(name);
    const auto waited = wait_for_gid(d, gid, false, timeout_ms);
    if (!waited)
        throw LabRunError(
            fmt::format("the address is gone from {}, but GID {} is still in {} port {}'s table "
                        "after {} ms",
                        netdev, gid, d.name, d.port, timeout_ms));
    r.results["gone_ms"] = std::to_string(*waited);
}

} // namespace rdmalab::labs::run
