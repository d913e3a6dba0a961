// What the windows show, computed without widgets (app/model): the measurement window's histogram, CDF
// and percentile marks from a real recording, the inspector's event and the lesson texts of real recordings,
// the headless-run finish and the engine banner's text.
#include "benchsession.h"
#include "benchstats.h"
#include "enginebanner.h"
#include "engineclient.h"
#include "headlessrun.h"
#include "inspector.h"
#include "labstate.h"
#include "lessons.h"
#include "tracefile.h"

#include "apptestutil.hpp"
#include "rdmalab/format/fields.hpp"
#include "rdmalab/labs/lab.hpp"
#include "rdmalab/labs/recorded_values.hpp"
#include <QImage>
#include <QSignalSpy>

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <numeric>

using namespace rdmalab;
using namespace rdmalab::app;

namespace {

std::vector<TraceEvent> load(const QString& name) {
    return test::loadRecording(name);
}

/// The runs of tests/data/bench-compare.jsonl (rxe0 in the test bed, 200 iterations each), replayed.
std::vector<BenchRun> benchCompareRuns() {
    EngineClient engine;
    BenchSession session(&engine);
    session.openReplay(load("bench-compare.jsonl"), "bench-compare.jsonl");
    return session.runs();
}

const BenchRun& runOf(const std::vector<BenchRun>& runs, const QString& kind, qint64 size) {
    for (const auto& r : runs)
        if (r.kind == kind && r.size == size) return r;
    qFatal("no %s run of %lld B", qPrintable(kind), size);
}

/// The first events of a recording, up to and including sequence number `last`.
std::vector<TraceEvent> upTo(const std::vector<TraceEvent>& events, std::uint64_t last) {
    std::vector<TraceEvent> prefix;
    for (const auto& e : events)
        if (e.seq <= last) prefix.push_back(e);
    return prefix;
}

/// The state the lesson window holds after the events up to `last`.
LabState foldedUpTo(const std::vector<TraceEvent>& events, std::uint64_t last) {
    LabState state;
    for (const auto& e : upTo(events, last))
        state.apply(e);
    return state;
}

std::uint64_t inspectedSeq(const std::vector<TraceEvent>& events, std::uint64_t last) {
    const auto prefix = upTo(events, last);
    const TraceEvent* shown = inspectedEvent(prefix);
    return shown ? shown->seq : 0;
}

} // namespace

class WindowModelsTest : public QObject {
    Q_OBJECT
  private slots:
    void inspectorDescribesTheStepsLastCallOnTheWriteLesson() {
        const auto write = load("lesson-write.jsonl");
        // open_device: ibv_open_device (4), then three ibv_query_port and ibv_query_gid_ex (5-8): the
        // queries are passed over for the call that opened the device.
        QCOMPARE(inspectedSeq(write, 8), std::uint64_t(4));
        QCOMPARE(inspectedSeq(write, 4), std::uint64_t(4));
        QCOMPARE(inspectedSeq(write, 3), std::uint64_t(3));
        QCOMPARE(inspectedSeq(write, 2), std::uint64_t(0));   // the step has made no call yet
        QCOMPARE(inspectedSeq(write, 32), std::uint64_t(32)); // rtr_A: its INIT->RTR transition
        QCOMPARE(inspectedSeq(write, 40), std::uint64_t(40)); // post_send_A: the posted RDMA_WRITE
        // poll_cq_A: the completion (43), not the memory snapshots after it (44, 45).
        QCOMPARE(inspectedSeq(write, 45), std::uint64_t(43));
        // verify: only ibv_query_qp calls (47, 48) and the check: the first query of the step.
        QCOMPARE(inspectedSeq(write, 49), std::uint64_t(47));
        QCOMPARE(inspectedSeq(write, 59), std::uint64_t(58)); // the teardown's last call, ibv_close_device
    }

    void inspectorShowsTheFailedCompletionOfTheFaultLesson() {
        const auto fault = load("fault-bad-rkey.jsonl");
        const auto prefix = upTo(fault, 45);
        const TraceEvent* shown = inspectedEvent(prefix);
        QVERIFY(shown);
        QCOMPARE(shown->name, std::string("IBV_WC_REM_ACCESS_ERR"));
        const QString html = eventHtml(*shown);
        QVERIFY2(html.contains("IBV_WC_REM_ACCESS_ERR <small>(wc, observed, event #43)</small>"),
                 qPrintable(html));
        QVERIFY2(html.contains("<tr><td><b>wr_id</b></td><td>1</td></tr>"), qPrintable(html));
        // The memory bytes are not listed; lkey and rkey read in hex.
        const auto memory = upTo(fault, 44).back();
        QVERIFY(!eventHtml(memory).contains("hex"));
        QVERIFY2(eventHtml(memory).contains("<tr><td><b>lkey</b></td><td>0x83e</td></tr>"),
                 qPrintable(eventHtml(memory)));
        // The QP query after the fault (47) is the step's only call, so it is shown.
        QCOMPARE(inspectedSeq(fault, 47), std::uint64_t(47));
    }

    void theLessonsAreTheirLabsAndARecordingNamesItsLesson() {
        std::vector<labs::LabError> errors;
        const auto lessons = lessonsAmong(labs::load_labs(RDMALAB_LABS_DIR.toStdString(), errors));
        QCOMPARE(lessons.size(), kLessonLabs.size());
        for (std::size_t i = 0; i < lessons.size(); ++i) {
            QCOMPARE(std::string_view(lessons[i].id()), kLessonLabs[i]);
            QCOMPARE(lessons[i].size, 64); // the labs' parameters, as the toolbar starts
            QCOMPARE(lessons[i].message, QStringLiteral("Hello, RDMA!"));
        }
        QCOMPARE(lessonOfMode("serve lab write"), QStringLiteral("write")); // a lesson run as a lab
        QCOMPARE(lessonOfMode("op read"), QStringLiteral("read"));          // rdmalab-cli op
        QCOMPARE(lessonOfMode("serve op send"), QStringLiteral("send"));    // a lesson before it ran as a lab
        QCOMPARE(lessonOfMode("serve lab rkey-fault-recovery"), QString()); // a lab, but no lesson
        QCOMPARE(lessonOfMode("serve bench"), QString());
        QVERIFY(recordsLoopbackOperation("op write") && !recordsLoopbackOperation("serve lab write"));
    }

    void valuesOfARecordingOfTheLoopbackOperation() {
        // A recording of `rdmalab-cli op` carries no lesson text: its replay renders the lab's texts with the
        // values it states (labs::recorded_values).
        const auto write = load("lesson-write.jsonl");
        const labs::ParameterValues parameters = {{"size", "64"}, {"message", "Hello, RDMA!"}};
        const auto posting = labs::recorded_values(upTo(write, 40), parameters);
        QCOMPARE(posting.at("device.name"), std::string("rxe0"));
        QCOMPARE(posting.at("size"), std::string("64"));
        QCOMPARE(posting.at("message"), std::string("Hello, RDMA!"));
        QCOMPARE(posting.at("B.buf.addr"), std::string("0x562ac2dd9000"));
        QCOMPARE(posting.at("B.buf.rkey"), std::string("0x549")); // 1353
        QCOMPARE(posting.at("A.buf.lkey"), std::string("0x45a")); // 1114
        QCOMPARE(posting.at("A.buf.access"), std::string("LOCAL_WRITE"));
        QCOMPARE(posting.at("A.qp.qpn"), std::string("19"));
        QCOMPARE(posting.at("B.qp.qpn"), std::string("20"));
        QCOMPARE(posting.at("A.qp.psn"), std::string("0x1000"));
        QCOMPARE(posting.at("B.qp.psn"), std::string("0x2000"));
        QCOMPARE(posting.at("device.mtu"), std::string("4096"));
        QCOMPARE(posting.at("device.gid"), std::string("::ffff:127.0.0.1"));
        QCOMPARE(posting.count("poll_cq_A.status"), std::size_t(0)); // nothing polled yet
        // B's first send PSN is known at A's RTR (the PSN A expects), before B's RTS sets it.
        const auto rtrA = labs::recorded_values(upTo(write, 32), parameters);
        QCOMPARE(rtrA.at("B.qp.psn"), std::string("0x2000"));
        QCOMPARE(labs::recorded_values(upTo(write, 17), parameters).at("B.buf.access"),
                 std::string("LOCAL_WRITE|REMOTE_WRITE"));
        QCOMPARE(labs::recorded_values(upTo(write, 17), parameters).count("A.qp.qpn"), std::size_t(0));
        QCOMPARE(labs::recorded_values(upTo(write, 28), parameters).at("A.qp.access"),
                 std::string("REMOTE_WRITE|REMOTE_READ|REMOTE_ATOMIC"));
        const auto polled = labs::recorded_values(upTo(write, 43), parameters);
        QCOMPARE(polled.at("poll_cq_A.status"), std::string("IBV_WC_SUCCESS"));
        QCOMPARE(polled.at("poll_cq_A.byte_len"), std::string("64"));
        // After the teardown nothing of A or B is left.
        QCOMPARE(labs::recorded_values(write, parameters).count("A.buf.lkey"), std::size_t(0));

        // The window folds the values as the events come (LabState::recordedValues): after every event
        // they are what reading the events so far from the start gives.
        LabState state;
        for (std::size_t n = 1; n <= write.size(); ++n) {
            state.apply(write[n - 1]);
            QCOMPARE(state.recordedValues.values(parameters),
                     labs::recorded_values(upTo(write, n), parameters));
        }
    }

    void syscallsValueOfThePostAndPollSteps() {
        // The recordings predate the engine's system-call count: the count is added to a copy of the real
        // events. post_send_A of the SEND lesson: step (41), its posted SEND (42).
        auto send = load("lesson-send.jsonl");
        QCOMPARE(send[40].name, std::string("post_send_A"));
        QCOMPARE(send[41].name, std::string("SEND"));
        QCOMPARE(send[43].name, std::string("ibv_poll_cq"));
        QCOMPARE(send[48].name, std::string("ibv_poll_cq"));
        auto syscalls = [&](std::uint64_t last, std::string_view language = "en") {
            const auto v = labs::recorded_values(upTo(send, last), {}, language);
            const auto it = std::find_if(
                v.begin(), v.end(), [](const auto& entry) { return entry.first.ends_with(".syscalls"); });
            return it == v.end() ? std::string("(none)") : it->first + " = " + it->second;
        };
        // Without either field, no placeholder stays raw: a neutral text, in the lesson's language.
        QCOMPARE(syscalls(42), std::string("post_send_A.syscalls = not recorded"));
        QCOMPARE(syscalls(42, "zh"), std::string("post_send_A.syscalls = 未记录"));
        QCOMPARE(syscalls(40), std::string("post_recv_B.syscalls = not recorded"));
        // Steps that make no such call have no value.
        QCOMPARE(syscalls(38), std::string("(none)"));

        send[41].data["syscalls"] = 1;                                        // ibv_post_send
        send[43].data["syscalls_why"] = "perf_event_open: Permission denied"; // A's ibv_poll_cq
        send[48].data["syscalls"] = 0;                                        // B's ibv_poll_cq
        QCOMPARE(syscalls(42), std::string("post_send_A.syscalls = 1"));
        QCOMPARE(syscalls(44),
                 std::string("poll_cq_A.syscalls = not counted: perf_event_open: Permission denied"));
        QCOMPARE(syscalls(44, "zh"),
                 std::string("poll_cq_A.syscalls = 未计数：perf_event_open: Permission denied"));
        QCOMPARE(syscalls(49), std::string("poll_cq_B.syscalls = 0"));
        // A new step forgets the last step's count until its own call reports one.
        QCOMPARE(syscalls(48), std::string("poll_cq_B.syscalls = not recorded"));
        QCOMPARE(syscalls(43), std::string("poll_cq_A.syscalls = not recorded"));

        // A count of the wrong type is refused with the field's name, as every field the fold reads.
        send[41].data["syscalls"] = "one";
        LabState state;
        try {
            state.apply(send[41]);
            QFAIL("a string count was accepted");
        } catch (const FieldError& e) {
            QCOMPARE(e.field(), std::string("data.syscalls"));
        }
    }

    void lessonTextFollowsTheDeviceOfTheSession() {
        labs::LabError error;
        const auto lab = labs::load_lab(RDMALAB_LABS_DIR.toStdString() + "/09-send-recv/send.yaml", error);
        QVERIFY2(lab, error.to_string().c_str());
        const labs::Step* post = lab->step("post_send_A");
        QVERIFY(post && post->text.varies());
        auto textAt = [&](const std::vector<TraceEvent>& events, std::uint64_t last,
                          std::string_view language) {
            return lessonStepText(*post, foldedUpTo(events, last), 64, "Hello, RDMA!", language);
        };

        auto send = load("lesson-send.jsonl"); // recorded on rxe0: device_info.software is true
        send[41].data["syscalls"] = 1;
        const LabState soft = foldedUpTo(send, 42);
        QCOMPARE(deviceClassOf(soft), labs::DeviceClass::software);
        const labs::ParameterValues parameters = {{"size", "64"}, {"message", "Hello, RDMA!"}};
        const std::string softText = textAt(send, 42, "en");
        QCOMPARE(softText,
                 labs::render(post->text.software.en, labs::recorded_values(upTo(send, 42), parameters)));
        QVERIFY2(softText.find(": 1.") != std::string::npos || softText.find(" 1 ") != std::string::npos,
                 softText.c_str());
        QVERIFY2(softText.find('{') == std::string::npos, softText.c_str()); // every placeholder filled
        const std::string softZh = textAt(send, 42, "zh");
        QVERIFY2(softZh.find('{') == std::string::npos, softZh.c_str());
        QCOMPARE(softZh, labs::render(post->text.software.zh,
                                      labs::recorded_values(upTo(send, 42), parameters, "zh")));

        // The same session on a hardware NIC (a test-only copy of the session event): the hardware text.
        auto nic = send;
        nic[0].data["device_info"]["software"] = false;
        nic[0].data["device_info"]["driver"] = "mlx5";
        QCOMPARE(deviceClassOf(foldedUpTo(nic, 42)), labs::DeviceClass::hardware);
        const std::string hardText = textAt(nic, 42, "en");
        QCOMPARE(hardText,
                 labs::render(post->text.hardware.en, labs::recorded_values(upTo(nic, 42), parameters)));
        QVERIFY(hardText != softText);
        QVERIFY2(hardText.find('{') == std::string::npos, hardText.c_str());

        // A recording that does not say: the text written for any device, or both variants.
        auto old = send;
        old[0].data.erase("device_info");
        QCOMPARE(deviceClassOf(foldedUpTo(old, 42)), labs::DeviceClass::unknown);
        QCOMPARE(textAt(old, 42, "en"), labs::render(post->text.get(labs::DeviceClass::unknown, "en"),
                                                     labs::recorded_values(upTo(old, 42), parameters)));

        // The summary, before the first step, follows the device too.
        const LabState opened = foldedUpTo(send, 1);
        QVERIFY(opened.step.id.isEmpty());
        QCOMPARE(lessonSummaryText(*lab, opened, 64, {}, "zh"), lab->summary.software.zh);

        // A lesson run as a lab: the runner's text of the step that ran, carried by lab.step's answer, in
        // the language asked for; none before it arrives.
        LabState ran = foldedUpTo(send, 41); // at post_send_A, index 16
        QCOMPARE(lessonStepText(*post, ran, 64, {}, "en").empty(),
                 false); // the op recording's
        ran.mode = QStringLiteral("serve lab send");
        QCOMPARE(lessonStepText(*post, ran, 64, {}, "en"), std::string());
        TraceEvent answer;
        answer.kind = EventKind::Result;
        answer.name = "lab.step";
        answer.data = {{"ok", true},
                       {"step_index", ran.step.index},
                       {"texts", {{"en", "A posts the SEND."}, {"zh", "A 投递 SEND。"}}}};
        QVERIFY(ran.apply(answer));
        QCOMPARE(lessonStepText(*post, ran, 64, {}, "zh"), std::string("A 投递 SEND。"));
        QCOMPARE(lessonStepText(*post, ran, 64, {}, "en"), std::string("A posts the SEND."));
        answer.data["step_index"] = ran.step.index + 1; // another step's answer is not this step's text
        LabState other = foldedUpTo(send, 41);
        QVERIFY(!other.apply(answer));
        QVERIFY(other.step.texts.empty());
    }

    void aFailedCompletionPutsANoteAboveTheLessonText() {
        // The lesson texts tell the operation without a fault; a run whose completion failed says so.
        const auto fault = load("fault-bad-rkey.jsonl");
        QCOMPARE(failedRunNoteHtml(foldedUpTo(fault, 20), "en"), QString());
        const LabState done = foldedUpTo(fault, 64);
        const QString en = failedRunNoteHtml(done, "en");
        QVERIFY2(en.contains("a completion on A failed with IBV_WC_REM_ACCESS_ERR"), qPrintable(en));
        QVERIFY2(failedRunNoteHtml(done, "zh").contains("A 的一个完成项以 IBV_WC_REM_ACCESS_ERR 失败"),
                 qPrintable(failedRunNoteHtml(done, "zh")));
        const auto write = load("lesson-write.jsonl");
        QCOMPARE(failedRunNoteHtml(foldedUpTo(write, write.back().seq), "en"), QString());
    }

    void outcomeAndReplayNoteOfARecording() {
        const auto fault = load("fault-bad-rkey.jsonl");
        QCOMPARE(outcomeHtml(foldedUpTo(fault, 40), "en"), QString());
        const LabState done = foldedUpTo(fault, 64);
        QVERIFY(done.verified);
        const QString outcome = outcomeHtml(done, "en");
        QVERIFY2(outcome.startsWith(
                     QStringLiteral("<h4 style='color:%1'>").arg(*done.verified ? "#26a269" : "#c01c28")),
                 qPrintable(outcome));
        QVERIFY2(outcome.contains("IBV_WC_REM_ACCESS_ERR (expected IBV_WC_REM_ACCESS_ERR)"),
                 qPrintable(outcome));
        const QString note = replayNoteHtml(done);
        QVERIFY2(note.contains("<b>REPLAY</b> of a recording made on rxe0"), qPrintable(note));
        QCOMPARE(htmlText("a<b>\nc"), QStringLiteral("a&lt;b&gt;<br>c"));
    }

    void anErrorIsShownInTheAppsLanguage() {
        // An error event as the engine writes it now (with its Chinese texts), and one of an older
        // recording without them: the Chinese frame then carries the English texts rather than nothing.
        const auto fold = [](const std::string& line) {
            TraceParseError error;
            const auto event = parse_json_line(line, error);
            if (!event) qFatal("%s", error.message.c_str());
            LabState state;
            state.apply(*event);
            return state;
        };
        const LabState now = fold(
            R"({"v":2,"seq":1,"t_ns":5,"ep":"A","kind":"error","name":"ibv_reg_mr","data":{"verb":"ibv_reg_mr",)"
            R"("errno":22,"code":"EINVAL","meaning":"Invalid argument","cause":"no LOCAL_WRITE","fix":"add it",)"
            R"("zh":{"meaning":"无效的参数","cause":"缺少 LOCAL_WRITE","fix":"加上它"}}})");
        QCOMPARE(*now.lastErrorIn("en"),
                 QStringLiteral(
                     "ibv_reg_mr failed: EINVAL (Invalid argument)\ncause: no LOCAL_WRITE\nfix: add it"));
        QCOMPARE(
            *now.lastErrorIn("zh"),
            QStringLiteral("ibv_reg_mr 失败：EINVAL（无效的参数）\n原因：缺少 LOCAL_WRITE\n解决：加上它"));
        QVERIFY2(outcomeHtml(now, "zh").contains(QStringLiteral("缺少 LOCAL_WRITE")),
                 qPrintable(outcomeHtml(now, "zh")));
        QVERIFY2(!outcomeHtml(now, "en").contains(QStringLiteral("缺少")),
                 qPrintable(outcomeHtml(now, "en")));
        const LabState old = fold(
            R"({"v":2,"seq":1,"t_ns":5,"ep":"A","kind":"error","name":"ibv_reg_mr","data":{"verb":"ibv_reg_mr",)"
            R"("errno":22,"code":"EINVAL","meaning":"Invalid argument","cause":"no LOCAL_WRITE","fix":"add it"}})");
        QCOMPARE(*old.lastErrorIn("zh"),
                 QStringLiteral(
                     "ibv_reg_mr 失败：EINVAL（Invalid argument）\n原因：no LOCAL_WRITE\n解决：add it"));
    }

    void aHeadlessRunFinishesOnceWithTheStatusOfItsOutputs() {
        HeadlessRun run(3);
        QCOMPARE(run.status(), 3); // not finished yet
        QList<int> quits;
        run.setQuitWhenDone(true, [&](int status) { quits << status; });
        int writes = 0;
        QVERIFY(run.finish(true, [&] { return ++writes, true; }));
        QVERIFY(run.finished());
        QCOMPARE(run.status(), 0);
        QCOMPARE(quits, QList<int>{0});
        // A second finish (the deadline, a late failure) changes nothing and writes nothing again.
        QVERIFY(!run.finish(false, [&] { return ++writes, false; }));
        QCOMPARE(run.status(), 0);
        QCOMPARE(writes, 1);
        QCOMPARE(quits, QList<int>{0});
    }

    void aHeadlessRunFailsWhenItsRunOrAnOutputFails() {
        HeadlessRun failed(1);
        QVERIFY(failed.finish(false, [] { return true; }));
        QCOMPARE(failed.status(), 1);
        HeadlessRun unwritten(1);
        QVERIFY(unwritten.finish(true, [] { return false; })); // e.g. the screenshot could not be saved
        QCOMPARE(unwritten.status(), 1);
        HeadlessRun staying(3); // without --quit nothing quits
        QVERIFY(staying.finish(true));
        QCOMPARE(staying.status(), 0);
    }

    void aHeadlessRunsDeadlinePassesOnlyWhenItIsStillRunning() {
        HeadlessRun late(3);
        QSignalSpy passed(&late, &HeadlessRun::deadlinePassed);
        late.armDeadline(10, QStringLiteral("the test run did not finish within 10 ms"));
        QVERIFY(passed.wait(2000));
        HeadlessRun early(3);
        QSignalSpy notPassed(&early, &HeadlessRun::deadlinePassed);
        early.armDeadline(10, QStringLiteral("unused"));
        early.finish(true);
        QTest::qWait(50);
        QCOMPARE(notPassed.count(), 0);
    }

    void screenshotsAreSavedOrReportedAsNotWritten() {
        QTemporaryDir dir;
        QImage image(32, 16, QImage::Format_RGB32);
        image.fill(Qt::red);
        const QString path = dir.filePath("shot.png");
        QVERIFY(saveScreenshot(image, path));
        QCOMPARE(QImage(path).size(), QSize(32, 16));
        QVERIFY(!saveScreenshot(image, dir.filePath("missing/shot.png")));
    }

    void lessonBannerSaysLiveOrReplayAndWhenItIsSoftRoce() {
        QCOMPARE(lessonBannerText({.device = "mlx5_0"}), QStringLiteral("Live on mlx5_0"));
        QCOMPARE(
            lessonBannerText({.device = "rxe0", .softwareDevice = true}),
            QStringLiteral("Live on rxe0  (SoftRoCE: software RDMA — timings are not hardware timings)"));
        // The recording's own header: rxe0 on the test bed's VM.
        LabState recorded;
        for (const auto& e : upTo(load("lesson-write.jsonl"), 1))
            recorded.apply(e);
        const QString replay = lessonBannerText({.device = recorded.device,
                                                 .softwareDevice = recorded.softwareDevice,
                                                 .replay = true,
                                                 .host = recorded.host,
                                                 .date = recorded.date});
        QVERIFY2(replay.startsWith(QStringLiteral("REPLAY of a recording — device rxe0 on %1, recorded %2")
                                       .arg(recorded.host, recorded.date)),
                 qPrintable(replay));
        QVERIFY2(replay.endsWith("timings are not hardware timings)"), qPrintable(replay));
        QVERIFY(lessonBannerText({.device = "rxe0", .replay = true, .recovered = true})
                    .startsWith("REPLAY of a recording of a live session that ended without being closed"));
        // A recording that carries a note (tests/data/lesson-write-hardware-edited.jsonl): it is shown on a
        // line of its own, with the replay label, and in the inspector's replay note.
        LabState edited;
        for (const auto& e : upTo(load("lesson-write-hardware-edited.jsonl"), 1))
            edited.apply(e);
        QVERIFY(edited.sessionNote.startsWith("Edited by hand: a real SoftRoCE recording (rxe0)"));
        const QString banner = lessonBannerText({.device = edited.device,
                                                 .softwareDevice = edited.softwareDevice,
                                                 .replay = true,
                                                 .host = edited.host,
                                                 .date = edited.date,
                                                 .note = edited.sessionNote});
        QVERIFY2(banner.startsWith("REPLAY of a recording — device mlx5_0 on softroce-vm"),
                 qPrintable(banner));
        QVERIFY(!banner.contains("SoftRoCE: software RDMA"));
        QCOMPARE(banner.section('\n', 1), "The recording's note: " + edited.sessionNote);
        edited.sessionNote = "<i>hand</i> & edited";
        QVERIFY2(replayNoteHtml(edited).contains(
                     "<b>The recording's note:</b> &lt;i&gt;hand&lt;/i&gt; &amp; edited"),
                 qPrintable(replayNoteHtml(edited)));
        QVERIFY(!replayNoteHtml(recorded).contains("note:"));
    }

    void measurementBannerWarnsAboutSoftRoceNotAboutANic() {
        const QString nic = measurementBannerText({.device = "mlx5_0"}, true);
        QCOMPARE(nic,
                 QStringLiteral("RDMA measured on <b>mlx5_0</b> TCP runs over the loopback interface (lo) "
                                "through the kernel stack of the same machine."));
        const QString rxe = measurementBannerText({.device = "rxe0", .softwareDevice = true}, true);
        QVERIFY2(rxe.contains("SoftRoCE: RDMA done in software by the Linux kernel (rdma_rxe); these are not "
                              "hardware numbers."),
                 qPrintable(rxe));
        QVERIFY(!nic.contains("SoftRoCE"));
        const QString replay = measurementBannerText(
            {.device = "rxe0", .softwareDevice = true, .replay = true, .source = "a<b>.jsonl"}, true);
        QVERIFY2(replay.startsWith("<b>REPLAY</b> of a&lt;b&gt;.jsonl — figures recorded earlier"),
                 qPrintable(replay));
        QCOMPARE(measurementBannerText({}, false), QStringLiteral("Nothing measured yet."));
        QVERIFY(measurementBannerText({}, true).startsWith("TCP runs over the loopback interface"));
        // The recorded measurement names its device and that it is software.
        EngineClient engine;
        BenchSession session(&engine);
        session.openReplay(load("bench-compare.jsonl"), "bench-compare.jsonl");
        QCOMPARE(session.device(), QStringLiteral("rxe0"));
        QVERIFY(session.softwareDevice());
    }

    void engineReadyAndDeviceKind() {
        QCOMPARE(engineReadyText({{"version", "0.1.0"}, {"format", 1}}),
                 QStringLiteral("Engine 0.1.0 ready (trace format 1)"));
        QCOMPARE(engineReadyText(nlohmann::json::object()),
                 QStringLiteral("Engine ? ready (trace format ?)"));
        QCOMPARE(deviceKindText("rxe", true), QStringLiteral("SoftRoCE (software)"));
        QCOMPARE(deviceKindText("mlx5", false), QStringLiteral("mlx5"));
    }

    void percentileIsTheNearestRank() {
        const std::vector<double> ten = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        QCOMPARE(percentile(ten, 0.5), 5.0);   // rank ceil(5) = 5
        QCOMPARE(percentile(ten, 0.9), 9.0);   // rank 9
        QCOMPARE(percentile(ten, 0.91), 10.0); // rank ceil(9.1) = 10
        QCOMPARE(percentile(ten, 0.0), 1.0);
        QCOMPARE(percentile({}, 0.5), 0.0);
    }

    void liveMarksAgreeWithTheEnginesResultOnTheRecording() {
        // The engine computed p50 .. p99.9 from the same samples (the trace keeps 3 decimals of them).
        const auto runs = benchCompareRuns();
        int latencyRuns = 0;
        for (const auto& run : runs) {
            if (!run.isLatency()) continue;
            ++latencyRuns;
            QVERIFY(run.latency);
            QCOMPARE(run.sortedUs.size(), std::size_t(200));
            const auto marks = percentileMarksOf(run.sortedUs);
            QCOMPARE(marks.size(), std::size_t(4));
            QCOMPARE(marks[0].label, QStringLiteral("p50"));
            QCOMPARE(marks[3].label, QStringLiteral("p99.9"));
            const double engine[] = {run.latency->p50, run.latency->p90, run.latency->p99, run.latency->p999};
            for (int m = 0; m < 4; ++m)
                QVERIFY2(std::abs(marks[std::size_t(m)].value - engine[m]) < 1e-3,
                         qPrintable(QStringLiteral("%1 %2 B %3: %4 vs the engine's %5")
                                        .arg(run.kind)
                                        .arg(run.size)
                                        .arg(marks[std::size_t(m)].label)
                                        .arg(marks[std::size_t(m)].value)
                                        .arg(engine[m])));
        }
        QCOMPARE(latencyRuns, 8);
    }

    void histogramOfTcpLatencyFromTheRecording() {
        const auto runs = benchCompareRuns();
        const BenchRun& tcp = runOf(runs, "tcp_lat", 2);
        const LatencyDistribution d = latencyDistributionOf(tcp.sortedUs);
        QCOMPARE(d.unit.name, QStringLiteral("µs"));
        const Histogram& h = d.histogram;
        QCOMPARE(h.lo, 84.953);
        QCOMPARE(h.hi, 6778.691); // p99.9 of 200 samples is the largest
        QCOMPARE(h.above, std::size_t(0));
        const std::vector<int> expected = {142, 13, 10, 1, 2, 1, 1, 0, 0, 0, 1, 1, 2, 2, 0, 0, 2, 1, 2, 1,
                                           0,   2,  1,  6, 3, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1};
        QCOMPARE(h.counts, expected);
        QCOMPARE(h.peak, 142);
        QCOMPARE(std::accumulate(h.counts.begin(), h.counts.end(), 0), 200);
        const auto steps = h.steps();
        QCOMPARE(steps.size(), 80);
        QCOMPARE(steps.first(), QPointF(84.953, 142));
        QVERIFY(qFuzzyCompare(steps.last().x(), 6778.691));
        QCOMPARE(steps.last().y(), 1.0);
        // The CDF: every sample (200 < 400 points), from 0.5 % to 100 %, values ascending.
        QCOMPARE(d.cdf.size(), 200);
        QCOMPARE(d.cdf.first(), QPointF(84.953, 0.5));
        QCOMPARE(d.cdf.last(), QPointF(6778.691, 100.0));
        QCOMPARE(d.cdf[99], QPointF(178.633, 50.0)); // the 100th sample is p50
    }

    void aSlowRunIsDrawnInMilliseconds() {
        // write_lat at 64 KiB reached 51.4 ms under emulation: the charts switch to ms.
        const auto runs = benchCompareRuns();
        const BenchRun& write = runOf(runs, "write_lat", 65536);
        const LatencyDistribution d = latencyDistributionOf(write.sortedUs);
        QCOMPARE(d.unit.name, QStringLiteral("ms"));
        QCOMPARE(d.unit.perUs, 1000.0);
        QVERIFY(qFuzzyCompare(d.max, 51.400637));
        QVERIFY(qFuzzyCompare(d.histogram.lo, 1.570873));
        const std::vector<int> expected = {36, 49, 20, 48, 13, 16, 6, 0, 1, 3, 0, 0, 0, 0, 0, 1, 0, 0, 1, 1,
                                           1,  1,  0,  0,  0,  0,  0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
        QCOMPARE(d.histogram.counts, expected);
        QVERIFY(qFuzzyCompare(d.marks[0].value, 4.663878)); // p50 in ms
        QCOMPARE(latencyText(write.sortedUs.back()), QStringLiteral("51.40 ms"));
        QCOMPARE(latencyText(178.633), QStringLiteral("178.6 µs"));
    }

    void histogramCountsWhatIsAboveP999AndBinsTheRest() {
        // 1000 samples 1..1000 µs: p99.9 is 999, so 1000 is above and not binned.
        std::vector<double> sorted(1000);
        std::iota(sorted.begin(), sorted.end(), 1.0);
        const Histogram h = histogramOf(sorted, 4);
        QCOMPARE(h.lo, 1.0);
        QCOMPARE(h.hi, 999.0);
        QCOMPARE(h.width, 249.5);
        QCOMPARE(h.above, std::size_t(1));
        QCOMPARE(h.counts, (std::vector<int>{250, 249, 250, 250})); // 999 falls into the last bin
        // All samples equal: a bin width of 1e-3/bins, every sample in the first bin.
        const Histogram flat = histogramOf(std::vector<double>(5, 7.0), 40);
        QCOMPARE(flat.counts[0], 5);
        QCOMPARE(flat.peak, 5);
    }

    void cdfThinsLongRunsTo400Points() {
        std::vector<double> sorted(10000);
        std::iota(sorted.begin(), sorted.end(), 0.0);
        const auto cdf = cdfOf(sorted);
        QCOMPARE(cdf.size(), 400);
        QCOMPARE(cdf.first(), QPointF(0, 0.01));
        QCOMPARE(cdf.last(), QPointF(9999, 100));
        QCOMPARE(cdf[1].x(), 25.0); // 1 * 9999 / 399
    }

    void theLiveChartsKeepTheLastRunOfTheirKind() {
        const auto runs = benchCompareRuns();
        const BenchRun& tcpBw = runOf(runs, "tcp_bw", 2);
        const BenchRun& readLat = runOf(runs, "read_lat", 2);
        // A bandwidth run is shown: the latency charts keep the last latency run (read_lat, 64 KiB).
        QCOMPARE(latencyRunToShow(runs, &tcpBw), &runOf(runs, "read_lat", 65536));
        QCOMPARE(latencyRunToShow(runs, &readLat), &readLat);
        QCOMPARE(bandwidthRunToShow(runs, &tcpBw), &tcpBw);
        QCOMPARE(bandwidthRunToShow(runs, &readLat), &runOf(runs, "write_bw", 65536));
        QCOMPARE(latencyRunToShow({}, nullptr), nullptr);
    }

    void sizeAxisLabelsFromTheLargestSizeDown() {
        const SizeAxis small = sizeAxisFor(2, 65536); // 2^1 .. 2^16: stride 4
        QCOMPARE(small.first, 1);
        QCOMPARE(small.last, 16);
        QCOMPARE(small.labelled, (std::vector<int>{4, 8, 12, 16}));
        const SizeAxis sweep = sizeAxisFor(2, 8 << 20); // 2^1 .. 2^23
        QCOMPARE(sweep.labelled.back(), 23);
        QCOMPARE(sweep.labelled.front(), 3);
        QCOMPARE(sizeAxisFor(64, 1024).labelled, (std::vector<int>{6, 7, 8, 9, 10}));
        QCOMPARE(sizeAxisFor(2, 2048).labelled, (std::vector<int>{1, 3, 5, 7, 9, 11})); // span 10: stride 2
    }

    void summaryAndTableRowOfRecordedRuns() {
        const auto runs = benchCompareRuns();
        const BenchRun& tcp = runOf(runs, "tcp_lat", 2);
        QCOMPARE(runSummaryText(&tcp, true),
                 QStringLiteral(
                     "<b>tcp_lat, 2 B</b> · 200 of 200 iterations · half round trip (ping-pong / 2, as "
                     "sockperf ping-pong) · min 84.95 µs · p50 178.6 µs · mean 753.5 µs · p90 3164 µs · "
                     "p99 5737 µs · p99.9 6779 µs · max 6779 µs"));
        const QStringList tcpRow = runTableRow(tcp);
        QCOMPARE(tcpRow.size(), 13);
        QCOMPARE(tcpRow.mid(0, 5), (QStringList{"tcp_lat", "2 B", "200", "178.6", "5737"}));
        QCOMPARE(tcpRow.mid(5, 3), (QStringList{"", "", ""})); // no bandwidth figures for a latency run
        QCOMPARE(tcpRow.last(), QStringLiteral("loopback TCP (lo, kernel stack)"));
        const QStringList writeRow = runTableRow(runOf(runs, "write_bw", 65536));
        QCOMPARE(writeRow, (QStringList{"write_bw", "64 KiB", "200", "", "", "42.41", "0.3393", "0.0006471",
                                        "0", "1711", "0.06", "0.77", "rxe0 (software RDMA)"}));
        QCOMPARE(runSummaryText(nullptr, false).left(37),
                 QStringLiteral("Choose what to measure and press Run."));
        QCOMPARE(runSummaryText(nullptr, true), QString());
        BenchRun stopped = tcp;
        stopped.noSamples = true;
        QCOMPARE(runTableRow(stopped)[3], noSamplesText());
        QVERIFY(runSummaryText(&stopped, true).contains("stopped before the first measured iteration"));
    }

    void figuresAndSizesReadAsTheTablesShowThem() {
        QCOMPARE(figureText(220800), QStringLiteral("220800"));
        QCOMPARE(figureText(1.23456), QStringLiteral("1.235"));
        QCOMPARE(figureText(0.004, 3), QStringLiteral("0.004"));
        QCOMPARE(figureText(2.5e7), QStringLiteral("2.5e+07"));
        QCOMPARE(sizeText(2), QStringLiteral("2 B"));
        QCOMPARE(sizeText(65536), QStringLiteral("64 KiB"));
        QCOMPARE(sizeText(8 << 20), QStringLiteral("8 MiB"));
        QCOMPARE(sizeText(1536), QStringLiteral("1536 B"));
    }
};

QTEST_GUILESS_MAIN(WindowModelsTest)
#include "tst_windowmodels.moc"
