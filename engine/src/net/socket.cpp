#include "net/socket.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

namespace rdmalab::net {

Fd::~Fd() {
    if (fd >= 0) ::close(fd);
}

void write_all(int fd, const void* data, std::size_t n, const std::string& where, SocketError explain) {
    const auto* p = static_cast<const std::uint8_t*>(data);
    while (n > 0) {
        const ssize_t w = ::send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) throw RdmaError(explain("send", errno, where));
        p += w;
        n -= static_cast<std::size_t>(w);
    }
}

bool read_all(int fd, void* data, std::size_t n, const std::string& where, SocketError explain) {
    auto* p = static_cast<std::uint8_t*>(data);
    bool first = true;
    while (n > 0) {
        const ssize_t r = ::recv(fd, p, n, 0);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) throw RdmaError(explain("recv", errno, where));
        if (r == 0) {
            if (first) return false;
            throw RdmaError(
                ErrorInfo{.verb = "recv",
                          .err = 0,
                          .code = "EOF",
                          .meaning = "the connection was closed in the middle of a message",
                          .cause = fmt::format("{} closed the connection: it failed or was stopped.", where),
                          .fix = "Look at the peer's output for its error.",
                          // `where` (the caller's name for the peer) is English only: the cause stands
                          // in English.
                          .zh = {.meaning = "连接在消息传输到一半时被关闭",
                                 .cause = {},
                                 .fix = "查看对端的输出，找出它的错误。"}}
                    .seal());
        }
        first = false;
        p += r;
        n -= static_cast<std::size_t>(r);
    }
    return true;
}

void set_nodelay(int fd) {
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

void set_timeouts(int fd, int timeout_ms) {
    timeval tv{timeout_ms / 1000, suseconds_t{timeout_ms % 1000} * 1000};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

std::string address_text(const sockaddr* sa) {
    char text[INET_ADDRSTRLEN] = {};
    const auto* in = reinterpret_cast<const sockaddr_in*>(sa);
    inet_ntop(AF_INET, &in->sin_addr, text, sizeof text);
    return fmt::format("{}:{}", text, ntohs(in->sin_port));
}

std::string local_interface(int fd) {
    sockaddr_in local{};
    socklen_t len = sizeof local;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &len) != 0) return "?";
    ifaddrs* list = nullptr;
    if (getifaddrs(&list) != 0) return "?";
    std::string name = "?";
    for (ifaddrs* i = list; i; i = i->ifa_next)
        if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET &&
            reinterpret_cast<sockaddr_in*>(i->ifa_addr)->sin_addr.s_addr == local.sin_addr.s_addr) {
            name = i->ifa_name;
            break;
        }
    freeifaddrs(list);
    return name;
}

} // namespace rdmalab::net
