// The "physics floor" of a transfer: the time its bits need to leave the sender at the link rate,
// next to what a measurement took for the same transfer.
#pragma once

#include "benchdata.h"

#include <QString>

#include <optional>
#include <vector>

namespace rdmalab::app {

/// Serialization time of `bytes` at `linkGbps` (10^9 bit/s): bytes * 8 / (linkGbps * 10^9) seconds.
/// 100 MB (10^8 B) at 100 Gb/s is 8 ms. This is a lower bound, not a prediction. The nominal rate of
/// 10-400 Gb/s Ethernet and of EDR/HDR InfiniBand is already the data rate after line coding (64b/66b,
/// 256b/257b), so coding does not lower it further (QDR InfiniBand, 8b/10b, carries 32 of its 40 Gb/s;
/// FDR about 54.5 of its 56). Per-frame overhead does: preamble and inter-frame gap, the Ethernet, IP and
/// UDP headers, the InfiniBand transport headers (BTH, RETH) for RoCE v2, ICRC and FCS. Propagation,
/// switching and host time come on top. Returns 0 for a rate that is not positive.
double serializationSeconds(double bytes, double linkGbps);

enum class Transport { Rdma, Tcp };

/// How long a measured run says a transfer of a given size takes, and where that came from.
struct TransferEstimate {
    double seconds = 0;
    int runIndex = -1;  ///< position of the run in the list given
    QString kind;       ///< e.g. "write_bw", "tcp_lat"
    qint64 runSize = 0; ///< message size of that run in bytes
    QString device;     ///< the device the run measured
    bool softwareDevice = false;
    bool fromLatency = false; ///< p50 latency of one message (true) or bytes / bandwidth (false)
    double figure = 0;        ///< the figure used: p50 in µs, or MB/s (10^6 B/s)
};

/// Estimates the time of a `bytes` transfer over `transport` from finished runs: when a latency run
/// measured exactly one message of that size, its p50 (one-way kinds write_lat, send_lat, tcp_lat
/// before the full-round-trip read_lat, atomic_lat); otherwise bytes / bandwidth of the bandwidth run
/// of that transport whose message size is nearest (on a log scale) to `bytes` (for RDMA, write_bw is
/// preferred over read_bw and send_bw at equal distance). Nothing when no run fits.
std::optional<TransferEstimate> estimateTransferTime(const std::vector<BenchRun>& runs, double bytes,
                                                     Transport transport);

} // namespace rdmalab::app
