// PeerLink: one TCP connection, messages framed as a 4-byte big-endian length and JSON text.
#include "rdmalab/labrun/peer_link.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace rdmalab::labs {

namespace {

/// The largest message one host sends the other (a step's values and verdicts are a few KiB).
constexpr std::uint32_t kMaxMessageBytes = 16u << 20;

[[noreturn]] void fail(const std::string& call, int err, const std::string& where, const std::string& fix) {
    throw std::runtime_error(fmt::format("{} failed ({}: {}) on the lab's link {}; fix: {}", call,
                                         err == 0 ? "-" : strerrorname_np(err), std::strerror(err), where,
                                         fix));
}

std::string address_of(const sockaddr_storage& sa) {
    char text[INET6_ADDRSTRLEN] = {};
    if (sa.ss_family == AF_INET)
        inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(sa).sin_addr, text, sizeof text);
    else if (sa.ss_family == AF_INET6)
        inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(sa).sin6_addr, text, sizeof text);
    return text;
}

std::string local_of(int fd) {
    sockaddr_storage sa{};
    socklen_t len = sizeof sa;
    getsockname(fd, reinterpret_cast<sockaddr*>(&sa), &len);
    return address_of(sa);
}

/// Waits for `events` on `fd`; false at the timeout.
bool wait_for(int fd, short events, int timeout_ms) {
    pollfd p{.fd = fd, .events = events, .revents = 0};
    for (;;) {
        const int n = ::poll(&p, 1, timeout_ms);
        if (n >= 0) return n > 0;
        if (errno != EINTR) return false;
    }
}

} // namespace

PeerLink::PeerLink(int fd, std::string local, std::string peer)
    : fd_(fd), local_(std::move(local)), peer_(std::move(peer)) {
    const int one = 1;
    setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

PeerLink::~PeerLink() {
    if (fd_ >= 0) ::close(fd_);
}

std::unique_ptr<PeerLink> PeerLink::listen(const std::string& address, std::uint16_t port, int timeout_ms) {
    const std::string where = fmt::format("listening on {}:{}", address.empty() ? "*" : address, port);
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST;
    addrinfo* found = nullptr;
    if (const int rc = getaddrinfo(address.empty() ? nullptr : address.c_str(), std::to_string(port).c_str(),
                                   &hints, &found);
        rc != 0)
        throw std::runtime_error(fmt::format("getaddrinfo failed for '{}' ({}) on the lab's link; fix: give "
                                             "this host's numeric address on the wire (--listen ADDR)",
                                             address, gai_strerror(rc)));
    const int fd = ::socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        freeaddrinfo(found);
        fail("socket", errno, where, "check the process's limits on open files");
    }
    const int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    const int bound = ::bind(fd, found->ai_addr, found->ai_addrlen);
    const int err = errno;
    freeaddrinfo(found);
    if (bound != 0 || ::listen(fd, 1) != 0) {
        const int e = bound != 0 ? err : errno;
        ::close(fd);
        fail(bound != 0 ? "bind" : "listen", e, where,
             e == EADDRINUSE ? "another run listens on this port: wait for it or use --lab-port"
                             : "give an address this host holds (`ip -br addr`)");
    }
    if (!wait_for(fd, POLLIN, timeout_ms)) {
        ::close(fd);
        throw std::runtime_error(fmt::format(
            "no host connected within {} s on the lab's link {}; fix: start `lab run ... --connect` on the "
            "other host, pointing at this host's address",
            timeout_ms / 1000, where));
    }
    sockaddr_storage peer{};
    socklen_t len = sizeof peer;
    const int conn = ::accept4(fd, reinterpret_cast<sockaddr*>(&peer), &len, SOCK_CLOEXEC);
    const int accept_err = errno;
    ::close(fd);
    if (conn < 0) fail("accept", accept_err, where, "start the run again");
    return std::unique_ptr<PeerLink>(new PeerLink(conn, local_of(conn), address_of(peer)));
}

std::unique_ptr<PeerLink> PeerLink::connect(const std::string& host, std::uint16_t port, int timeout_ms) {
    const std::string where = fmt::format("to {}:{}", host, port);
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (const int rc = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found); rc != 0)
        throw std::runtime_error(
            fmt::format("getaddrinfo failed for '{}' ({}) on the lab's link; fix: give the "
                        "other host's address on the wire (--connect HOST)",
                        host, gai_strerror(rc)));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    int last_err = 0;
    for (;;) {
        const int fd = ::socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) {
            freeaddrinfo(found);
            fail("socket", errno, where, "check the process's limits on open files");
        }
        if (::connect(fd, found->ai_addr, found->ai_addrlen) == 0) {
            sockaddr_storage peer{};
            std::memcpy(&peer, found->ai_addr, found->ai_addrlen);
            freeaddrinfo(found);
            return std::unique_ptr<PeerLink>(new PeerLink(fd, local_of(fd), address_of(peer)));
        }
        last_err = errno;
        ::close(fd);
        // Only "nobody listens yet" is worth another try; anything else will not change by waiting.
        const bool again = last_err == ECONNREFUSED || last_err == ETIMEDOUT || last_err == EHOSTUNREACH;
        if (!again || std::chrono::steady_clock::now() >= deadline) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    freeaddrinfo(found);
    fail("connect", last_err, where,
         last_err == ECONNREFUSED ? "start `lab run ... --listen ADDR` on the other host first"
                                  : "check that the other host is reachable on the wire (`ping HOST`)");
}

void PeerLink::send(const nlohmann::json& message) {
    const std::string text = message.dump();
    const std::uint32_t length = htonl(static_cast<std::uint32_t>(text.size()));
    std::string frame(reinterpret_cast<const char*>(&length), sizeof length);
    frame += text;
    std::size_t sent = 0;
    while (sent < frame.size()) {
        const ssize_t n = ::send(fd_, frame.data() + sent, frame.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            fail("send", n < 0 ? errno : EPIPE, "to " + peer_, "the other host's run ended: see its output");
        sent += static_cast<std::size_t>(n);
    }
}

nlohmann::json PeerLink::receive(int timeout_ms) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    auto read_exactly = [&](char* out, std::size_t n) {
        std::size_t got = 0;
        while (got < n) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0 || !wait_for(fd_, POLLIN, static_cast<int>(left.count())))
                throw std::runtime_error(fmt::format(
                    "the other host ({}) said nothing for {} s on the lab's link; fix: see its output (its "
                    "run may have stopped at a step)",
                    peer_, timeout_ms / 1000));
            const ssize_t r = ::recv(fd_, out + got, n - got, 0);
            if (r < 0 && errno == EINTR) continue;
            if (r == 0)
                throw std::runtime_error(fmt::format(
                    "the other host ({}) closed the lab's link; fix: see its output (its run ended early)",
                    peer_));
            if (r < 0) fail("recv", errno, "from " + peer_, "start both runs again");
            got += static_cast<std::size_t>(r);
        }
    };
    std::uint32_t length = 0;
    read_exactly(reinterpret_cast<char*>(&length), sizeof length);
    length = ntohl(length);
    if (length > kMaxMessageBytes)
        throw std::runtime_error(
            fmt::format("the other host ({}) sent a message of {} bytes on the lab's link "
                        "(at most {}): it is not an rdmalab lab run",
                        peer_, length, kMaxMessageBytes));
    std::string text(length, '\0');
    read_exactly(text.data(), length);
    auto message = nlohmann::json::parse(text, nullptr, false);
    if (message.is_discarded() || !message.is_object())
        throw std::runtime_error(
            fmt::format("the other host ({}) sent a message that is not a JSON object on the "
                        "lab's link: it is not an rdmalab lab run",
                        peer_));
    return message;
}

} // namespace rdmalab::labs
