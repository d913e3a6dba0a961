// The cases of the failure catalogue (docs/failure-catalogue.md) that share a shape, as rows: tst_failures
// runs every row of a family through one check. Each row is named as the test function it once was.
#pragma once

#include "devicepair.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rdmalab::test::failures {

/// A family's rows, each with its name.
template <typename Row> using Rows = std::vector<std::pair<const char*, Row>>;

/// A call refused on a fresh pair that `reach` brought to a state (nothing: both QPs in RESET), and what
/// the engine's explanation says: the verb, the code, and `names` in its `field` (cause or fix).
struct Refusal {
    std::function<void(DevicePair&)> call{};
    std::string verb = "ibv_modify_qp";
    std::string code = "EINVAL";
    std::string ErrorInfo::*field = &ErrorInfo::cause;
    std::vector<std::string> names{};
    std::function<void(DevicePair&)> reach{};
    std::optional<ibv_qp_state> qp_a_stays_in{}; ///< the state A's QP keeps after the refusal
};
Rows<Refusal> refusedCalls();

/// A request A's connected QP refuses at ibv_post_send (EINVAL), with `names` in the cause.
struct RefusedPost {
    std::function<SendRequest(const ConnectedPair&)> request{};
    std::string names{};
};
Rows<RefusedPost> refusedPosts();

/// One request (wr_id 1) from A to B's region of `dst_access`: A's one completion and both QPs' states.
struct OneRequest {
    std::function<SendRequest(const ConnectedPair&)> request{};
    ibv_wc_status status = IBV_WC_REM_ACCESS_ERR;
    ibv_qp_state a_after = IBV_QPS_ERR;
    ibv_qp_state b_after = IBV_QPS_ERR;
    unsigned dst_access = kAllRemote;
};
Rows<OneRequest> requestsTheResponderRefuses();
Rows<OneRequest> zeroByteRequestsWithAJunkRkey();

/// A request that consumes B's receive (wr_id 7, into dst, `receive_length` bytes; 0: a receive with no
/// buffer) and fails on both sides: the statuses on rxe, and the IBTA's where rxe differs (nullopt: any
/// status but success).
struct BothSidesFail {
    std::function<SendRequest(const ConnectedPair&)> request{};
    ibv_wc_status requester_on_rxe = IBV_WC_SUCCESS;
    ibv_wc_status responder_on_rxe = IBV_WC_SUCCESS;
    std::optional<ibv_wc_status> requester_per_ibta{};
    ibv_wc_status responder_per_ibta = IBV_WC_SUCCESS;
    unsigned dst_access = kAllRemote;
    std::uint32_t receive_length = 64;
    bool dst_untouched = true; ///< the request wrote nothing into B's region
};
Rows<BothSidesFail> requestsThatFailOnBothSides();

/// A SEND (wr_id 1) of `length` bytes from the start of A's source region.
SendRequest send(const ConnectedPair& c, std::uint32_t length);

} // namespace rdmalab::test::failures
