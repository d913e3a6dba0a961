// The measurement vocabulary shared by the engine, the CLI and the app: every kind a measurement can be,
// with the properties front ends need (latency or bandwidth, RDMA or TCP, which round trip a latency
// figure is, the reference tool that measures the same thing). Verbs-free and Qt-free.
#pragma once

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
