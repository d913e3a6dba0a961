// The RAII verbs classes on the real device: objects, keys, QP transitions, queue types, event mode,
// teardown.
#include "devicepair.hpp"
#include "testutil.hpp"

#include "rdmalab/engine/device.hpp"
#include "rdmalab/engine/names.hpp"
#include "rdmalab/engine/verbs.hpp"

#include <QProcess>
#include <QThread>
#include <QtTest>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>

using namespace rdmalab;
using namespace std::chrono_literals;

namespace {

using test::DevicePair;
using test::failure_of;

/// The verbs tests start both send queues at PSN 100 and grant remote reads and writes.
void connectAtPsn100(DevicePair& pair) {
    RtsParams rts;
    rts.sq_psn = 100;
    pair.connect(rts, IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
}

} // namespace

class VerbsTest : public QObject {
    Q_OBJECT
  private slots:
    void init() { RDMALAB_REQUIRE_DEVICE(); }
    void cleanup() { RDMALAB_CHECK_RESOURCES(); }

    void devicesListActivePortWithRoceV2Gid() {
        const auto devices = list_devices();
        QVERIFY(!devices.empty());
        const auto& d = devices.front();
        QVERIFY(!d.name.empty());
        QVERIFY(d.max_qp > 0);
        QVERIFY(d.max_mr > 0);
        QVERIFY(!d.ports.empty());
        const auto& port = d.ports.front();
        QCOMPARE(port.state, std::string("PORT_ACTIVE"));
        QCOMPARE(port.link_layer, std::string("Ethernet"));
        QVERIFY(port.active_mtu >= 256);
        QVERIFY(pick_rocev2_gid(port).has_value());
        if (d.driver == "rxe") QVERIFY(d.software);
    }

    void memoryRegionExposesAddressLengthAndKeys() {
        auto tracer = std::make_shared<Tracer>();
        auto ctx = Context::open("", tracer);
        auto pd = ProtectionDomain::alloc(ctx, Endpoint::A);
        auto mr = MemoryRegion::allocate(pd, 12345, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
        QCOMPARE(mr->length(), 12345u);
        QVERIFY(mr->address() != 0);
        QCOMPARE(mr->address() % 4096, 0u);
        QVERIFY(mr->lkey() != 0);
        QVERIFY(mr->rkey() != 0);
        QCOMPARE(mr->access(), unsigned(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ));
        QCOMPARE(mr->describe()["access"].size(), 2u);
    }

    void remoteWriteWithoutLocalWriteIsRefused() {
        auto ctx = Context::open("", std::make_shared<Tracer>());
        auto pd = ProtectionDomain::alloc(ctx, Endpoint::A);
        const auto info = failure_of([&] { MemoryRegion::allocate(pd, 4096, IBV_ACCESS_REMOTE_WRITE); });
        QVERIFY2(info, "ibv_reg_mr accepted REMOTE_WRITE without LOCAL_WRITE");
        QCOMPARE(info->verb, std::string("ibv_reg_mr"));
        QCOMPARE(info->code, std::string("EINVAL"));
        QVERIFY2(info->fix.find("LOCAL_WRITE") != std::string::npos, info->to_string().c_str());
    }

    void rtrWithoutAddressVectorFailsWithMissingMask() {
        DevicePair pair;
        pair.qp_a->to_init(1, IBV_ACCESS_REMOTE_WRITE);
        ibv_qp_attr attr{};
        attr.qp_state = IBV_QPS_RTR;
        attr.path_mtu = pair.mtu;
        attr.dest_qp_num = pair.qp_b->qp_num();
        attr.rq_psn = 1;
        attr.max_dest_rd_atomic = 1;
        attr.min_rnr_timer = 12;
        const int mask = IBV_QP_STATE | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                         IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
        const auto info = failure_of([&] { pair.qp_a->modify(attr, mask, "INIT->RTR"); });
        QVERIFY2(info, "INIT->RTR without AV succeeded");
        QCOMPARE(info->verb, std::string("ibv_modify_qp"));
        QCOMPARE(info->code, std::string("EINVAL"));
        QVERIFY2(info->cause.find("missing required AV") != std::string::npos, info->to_string().c_str());
        QCOMPARE(pair.qp_a->query_state(), IBV_QPS_INIT);
    }

    void rtsWithExtraAttributeFailsClearly() {
        DevicePair pair;
        pair.qp_a->to_init(1, 0);
        pair.qp_a->to_rtr(pair.path_to(*pair.qp_b, 1));
        ibv_qp_attr attr{};
        attr.qp_state = IBV_QPS_RTS;
        attr.sq_psn = 1;
        attr.timeout = 14;
        attr.retry_cnt = 7;
        attr.rnr_retry = 7;
        attr.max_rd_atomic = 1;
        attr.dest_qp_num = 5; // DEST_QPN belongs to INIT->RTR only
        const int mask = IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                         IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_DEST_QPN;
        const auto info = failure_of([&] { pair.qp_a->modify(attr, mask, "RTR->RTS"); });
        QVERIFY2(info, "RTR->RTS with DEST_QPN succeeded");
        QVERIFY2(info->cause.find("not allowed DEST_QPN") != std::string::npos, info->to_string().c_str());
        QCOMPARE(pair.qp_a->query_state(), IBV_QPS_RTR);
    }

    void queuePairWalksEveryNamedTransition() {
        DevicePair pair;
        QCOMPARE(pair.qp_a->query_state(), IBV_QPS_RESET);
        auto report = pair.qp_a->to_init(1, IBV_ACCESS_REMOTE_WRITE);
        QCOMPARE(report.mask_names,
                 (std::vector<std::string>{"STATE", "ACCESS_FLAGS", "PKEY_INDEX", "PORT"}));
        QCOMPARE(pair.qp_a->query_state(), IBV_QPS_INIT);
        report = pair.qp_a->to_rtr(pair.path_to(*pair.qp_b, 7));
        QCOMPARE(report.attributes["dest_qp_num"].get<std::uint32_t>(), pair.qp_b->qp_num());
        QCOMPARE(pair.qp_a->query_state(), IBV_QPS_RTR);
        pair.qp_a->to_rts({});
        QCOMPARE(pair.qp_a->query_state(), IBV_QPS_RTS);
        pair.qp_a->to_sqd();
        const auto sqd = pair.qp_a->query_state();
        QVERIFY2(sqd == IBV_QPS_SQD || sqd == IBV_QPS_RTS, qp_state_name(sqd).data());
        pair.qp_a->to_err();
        QCOMPARE(pair.qp_a->query_state(), IBV_QPS_ERR);
        pair.qp_a->to_reset();
        QCOMPARE(pair.qp_a->query_state(), IBV_QPS_RESET);
        int transitions = 0;
        for (const auto& e : pair.sink->events())
            if (e.kind == EventKind::QpState && e.ids.value("qpn", 0u) == pair.qp_a->qp_num()) ++transitions;
        QCOMPARE(transitions, 6);
    }

    void unsignaledWriteProducesNoCompletion() {
        DevicePair pair;
        connectAtPsn100(pair);
        auto src = MemoryRegion::allocate(pair.pd_a, 64, IBV_ACCESS_LOCAL_WRITE);
        auto dst = MemoryRegion::allocate(pair.pd_b, 64, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
        std::memset(src->data(), 'x', 64);
        SendRequest wr;
        wr.opcode = IBV_WR_RDMA_WRITE;
        wr.sges = {{src->address(), 32, src->lkey()}};
        wr.remote_addr = dst->address();
        wr.rkey = dst->rkey();
        wr.signaled = false;
        wr.wr_id = 1;
        pair.qp_a->post_send(wr);
        wr.signaled = true;
        wr.wr_id = 2;
        wr.sges = {{src->address() + 32, 32, src->lkey()}};
        wr.remote_addr = dst->address() + 32;
        pair.qp_a->post_send(wr);
        auto wcs = pair.cq_a->poll_until(1, 5000ms);
        QCOMPARE(wcs.size(), 1u);
        QCOMPARE(wcs[0].wr_id, 2u);
        QVERIFY(pair.cq_a->poll_until(1, 200ms).empty());
        QCOMPARE(std::string(reinterpret_cast<char*>(dst->data()), 64), std::string(64, 'x'));
    }

    void inlineSendCopiesPayloadAtPostTime() {
        DevicePair pair;
        connectAtPsn100(pair);
        auto src = MemoryRegion::allocate(pair.pd_a, 32, IBV_ACCESS_LOCAL_WRITE);
        auto dst = MemoryRegion::allocate(pair.pd_b, 32, IBV_ACCESS_LOCAL_WRITE);
        std::memcpy(src->data(), "inline payload, copied at post!", 32);
        pair.qp_b->post_recv({9, {{dst->address(), 32, dst->lkey()}}});
        SendRequest wr;
        wr.opcode = IBV_WR_SEND;
        wr.sges = {{src->address(), 32, src->lkey()}};
        wr.inline_data = true;
        pair.qp_a->post_send(wr);
        std::memset(src->data(), 0, 32); // the NIC already has its own copy
        QCOMPARE(pair.cq_a->poll_until(1, 5000ms).size(), 1u);
        auto recv = pair.cq_b->poll_until(1, 5000ms);
        QCOMPARE(recv.size(), 1u);
        QCOMPARE(recv[0].wr_id, 9u);
        QCOMPARE(std::string(reinterpret_cast<char*>(dst->data())),
                 std::string("inline payload, copied at post!"));
    }

    void completionChannelDeliversAnEvent() {
        DevicePair pair({.channel_b = true});
        connectAtPsn100(pair);
        auto src = MemoryRegion::allocate(pair.pd_a, 16, IBV_ACCESS_LOCAL_WRITE);
        auto dst = MemoryRegion::allocate(pair.pd_b, 16, IBV_ACCESS_LOCAL_WRITE);
        pair.qp_b->post_recv({1, {{dst->address(), 16, dst->lkey()}}});
        pair.cq_b->request_notify();
        QVERIFY(!pair.cq_b->wait_event(50ms)); // nothing yet
        SendRequest wr;
        wr.opcode = IBV_WR_SEND;
        wr.sges = {{src->address(), 16, src->lkey()}};
        pair.qp_a->post_send(wr);
        QVERIFY(pair.cq_b->wait_event(5000ms));
        auto wcs = pair.cq_b->poll(4);
        QCOMPARE(wcs.size(), 1u);
        QCOMPARE(wcs[0].opcode, IBV_WC_RECV);
    }

    void unreliableConnectedWriteMovesData() {
        DevicePair pair({.type = IBV_QPT_UC});
        const auto report_init = pair.qp_a->to_init(1, IBV_ACCESS_REMOTE_WRITE);
        QVERIFY(std::find(report_init.mask_names.begin(), report_init.mask_names.end(), "ACCESS_FLAGS") !=
                report_init.mask_names.end());
        pair.qp_b->to_init(1, IBV_ACCESS_REMOTE_WRITE);
        const auto rtr = pair.qp_a->to_rtr(pair.path_to(*pair.qp_b, 0));
        QVERIFY(std::find(rtr.mask_names.begin(), rtr.mask_names.end(), "MIN_RNR_TIMER") ==
                rtr.mask_names.end());
        pair.qp_b->to_rtr(pair.path_to(*pair.qp_a, 0));
        const auto rts = pair.qp_a->to_rts({});
        QCOMPARE(rts.mask_names, (std::vector<std::string>{"STATE", "SQ_PSN"}));
        pair.qp_b->to_rts({});
        auto src = MemoryRegion::allocate(pair.pd_a, 128, IBV_ACCESS_LOCAL_WRITE);
        auto dst = MemoryRegion::allocate(pair.pd_b, 128, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
        std::memset(src->data(), 'u', 128);
        SendRequest wr;
        wr.opcode = IBV_WR_RDMA_WRITE;
        wr.sges = {{src->address(), 128, src->lkey()}};
        wr.remote_addr = dst->address();
        wr.rkey = dst->rkey();
        pair.qp_a->post_send(wr);
        auto wcs = pair.cq_a->poll_until(1, 5000ms);
        QCOMPARE(wcs.size(), 1u);
        QVERIFY(wcs[0].ok());
        // UC has no ACKs: the completion means "sent", so wait briefly for the bytes to land.
        QTRY_COMPARE_WITH_TIMEOUT(std::string(reinterpret_cast<char*>(dst->data()), 128),
                                  std::string(128, 'u'), 5000);
    }

    void unreliableDatagramSendWithAddressHandle() {
        DevicePair pair({.type = IBV_QPT_UD});
        const auto init = pair.qp_a->to_init(1, 0, 0, 0x1234);
        QCOMPARE(init.mask_names, (std::vector<std::string>{"STATE", "PKEY_INDEX", "PORT", "QKEY"}));
        pair.qp_b->to_init(1, 0, 0, 0x1234);
        QCOMPARE(pair.qp_a->to_rtr({}).mask_names, (std::vector<std::string>{"STATE"}));
        pair.qp_b->to_rtr({});
        pair.qp_a->to_rts({});
        pair.qp_b->to_rts({});
        auto src = MemoryRegion::allocate(pair.pd_a, 64, IBV_ACCESS_LOCAL_WRITE);
        auto dst = MemoryRegion::allocate(pair.pd_b, 40 + 64, IBV_ACCESS_LOCAL_WRITE);
        std::memcpy(src->data(), "datagram", 9);
        pair.qp_b->post_recv({5, {{dst->address(), 40 + 64, dst->lkey()}}});
        ibv_ah_attr ah{};
        ah.is_global = 1;
        ah.grh.dgid = pair.gid;
        ah.grh.sgid_index = static_cast<std::uint8_t>(pair.gid_index);
        ah.grh.hop_limit = 1;
        ah.port_num = 1;
        SendRequest wr;
        wr.opcode = IBV_WR_SEND;
        wr.sges = {{src->address(), 64, src->lkey()}};
        wr.ah = AddressHandle::create(pair.pd_a, ah);
        wr.remote_qpn = pair.qp_b->qp_num();
        wr.remote_qkey = 0x1234;
        pair.qp_a->post_send(wr);
        QCOMPARE(pair.cq_a->poll_until(1, 5000ms).size(), 1u);
        auto recv = pair.cq_b->poll_until(1, 5000ms);
        QCOMPARE(recv.size(), 1u);
        QVERIFY(recv[0].ok());
        QCOMPARE(recv[0].byte_len, 40u + 64u); // UD receives start with the 40-byte GRH
        QCOMPARE(recv[0].src_qp, pair.qp_a->qp_num());
        QCOMPARE(std::string(reinterpret_cast<char*>(dst->data() + 40)), std::string("datagram"));
    }

    void aSharedReceiveQueueFeedsAQpAndSignalsItsLimit() {
        DevicePair pair;
        auto srq = SharedReceiveQueue::create(pair.pd_b, 4);
        QVERIFY(srq->max_wr() >= 4);
        // B's QP takes its receives from the SRQ: it has no receive queue of its own.
        pair.qp_b = QueuePair::create(pair.pd_b, pair.cq_b, pair.cq_b, IBV_QPT_RC, {}, Endpoint::B, srq);
        connectAtPsn100(pair);
        auto src = MemoryRegion::allocate(pair.pd_a, 16, IBV_ACCESS_LOCAL_WRITE);
        auto first = MemoryRegion::allocate(pair.pd_b, 16, IBV_ACCESS_LOCAL_WRITE);
        auto second = MemoryRegion::allocate(pair.pd_b, 16, IBV_ACCESS_LOCAL_WRITE);
        std::memcpy(src->data(), "through the SRQ", 16);
        srq->post_recv({.wr_id = 7, .sges = {{first->address(), 16, first->lkey()}}});
        srq->post_recv({.wr_id = 8, .sges = {{second->address(), 16, second->lkey()}}});
        const auto refused = failure_of([&] {
            pair.qp_b->post_recv({.wr_id = 9, .sges = {{first->address(), 16, first->lkey()}}});
        });
        QVERIFY2(refused, "ibv_post_recv on a QP of an SRQ succeeded");
        QVERIFY2(refused->cause.find("SRQ") != std::string::npos, refused->cause.c_str());
        srq->arm_limit(2);
        QCOMPARE(srq->query().srq_limit, 2u);
        pair.context->poll_async_events(); // drop anything from before
        SendRequest send;
        send.opcode = IBV_WR_SEND;
        send.sges = {{src->address(), 16, src->lkey()}};
        pair.qp_a->post_send(send);
        const auto wcs = pair.cq_b->poll_until(1, 5000ms);
        QCOMPARE(wcs.size(), 1u);
        QCOMPARE(wcs[0].status, IBV_WC_SUCCESS);
        QCOMPARE(wcs[0].opcode, IBV_WC_RECV);
        QCOMPARE(wcs[0].byte_len, 16u);
        QCOMPARE(wcs[0].wr_id, 7u); // the SRQ's first receive
        QCOMPARE(wcs[0].qp_num, pair.qp_b->qp_num());
        QCOMPARE(std::string(reinterpret_cast<char*>(first->data()), 15), std::string("through the SRQ"));
        QVERIFY(std::all_of(second->data(), second->data() + 16, [](std::uint8_t b) { return b == 0; }));
        // One receive left, fewer than the limit 2: the event names the SRQ, and the limit is disarmed.
        const auto events = pair.context->wait_async_events(5000ms);
        QCOMPARE(events.size(), 1u);
        QCOMPARE(events[0].type, IBV_EVENT_SRQ_LIMIT_REACHED);
        QCOMPARE(events[0].srq_handle.value_or(0), srq->handle());
        QCOMPARE(srq->query().srq_limit, 0u);
        QVERIFY(pair.context->wait_async_events(300ms).empty());
        QVERIFY(pair.cq_a->poll_until(1, 5000ms).size() == 1);
    }

    void aWindowsKeyWorksThenFailsAfterLocalInvalidate() {
        DevicePair pair;
        connectAtPsn100(pair);
        auto src = MemoryRegion::allocate(pair.pd_a, 8, IBV_ACCESS_LOCAL_WRITE);
        auto region = MemoryRegion::allocate(
            pair.pd_b, 4096, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_MW_BIND);
        std::memcpy(src->data(), "windowed", 8);
        // Type 1: every ibv_bind_mw gives the window a new key.
        auto type1 = MemoryWindow::alloc(pair.pd_b, IBV_MW_TYPE_1);
        const WindowBind first{.window = type1,
                               .region = region,
                               .addr = region->address(),
                               .length = 512,
                               .access = IBV_ACCESS_REMOTE_WRITE};
        const std::uint32_t key1 = type1->bind(*pair.qp_b, first, 1);
        const std::uint32_t key2 = type1->bind(*pair.qp_b, first, 2);
        QVERIFY(key1 != key2);
        QCOMPARE(key2 >> 8, key1 >> 8); // the same index, another tag
        QCOMPARE(pair.cq_b->poll_until(2, 5000ms).size(), 2u);
        // Type 2: bound by a work request on B's QP, 256 bytes at offset 1024.
        auto window = MemoryWindow::alloc(pair.pd_b, IBV_MW_TYPE_2);
        SendRequest bind;
        bind.opcode = IBV_WR_BIND_MW;
        bind.wr_id = 3;
        bind.bind = WindowBind{.window = window,
                               .region = region,
                               .addr = region->address() + 1024,
                               .length = 256,
                               .access = IBV_ACCESS_REMOTE_WRITE};
        bind.bind_rkey = window->next_rkey();
        pair.qp_b->post_send(bind);
        QCOMPARE(window->rkey(), bind.bind_rkey);
        auto bound = pair.cq_b->poll_until(1, 5000ms);
        QCOMPARE(bound.size(), 1u);
        QCOMPARE(bound[0].status, IBV_WC_SUCCESS);
        QCOMPARE(bound[0].opcode, IBV_WC_BIND_MW);
        SendRequest write;
        write.opcode = IBV_WR_RDMA_WRITE;
        write.sges = {{src->address(), 8, src->lkey()}};
        write.remote_addr = window->addr();
        write.rkey = window->rkey();
        pair.qp_a->post_send(write);
        auto written = pair.cq_a->poll_until(1, 5000ms);
        QCOMPARE(written.size(), 1u);
        QCOMPARE(written[0].status, IBV_WC_SUCCESS);
        QCOMPARE(std::string(reinterpret_cast<char*>(region->data()) + 1024, 8), std::string("windowed"));
        // LOCAL_INV revokes the window; the same Write with its key is then refused, the bytes untouched.
        SendRequest invalidate;
        invalidate.opcode = IBV_WR_LOCAL_INV;
        invalidate.invalidate_rkey = window->rkey();
        invalidate.wr_id = 4;
        pair.qp_b->post_send(invalidate);
        auto invalidated = pair.cq_b->poll_until(1, 5000ms);
        QCOMPARE(invalidated.size(), 1u);
        QCOMPARE(invalidated[0].status, IBV_WC_SUCCESS);
        QCOMPARE(invalidated[0].opcode, IBV_WC_LOCAL_INV);
        write.remote_addr = window->addr() + 8;
        pair.qp_a->post_send(write);
        auto refused = pair.cq_a->poll_until(1, 5000ms);
        QCOMPARE(refused.size(), 1u);
        QCOMPARE(refused[0].status, IBV_WC_REM_ACCESS_ERR);
        QVERIFY(
            std::all_of(region->data() + 1032, region->data() + 1040, [](std::uint8_t b) { return b == 0; }));
        // Every window call was traced.
        std::size_t allocs = 0, binds = 0;
        for (const auto& e : pair.sink->events()) {
            if (e.name == "ibv_alloc_mw") ++allocs;
            if (e.kind == EventKind::PostWr && e.name == "BIND_MW" && e.data.value("ret", -1) == 0) ++binds;
        }
        QCOMPARE(allocs, 2u);
        QCOMPARE(binds, 3u);
    }

    void teardownFollowsCanonicalOrder() {
        auto sink = std::make_shared<MemorySink>();
        std::uint32_t pd_with_mr = 0;
        {
            DevicePair pair;
            auto mr = MemoryRegion::allocate(pair.pd_a, 64, IBV_ACCESS_LOCAL_WRITE);
            pd_with_mr = pair.pd_a->handle();
            pair.tracer->add_sink(sink);
            // Drop our handles parent-first: the children keep their parents alive.
            pair.context.reset();
            pair.pd_a.reset();
            pair.pd_b.reset();
            pair.cq_a.reset();
            pair.cq_b.reset();
            QCOMPARE(sink->events().size(), 0u); // nothing destroyed yet: QPs and the MR still hold them
            pair.qp_a.reset();
            pair.qp_b.reset();
            mr.reset();
        }
        std::vector<std::string> order;
        for (const auto& e : sink->events()) {
            QCOMPARE(e.data.value("ret", -1), 0);
            order.push_back(e.name);
            if (e.name == "ibv_dealloc_pd" && order.size() == 7) QCOMPARE(e.ids.value("pd", 0u), pd_with_mr);
        }
        // Each object goes as soon as its last holder does, and always before its parents.
        const std::vector<std::string> expected = {
            "ibv_destroy_qp", "ibv_destroy_cq", // A's QP, then A's CQ (A's PD is still held by the MR)
            "ibv_destroy_qp", "ibv_destroy_cq", "ibv_dealloc_pd",    // B's QP, CQ and PD
            "ibv_dereg_mr",   "ibv_dealloc_pd", "ibv_close_device"}; // the MR, A's PD, the context
        QCOMPARE(order, expected);
    }

    void portDownAndUpArriveAsAsyncEvents() {
        // Only inside the test bed: taking a real machine's interface down is not a test's business.
        if (qEnvironmentVariable("RDMALAB_IN_VM") != "1" || geteuid() != 0)
            QSKIP("changes a network interface: runs only as root inside the SoftRoCE test bed");
        std::string device, netdev;
        for (const auto& d : list_devices())
            for (const auto& g : d.ports.front().gids)
                if (!g.netdev.empty() && g.netdev != "lo" && device.empty()) {
                    device = d.name;
                    netdev = g.netdev;
                }
        QVERIFY2(!device.empty(), "the test bed has a SoftRoCE device on a non-loopback interface (rxe1)");
        auto context = Context::open(device, std::make_shared<Tracer>());
        context->poll_async_events(); // drop anything from before
        auto wait_for = [&](ibv_event_type type) {
            for (int i = 0; i < 100; ++i) {
                for (const auto& e : context->poll_async_events())
                    if (e.type == type) return e;
                QThread::msleep(50);
            }
            return AsyncEvent{};
        };
        QCOMPARE(QProcess::execute("ip", {"link", "set", QString::fromStdString(netdev), "down"}), 0);
        const auto down = wait_for(IBV_EVENT_PORT_ERR);
        QCOMPARE(context->query_port(1).state, IBV_PORT_DOWN);
        QCOMPARE(QProcess::execute("ip", {"link", "set", QString::fromStdString(netdev), "up"}), 0);
        const auto up = wait_for(IBV_EVENT_PORT_ACTIVE);
        QCOMPARE(down.name, std::string("IBV_EVENT_PORT_ERR"));
        QCOMPARE(down.port.value_or(0), 1);
        QVERIFY(down.meaning.find("left the ACTIVE state") != std::string::npos);
        QCOMPARE(up.name, std::string("IBV_EVENT_PORT_ACTIVE"));
        QTRY_COMPARE_WITH_TIMEOUT(context->query_port(1).state, IBV_PORT_ACTIVE, 5000);
    }
};

QTEST_GUILESS_MAIN(VerbsTest)
#include "tst_verbs.moc"
