// The decoded-packet vocabulary: headers described as tables of fields (Wireshark's shape: a filter
// abbreviation, a name, where the field is and which bits), and the tree a decoded packet becomes — what a
// packet list, a details tree and a bytes pane show, and what a `packet` trace event will carry. A new
// header is one table; decoding is one function for every table. Verbs-free and Qt-free.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rdmalab::packet {

/// How a field's value is written. `mac`, `ipv4` and `ipv6` are addresses, written from their bytes (an
/// IPv6 address, 16 bytes, has no numeric value: `value` stays 0).
enum class Base { dec, hex, flag, mac, ipv4, ipv6 };

/// One field of a header: a row of a dissector table.
struct FieldSpec {
    std::string_view
        abbrev;            ///< display-filter name, e.g. "infiniband.bth.psn" (Wireshark's, where it has one)
    std::string_view name; ///< "Packet Sequence Number"
    std::size_t offset = 0; ///< first byte, counted from the header's start
    std::size_t length = 1; ///< bytes read, 1 to 8, in network byte order (16 for an IPv6 address)
    std::uint64_t mask = 0; ///< the field's bits within those bytes (0: all); the value is shifted to bit 0
    Base base = Base::dec;
    /// The meaning of a value ("RC RDMA WRITE First" for opcode 6), or empty; may be null.
    std::string (*meaning)(std::uint64_t value) = nullptr;
};

/// A header: a fixed-length run of fields.
struct HeaderSpec {
    std::string_view abbrev; ///< "infiniband.bth"
    std::string_view name;   ///< "Base Transport Header"
    std::size_t length = 0;  ///< bytes
    std::span<const FieldSpec> fields;
};

/// A node of the packet details tree: a header (with its fields as children) or one field.
struct DecodedField {
    std::string abbrev;
    std::string name;
    std::size_t offset = 0; ///< first byte in the packet (for the bytes pane)
    std::size_t length = 0; ///< bytes
    std::uint64_t mask = 0; ///< 0: every bit of those bytes
    std::uint64_t value = 0;
    std::string text; ///< as the details tree shows it: "Packet Sequence Number: 5"
    std::vector<DecodedField> children;

    /// This node or the first node below it (depth first) with that abbreviation; nullptr if none.
    const DecodedField* find(std::string_view wanted) const;
};

/// Decodes header `spec` starting at byte `offset` of `packet`. Nothing (and `error` says why) when the
/// packet ends before the header does.
std::optional<DecodedField> decode_header(const HeaderSpec& spec, std::span<const std::uint8_t> packet,
                                          std::size_t offset, std::string& error);

/// {"abbrev", "name", "offset", "length", "mask" (when not 0), "value", "text", "children" (when any)}.
nlohmann::json to_json(const DecodedField& field);

/// The InfiniBand transport headers as RoCE v2 carries them after the UDP header (IBTA Vol 1 §9.2–9.3):
/// BTH (12 bytes), RETH (16), AETH (4), DETH (8), ImmDt (4).
const HeaderSpec& bth();
const HeaderSpec& reth();
const HeaderSpec& aeth();
const HeaderSpec& deth();
const HeaderSpec& immdt();
/// IETH (4: the R_Key a SEND with Invalidate invalidates), AtomicETH (28), AtomicAckETH (8), FETH (4:
/// FLUSH, IBTA 1.5) and the 16 reserved bytes after a CNP's BTH (RoCE v2 Annex A17).
const HeaderSpec& ieth();
const HeaderSpec& atomiceth();
const HeaderSpec& atomicacketh();
const HeaderSpec& feth();
const HeaderSpec& cnp();
/// Every InfiniBand header table above.
std::span<const HeaderSpec* const> transport_headers();

/// The headers under RoCE v2: Ethernet II (14), 802.1Q (4), IPv4 (20, without options), IPv6 (40), UDP (8).
const HeaderSpec& ethernet();
const HeaderSpec& vlan();
const HeaderSpec& ipv4();
const HeaderSpec& ipv6();
const HeaderSpec& udp();
/// Every table of the network headers.
std::span<const HeaderSpec* const> network_headers();

/// "RC RDMA WRITE First" for 0x06, "UD SEND Only" for 0x64, "CNP" for 0x81 (IBTA Vol 1 Table 38; RoCE v2
/// Annex A17 for the CNP); "reserved opcode 0x15" for one the tables leave unassigned.
std::string opcode_name(std::uint8_t opcode);
/// What an AETH syndrome says: "ACK (credit count code 3)", "RNR NAK (timer code 14: 1.28 ms)", "NAK: remote
/// access error", "reserved"...
std::string aeth_syndrome_meaning(std::uint8_t syndrome);
/// The wait an RNR NAK's 5-bit timer code asks for, in milliseconds (IBTA Vol 1 Table 45; the
/// min_rnr_timer table of ibv_modify_qp(3)): code 1 = 0.01 ms ... 31 = 491.52 ms, code 0 = 655.36 ms.
double rnr_timer_ms(std::uint8_t code);

} // namespace rdmalab::packet
