#include "rdmalab/format/measurement.hpp"

#include <array>

namespace rdmalab {

namespace {

// The one table every front end reads; the order is BenchKind's.
constexpr std::array<MeasurementKind, 9> kKinds{{
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

constexpr bool table_follows_enum() {
    for (std::size_t i = 0; i < kKinds.size(); ++i)
        if (static_cast<std::size_t>(kKinds[i].kind) != i) return false;
    return true;
}
static_assert(table_follows_enum(), "kKinds must list the kinds in BenchKind's order");

} // namespace

std::span<const MeasurementKind> measurement_kinds() {
    return kKinds;
}

const MeasurementKind& measurement_kind(BenchKind kind) {
    return kKinds.at(static_cast<std::size_t>(kind));
}

const MeasurementKind* find_measurement_kind(std::string_view name) {
    for (const auto& k : kKinds)
        if (k.name == name) return &k;
    return nullptr;
}

std::string_view to_string(BenchKind kind) {
    const auto index = static_cast<std::size_t>(kind);
    return index < kKinds.size() ? kKinds[index].name : "?";
}

std::optional<BenchKind> bench_kind_from_string(std::string_view text) {
    if (const auto* k = find_measurement_kind(text)) return k->kind;
    return std::nullopt;
}

std::vector<std::string_view> bench_kind_names() {
    std::vector<std::string_view> names;
    names.reserve(kKinds.size());
    for (const auto& k : kKinds)
        names.push_back(k.name);
    return names;
}

bool is_latency(BenchKind kind) {
    return measurement_kind(kind).latency;
}

bool is_tcp(BenchKind kind) {
    return measurement_kind(kind).tcp;
}

} // namespace rdmalab
