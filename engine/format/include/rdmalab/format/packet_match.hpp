// Which work request a packet on the wire belongs to. A host's trace says, per QP, the destination QP and
// path MTU (INIT->RTR), the first send PSN (RTR->RTS) and every send work request posted, in order; the
// IBTA fixes how many PSNs each request takes (vol. 1 §9.7.1: one per packet; an RDMA Read takes one per
// response packet), so the requests' PSN ranges follow, and a packet's (QPN, PSN) names its request. An
// acknowledgement answers the request holding its PSN (and, being cumulative, every one before it).
// Verbs-free and Qt-free: the engine records what it finds; the app can redo it from a recorded trace.
#pragma once

#include "rdmalab/format/roce.hpp"
#include "rdmalab/format/trace.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rdmalab::packet {

/// What part a packet plays in a request (IBTA vol. 1 §9.2 opcodes).
enum class PacketRole {
    Request,  ///< a request packet: SEND, RDMA WRITE, RDMA READ Request, atomics, FLUSH, ATOMIC WRITE
    Response, ///< an RDMA READ response packet
    Ack,      ///< an Acknowledge or Atomic Acknowledge whose AETH says ACK
    Nak,      ///< an Acknowledge whose AETH says RNR NAK or NAK
    Other,    ///< a CNP, or an opcode with no request behind it
};
const char* role_name(PacketRole role);
/// The role of BTH opcode `opcode` (and, for acknowledgements, the AETH syndrome).
PacketRole role_of(std::uint8_t opcode, std::optional<std::uint8_t> syndrome);

/// A send work request as this host's trace shows it, with the PSNs the IBTA gives it.
struct WireRequest {
    std::uint32_t qpn = 0;
    std::uint64_t wr_id = 0;
    std::string opcode; ///< the trace's name: RDMA_WRITE, SEND_WITH_IMM, RDMA_READ, ATOMIC_CMP_AND_SWP...
    std::uint64_t length = 0;
    std::uint32_t first_psn = 0;
    std::uint32_t psns = 0;     ///< PSNs the request takes (its request packets; a Read's response packets)
    std::uint64_t post_seq = 0; ///< the ibv_post_send event's sequence number
};

/// What a packet belongs to.
struct PacketOwner {
    PacketRole role = PacketRole::Other;
    std::uint32_t qpn = 0; ///< this host's QP whose traffic the packet is
    /// The request the packet carries, answers or responds to, when it was posted on this host.
    std::optional<WireRequest> request;
    std::uint32_t index = 0; ///< request and response packets: the packet's place in the request, from 1
    std::uint32_t count = 0; ///< ... of this many
    /// A request or response PSN not ahead of the furthest one this capture saw on its QP in its direction:
    /// sent again (go-back-N after a NAK or a timeout), including packets whose first copy never reached
    /// the capture (dropped before it, e.g. by a qdisc).
    bool retransmission = false;
    bool peers = false; ///< the request was posted on the other host (this host is its responder)
};

/// Follows a host's trace and attributes its captured packets to work requests.
class PacketMatcher {
  public:
    /// Takes what it needs from one trace event of this host: QP transitions (kind qp_state: dest_qp_num,
    /// path_mtu, sq_psn) and posted send work requests (kind post_wr on the send queue, ret 0), in order.
    void observe(const TraceEvent& event);
    /// The owner of `packet`, which this host sent (`outgoing`) or received; nothing when the packet is
    /// not RoCE or none of this host's QPs is on either end of it. Call in capture order (retransmissions
    /// are recognised by PSNs that do not move forward).
    std::optional<PacketOwner> attribute(const RocePacket& packet, bool outgoing);

    /// The requests seen, in post order.
    std::vector<WireRequest> requests() const;

  private:
    struct Qp {
        std::uint32_t dest_qpn = 0;
        std::uint32_t mtu = 0;
        std::optional<std::uint32_t> next_psn;
        std::vector<WireRequest> requests;
        /// The furthest PSN of request and response packets, by (role is Request, outgoing).
        std::map<std::pair<bool, bool>, std::uint32_t> furthest;
    };
    const WireRequest* request_at(const Qp& qp, std::uint32_t psn) const;

    std::map<std::uint32_t, Qp> qps_; ///< by this host's QPN
};

/// The PSNs a request of `opcode` (the trace's name) and `length` bytes takes at path MTU `mtu`; 0 for one
/// that sends nothing (LOCAL_INV, BIND_MW).
std::uint32_t psns_of(const std::string& opcode, std::uint64_t length, std::uint32_t mtu);

/// "WR 7 · ibv_post_send RDMA_WRITE 8192 B · packet 3 of 8" (the pcapng comment and the CLI's heading).
std::string owner_text(const PacketOwner& owner);

/// {"role", "qpn", "index", "count", "retransmission", "peers", "wr_id", "opcode", "length", "first_psn",
///  "psns"} (the request's keys only when there is one).
nlohmann::json to_json(const PacketOwner& owner);

} // namespace rdmalab::packet
