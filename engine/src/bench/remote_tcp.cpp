// Two-host tcp_lat and tcp_bw (bench/remote.hpp has the protocol): A measures with ping_pong and stream,
// the loops the loopback TCP pair uses; B echoes or counts bytes.
#include "bench/common.hpp"
#include "bench/loops.hpp"
#include "bench/remote.hpp"
#include "net/resolve.hpp"
#include "net/socket.hpp"

#include <endian.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

namespace rdmalab::bench_detail::remote {

namespace {

using detail::resolve_ipv4;
using net::address_text;
using net::Fd;
using net::local_interface;
using net::set_nodelay;
using net::set_timeouts;

struct TcpHeader {
    std::uint32_t magic;
    std::uint8_t version, kind, last, pad;
    std::uint32_t size;
    std::uint32_t warmup;
};

void write_all(int fd, const void* data, std::size_t n, const std::string& where) {
    net::write_all(fd, data, n, where, socket_error);
}

bool read_all(int fd, void* data, std::size_t n, const std::string& where) {
    return net::read_all(fd, data, n, where, socket_error);
}

void read_exact(int fd, void* data, std::size_t n, const std::string& where) {
    if (!read_all(fd, data, n, where))
        fail({.verb = "recv",
              .err = 0,
              .code = "EOF",
              .meaning = "the peer closed the connection",
              .cause = fmt::format(
                  "{} closed the connection before answering: it failed or serves something else.", where),
              .fix = "Look at the listener's output for its error."});
}

/// Non-blocking connect with a timeout.
int tcp_connect(const sockaddr* addr, socklen_t len, int timeout_ms, const std::string& where) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (fd < 0) fail_errno("socket", errno, where);
    Fd guard(fd);
    if (::connect(fd, addr, len) != 0) {
        if (errno != EINPROGRESS) fail_errno("connect", errno, where);
        pollfd pfd{fd, POLLOUT, 0};
        const int ready = ::poll(&pfd, 1, timeout_ms);
        if (ready == 0)
            fail(timeout_error("connect", timeout_ms, fmt::format("TCP connection to {}", where)));
        int err = 0;
        socklen_t elen = sizeof err;
        ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen);
        if (ready < 0) err = errno;
        if (err != 0) fail_errno("connect", err, where);
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    guard.fd = -1;
    return fd;
}

void tcp_serve(int fd, BenchKind kind, const TcpHeader& h, const std::string& peer) {
    const std::size_t size = std::max<std::uint32_t>(be32toh(h.size), 1);
    if (kind == BenchKind::TcpLat) {
        std::vector<std::uint8_t> buf(size);
        while (read_all(fd, buf.data(), size, peer))
            write_all(fd, buf.data(), size, peer);
        return;
    }
    std::vector<std::uint8_t> chunk(std::max<std::size_t>(size, 65536));
    const std::uint64_t warm = std::uint64_t(be32toh(h.warmup)) * size;
    std::uint64_t bytes = 0;
    bool acked = false;
    for (;;) {
        if (!acked && bytes >= warm) {
            const std::uint64_t n = htobe64(bytes);
            write_all(fd, &n, sizeof n, peer);
            acked = true;
        }
        const ssize_t n = ::recv(fd, chunk.data(), chunk.size(), 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail_errno("recv", errno, peer);
        if (n == 0) break;
        bytes += static_cast<std::uint64_t>(n);
    }
    const std::uint64_t total = htobe64(bytes);
    write_all(fd, &total, sizeof total, peer);
}

} // namespace

RemoteBenchResult tcp_connector(const BenchOptions& o, const RemoteBenchOptions& remote, bool last) {
    const std::size_t size = std::max<std::size_t>(o.size, 1);
    const auto addr = resolve_ipv4(remote.address, remote.port, false);
    const std::string peer = address_text(addr->ai_addr);
    Fd s(tcp_connect(addr->ai_addr, addr->ai_addrlen, remote.timeout_ms, peer));
    set_timeouts(s.fd, remote.timeout_ms);
    if (o.kind == BenchKind::TcpLat) set_nodelay(s.fd); // bandwidth keeps the default, as iperf3 does
    TcpHeader h{};
    h.magic = htobe32(kMagic);
    h.version = kWireVersion;
    h.kind = static_cast<std::uint8_t>(o.kind);
    h.last = last ? 1 : 0;
    h.size = htobe32(static_cast<std::uint32_t>(size));
    h.warmup = htobe32(static_cast<std::uint32_t>(o.warmup));
    write_all(s.fd, &h, sizeof h, peer);
    BenchReply status{};
    read_exact(s.fd, &status, sizeof status, peer);
    if (be32toh(status.magic) != kMagic)
        fail({.verb = "connect",
              .err = EPROTO,
              .code = "EPROTO",
              .meaning = "the peer is not an rdmalab bench listener",
              .cause = fmt::format("{} answered with something else.", peer),
              .fix = kListenFix});
    if (be32toh(status.status) != kStatusOk)
        fail({.verb = "connect",
              .err = ECONNREFUSED,
              .code = "rejected",
              .meaning = "the listener refused the measurement",
              .cause = fmt::format("The listener at {} serves bench {}, this side asked for {}.", peer,
                                   kind_name(status.kind), to_string(o.kind)),
              .fix = "Start both sides with the same KIND."});

    RemoteBenchResult out;
    BenchResult& r = out.result;
    r.device = fmt::format("TCP ({}, kernel stack)", local_interface(s.fd));
    r.size = size;
    std::vector<std::uint8_t> buf(size, 'a');
    if (o.kind == BenchKind::TcpLat) {
        r.latency_basis = "half round trip (ping-pong / 2, as sockperf ping-pong)";
        PingPong run = ping_pong(o, [&] {
            write_all(s.fd, buf.data(), size, peer);
            read_exact(s.fd, buf.data(), size, peer);
        });
        ::shutdown(s.fd, SHUT_WR);
        std::uint8_t byte;
        (void)::recv(s.fd, &byte, 1, 0); // B's EOF
        std::move(run).fill(o, r);
    } else {
        std::uint64_t got = 0;
        const StreamRun run = stream(
            o, false, [&] { write_all(s.fd, buf.data(), size, peer); },
            [&](long) { read_exact(s.fd, &got, sizeof got, peer); }, // B has the warm-up
            [&](long) {
                ::shutdown(s.fd, SHUT_WR);
                read_exact(s.fd, &got, sizeof got, peer); // B's count at EOF: every byte arrived
            },
            [](long, long measured) { return measured; });
        const std::uint64_t want = std::uint64_t(o.warmup + run.measured) * size;
        if (be64toh(got) != want)
            fail({.verb = "recv",
                  .err = EPROTO,
                  .code = "EPROTO",
                  .meaning = "byte count mismatch",
                  .cause = fmt::format("B received {} bytes, A sent {}.", be64toh(got), want),
                  .fix = "Run the same rdmalab version on both sides."});
        fill_bandwidth(r, run.measured, run.start_us, run.end_us, run.before, run.after);
        r.notes.push_back(
            "the clock stops when B reports that every byte arrived (one extra half round trip)");
    }
    r.notes.push_back(
        "each message is copied by the CPU twice: into the socket buffer on send() and out of it "
        "on recv(); every send()/recv() is a system call");
    r.notes.push_back("A (this process) measures, B is another process or host; CPU figures cover only this "
                      "side (A)");
    out.peer = peer;
    out.mode = "two hosts (TCP)";
    return out;
}

void tcp_listener(BenchKind kind, const RemoteBenchOptions& remote, const Say& say) {
    const std::string bind_text = remote::bind_text(remote);
    const auto addr = resolve_ipv4(remote.address, remote.port, true);
    Fd l(::socket(AF_INET, SOCK_STREAM, 0));
    if (l.fd < 0) fail_errno("socket", errno, bind_text);
    const int one = 1;
    ::setsockopt(l.fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    check(::bind(l.fd, addr->ai_addr, addr->ai_addrlen), "bind", bind_text);
    check(::listen(l.fd, 4), "listen", bind_text);
    say(fmt::format("B: listening on {} for bench {} (TCP); waiting up to {} s for `rdmalab-cli bench {} "
                    "--connect HOST --cm-port {}`",
                    bind_text, to_string(kind), remote.accept_timeout_ms / 1000, to_string(kind),
                    remote.port));
    for (int served = 0;; ++served) {
        const int wait_ms = served == 0 ? remote.accept_timeout_ms : remote.next_timeout_ms;
        pollfd pfd{l.fd, POLLIN, 0};
        const int ready = ::poll(&pfd, 1, wait_ms);
        if (ready == 0) fail(timeout_error("accept", wait_ms, "TCP connection"));
        if (ready < 0) fail_errno("poll", errno, bind_text);
        sockaddr_in from{};
        socklen_t len = sizeof from;
        Fd c(::accept(l.fd, reinterpret_cast<sockaddr*>(&from), &len));
        if (c.fd < 0) fail_errno("accept", errno, bind_text);
        const std::string peer = address_text(reinterpret_cast<sockaddr*>(&from));
        set_timeouts(c.fd, remote.next_timeout_ms); // the header; cleared below
        TcpHeader h{};
        read_exact(c.fd, &h, sizeof h, peer);
        BenchReply status{};
        status.magic = htobe32(kMagic);
        status.kind = static_cast<std::uint8_t>(kind);
        const bool ours = be32toh(h.magic) == kMagic && h.version == kWireVersion;
        const bool ok = ours && h.kind == static_cast<std::uint8_t>(kind);
        status.status = htobe32(ok ? kStatusOk : ours ? kStatusWrongKind : kStatusBadRequest);
        write_all(c.fd, &status, sizeof status, peer);
        if (!ok) fail_refused("accept", ours, h.kind, kind, "the connection");
        set_timeouts(c.fd, 0);
        if (kind == BenchKind::TcpLat) set_nodelay(c.fd);
        tcp_serve(c.fd, kind, h, peer);
        say(fmt::format("B: served bench {} of {} B for {} over {}{}", to_string(kind), be32toh(h.size), peer,
                        local_interface(c.fd), h.last ? " (last)" : ""));
        if (h.last) return;
    }
}

} // namespace rdmalab::bench_detail::remote
