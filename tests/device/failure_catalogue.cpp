// The failure catalogue's rows: each family's cases, checked by tst_failures (failure_catalogue.hpp).
#include "failure_catalogue.hpp"

#include <sys/mman.h>

#include <stdexcept>

namespace rdmalab::test::failures {

SendRequest send(const ConnectedPair& c, std::uint32_t length) {
    SendRequest wr;
    wr.wr_id = 1;
    wr.opcode = IBV_WR_SEND;
    wr.sges = {{c.src->address(), length, c.src->lkey()}};
    return wr;
}

namespace {

/// A's WRITE of 64 bytes to B's region (ConnectedPair::write), bent by `bend`.
std::function<SendRequest(const ConnectedPair&)> bent(void (*bend)(const ConnectedPair&, SendRequest&)) {
    return [bend](const ConnectedPair& c) {
        auto wr = c.write(1);
        bend(c, wr);
        return wr;
    };
}

} // namespace

/// Refused by the call itself: creating an object beyond the device, a transition the QP cannot make,
/// a region whose rights contradict each other, memory that is not there.
Rows<Refusal> refusedCalls() {
    const auto create_qp = [](void (*bend)(QpCapacity&, const ibv_device_attr&)) {
        return [bend](DevicePair& p) {
            QpCapacity capacity;
            bend(capacity, p.context->query_device());
            QueuePair::create(p.pd_a, p.cq_a, p.cq_a, IBV_QPT_RC, capacity);
        };
    };
    const auto reg_mr = [](unsigned access) {
        return [access](DevicePair& p) { MemoryRegion::allocate(p.pd_a, 4096, access); };
    };
    return {
        {"queryingAPortTheDeviceDoesNotHaveIsEinval",
         Refusal{.call = [](DevicePair& p) { p.context->query_port(2); }, .verb = "ibv_query_port"}},
        {"initOnAPortTheDeviceDoesNotHaveIsEinvalAndTheQpStaysInReset",
         Refusal{.call = [](DevicePair& p) { p.qp_a->to_init(2, IBV_ACCESS_REMOTE_WRITE); },
                 .qp_a_stays_in = IBV_QPS_RESET}},
        {"completionQueueOfZeroEntriesIsEinval",
         Refusal{.call = [](DevicePair& p) { CompletionQueue::create(p.context, Endpoint::A, 0); },
                 .verb = "ibv_create_cq"}},
        {"completionQueueAboveTheDeviceMaximumIsEinval",
         Refusal{.call =
                     [](DevicePair& p) {
                         CompletionQueue::create(p.context, Endpoint::A,
                                                 p.context->query_device().max_cqe + 1);
                     },
                 .verb = "ibv_create_cq",
                 .names = {"max_cqe"}}},
        {"sendQueueDeeperThanTheDeviceAllowsIsEinval",
         Refusal{.call = create_qp([](QpCapacity& capacity, const ibv_device_attr& attr) {
                     capacity.max_send_wr = static_cast<std::uint32_t>(attr.max_qp_wr) + 1;
                 }),
                 .verb = "ibv_create_qp",
                 .names = {"max_qp_wr"}}},
        {"moreScatterGatherEntriesThanTheDeviceAllowsIsEinval",
         Refusal{.call = create_qp([](QpCapacity& capacity, const ibv_device_attr& attr) {
                     capacity.max_send_sge = static_cast<std::uint32_t>(attr.max_sge) + 1;
                 }),
                 .verb = "ibv_create_qp",
                 .names = {"max_sge"}}},
        {"inlineDataAboveTheDeviceLimitIsRefusedAtCreation",
         Refusal{.call = create_qp([](QpCapacity& capacity, const ibv_device_attr&) {
                     capacity.max_inline_data = 1u << 20;
                 }),
                 .verb = "ibv_create_qp",
                 .names = {"max_inline_data"}}},
        {"resetStraightToRtsIsAnIllegalTransition",
         Refusal{.call =
                     [](DevicePair& p) {
                         ibv_qp_attr attr{};
                         attr.qp_state = IBV_QPS_RTS;
                         attr.sq_psn = 1;
                         p.qp_a->modify(attr, IBV_QP_STATE | IBV_QP_SQ_PSN, "RESET->RTS");
                     },
                 .names = {"RESET", "RTS"},
                 .qp_a_stays_in = IBV_QPS_RESET}},
        {"initToRtsSkippingRtrIsAnIllegalTransition",
         Refusal{.call = [](DevicePair& p) { p.qp_a->to_rts({}); },
                 .reach = [](DevicePair& p) { p.qp_a->to_init(1, 0); },
                 .qp_a_stays_in = IBV_QPS_INIT}},
        {"timeoutAboveThirtyOneIsRefused",
         Refusal{.call =
                     [](DevicePair& p) {
                         RtsParams rts;
                         rts.timeout = 32; // a 5-bit field in the IBTA's QP context: 0..31
                         p.qp_a->to_rts(rts);
                     },
                 .names = {"timeout"},
                 .reach =
                     [](DevicePair& p) {
                         p.qp_a->to_init(1, 0);
                         p.qp_a->to_rtr(p.path_to(*p.qp_b));
                     },
                 .qp_a_stays_in = IBV_QPS_RTR}},
        {"pathMtuAbove4096IsRefused", Refusal{.call =
                                                  [](DevicePair& p) {
                                                      auto path = p.path_to(*p.qp_b);
                                                      path.path_mtu = static_cast<ibv_mtu>(IBV_MTU_4096 + 1);
                                                      p.qp_a->to_rtr(path);
                                                  },
                                              .names = {"path_mtu"},
                                              .reach = [](DevicePair& p) { p.qp_a->to_init(1, 0); },
                                              .qp_a_stays_in = IBV_QPS_INIT}},
        {"remoteWriteWithoutLocalWriteIsEinval", Refusal{.call = reg_mr(IBV_ACCESS_REMOTE_WRITE),
                                                         .verb = "ibv_reg_mr",
                                                         .field = &ErrorInfo::fix,
                                                         .names = {"LOCAL_WRITE"}}},
        {"remoteAtomicWithoutLocalWriteIsEinval", Refusal{.call = reg_mr(IBV_ACCESS_REMOTE_ATOMIC),
                                                          .verb = "ibv_reg_mr",
                                                          .field = &ErrorInfo::fix,
                                                          .names = {"LOCAL_WRITE"}}},
        {"registeringUnmappedMemoryIsEfault",
         Refusal{.call =
                     [](DevicePair& p) {
                         void* hole = mmap(nullptr, 8192, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                         if (hole == MAP_FAILED || munmap(hole, 8192) != 0) // the range is now unmapped
                             throw std::runtime_error("mmap or munmap of 8 KiB failed");
                         MemoryRegion::register_memory(p.pd_a, hole, 8192, IBV_ACCESS_LOCAL_WRITE);
                     },
                 .verb = "ibv_reg_mr",
                 .code = "EFAULT"}},
    };
}

/// Requests beyond what the QP was created for.
Rows<RefusedPost> refusedPosts() {
    return {
        {"moreScatterGatherEntriesThanTheQueuePairHasIsEinval",
         RefusedPost{
             [](const ConnectedPair& c) {
                 auto wr = c.write(1, 8);
                 wr.sges.assign(c.qp_a->capacity().max_send_sge + 1, Sge{c.src->address(), 8, c.src->lkey()});
                 return wr;
             },
             "max_send_sge"}},
        {"inlineDataAboveTheQueuePairsLimitIsEinval",
         RefusedPost{[](const ConnectedPair& c) {
                         auto wr = c.write(1, c.qp_a->capacity().max_inline_data + 1);
                         wr.inline_data = true;
                         return wr;
                     },
                     "max_inline_data"}},
        {"anAtomicOnAnUnalignedAddressIsEinval", RefusedPost{[](const ConnectedPair& c) {
                                                                 auto wr = c.write(1, 8);
                                                                 wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
                                                                 wr.remote_addr = c.dst->address() + 4;
                                                                 wr.compare_add = 1;
                                                                 return wr;
                                                             },
                                                             "8-byte"}},
    };
}

/// Requests the responder refuses: a remote access error for A, and both QPs in ERR.
Rows<OneRequest> requestsTheResponderRefuses() {
    return {
        {"writeWithAWrongRkeyIsARemoteAccessErrorAndBothQueuePairsFail",
         OneRequest{bent([](const ConnectedPair&, SendRequest& wr) { wr.rkey ^= 0x5a5a00; })}},
        {"writeBeyondTheRegionIsARemoteAccessError",
         OneRequest{bent([](const ConnectedPair& c, SendRequest& wr) { // 32 bytes past the end
             wr.remote_addr = c.dst->address() + c.dst->length() - 32;
         })}},
        {"writeToARegionWithoutRemoteWriteIsARemoteAccessError",
         OneRequest{.request = bent([](const ConnectedPair&, SendRequest&) {}),
                    .dst_access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ}},
        {"readFromARegionWithoutRemoteReadIsARemoteAccessError",
         OneRequest{.request =
                        bent([](const ConnectedPair&, SendRequest& wr) { wr.opcode = IBV_WR_RDMA_READ; }),
                    .dst_access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE}},
        // LOCAL_WRITE lets only this side's NIC write into the region; its rkey grants the peer nothing.
        {"aRegionWithLocalWriteOnlyRefusesItsRkeyForWrite",
         OneRequest{.request = bent([](const ConnectedPair&, SendRequest&) {}),
                    .dst_access = IBV_ACCESS_LOCAL_WRITE}},
        {"aRegionWithLocalWriteOnlyRefusesItsRkeyForRead",
         OneRequest{.request =
                        bent([](const ConnectedPair&, SendRequest& wr) { wr.opcode = IBV_WR_RDMA_READ; }),
                    .dst_access = IBV_ACCESS_LOCAL_WRITE}},
        {"atomicOnARegionWithoutRemoteAtomicIsARemoteAccessError",
         OneRequest{.request = bent([](const ConnectedPair&, SendRequest& wr) {
                        wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
                        wr.sges[0].length = 8;
                        wr.compare_add = 5;
                    }),
                    .dst_access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ}},
    };
}

/// IBTA: a zero-length RDMA request checks no R_Key, so a junk one succeeds and both QPs stay in RTS.
Rows<OneRequest> zeroByteRequestsWithAJunkRkey() {
    const auto zero_bytes = [](ibv_wr_opcode opcode) {
        return [opcode](const ConnectedPair& c) {
            auto wr = c.write(1);
            wr.opcode = opcode;
            wr.sges.clear(); // no scatter/gather entry: zero bytes
            wr.remote_addr = 0xdead0000;
            wr.rkey = 0xbad;
            return wr;
        };
    };
    return {
        {"aZeroByteWriteWithAJunkRkeySucceeds",
         OneRequest{zero_bytes(IBV_WR_RDMA_WRITE), IBV_WC_SUCCESS, IBV_QPS_RTS, IBV_QPS_RTS}},
        {"aZeroByteReadWithAJunkRkeySucceeds",
         OneRequest{zero_bytes(IBV_WR_RDMA_READ), IBV_WC_SUCCESS, IBV_QPS_RTS, IBV_QPS_RTS}},
    };
}

/// Requests that consume B's receive and fail on both sides.
Rows<BothSidesFail> requestsThatFailOnBothSides() {
    // The IBTA's local protection error describes this receive (its buffer is not in a region valid
    // for the operation, a write). rxe in Linux 6.1 treats it as a malformed receive: copy_data()
    // fails the lkey's LOCAL_WRITE check with -EINVAL, so rxe_resp.c completes the receive with
    // LOC_QP_OP_ERR and NAKs the SEND as a remote operational error (REM_OP_ERR).
    return {
        {"aReceiveIntoARegionWithoutLocalWriteFailsOnBothSides",
         BothSidesFail{.request = [](const ConnectedPair& c) { return send(c, 16); },
                       .requester_on_rxe = IBV_WC_REM_OP_ERR,
                       .responder_on_rxe = IBV_WC_LOC_QP_OP_ERR,
                       .requester_per_ibta = std::nullopt,
                       .responder_per_ibta = IBV_WC_LOC_PROT_ERR,
                       .dst_access = 0}}, // local read only: B's NIC may not write it
        // The IBTA reports the responder's side as a local access error on the receive the WRITE with
        // immediate consumed. rxe in Linux 6.1 completes that receive with the status it NAKs the
        // requester with: rxe_resp.c handles the rkey violation as a class C error,
        // do_class_ac_error(qp, AETH_NAK_REM_ACC_ERR, IB_WC_REM_ACCESS_ERR).
        {"aWriteWithImmediateAndAWrongRkeyFailsTheReceiveItConsumed",
         BothSidesFail{.request =
                           [](const ConnectedPair& c) {
                               auto wr = c.write(1);
                               wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
                               wr.imm_data = 0x1234;
                               wr.rkey ^= 0x5a5a00;
                               return wr;
                           },
                       .requester_on_rxe = IBV_WC_REM_ACCESS_ERR,
                       .responder_on_rxe = IBV_WC_REM_ACCESS_ERR,
                       .requester_per_ibta = IBV_WC_REM_ACCESS_ERR,
                       .responder_per_ibta = IBV_WC_LOC_ACCESS_ERR,
                       .receive_length = 0}},
        // The responder's receive is too short. The IBTA has the responder complete it with LOC_LEN_ERR
        // and NAK the request as invalid (REM_INV_REQ_ERR); rxe in Linux 6.1 treats it as a malformed
        // receive: LOC_QP_OP_ERR there and a remote operational error NAK (REM_OP_ERR) to the requester.
        {"aSendLongerThanThePostedReceiveFailsOnBothSides",
         BothSidesFail{.request = [](const ConnectedPair& c) { return send(c, 64); },
                       .requester_on_rxe = IBV_WC_REM_OP_ERR,
                       .responder_on_rxe = IBV_WC_LOC_QP_OP_ERR,
                       .requester_per_ibta = IBV_WC_REM_INV_REQ_ERR,
                       .responder_per_ibta = IBV_WC_LOC_LEN_ERR,
                       .receive_length = 16,
                       .dst_untouched = false}},
    };
}

} // namespace rdmalab::test::failures
