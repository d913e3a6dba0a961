// Every operation and every fault on the real device, through LoopbackOperation (what `op` and the app use).
#include "testutil.hpp"

#include "rdmalab/engine/device.hpp"
#include "rdmalab/engine/operation.hpp"
#include "rdmalab/engine/syscount.hpp"

#include <QtTest>

#include <sys/syscall.h>
#include <unistd.h>

#include <thread>

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

bool isRxe() {
    const auto devices = list_devices();
    return !devices.empty() && devices.front().driver == "rxe";
}

/// The system calls each post and poll of a run made, as its events say: "post_send_A SEND 1", ...
/// (step id, event name, data.syscalls), in order; `why` collects any syscalls_why.
QStringList syscallsByStep(const std::vector<TraceEvent>& events, QString& why) {
    QStringList out;
    std::string step;
    for (const auto& e : events) {
        if (e.kind == EventKind::Step) step = e.name;
        const bool post = e.kind == EventKind::PostWr;
        const bool poll = e.kind == EventKind::Verb && e.name == "ibv_poll_cq";
        if (!post && !poll) continue;
        if (e.data.contains("syscalls_why"))
            why += QString::fromStdString(e.data["syscalls_why"].get<std::string>());
        out << QStringLiteral("%1 %2 %3")
                   .arg(QString::fromStdString(step), QString::fromStdString(e.name),
                        e.data.contains("syscalls") ? QString::number(e.data["syscalls"].get<qint64>())
                                                    : QStringLiteral("missing"));
    }
    return out;
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

    void aSyscallMeterCountsExactlyTheSystemCallsInsideItsBracket() {
        const SyscallMeter meter;
        if (!meter.available()) {
            if (rdmalab::test::deviceRequired()) QFAIL(meter.why().c_str());
            QSKIP(meter.why().c_str());
        }
        QCOMPARE(meter.bracket_cost(), 1u); // the counter's second read() is the bracket's one system call
        SyscallTally tally;
        QCOMPARE(meter.count([] { return 6 * 7; }, tally), 42);
        QCOMPARE(tally.count, 0u);
        QCOMPARE(meter.count([] { return ::syscall(SYS_getppid) > 0 && ::syscall(SYS_getppid) > 0; }, tally),
                 true);
        QCOMPARE(tally.count, 2u);
        QCOMPARE(tally.counted, 2u);
        QVERIFY(tally.why.empty());
        // Another thread's calls are not the counted thread's: the meter says so instead of a number.
        SyscallTally elsewhere;
        std::thread([&] { meter.count([] { return ::syscall(SYS_getppid); }, elsewhere); }).join();
        QCOMPARE(elsewhere.counted, 0u);
        QVERIFY(!elsewhere.why.empty());
    }

    void postSendEntersTheKernelAndPostRecvAndPollCqDoNot() {
        // On rxe every ibv_post_send is one system call: rdma-core's provider (providers/rxe/rxe.c)
        // writes the work request into the send queue mapped into the process, then post_send_db()
        // rings the doorbell with one write() of IB_USER_VERBS_CMD_POST_SEND on the uverbs file
        // descriptor, and the kernel's rxe_post_send() runs the requester in that call. rxe_post_recv()
        // only writes the mapped receive queue and rxe_poll_cq() only reads the mapped completion
        // queue: no system call. The fault run adds a post to a QP in ERR (still one write()) and the
        // poll of its flush.
        auto send = perform(options_for(OpKind::Send, 64));
        QVERIFY2(send.op->outcome().success, send.op->outcome().summary.c_str());
        auto fault = options_for(OpKind::Write, 64);
        fault.fault = FaultKind::BadRkey;
        auto faulted = perform(fault);
        QVERIFY2(faulted.op->outcome().success, faulted.op->outcome().summary.c_str());
        QString why;
        const auto sendCalls = syscallsByStep(send.sink->events(), why);
        const auto faultCalls = syscallsByStep(faulted.sink->events(), why);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        if (!isRxe()) { // another device: every post and poll is counted, whatever it costs there
            for (const auto& line : sendCalls + faultCalls)
                QVERIFY2(!line.endsWith(QLatin1String("missing")), qPrintable(line));
            return;
        }
        QCOMPARE(sendCalls, (QStringList{"post_recv_B RECV 0", "post_send_A SEND 1",
                                         "poll_cq_A ibv_poll_cq 0", "poll_cq_B ibv_poll_cq 0"}));
        QCOMPARE(faultCalls, (QStringList{"post_send_A RDMA_WRITE 1", "poll_cq_A ibv_poll_cq 0",
                                          "post_after_fault_A SEND 1", "poll_flush_A ibv_poll_cq 0"}));
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
