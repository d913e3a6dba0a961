// Lookups in the measurement vocabulary (measurement.hpp, which holds the table itself).
#include "rdmalab/format/measurement.hpp"

namespace rdmalab {

std::span<const MeasurementKind> measurement_kinds() {
    return kMeasurementKinds;
}

const MeasurementKind& measurement_kind(BenchKind kind) {
    return kMeasurementKinds.at(static_cast<std::size_t>(kind));
}

const MeasurementKind* find_measurement_kind(std::string_view name) {
    for (const auto& k : kMeasurementKinds)
        if (k.name == name) return &k;
    return nullptr;
}

std::string_view to_string(BenchKind kind) {
    const auto index = static_cast<std::size_t>(kind);
    return index < kMeasurementKinds.size() ? kMeasurementKinds[index].name : "?";
}

std::optional<BenchKind> bench_kind_from_string(std::string_view text) {
    if (const auto* k = find_measurement_kind(text)) return k->kind;
    return std::nullopt;
}

std::vector<std::string_view> bench_kind_names() {
    return {kMeasurementKindNames.begin(), kMeasurementKindNames.end()};
}

bool is_latency(BenchKind kind) {
    return measurement_kind(kind).latency;
}

bool is_tcp(BenchKind kind) {
    return measurement_kind(kind).tcp;
}

} // namespace rdmalab
