// Labs performed on the real device by the runner (engine/labrun): the worked example of lab-format.md, the
// runner's test labs (tests/data/labs-run: every kind of action and expectation), a lab whose step fails
// unexpectedly in the middle, `rdmalab-cli lab run` (text, --json, --all) and the engine process's lab
// commands. Every test compares the kernel's RDMA resource counts before and after (init/cleanup), and the
// in-process runs compare them again right after teardown, while the process still holds the device.
#include "testutil.hpp"

#include "rdmalab/engine/memlock.hpp"
#include "rdmalab/engine/names.hpp"
#include "rdmalab/labrun/lab_run.hpp"
#include "rdmalab/labrun/workbench.hpp"
#include "rdmalab/labs/lab.hpp"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QtTest>

#include <arpa/inet.h>
#include <nlohmann/json.hpp>
#include <rdma/rdma_cma.h>

#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <functional>
#include <optional>

using namespace rdmalab;

namespace {

const QString kSource = RDMALAB_SOURCE_DIR;
const std::string kExample =
    (RDMALAB_SOURCE_DIR + QStringLiteral("/tests/data/labs/write-needs-remote-write.yaml")).toStdString();
const std::string kRunDir = (RDMALAB_SOURCE_DIR + QStringLiteral("/tests/data/labs-run")).toStdString();
const std::string kSaysWrong =
    (RDMALAB_SOURCE_DIR + QStringLiteral("/tests/data/labs-run-fail/run-says-wrong.yaml")).toStdString();
const std::string kMidFailure =
    (RDMALAB_SOURCE_DIR + QStringLiteral("/tests/data/labs-run-fail/run-mid-failure.yaml")).toStdString();

struct Ran {
    std::shared_ptr<MemorySink> sink = std::make_shared<MemorySink>();
    std::unique_ptr<labs::LabRun> run;
    std::vector<TraceEvent> events() const { return sink->events(); }
};

/// librdmacm opens a device's context the first time an id binds to that device and keeps it open until
/// the process ends (rdma-core's ucma_put_device drops the PD, never the context). Binding one id to the
/// test bed's rdma_cm address before any count makes that context part of every "before": the counts then
/// show whether the labs' own ids, QPs, CQs and PDs are gone, which is what they are for.
void openRdmaCmContextOnce() {
    const QByteArray address = qgetenv("RDMALAB_CM_ADDR");
    if (address.isEmpty()) return;
    rdma_event_channel* channel = rdma_create_event_channel();
    if (!channel) return;
    rdma_cm_id* id = nullptr;
    if (rdma_create_id(channel, &id, nullptr, RDMA_PS_TCP) == 0) {
        sockaddr_in where{};
        where.sin_family = AF_INET;
        if (inet_pton(AF_INET, address.constData(), &where.sin_addr) == 1)
            (void)rdma_bind_addr(id, reinterpret_cast<sockaddr*>(&where));
        rdma_destroy_id(id);
    }
    rdma_destroy_event_channel(channel);
}

/// Loads, instantiates and runs a lab in this process; the run is torn down when this returns.
Ran perform(const std::string& id_or_file, const labs::ParameterValues& parameters = {},
            const std::string& language = "en") {
    Ran ran;
    labs::LabError error;
    auto lab = labs::prepare_lab(id_or_file, parameters, kRunDir, error);
    if (!lab) qFatal("%s", error.to_string().c_str());
    auto tracer = std::make_shared<Tracer>();
    tracer->add_sink(ran.sink);
    labs::LabRunOptions options;
    options.language = language;
    options.parameters = parameters;
    ran.run = std::make_unique<labs::LabRun>(std::move(*lab), tracer, options);
    ran.run->run_all();
    return ran;
}

std::size_t indexOf(const labs::LabRun& run, const std::string& id) {
    for (std::size_t i = 0; i < run.steps().size(); ++i)
        if (run.steps()[i].id == id) return i;
    qFatal("no step %s", id.c_str());
}

/// Every broken expectation of a run, one per line, for failure messages.
QByteArray broken(const labs::LabRun& run) {
    QByteArray out;
    for (std::size_t i = 0; i < run.steps().size(); ++i) {
        const auto& o = run.outcome(i);
        if (o.error && o.failed_unexpectedly)
            out += QByteArray::fromStdString(o.id + ": " + o.error->to_string()) + '\n';
        for (const auto& e : o.expectations)
            if (!e.held)
                out += QByteArray::fromStdString(o.id + ": " + e.kind + " " + e.description + " -> " +
                                                 e.observed) +
                       '\n';
    }
    return out;
}

std::string value(const labs::LabRun& run, const std::string& path) {
    const auto values = run.values();
    const auto it = values.find(path);
    return it == values.end() ? "<missing " + path + ">" : it->second;
}

/// Positions of the events named `name` (of kind verb) in order.
std::vector<std::size_t> positions(const std::vector<TraceEvent>& events, const std::string& name) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < events.size(); ++i)
        if (events[i].kind == EventKind::Verb && events[i].name == name) out.push_back(i);
    return out;
}

using Events = std::vector<TraceEvent>;
/// A test lab's own checks, of its run and the events it traced.
using TestLabChecks = std::function<void(const labs::LabRun& run, const Events& events)>;

} // namespace

class TestLabs : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() { openRdmaCmContextOnce(); }
    void init() { RDMALAB_REQUIRE_DEVICE(); }
    void cleanup() { RDMALAB_CHECK_RESOURCES(); }

    void runnerHasAFunctionForEveryAction() { QVERIFY(labs::runner_implements_every_action()); }

    void workedExampleHoldsEveryExpectation() {
        const auto before = test::rdmaResourceCounts();
        const Ran ran = perform(kExample);
        const auto& run = *ran.run;
        QVERIFY2(run.all_held(), broken(run).constData());
        QVERIFY(run.done());
        QCOMPARE(run.broken_count(), std::size_t(0));
        const auto poll = run.outcome(indexOf(run, "poll_a"));
        QCOMPARE(labs::to_string(poll.state), "held");
        QCOMPARE(poll.results.at("status"), std::string("rem_access_err"));
        const auto completion = std::find_if(poll.expectations.begin(), poll.expectations.end(),
                                             [](const auto& e) { return e.kind == "completion"; });
        QVERIFY(completion != poll.expectations.end());
        QVERIFY2(completion->observed.find("status=rem_access_err") != std::string::npos,
                 completion->observed.c_str());
        QCOMPARE(value(run, "poll_a.status"), std::string("rem_access_err"));
        // The explanation is rendered with what the device showed.
        QCOMPARE(run.step_text(indexOf(run, "poll_a")),
                 std::string("A's completion says rem_access_err; A's QP is now in the error state."));
        QVERIFY(run.step_text(0).find("The lab runs on rxe") == 0);

        const auto events = ran.events();
        QCOMPARE(std::count_if(events.begin(), events.end(),
                               [](const auto& e) { return e.kind == EventKind::Step; }),
                 13);
        QVERIFY(std::none_of(events.begin(), events.end(),
                             [](const auto& e) { return e.kind == EventKind::Check && e.name == "broken"; }));
        const auto held = std::count_if(events.begin(), events.end(), [](const auto& e) {
            return e.kind == EventKind::Check && e.name == "held";
        });
        QCOMPARE(std::size_t(held), run.held_count());
        // The objects of A and B are attributed to their endpoints.
        const auto reg = positions(events, "ibv_reg_mr");
        QCOMPARE(reg.size(), std::size_t(2));
        QCOMPARE(events[reg[0]].endpoint, Endpoint::A);
        QCOMPARE(events[reg[1]].endpoint, Endpoint::B);
        // Teardown: children before parents, the device last, every destroy traced.
        const auto qps = positions(events, "ibv_destroy_qp");
        const auto cqs = positions(events, "ibv_destroy_cq");
        const auto mrs = positions(events, "ibv_dereg_mr");
        const auto pds = positions(events, "ibv_dealloc_pd");
        const auto close = positions(events, "ibv_close_device");
        QCOMPARE(qps.size(), std::size_t(2));
        QCOMPARE(cqs.size(), std::size_t(2));
        QCOMPARE(mrs.size(), std::size_t(2));
        QCOMPARE(pds.size(), std::size_t(2));
        QCOMPARE(close.size(), std::size_t(1));
        QVERIFY(qps.back() < cqs.front() && cqs.back() < mrs.front() && mrs.back() < pds.front() &&
                pds.back() < close.front());
        for (const auto i : {qps[0], qps[1], cqs[0], mrs[0], pds[0], close[0]})
            QCOMPARE(events[i].data.value("ret", -1), 0);
        QCOMPARE(test::rdmaResourceCounts().describe(), before.describe());
    }

    void workedExampleInChineseWithAParameter() {
        const Ran ran = perform(kExample, {{"size", "4KiB"}}, "zh");
        const auto& run = *ran.run;
        QVERIFY2(run.all_held(), broken(run).constData());
        QCOMPARE(value(run, "size"), std::string("4096"));
        QCOMPARE(value(run, "B.buf.length"), std::string("4096"));
        QCOMPARE(run.step_text(indexOf(run, "write")),
                 std::string("A 向 B 的区域投递一个 4096 字节的 WRITE。"));
        QCOMPARE(run.step_title(0), std::string("打开设备"));
    }

    void writeThatSucceedsMovesTheBytes() {
        checkTestLab("run-write-bytes", [](const labs::LabRun& run, const Events&) {
            QCOMPARE(value(run, "poll_a.status"), std::string("success"));
            QCOMPARE(value(run, "poll_a.opcode"), std::string("rdma_write"));
            QCOMPARE(value(run, "poll_a.byte_len"), std::string("64"));
            QCOMPARE(value(run, "b_nothing.count"), std::string("0"));
            QVERIFY(value(run, "B.buf.rkey").rfind("0x", 0) == 0);
        });
    }
    void sendIntoAPostedReceiveWithAnEvent() {
        checkTestLab("run-send-recv", [](const labs::LabRun& run, const Events&) {
            // poll_a: succeeds, completions, then completion ×3 (any device, software only, hardware only).
            const auto& sent = run.outcome(indexOf(run, "poll_a")).expectations;
            QCOMPARE(sent.size(), std::size_t(5));
            QVERIFY(sent.at(3).applies && sent.at(3).held);
            QVERIFY(!sent.at(4).applies);
            QVERIFY2(sent.at(4).observed.find("not checked: this expectation is for hardware devices") == 0,
                     sent.at(4).observed.c_str());
            QCOMPARE(value(run, "poll_b.opcode"), std::string("recv"));
            QCOMPARE(value(run, "poll_b.byte_len"), std::string("32"));
            QCOMPARE(value(run, "poll_b.imm"), std::string("0x1234"));
            QCOMPARE(value(run, "wake.arrived"), std::string("yes"));
            QCOMPARE(value(run, "recv.posted"), std::string("1"));
        });
    }
    void expectedFailuresHoldAndTheRunContinues() {
        checkTestLab("run-fails", [](const labs::LabRun& run, const Events& events) {
            QCOMPARE(run.outcome(indexOf(run, "no_local_write")).error->err, EINVAL);
            QCOMPARE(run.outcome(indexOf(run, "read_only_writable")).error->err, EFAULT);
            QCOMPARE(run.outcome(indexOf(run, "busy")).error->err, EBUSY);
            QCOMPARE(run.outcome(indexOf(run, "busy")).error->verb, std::string("ibv_dealloc_pd"));
            QVERIFY(!run.outcome(indexOf(run, "read_only_readable")).error);
            QCOMPARE(value(run, "no_local_write.errno"), std::string("EINVAL"));
            // The explicit dealloc is traced once; teardown does not free the PD again.
            QCOMPARE(positions(events, "ibv_dealloc_pd").size(), std::size_t(2)); // EBUSY, then success
        });
    }
    void aMissingMaskBitLeavesTheQpInInit() {
        checkTestLab("run-modify-mask", [](const labs::LabRun& run, const Events&) {
            const auto& refused = run.outcome(indexOf(run, "rtr_no_av"));
            QVERIFY(refused.error);
            QCOMPARE(refused.error->verb, std::string("ibv_modify_qp"));
            QCOMPARE(refused.error->err, EINVAL);
            QVERIFY2(refused.error->cause.find("missing required AV") != std::string::npos,
                     refused.error->cause.c_str());
            // The same explanation in Chinese, as a Chinese run or app shows it.
            const std::string zh = refused.error->to_string("zh");
            QVERIFY2(zh.find("ibv_modify_qp 失败：EINVAL（无效的参数）") == 0 &&
                         zh.find("缺少必需的 AV") != std::string::npos,
                     zh.c_str());
            QCOMPARE(refused.expectations.at(1).observed, std::string("A.qp is init (ibv_query_qp)"));
            QCOMPARE(value(run, "query.state"), std::string("init"));
            QCOMPARE(value(run, "back.to"), std::string("reset"));
        });
    }
    void chainedSelectivelySignaledWrites() {
        checkTestLab("run-batch", [](const labs::LabRun& run, const Events& events) {
            QCOMPARE(value(run, "batch.posted"), std::string("8"));
            QCOMPARE(value(run, "batch.calls"), std::string("2"));
            QCOMPARE(value(run, "poll.count"), std::string("2"));
            int chains = 0;
            for (const auto& e : events)
                if (e.kind == EventKind::PostWr && e.data.value("chain", 0) == 4) ++chains;
            QCOMPARE(chains, 2); // two ibv_post_send calls of four chained requests each
        });
    }
    void aMeasurementAndAComparison() {
        checkTestLab("run-bench", [](const labs::LabRun& run, const Events&) {
            QVERIFY(std::stoll(value(run, "lat.p50_ns")) > 0);
            QCOMPARE(value(run, "lat.device").rfind("rxe", 0), std::size_t(0));
        });
    }
    void aUdDatagramThroughAnAddressHandle() {
        checkTestLab("run-ud", [](const labs::LabRun& run, const Events& events) {
            QCOMPARE(value(run, "poll.count"), std::string("2"));
            const auto ah = positions(events, "ibv_create_ah");
            QCOMPARE(ah.size(), std::size_t(1));
            QCOMPARE(events[ah[0]].data.value("ret", -1), 0);
        });
    }
    void queriesWritesSqdAndErr() {
        checkTestLab("run-queries", [](const labs::LabRun& run, const Events& events) {
            QCOMPARE(value(run, "port.state"), std::string("active"));
            QCOMPARE(value(run, "dev.max_inline_data"), std::string("not reported"));
            QVERIFY(value(run, "gids.table").find("RoCE v2") != std::string::npos);
            QCOMPARE(std::stoull(value(run, "A.buf.addr"), nullptr, 16) % 4096, 64ull); // 64 into a page
            QCOMPARE(value(run, "drain.to"), std::string("sqd"));
            QCOMPARE(value(run, "B.qp.state"), std::string("err"));
            QCOMPARE(positions(events, "ibv_query_gid_table").size(), std::size_t(1));
        });
    }
    void anRcConnectionThroughRdmaCm() {
        checkTestLab("run-cm", [](const labs::LabRun& run, const Events& events) {
            // Private data both ways: the REQ's on the listener's connect_request (its buffer is the REQ's
            // whole private-data space, 56 bytes, zero-padded), the REP's on A's established.
            QCOMPARE(value(run, "request.private_data"), std::string("hello from A"));
            QCOMPARE(value(run, "est_a.private_data"), std::string("welcome, A"));
            QCOMPARE(value(run, "request.private_data_len"), std::string("56"));
            QCOMPARE(value(run, "refused.status"), std::string("8")); // IB_CM_REJ_INVALID_SERVICE_ID
            QCOMPARE(value(run, "B.listen.port"), std::string("7490"));
            QCOMPARE(value(run, "B.conn.device"), value(run, "device.name"));
            // Teardown: each QP by rdma_destroy_qp before any id goes; five ids (the listener, A's, the
            // request's, C's and open_device's), four channels (the request's id shares the listener's).
            const auto qps = positions(events, "rdma_destroy_qp");
            const auto ids = positions(events, "rdma_destroy_id");
            const auto channels = positions(events, "rdma_destroy_event_channel");
            QCOMPARE(qps.size(), std::size_t(3));
            QCOMPARE(ids.size(), std::size_t(5));
            QCOMPARE(channels.size(), std::size_t(4));
            QVERIFY(positions(events, "ibv_destroy_qp").empty());
            QVERIFY(qps.back() < ids.front());
            for (const auto i : ids)
                QCOMPARE(events[i].data.value("ret", -1), 0);
        });
    }
    void oneUdSendReachesEveryMulticastMember() {
        checkTestLab("run-mcast", [](const labs::LabRun& run, const Events& events) {
            QCOMPARE(value(run, "join_a.qpn"), std::string("0xffffff"));
            QCOMPARE(value(run, "join_b.qkey"), value(run, "join_a.qkey"));
            QCOMPARE(value(run, "got_a.src_qp"), value(run, "D.qp.qpn"));
            // C left by its step, A and B at teardown, each before its QP is destroyed.
            const auto leaves = positions(events, "rdma_leave_multicast");
            QCOMPARE(leaves.size(), std::size_t(3));
            QVERIFY(leaves.back() < positions(events, "rdma_destroy_qp").front());
        });
    }
    void twoQpsConsumeOneSharedReceiveQueue() {
        checkTestLab("run-srq", [](const labs::LabRun& run, const Events& events) {
            QCOMPARE(value(run, "fill.posted"), std::string("7"));
            QCOMPARE(value(run, "full.posted"), std::string("0"));
            QCOMPARE(run.outcome(indexOf(run, "full")).error->verb, std::string("ibv_post_srq_recv"));
            QCOMPARE(value(run, "event.type"), std::string("srq_limit_reached"));
            QCOMPARE(value(run, "event.object"), std::string("B.srq"));
            QCOMPARE(value(run, "disarmed.limit"), std::string("0"));
            // The two receives came from the SRQ through two different QPs of B.
            QVERIFY(value(run, "poll_b.qp_num") == value(run, "B.q1.qpn") ||
                    value(run, "poll_b.qp_num") == value(run, "B.q2.qpn"));
            QCOMPARE(positions(events, "ibv_create_srq").size(), std::size_t(1));
            QCOMPARE(positions(events, "ibv_destroy_srq").size(), std::size_t(1));
            QCOMPARE(positions(events, "ibv_modify_srq").size(), std::size_t(1));
            std::size_t limit_events = 0;
            for (const auto& e : events)
                if (e.kind == EventKind::Async && e.name == "IBV_EVENT_SRQ_LIMIT_REACHED") ++limit_events;
            QCOMPARE(limit_events, std::size_t(1));
        });
    }
    void aWindowsKeyWorksThenFailsAfterInvalidation() {
        checkTestLab("run-mw", [](const labs::LabRun& run, const Events& events) {
            QVERIFY(value(run, "rebind1.rkey") != value(run, "bind1.rkey"));
            QCOMPARE(value(run, "pwrite2.status"), std::string("rem_access_err"));
            QCOMPARE(value(run, "pregion.status"), std::string("success"));
            QCOMPARE(positions(events, "ibv_alloc_mw").size(), std::size_t(2));
            QCOMPARE(positions(events, "ibv_dealloc_mw").size(), std::size_t(2)); // free2, then teardown
            auto posts = [&](const std::string& name, const std::string& verb) {
                std::size_t n = 0;
                for (const auto& e : events)
                    if (e.kind == EventKind::PostWr && e.name == name && e.data.value("verb", "") == verb &&
                        e.data.value("ret", -1) == 0)
                        ++n;
                return n;
            };
            QCOMPARE(posts("BIND_MW", "ibv_bind_mw"), std::size_t(2));   // type 1: bind, rebind
            QCOMPARE(posts("BIND_MW", "ibv_post_send"), std::size_t(1)); // type 2: a work request
            QCOMPARE(posts("SEND_WITH_INV", "ibv_post_send"), std::size_t(1));
        });
    }
    void aCqOverrunRaisesCqErrOnTheAsyncFd() {
        checkTestLab("run-async", [](const labs::LabRun& run, const Events&) {
            QCOMPARE(value(run, "small.cqe"), std::string("1"));
            QCOMPARE(value(run, "overrun.object"), std::string("A.small"));
            QCOMPARE(value(run, "overrun.types"), std::string("cq_err,cq_err"));
            QCOMPARE(value(run, "quiet.count"), std::string("0"));
        });
    }
    void aLoweredMemlockLimitRefusesAndIsRestored() {
        const bool ipc_lock_before = thread_has_ipc_lock();
        checkTestLab("run-memlock", [&](const labs::LabRun& run, const Events& events) {
            const auto& refused = run.outcome(indexOf(run, "big"));
            QCOMPARE(refused.error->verb, std::string("ibv_reg_mr"));
            QCOMPARE(refused.error->err, ENOMEM);
            QVERIFY2(refused.error->cause.find("65536") != std::string::npos ||
                         refused.error->cause.find("64 KiB") != std::string::npos,
                     refused.error->cause.c_str()); // the explanation names the lowered limit
            QCOMPARE(run.outcome(indexOf(run, "one_more_page")).error->err, ENOMEM);
            QCOMPARE(value(run, "lower.limit"), std::string("65536"));
            // Lowered once and restored once, on this thread; the capability comes back if it was dropped.
            QCOMPARE(positions(events, "setrlimit").size(), std::size_t(2));
            QCOMPARE(positions(events, "capset").size(), std::size_t(ipc_lock_before ? 2 : 0));
            QCOMPARE(value(run, "lower.cap_ipc_lock"), std::string(ipc_lock_before ? "dropped" : "not held"));
        });
    }
    void extendedQueryQpAtomicWriteAndXrcd() {
        checkTestLab("run-extended", [](const labs::LabRun& run, const Events& events) {
            QCOMPARE(positions(events, "ibv_query_device_ex").size(), std::size_t(1));
            QVERIFY(value(run, "caps.cap_flags_ex").rfind("0x", 0) == 0);
            const auto created = positions(events, "ibv_create_qp_ex");
            QCOMPARE(created.size(), std::size_t(2));
            QCOMPARE(events[created[0]].data["args"]["send_ops_flags"],
                     nlohmann::json({"RDMA_WRITE", "ATOMIC_WRITE"}));
            QCOMPARE(value(run, "qp_a.send_ops"), std::string("write,atomic_write"));
            QCOMPARE(value(run, "qp_b.send_ops"), std::string("none"));
            // The engine refuses an Atomic Write on a QP that did not ask for it, without calling the
            // provider (its wr_atomic_write is a null pointer there).
            const auto& refused = run.outcome(indexOf(run, "not_asked")).error;
            QCOMPARE(refused->err, EOPNOTSUPP);
            QVERIFY2(refused->cause.find("IBV_QP_EX_WITH_ATOMIC_WRITE") != std::string::npos,
                     refused->cause.c_str());
            int posted = 0;
            for (const auto& e : events)
                if (e.kind == EventKind::PostWr && e.name == "ATOMIC_WRITE" &&
                    e.data.value("verb", "") == "ibv_wr_atomic_write" && e.data.value("ret", -1) == 0 &&
                    e.data.value("value", "") == "0x102030405060708")
                    ++posted;
            QCOMPARE(posted, 1);
            QCOMPARE(value(run, "poll.count"), std::string("1"));
            // Whether the device opens an XRC domain is its capability bit's answer.
            const auto& xrcd = run.outcome(indexOf(run, "xrcd")).error;
            QCOMPARE(xrcd->verb, std::string("ibv_open_xrcd"));
            QCOMPARE(xrcd->err, EOPNOTSUPP);
            QCOMPARE(value(run, "caps.xrc"), std::string("0"));
        });
    }
    void neighbouringKeysAndAWrongKeyByte() {
        checkTestLab("run-keys", [](const labs::LabRun& run, const Events& events) {
            const auto rkey = std::stoull(value(run, "mr_b1.rkey"), nullptr, 16);
            QCOMPARE(value(run, "mr_b1.rkey_index"), std::to_string(rkey >> 8));
            QCOMPARE(std::stoull(value(run, "mr_b1.rkey_key"), nullptr, 16), rkey & 0xff);
            QCOMPARE(std::stoul(value(run, "qp_b.qpn")), std::stoul(value(run, "qp_a.qpn")) + 1);
            // The right side of `plus` is shown with the sum: "(qp_a.qpn = N) + 1 = N+1".
            auto observedIn = [&](const char* step, const std::string& text) {
                for (const auto& e : run.outcome(indexOf(run, step)).expectations)
                    if (e.observed.find(text) != std::string::npos) return true;
                return false;
            };
            QVERIFY(observedIn("qp_b", ") + 1 = " + value(run, "qp_b.qpn")));
            QVERIFY(observedIn("qp_b", ") - 1 = " + value(run, "qp_a.qpn")));
            // wc_flags_include held on rxe's receives, which carry GRH besides WITH_IMM.
            QVERIFY(observedIn("poll_b", "wc_flags=grh,with_imm"));
            // The guess kept the index and changed the key byte: the traced WRITE's rkey differs in bit 0.
            std::optional<std::uint64_t> guessed_rkey; // the last posted work request is the guess
            for (const auto& e : events)
                if (e.kind == EventKind::PostWr && e.ids.contains("rkey"))
                    guessed_rkey = e.ids["rkey"].get<std::uint64_t>();
            QVERIFY(guessed_rkey);
            QCOMPARE(*guessed_rkey, rkey ^ 0x01);
        });
    }
    void sendLatencyBusyPollingAndWithEvents() {
        checkTestLab("run-events-bench", [](const labs::LabRun& run, const Events&) {
            QCOMPARE(value(run, "busy.completion"), std::string("busy_poll"));
            QCOMPARE(value(run, "events.completion"), std::string("events"));
            QVERIFY(std::stod(value(run, "events.syscalls_per_msg")) > 1.0);
        });
    }
    void conditionalStepsAndAnAddressAddedForAWhile() {
        checkTestLab("run-when", [](const labs::LabRun& run, const Events& events) {
            // caps.xrc is 0 on SoftRoCE: the two XRC-only steps are skipped (the second names an object
            // the first would have made), the step for the other case runs.
            for (const char* id : {"pd_xrc", "mr_xrc"}) {
                const auto& skipped = run.outcome(indexOf(run, id));
                QCOMPARE(labs::to_string(skipped.state), "skipped");
                QVERIFY2(skipped.skipped_because.find("caps.xrc == 1") != std::string::npos,
                         skipped.skipped_because.c_str());
                for (const auto& e : skipped.expectations)
                    QVERIFY(!e.applies && e.held);
            }
            QCOMPARE(labs::to_string(run.outcome(indexOf(run, "pd")).state), "held");
            QCOMPARE(positions(events, "ibv_alloc_pd").size(), std::size_t(1));
            QCOMPARE(std::count_if(events.begin(), events.end(),
                                   [](const auto& e) {
                                       return e.kind == EventKind::Check && e.name == "step_skipped";
                                   }),
                     2);
            // Run as root in the test bed: the addresses were added, their GIDs appeared, and the one no step
            // removed went at teardown. A second add of the same address is EEXIST and removes nothing.
            QCOMPARE(value(run, "device.net_admin"), std::string("1"));
            QCOMPARE(value(run, "add_one.gid"), std::string("::ffff:192.0.2.21"));
            QCOMPARE(run.outcome(indexOf(run, "again")).error->err, EEXIST);
            const auto added = positions(events, "RTM_NEWADDR");
            const auto removed = positions(events, "RTM_DELADDR");
            QCOMPARE(added.size(), std::size_t(3));
            QCOMPARE(removed.size(), std::size_t(2));
            for (const auto i : removed)
                QCOMPARE(events[i].data.value("ret", -1), 0);
            QCOMPARE(events[removed.back()].data["args"].value("address", ""), std::string("192.0.2.22"));
            QVERIFY(removed.back() > positions(events, "ibv_dealloc_pd").back()); // at teardown
        });
    }
    void everyTestLabHasATest() {
        const auto files = QDir(QString::fromStdString(kRunDir)).entryList({"*.yaml"}, QDir::Files);
        QCOMPARE(files.size(), 18);
    }

    // A `says` item checks what the step's text states against the run: a true statement holds, a false
    // one is broken, and the report quotes the words (rendered, in the run's language) and the value.
    void aTextThatStatesAWrongValueIsABrokenExpectation() {
        for (const std::string language : {"en", "zh"}) {
            const Ran ran = perform(kSaysWrong, {}, language);
            const auto& run = *ran.run;
            QVERIFY(run.done());
            QCOMPARE(run.broken_count(), std::size_t(1));
            const auto& says = run.outcome(indexOf(run, "mr")).expectations;
            std::vector<const labs::ExpectationOutcome*> stated;
            for (const auto& e : says)
                if (e.kind == "says") stated.push_back(&e);
            QCOMPARE(stated.size(), std::size_t(3));
            QVERIFY(stated[0]->held);
            QVERIFY(!stated[1]->held);
            QVERIFY(stated[2]->held);
            const std::string lkey = value(run, "A.buf.lkey");
            QVERIFY2(stated[1]->observed == "mr.lkey = " + lkey, stated[1]->observed.c_str());
            // The verdict is in the run's language, the words the text states quoted as written.
            const std::string quoted = language == "en" ? "the text says \"its lkey is 0x7fffffff\""
                                                        : "正文说“它的 lkey 是 0x7fffffff”";
            QVERIFY2(stated[1]->description.find(quoted) == 0, stated[1]->description.c_str());
            QVERIFY2(stated[2]->description.find("local_write") != std::string::npos, // rendered placeholder
                     stated[2]->description.c_str());
        }
    }

    void aStepThatFailsUnexpectedlyStopsTheRunAndTearsDown() {
        const auto before = test::rdmaResourceCounts();
        QVERIFY(before.error.isEmpty());
        const Ran ran = perform(kMidFailure);
        const auto& run = *ran.run;
        QVERIFY(!run.all_held());
        QVERIFY(run.done());
        const std::size_t bad = indexOf(run, "bad_init");
        const auto& failed = run.outcome(bad);
        QCOMPARE(labs::to_string(failed.state), "broken");
        QVERIFY(failed.failed_unexpectedly);
        QVERIFY(failed.error);
        QCOMPARE(failed.error->verb, std::string("ibv_modify_qp"));
        QCOMPARE(failed.error->err, EINVAL);
        QCOMPARE(failed.error->code, std::string("EINVAL"));
        QVERIFY(!failed.error->cause.empty() && !failed.error->fix.empty());
        QCOMPARE(failed.expectations.at(0).kind, std::string("succeeds"));
        QVERIFY(!failed.expectations.at(0).held);
        QVERIFY(failed.expectations.at(0).observed.find("EINVAL") != std::string::npos);
        for (std::size_t i = bad + 1; i < run.steps().size(); ++i)
            QCOMPARE(labs::to_string(run.outcome(i).state), "not_run");
        for (std::size_t i = 0; i < bad; ++i)
            QCOMPARE(labs::to_string(run.outcome(i).state), "held");
        // Everything the lab created is gone while this process still runs.
        QCOMPARE(test::rdmaResourceCounts().describe(), before.describe());
        const auto events = ran.events();
        const auto qp_destroys = positions(events, "ibv_destroy_qp");
        QCOMPARE(qp_destroys.size(), std::size_t(2));
        QCOMPARE(positions(events, "ibv_destroy_ah").size(), std::size_t(1));
        QCOMPARE(positions(events, "ibv_destroy_comp_channel").size(), std::size_t(1));
        QVERIFY(positions(events, "ibv_destroy_cq").front() <
                positions(events, "ibv_destroy_comp_channel").front());
        QVERIFY(positions(events, "ibv_destroy_ah").front() < positions(events, "ibv_dealloc_pd").front());
        // C's QP is attributed to endpoint C.
        const auto creates = positions(events, "ibv_create_qp");
        QCOMPARE(creates.size(), std::size_t(2));
        QCOMPARE(events[creates[1]].endpoint, Endpoint::C);
        // No step event after the failing one.
        const auto steps = std::count_if(events.begin(), events.end(),
                                         [](const auto& e) { return e.kind == EventKind::Step; });
        QCOMPARE(std::size_t(steps), bad + 1);
    }

    /// Issue 13: a lab written from docs/lab-format.md alone (by someone who read no other lab) runs.
    void aLabWrittenFromTheDocumentAloneHoldsEveryExpectation() {
        const auto r =
            test::runCli({"lab", "run", kSource + "/tests/data/labs-from-doc/send-recv-promises.yaml"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("status=rnr_retry_exc_err") &&
                     r.out.contains("ok send-recv-promises: 39 expectations held, 0 broken"),
                 qPrintable(r.out));
    }

    void cliPrintsStepsVerdictsAndExitsZero() {
        const auto r = test::runCli({"lab", "run", QString::fromStdString(kExample)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("[12/13] poll_a") && r.out.contains("status=rem_access_err") &&
                     r.out.contains("held    qp_state: A.qp is err") &&
                     r.out.contains("ok write-needs-remote-write: 17 expectations held, 0 broken"),
                 qPrintable(r.out));
        const auto zh = test::runCli({"lab", "run", "write-needs-remote-write", "--dir",
                                      kSource + "/tests/data/labs", "--lang", "zh", "--param", "size=128"});
        QVERIFY2(zh.exitCode == 0, qPrintable(zh.out + zh.err));
        QVERIFY2(zh.out.contains("A 向 B 的区域投递一个 128 字节的 WRITE。"), qPrintable(zh.out));
        const auto bad =
            test::runCli({"lab", "run", QString::fromStdString(kExample), "--param", "size=2MiB"});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("size"), qPrintable(bad.err));
        const auto failing = test::runCli({"lab", "run", QString::fromStdString(kMidFailure)});
        QCOMPARE(failing.exitCode, 1);
        QVERIFY2(failing.out.contains("ibv_modify_qp failed: EINVAL") &&
                     failing.out.contains("2 steps not run"),
                 qPrintable(failing.out));
    }

    void cliJsonIsTheTraceWithVerdicts() {
        const auto r = test::runCli({"lab", "run", QString::fromStdString(kExample), "--json"});
        QCOMPARE(r.exitCode, 0);
        int steps = 0, held = 0, broken = 0;
        std::string last;
        for (const auto& line : r.out.split('\n', Qt::SkipEmptyParts)) {
            const auto event = nlohmann::json::parse(line.toStdString(), nullptr, false);
            QVERIFY2(!event.is_discarded(), qPrintable(line));
            const std::string kind = event.value("kind", "");
            if (kind == "step") ++steps;
            if (kind == "check" && event.value("name", "") == "held") ++held;
            if (kind == "check" && event.value("name", "") == "broken") ++broken;
            last = event.value("name", "");
        }
        QCOMPARE(steps, 13);
        QCOMPARE(held, 17);
        QCOMPARE(broken, 0);
        QCOMPARE(last, std::string("lab_held"));
    }

    void aSeedGivesEachStudentTheirOwnSize() {
        // FNV-1a of seed, lab id and parameter name picks a power of two in [1, 1 MiB]: fixed, on any
        // machine.
        for (const auto& [seed, size] : {std::pair{QStringLiteral("alice"), QStringLiteral("4")},
                                         std::pair{QStringLiteral("bob"), QStringLiteral("1048576")}}) {
            const auto r = test::runCli({"lab", "run", "write", "--seed", seed});
            QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
            QVERIFY2(r.out.contains("seed " + seed + ": size=" + size + "\n"), qPrintable(r.out.left(400)));
            QVERIFY2(r.out.contains("registers A's " + size + "-byte buffer"), qPrintable(r.out.left(3000)));
        }
        // An explicit value wins over the draw.
        const auto r = test::runCli({"lab", "run", "write", "--seed", "alice", "--param", "size=64"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY(r.out.contains("seed alice: size=64\n"));
    }

    /// Issue 14: the workbench performs one step at a time, refuses an invalid one without touching the
    /// device, lets a failing verb be an outcome, tears down on reset, and saves what was done as a lab whose
    /// expectations the device then holds in a run of its own.
    void theWorkbenchExploresAndSavesWhatItDidAsALab() {
        const auto before = test::rdmaResourceCounts();
        QVERIFY(before.error.isEmpty());
        auto sink = std::make_shared<MemorySink>();
        auto tracer = std::make_shared<Tracer>();
        tracer->add_sink(sink);
        labs::Workbench bench(tracer, {});
        const auto pair = [&](const nlohmann::json& b_access) {
            for (const nlohmann::json& step :
                 {nlohmann::json{{"do", "open_device"}}, nlohmann::json{{"do", "alloc_pd"}, {"as", "A.pd"}},
                  nlohmann::json{{"do", "alloc_pd"}, {"as", "B.pd"}},
                  nlohmann::json{{"do", "reg_mr"},
                                 {"as", "A.buf"},
                                 {"pd", "A.pd"},
                                 {"size", 64},
                                 {"access", {"local_write"}},
                                 {"fill", "Workbench bytes. "}},
                  nlohmann::json{
                      {"do", "reg_mr"}, {"as", "B.buf"}, {"pd", "B.pd"}, {"size", 64}, {"access", b_access}},
                  nlohmann::json{{"do", "create_cq"}, {"as", "A.cq"}},
                  nlohmann::json{{"do", "create_cq"}, {"as", "B.cq"}},
                  nlohmann::json{{"do", "create_qp"}, {"as", "A.qp"}, {"pd", "A.pd"}, {"send_cq", "A.cq"}},
                  nlohmann::json{{"do", "create_qp"}, {"as", "B.qp"}, {"pd", "B.pd"}, {"send_cq", "B.cq"}},
                  nlohmann::json{{"do", "connect"}, {"a", "A.qp"}, {"b", "B.qp"}}}) {
                const auto done = bench.perform(step);
                QVERIFY2(done.accepted, done.error.to_string().c_str());
                QVERIFY2(!done.outcome.contains("error"), done.outcome.dump().c_str());
            }
        };
        const nlohmann::json write = {{"do", "post_send"},           {"qp", "A.qp"},
                                      {"opcode", "write"},           {"sge", {{{"mr", "A.buf"}}}},
                                      {"remote", {{"mr", "B.buf"}}}, {"wr_id", 7}};
        const nlohmann::json poll = {{"do", "poll_cq"}, {"cq", "A.cq"}, {"timeout", "5s"}};
        const std::string zeros(128, '0');
        pair({"local_write"}); // B grants no REMOTE_WRITE
        QVERIFY(bench.perform(write).accepted);
        auto polled = bench.perform(poll);
        QCOMPARE(polled.outcome["results"]["status"].get<std::string>(), std::string("rem_access_err"));
        QCOMPARE(polled.snapshot["qps"]["A.qp"].get<std::string>(), std::string("err"));
        QCOMPARE(polled.snapshot["qps"]["B.qp"].get<std::string>(), std::string("err"));
        QCOMPARE(polled.snapshot["mrs"]["B.buf"]["hex"].get<std::string>(), zeros);
        // Refused before the device: an object nobody made, named by its field.
        const auto refused = bench.perform({{"do", "post_send"}, {"qp", "C.qp"}, {"opcode", "send"}});
        QVERIFY(!refused.accepted);
        QVERIFY2(refused.error.field.find("steps[12]") == 0, refused.error.to_string().c_str());
        QCOMPARE(bench.size(), std::size_t(12));
        // A failing verb is an outcome: ERR -> RTR is not a transition (EINVAL), and the session goes on.
        const auto bad = bench.perform({{"do", "to_rtr"}, {"qp", "A.qp"}, {"peer", "B.qp"}});
        QVERIFY(bad.accepted);
        QCOMPARE(bad.outcome["error_info"]["code"].get<std::string>(), std::string("EINVAL"));
        QVERIFY(bench.perform({{"do", "to_reset"}, {"qp", "A.qp"}}).snapshot["qps"]["A.qp"] == "reset");
        labs::LabError error;
        const std::string failing = bench.to_lab("wb-fails", "The write refused", 15, error);
        QVERIFY2(!failing.empty(), error.to_string().c_str());
        QVERIFY(failing.find("rem_access_err") != std::string::npos);
        QVERIFY(failing.find("fails: EINVAL") != std::string::npos);
        bench.reset();
        QCOMPARE(test::rdmaResourceCounts().describe(), before.describe());
        QCOMPARE(bench.size(), std::size_t(0));

        pair({"local_write", "remote_write"}); // fixed: B grants REMOTE_WRITE
        QVERIFY(bench.perform(write).accepted);
        polled = bench.perform(poll);
        QCOMPARE(polled.outcome["results"]["status"].get<std::string>(), std::string("success"));
        QCOMPARE(polled.snapshot["qps"]["B.qp"].get<std::string>(), std::string("rts"));
        QCOMPARE(polled.snapshot["mrs"]["B.buf"]["hex"], polled.snapshot["mrs"]["A.buf"]["hex"]);
        const std::string working = bench.to_lab("wb-works", "The write placed", 10, error);
        QVERIFY2(!working.empty(), error.to_string().c_str());
        QVERIFY(working.find("bytes:") != std::string::npos);

        // Each saved lab runs on its own and the device holds every expectation it recorded.
        for (const auto& [name, text] : {std::pair{"wb-fails", failing}, std::pair{"wb-works", working}}) {
            const std::string path = QDir::tempPath().toStdString() + "/" + name + ".yaml";
            QFile file(QString::fromStdString(path));
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(QByteArray::fromStdString(text));
            file.close();
            const Ran ran = perform(path);
            QVERIFY2(ran.run->all_held(),
                     (broken(*ran.run) + "\n" + QByteArray::fromStdString(text)).constData());
            QVERIFY(ran.run->held_count() > 12);
        }
        bench.reset();
        QCOMPARE(test::rdmaResourceCounts().describe(), before.describe());
    }

    void cliRunAllPrintsTheSummaryTable() {
        for (const auto& [dir, count] : {std::pair{QStringLiteral("/tests/data/labs"), 1},
                                         std::pair{QStringLiteral("/tests/data/labs-run"), 18}}) {
            const auto r = test::runCli({"lab", "run", "--all", "--dir", kSource + dir});
            QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
            QVERIFY2(r.out.contains(
                         QRegularExpression("lab +chapter +steps +held +broken +not run +skipped +seconds")),
                     qPrintable(r.out));
            QVERIFY2(r.out.contains(QStringLiteral("%1 of %1 labs held every expectation").arg(count)),
                     qPrintable(r.out));
            QVERIFY2(!r.out.contains("FAILED") && !r.out.contains("BROKEN"), qPrintable(r.out));
            if (count > 1) // run-when: its two XRC-only steps skipped on SoftRoCE
                QVERIFY2(r.out.contains(QRegularExpression("\\nrun-when +1 +11 +\\d+ +0 +0 +2 ")),
                         qPrintable(r.out));
        }
        const auto failing =
            test::runCli({"lab", "run", "--all", "--dir", kSource + "/tests/data/labs-run-fail"});
        QCOMPARE(failing.exitCode, 1);
        QVERIFY2(failing.out.contains(QRegularExpression("run-mid-failure +6 +11 +\\d+ +1 +2 .*FAILED")),
                 qPrintable(failing.out));
        QVERIFY2(
            failing.out.contains(QRegularExpression(
                "step mr: +BROKEN +says: the text says \"its lkey is 0x7fffffff\": mr.lkey is 0x7fffffff\n"
                " +observed: mr.lkey = 0x[0-9a-f]+\n")),
            qPrintable(failing.out));
        QVERIFY2(failing.out.contains(QRegularExpression("run-says-wrong +2 +3 +\\d+ +1 +0 .*FAILED")),
                 qPrintable(failing.out));
        QVERIFY(failing.out.contains("0 of 2 labs held every expectation"));
    }

    void engineProcessRunsALabStepByStep() {
        QProcess engine;
        engine.setProgram(RDMALAB_CLI_PATH);
        engine.setArguments({"serve", "--stdio"});
        engine.start();
        QVERIFY(engine.waitForStarted(10000));
        auto ask = [&](const std::string& line) -> nlohmann::json {
            engine.write(QByteArray::fromStdString(line + "\n"));
            QElapsedTimer clock;
            clock.start();
            while (clock.elapsed() < 60000) {
                while (engine.canReadLine()) {
                    const auto e = nlohmann::json::parse(engine.readLine().toStdString(), nullptr, false);
                    if (!e.is_discarded() && e.value("kind", "") == "result") return e;
                }
                engine.waitForReadyRead(1000);
            }
            return nullptr;
        };
        // The engine opens no file a command names: a lab that is not the curriculum's goes as its text.
        const auto startByText = [&](int id, const std::string& path) {
            QFile file(QString::fromStdString(path));
            if (!file.open(QIODevice::ReadOnly)) qFatal("cannot read %s", path.c_str());
            return ask(nlohmann::json{
                {"id", id}, {"cmd", "lab.start"}, {"text", file.readAll().toStdString()}, {"name", path}}
                           .dump());
        };
        const auto start = startByText(1, kExample);
        QCOMPARE(start["data"]["ok"].get<bool>(), true);
        const auto first = ask(R"({"id":2,"cmd":"lab.step"})");
        QCOMPARE(first["data"]["ok"].get<bool>(), true);
        QCOMPARE(first["data"]["step_index"].get<int>(), 0);
        QCOMPARE(first["data"]["state"].get<std::string>(), std::string("held"));
        QVERIFY(first["data"]["text"].get<std::string>().find("The lab runs on rxe") == 0);
        const auto rest = ask(R"({"id":3,"cmd":"lab.run"})");
        QCOMPARE(rest["data"]["ok"].get<bool>(), true);
        QCOMPARE(rest["data"]["summary"]["broken"].get<int>(), 0);
        QCOMPARE(rest["data"]["outcomes"].size(), std::size_t(12));
        QCOMPARE(rest["data"]["outcomes"][10]["results"]["status"].get<std::string>(),
                 std::string("rem_access_err"));
        QCOMPARE(ask(R"({"id":4,"cmd":"lab.reset"})")["data"]["ok"].get<bool>(), true);
        // A lab whose step fails: lab.step answers ok false with the engine's explanation.
        startByText(5, kMidFailure);
        nlohmann::json step;
        for (int i = 0; i < 9; ++i)
            step = ask(R"({"id":6,"cmd":"lab.step"})");
        QCOMPARE(step["data"]["ok"].get<bool>(), false);
        QCOMPARE(step["data"]["error_info"]["code"].get<std::string>(), std::string("EINVAL"));
        QCOMPARE(step["data"]["done"].get<bool>(), true);
        QCOMPARE(ask(R"({"id":7,"cmd":"quit"})")["data"]["ok"].get<bool>(), true);
        QVERIFY(engine.waitForFinished(30000));
        QCOMPARE(engine.exitCode(), 0);
    }

  private:
    /// Runs one of the runner's test labs: every expectation holds, the counts are back, then the lab's own
    /// `checks`, and the process's locked-memory limit and the thread's CAP_IPC_LOCK are as they were.
    void checkTestLab(const QString& lab, const TestLabChecks& checks = {}) {
        const auto before = test::rdmaResourceCounts();
        rlimit memlock_before{};
        getrlimit(RLIMIT_MEMLOCK, &memlock_before);
        const bool ipc_lock_before = thread_has_ipc_lock();
        const Ran ran = perform(lab.toStdString());
        const auto& run = *ran.run;
        QVERIFY2(run.all_held(), broken(run).constData());
        std::size_t performed = 0; // a skipped step (its `when` false) checks nothing
        for (std::size_t i = 0; i < run.steps().size(); ++i)
            performed += run.outcome(i).state != labs::StepOutcome::State::skipped ? 1 : 0;
        QVERIFY(run.held_count() >= performed); // at least `succeeds` or `fails` per performed step
        QCOMPARE(test::rdmaResourceCounts().describe(), before.describe());
        if (checks) {
            checks(run, ran.events());
            if (QTest::currentTestFailed()) return;
        }
        // No lab leaves the process's locked-memory limit or the thread's CAP_IPC_LOCK changed.
        rlimit memlock_after{};
        getrlimit(RLIMIT_MEMLOCK, &memlock_after);
        QCOMPARE(memlock_after.rlim_cur, memlock_before.rlim_cur);
        QCOMPARE(memlock_after.rlim_max, memlock_before.rlim_max);
        QCOMPARE(thread_has_ipc_lock(), ipc_lock_before);
    }
};

QTEST_GUILESS_MAIN(TestLabs)
#include "tst_labs.moc"
