// The app's models and bridge, fed with real recordings from tests/data (recorded on rxe in the test bed).
#include "labstate.h"
#include "lessoncontroller.h"
#include "timelinemodel.h"
#include "tracefile.h"
#include "verbscode.h"

#include "rdmalab/format/describe.hpp"

#include "apptestutil.hpp"
#include <QAbstractItemModelTester>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>

#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

#include <algorithm>

using namespace rdmalab;
using namespace rdmalab::app;

namespace {
std::vector<TraceEvent> load(const QString& name) {
    return test::loadRecording(name);
}

/// lesson-write.jsonl with its body repeated `copies` times (the session header once), renumbered.
std::vector<TraceEvent> repeatedRecording(int copies) {
    const auto one = load("lesson-write.jsonl");
    std::vector<TraceEvent> events(one.begin(), one.end());
    for (int copy = 1; copy < copies; ++copy)
        events.insert(events.end(), one.begin() + 1, one.end());
    for (std::size_t i = 0; i < events.size(); ++i)
        events[i].seq = i + 1;
    return events;
}
} // namespace

class AppModelsTest : public QObject {
    Q_OBJECT
  private slots:
    void timelinePassesTheModelTester() {
        TimelineModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto events = load("lesson-write.jsonl");
        model.append({events.begin(), events.begin() + 10});
        model.append({events.begin() + 10, events.end()});
        QCOMPARE(model.rowCount(), static_cast<int>(events.size()));
        QCOMPARE(model.index(0, TimelineModel::KindColumn).data().toString(), QString("session"));
        const int post = model.rowOfSeq(events.back().seq);
        QVERIFY(post >= 0);
        TimelineFilter filter;
        QAbstractItemModelTester filterTester(&filter,
                                              QAbstractItemModelTester::FailureReportingMode::QtTest);
        filter.setSourceModel(&model);
        filter.setKinds({"wc"});
        QCOMPARE(filter.rowCount(), 1); // a write completes on A only
        QVERIFY(filter.index(0, TimelineModel::SummaryColumn).data().toString().contains("IBV_WC_SUCCESS"));
        filter.setKinds({});
        filter.setEndpoint("B");
        for (int i = 0; i < filter.rowCount(); ++i)
            QCOMPARE(filter.index(i, TimelineModel::EndpointColumn).data().toString(), QString("B"));
        QVERIFY(filter.rowCount() > 5);
        model.clear();
        QCOMPARE(filter.rowCount(), 0);
    }

    void aTimelineShowsTheEventsItsSourceKeeps() {
        // The main window's timeline keeps no copy: its rows are the first rows of the session's events.
        const auto events = load("lesson-write.jsonl");
        std::size_t kept = 0;
        TimelineModel model([&] { return std::span<const TraceEvent>(events).first(kept); });
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        kept = 10;
        model.append(std::span<const TraceEvent>(events).first(10));
        kept = events.size();
        model.append(std::span<const TraceEvent>(events).subspan(10));
        QCOMPARE(model.rowCount(), static_cast<int>(events.size()));
        QCOMPARE(model.events().data(), events.data());
        // A summary is the first line of the event's description, written when asked for.
        for (int row : {0, 20, static_cast<int>(events.size()) - 1}) {
            std::string text = describe(events[static_cast<std::size_t>(row)]);
            text = text.substr(0, text.find('\n'));
            QCOMPARE(model.index(row, TimelineModel::SummaryColumn).data().toString(),
                     QString::fromStdString(text));
        }
        QCOMPARE(model.rowOfSeq(events[5].seq), 5);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    // A lab's expectation events set the picture's verdict; the step summary after them (no `ok` of its
    // own) must not turn a held step into an empty red cross.
    void aLabStepSummaryKeepsItsExpectationsVerdict() {
        LabState state;
        TraceEvent held;
        held.kind = EventKind::Check;
        held.name = "held";
        held.data = {{"ok", true}, {"summary", "ok completion: status=success"}, {"checks", {"ok"}}};
        QVERIFY(state.apply(held));
        TraceEvent summary;
        summary.kind = EventKind::Check;
        summary.name = "step_held";
        summary.data = {{"lab", "write"}, {"step", "poll_a"}, {"state", "held"}};
        state.apply(summary);
        QVERIFY(state.verified.has_value());
        QVERIFY(*state.verified);
        QCOMPARE(state.checkSummary, QStringLiteral("ok completion: status=success"));
    }

    void labStateFollowsARecordedWrite() {
        LabState state;
        for (const auto& e : load("lesson-write.jsonl"))
            state.apply(e);
        QCOMPARE(state.device, QString("rxe0"));
        QVERIFY(state.softwareDevice);
        // The recording ends with teardown, so take the state just before it.
        LabState before;
        for (const auto& e : load("lesson-write.jsonl")) {
            if (e.kind == EventKind::Verb && e.name == "ibv_destroy_qp") break;
            before.apply(e);
        }
        for (int s = 0; s < 2; ++s) {
            QVERIFY(before.regions[s].registered);
            QVERIFY(before.regions[s].lkey != 0);
            QCOMPARE(before.qps[s].state, QString("RTS"));
        }
        QCOMPARE(before.qps[0].destQpn, before.qps[1].qpn);
        QVERIFY(before.regions[1].access.contains("REMOTE_WRITE"));
        QCOMPARE(before.completions.size(), 1u);
        QCOMPARE(before.completions[0].status, QString("IBV_WC_SUCCESS"));
        QCOMPARE(before.completions[0].opcode, QString("RDMA_WRITE"));
        QVERIFY(before.memory[1].bytes.startsWith("Hello, RDMA! Hello"));
        QCOMPARE(before.memory[1].changed.size(), 1u);
        QCOMPARE(before.memory[1].changed[0].second, 64);
        QCOMPARE(before.verified, std::optional<bool>(true));
        QVERIFY(!state.qps[0].created); // after teardown
    }

    void labStateFoldsObjectsPortAndSendsInFlight() {
        // What the data-path view draws besides regions and QPs (PD, CQ, port, sends in flight, the last
        // completion), folded from the recordings; the values are the recordings' own.
        struct Case {
            const char* file;
            QString opcode;
            quint32 rkey;
            QString lastWc;
            bool error;
        };
        const Case cases[] = {
            {"lesson-write.jsonl", "RDMA_WRITE", 1353, "IBV_WC_SUCCESS · RDMA_WRITE · 64 B · wr_id 1", false},
            {"lesson-read.jsonl", "RDMA_READ", 1947, "IBV_WC_SUCCESS · RDMA_READ · 64 B · wr_id 1", false},
            {"lesson-send.jsonl", "SEND", 0, "IBV_WC_SUCCESS · SEND · 64 B · wr_id 1", false},
            {"fault-bad-rkey.jsonl", "RDMA_WRITE", 16714104, "IBV_WC_REM_ACCESS_ERR · wr_id 1", true},
        };
        for (const auto& c : cases) {
            const auto events = load(c.file);
            LabState state;
            bool sawPending = false, sawCompletion = false;
            for (const auto& e : events) {
                if (e.kind == EventKind::Wc && e.endpoint == Endpoint::A && !sawCompletion) {
                    // Before A's first completion: its send is in flight, and the completion retires it.
                    const auto& a = state.objects[0];
                    QCOMPARE(a.pending.size(), 1u);
                    QCOMPARE(a.pending[0].opcode, c.opcode);
                    QCOMPARE(a.pending[0].wrId, 1u);
                    QCOMPARE(a.pending[0].length, 64u);
                    QCOMPARE(a.pending[0].rkey, c.rkey);
                    QVERIFY(state.objects[1].pending.empty()); // a posted receive is not a send in flight
                    const auto retired = state.pendingSendFor(e);
                    QVERIFY(retired);
                    QCOMPARE(retired->rkey, c.rkey);
                    QCOMPARE(a.polled, 0);
                    QVERIFY(a.pd && a.cq);
                    QCOMPARE(a.pdId, 0);
                    QCOMPARE(a.cqId, 4);
                    QCOMPARE(a.cqe, 31);
                    QCOMPARE(state.objects[1].pdId, 1);
                    QCOMPARE(state.objects[1].cqId, 5);
                    QVERIFY(state.port.deviceOpen);
                    QCOMPARE(state.port.state, QString("PORT_ACTIVE"));
                    QCOMPARE(state.port.mtu, 4096);
                    QCOMPARE(state.port.linkLayer, QString("Ethernet"));
                    QCOMPARE(state.port.port, 1);
                    QCOMPARE(state.port.gid, QString("::ffff:127.0.0.1"));
                    QCOMPARE(state.port.gidType, QString("RoCE v2"));
                    sawPending = true;
                    state.apply(e);
                    QVERIFY(state.objects[0].pending.empty());
                    QCOMPARE(state.objects[0].polled, 1);
                    QCOMPARE(state.objects[0].lastWc, c.lastWc);
                    QCOMPARE(state.objects[0].lastWcError, c.error);
                    sawCompletion = true;
                    continue;
                }
                state.apply(e);
            }
            QVERIFY2(sawPending && sawCompletion, c.file);
            // Teardown: the objects are gone and the closed device forgets its port.
            for (const auto& side : state.objects) {
                QVERIFY(!side.pd);
                QVERIFY(!side.cq);
                QVERIFY(side.pending.empty());
            }
            QVERIFY(!state.port.deviceOpen);
            QVERIFY(state.port.state.isEmpty());
            QVERIFY(state.port.gid.isEmpty());
            QCOMPARE(state.port.mtu, 0);
        }
        // The send: B's receive completes on B; the fault: the send after the failed write is flushed.
        LabState send;
        for (const auto& e : load("lesson-send.jsonl"))
            send.apply(e);
        QCOMPARE(send.objects[1].polled, 1);
        QCOMPARE(send.objects[1].lastWc, QString("IBV_WC_SUCCESS · RECV · 64 B · wr_id 2"));
        LabState fault;
        for (const auto& e : load("fault-bad-rkey.jsonl"))
            fault.apply(e);
        QCOMPARE(fault.objects[0].polled, 2);
        QCOMPARE(fault.objects[0].lastWc, QString("IBV_WC_WR_FLUSH_ERR · wr_id 3"));
        QVERIFY(fault.objects[0].lastWcError);
    }

    void labStateFoldsTheDevicePairRetriesAndInline() {
        // What the data-path view draws the device's path and its illustrations from.
        LabState write;
        for (const auto& e : load("lesson-write.jsonl"))
            write.apply(e);
        QVERIFY(write.deviceClassKnown);
        QVERIFY(write.softwareDevice);
        QVERIFY(write.sessionNote.isEmpty());
        QCOMPARE(write.pairDevice(), QString("rxe0")); // both PDs on rxe0, kept after teardown
        LabState beforeTeardown;
        for (const auto& e : load("lesson-write.jsonl")) {
            if (e.kind == EventKind::Verb && e.name == "ibv_destroy_qp") break;
            beforeTeardown.apply(e);
        }
        for (const auto& q : {beforeTeardown.qps[0], beforeTeardown.qps[1]}) { // A and B: the lesson's cast
            QCOMPARE(q.rnrRetry, std::optional<int>(7));                       // the lesson's RTR->RTS
            QCOMPARE(q.retryCnt, std::optional<int>(7));
        }
        QVERIFY(!beforeTeardown.castBeyondPair());
        LabState early; // A's PD only: no pair yet
        for (const auto& e : load("lesson-write.jsonl")) {
            early.apply(e);
            if (e.kind == EventKind::Verb && e.name == "ibv_alloc_pd") break;
        }
        QVERIFY(early.objects[0].pd);
        QVERIFY(early.pairDevice().isEmpty());
        QVERIFY(!early.qps[0].rnrRetry);
        // The no-recv fault sets rnr_retry 0 on its QPs.
        LabState noRecv;
        for (const auto& e : load("fault-no-recv.jsonl")) {
            if (e.kind == EventKind::Verb && e.name == "ibv_destroy_qp") break;
            noRecv.apply(e);
        }
        QCOMPARE(noRecv.qps[0].rnrRetry, std::optional<int>(0));
        // The edited recording: a NIC's driver, not software, and its note.
        LabState edited;
        for (const auto& e : load("lesson-write-hardware-edited.jsonl"))
            edited.apply(e);
        QVERIFY(edited.deviceClassKnown);
        QVERIFY(!edited.softwareDevice);
        QCOMPARE(edited.pairDevice(), QString("mlx5_0"));
        QVERIFY(edited.sessionNote.contains("Not a run on an RDMA NIC."));
        // An inline write is in flight as inline; the ordinary one is not.
        for (const auto& [file, inlined] :
             {std::pair{"lesson-write-inline.jsonl", true}, std::pair{"lesson-write.jsonl", false}}) {
            LabState state;
            bool seen = false;
            for (const auto& e : load(file)) {
                if (e.kind == EventKind::Wc) {
                    QCOMPARE(state.objects[0].pending.size(), 1u);
                    QCOMPARE(state.objects[0].pending[0].inlineData, inlined);
                    seen = true;
                    break;
                }
                state.apply(e);
            }
            QVERIFY2(seen, file);
        }
    }

    void labStateShowsAFault() {
        LabState state;
        for (const auto& e : load("fault-bad-rkey.jsonl"))
            state.apply(e);
        bool sawAccessError = false, sawFlush = false;
        for (const auto& c : state.completions) {
            sawAccessError = sawAccessError || c.status == "IBV_WC_REM_ACCESS_ERR";
            sawFlush = sawFlush || c.status == "IBV_WC_WR_FLUSH_ERR";
        }
        QVERIFY(sawAccessError);
        QVERIFY(sawFlush);
        QCOMPARE(state.verified, std::optional<bool>(true)); // the expected fault was observed
    }

    void badTraceFilesNameLineAndField() {
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.jsonl");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        const auto events = load("lesson-send.jsonl");
        file.write(
            QByteArray::fromStdString(to_json_line(events[0]) + "\n" + to_json_line(events[1]) + "\n"));
        file.write("{\"v\":1,\"seq\":3,\"t_ns\":1,\"ep\":\"Q\",\"kind\":\"verb\",\"name\":\"x\"}\n");
        file.close();
        TraceFileError error;
        QVERIFY(!readTraceFile(path, error));
        QCOMPARE(error.line, 3u);
        QCOMPARE(error.field, QString("ep"));
        QVERIFY(error.toString().startsWith(path + ": line 3: field 'ep'"));
        QVERIFY(!readTraceFile(dir.filePath("missing.jsonl"), error));
        QVERIFY(error.toString().contains("cannot open"));
    }

    void recordingsThatAreNotFilesAreRefusedAtOnce() {
        QTemporaryDir dir;
        const QString fifo = dir.filePath("pipe.jsonl");
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        QElapsedTimer clock;
        clock.start();
        TraceFileError error;
        QVERIFY(!readTraceFile(fifo, error)); // opening it would wait for a writer for ever
        QVERIFY2(error.toString().contains("not a regular file"), qPrintable(error.toString()));
        QVERIFY(!readTraceFile(dir.path(), error));
        QVERIFY2(error.toString().contains("is a folder"), qPrintable(error.toString()));
        QVERIFY(!readTraceFile(QStringLiteral("/dev/zero"), error)); // would never end
        QVERIFY2(error.toString().contains("not a regular file"), qPrintable(error.toString()));
        QVERIFY(clock.elapsed() < 5000);
    }

    void anOversizedRecordingIsRefusedUnread() {
        QTemporaryDir dir;
        QFile huge(dir.filePath("huge.jsonl"));
        QVERIFY(huge.open(QIODevice::WriteOnly));
        QVERIFY(huge.resize(kMaxRecordingBytes + 1)); // sparse: no disk space, no time
        huge.close();
        TraceFileError error;
        QVERIFY(!readTraceFile(huge.fileName(), error));
        QVERIFY2(error.toString().contains("rdmalab opens recordings of up to 512 MiB"),
                 qPrintable(error.toString()));
    }

    void aDeeplyNestedLineIsRefusedWithItsLine() {
        QTemporaryDir dir;
        QFile file(dir.filePath("deep.jsonl"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        const auto events = load("lesson-write.jsonl");
        file.write(QByteArray::fromStdString(to_json_line(events[0]) + "\n"));
        file.write(
            "{\"v\":1,\"seq\":2,\"t_ns\":1,\"ep\":\"A\",\"kind\":\"verb\",\"name\":\"x\",\"data\":{\"a\":" +
            QByteArray(100000, '[') + QByteArray(100000, ']') + "}}\n");
        file.close();
        TraceFileError error;
        QVERIFY(!readTraceFile(file.fileName(), error));
        QCOMPARE(error.line, 2u);
        QVERIFY2(error.toString().contains("nested deeper than 32 levels"), qPrintable(error.toString()));
    }

    void savedTraceReadsBackIdentically() {
        QTemporaryDir dir;
        const auto events = load("lesson-read.jsonl");
        QCOMPARE(writeTraceFile(dir.filePath("t.jsonl"), events), QString());
        TraceFileError error;
        const auto back = readTraceFile(dir.filePath("t.jsonl"), error);
        QVERIFY(back.has_value());
        QCOMPARE(back->size(), events.size());
        QCOMPARE(to_json_line(back->back()), to_json_line(events.back()));
        QVERIFY(!writeTraceFile("/nonexistent-dir/t.jsonl", events).isEmpty());
    }

    void verbsCodeUsesTheRealArguments() {
        for (const auto& e : load("lesson-write.jsonl")) {
            if (e.kind == EventKind::Verb && e.name == "ibv_reg_mr" && e.endpoint == Endpoint::B) {
                const QString code = verbsCode(e);
                QVERIFY2(code.contains("ibv_reg_mr(pd, (void *)0x"), qPrintable(code));
                QVERIFY(code.contains("IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE"));
                QVERIFY(code.contains(
                    QStringLiteral("mr->rkey = 0x%1").arg(e.ids["rkey"].get<quint32>(), 0, 16)));
            }
            if (e.kind == EventKind::QpState && e.name == "INIT->RTR") {
                const QString code = verbsCode(e);
                QVERIFY2(code.contains(".qp_state = IBV_QPS_RTR"), qPrintable(code));
                QVERIFY(code.contains("IBV_QP_AV"));
                QVERIFY(code.contains(".dest_qp_num = "));
            }
            if (e.kind == EventKind::PostWr && e.name == "RDMA_WRITE") {
                const QString code = verbsCode(e);
                QVERIFY2(code.contains(".opcode = IBV_WR_RDMA_WRITE"), qPrintable(code));
                QVERIFY(code.contains(".wr.rdma = { .remote_addr = 0x"));
            }
        }
    }

    void verbsCodeShowsOnlyTheValidFieldsOfACompletion() {
        // ibv_poll_cq(3): a failed completion has only wr_id, status, qp_num (and vendor_err) valid (C2); a
        // send-side completion's byte_len is defined only for RDMA Read and atomics (mlx5 leaves it unset).
        int failed = 0, sendSide = 0, read = 0;
        for (const char* name : {"fault-bad-rkey.jsonl", "lesson-write.jsonl", "lesson-read.jsonl"}) {
            for (const auto& e : load(QString::fromLatin1(name))) {
                if (e.kind != EventKind::Wc) continue;
                const QString code = verbsCode(e);
                if (e.name != "IBV_WC_SUCCESS") {
                    ++failed;
                    QVERIFY2(
                        code.contains(QString("// wc.status   == %1").arg(QString::fromStdString(e.name))),
                        qPrintable(code));
                    QVERIFY2(!code.contains("wc.opcode") && !code.contains("wc.byte_len =="),
                             qPrintable(code));
                    QVERIFY(!code.contains("undefined"));
                    QVERIFY(code.contains("opcode and byte_len are not valid when status != IBV_WC_SUCCESS"));
                    QVERIFY(code.contains("// wc.qp_num   == "));
                } else if (code.contains("IBV_WC_RDMA_WRITE")) {
                    ++sendSide;
                    QVERIFY2(
                        code.contains("// wc.byte_len == 64  (defined for receives, RDMA Read and atomics)"),
                        qPrintable(code));
                } else if (code.contains("IBV_WC_RDMA_READ")) {
                    ++read;
                    QVERIFY2(code.contains("// wc.byte_len == 64\n"), qPrintable(code));
                }
            }
        }
        QCOMPARE(failed, 2); // the REM_ACCESS_ERR and the flush of the request posted after it
        QVERIFY(sendSide >= 1 && read >= 1);
    }

    void verbsCodeIsValidCForEveryRecordedCall() {
        // The printed code is C a reader could paste: no "= /* ... */" placeholder initialiser, the GID as
        // the 16 bytes of union ibv_gid, and the QP's inline capacity as the engine set it.
        QString program = "#include <infiniband/verbs.h>\n#include <arpa/inet.h>\n"
                          "void shown(struct ibv_device *dev, struct ibv_context *ctx, struct ibv_pd *pd,\n"
                          "           struct ibv_cq *cq, struct ibv_qp *qp, struct ibv_mr *mr) {\n";
        int snippets = 0;
        for (const char* name :
             {"lesson-send.jsonl", "lesson-write.jsonl", "lesson-read.jsonl", "fault-bad-rkey.jsonl"}) {
            for (const auto& e : load(QString::fromLatin1(name))) {
                const QString code = verbsCode(e);
                if (code.isEmpty()) continue;
                QVERIFY2(!code.contains("= /*") && !code.contains("(...)"), qPrintable(code));
                if (e.kind == EventKind::QpState && e.name == "INIT->RTR")
                    QVERIFY2(
                        code.contains(".dgid.raw = { 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, "
                                      "0x00, 0xff, 0xff, 0x7f, 0x00, 0x00, 0x01 }, /* ::ffff:127.0.0.1 */"),
                        qPrintable(code));
                if (e.kind == EventKind::Verb && e.name == "ibv_create_qp")
                    QVERIFY2(code.contains(".max_inline_data = 0 }"), qPrintable(code));
                program += "{\n" + code + "\n}\n";
                ++snippets;
            }
        }
        // An inline SEND needs a QP created with room for its payload inline: the copy of a real
        // ibv_create_qp event with the capacity the engine sets for `--inline` shows it.
        auto events = load("lesson-send.jsonl");
        auto create = std::find_if(events.begin(), events.end(),
                                   [](const TraceEvent& e) { return e.name == "ibv_create_qp"; });
        QVERIFY(create != events.end());
        create->data["args"]["max_inline_data"] = 64;
        QVERIFY2(verbsCode(*create).contains(".max_inline_data = 64 }"), qPrintable(verbsCode(*create)));
        // A GID that is not an address stays a comment, and a comment cannot be closed from the trace.
        auto rtr = std::find_if(events.begin(), events.end(),
                                [](const TraceEvent& e) { return e.name == "INIT->RTR"; });
        QVERIFY(rtr != events.end());
        rtr->data["attrs"]["ah_attr"]["dgid"] = "fe80::zz */ evil();";
        const QString odd = verbsCode(*rtr);
        QVERIFY2(odd.contains("/* dgid: fe80::zz * / evil(); (not an IPv6 address) */"), qPrintable(odd));
        program += "{\n" + verbsCode(*create) + "\n}\n{\n" + odd + "\n}\n}\n";
        QVERIFY(snippets > 100);

        // Compile all of it against the system's verbs header when a C compiler and the header are here (the
        // app itself never includes it; this is the reader's program).
        QProcess cc;
        cc.start("cc", {"-std=c11", "-fsyntax-only", "-Werror", "-Wno-unused-variable",
                        "-Wno-unused-parameter", "-Wno-shadow", "-x", "c", "-"});
        if (!cc.waitForStarted()) QSKIP("no C compiler (cc) to check the printed code with");
        cc.write(program.toUtf8());
        cc.closeWriteChannel();
        QVERIFY(cc.waitForFinished(60000));
        const QString errors = QString::fromLocal8Bit(cc.readAllStandardError());
        if (errors.contains("infiniband/verbs.h: No such file")) QSKIP("no verbs header to compile against");
        QVERIFY2(cc.exitCode() == 0, qPrintable(errors + "\n" + program));
    }

    void replayRevealsOneRecordedStepPerStep() {
        LessonController controller(nullptr);
        QSignalSpy batches(&controller, &LessonController::eventsReady);
        QSignalSpy finished(&controller, &LessonController::finishedChanged);
        const auto events = load("lesson-write.jsonl");
        controller.startReplay(events, "lesson-write.jsonl");
        QVERIFY(controller.state().replay);
        QCOMPARE(controller.state().device, QString("rxe0"));
        int steps = 0;
        for (const auto& e : events)
            steps += e.kind == EventKind::Step;
        for (int i = 0; i < steps; ++i) {
            QVERIFY(!controller.finished());
            controller.step();
            QCOMPARE(controller.state().step.index, i);
        }
        QVERIFY(controller.finished());
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.first().first().toBool(), true);
        QCOMPARE(controller.sessionEvents().size(), events.size());
    }

    void aFastReplayRevealsWholeStepsInBatches() {
        // Ten copies of a recording played with no pause and no waiting: batches of whole steps, in order,
        // each event once, ending in the state a step-by-step replay ends in.
        const auto events = repeatedRecording(10);
        const auto steps = std::size_t(std::count_if(
            events.begin(), events.end(), [](const TraceEvent& e) { return e.kind == EventKind::Step; }));
        LessonController stepwise(nullptr);
        stepwise.startReplay(events, "stepwise");
        while (!stepwise.finished())
            stepwise.step();

        LessonController controller(nullptr);
        std::vector<std::uint64_t> seen;
        std::size_t batches = 0;
        bool wholeSteps = true;
        connect(&controller, &LessonController::eventsReady, this, [&](std::span<const TraceEvent> batch) {
            ++batches;
            wholeSteps = wholeSteps && (seen.empty() || batch.front().kind == EventKind::Step);
            for (const auto& e : batch)
                seen.push_back(e.seq);
        });
        controller.startReplay(events, "fast");
        controller.setStepDelay(0);
        controller.setWaitForAnimations(false);
        QVERIFY(!controller.fastReplay());
        controller.play();
        QVERIFY(controller.fastReplay());
        QTRY_VERIFY_WITH_TIMEOUT(controller.finished(), 30000);
        QVERIFY(!controller.fastReplay());
        QVERIFY(wholeSteps);
        QVERIFY2(batches < steps, qPrintable(QString("%1 batches, %2 steps").arg(batches).arg(steps)));
        QCOMPARE(seen.size(), events.size());
        for (std::size_t i = 0; i < seen.size(); ++i)
            QCOMPARE(seen[i], events[i].seq);
        QCOMPARE(controller.state().step.index, stepwise.state().step.index);
        QCOMPARE(controller.state().verified, stepwise.state().verified);
        QCOMPARE(controller.state().memory[1].bytes, stepwise.state().memory[1].bytes);
        // The revealed events are the recording's own, not a copy.
        QCOMPARE(controller.sessionEvents().data(), controller.replayEvents().data());
    }

    void skipToEndDoesNotWaitForAnimations() {
        // The main window waits for its picture between steps; "To the end" does not, and pausing stops it.
        const auto events = repeatedRecording(10); // more than one batch
        LessonController controller(nullptr);
        controller.setWaitForAnimations(true);
        controller.startReplay(events, "lesson-write.jsonl");
        controller.skipToEnd();
        QVERIFY(controller.fastReplay());
        QTRY_VERIFY_WITH_TIMEOUT(controller.finished(), 30000); // no animationsIdle() was ever called
        QCOMPARE(controller.sessionEvents().size(), events.size());
        controller.reset();
        QVERIFY(!controller.finished() && controller.state().step.index < 0);
        controller.skipToEnd();
        controller.pause();
        QVERIFY(!controller.fastReplay() && !controller.playing());
    }

    void aReadingCanBeCancelledAndSaysHowFarItCame() {
        const QString path = RDMALAB_SOURCE_DIR + QStringLiteral("/tests/data/lesson-write.jsonl");
        ReadProgress whole;
        TraceFileError error;
        QVERIFY(readTraceFile(path, error, nullptr, &whole));
        QCOMPARE(whole.bytesRead.load(), QFileInfo(path).size());
        QCOMPARE(whole.bytesTotal.load(), QFileInfo(path).size());
        ReadProgress stopped;
        stopped.cancelled = true;
        QVERIFY(!readTraceFile(path, error, nullptr, &stopped));
        QVERIFY(error.cancelled);
        QCOMPARE(error.line, std::size_t(1));
        QVERIFY2(error.toString().contains("cancelled"), qPrintable(error.toString()));
    }
};

QTEST_GUILESS_MAIN(AppModelsTest)
#include "tst_appmodels.moc"
