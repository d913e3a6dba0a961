// Every operation and every fault on the real device, through LoopbackOperation (what `op` and the app use).
#include "testutil.hpp"

#include "rdmalab/operation.hpp"

#include <QtTest>

using namespace rdmalab;

namespace {

struct Run {
    std::shared_ptr<MemorySink> sink = std::make_shared<MemorySink>();
    std::unique_ptr<LoopbackOperation> op;
};

Run perform(OperationOptions options) {
    Run run;
    auto tracer = std::make_shared<Tracer>();
    tracer->add_sink(run.sink);
    run.op = std::make_unique<LoopbackOperation>(options, tracer);
    run.op->run_all();
    return run;
}

OperationOptions options_for(OpKind op, std::size_t size = 100) {
    OperationOptions o;
    o.op = op;
    o.size = size;
    o.message = "rdmalab moves bytes ";
    return o;
}

std::string expected_bytes(const OperationOptions& o) {
    std::string s;
    for (std::size_t i = 0; i < o.size; ++i)
        s.push_back(o.message[i % o.message.size()]);
    return s;
}

std::string bytes_of(const std::shared_ptr<MemoryRegion>& mr) {
    return std::string(reinterpret_cast<const char*>(mr->data()), mr->length());
}

int count(const std::vector<TraceEvent>& events, EventKind kind, const std::string& name = {}) {
    int n = 0;
    for (const auto& e : events)
        if (e.kind == kind && (name.empty() || e.name == name)) ++n;
    return n;
}

} // namespace

class OperationsTest : public QObject {
    Q_OBJECT
  private slots:
    void init() { RDMALAB_REQUIRE_DEVICE(); }
    void cleanup() { RDMALAB_CHECK_RESOURCES(); }

    void sendMovesBytesIntoPostedReceive() {
        const auto o = options_for(OpKind::Send, 200);
        auto run = perform(o);
        const auto& out = run.op->outcome();
        QVERIFY2(out.success, out.summary.c_str());
        QCOMPARE(bytes_of(run.op->region(Endpoint::B)), expected_bytes(o));
        QCOMPARE(out.requester_completion->opcode, IBV_WC_SEND);
        QCOMPARE(out.responder_completion->opcode, IBV_WC_RECV);
        QCOMPARE(out.responder_completion->byte_len, 200u);
        QVERIFY(!out.responder_completion->imm_data);
        QCOMPARE(out.requester_qp_state, std::string("RTS"));
    }

    void sendWithImmediateDeliversImmData() {
        auto o = options_for(OpKind::SendImm, 64);
        o.imm_data = 0xC0FFEE;
        auto run = perform(o);
        const auto& out = run.op->outcome();
        QVERIFY2(out.success, out.summary.c_str());
        QCOMPARE(out.responder_completion->imm_data.value_or(0), 0xC0FFEEu);
        QCOMPARE(out.responder_completion->byte_len, 64u);
        QCOMPARE(bytes_of(run.op->region(Endpoint::B)), expected_bytes(o));
    }

    void rdmaWritePlacesBytesWithoutResponderCompletion() {
        const auto o = options_for(OpKind::Write, 4096 + 17); // more than one MTU: several packets
        auto run = perform(o);
        const auto& out = run.op->outcome();
        QVERIFY2(out.success, out.summary.c_str());
        QCOMPARE(bytes_of(run.op->region(Endpoint::B)), expected_bytes(o));
        QCOMPARE(out.requester_completion->opcode, IBV_WC_RDMA_WRITE);
        QVERIFY(!out.responder_completion); // one-sided: B's CPU and CQ see nothing
        const auto events = run.sink->events();
        QCOMPARE(count(events, EventKind::Wc), 1);
        QCOMPARE(count(events, EventKind::QpState), 6);
    }

    void rdmaWriteWithImmediateConsumesAReceive() {
        auto o = options_for(OpKind::WriteImm, 300);
        o.imm_data = 77;
        auto run = perform(o);
        const auto& out = run.op->outcome();
        QVERIFY2(out.success, out.summary.c_str());
        QCOMPARE(out.responder_completion->opcode, IBV_WC_RECV_RDMA_WITH_IMM);
        QCOMPARE(out.responder_completion->imm_data.value_or(0), 77u);
        QCOMPARE(out.responder_completion->byte_len, 300u);
        QCOMPARE(bytes_of(run.op->region(Endpoint::B)), expected_bytes(o));
    }

    void rdmaReadBringsRemoteBytesBack() {
        const auto o = options_for(OpKind::Read, 1500);
        auto run = perform(o);
        const auto& out = run.op->outcome();
        QVERIFY2(out.success, out.summary.c_str());
        QCOMPARE(bytes_of(run.op->region(Endpoint::A)), expected_bytes(o));
        QCOMPARE(out.requester_completion->opcode, IBV_WC_RDMA_READ);
        QCOMPARE(out.requester_completion->byte_len, 1500u);
    }

    void compareAndSwapReturnsOldValueAndSwaps() {
        auto o = options_for(OpKind::CompareSwap, 8);
        o.atomic_initial = 41;
        o.atomic_operand = 1234567;
        auto run = perform(o);
        const auto& out = run.op->outcome();
        QVERIFY2(out.success, out.summary.c_str());
        std::uint64_t remote = 0, old = 0;
        std::memcpy(&remote, run.op->region(Endpoint::B)->data(), 8);
        std::memcpy(&old, run.op->region(Endpoint::A)->data(), 8);
        QCOMPARE(old, 41u);
        QCOMPARE(remote, 1234567u);
        QCOMPARE(out.requester_completion->opcode, IBV_WC_COMP_SWAP);
    }

    void fetchAndAddReturnsOldValueAndAdds() {
        auto o = options_for(OpKind::FetchAdd, 8);
        o.atomic_initial = 1000;
        o.atomic_operand = 24;
        auto run = perform(o);
        const auto& out = run.op->outcome();
        QVERIFY2(out.success, out.summary.c_str());
        std::uint64_t remote = 0, old = 0;
        std::memcpy(&remote, run.op->region(Endpoint::B)->data(), 8);
        std::memcpy(&old, run.op->region(Endpoint::A)->data(), 8);
        QCOMPARE(old, 1000u);
        QCOMPARE(remote, 1024u);
        QCOMPARE(out.requester_completion->opcode, IBV_WC_FETCH_ADD);
    }

    void faultBadRkeyIsRemoteAccessError() {
        checkFault(OpKind::Write, FaultKind::BadRkey, IBV_WC_REM_ACCESS_ERR);
    }
    void faultNoRemoteAccessIsRemoteAccessError() {
        checkFault(OpKind::Write, FaultKind::NoRemoteAccess, IBV_WC_REM_ACCESS_ERR);
    }
    void faultOutOfBoundsIsRemoteAccessError() {
        checkFault(OpKind::Read, FaultKind::OutOfBounds, IBV_WC_REM_ACCESS_ERR);
    }
    void faultNoRecvIsRnrRetryExceeded() {
        checkFault(OpKind::Send, FaultKind::NoRecv, IBV_WC_RNR_RETRY_EXC_ERR);
    }

    void stepByStepRunsOneStepPerCall() {
        auto tracer = std::make_shared<Tracer>();
        auto sink = std::make_shared<MemorySink>();
        tracer->add_sink(sink);
        LoopbackOperation op(options_for(OpKind::Write, 32), tracer);
        const auto total = op.steps().size();
        QVERIFY(total >= 15);
        QVERIFY(op.run_next()); // open device
        QVERIFY(op.run_next()); // PD A
        QCOMPARE(count(sink->events(), EventKind::Verb, "ibv_alloc_pd"), 1);
        QCOMPARE(count(sink->events(), EventKind::Verb, "ibv_reg_mr"), 0);
        while (!op.done())
            QVERIFY(op.run_next());
        QCOMPARE(op.next_step(), total);
        QVERIFY(op.outcome().success);
        QCOMPARE(count(sink->events(), EventKind::Step), static_cast<int>(total));
    }

  private:
    void checkFault(OpKind kind, FaultKind fault, ibv_wc_status status) {
        auto o = options_for(kind, 64);
        o.fault = fault;
        auto run = perform(o);
        const auto& out = run.op->outcome();
        QVERIFY2(out.success, (out.summary + "\n" + (out.error ? out.error->to_string() : "")).c_str());
        QCOMPARE(out.requester_completion->status, status);
        QCOMPARE(out.requester_qp_state, std::string("ERR"));
        QVERIFY(out.error.has_value());
        QVERIFY(!out.error->cause.empty());
        QCOMPARE(count(run.sink->events(), EventKind::Wc, "IBV_WC_WR_FLUSH_ERR"), 1);
    }
};

QTEST_GUILESS_MAIN(OperationsTest)
#include "tst_operations.moc"
