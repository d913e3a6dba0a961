// Address lookup shared by the rdma_cm operation and the two-process measurements (internal).
#pragma once

#include <netdb.h>

#include <cstdint>
#include <memory>
#include <string>

namespace rdmalab::detail {

using AddrInfo = std::unique_ptr<addrinfo, decltype(&freeaddrinfo)>;

/// IPv4 address of `host` (empty: any, for a listener with `passive`) and `port`; throws an RdmaError
/// naming getaddrinfo and its message when the name does not resolve.
AddrInfo resolve_ipv4(const std::string& host, std::uint16_t port, bool passive);

} // namespace rdmalab::detail
