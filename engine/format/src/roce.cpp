// The RoCE v2 decoder (roce.hpp): frame → network headers → BTH → the opcode's extension headers → payload
// → ICRC, every header through its table in packet_fields.cpp.
#include "rdmalab/format/roce.hpp"

#include <fmt/format.h>

#include <array>

namespace rdmalab::packet {

namespace {

constexpr std::uint16_t kEtherIpv4 = 0x0800;
constexpr std::uint16_t kEtherIpv6 = 0x86dd;
constexpr std::uint16_t kEtherVlan = 0x8100;
constexpr std::uint16_t kEtherQinQ = 0x88a8;
constexpr std::uint16_t kEtherRoceV1 = 0x8915;
constexpr std::uint8_t kIpProtocolUdp = 17;
constexpr std::size_t kIcrcBytes = 4;
constexpr std::uint8_t kOpcodeCnp = 0x81;

std::uint64_t value_of(const DecodedField& header, std::string_view abbrev) {
    const DecodedField* field = header.find(abbrev);
    return field != nullptr ? field->value : 0;
}

std::string text_of(const DecodedField& header, std::string_view abbrev) {
    const DecodedField* field = header.find(abbrev);
    if (field == nullptr) return {};
    const auto colon = field->text.find(": ");
    return colon == std::string::npos ? field->text : field->text.substr(colon + 2);
}

/// The extension headers after the BTH, in order, for an opcode (IBTA Vol 1 §9.2–9.3 and Table 38; FLUSH
/// and ATOMIC WRITE from IBTA 1.5 as Linux rxe_opcode.c lays them out). Nothing, with `why` set, for an
/// opcode whose layout is not known here.
std::optional<std::vector<const HeaderSpec*>> extension_headers(std::uint8_t opcode, std::string& why) {
    using List = std::vector<const HeaderSpec*>;
    if (opcode == kOpcodeCnp) return List{&cnp()};
    const unsigned transport = opcode >> 5;
    const unsigned operation = opcode & 0x1f;
    if (opcode_name(opcode).starts_with("reserved")) {
        why = fmt::format("opcode 0x{:02x} is reserved or vendor-specific: its headers are unknown", opcode);
        return std::nullopt;
    }
    if (transport == 2) {
        why = "RD (Reliable Datagram) packets are not decoded past the BTH";
        return std::nullopt;
    }
    if (transport == 3) // UD: SEND Only (DETH), SEND Only with Immediate (DETH, ImmDt)
        return operation == 0x05 ? List{&deth(), &immdt()} : List{&deth()};
    switch (operation) { // RC, and UC for the operations it has (0x00-0x0b)
    case 0x03:           // SEND Last with Immediate
    case 0x05:           // SEND Only with Immediate
    case 0x09:           // RDMA WRITE Last with Immediate
        return List{&immdt()};
    case 0x06: // RDMA WRITE First
    case 0x0a: // RDMA WRITE Only
    case 0x0c: // RDMA READ Request
    case 0x1d: // ATOMIC WRITE: RETH, then the 8 bytes to write as payload
        return List{&reth()};
    case 0x0b: // RDMA WRITE Only with Immediate
        return List{&reth(), &immdt()};
    case 0x0d: // RDMA READ Response First
    case 0x0f: // RDMA READ Response Last
    case 0x10: // RDMA READ Response Only
    case 0x11: // Acknowledge
        return List{&aeth()};
    case 0x12: // ATOMIC Acknowledge
        return List{&aeth(), &atomicacketh()};
    case 0x13: // CmpSwap
    case 0x14: // FetchAdd
        return List{&atomiceth()};
    case 0x16: // SEND Last with Invalidate
    case 0x17: // SEND Only with Invalidate
        return List{&ieth()};
    case 0x1c: // FLUSH
        return List{&feth(), &reth()};
    default: // SEND First/Middle/Last/Only, RDMA WRITE Middle/Last, RDMA READ Response Middle
        return List{};
    }
}

/// The decoder's walk over one frame: each step appends a header or says why it stops.
class FrameWalker {
  public:
    explicit FrameWalker(std::span<const std::uint8_t> frame) : frame_(frame) {
        packet_.frame_length = frame.size();
    }

    RocePacket walk() {
        std::uint16_t ethertype = 0;
        if (!link_layer(ethertype) || !network_layer(ethertype) || !transport_layer())
            return std::move(packet_);
        if (!infiniband_headers()) return std::move(packet_);
        payload_and_icrc();
        return std::move(packet_);
    }

  private:
    const DecodedField* add(const HeaderSpec& spec) {
        std::string error;
        auto header = decode_header(spec, frame_, offset_, error);
        if (!header) {
            stop(error);
            return nullptr;
        }
        packet_.headers.push_back(std::move(*header));
        offset_ += spec.length;
        return &packet_.headers.back();
    }

    bool stop(const std::string& why) {
        packet_.stopped = fmt::format("at byte {}: {}", offset_, why);
        return false;
    }

    bool link_layer(std::uint16_t& ethertype) {
        const DecodedField* eth = add(ethernet());
        if (eth == nullptr) return false;
        ethertype = static_cast<std::uint16_t>(value_of(*eth, "eth.type"));
        while (ethertype == kEtherVlan || ethertype == kEtherQinQ) {
            const DecodedField* tag = add(vlan());
            if (tag == nullptr) return false;
            ethertype = static_cast<std::uint16_t>(value_of(*tag, "vlan.etype"));
        }
        return true;
    }

    bool network_layer(std::uint16_t ethertype) {
        ip_start_ = offset_;
        if (ethertype == kEtherIpv4) return ipv4_header();
        if (ethertype == kEtherIpv6) return ipv6_header();
        if (ethertype == kEtherRoceV1)
            return stop("RoCE v1 (EtherType 0x8915, the GRH right after Ethernet) is not decoded");
        return stop(fmt::format("EtherType 0x{:04x} is neither IPv4 nor IPv6: not RoCE v2", ethertype));
    }

    bool ipv4_header() {
        const DecodedField* ip = add(ipv4());
        if (ip == nullptr) return false;
        if (value_of(*ip, "ip.version") != 4)
            return stop(fmt::format("the IPv4 header says version {}", value_of(*ip, "ip.version")));
        ip_header_ = 4 * value_of(*ip, "ip.hdr_len");
        const std::size_t total = value_of(*ip, "ip.len");
        packet_.source = text_of(*ip, "ip.src");
        packet_.destination = text_of(*ip, "ip.dst");
        packet_.ecn = static_cast<std::uint8_t>(value_of(*ip, "ip.dsfield.ecn"));
        protocol_ = static_cast<std::uint8_t>(value_of(*ip, "ip.proto"));
        if (ip_header_ < 20)
            return stop(fmt::format("the IPv4 header length is {} bytes, under 20", ip_header_));
        if (total < ip_header_ || ip_start_ + total > frame_.size())
            return stop(
                fmt::format("the IPv4 total length is {} bytes; the frame holds {} from the IP header", total,
                            frame_.size() - ip_start_));
        const bool fragment = value_of(*ip, "ip.flags.mf") != 0 || value_of(*ip, "ip.frag_offset") != 0;
        if (ip_header_ > 20) { // options: shown as one node, not decoded
            packet_.headers.push_back({.abbrev = "ip.options",
                                       .name = "IPv4 options",
                                       .offset = offset_,
                                       .length = ip_header_ - 20,
                                       .text = fmt::format("IPv4 options, {} bytes", ip_header_ - 20),
                                       .children = {}});
            offset_ = ip_start_ + ip_header_;
        }
        if (fragment) // (`ip` may point to a moved node now: nothing reads it below)
            return stop("an IPv4 fragment: RoCE v2 datagrams are never fragmented (the DF bit is set)");
        datagram_end_ = ip_start_ + total;
        return true;
    }

    bool ipv6_header() {
        const DecodedField* ip = add(ipv6());
        if (ip == nullptr) return false;
        if (value_of(*ip, "ipv6.version") != 6)
            return stop(fmt::format("the IPv6 header says version {}", value_of(*ip, "ipv6.version")));
        ip_header_ = 40;
        packet_.source = text_of(*ip, "ipv6.src");
        packet_.destination = text_of(*ip, "ipv6.dst");
        packet_.ecn = static_cast<std::uint8_t>(value_of(*ip, "ipv6.tclass.ecn"));
        protocol_ = static_cast<std::uint8_t>(value_of(*ip, "ipv6.nxt"));
        const std::size_t payload = value_of(*ip, "ipv6.plen");
        if (offset_ + payload > frame_.size())
            return stop(
                fmt::format("the IPv6 payload length is {} bytes; the frame holds {} after the header",
                            payload, frame_.size() - offset_));
        datagram_end_ = offset_ + payload;
        return true;
    }

    bool transport_layer() {
        if (protocol_ != kIpProtocolUdp)
            return stop(fmt::format("IP protocol {} is not UDP: not RoCE v2 (IPv6 extension headers are not "
                                    "decoded)",
                                    protocol_));
        const std::size_t udp_start = offset_;
        const DecodedField* header = add(udp());
        if (header == nullptr) return false;
        const std::size_t length = value_of(*header, "udp.length");
        if (length < 8 || udp_start + length > datagram_end_)
            return stop(fmt::format("the UDP length is {} bytes; the IP datagram leaves {} for UDP", length,
                                    datagram_end_ - udp_start));
        const auto port = value_of(*header, "udp.dstport");
        if (port != kRoceV2Port)
            return stop(fmt::format("UDP to port {}, not RoCE v2 ({})", port, kRoceV2Port));
        datagram_end_ = udp_start + length; // the rest of the frame, if any, is Ethernet padding
        frame_ = frame_.first(datagram_end_);
        return true;
    }

    bool infiniband_headers() {
        const DecodedField* base = add(bth());
        if (base == nullptr) return false;
        packet_.roce = true;
        packet_.opcode = static_cast<std::uint8_t>(value_of(*base, "infiniband.bth.opcode"));
        packet_.dest_qp = static_cast<std::uint32_t>(value_of(*base, "infiniband.bth.destqp"));
        packet_.psn = static_cast<std::uint32_t>(value_of(*base, "infiniband.bth.psn"));
        packet_.ack_request = value_of(*base, "infiniband.bth.a") != 0;
        pad_ = value_of(*base, "infiniband.bth.padcnt");
        std::string why;
        const auto chain = extension_headers(packet_.opcode, why);
        if (!chain) return stop(why);
        for (const HeaderSpec* spec : *chain) {
            const DecodedField* header = add(*spec);
            if (header == nullptr) return false;
            if (spec == &aeth()) {
                packet_.syndrome = static_cast<std::uint8_t>(value_of(*header, "infiniband.aeth.syndrome"));
                packet_.msn = static_cast<std::uint32_t>(value_of(*header, "infiniband.aeth.msn"));
            }
        }
        return true;
    }

    void payload_and_icrc() {
        if (frame_.size() - offset_ < kIcrcBytes) {
            stop(fmt::format("{} bytes are left, too few for the 4-byte ICRC", frame_.size() - offset_));
            return;
        }
        const std::size_t icrc_at = frame_.size() - kIcrcBytes;
        const std::size_t data = icrc_at - offset_;
        if (pad_ > data) {
            stop(fmt::format("the BTH pads {} bytes, but only {} bytes precede the ICRC", pad_, data));
            return;
        }
        packet_.payload_offset = offset_;
        packet_.payload_length = data - pad_;
        if (packet_.payload_length > 0)
            packet_.headers.push_back({.abbrev = "infiniband.payload",
                                       .name = "Payload",
                                       .offset = offset_,
                                       .length = packet_.payload_length,
                                       .text = fmt::format("Payload, {} bytes", packet_.payload_length),
                                       .children = {}});
        if (pad_ > 0)
            packet_.headers.push_back({.abbrev = "infiniband.pad",
                                       .name = "Pad",
                                       .offset = offset_ + packet_.payload_length,
                                       .length = pad_,
                                       .text = fmt::format("Pad, {} bytes (to a multiple of 4)", pad_),
                                       .children = {}});
        Icrc icrc;
        for (std::size_t i = 0; i < kIcrcBytes; ++i) // stored least-significant byte first
            icrc.stored |= std::uint32_t{frame_[icrc_at + i]} << (8 * i);
        icrc.computed = roce_icrc(frame_.subspan(ip_start_, icrc_at - ip_start_), ip_header_);
        packet_.icrc = icrc;
        packet_.headers.push_back(
            {.abbrev = "infiniband.invariant.crc",
             .name = "Invariant CRC",
             .offset = icrc_at,
             .length = kIcrcBytes,
             .value = icrc.stored,
             .text = icrc.ok() ? fmt::format("Invariant CRC: 0x{:08x} (correct)", icrc.stored)
                               : fmt::format("Invariant CRC: 0x{:08x} (wrong: the bytes give 0x{:08x})",
                                             icrc.stored, icrc.computed),
             .children = {}});
    }

    std::span<const std::uint8_t> frame_;
    RocePacket packet_;
    std::size_t offset_ = 0;
    std::size_t ip_start_ = 0;
    std::size_t ip_header_ = 0;
    std::size_t datagram_end_ = 0;
    std::uint8_t protocol_ = 0;
    std::size_t pad_ = 0;
};

std::uint32_t crc32_update(std::uint32_t crc, std::span<const std::uint8_t> bytes) {
    // CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), a byte at a time from a table made once.
    static const auto kTable = [] {
        std::array<std::uint32_t, 256> table{};
        for (std::uint32_t i = 0; i < 256; ++i) {
            std::uint32_t c = i;
            for (int bit = 0; bit < 8; ++bit)
                c = (c & 1) != 0 ? 0xedb88320U ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
        return table;
    }();
    for (const std::uint8_t byte : bytes)
        crc = kTable[(crc ^ byte) & 0xff] ^ (crc >> 8);
    return crc;
}

std::string extension_summary(const RocePacket& p) {
    std::string out;
    for (const auto& h : p.headers) {
        if (h.abbrev == "infiniband.reth")
            out += fmt::format("  RETH va=0x{:x} rkey=0x{:x} len={}", value_of(h, "infiniband.reth.va"),
                               value_of(h, "infiniband.reth.r_key"), value_of(h, "infiniband.reth.dmalen"));
        else if (h.abbrev == "infiniband.aeth")
            out += fmt::format("  AETH {} MSN {}", aeth_syndrome_meaning(p.syndrome.value_or(0)),
                               p.msn.value_or(0));
        else if (h.abbrev == "infiniband.immdt")
            out += fmt::format("  imm=0x{:08x}", value_of(h, "infiniband.immdt.imm"));
        else if (h.abbrev == "infiniband.ieth")
            out += fmt::format("  invalidate rkey=0x{:x}", value_of(h, "infiniband.ieth.r_key"));
        else if (h.abbrev == "infiniband.deth")
            out += fmt::format("  DETH qkey=0x{:x} srcqp=0x{:06x}", value_of(h, "infiniband.deth.q_key"),
                               value_of(h, "infiniband.deth.srcqp"));
        else if (h.abbrev == "infiniband.atomiceth")
            out += fmt::format(
                "  AtomicETH va=0x{:x} rkey=0x{:x} swap/add=0x{:x} compare=0x{:x}",
                value_of(h, "infiniband.atomiceth.va"), value_of(h, "infiniband.atomiceth.r_key"),
                value_of(h, "infiniband.atomiceth.swapdt"), value_of(h, "infiniband.atomiceth.cmpdt"));
        else if (h.abbrev == "infiniband.atomicacketh")
            out += fmt::format("  original=0x{:x}", value_of(h, "infiniband.atomicacketh.origremdt"));
    }
    return out;
}

} // namespace

RocePacket decode_frame(std::span<const std::uint8_t> frame) {
    return FrameWalker(frame).walk();
}

std::uint32_t roce_icrc(std::span<const std::uint8_t> datagram, std::size_t ip_header) {
    std::vector<std::uint8_t> masked(datagram.begin(), datagram.end());
    auto set_ones = [&](std::size_t at, std::size_t count) {
        for (std::size_t i = at; i < at + count && i < masked.size(); ++i)
            masked[i] = 0xff;
    };
    if (!masked.empty() && (masked[0] >> 4) == 6) {
        masked[0] |= 0x0f; // traffic class (high half) ...
        set_ones(1, 3);    // ... the rest of it and the flow label
        set_ones(7, 1);    // hop limit
    } else {
        set_ones(1, 1);  // type of service (DSCP, ECN)
        set_ones(8, 1);  // TTL
        set_ones(10, 2); // header checksum
    }
    set_ones(ip_header + 6, 2);     // UDP checksum
    set_ones(ip_header + 8 + 4, 1); // BTH byte 4: FECN, BECN, reserved
    static constexpr std::array<std::uint8_t, 8> kLrhStandIn{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    std::uint32_t crc = crc32_update(0xffffffffU, kLrhStandIn);
    crc = crc32_update(crc, masked);
    return ~crc;
}

std::string RocePacket::summary() const {
    if (!roce) return fmt::format("not RoCE v2 ({})", stopped);
    std::string out = fmt::format("{} -> {}  {}  QP 0x{:06x}  PSN {}{}", source, destination,
                                  opcode_name(opcode), dest_qp, psn, ack_request ? "  AckReq" : "");
    out += extension_summary(*this);
    if (payload_length > 0) out += fmt::format("  payload {} B", payload_length);
    if (ecn == 3) out += "  ECN CE";
    if (icrc)
        out += icrc->ok() ? "  ICRC ok"
                          : fmt::format("  ICRC WRONG (0x{:08x}, bytes give 0x{:08x})", icrc->stored,
                                        icrc->computed);
    if (!stopped.empty()) out += "  [" + stopped + "]";
    return out;
}

nlohmann::json to_json(const RocePacket& packet) {
    nlohmann::json out = {
        {"summary", packet.summary()}, {"length", packet.frame_length}, {"roce", packet.roce}};
    if (packet.roce) {
        out["opcode"] = packet.opcode;
        out["dest_qp"] = packet.dest_qp;
        out["psn"] = packet.psn;
        out["ack_request"] = packet.ack_request;
        if (packet.syndrome) out["syndrome"] = *packet.syndrome;
        if (packet.msn) out["msn"] = *packet.msn;
        out["payload_offset"] = packet.payload_offset;
        out["payload_length"] = packet.payload_length;
    }
    if (packet.icrc)
        out["icrc"] = {
            {"stored", packet.icrc->stored}, {"computed", packet.icrc->computed}, {"ok", packet.icrc->ok()}};
    if (!packet.stopped.empty()) out["stopped"] = packet.stopped;
    auto& headers = out["headers"] = nlohmann::json::array();
    for (const auto& header : packet.headers)
        headers.push_back(to_json(header));
    return out;
}

} // namespace rdmalab::packet
