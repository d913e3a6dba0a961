// The measurement vocabulary shared by the engine, the CLI and the app: every kind a measurement can be,
// with the properties front ends need (latency or bandwidth, RDMA or TCP, which round trip a latency
// figure is, the reference tool that measures the same thing). Verbs-free and Qt-free.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace rdmalab {

enum class BenchKind { SendLat, WriteLat, ReadLat, AtomicLat, TcpLat, WriteBw, ReadBw, SendBw, TcpBw };

/// One measurement kind and what it is.
struct MeasurementKind {
    BenchKind kind;
    std::string_view name;      ///< "write_lat": `rdmalab-cli bench KIND`, bench.start's `kind`, results
    bool latency;               ///< per-iteration latency samples; otherwise bandwidth
    bool tcp;                   ///< kernel TCP sockets; otherwise RDMA verbs
    bool full_round_trip;       ///< latency of one whole operation (READ, atomic); otherwise ping-pong halved
    std::string_view reference; ///< the tool that measures the same in the same way ("ib_write_lat")
    std::string_view title;     ///< English title, as the measurement window names it
};

/// The one table every front end reads, in BenchKind's order. In the header so that tables built at compile
/// time (the lab language's `bench` kinds) can take their names from it.
inline constexpr std::array<MeasurementKind, 9> kMeasurementKinds{{
    {BenchKind::SendLat, "send_lat", true, false, false, "ib_send_lat", "RDMA SEND/RECV latency (ping-pong)"},
    {BenchKind::WriteLat, "write_lat", true, false, false, "ib_write_lat", "RDMA WRITE latency (ping-pong)"},
    {BenchKind::ReadLat, "read_lat", true, false, true, "ib_read_lat", "RDMA READ latency"},
    {BenchKind::AtomicLat, "atomic_lat", true, false, true, "ib_atomic_lat",
     "RDMA atomic (fetch-and-add) latency"},
    {BenchKind::TcpLat, "tcp_lat", true, true, false, "sockperf ping-pong",
     "TCP latency (ping-pong, TCP_NODELAY)"},
    {BenchKind::WriteBw, "write_bw", false, false, false, "ib_write_bw", "RDMA WRITE bandwidth"},
    {BenchKind::ReadBw, "read_bw", false, false, false, "ib_read_bw", "RDMA READ bandwidth"},
    {BenchKind::SendBw, "send_bw", false, false, false, "ib_send_bw", "RDMA SEND bandwidth"},
    {BenchKind::TcpBw, "tcp_bw", false, true, false, "iperf3", "TCP bandwidth (one stream)"},
}};
static_assert(
    [] {
        for (std::size_t i = 0; i < kMeasurementKinds.size(); ++i)
            if (static_cast<std::size_t>(kMeasurementKinds[i].kind) != i) return false;
        return true;
    }(),
    "kMeasurementKinds must list the kinds in BenchKind's order");

/// Every kind's name, in BenchKind's order (what bench_kind_from_string accepts), as a compile-time array.
inline constexpr std::array<std::string_view, kMeasurementKinds.size()> kMeasurementKindNames = [] {
    std::array<std::string_view, kMeasurementKinds.size()> names{};
    for (std::size_t i = 0; i < names.size(); ++i)
        names[i] = kMeasurementKinds[i].name;
    return names;
}();

/// Every kind, in BenchKind's order.
std::span<const MeasurementKind> measurement_kinds();
/// The kind's entry (never null for a valid BenchKind).
const MeasurementKind& measurement_kind(BenchKind kind);
/// The entry named `name`, or nullptr for an unknown name.
const MeasurementKind* find_measurement_kind(std::string_view name);

std::string_view to_string(BenchKind kind);
std::optional<BenchKind> bench_kind_from_string(std::string_view text);
/// Every kind's name, in declaration order (what bench_kind_from_string accepts).
std::vector<std::string_view> bench_kind_names();
bool is_latency(BenchKind kind);
bool is_tcp(BenchKind kind);

} // namespace rdmalab
