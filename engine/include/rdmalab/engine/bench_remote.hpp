// Measurements between two processes or two hosts: the passive side (B, `bench KIND --listen`) serves,
// the active side (A, `bench KIND --connect HOST`) measures with the same method as the loopback loops of
// bench.hpp (half round trip for ping-pong kinds, busy polling, warm-up excluded, selective signaling for
// bandwidth, compute_stats, getrusage). RDMA kinds connect an RC QP through rdma_cm; tcp_lat and tcp_bw
// use plain TCP sockets. Each measurement (each size of a sweep) has its own connection: the connect
// request tells B the kind, size and window and whether it is the last one; B exits after the last.
#pragma once

#include "rdmalab/engine/bench.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace rdmalab {

/// Where and how long to wait.
struct RemoteBenchOptions {
    std::string address;       ///< listener: address to bind (empty: all); connector: the listener's host
    std::uint16_t port = 7471; ///< rdma_cm port (RDMA kinds) or TCP port (tcp_lat, tcp_bw)
    int timeout_ms = 30000;    ///< connector: per connection step and per stalled operation
    int accept_timeout_ms = 600000; ///< listener: how long it waits for the first connection
    int next_timeout_ms = 30000;    ///< listener: how long it waits for the next size of a sweep
    std::optional<int> cpu;         ///< listener: pin its serving thread to this CPU (B's --cpus)
};

/// A measurement made against a remote peer.
struct RemoteBenchResult {
    BenchResult result;
    std::string peer; ///< "10.233.0.1:7471"
    std::string mode; ///< "two hosts (rdma_cm)" or "two hosts (TCP)"
};

/// A: connects to B, measures one size (options.size) and disconnects. `last` tells B to exit afterwards.
/// Throws RdmaError (with verb, errno or completion status, cause and fix) on failure; times out after
/// remote.timeout_ms when the peer does not answer.
RemoteBenchResult run_remote_bench(const BenchOptions& options, const RemoteBenchOptions& remote, bool last);

/// B: listens, serves measurement connections for `kind` one after another until A's last one, then
/// returns. `say` receives one human-readable line per event (listening, each served measurement).
/// Throws RdmaError on failure (no connection within accept_timeout_ms, a peer asking for another kind).
void run_remote_bench_listener(BenchKind kind, const RemoteBenchOptions& remote,
                               const std::function<void(const std::string&)>& say);

/// to_json(result) plus "peer" and "mode".
nlohmann::json to_json(const RemoteBenchResult& result, bool with_samples = false);

} // namespace rdmalab
