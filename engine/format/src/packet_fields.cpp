#include "rdmalab/format/packet_fields.hpp"

#include <fmt/format.h>

#include <array>
#include <bit>

namespace rdmalab::packet {

namespace {

std::string opcode_meaning(std::uint64_t value) {
    return opcode_name(static_cast<std::uint8_t>(value));
}

std::string syndrome_meaning(std::uint64_t value) {
    return aeth_syndrome_meaning(static_cast<std::uint8_t>(value));
}

std::string ethertype_meaning(std::uint64_t value) {
    switch (value) {
    case 0x0800:
        return "IPv4";
    case 0x86dd:
        return "IPv6";
    case 0x8100:
        return "802.1Q Virtual LAN";
    case 0x8915:
        return "RoCE v1";
    default:
        return {};
    }
}

std::string ecn_meaning(std::uint64_t value) {
    // RFC 3168 §5: the two ECN bits. DCQCN switches mark CE; the receiver answers with a CNP.
    static constexpr std::array<std::string_view, 4> kCodepoints{"Not-ECT", "ECT(1)", "ECT(0)", "CE"};
    return std::string(kCodepoints[value & 3]);
}

std::string ipv4_header_length_meaning(std::uint64_t value) {
    return fmt::format("{} bytes", 4 * value);
}

std::string ip_protocol_meaning(std::uint64_t value) {
    return value == 17 ? "UDP" : std::string{};
}

std::string udp_port_meaning(std::uint64_t value) {
    return value == 4791 ? "RoCE v2" : std::string{}; // IANA, RoCE v2 Annex A17
}

// IBTA Vol 1 §9.2 (BTH). Byte 4 holds FECN, BECN and six reserved bits: Wireshark shows the byte as
// infiniband.bth.reserved8; rdmalab names the two congestion bits, which RoCE v2 uses (Annex A17).
constexpr std::array kBthFields{
    FieldSpec{"infiniband.bth.opcode", "Opcode", 0, 1, 0, Base::hex, opcode_meaning},
    FieldSpec{"infiniband.bth.se", "Solicited Event", 1, 1, 0x80, Base::flag},
    FieldSpec{"infiniband.bth.m", "MigReq", 1, 1, 0x40, Base::flag},
    FieldSpec{"infiniband.bth.padcnt", "Pad Count", 1, 1, 0x30, Base::dec},
    FieldSpec{"infiniband.bth.tver", "Header Version", 1, 1, 0x0f, Base::dec},
    FieldSpec{"infiniband.bth.p_key", "Partition Key", 2, 2, 0, Base::hex},
    FieldSpec{"infiniband.bth.fecn", "FECN", 4, 1, 0x80, Base::flag},
    FieldSpec{"infiniband.bth.becn", "BECN", 4, 1, 0x40, Base::flag},
    FieldSpec{"infiniband.bth.destqp", "Destination Queue Pair", 5, 3, 0, Base::hex},
    FieldSpec{"infiniband.bth.a", "Acknowledge Request", 8, 1, 0x80, Base::flag},
    FieldSpec{"infiniband.bth.psn", "Packet Sequence Number", 9, 3, 0, Base::dec},
};
// §9.3.3 (RETH): the remote buffer of an RDMA WRITE First/Only and an RDMA READ Request.
constexpr std::array kRethFields{
    FieldSpec{"infiniband.reth.va", "Virtual Address", 0, 8, 0, Base::hex},
    FieldSpec{"infiniband.reth.r_key", "Remote Key", 8, 4, 0, Base::hex},
    FieldSpec{"infiniband.reth.dmalen", "DMA Length", 12, 4, 0, Base::dec},
};
// §9.3.5 (AETH): what an acknowledgement says, and the message sequence number it acknowledges.
constexpr std::array kAethFields{
    FieldSpec{"infiniband.aeth.syndrome", "Syndrome", 0, 1, 0, Base::hex, syndrome_meaning},
    FieldSpec{"infiniband.aeth.msn", "Message Sequence Number", 1, 3, 0, Base::dec},
};
// §9.3.2 (DETH): a UD datagram's Q_Key and the QP that sent it.
constexpr std::array kDethFields{
    FieldSpec{"infiniband.deth.q_key", "Queue Key", 0, 4, 0, Base::hex},
    FieldSpec{"infiniband.deth.srcqp", "Source Queue Pair", 5, 3, 0, Base::hex},
};
// §9.3.6 (ImmDt): the 32 bits of immediate data a WITH IMMEDIATE operation carries (Wireshark shows the
// header as infiniband.immdt; the value's name is rdmalab's).
constexpr std::array kImmDtFields{
    FieldSpec{"infiniband.immdt.imm", "Immediate Data", 0, 4, 0, Base::hex},
};

// §9.3.4 (IETH): the R_Key a SEND with Invalidate asks the responder to invalidate (Wireshark shows the
// header as infiniband.ieth, "RKey").
constexpr std::array kIethFields{
    FieldSpec{"infiniband.ieth.r_key", "Remote Key to invalidate", 0, 4, 0, Base::hex},
};
// §9.3.3.2 (AtomicETH): the remote 8-byte word of a CmpSwap or FetchAdd, its R_Key, the swap (or add) and
// the compare operands. Wireshark names the two operands; the address and key names are rdmalab's.
constexpr std::array kAtomicEthFields{
    FieldSpec{"infiniband.atomiceth.va", "Virtual Address", 0, 8, 0, Base::hex},
    FieldSpec{"infiniband.atomiceth.r_key", "Remote Key", 8, 4, 0, Base::hex},
    FieldSpec{"infiniband.atomiceth.swapdt", "Swap (Or Add) Data", 12, 8, 0, Base::hex},
    FieldSpec{"infiniband.atomiceth.cmpdt", "Compare Data", 20, 8, 0, Base::hex},
};
// §9.3.5.3 (AtomicAckETH): the value the remote word held before the atomic operation.
constexpr std::array kAtomicAckEthFields{
    FieldSpec{"infiniband.atomicacketh.origremdt", "Original Remote Data", 0, 8, 0, Base::hex},
};
// IBTA 1.5 (FLUSH, §9.3.x FETH; Linux rxe_hdr.h FETH_PLT_MASK 0x30, FETH_SEL_MASK 0x0f in the last byte):
// how far a FLUSH makes the data persistent (placement type) and which memory it covers (selectivity).
constexpr std::array kFethFields{
    FieldSpec{"infiniband.feth.plt", "Placement Type", 3, 1, 0x30, Base::dec},
    FieldSpec{"infiniband.feth.sel", "Selectivity Level", 3, 1, 0x0f, Base::dec},
};
// RoCE v2 Annex A17 (CNP, opcode 0x81): 16 reserved bytes follow the BTH.
constexpr std::array kCnpFields{
    FieldSpec{"infiniband.cnp.reserved1", "Reserved (bytes 0-7)", 0, 8, 0, Base::hex},
    FieldSpec{"infiniband.cnp.reserved2", "Reserved (bytes 8-15)", 8, 8, 0, Base::hex},
};

// The network headers a RoCE v2 packet travels in (IEEE 802.3 and 802.1Q, RFC 791 and 3168 for IPv4 with
// DSCP and ECN, RFC 8200 for IPv6, RFC 768 for UDP); Wireshark's abbreviations.
constexpr std::array kEthernetFields{
    FieldSpec{"eth.dst", "Destination", 0, 6, 0, Base::mac},
    FieldSpec{"eth.src", "Source", 6, 6, 0, Base::mac},
    FieldSpec{"eth.type", "Type", 12, 2, 0, Base::hex, ethertype_meaning},
};
constexpr std::array kVlanFields{
    FieldSpec{"vlan.priority", "Priority", 0, 2, 0xe000, Base::dec},
    FieldSpec{"vlan.dei", "DEI", 0, 2, 0x1000, Base::flag},
    FieldSpec{"vlan.id", "ID", 0, 2, 0x0fff, Base::dec},
    FieldSpec{"vlan.etype", "Type", 2, 2, 0, Base::hex, ethertype_meaning},
};
constexpr std::array kIpv4Fields{
    FieldSpec{"ip.version", "Version", 0, 1, 0xf0, Base::dec},
    FieldSpec{"ip.hdr_len", "Header Length (32-bit words)", 0, 1, 0x0f, Base::dec,
              ipv4_header_length_meaning},
    FieldSpec{"ip.dsfield.dscp", "Differentiated Services Codepoint", 1, 1, 0xfc, Base::dec},
    FieldSpec{"ip.dsfield.ecn", "Explicit Congestion Notification", 1, 1, 0x03, Base::dec, ecn_meaning},
    FieldSpec{"ip.len", "Total Length", 2, 2, 0, Base::dec},
    FieldSpec{"ip.id", "Identification", 4, 2, 0, Base::hex},
    FieldSpec{"ip.flags.df", "Don't fragment", 6, 1, 0x40, Base::flag},
    FieldSpec{"ip.flags.mf", "More fragments", 6, 1, 0x20, Base::flag},
    FieldSpec{"ip.frag_offset", "Fragment Offset", 6, 2, 0x1fff, Base::dec},
    FieldSpec{"ip.ttl", "Time to Live", 8, 1, 0, Base::dec},
    FieldSpec{"ip.proto", "Protocol", 9, 1, 0, Base::dec, ip_protocol_meaning},
    FieldSpec{"ip.checksum", "Header Checksum", 10, 2, 0, Base::hex},
    FieldSpec{"ip.src", "Source Address", 12, 4, 0, Base::ipv4},
    FieldSpec{"ip.dst", "Destination Address", 16, 4, 0, Base::ipv4},
};
constexpr std::array kIpv6Fields{
    FieldSpec{"ipv6.version", "Version", 0, 1, 0xf0, Base::dec},
    FieldSpec{"ipv6.tclass.dscp", "Differentiated Services Codepoint", 0, 2, 0x0fc0, Base::dec},
    FieldSpec{"ipv6.tclass.ecn", "Explicit Congestion Notification", 0, 2, 0x0030, Base::dec, ecn_meaning},
    FieldSpec{"ipv6.flow", "Flow Label", 1, 3, 0x0fffff, Base::hex},
    FieldSpec{"ipv6.plen", "Payload Length", 4, 2, 0, Base::dec},
    FieldSpec{"ipv6.nxt", "Next Header", 6, 1, 0, Base::dec, ip_protocol_meaning},
    FieldSpec{"ipv6.hlim", "Hop Limit", 7, 1, 0, Base::dec},
    FieldSpec{"ipv6.src", "Source Address", 8, 16, 0, Base::ipv6},
    FieldSpec{"ipv6.dst", "Destination Address", 24, 16, 0, Base::ipv6},
};
constexpr std::array kUdpFields{
    FieldSpec{"udp.srcport", "Source Port", 0, 2, 0, Base::dec},
    FieldSpec{"udp.dstport", "Destination Port", 2, 2, 0, Base::dec, udp_port_meaning},
    FieldSpec{"udp.length", "Length", 4, 2, 0, Base::dec},
    FieldSpec{"udp.checksum", "Checksum", 6, 2, 0, Base::hex},
};

const HeaderSpec kBth{"infiniband.bth", "Base Transport Header", 12, kBthFields};
const HeaderSpec kReth{"infiniband.reth", "RDMA Extended Transport Header", 16, kRethFields};
const HeaderSpec kAeth{"infiniband.aeth", "ACK Extended Transport Header", 4, kAethFields};
const HeaderSpec kDeth{"infiniband.deth", "Datagram Extended Transport Header", 8, kDethFields};
const HeaderSpec kImmDt{"infiniband.immdt", "Immediate Data", 4, kImmDtFields};
const HeaderSpec kIeth{"infiniband.ieth", "Invalidate Extended Transport Header", 4, kIethFields};
const HeaderSpec kAtomicEth{"infiniband.atomiceth", "Atomic Extended Transport Header", 28, kAtomicEthFields};
const HeaderSpec kAtomicAckEth{"infiniband.atomicacketh", "Atomic ACK Extended Transport Header", 8,
                               kAtomicAckEthFields};
const HeaderSpec kFeth{"infiniband.feth", "FLUSH Extended Transport Header", 4, kFethFields};
const HeaderSpec kCnp{"infiniband.cnp", "CNP reserved bytes", 16, kCnpFields};
constexpr std::array<const HeaderSpec*, 10> kTransportHeaders{
    &kBth, &kReth, &kAeth, &kDeth, &kImmDt, &kIeth, &kAtomicEth, &kAtomicAckEth, &kFeth, &kCnp};
const HeaderSpec kEthernet{"eth", "Ethernet II", 14, kEthernetFields};
const HeaderSpec kVlan{"vlan", "802.1Q Virtual LAN", 4, kVlanFields};
const HeaderSpec kIpv4{"ip", "Internet Protocol Version 4", 20, kIpv4Fields};
const HeaderSpec kIpv6{"ipv6", "Internet Protocol Version 6", 40, kIpv6Fields};
const HeaderSpec kUdp{"udp", "User Datagram Protocol", 8, kUdpFields};
constexpr std::array<const HeaderSpec*, 5> kNetworkHeaders{&kEthernet, &kVlan, &kIpv4, &kIpv6, &kUdp};

std::string address_text(Base base, std::span<const std::uint8_t> bytes) {
    std::string text;
    switch (base) {
    case Base::mac:
        for (std::size_t i = 0; i < bytes.size(); ++i)
            text += fmt::format("{}{:02x}", i == 0 ? "" : ":", bytes[i]);
        break;
    case Base::ipv4:
        for (std::size_t i = 0; i < bytes.size(); ++i)
            text += fmt::format("{}{}", i == 0 ? "" : ".", bytes[i]);
        break;
    case Base::ipv6: {
        // RFC 5952: lower case, leading zeros dropped, the longest run of two or more zero groups as "::".
        std::array<unsigned, 8> groups{};
        for (std::size_t g = 0; g < 8 && 2 * g + 1 < bytes.size(); ++g)
            groups[g] = (unsigned{bytes[2 * g]} << 8) | bytes[2 * g + 1];
        std::size_t best = 8, best_length = 1;
        for (std::size_t g = 0; g < 8;) {
            std::size_t end = g;
            while (end < 8 && groups[end] == 0)
                ++end;
            if (end - g > best_length) best = g, best_length = end - g;
            g = end == g ? g + 1 : end;
        }
        for (std::size_t g = 0; g < 8; ++g) {
            if (g == best) {
                text += "::";
                g += best_length - 1;
                continue;
            }
            if (!text.empty() && !text.ends_with(':')) text += ':';
            text += fmt::format("{:x}", groups[g]);
        }
        break;
    }
    default:
        break;
    }
    return text;
}

std::string value_text(const FieldSpec& spec, std::uint64_t value, std::span<const std::uint8_t> bytes) {
    std::string text;
    switch (spec.base) {
    case Base::mac:
    case Base::ipv4:
    case Base::ipv6:
        text = address_text(spec.base, bytes);
        break;
    case Base::flag:
        text = value != 0 ? "1" : "0";
        break;
    case Base::hex:
        text = fmt::format("0x{:0{}x}", value,
                           spec.mask != 0 ? (std::bit_width(spec.mask >> std::countr_zero(spec.mask)) + 3) / 4
                                          : static_cast<int>(spec.length * 2));
        break;
    case Base::dec:
        text = std::to_string(value);
        break;
    }
    if (spec.meaning) {
        const std::string meaning = spec.meaning(value);
        if (!meaning.empty()) text += " (" + meaning + ")";
    }
    return text;
}

} // namespace

const DecodedField* DecodedField::find(std::string_view wanted) const {
    if (abbrev == wanted) return this;
    for (const auto& child : children)
        if (const auto* found = child.find(wanted)) return found;
    return nullptr;
}

std::optional<DecodedField> decode_header(const HeaderSpec& spec, std::span<const std::uint8_t> packet,
                                          std::size_t offset, std::string& error) {
    if (offset > packet.size() || packet.size() - offset < spec.length) {
        error = fmt::format("{} needs {} bytes at offset {}, but the packet has {} bytes", spec.name,
                            spec.length, offset, packet.size());
        return std::nullopt;
    }
    DecodedField header{.abbrev = std::string(spec.abbrev),
                        .name = std::string(spec.name),
                        .offset = offset,
                        .length = spec.length,
                        .text = fmt::format("{}, {} bytes", spec.name, spec.length),
                        .children = {}};
    for (const auto& f : spec.fields) {
        const auto bytes = packet.subspan(offset + f.offset, f.length);
        std::uint64_t raw = 0;
        if (f.length <= 8) // an IPv6 address has no numeric value
            for (const std::uint8_t byte : bytes)
                raw = (raw << 8) | byte;
        const std::uint64_t value = f.mask != 0 ? (raw & f.mask) >> std::countr_zero(f.mask) : raw;
        header.children.push_back({.abbrev = std::string(f.abbrev),
                                   .name = std::string(f.name),
                                   .offset = offset + f.offset,
                                   .length = f.length,
                                   .mask = f.mask,
                                   .value = value,
                                   .text = fmt::format("{}: {}", f.name, value_text(f, value, bytes)),
                                   .children = {}});
    }
    return header;
}

nlohmann::json to_json(const DecodedField& field) {
    nlohmann::json out = {{"abbrev", field.abbrev}, {"name", field.name},   {"offset", field.offset},
                          {"length", field.length}, {"value", field.value}, {"text", field.text}};
    if (field.mask != 0) out["mask"] = field.mask;
    if (!field.children.empty()) {
        auto& children = out["children"] = nlohmann::json::array();
        for (const auto& child : field.children)
            children.push_back(to_json(child));
    }
    return out;
}

const HeaderSpec& bth() {
    return kBth;
}
const HeaderSpec& reth() {
    return kReth;
}
const HeaderSpec& aeth() {
    return kAeth;
}
const HeaderSpec& deth() {
    return kDeth;
}
const HeaderSpec& immdt() {
    return kImmDt;
}
const HeaderSpec& ieth() {
    return kIeth;
}
const HeaderSpec& atomiceth() {
    return kAtomicEth;
}
const HeaderSpec& atomicacketh() {
    return kAtomicAckEth;
}
const HeaderSpec& feth() {
    return kFeth;
}
const HeaderSpec& cnp() {
    return kCnp;
}
std::span<const HeaderSpec* const> transport_headers() {
    return kTransportHeaders;
}
const HeaderSpec& ethernet() {
    return kEthernet;
}
const HeaderSpec& vlan() {
    return kVlan;
}
const HeaderSpec& ipv4() {
    return kIpv4;
}
const HeaderSpec& ipv6() {
    return kIpv6;
}
const HeaderSpec& udp() {
    return kUdp;
}
std::span<const HeaderSpec* const> network_headers() {
    return kNetworkHeaders;
}

std::string opcode_name(std::uint8_t opcode) {
    // IBTA Vol 1 Table 38: bits 7-5 the transport, bits 4-0 the operation (Linux: include/rdma/ib_pack.h).
    static constexpr std::array<std::string_view, 32> kOperations{"SEND First",
                                                                  "SEND Middle",
                                                                  "SEND Last",
                                                                  "SEND Last with Immediate",
                                                                  "SEND Only",
                                                                  "SEND Only with Immediate",
                                                                  "RDMA WRITE First",
                                                                  "RDMA WRITE Middle",
                                                                  "RDMA WRITE Last",
                                                                  "RDMA WRITE Last with Immediate",
                                                                  "RDMA WRITE Only",
                                                                  "RDMA WRITE Only with Immediate",
                                                                  "RDMA READ Request",
                                                                  "RDMA READ Response First",
                                                                  "RDMA READ Response Middle",
                                                                  "RDMA READ Response Last",
                                                                  "RDMA READ Response Only",
                                                                  "Acknowledge",
                                                                  "ATOMIC Acknowledge",
                                                                  "CmpSwap",
                                                                  "FetchAdd",
                                                                  "", // 0x15: RESYNC on RD, reserved on RC
                                                                  "SEND Last with Invalidate",
                                                                  "SEND Only with Invalidate",
                                                                  "",
                                                                  "",
                                                                  "",
                                                                  "",
                                                                  "FLUSH",
                                                                  "ATOMIC WRITE",
                                                                  "",
                                                                  ""};
    if (opcode == 0x81) return "CNP"; // RoCE v2 Congestion Notification Packet (Annex A17)
    const unsigned transport = opcode >> 5;
    const unsigned operation = opcode & 0x1f;
    auto named = [&](std::string_view prefix, bool allowed) -> std::string {
        if (!allowed || kOperations[operation].empty())
            return fmt::format("reserved opcode 0x{:02x}", opcode);
        return fmt::format("{} {}", prefix, kOperations[operation]);
    };
    switch (transport) {
    case 0: // RC: every operation
        return named("RC", true);
    case 1: // UC: sends and writes
        return named("UC", operation <= 0x0b);
    case 2: // RD
        if (operation == 0x15) return "RD RESYNC";
        return named("RD", operation <= 0x14 || operation == 0x1c);
    case 3: // UD: SEND Only and SEND Only with Immediate
        return named("UD", operation == 0x04 || operation == 0x05);
    default:
        return fmt::format("reserved opcode 0x{:02x}", opcode);
    }
}

std::string aeth_syndrome_meaning(std::uint8_t syndrome) {
    // IBTA Vol 1 §9.7.5.1: bits 7-5 the kind (Linux rxe_hdr.h: AETH_TYPE_MASK 0xe0), bits 4-0 its value.
    // The credit count and the RNR timer are codes into tables of the specification, not counts or times.
    const unsigned value = syndrome & 0x1f;
    switch (syndrome & 0xe0) {
    case 0x00:
        return value == 0x1f ? "ACK (no credit count)" : fmt::format("ACK (credit count code {})", value);
    case 0x20:
        return fmt::format("RNR NAK (timer code {}: {} ms)", value,
                           rnr_timer_ms(static_cast<std::uint8_t>(value)));
    case 0x60: {
        static constexpr std::array<std::string_view, 5> kNaks{
            "PSN sequence error", "invalid request", "remote access error", "remote operational error",
            "invalid RD request"};
        if (value < kNaks.size()) return fmt::format("NAK: {}", kNaks[value]);
        return fmt::format("NAK: reserved code {}", value);
    }
    default:
        return "reserved";
    }
}

double rnr_timer_ms(std::uint8_t code) {
    // IBTA Vol 1 Table 45 (the RNR NAK timer field), as ibv_modify_qp(3) lists it for min_rnr_timer.
    static constexpr std::array<double, 32> kMs{655.36, 0.01,  0.02,  0.03,   0.04,   0.06,   0.08,   0.12,
                                                0.16,   0.24,  0.32,  0.48,   0.64,   0.96,   1.28,   1.92,
                                                2.56,   3.84,  5.12,  7.68,   10.24,  15.36,  20.48,  30.72,
                                                40.96,  61.44, 81.92, 122.88, 163.84, 245.76, 327.68, 491.52};
    return kMs[code & 0x1f];
}

} // namespace rdmalab::packet
