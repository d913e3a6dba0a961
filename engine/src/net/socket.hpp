// TCP socket helpers of the measurements (internal): the loopback pair and the two-host TCP kinds.
#pragma once

#include "rdmalab/engine/errors.hpp"

#include <sys/socket.h>

#include <cstddef>
#include <string>

namespace rdmalab::net {

/// Owns a file descriptor; closes it when it goes.
struct Fd {
    int fd = -1;
    Fd() = default;
    explicit Fd(int f) : fd(f) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd();
};

/// Explains a socket call's errno; the two-host path names the peer and its listener.
using SocketError = ErrorInfo (*)(const std::string& verb, int err, const std::string& where);

/// Sends all n bytes (MSG_NOSIGNAL: a closed peer is an error, not SIGPIPE); throws explain(...).
void write_all(int fd, const void* data, std::size_t n, const std::string& where, SocketError explain);
/// Reads exactly n bytes; false on the peer's orderly shutdown before the first byte, and an error for
/// one in the middle of the message.
bool read_all(int fd, void* data, std::size_t n, const std::string& where, SocketError explain);

/// No Nagle delay (latency kinds; bandwidth keeps the stack's default, as iperf3 does).
void set_nodelay(int fd);
/// Receive and send timeouts (0: none).
void set_timeouts(int fd, int timeout_ms);
/// "10.233.0.1:7471" for an IPv4 address.
std::string address_text(const sockaddr* sa);
/// The interface that holds the socket's local address ("rdmalab0"), for the device field.
std::string local_interface(int fd);

} // namespace rdmalab::net
