// The failure catalogue: what a class can break on a real device, each case run on the test bed's rxe and
// checked for the exact errno or completion status, the queue pairs' states afterwards, and the engine's
// explanation (verb, code, cause, fix). Where rxe differs from the IBTA specification the test asserts
// what rxe does and says so. Cases of one shape are rows of one data-driven test (docs/failure-catalogue.md
// has a table row for each), named as the test functions they were.
#include "devicepair.hpp"
#include "failure_catalogue.hpp"
#include "testutil.hpp"

#include "rdmalab/engine/cm.hpp"
#include "rdmalab/engine/device.hpp"
#include "rdmalab/engine/names.hpp"
#include "rdmalab/engine/verbs.hpp"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QThread>
#include <QtTest>

#include <rdma/rdma_cma.h>

#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <vector>

using namespace rdmalab;
using namespace std::chrono_literals;
using test::collect;
using test::ConnectedPair;
using test::DevicePair;
using test::failure_of;
using test::isRxe;
using test::kAllRemote;
using namespace test::failures;

namespace {

/// The invariant of every case: each signaled WR produced exactly one completion, flushes included.
bool one_completion_each(const std::vector<Completion>& wcs, const std::vector<std::uint64_t>& wr_ids,
                         QByteArray& why) {
    std::map<std::uint64_t, int> seen;
    for (const auto& wc : wcs)
        ++seen[wc.wr_id];
    for (auto id : wr_ids)
        if (seen[id] != 1) {
            why = QByteArray("wr_id ") + QByteArray::number(qulonglong(id)) + " completed " +
                  QByteArray::number(seen[id]) + " times";
            return false;
        }
    if (wcs.size() != wr_ids.size()) {
        why = QByteArray("expected ") + QByteArray::number(qulonglong(wr_ids.size())) + " completions, got " +
              QByteArray::number(qulonglong(wcs.size()));
        return false;
    }
    return true;
}

/// One of the port's hardware counters (/sys/class/infiniband/DEV/ports/1/hw_counters/NAME); nullopt when
/// the device has no such counter.
std::optional<qint64> hw_counter(const std::string& device, const char* name) {
    QFile file(QStringLiteral("/sys/class/infiniband/%1/ports/1/hw_counters/%2")
                   .arg(QString::fromStdString(device), QString::fromLatin1(name)));
    if (!file.open(QIODevice::ReadOnly)) return std::nullopt;
    bool ok = false;
    const qint64 value = file.readAll().trimmed().toLongLong(&ok);
    return ok ? std::optional<qint64>(value) : std::nullopt;
}

/// The RNR NAKs a device sent and received (rxe's send_rnr_err and rcvd_rnr_err) and the requests it
/// failed with RNR_RETRY_EXC_ERR (retry_rnr_exceeded_err), read before and after a case.
struct RnrCounters {
    std::optional<qint64> sent, received, exceeded;
    static RnrCounters of(const std::string& device) {
        return {hw_counter(device, "send_rnr_err"), hw_counter(device, "rcvd_rnr_err"),
                hw_counter(device, "retry_rnr_exceeded_err")};
    }
    bool present() const { return sent && received && exceeded; }
};

QByteArray text(const ErrorInfo& info) {
    return QByteArray::fromStdString(info.to_string());
}

/// Why `info` is not the explained failure of `verb` with `code`: empty when it is.
QByteArray unexplained(const std::optional<ErrorInfo>& info, const std::string& verb,
                       const std::string& code) {
    if (!info)
        return QByteArray::fromStdString("the call succeeded: expected " + verb + " to fail with " + code);
    if (info->verb != verb || info->code != code || info->meaning.empty() || info->cause.empty() ||
        info->fix.empty())
        return text(*info);
    // The same explanation in Chinese (a Chinese app, lab run or workbench shows it), current with the
    // English.
    if (info->zh_meaning().empty() || info->zh_cause().empty() || info->zh_fix().empty())
        return "no Chinese text for every part of: " + text(*info) + "\n" +
               QByteArray::fromStdString(info->to_string("zh"));
    return {};
}

/// A region's bytes, to show that a request moved none.
QByteArray bytes(const MemoryRegion& region) {
    return {reinterpret_cast<const char*>(region.data()), qsizetype(region.length())};
}

/// Adds a family's rows to the current data-driven test, in column `column`.
template <typename Row> void addRows(const char* column, const test::failures::Rows<Row>& rows) {
    QTest::addColumn<Row>(column);
    for (const auto& [name, row] : rows)
        QTest::newRow(name) << row;
}

} // namespace

Q_DECLARE_METATYPE(rdmalab::test::failures::Refusal)
Q_DECLARE_METATYPE(rdmalab::test::failures::RefusedPost)
Q_DECLARE_METATYPE(rdmalab::test::failures::OneRequest)
Q_DECLARE_METATYPE(rdmalab::test::failures::BothSidesFail)

#define EXPECT_ERROR(INFO, VERB, CODE)                                                                       \
    do {                                                                                                     \
        const QByteArray why_ = unexplained(INFO, VERB, CODE);                                               \
        QVERIFY2(why_.isEmpty(), why_.constData());                                                          \
    } while (false)

#define EXPECT_COMPLETION(WC, STATUS)                                                                        \
    do {                                                                                                     \
        QVERIFY2((WC).status == (STATUS), (QByteArray("status ") + wc_status_name((WC).status).data() +      \
                                           ", expected " + wc_status_name(STATUS).data())                    \
                                              .constData());                                                 \
        if ((WC).status != IBV_WC_SUCCESS) {                                                                 \
            const auto explained_ = explain_wc_status((WC).status, "RDMA_WRITE");                            \
            QVERIFY2(!explained_.cause.empty() && !explained_.fix.empty() &&                                 \
                         !explained_.zh_cause().empty() && !explained_.zh_fix().empty(),                     \
                     text(explained_).constData());                                                          \
        }                                                                                                    \
    } while (false)

#define EXPECT_STATE(QP, STATE)                                                                              \
    QVERIFY2((QP)->query_state() == (STATE),                                                                 \
             (QByteArray("QP in ") + qp_state_name((QP)->query_state()).data() + ", expected " +             \
              qp_state_name(STATE).data())                                                                   \
                 .constData())

class FailuresTest : public QObject {
    Q_OBJECT
  private:
    static QString cmAddress() {
        const QString address = qEnvironmentVariable("RDMALAB_CM_ADDR");
        if (address.isEmpty() && !rdmalab::test::deviceRequired())
            QTest::qSkip("set RDMALAB_CM_ADDR to an IP address of an RDMA-capable interface", __FILE__,
                         __LINE__);
        return address.isEmpty() ? QStringLiteral("unset-RDMALAB_CM_ADDR") : address;
    }

    /// A's rdma_cm connection to `address`:`port`, where nobody listens, within 20 s.
    static OperationOutcome connectWithNobodyListening(const QString& address, std::uint16_t port) {
        CmOptions cm;
        cm.address = address.toStdString();
        cm.port = port;
        cm.timeout_ms = 20000;
        return run_cm_connector(OperationOptions{}, cm, std::make_shared<Tracer>());
    }

  private slots:
    void initTestCase() {
        // librdmacm opens one context per device at its first use and keeps it for the life of the process
        // (its device cache). Open it before any test counts resources, so a count shows only what a test
        // itself leaves behind.
        int count = 0;
        if (ibv_context** contexts = rdma_get_devices(&count)) rdma_free_devices(contexts);
    }
    void init() { RDMALAB_REQUIRE_DEVICE(); }
    void cleanup() { RDMALAB_CHECK_RESOURCES(); }

    // ---------------------------------------------------------------- refused by the call itself

    void unknownDeviceListsTheDevicesThatExist() {
        const auto info = failure_of([] { Context::open("nosuchdevice", std::make_shared<Tracer>()); });
        EXPECT_ERROR(info, "ibv_get_device_list", "device not found");
        QCOMPARE(info->err, ENODEV);
        QVERIFY2(info->meaning.find("nosuchdevice") != std::string::npos, text(*info).constData());
        QVERIFY2(info->cause.find(list_devices().front().name) != std::string::npos, text(*info).constData());
    }

    /// Refused by the call itself: the explained errno, and the QP (where there is one) where it was.
    void aCallTheDeviceRefusesIsExplained_data() { addRows("refusal", refusedCalls()); }
    void aCallTheDeviceRefusesIsExplained() {
        QFETCH(Refusal, refusal);
        DevicePair pair;
        if (refusal.reach) refusal.reach(pair);
        const auto info = failure_of([&] { refusal.call(pair); });
        EXPECT_ERROR(info, refusal.verb, refusal.code);
        for (const auto& name : refusal.names)
            QVERIFY2(((*info).*refusal.field).find(name) != std::string::npos, text(*info).constData());
        if (refusal.qp_a_stays_in) EXPECT_STATE(pair.qp_a, *refusal.qp_a_stays_in);
    }

    void onDemandPagingWhereTheDeviceHasNone() {
        auto context = Context::open("", std::make_shared<Tracer>());
        ibv_device_attr_ex extended{};
        QCOMPARE(ibv_query_device_ex(context->get(), nullptr, &extended), 0);
        if (extended.odp_caps.general_caps & IBV_ODP_SUPPORT) QSKIP("this device supports on-demand paging");
        auto pd = ProtectionDomain::alloc(context, Endpoint::A);
        const auto info = failure_of(
            [&] { MemoryRegion::allocate(pd, 4096, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_ON_DEMAND); });
        // Linux 6.1 (the test bed's kernel) refuses ODP on a device without it with EINVAL; later
        // kernels say EOPNOTSUPP.
        EXPECT_ERROR(info, "ibv_reg_mr", "EINVAL");
        QVERIFY2(info->cause.find("ON_DEMAND") != std::string::npos, text(*info).constData());
    }

    void localWriteOnAReadOnlyPageIsEfaultButReadOnlyAccessIsFine() {
        auto context = Context::open("", std::make_shared<Tracer>());
        auto pd = ProtectionDomain::alloc(context, Endpoint::A);
        void* page = mmap(nullptr, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        QVERIFY(page != MAP_FAILED);
        const auto info =
            failure_of([&] { MemoryRegion::register_memory(pd, page, 4096, IBV_ACCESS_LOCAL_WRITE); });
        {
            // The same page without LOCAL_WRITE: the NIC only reads it, so it registers.
            auto readable = MemoryRegion::register_memory(pd, page, 4096, 0);
            QVERIFY(readable->lkey() != 0);
        }
        munmap(page, 4096);
        EXPECT_ERROR(info, "ibv_reg_mr", "EFAULT");
        QVERIFY2(info->cause.find("read-only") != std::string::npos, text(*info).constData());
    }

    void deallocatingAProtectionDomainThatStillHasARegionIsEbusy() {
        auto context = Context::open("", std::make_shared<Tracer>());
        auto pd = ProtectionDomain::alloc(context, Endpoint::A);
        auto mr = MemoryRegion::allocate(pd, 4096, IBV_ACCESS_LOCAL_WRITE);
        // The engine's objects make this impossible (children hold their parents); the raw call shows why.
        const int ret = ibv_dealloc_pd(pd->get());
        QCOMPARE(ret, EBUSY);
        const auto info = explain_errno("ibv_dealloc_pd", ret);
        QCOMPARE(info.code, std::string("EBUSY"));
        QVERIFY2(info.cause.find("still") != std::string::npos, text(info).constData());
    }

    void destroyingACompletionQueueThatAQueuePairUsesIsEbusy() {
        DevicePair pair;
        const int ret = ibv_destroy_cq(pair.cq_a->get());
        QCOMPARE(ret, EBUSY);
        const auto info = explain_errno("ibv_destroy_cq", ret);
        QCOMPARE(info.code, std::string("EBUSY"));
        QVERIFY2(info.cause.find("queue pair") != std::string::npos, text(info).constData());
    }

    void postSendInResetInitAndRtrIsEinval() {
        DevicePair pair;
        auto mr = MemoryRegion::allocate(pair.pd_a, 64, IBV_ACCESS_LOCAL_WRITE);
        SendRequest wr;
        wr.opcode = IBV_WR_SEND;
        wr.sges = {{mr->address(), 64, mr->lkey()}};
        auto attempt = [&](ibv_qp_state state) {
            const auto info = failure_of([&] { pair.qp_a->post_send(wr); });
            EXPECT_ERROR(info, "ibv_post_send", "EINVAL");
            QVERIFY2(info->cause.find(std::string(qp_state_name(state))) != std::string::npos,
                     text(*info).constData());
            EXPECT_STATE(pair.qp_a, state);
        };
        attempt(IBV_QPS_RESET);
        pair.qp_a->to_init(1, 0);
        attempt(IBV_QPS_INIT);
        pair.qp_a->to_rtr(pair.path_to(*pair.qp_b));
        attempt(IBV_QPS_RTR);
        // Nothing completes while the QP is below RTS (on rxe the refused requests do run later:
        // aSendRefusedBeforeRtsRunsLaterOnRxe).
        QVERIFY(pair.cq_a->poll_until(1, 300ms).empty());
    }

    void aSendRefusedBeforeRtsRunsLaterOnRxe() {
        // The refusal comes from the kernel's post_send (rxe_post_send: QP state below RTS), after
        // rdma-core's rxe provider has already written the request into the send ring it shares with the
        // kernel and moved the producer index (providers/rxe/rxe.c, rxe_post_send then post_send_db). So
        // on rxe the refused requests stay queued and run when the QP reaches RTS and the next doorbell
        // rings; an RNIC drops nothing it accepted either, but it never took the refused ones.
        DevicePair pair;
        auto src = MemoryRegion::allocate(pair.pd_a, 64, IBV_ACCESS_LOCAL_WRITE);
        auto dst = MemoryRegion::allocate(pair.pd_b, 256, kAllRemote);
        std::memset(src->data(), 'r', 64);
        std::memset(dst->data(), 0, 256);
        auto write_at = [&](std::uint64_t wr_id, std::size_t offset) {
            SendRequest wr;
            wr.wr_id = wr_id;
            wr.opcode = IBV_WR_RDMA_WRITE;
            wr.sges = {{src->address(), 16, src->lkey()}};
            wr.remote_addr = dst->address() + offset;
            wr.rkey = dst->rkey();
            return wr;
        };
        pair.qp_a->to_init(1, kAllRemote);
        const auto in_init = failure_of([&] { pair.qp_a->post_send(write_at(1, 0)); });
        EXPECT_ERROR(in_init, "ibv_post_send", "EINVAL");
        pair.qp_b->to_init(1, kAllRemote);
        pair.qp_b->to_rtr(pair.path_to(*pair.qp_a));
        pair.qp_a->to_rtr(pair.path_to(*pair.qp_b));
        const auto in_rtr = failure_of([&] { pair.qp_a->post_send(write_at(2, 64)); });
        EXPECT_ERROR(in_rtr, "ibv_post_send", "EINVAL");
        pair.qp_a->to_rts(RtsParams{});
        pair.qp_a->post_send(write_at(3, 128));
        const auto* bytes = static_cast<const unsigned char*>(dst->data());
        if (isRxe()) {
            const auto wcs = collect(*pair.cq_a, 3);
            QCOMPARE(wcs.size(), 3u);
            for (std::size_t i = 0; i < wcs.size(); ++i) {
                QCOMPARE(wcs[i].wr_id, std::uint64_t{i + 1}); // in posting order, refused ones included
                EXPECT_COMPLETION(wcs[i], IBV_WC_SUCCESS);
            }
            for (std::size_t offset : {0, 64, 128})
                QCOMPARE(bytes[offset], static_cast<unsigned char>('r'));
        } else {
            const auto wcs = collect(*pair.cq_a, 1);
            QCOMPARE(wcs.size(), 1u);
            QCOMPARE(wcs[0].wr_id, std::uint64_t{3});
            QCOMPARE(bytes[0], static_cast<unsigned char>(0));
            QCOMPARE(bytes[64], static_cast<unsigned char>(0));
        }
    }

    void postReceiveInResetIsEinval() {
        DevicePair pair;
        auto mr = MemoryRegion::allocate(pair.pd_b, 64, IBV_ACCESS_LOCAL_WRITE);
        const auto info = failure_of([&] { pair.qp_b->post_recv({1, {{mr->address(), 64, mr->lkey()}}}); });
        EXPECT_ERROR(info, "ibv_post_recv", "EINVAL");
        EXPECT_STATE(pair.qp_b, IBV_QPS_RESET);
        pair.qp_b->to_init(1, 0); // from INIT on, receives may be posted
        pair.qp_b->post_recv({2, {{mr->address(), 64, mr->lkey()}}});
    }

    void aFullSendQueueRefusesTheNextRequestWithEnomem() {
        DevicePair pair({.capacity = {.max_send_wr = 4}});
        // B stays in RESET: A's requests are never acknowledged, so none leaves the send queue.
        pair.qp_a->to_init(1, 0);
        pair.qp_a->to_rtr(pair.path_to(*pair.qp_b));
        RtsParams rts;
        rts.timeout = 20; // 4.3 s per try: nothing times out while the queue is filled
        pair.qp_a->to_rts(rts);
        auto mr = MemoryRegion::allocate(pair.pd_a, 64, IBV_ACCESS_LOCAL_WRITE);
        SendRequest wr;
        wr.opcode = IBV_WR_SEND;
        wr.sges = {{mr->address(), 8, mr->lkey()}};
        const std::uint32_t depth = pair.qp_a->capacity().max_send_wr; // what the device granted
        QVERIFY(depth >= 4);
        std::vector<std::uint64_t> posted;
        std::optional<ErrorInfo> info;
        for (std::uint64_t i = 0; i < 4 * depth + 16 && !info; ++i) {
            wr.wr_id = i;
            info = failure_of([&] { pair.qp_a->post_send(wr); });
            if (!info) posted.push_back(i);
        }
        // The IBTA lets a device grant more than asked. rxe reports max_send_wr as asked (4) but its ring
        // holds the next power of two minus one (7), and that is where it refuses.
        std::uint32_t ring = 1;
        while (ring < depth + 1)
            ring *= 2;
        const std::size_t expected = isRxe() ? ring - 1 : depth;
        QVERIFY2(posted.size() == expected,
                 qPrintable(QStringLiteral("the queue took %1 requests, max_send_wr is %2")
                                .arg(posted.size())
                                .arg(depth)));
        EXPECT_ERROR(info, "ibv_post_send", "ENOMEM");
        QVERIFY2(info->cause.find("full") != std::string::npos, text(*info).constData());
        EXPECT_STATE(pair.qp_a, IBV_QPS_RTS);
        // Moving A to ERR flushes every queued request; the refused one never entered the queue.
        pair.qp_a->to_err();
        const auto wcs = collect(*pair.cq_a, posted.size());
        QByteArray why;
        QVERIFY2(one_completion_each(wcs, posted, why), why.constData());
        for (const auto& wc : wcs)
            EXPECT_COMPLETION(wc, IBV_WC_WR_FLUSH_ERR);
    }

    /// A request beyond what the QP was created for, refused at ibv_post_send; the QP is unharmed:
    /// nothing completes, and the next WRITE succeeds.
    void aRequestTheQpCannotTakeIsEinval_data() { addRows("refused", refusedPosts()); }
    void aRequestTheQpCannotTakeIsEinval() {
        QFETCH(RefusedPost, refused);
        ConnectedPair c;
        const auto info = failure_of([&] { c.qp_a->post_send(refused.request(c)); });
        EXPECT_ERROR(info, "ibv_post_send", "EINVAL");
        QVERIFY2(info->cause.find(refused.names) != std::string::npos, text(*info).constData());
        EXPECT_STATE(c.qp_a, IBV_QPS_RTS);
        QVERIFY(c.cq_a->poll_until(1, 300ms).empty());
        c.qp_a->post_send(c.write(2, 8));
        const auto wcs = collect(*c.cq_a, 1);
        QCOMPARE(wcs.size(), 1u);
        QCOMPARE(wcs[0].wr_id, 2u);
        EXPECT_COMPLETION(wcs[0], IBV_WC_SUCCESS);
    }

    // ---------------------------------------------------------------- completion errors

    /// The responder refuses A's request: a remote access error for A, both QPs in ERR (the responder's QP
    /// fails too: a wrong guess is a denial of service), and neither region changed.
    void aRequestTheResponderRefusesFailsBothQueuePairs_data() {
        addRows("request", requestsTheResponderRefuses());
    }
    void aRequestTheResponderRefusesFailsBothQueuePairs() { checkOneRequest(); }

    /// IBTA: a zero-length RDMA request checks no R_Key, so a junk one succeeds and both QPs stay in RTS.
    void aZeroByteRequestWithAJunkRkeySucceeds_data() { addRows("request", zeroByteRequestsWithAJunkRkey()); }
    void aZeroByteRequestWithAJunkRkeySucceeds() { checkOneRequest(); }

    void aReadIntoALocalRegionWithoutLocalWriteIsALocalProtectionError() {
        // B's region allows the READ; A's own target region does not let A's NIC write into it.
        ConnectedPair c;
        auto target = MemoryRegion::allocate(c.pd_a, 4096, 0); // local read only
        std::memset(c.dst->data(), 'b', 64);
        SendRequest wr;
        wr.wr_id = 1;
        wr.opcode = IBV_WR_RDMA_READ;
        wr.sges = {{target->address(), 64, target->lkey()}};
        wr.remote_addr = c.dst->address();
        wr.rkey = c.dst->rkey();
        c.qp_a->post_send(wr);
        const auto wcs = collect(*c.cq_a, 1);
        QCOMPARE(wcs.size(), 1u);
        EXPECT_COMPLETION(wcs[0], IBV_WC_LOC_PROT_ERR);
        EXPECT_STATE(c.qp_a, IBV_QPS_ERR);
        EXPECT_STATE(c.qp_b, IBV_QPS_RTS);            // B served the READ: the fault is A's alone
        QCOMPARE(target->data()[0], std::uint8_t(0)); // nothing landed in A's buffer
        const auto explained = explain_wc_status(wcs[0].status, "RDMA_READ");
        QVERIFY2(explained.cause.find("own buffer") != std::string::npos, text(explained).constData());
    }

    /// A request that consumes B's receive and fails on both sides.
    void aRequestThatConsumesAReceiveFailsOnBothSides_data() {
        addRows("failing", requestsThatFailOnBothSides());
    }
    void aRequestThatConsumesAReceiveFailsOnBothSides() {
        QFETCH(BothSidesFail, failing);
        ConnectedPair c(failing.dst_access);
        RecvRequest receive{.wr_id = 7, .sges = {}};
        if (failing.receive_length > 0)
            receive.sges = {{c.dst->address(), failing.receive_length, c.dst->lkey()}};
        c.qp_b->post_recv(receive);
        c.qp_a->post_send(failing.request(c));
        const auto requester = collect(*c.cq_a, 1);
        const auto responder = collect(*c.cq_b, 1);
        QCOMPARE(requester.size(), 1u);
        QCOMPARE(responder.size(), 1u);
        QCOMPARE(responder[0].wr_id, 7u);
        if (isRxe()) {
            EXPECT_COMPLETION(responder[0], failing.responder_on_rxe);
            EXPECT_COMPLETION(requester[0], failing.requester_on_rxe);
        } else {
            EXPECT_COMPLETION(responder[0], failing.responder_per_ibta);
            if (failing.requester_per_ibta)
                EXPECT_COMPLETION(requester[0], *failing.requester_per_ibta);
            else
                QVERIFY(requester[0].status != IBV_WC_SUCCESS);
        }
        EXPECT_STATE(c.qp_a, IBV_QPS_ERR);
        EXPECT_STATE(c.qp_b, IBV_QPS_ERR);
        if (failing.dst_untouched)
            QVERIFY(std::all_of(c.dst->data(), c.dst->data() + c.dst->length(),
                                [](std::uint8_t b) { return b == 0; }));
    }

    void aBadLkeyIsALocalProtectionErrorAndLaterRequestsAreFlushed() {
        ConnectedPair c;
        auto bad = c.write(1);
        bad.sges[0].lkey ^= 0x5a5a00;
        c.qp_a->post_send(bad);
        c.qp_a->post_send(c.write(2));
        c.qp_a->post_send(c.write(3));
        const auto wcs = collect(*c.cq_a, 3);
        QByteArray why;
        QVERIFY2(one_completion_each(wcs, {1, 2, 3}, why), why.constData());
        QCOMPARE(wcs[0].wr_id, 1u);
        // The IBTA names this LOC_PROT_ERR; rxe in Linux 6.1 reports LOC_QP_OP_ERR.
        if (isRxe())
            EXPECT_COMPLETION(wcs[0], IBV_WC_LOC_QP_OP_ERR);
        else
            EXPECT_COMPLETION(wcs[0], IBV_WC_LOC_PROT_ERR);
        EXPECT_COMPLETION(wcs[1], IBV_WC_WR_FLUSH_ERR);
        EXPECT_COMPLETION(wcs[2], IBV_WC_WR_FLUSH_ERR);
        EXPECT_STATE(c.qp_a, IBV_QPS_ERR);
        EXPECT_STATE(c.qp_b, IBV_QPS_RTS); // nothing reached B
        // A SEND's payload is gathered the same way (rxe_req.c: finish_packet, copy_data), so its bad lkey
        // gets the same status.
        ConnectedPair s;
        SendRequest send;
        send.wr_id = 4;
        send.opcode = IBV_WR_SEND;
        send.sges = {{s.src->address(), 16, s.src->lkey() ^ 0x5a5a00}};
        s.qp_b->post_recv({9, {{s.dst->address(), 64, s.dst->lkey()}}});
        s.qp_a->post_send(send);
        const auto sent = collect(*s.cq_a, 1);
        QCOMPARE(sent.size(), 1u);
        if (isRxe())
            EXPECT_COMPLETION(sent[0], IBV_WC_LOC_QP_OP_ERR);
        else
            EXPECT_COMPLETION(sent[0], IBV_WC_LOC_PROT_ERR);
        EXPECT_STATE(s.qp_a, IBV_QPS_ERR);
        EXPECT_STATE(s.qp_b, IBV_QPS_RTS);
        QVERIFY(s.cq_b->poll_until(1, 200ms).empty()); // the receive was not consumed
    }

    /// A SEND to a QP with no receive posted, with `rnr_retry` (0 to 6): the requester retries after each
    /// RNR NAK, rnr_retry times, and fails at the (rnr_retry+1)th. rxe counts the RNR NAKs it sends
    /// (rxe_resp.c, send_rnr_err) and receives (rxe_comp.c, rcvd_rnr_err); on a loopback pair both sides
    /// are the same device, so both counters see every NAK.
    void aSendWithoutAReceiveFailsAtTheLastRnrNak_data() {
        QTest::addColumn<int>("rnr_retry");
        QTest::newRow("noReceiveWithRnrRetryZeroFailsAtTheFirstRnrNak") << 0;
        QTest::newRow("noReceiveWithRnrRetryOneFailsAfterOneRetry") << 1;
    }
    void aSendWithoutAReceiveFailsAtTheLastRnrNak() {
        QFETCH(int, rnr_retry);
        RtsParams rts;
        rts.rnr_retry = static_cast<std::uint8_t>(rnr_retry);
        ConnectedPair c(kAllRemote, rts);
        const auto before = RnrCounters::of(c.context->device_name());
        c.qp_a->post_send(send(c, 16));
        const auto wcs = collect(*c.cq_a, 1);
        QCOMPARE(wcs.size(), 1u);
        EXPECT_COMPLETION(wcs[0], IBV_WC_RNR_RETRY_EXC_ERR);
        EXPECT_STATE(c.qp_a, IBV_QPS_ERR);
        EXPECT_STATE(c.qp_b, IBV_QPS_RTS); // RNR is not an error for the responder
        QVERIFY(c.cq_b->poll_until(1, 200ms).empty());
        const auto after = RnrCounters::of(c.context->device_name());
        if (!before.present() || !after.present()) {
            QVERIFY2(!isRxe(), "rxe's hw_counters (send_rnr_err, rcvd_rnr_err, retry_rnr_exceeded_err) are "
                               "missing");
            return; // another device: the status and the states above are the evidence
        }
        const qint64 naks = rnr_retry + 1;
        QCOMPARE(*after.sent - *before.sent, naks);
        QCOMPARE(*after.received - *before.received, naks);
        QCOMPARE(*after.exceeded - *before.exceeded, qint64(1));
    }

    void noReceiveWithRnrRetrySevenRetriesUntilAReceiveIsPosted() {
        RtsParams rts;
        rts.rnr_retry = 7; // "infinite"
        ConnectedPair c(kAllRemote, rts);
        SendRequest wr;
        wr.wr_id = 1;
        wr.opcode = IBV_WR_SEND;
        std::memcpy(c.src->data(), "late receive", 13);
        wr.sges = {{c.src->address(), 13, c.src->lkey()}};
        c.qp_a->post_send(wr);
        QVERIFY(c.cq_a->poll_until(1, 1500ms).empty()); // still retrying
        EXPECT_STATE(c.qp_a, IBV_QPS_RTS);
        c.qp_b->post_recv({9, {{c.dst->address(), 64, c.dst->lkey()}}});
        const auto sent = collect(*c.cq_a, 1);
        const auto received = collect(*c.cq_b, 1);
        QCOMPARE(sent.size(), 1u);
        QCOMPARE(received.size(), 1u);
        EXPECT_COMPLETION(sent[0], IBV_WC_SUCCESS);
        EXPECT_COMPLETION(received[0], IBV_WC_SUCCESS);
        QCOMPARE(received[0].byte_len, 13u);
        QCOMPARE(std::string(reinterpret_cast<char*>(c.dst->data())), std::string("late receive"));
    }

    void aPeerThatIsGoneExhaustsTheTransportRetries() {
        DevicePair pair;
        pair.qp_a->to_init(1, kAllRemote);
        pair.qp_a->to_rtr(pair.path_to(*pair.qp_b));
        RtsParams rts;
        rts.timeout = 12; // 4.096 µs · 2^12 = 16.8 ms per try
        rts.retry_cnt = 2;
        pair.qp_a->to_rts(rts);
        pair.qp_b.reset(); // the peer's QP no longer exists
        auto src = MemoryRegion::allocate(pair.pd_a, 64, IBV_ACCESS_LOCAL_WRITE);
        SendRequest wr;
        wr.wr_id = 1;
        wr.opcode = IBV_WR_RDMA_WRITE;
        wr.sges = {{src->address(), 64, src->lkey()}};
        wr.remote_addr = 0x1000;
        wr.rkey = 0x1234;
        QElapsedTimer clock;
        clock.start();
        pair.qp_a->post_send(wr);
        const auto wcs = collect(*pair.cq_a, 1, 30s);
        const double elapsed_ms = double(clock.nsecsElapsed()) / 1e6;
        QCOMPARE(wcs.size(), 1u);
        EXPECT_COMPLETION(wcs[0], IBV_WC_RETRY_EXC_ERR);
        EXPECT_STATE(pair.qp_a, IBV_QPS_ERR);
        // (retry_cnt + 1) tries of at least 4.096 µs · 2^timeout each; timers never fire early.
        const double minimum_ms = (rts.retry_cnt + 1) * 4.096e-3 * double(1u << rts.timeout);
        QVERIFY2(elapsed_ms >= minimum_ms * 0.9,
                 qPrintable(QStringLiteral("gave up after %1 ms, expected at least %2 ms")
                                .arg(elapsed_ms)
                                .arg(minimum_ms)));
    }

    void afterAnErrorEveryOutstandingReceiveIsFlushedWithOnlyItsWrIdValid() {
        ConnectedPair c;
        std::vector<std::uint64_t> ids;
        for (std::uint64_t id = 100; id < 105; ++id) {
            c.qp_b->post_recv({id, {{c.dst->address(), 64, c.dst->lkey()}}});
            ids.push_back(id);
        }
        c.qp_b->to_err();
        const auto wcs = collect(*c.cq_b, ids.size());
        QByteArray why;
        QVERIFY2(one_completion_each(wcs, ids, why), why.constData());
        for (std::size_t i = 0; i < wcs.size(); ++i) {
            EXPECT_COMPLETION(wcs[i], IBV_WC_WR_FLUSH_ERR);
            QCOMPARE(wcs[i].wr_id, ids[i]); // flushed in the order they were posted
            QCOMPARE(wcs[i].qp_num, c.qp_b->qp_num());
        }
    }

    void aSendPostedInErrIsAcceptedAndFlushed() {
        ConnectedPair c;
        c.qp_a->to_err();
        c.qp_a->post_send(c.write(1)); // accepted: ERR takes requests and flushes them
        c.qp_a->post_send(c.write(2));
        const auto wcs = collect(*c.cq_a, 2);
        QByteArray why;
        QVERIFY2(one_completion_each(wcs, {1, 2}, why), why.constData());
        for (const auto& wc : wcs)
            EXPECT_COMPLETION(wc, IBV_WC_WR_FLUSH_ERR);
        QCOMPARE(c.dst->data()[0], std::uint8_t(0));
    }

    void aFailedPairRecoversThroughResetInitRtrRts() {
        ConnectedPair c;
        auto wr = c.write(1);
        wr.rkey ^= 0x5a5a00;
        c.qp_a->post_send(wr);
        QCOMPARE(collect(*c.cq_a, 1).size(), 1u);
        EXPECT_STATE(c.qp_a, IBV_QPS_ERR);
        EXPECT_STATE(c.qp_b, IBV_QPS_ERR);
        c.qp_a->to_reset();
        c.qp_b->to_reset();
        EXPECT_STATE(c.qp_a, IBV_QPS_RESET);
        RtsParams rts;
        rts.sq_psn = 500;
        c.connect(rts);
        EXPECT_STATE(c.qp_a, IBV_QPS_RTS);
        EXPECT_STATE(c.qp_b, IBV_QPS_RTS);
        c.qp_a->post_send(c.write(2, 64));
        const auto wcs = collect(*c.cq_a, 1);
        QCOMPARE(wcs.size(), 1u);
        EXPECT_COMPLETION(wcs[0], IBV_WC_SUCCESS);
        QCOMPARE(std::string(reinterpret_cast<char*>(c.dst->data()), 64), std::string(64, 'a'));
    }

    void aFullReceiveQueueRefusesTheNextReceiveWithEnomem() {
        DevicePair pair({.capacity = {.max_recv_wr = 4}});
        pair.qp_b->to_init(1, 0);
        auto mr = MemoryRegion::allocate(pair.pd_b, 64, IBV_ACCESS_LOCAL_WRITE);
        std::optional<ErrorInfo> info;
        std::vector<std::uint64_t> posted;
        for (std::uint64_t i = 0; i < 64 && !info; ++i) {
            info = failure_of([&] { pair.qp_b->post_recv({i, {{mr->address(), 64, mr->lkey()}}}); });
            if (!info) posted.push_back(i);
        }
        EXPECT_ERROR(info, "ibv_post_recv", "ENOMEM");
        QVERIFY2(info->cause.find("full") != std::string::npos, text(*info).constData());
        QVERIFY(posted.size() >= pair.qp_b->capacity().max_recv_wr);
        pair.qp_b->to_err(); // every posted receive is flushed, exactly once
        const auto wcs = collect(*pair.cq_b, posted.size());
        QByteArray why;
        QVERIFY2(one_completion_each(wcs, posted, why), why.constData());
    }

    // ---------------------------------------------------------------- connection manager (rdma_cm)

    void rdmaCmConnectWithNobodyListeningIsRejectedWithReasonEight() {
        const auto outcome = connectWithNobodyListening(cmAddress(), 7911);
        QVERIFY(!outcome.success);
        QVERIFY(outcome.error.has_value());
        QCOMPARE(outcome.error->verb, std::string("rdma_connect"));
        QCOMPARE(outcome.error->code, std::string("RDMA_CM_EVENT_REJECTED"));
        QVERIFY2(outcome.error->cause.find("Nobody listens") != std::string::npos,
                 text(*outcome.error).constData());
    }

    void rdmaCmOnTheLoopbackInterfaceCannotResolveARoute() {
        const auto outcome = connectWithNobodyListening("127.0.0.1", 7912);
        QVERIFY(!outcome.success);
        QVERIFY(outcome.error.has_value());
        QVERIFY2(outcome.error->verb == "rdma_resolve_route" ||
                     outcome.error->code == "RDMA_CM_EVENT_ROUTE_ERROR",
                 text(*outcome.error).constData());
        QVERIFY2(outcome.error->fix.find("loopback") != std::string::npos, text(*outcome.error).constData());
    }

    void rdmaCmToAnAddressWithNoRouteIsAnAddressError() {
        // TEST-NET-1: the test bed has no route there
        const auto outcome = connectWithNobodyListening("192.0.2.1", 7913);
        QVERIFY(!outcome.success);
        QVERIFY(outcome.error.has_value());
        QVERIFY2(outcome.error->code == "RDMA_CM_EVENT_ADDR_ERROR" ||
                     outcome.error->verb == "rdma_resolve_addr",
                 text(*outcome.error).constData());
        QVERIFY2(!outcome.error->cause.empty() && !outcome.error->fix.empty(),
                 text(*outcome.error).constData());
    }

    void rdmaCmPeerThatDiesMidMeasurementEndsTheOtherSideWithAnExplanation() {
        const QString address = cmAddress();
        QProcess listener;
        listener.setProcessChannelMode(QProcess::MergedChannels);
        listener.start(RDMALAB_CLI_PATH, {"bench", "write_lat", "--listen", address, "--cm-port", "7914"});
        QVERIFY(listener.waitForStarted());
        QByteArray out;
        QElapsedTimer clock;
        clock.start();
        while (!out.contains("B: listening") && listener.state() == QProcess::Running &&
               clock.elapsed() < 60000) {
            listener.waitForReadyRead(200);
            out += listener.readAll();
        }
        QVERIFY2(out.contains("B: listening"), out.constData());
        QProcess connector;
        connector.setProcessChannelMode(QProcess::MergedChannels);
        connector.start(RDMALAB_CLI_PATH,
                        {"bench", "write_lat", "--connect", address, "--cm-port", "7914", "--seconds", "60"});
        QVERIFY(connector.waitForStarted());
        QTest::qWait(8000); // connected and measuring (the measurement lasts 60 s)
        QVERIFY2(connector.state() == QProcess::Running, connector.readAll().constData());
        listener.kill(); // SIGKILL: the kernel tears down B's connection and QP
        listener.waitForFinished(10000);
        QVERIFY2(connector.waitForFinished(60000), "the surviving side hangs after its peer died");
        const QByteArray a = connector.readAll();
        QCOMPARE(connector.exitStatus(), QProcess::NormalExit);
        QVERIFY2(connector.exitCode() != 0, a.constData());
        QVERIFY2(a.contains("cause:") && a.contains("fix:"), a.constData());
    }

    // ---------------------------------------------------------------- asynchronous events

    void aCompletionQueueThatOverflowsRaisesCqErr() {
        DevicePair pair({.capacity = {.max_send_wr = 64}, .cqe = 1});
        pair.connect();
        const int capacity = pair.cq_a->get()->cqe; // what the device made of "1"
        auto src = MemoryRegion::allocate(pair.pd_a, 64, IBV_ACCESS_LOCAL_WRITE);
        auto dst = MemoryRegion::allocate(pair.pd_b, 64, kAllRemote);
        pair.context->poll_async_events();
        SendRequest wr;
        wr.opcode = IBV_WR_RDMA_WRITE;
        wr.sges = {{src->address(), 8, src->lkey()}};
        wr.remote_addr = dst->address();
        wr.rkey = dst->rkey();
        for (int i = 0; i <= capacity + 1; ++i) { // more completions than the CQ holds, none polled
            wr.wr_id = std::uint64_t(i);
            pair.qp_a->post_send(wr);
        }
        std::vector<AsyncEvent> events;
        for (int i = 0; i < 100 && events.empty(); ++i) {
            for (const auto& e : pair.context->poll_async_events())
                if (e.type == IBV_EVENT_CQ_ERR) events.push_back(e);
            QThread::msleep(50);
        }
        QVERIFY2(!events.empty(), "no IBV_EVENT_CQ_ERR after overflowing the completion queue");
        QCOMPARE(events.front().name, std::string("IBV_EVENT_CQ_ERR"));
        QVERIFY2(!events.front().meaning.empty(), events.front().name.c_str());
    }

  private:
    /// The rows of OneRequest: A's one request to B's region, its one completion and both QPs' states;
    /// neither A's nor B's region changed.
    void checkOneRequest() {
        QFETCH(OneRequest, request);
        ConnectedPair c(request.dst_access);
        const QByteArray src_before = bytes(*c.src), dst_before = bytes(*c.dst);
        c.qp_a->post_send(request.request(c));
        const auto wcs = collect(*c.cq_a, 1);
        QCOMPARE(wcs.size(), 1u);
        QCOMPARE(wcs[0].wr_id, 1u);
        EXPECT_COMPLETION(wcs[0], request.status);
        EXPECT_STATE(c.qp_a, request.a_after);
        EXPECT_STATE(c.qp_b, request.b_after);
        QVERIFY2(bytes(*c.dst) == dst_before, "B's region changed");
        QVERIFY2(bytes(*c.src) == src_before, "A's region changed");
    }
};

QTEST_GUILESS_MAIN(FailuresTest)
#include "tst_failures.moc"
