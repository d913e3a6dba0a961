// Helpers shared by the loopback and rdma_cm operations (internal to the engine).
#pragma once

#include "rdmalab/engine/names.hpp"
#include "rdmalab/engine/operation.hpp"

#include <fmt/format.h>
#include <infiniband/verbs.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace rdmalab::detail {

inline bool is_send(OpKind op) {
    return op == OpKind::Send || op == OpKind::SendImm;
}
inline bool is_atomic(OpKind op) {
    return op == OpKind::CompareSwap || op == OpKind::FetchAdd;
}
inline bool needs_recv(OpKind op) {
    return is_send(op) || op == OpKind::WriteImm;
}

inline ibv_wr_opcode wr_opcode(OpKind op) {
    switch (op) {
    case OpKind::Send:
        return IBV_WR_SEND;
    case OpKind::SendImm:
        return IBV_WR_SEND_WITH_IMM;
    case OpKind::Write:
        return IBV_WR_RDMA_WRITE;
    case OpKind::WriteImm:
        return IBV_WR_RDMA_WRITE_WITH_IMM;
    case OpKind::Read:
        return IBV_WR_RDMA_READ;
    case OpKind::CompareSwap:
        return IBV_WR_ATOMIC_CMP_AND_SWP;
    case OpKind::FetchAdd:
        return IBV_WR_ATOMIC_FETCH_AND_ADD;
    }
    return IBV_WR_SEND;
}

inline ibv_wc_opcode expected_wc_opcode(OpKind op) {
    switch (op) {
    case OpKind::Send:
    case OpKind::SendImm:
        return IBV_WC_SEND;
    case OpKind::Write:
    case OpKind::WriteImm:
        return IBV_WC_RDMA_WRITE;
    case OpKind::Read:
        return IBV_WC_RDMA_READ;
    case OpKind::CompareSwap:
        return IBV_WC_COMP_SWAP;
    case OpKind::FetchAdd:
        return IBV_WC_FETCH_ADD;
    }
    return IBV_WC_SEND;
}

/// A's buffer needs LOCAL_WRITE: it receives read data and atomic results.
inline unsigned requester_access(OpKind) {
    return IBV_ACCESS_LOCAL_WRITE;
}

/// Exactly the access B's region needs for the operation (minus what the fault removes).
inline unsigned responder_access(OpKind op, FaultKind fault) {
    if (fault == FaultKind::NoRemoteAccess) return IBV_ACCESS_LOCAL_WRITE;
    switch (op) {
    case OpKind::Send:
    case OpKind::SendImm:
        return IBV_ACCESS_LOCAL_WRITE;
    case OpKind::Write:
    case OpKind::WriteImm:
        return IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
    case OpKind::Read:
        return IBV_ACCESS_REMOTE_READ;
    case OpKind::CompareSwap:
    case OpKind::FetchAdd:
        return IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_ATOMIC;
    }
    return 0;
}

/// Collects verification lines ("ok   ...", "FAIL ...") and whether all passed.
struct Checklist {
    std::vector<std::string>& lines;
    bool ok = true;
    void operator()(bool pass, const std::string& line) {
        lines.push_back((pass ? "ok   " : "FAIL ") + line);
        ok = ok && pass;
    }
};

/// A's completion carries the status the operation expects (`expected_status` of its fault).
inline void check_requester_status(Checklist& check, const std::optional<Completion>& wc,
                                   ibv_wc_status expected) {
    check(wc && wc->status == expected,
          fmt::format("A's completion status {} (expected {})", wc ? wc_status_name(wc->status) : "missing",
                      wc_status_name(expected)));
}

/// After a fault, A's QP is in the Error state (`qp_state` as qp_state_name gives it).
inline void check_requester_in_error(Checklist& check, const std::string& qp_state) {
    check(qp_state == "ERR", fmt::format("A's QP state {} (expected ERR)", qp_state));
}

/// Fills `bytes` with `message` repeated.
inline void fill_pattern(std::span<std::uint8_t> bytes, const std::string& message) {
    for (std::size_t i = 0; i < bytes.size(); ++i)
        bytes[i] = static_cast<std::uint8_t>(message[i % message.size()]);
}

} // namespace rdmalab::detail
