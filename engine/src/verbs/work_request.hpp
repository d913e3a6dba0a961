// A posted work request as the verbs take it and as trace events show it (internal): its scatter/gather
// list and how a post is traced, shared by the posts of a QP (qp.cpp, extended.cpp) and of an SRQ (srq.cpp).
#pragma once

#include "rdmalab/engine/verbs.hpp"
#include "verbs/traced_call.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace rdmalab::detail {

/// `sges` as ibv_sge entries.
inline std::vector<ibv_sge> to_ibv_sges(const std::vector<Sge>& sges) {
    std::vector<ibv_sge> out;
    out.reserve(sges.size());
    for (const auto& s : sges)
        out.push_back({s.addr, s.length, s.lkey});
    return out;
}

/// `request` as ibv_post_recv and ibv_post_srq_recv take it. Its list points into `sges`, which this
/// fills and which must outlive the post.
inline ibv_recv_wr to_ibv_recv_wr(const RecvRequest& request, std::vector<ibv_sge>& sges) {
    sges = to_ibv_sges(request.sges);
    ibv_recv_wr wr{};
    wr.wr_id = request.wr_id;
    wr.sg_list = sges.empty() ? nullptr : sges.data();
    wr.num_sge = static_cast<int>(sges.size());
    return wr;
}

/// A posted request's scatter/gather list as its event shows it: the entries, their total length, and
/// the first entry's lkey among the ids.
inline void sg_fields(const std::vector<Sge>& sges, nlohmann::json& ids, nlohmann::json& data) {
    nlohmann::json sg = nlohmann::json::array();
    std::uint64_t total = 0;
    for (const auto& s : sges) {
        sg.push_back({{"addr", hex(s.addr)}, {"length", s.length}, {"lkey", s.lkey}});
        total += s.length;
    }
    data["sg_list"] = sg;
    data["length"] = total;
    if (!sges.empty()) ids["lkey"] = sges.front().lkey;
}

/// How a post on a QP is traced: a PostWr event named `event` (the opcode, or RECV), the post's system
/// calls counted by `meter` into `tally`.
inline VerbCall post_call(const TraceScope& trace, const char* verb, std::string_view event,
                          const SyscallMeter* meter, SyscallTally& tally) {
    return VerbCall{.scope = trace,
                    .verb = verb,
                    .kind = EventKind::PostWr,
                    .event = event,
                    .syscalls = meter,
                    .tally = &tally};
}

} // namespace rdmalab::detail
