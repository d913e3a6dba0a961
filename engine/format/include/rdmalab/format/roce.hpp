// The RoCE v2 decoder: an Ethernet frame as captured on the netdev under a SoftRoCE device (or a RoCE NIC)
// decoded into the field tree of packet_fields.hpp — Ethernet, 802.1Q, IPv4 or IPv6, UDP, the BTH and the
// extension headers its opcode carries, the payload and the ICRC, which is recomputed and compared. A
// malformed, truncated or unknown packet is decoded as far as it goes and says where and why it stopped.
// Verbs-free and Qt-free: the engine, the CLI, the app and the fuzz target share it.
#pragma once

#include "rdmalab/format/packet_fields.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace rdmalab::packet {

/// The UDP destination port of RoCE v2 (IANA; IBTA RoCE v2 Annex A17).
inline constexpr std::uint16_t kRoceV2Port = 4791;

/// A packet's Invariant CRC: what the sender stored and what the bytes give.
struct Icrc {
    std::uint32_t stored = 0;
    std::uint32_t computed = 0;
    bool ok() const { return stored == computed; }
};

/// One Ethernet frame, decoded.
struct RocePacket {
    /// Top-level nodes in wire order: Ethernet, 802.1Q tags, IPv4 or IPv6, UDP, BTH, the extension headers,
    /// the payload, the pad, the ICRC; each header's fields are its children.
    std::vector<DecodedField> headers;
    std::size_t frame_length = 0;
    std::string source;      ///< the IP source address as text
    std::string destination; ///< the IP destination address
    std::uint8_t ecn = 0;    ///< the IP header's ECN bits (RFC 3168)
    bool roce = false;       ///< a UDP datagram to port 4791 with a whole BTH
    // The BTH's essentials (when roce), for packet lists and for matching packets to work requests.
    std::uint8_t opcode = 0;
    std::uint32_t dest_qp = 0;
    std::uint32_t psn = 0;
    bool ack_request = false;
    std::optional<std::uint8_t> syndrome; ///< the AETH's, on acknowledgements and read responses
    std::optional<std::uint32_t> msn;     ///< the AETH's message sequence number
    std::size_t payload_offset = 0;       ///< the data's first byte in the frame
    std::size_t payload_length = 0;       ///< data bytes, without the pad
    std::optional<Icrc> icrc;             ///< when the packet held a whole ICRC
    /// Empty when the frame was decoded to its end; otherwise where and why decoding stopped, e.g. "at
    /// byte 54: the RETH needs 16 bytes, 6 are left".
    std::string stopped;

    /// One line for a packet list: addresses, the opcode's name, QP, PSN, the essentials of the extension
    /// headers, the payload and the ICRC's verdict.
    std::string summary() const;
};

/// Decodes an Ethernet II frame (without its FCS, as libpcap hands it over). Never throws on any input.
RocePacket decode_frame(std::span<const std::uint8_t> frame);

/// The ICRC of a RoCE v2 datagram, computed as the IBTA says (Annex A17 with Vol 1 §7.8.1): CRC-32 over
/// 8 bytes of 0xFF standing for the LRH, then the IP header with its variant fields set to ones (IPv4:
/// type of service, TTL, header checksum; IPv6: traffic class, flow label, hop limit), the UDP header with
/// its checksum set to ones, the BTH with byte 4 (FECN, BECN, reserved) set to ones, and every byte after it
/// up to the ICRC. `datagram` runs from the IP header's first byte to the byte before the ICRC; `ip_header`
/// is the IP header's length (20 with no IPv4 options, 40 for IPv6).
std::uint32_t roce_icrc(std::span<const std::uint8_t> datagram, std::size_t ip_header);

/// {"summary", "length", "roce", "opcode", "dest_qp", "psn", "ack_request", "syndrome", "msn",
///  "payload_offset", "payload_length", "icrc": {"stored", "computed", "ok"}, "stopped", "headers": [...]}
/// (keys without a value left out).
nlohmann::json to_json(const RocePacket& packet);

} // namespace rdmalab::packet
