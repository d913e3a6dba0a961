// The two-host measurement's entry points (bench_remote.hpp) and the errors both transports explain.
#include "rdmalab/engine/bench_remote.hpp"

#include "bench/common.hpp"
#include "bench/remote.hpp"

#include "rdmalab/engine/names.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <stdexcept>

namespace rdmalab {

namespace bench_detail::remote {

const char* const kListenFix =
    "Start `rdmalab-cli bench KIND --listen [ADDR] --cm-port N` on the peer first, with the "
    "same KIND and port, and pass the peer's address to --connect.";

[[noreturn]] void fail(ErrorInfo info) {
    throw RdmaError(std::move(info));
}

ErrorInfo timeout_error(const std::string& verb, int timeout_ms, const std::string& what) {
    return {.verb = verb,
            .err = ETIMEDOUT,
            .code = "ETIMEDOUT",
            .meaning = errno_text(ETIMEDOUT),
            .cause = fmt::format(
                "No {} within {} s: the peer is not running, not reachable, or stopped answering.", what,
                timeout_ms / 1000.0),
            .fix = std::string(kListenFix) + " Look at the listener's output for its own error."};
}

/// A failed socket or rdma_cm call, with causes for the errors a two-host run meets.
ErrorInfo socket_error(const std::string& verb, int err, const std::string& where) {
    ErrorInfo info = explain_errno(verb, err);
    switch (err) {
    case ECONNREFUSED:
        info.cause = fmt::format("Nothing listens on {}.", where);
        info.fix = kListenFix;
        break;
    case ETIMEDOUT:
    case EAGAIN:
        info.code = errno_name(err);
        info.fix = std::string(kListenFix) + " Look at the listener's output for its own error.";
        info.cause =
            fmt::format("{} did not answer in time: it is not running, not reachable, or stopped.", where);
        break;
    case EHOSTUNREACH:
    case ENETUNREACH:
    case EADDRNOTAVAIL:
    case ENODEV:
        info.cause =
            fmt::format("{}: {} is not reachable from here, or not an address of an interface with an "
                        "RDMA device (rdma_cm cannot use 127.0.0.1 or other loopback addresses).",
                        errno_text(err), where);
        info.fix = "Use an IP address of the interface the RDMA device sits on (`rdma link show`; in the "
                   "test bed $RDMALAB_CM_ADDR).";
        break;
    case EADDRINUSE:
        info.cause = fmt::format("{} is already in use (another listener, or a previous run).", where);
        info.fix = "Pick another --cm-port on both sides, or stop the other listener.";
        break;
    case ECONNRESET:
    case EPIPE:
        info.cause = fmt::format("{} closed the connection in the middle of the measurement.", where);
        info.fix = "Look at the listener's output for its error.";
        break;
    default:
        break;
    }
    return info;
}

[[noreturn]] void fail_errno(const std::string& verb, int err, const std::string& where) {
    fail(socket_error(verb, err, where));
}

void check(int ret, const std::string& verb, const std::string& where) {
    if (ret != 0) fail_errno(verb, errno, where);
}

std::string kind_name(std::uint8_t kind) {
    return kind <= static_cast<std::uint8_t>(BenchKind::TcpBw) ? std::string(to_string(BenchKind(kind)))
                                                               : fmt::format("kind #{}", kind);
}

void fail_refused(const char* verb, bool ours, std::uint8_t asked, BenchKind kind, const char* what) {
    fail({.verb = verb,
          .err = EPROTO,
          .code = "rejected",
          .meaning = ours ? fmt::format("A asked for bench {}, this side serves {}", kind_name(asked),
                                        to_string(kind))
                          : fmt::format("{} is not from `rdmalab-cli bench --connect`", what),
          .cause = "The two sides were started with different KINDs, or another program connected.",
          .fix =
              "Start both sides with the same KIND (`bench KIND --listen` / `bench KIND --connect HOST`)."});
}

std::string bind_text(const RemoteBenchOptions& remote) {
    return fmt::format("{}:{}", remote.address.empty() ? "0.0.0.0" : remote.address, remote.port);
}

} // namespace bench_detail::remote

void run_remote_bench_listener(BenchKind kind, const RemoteBenchOptions& remote,
                               const std::function<void(const std::string&)>& say) {
    const bench_detail::CpuPin pin(remote.cpu, "B");
    if (is_tcp(kind))
        bench_detail::remote::tcp_listener(kind, remote, say);
    else
        bench_detail::remote::rdma_listener(kind, remote, say);
}

RemoteBenchResult run_remote_bench(const BenchOptions& options, const RemoteBenchOptions& remote, bool last) {
    if (options.completion_events)
        throw std::runtime_error("bench --connect: completion events are measured in a loopback pair only");
    const bench_detail::CpuPin pin(options.cpu_a, "A");
    // Counts A's side: this thread and the threads it starts.
    const bench_detail::SyscallScope syscalls(options.warmup);
    RemoteBenchResult out = is_tcp(options.kind)
                                ? bench_detail::remote::tcp_connector(options, remote, last)
                                : bench_detail::remote::rdma_connector(options, remote, last);
    bench_detail::finish_result(options, syscalls, false, out.result);
    return out;
}

nlohmann::json to_json(const RemoteBenchResult& result, bool with_samples) {
    nlohmann::json j = to_json(result.result, with_samples);
    j["peer"] = result.peer;
    j["mode"] = result.mode;
    return j;
}

} // namespace rdmalab
