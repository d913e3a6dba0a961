// The link between the two hosts of a two-host lab (`hosts: 2`, docs/lab-format.md "Two-host labs"): one
// TCP connection over the wire's own network, on which each host tells the other what its steps did (the
// values they created, B's QP number and rkey among them, and their verdicts), so that both walk the lab's
// steps in one order. The RDMA traffic itself goes between the two RDMA devices, never over this link.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <string>

namespace rdmalab::labs {

/// Default TCP port of `lab run --listen` / `--connect` (rdma_cm's `op` uses 7471).
inline constexpr std::uint16_t kDefaultLabPort = 7473;

/// One connected link. Every failure throws std::runtime_error whose text names the call, the errno's
/// meaning, the peer and the fix.
class PeerLink {
  public:
    /// B's side: listens on `address` (numeric; empty: every address) and `port`, accepts one connection
    /// within `timeout_ms`.
    static std::unique_ptr<PeerLink> listen(const std::string& address, std::uint16_t port, int timeout_ms);
    /// A's side: connects to `host`:`port`, trying again while nobody listens yet, for up to `timeout_ms`.
    static std::unique_ptr<PeerLink> connect(const std::string& host, std::uint16_t port, int timeout_ms);
    ~PeerLink();
    PeerLink(const PeerLink&) = delete;
    PeerLink& operator=(const PeerLink&) = delete;

    /// Sends one message.
    void send(const nlohmann::json& message);
    /// Waits up to `timeout_ms` for the next message.
    nlohmann::json receive(int timeout_ms);
    /// This host's address on the link ("192.0.2.2"): the lab opens the RDMA device that holds it.
    const std::string& local_address() const { return local_; }
    /// The other host's address ("192.0.2.1").
    const std::string& peer_address() const { return peer_; }

  private:
    PeerLink(int fd, std::string local, std::string peer);
    int fd_ = -1;
    std::string local_, peer_;
};

} // namespace rdmalab::labs
