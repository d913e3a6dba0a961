#include "physicsfloor.h"

#include <cmath>
#include <limits>

namespace rdmalab::app {

double serializationSeconds(double bytes, double linkGbps) {
    if (!(linkGbps > 0) || !(bytes > 0)) return 0.0;
    return bytes * 8.0 / (linkGbps * 1e9);
}

namespace {

bool ofTransport(const BenchRun& run, Transport transport) {
    return (transport == Transport::Tcp) == run.isTcp();
}

// Lower is preferred when two bandwidth runs are equally near: one-sided write first, as perftest's
// usual headline figure.
int bandwidthPreference(const QString& kind) {
    if (kind == "write_bw") return 0;
    if (kind == "read_bw") return 1;
    if (kind == "send_bw") return 2;
    return 3;
}

/// The estimate `seconds` drawn from `run` (at `runIndex`), by its p50 latency or its bandwidth (`figure`).
TransferEstimate estimateFrom(const BenchRun& run, int runIndex, double seconds, bool fromLatency,
                              double figure) {
    TransferEstimate e;
    e.seconds = seconds;
    e.runIndex = runIndex;
    e.kind = run.kind;
    e.runSize = run.size;
    e.device = run.device;
    e.softwareDevice = run.softwareDevice;
    e.fromLatency = fromLatency;
    e.figure = figure;
    return e;
}

} // namespace

std::optional<TransferEstimate> estimateTransferTime(const std::vector<BenchRun>& runs, double bytes,
                                                     Transport transport) {
    if (!(bytes > 0)) return std::nullopt;
    // One message of exactly this size: its latency is the measured time of the whole transfer. The
    // half-round-trip kinds (one way, like the transfer) come before the full-round-trip ones.
    const QString latencyOrder[] = {"write_lat", "send_lat", "tcp_lat", "read_lat", "atomic_lat"};
    for (const QString& kind : latencyOrder) {
        for (int i = 0; i < static_cast<int>(runs.size()); ++i) {
            const BenchRun& run = runs[i];
            if (run.kind != kind || !run.finished || !ofTransport(run, transport) || !run.latency) continue;
            if (static_cast<double>(run.size) != bytes) continue;
            return estimateFrom(run, i, run.latency->p50 * 1e-6, /*fromLatency=*/true, run.latency->p50);
        }
    }
    int best = -1;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (int i = 0; i < static_cast<int>(runs.size()); ++i) {
        const BenchRun& run = runs[i];
        if (!run.finished || !ofTransport(run, transport) || run.isLatency() || !(run.bwMBps > 0) ||
            run.size <= 0)
            continue;
        const double distance = std::abs(std::log2(static_cast<double>(run.size)) - std::log2(bytes));
        const bool nearer = distance < bestDistance - 1e-12;
        const bool tieButPreferred = std::abs(distance - bestDistance) <= 1e-12 && best >= 0 &&
                                     bandwidthPreference(run.kind) < bandwidthPreference(runs[best].kind);
        if (nearer || tieButPreferred) {
            best = i;
            bestDistance = distance;
        }
    }
    if (best < 0) return std::nullopt;
    const BenchRun& run = runs[best];
    return estimateFrom(run, best, bytes / (run.bwMBps * 1e6), /*fromLatency=*/false, run.bwMBps);
}

} // namespace rdmalab::app
