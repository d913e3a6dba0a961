// Two-host measurements, internal (see rdmalab/engine/bench_remote.hpp): what the rdma_cm and the TCP halves
// share. A measures with the loops of bench/loops.cpp, as the loopback measurement; B's half runs in
// the listener.
//
// Wire protocol, one connection per measurement (per size of a sweep):
//   RDMA: A's connect request carries BenchRequest (kind, size, window, last, A's buffer address and
//         rkey); B's accept carries BenchReply (B's buffer address, rkey, length). A rejected request
//         carries a BenchReply with a status. A ends a run that needs B's CPU (write_lat, send_lat,
//         send_bw) with a stop marker (write_lat: last byte kStopTag; send kinds: a SEND with immediate
//         data kStopImm), then disconnects; B waits for the disconnect in every kind.
//   TCP:  A sends TcpHeader, B answers a BenchReply with a status. tcp_lat: B echoes until EOF. tcp_bw: B
//   sends
//         8 bytes (its byte count) once the warm-up has arrived and again at EOF; A's clock stops on
//         the second.
#pragma once

#include "rdmalab/engine/bench_remote.hpp"
#include "rdmalab/engine/errors.hpp"

#include <cstdint>
#include <functional>
#include <string>

namespace rdmalab::bench_detail::remote {

constexpr std::uint32_t kMagic = 0x5244424e; // "RDBN"
constexpr std::uint8_t kWireVersion = 1;
constexpr std::uint32_t kStopImm = 0x53544f50; // send kinds: immediate data of A's final SEND ("STOP")
constexpr std::uint32_t kStatusOk = 0, kStatusWrongKind = 1, kStatusBadRequest = 2;

// B -> A in the accept (or the reject) and the TCP status, big-endian.
struct BenchReply {
    std::uint32_t magic;
    std::uint32_t status;
    std::uint64_t addr;
    std::uint32_t rkey;
    std::uint32_t length;
    std::uint8_t kind; // what B serves
    std::uint8_t pad[7];
};

/// How to start the listener, for the fix of a failed connection.
extern const char* const kListenFix;

[[noreturn]] void fail(ErrorInfo info);
/// Nothing came within `timeout_ms` while waiting for `what`.
ErrorInfo timeout_error(const std::string& verb, int timeout_ms, const std::string& what);
/// A failed socket or rdma_cm call, with causes for the errors a two-host run meets.
ErrorInfo socket_error(const std::string& verb, int err, const std::string& where);
[[noreturn]] void fail_errno(const std::string& verb, int err, const std::string& where);
/// Throws socket_error(verb, errno, where) unless `ret` is 0.
void check(int ret, const std::string& verb, const std::string& where);
/// "write_lat", or "kind #N" for a number this version does not know.
std::string kind_name(std::uint8_t kind);
/// B refuses a connection: A asked for another kind (`ours`), or it is not from rdmalab's `bench
/// --connect`; `verb` is B's call ("accept", "rdma_accept"), `what` the connection ("the connection").
[[noreturn]] void fail_refused(const char* verb, bool ours, std::uint8_t asked, BenchKind kind,
                               const char* what);
/// "0.0.0.0:7471": what a listener binds.
std::string bind_text(const RemoteBenchOptions& remote);

using Say = std::function<void(const std::string&)>;

/// A over rdma_cm (RDMA kinds) or TCP (tcp_lat, tcp_bw): one size, one connection.
RemoteBenchResult rdma_connector(const BenchOptions& o, const RemoteBenchOptions& remote, bool last);
RemoteBenchResult tcp_connector(const BenchOptions& o, const RemoteBenchOptions& remote, bool last);
/// B: serves connections for `kind` until A's last one.
void rdma_listener(BenchKind kind, const RemoteBenchOptions& remote, const Say& say);
void tcp_listener(BenchKind kind, const RemoteBenchOptions& remote, const Say& say);

} // namespace rdmalab::bench_detail::remote
