// One operation between two processes or two hosts, connected through librdmacm (rdma_cm).
// B listens, A connects and performs the operation. The QPs are ordinary engine QueuePairs: rdma_cm
// resolves the address and route and exchanges QP numbers and the buffer's address and rkey as private
// data, and each side makes its own named transitions with the attributes rdma_init_qp_attr supplies,
// so every transition is traced like on the loopback pair.
#pragma once

#include "rdmalab/engine/operation.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace rdmalab {

/// Default rdma_cm port (TCP port space) of `op --listen` / `--connect`.
inline constexpr std::uint16_t kDefaultCmPort = 7471;

struct CmOptions {
    std::string address; ///< listener: address to bind (empty: all); connector: the listener's host
    std::uint16_t port = kDefaultCmPort;
    int timeout_ms = 20000;         ///< per connection event; the listener waits this long for a peer
    int accept_timeout_ms = 600000; ///< how long the listener waits for a connection request
};

/// B: waits for one connection, serves the operation A asks for (which must equal options.op), verifies
/// what arrived in its memory after A disconnects. Never throws RdmaError: failures are in the outcome.
OperationOutcome run_cm_listener(const OperationOptions& options, const CmOptions& cm,
                                 const std::shared_ptr<Tracer>& tracer);

/// A: connects to B, performs the operation with B's address and rkey, verifies its side, disconnects.
OperationOutcome run_cm_connector(const OperationOptions& options, const CmOptions& cm,
                                  const std::shared_ptr<Tracer>& tracer);

/// FNV-1a 64-bit hash; both sides compare payloads by it without shipping them.
std::uint64_t fnv1a(const std::uint8_t* data, std::size_t length);

} // namespace rdmalab
