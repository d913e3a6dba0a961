// Packets to work requests: PSN ranges from a host's trace (rdmalab/format/packet_match.hpp).
#include "rdmalab/format/packet_match.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace rdmalab::packet {
namespace {

constexpr std::uint32_t kPsnMask = 0xFFFFFF; // PSNs are 24 bits and wrap (IBTA vol. 1 §9.7.1)

/// Whether `psn` lies in [first, first + count), modulo 2^24.
bool psn_within(std::uint32_t psn, std::uint32_t first, std::uint32_t count) {
    return ((psn - first) & kPsnMask) < count;
}

/// A non-negative integer of `j` (events made in the engine hold signed ones, parsed ones unsigned).
std::optional<std::uint64_t> natural(const nlohmann::json& j) {
    if (j.is_number_unsigned()) return j.get<std::uint64_t>();
    if (j.is_number_integer() && j.get<std::int64_t>() >= 0)
        return static_cast<std::uint64_t>(j.get<std::int64_t>());
    return std::nullopt;
}

std::optional<std::uint64_t> natural(const nlohmann::json& j, const char* key) {
    const auto it = j.find(key);
    return it == j.end() ? std::nullopt : natural(*it);
}

std::uint32_t json_u32(const nlohmann::json& j, const char* key, std::uint32_t fallback = 0) {
    return static_cast<std::uint32_t>(natural(j, key).value_or(fallback));
}

} // namespace

const char* role_name(PacketRole role) {
    switch (role) {
    case PacketRole::Request:
        return "request";
    case PacketRole::Response:
        return "response";
    case PacketRole::Ack:
        return "ack";
    case PacketRole::Nak:
        return "nak";
    case PacketRole::Other:
        break;
    }
    return "other";
}

PacketRole role_of(std::uint8_t opcode, std::optional<std::uint8_t> syndrome) {
    const std::uint8_t transport = opcode & 0xE0;
    const std::uint8_t operation = opcode & 0x1F;
    if (transport == 0x60) // UD: SEND Only, SEND Only with Immediate
        return operation == 0x04 || operation == 0x05 ? PacketRole::Request : PacketRole::Other;
    if (transport != 0x00 && transport != 0x20) return PacketRole::Other; // RD, CNP (0x81), reserved
    if (operation <= 0x0C || operation == 0x13 || operation == 0x14 || operation == 0x16 ||
        operation == 0x17 || operation == 0x1C || operation == 0x1D)
        return PacketRole::Request;
    if (operation >= 0x0D && operation <= 0x10) return PacketRole::Response;
    if (operation == 0x11 || operation == 0x12) // AETH syndrome bits 6:5: 00 ACK, 01 RNR NAK, 11 NAK
        return syndrome && (*syndrome & 0x60) != 0 ? PacketRole::Nak : PacketRole::Ack;
    return PacketRole::Other;
}

std::uint32_t psns_of(const std::string& opcode, std::uint64_t length, std::uint32_t mtu) {
    if (opcode == "LOCAL_INV" || opcode == "BIND_MW") return 0;
    const bool segmented =
        opcode.starts_with("SEND") || opcode.starts_with("RDMA_WRITE") || opcode == "RDMA_READ";
    if (!segmented || mtu == 0 || length == 0) return 1;
    return static_cast<std::uint32_t>((length + mtu - 1) / mtu);
}

void PacketMatcher::observe(const TraceEvent& event) {
    const auto qpn_value = natural(event.ids, "qpn");
    if (!qpn_value) return;
    const auto qpn = static_cast<std::uint32_t>(*qpn_value);
    if (event.kind == EventKind::QpState) {
        const auto attrs = event.data.find("attrs");
        if (attrs == event.data.end() || !attrs->is_object() || json_u32(event.data, "ret", 1) != 0) return;
        Qp& qp = qps_[qpn];
        qp.dest_qpn = json_u32(*attrs, "dest_qp_num", qp.dest_qpn);
        qp.mtu = json_u32(*attrs, "path_mtu", qp.mtu);
        if (attrs->contains("sq_psn")) qp.next_psn = json_u32(*attrs, "sq_psn") & kPsnMask;
        return;
    }
    if (event.kind != EventKind::PostWr || event.data.value("queue", "") != "send" ||
        json_u32(event.data, "ret", 1) != 0)
        return;
    const auto found = qps_.find(qpn);
    if (found == qps_.end() || !found->second.next_psn) return; // not connected yet: it fails, sends nothing
    Qp& qp = found->second;
    WireRequest request{.qpn = found->first,
                        .opcode = event.data.value("opcode", event.name),
                        .length = natural(event.data, "length").value_or(0),
                        .post_seq = event.seq};
    request.psns = psns_of(request.opcode, request.length, qp.mtu);
    // A post list names every wr_id; its requests are taken to be alike (the engine's lists are).
    std::vector<std::uint64_t> wr_ids;
    if (const auto list = event.data.find("wr_ids"); list != event.data.end() && list->is_array()) {
        for (const auto& id : *list)
            if (const auto value = natural(id)) wr_ids.push_back(*value);
    } else if (const auto id = natural(event.ids, "wr_id")) {
        wr_ids.push_back(*id);
    }
    for (const std::uint64_t wr_id : wr_ids) {
        request.wr_id = wr_id;
        request.first_psn = *qp.next_psn;
        qp.next_psn = (*qp.next_psn + request.psns) & kPsnMask;
        if (request.psns > 0) qp.requests.push_back(request);
    }
}

const WireRequest* PacketMatcher::request_at(const Qp& qp, std::uint32_t psn) const {
    // The newest first: after 2^24 PSNs the range of an old request is reused.
    for (auto it = qp.requests.rbegin(); it != qp.requests.rend(); ++it)
        if (psn_within(psn, it->first_psn, it->psns)) return &*it;
    return nullptr;
}

std::optional<PacketOwner> PacketMatcher::attribute(const RocePacket& packet, bool outgoing) {
    if (!packet.roce) return std::nullopt;
    const PacketRole role = role_of(packet.opcode, packet.syndrome);
    // Sent packets go to the peer's QP; received ones come to ours.
    auto qp = qps_.end();
    if (outgoing) {
        for (auto it = qps_.begin(); it != qps_.end(); ++it)
            if (it->second.dest_qpn == packet.dest_qp && it->second.next_psn) qp = it;
    } else {
        qp = qps_.find(packet.dest_qp);
    }
    if (qp == qps_.end()) return std::nullopt;
    PacketOwner owner;
    owner.role = role;
    owner.qpn = qp->first;
    // Requests this host sends, and the responses and acknowledgements that come back, belong to its own
    // work requests; requests that come in, and what this host answers them with, to the peer's.
    const bool ours = outgoing == (role == PacketRole::Request);
    owner.peers = !ours && role != PacketRole::Other;
    if (role == PacketRole::Request || role == PacketRole::Response) {
        const std::uint32_t psn = packet.psn & kPsnMask;
        auto [furthest, first] =
            qp->second.furthest.try_emplace({role == PacketRole::Request, outgoing}, psn);
        // Ahead means within half the PSN space in front (IBTA vol. 1 §9.7.2's window of 2^23).
        const bool ahead = first || (((psn - furthest->second) & kPsnMask) - 1) < (kPsnMask >> 1);
        owner.retransmission = !ahead;
        if (ahead) furthest->second = psn;
    }
    if (!ours) return owner;
    const WireRequest* request = request_at(qp->second, packet.psn & kPsnMask);
    if (request == nullptr) return owner;
    owner.request = *request;
    if (role == PacketRole::Request && request->opcode == "RDMA_READ") {
        owner.index = owner.count = 1; // one request; the PSNs it takes are its responses'
    } else if (role == PacketRole::Request || role == PacketRole::Response) {
        owner.index = ((packet.psn - request->first_psn) & kPsnMask) + 1;
        owner.count = request->psns;
    }
    return owner;
}

std::vector<WireRequest> PacketMatcher::requests() const {
    std::vector<WireRequest> all;
    for (const auto& [qpn, qp] : qps_)
        all.insert(all.end(), qp.requests.begin(), qp.requests.end());
    std::ranges::sort(all, {}, &WireRequest::post_seq);
    return all;
}

std::string owner_text(const PacketOwner& owner) {
    if (!owner.request) {
        if (owner.peers)
            return fmt::format("QP {} · the peer's {}", owner.qpn,
                               owner.role == PacketRole::Request ? "request" : "request, answered");
        return fmt::format("QP {} · no work request of this host", owner.qpn);
    }
    const WireRequest& r = *owner.request;
    std::string text = fmt::format("WR {} · ibv_post_send {} {} B", r.wr_id, r.opcode, r.length);
    if (owner.role == PacketRole::Ack || owner.role == PacketRole::Nak)
        return text + (owner.role == PacketRole::Ack ? " · acknowledged" : " · answered with a NAK");
    if (owner.count > 0) text += fmt::format(" · packet {} of {}", owner.index, owner.count);
    if (owner.role == PacketRole::Response) text += " (response)";
    if (owner.retransmission) text += " · retransmitted";
    return text;
}

nlohmann::json to_json(const PacketOwner& owner) {
    nlohmann::json j = {{"role", role_name(owner.role)},
                        {"qpn", owner.qpn},
                        {"retransmission", owner.retransmission},
                        {"peers", owner.peers}};
    if (owner.count > 0) {
        j["index"] = owner.index;
        j["count"] = owner.count;
    }
    if (owner.request) {
        j["wr_id"] = owner.request->wr_id;
        j["opcode"] = owner.request->opcode;
        j["length"] = owner.request->length;
        j["first_psn"] = owner.request->first_psn;
        j["psns"] = owner.request->psns;
    }
    j["text"] = owner_text(owner);
    return j;
}

} // namespace rdmalab::packet
