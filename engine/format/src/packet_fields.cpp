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

const HeaderSpec kBth{"infiniband.bth", "Base Transport Header", 12, kBthFields};
const HeaderSpec kReth{"infiniband.reth", "RDMA Extended Transport Header", 16, kRethFields};
const HeaderSpec kAeth{"infiniband.aeth", "ACK Extended Transport Header", 4, kAethFields};
const HeaderSpec kDeth{"infiniband.deth", "Datagram Extended Transport Header", 8, kDethFields};
const HeaderSpec kImmDt{"infiniband.immdt", "Immediate Data", 4, kImmDtFields};
constexpr std::array<const HeaderSpec*, 5> kTransportHeaders{&kBth, &kReth, &kAeth, &kDeth, &kImmDt};

std::string value_text(const FieldSpec& spec, std::uint64_t value) {
    std::string text;
    switch (spec.base) {
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
        std::uint64_t raw = 0;
        for (std::size_t i = 0; i < f.length; ++i)
            raw = (raw << 8) | packet[offset + f.offset + i];
        const std::uint64_t value = f.mask != 0 ? (raw & f.mask) >> std::countr_zero(f.mask) : raw;
        header.children.push_back({.abbrev = std::string(f.abbrev),
                                   .name = std::string(f.name),
                                   .offset = offset + f.offset,
                                   .length = f.length,
                                   .mask = f.mask,
                                   .value = value,
                                   .text = fmt::format("{}: {}", f.name, value_text(f, value)),
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
std::span<const HeaderSpec* const> transport_headers() {
    return kTransportHeaders;
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
        return fmt::format("RNR NAK (timer code {})", value);
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

} // namespace rdmalab::packet
