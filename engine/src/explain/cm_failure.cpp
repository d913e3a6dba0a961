#include "explain/cm_failure.hpp"

#include "rdmalab/engine/names.hpp"

#include <fmt/format.h>

namespace rdmalab::detail {

std::string describe_cm_failure(rdma_cm_event_type type, int status) {
    switch (type) {
    case RDMA_CM_EVENT_REJECTED:
        if (status == 8)
            return "Nobody listens on that address and port: the peer's connection manager answered the "
                   "request with REJ reason 8 (invalid service ID).";
        if (status == 28)
            return "The application on the other side rejected the connection (REJ reason 28, consumer "
                   "defined): it serves a different operation, or its setup failed; see its output.";
        return fmt::format("The peer rejected the connection (REJ reason {}).", status);
    case RDMA_CM_EVENT_ADDR_ERROR:
        return fmt::format("The address could not be resolved to an RDMA device ({}): no route to it, or the "
                           "route leaves through an interface without an RDMA device.",
                           status < 0 ? errno_name(-status) : std::to_string(status));
    case RDMA_CM_EVENT_ROUTE_ERROR:
        return fmt::format("No route to the peer could be resolved ({}).",
                           status < 0 ? errno_name(-status) : std::to_string(status));
    case RDMA_CM_EVENT_UNREACHABLE:
        return "The peer did not answer the connection request: it is unreachable or its host is down.";
    case RDMA_CM_EVENT_DISCONNECTED:
        return "The peer disconnected (or its process ended) before the operation finished.";
    default:
        return "The connection could not be set up or was torn down by the peer.";
    }
}

} // namespace rdmalab::detail
