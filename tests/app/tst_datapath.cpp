// The data-path view, offscreen, fed with the recordings in tests/data: the picture follows the device the
// trace ran on (SoftRoCE: a write() doorbell and CPU copies in the kernel's rdma_rxe; a NIC: an MMIO doorbell
// and DMA), and its illustrations say what the trace says (rnr_retry, the completion status, inline sends).
// What the view drew is read through DataPathView::drawnTexts(): the texts of its boxes and decoration, and
// the label of every token and overlay its animations showed.
#include "choreography.h"
#include "datapathview.h"
#include "labstage/labstage.h"
#include "labstate.h"
#include "memoryview.h"
#include "qpstateview.h"

#include "apptestutil.hpp"
#include "language.h"

#include <QFile>
#include <QRegularExpression>
#include <QXmlStreamReader>
#include <QtTest>

using namespace rdmalab;
using namespace rdmalab::app;

namespace {

/// Plays `events` through a fresh view with every animation run (fast), and returns what it drew.
QStringList play(const std::vector<TraceEvent>& events) {
    DataPathView view;
    view.resize(1400, 880);
    view.setAnimationSpeed(1000); // every stage still runs, each animation a millisecond
    LabState state;
    for (const auto& e : events)
        state.apply(e);
    view.showEvents(events, state);
    if (!QTest::qWaitFor([&] { return view.isIdle(); }, 20000)) qFatal("the view did not finish animating");
    return view.drawnTexts();
}

/// The first events of `events`, up to (not including) the first with sequence number `seq`.
std::vector<TraceEvent> before(const std::vector<TraceEvent>& events, std::uint64_t seq) {
    std::vector<TraceEvent> out;
    for (const auto& e : events) {
        if (e.seq >= seq) break;
        out.push_back(e);
    }
    return out;
}

/// The sequence number of the first event of `kind` named `name` on `endpoint`.
std::uint64_t seqOf(const std::vector<TraceEvent>& events, EventKind kind, const std::string& name,
                    Endpoint endpoint) {
    for (const auto& e : events)
        if (e.kind == kind && e.name == name && e.endpoint == endpoint) return e.seq;
    qFatal("no such event in the recording");
}

bool any(const QStringList& texts, const QString& part) {
    return std::any_of(texts.begin(), texts.end(), [&](const QString& t) { return t.contains(part); });
}

bool anyMatch(const QStringList& texts, const QRegularExpression& re) {
    return std::any_of(texts.begin(), texts.end(), [&](const QString& t) { return re.match(t).hasMatch(); });
}

int count(const QStringList& texts, const QString& exact) {
    return static_cast<int>(std::count(texts.begin(), texts.end(), exact));
}

QString joined(const QStringList& texts) {
    return texts.join(QStringLiteral(" | "));
}

/// The recording with its session's device made a NIC, as tests/data/lesson-write-hardware-edited.jsonl is.
std::vector<TraceEvent> asHardware(std::vector<TraceEvent> events) {
    for (auto& e : events)
        if (e.kind == EventKind::Session) {
            e.data["device_info"] = {{"driver", "mlx5"}, {"name", "mlx5_0"}, {"software", false}};
            e.data["device"] = "mlx5_0";
        }
    return events;
}

/// The recording with A's first completion given another status (a variant of a real failure, to check how
/// each status is drawn; nothing else in the trace changes).
std::vector<TraceEvent> withStatus(std::vector<TraceEvent> events, const std::string& status) {
    for (auto& e : events)
        if (e.kind == EventKind::Wc && e.endpoint == Endpoint::A) {
            e.name = status;
            break;
        }
    return events;
}

const QRegularExpression kDma(QStringLiteral("\\bDMA\\b"));

/// The recording with A's send-queue request made `opcode` (an atomic in place of a READ: both bring bytes
/// back to A, so the rest of the trace still fits).
std::vector<TraceEvent> withOpcode(std::vector<TraceEvent> events, const std::string& opcode) {
    for (auto& e : events)
        if (e.kind == EventKind::PostWr && e.endpoint == Endpoint::A) {
            e.name = opcode;
            e.data["opcode"] = opcode;
        }
    return events;
}

/// The recording with every QP created as `type` ("UC", "UD"): the completions stay what they were.
std::vector<TraceEvent> withQpType(std::vector<TraceEvent> events, const std::string& type) {
    for (auto& e : events)
        if (e.kind == EventKind::Verb && e.name == "ibv_create_qp") e.data["args"]["qp_type"] = type;
    return events;
}

/// The English texts of app/translations/rdmalab_zh_CN.ts whose Chinese differs, each as a pattern that
/// matches the text with its %1… filled in.
std::vector<std::pair<QString, QRegularExpression>> translatedSources() {
    QFile file(RDMALAB_SOURCE_DIR + QStringLiteral("/app/translations/rdmalab_zh_CN.ts"));
    if (!file.open(QIODevice::ReadOnly)) qFatal("cannot read the translations");
    QXmlStreamReader xml(&file);
    std::vector<std::pair<QString, QRegularExpression>> sources;
    QString source;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement) continue;
        if (xml.name() == QLatin1String("source")) source = xml.readElementText();
        if (xml.name() != QLatin1String("translation")) continue;
        const QString translation = xml.readElementText();
        QString bare = source;
        bare.remove(QRegularExpression(QStringLiteral("%[0-9]")));
        if (translation.isEmpty() || translation == source ||
            !bare.contains(QRegularExpression("[A-Za-z]{3}")))
            continue;
        QString pattern = QRegularExpression::escape(source);
        pattern.replace(QRegularExpression(QStringLiteral("%[0-9]")), QStringLiteral(".*"));
        sources.emplace_back(source, QRegularExpression(QRegularExpression::anchoredPattern(pattern)));
    }
    return sources;
}

} // namespace

class DataPathTest : public QObject {
    Q_OBJECT
  private slots:
    void softRoceRecordingDrawsTheSoftwarePath() {
        const QStringList texts = play(test::loadRecording("lesson-write.jsonl"));
        const QString all = joined(texts);
        // The doorbell is a write() system call into the kernel, where rdma_rxe does the NIC's work.
        QVERIFY2(any(texts, "send doorbell: write() system call"), qPrintable(all));
        QCOMPARE(count(texts, "write() system call: doorbell"), 1); // the one send post rang it
        QVERIFY2(any(texts, "Kernel: ib_uverbs + rdma_rxe"), qPrintable(all));
        QVERIFY(any(texts, "rdma_rxe (below) does the NIC's work on a CPU"));
        QVERIFY(any(texts, "rxe0 · software RDMA device"));
        QVERIFY(any(texts, "rxe copies the payload with the CPU (kernel)"));
        QVERIFY(
            any(texts,
                "rxe copies the bytes into B's memory with the CPU (kernel): B's application runs no code"));
        QVERIFY(any(texts, "dashed = illustration of what happens inside the rxe driver"));
        // One device: the packets turn round inside the driver.
        QVERIFY(any(texts, "A and B are both on rxe0: rxe loops the packets back inside the driver"));
        QVERIFY(any(texts, "RoCE v2 packets: UDP/IP, port 4791"));
        // Nothing of the hardware story.
        QVERIFY2(!anyMatch(texts, kDma), qPrintable(all));
        QVERIFY(!any(texts, "skips the kernel"));
        QVERIFY(!any(texts, "bypasses the kernel"));
        QVERIFY(!any(texts, "MMIO"));
        QVERIFY(!any(texts, "no CPU involved"));
        QVERIFY(!any(texts, "RNIC"));
    }

    void editedHardwareRecordingDrawsTheHardwarePath() {
        const QStringList texts = play(test::loadRecording("lesson-write-hardware-edited.jsonl"));
        const QString all = joined(texts);
        QVERIFY2(any(texts, "data path: bypasses the kernel"), qPrintable(all));
        QVERIFY(any(texts, "Kernel (ib_uverbs: control path only)"));
        QVERIFY(any(texts, "RNIC · mlx5_0"));
        QCOMPARE(count(texts, "MMIO doorbell write"), 1);
        QVERIFY(any(texts, "NIC reads the payload (DMA)"));
        QVERIFY(any(texts, "DMA read 64 B"));
        QVERIFY(any(texts, "DMA write 64 B"));
        QVERIFY(any(texts, "bytes land in B's memory (DMA): B's CPU takes no part"));
        QVERIFY(any(texts, "A and B are both on mlx5_0: the packets usually turn around inside the NIC"));
        QVERIFY(!any(texts, "never leave")); // whether they do is the device's and its set-up's business
        QVERIFY(any(texts, "dashed = illustration of what happens inside the NIC"));
        // No system call rings this doorbell, and nothing is copied by a CPU in a kernel driver.
        QVERIFY2(!any(texts, "write()"), qPrintable(all));
        QVERIFY(!any(texts, "rdma_rxe"));
        QVERIFY(!any(texts, "CPU copy"));
        QVERIFY(!any(texts, "SoftRoCE (software RDMA)")); // the badge; the note names the original device
    }

    void theEditedRecordingCarriesItsNote() {
        const QStringList texts = play(test::loadRecording("lesson-write-hardware-edited.jsonl"));
        QVERIFY2(
            any(texts, "Edited by hand: a real SoftRoCE recording (rxe0) whose device was renamed mlx5_0"),
            qPrintable(joined(texts)));
        // The real recording has none.
        QVERIFY(!any(play(test::loadRecording("lesson-write.jsonl")), "Edited by hand"));
    }

    void aReceivePostDoesNotRingTheDoorbell() {
        // lesson-send.jsonl: B posts its receive, then A posts the send.
        const auto events = test::loadRecording("lesson-send.jsonl");
        auto send = std::find_if(events.begin(), events.end(), [](const TraceEvent& e) {
            return e.kind == EventKind::PostWr && e.endpoint == Endpoint::A;
        });
        QVERIFY(send != events.end());
        const std::vector<TraceEvent> upToRecv(events.begin(), send);
        QVERIFY(std::any_of(upToRecv.begin(), upToRecv.end(), [](const TraceEvent& e) {
            return e.kind == EventKind::PostWr && e.endpoint == Endpoint::B;
        }));
        for (const auto& recording : {upToRecv, asHardware(upToRecv)}) {
            const QStringList texts = play(recording);
            QVERIFY2(any(texts, "WQE RECV #"), qPrintable(joined(texts))); // the receive was drawn
            QCOMPARE(count(texts, "write() system call: doorbell"), 0);
            QCOMPARE(count(texts, "MMIO doorbell write"), 0);
        }
        // The whole recording: the send rings it once.
        QCOMPARE(count(play(events), "write() system call: doorbell"), 1);
        QCOMPARE(count(play(asHardware(events)), "MMIO doorbell write"), 1);
    }

    void anInlineSendIsNotReadFromTheBuffer() {
        // A real inline WRITE (rdmalab-cli op write --inline) and, for contrast, the one without.
        const auto inlined = test::loadRecording("lesson-write-inline.jsonl");
        const QStringList hw = play(asHardware(inlined));
        QVERIFY2(any(hw, "64 B inline: the CPU copied them into the WQE"), qPrintable(joined(hw)));
        QVERIFY(any(hw, "inline: the payload travels in the WQE, A's buffer is not read again"));
        QVERIFY(!any(hw, "DMA read"));
        QVERIFY(!any(hw, "NIC reads the payload"));
        QVERIFY(any(hw, "DMA write 64 B")); // the bytes still land at B
        const QStringList sw = play(inlined);
        QVERIFY(!any(sw, "rxe copies the payload"));
        QVERIFY(any(sw, "inline: the payload travels in the WQE"));
        // Not inline: the payload is read from A's buffer.
        const QStringList plain = play(asHardware(test::loadRecording("lesson-write.jsonl")));
        QVERIFY(any(plain, "DMA read 64 B"));
        QVERIFY(!any(plain, "inline"));
    }

    void rnrNakFollowsTheRequestersRnrRetry() {
        // fault-no-recv.jsonl: a SEND with no receive posted, A's QP in RTS with rnr_retry 0.
        auto events = test::loadRecording("fault-no-recv.jsonl");
        const QStringList texts = play(events);
        QVERIFY2(any(texts, "RNR NAK: rnr_retry 0, the send fails at once"), qPrintable(joined(texts)));
        QVERIFY(any(texts, "✗ no receive WQE posted"));
        QVERIFY(!any(texts, "retried"));
        // The same recording with A's rnr_retry set to 3: the label says so.
        for (auto& e : events)
            if (e.kind == EventKind::QpState && e.endpoint == Endpoint::A &&
                e.data["attrs"].contains("rnr_retry"))
                e.data["attrs"]["rnr_retry"] = 3;
        QVERIFY(any(play(events), "RNR NAK, retried 3 times, then failed"));
    }

    void rnrTextByRnrRetry() {
        using datapath::rnrNakText;
        QCOMPARE(rnrNakText(0), QString("RNR NAK: rnr_retry 0, the send fails at once"));
        QCOMPARE(rnrNakText(1), QString("RNR NAK, retried 1 time, then failed"));
        QCOMPARE(rnrNakText(6), QString("RNR NAK, retried 6 times, then failed"));
        QCOMPARE(rnrNakText(7), QString("RNR NAK: rnr_retry 7 never gives up"));
    }

    void aFailedCompletionIsDrawnByItsStatus() {
        const auto fault = test::loadRecording("fault-bad-rkey.jsonl"); // real: IBV_WC_REM_ACCESS_ERR
        const QStringList access = play(fault);
        QVERIFY2(any(access, "✗ rkey 0xff0978, range or rights refused by the responder"),
                 qPrintable(joined(access)));
        QVERIFY(any(access, "NAK: remote access error"));
        QVERIFY(any(access, "WRITE packet · rkey 0xff0978"));
        // The same trace with other statuses in place of REM_ACCESS_ERR.
        const QStringList retry = play(withStatus(fault, "IBV_WC_RETRY_EXC_ERR"));
        QVERIFY2(
            any(retry, "✗ no ACK: retried 7 times (retry_cnt) after timeouts or sequence NAKs, then failed"),
            qPrintable(joined(retry)));
        QVERIFY(any(retry, "WRITE packet · rkey 0xff0978")); // it left A
        QVERIFY(!any(retry, "NAK:"));                        // and nothing came back
        QVERIFY(!any(retry, "refused by the responder"));
        const QStringList local = play(withStatus(fault, "IBV_WC_LOC_PROT_ERR"));
        QVERIFY2(any(local, "✗ lkey refused on A: the payload cannot be read, nothing is sent"),
                 qPrintable(joined(local)));
        QVERIFY(!any(local, "WRITE packet")); // nothing reaches B
        QVERIFY(!any(local, "NAK"));
        const QStringList invalid = play(withStatus(fault, "IBV_WC_REM_INV_REQ_ERR"));
        QVERIFY(any(invalid, "NAK: invalid request"));
        QVERIFY(any(invalid, "✗ invalid request, refused by the responder"));
        QVERIFY(!any(invalid, "rkey 0xff0978, range or rights")); // not an rkey failure
        const QStringList op = play(withStatus(fault, "IBV_WC_REM_OP_ERR"));
        QVERIFY(any(op, "NAK: remote operational error"));
        const QStringList other = play(withStatus(fault, "IBV_WC_LOC_LEN_ERR"));
        QVERIFY(any(other, "✗ completed with IBV_WC_LOC_LEN_ERR"));
        QVERIFY(!any(other, "NAK"));
        QVERIFY(!any(other, "WRITE packet"));
        // REM_ACCESS_ERR is defined for READ, WRITE and atomics: a SEND that gets it is not drawn as a
        // refused receive buffer (a bad receive buffer is B's local error and REM_OP_ERR at A).
        const QStringList sendAccess =
            play(withStatus(test::loadRecording("lesson-send.jsonl"), "IBV_WC_REM_ACCESS_ERR"));
        QVERIFY2(any(sendAccess, "✗ the responder answered with a remote access error"),
                 qPrintable(joined(sendAccess)));
        QVERIFY(!any(sendAccess, "receive buffer's key"));
        // No status is drawn with the old catch-all.
        for (const auto* texts : {&access, &retry, &local, &invalid, &op, &other})
            QVERIFY(!any(*texts, "access rejected"));
    }

    void onlyRcIsDrawnAcknowledged() {
        // RC: the bytes land at B and an ACK comes back. UC and UD acknowledge nothing, and A's success means
        // only that the request left, so neither the landing nor an ACK is drawn for them.
        const QStringList rc = play(test::loadRecording("lesson-write.jsonl"));
        QVERIFY(count(rc, QStringLiteral("ACK")) >= 1);
        QVERIFY(any(rc, "rxe copies the bytes into B's memory"));
        for (const char* type : {"UC", "UD"}) {
            for (const char* file : {"lesson-write.jsonl", "lesson-send.jsonl"}) {
                const QStringList texts = play(withQpType(test::loadRecording(file), type));
                const QString all = joined(texts);
                QVERIFY2(any(texts, QStringLiteral("%1: no ACK comes back; A's completion means the request "
                                                   "left, not that it arrived")
                                        .arg(QLatin1String(type))),
                         qPrintable(all));
                QVERIFY2(count(texts, QStringLiteral("ACK")) == 0, qPrintable(all));
                QVERIFY(!any(texts, "rxe copies the bytes into B's memory"));
                QVERIFY(!any(texts, "rxe copies the bytes into the buffer of B's receive WQE"));
                QVERIFY(!any(texts, "takes the next receive WQE"));
                QVERIFY(!any(texts, "valid, access allowed"));
                QVERIFY(any(texts, "packet · ")); // the request is drawn leaving A
            }
        }
    }

    /// Issue 30: the picture follows the lab's cast. lab-ud-datagrams.jsonl is a real run of the UD datagrams
    /// lab (A sends to B, C and D; C's first datagram has the wrong Q_Key and is dropped, its second
    /// arrives): C and D are drawn with their QPs, buffers and completions, and a datagram reaches C only
    /// once C's receive completion shows it did.
    void theUdDatagramsLabDrawsCAndD() {
        const auto events = test::loadRecording("lab-ud-datagrams.jsonl");
        // Before the teardown (the first ibv_destroy_qp): every endpoint's QP is there.
        const auto lab = before(events, seqOf(events, EventKind::Verb, "ibv_destroy_qp", Endpoint::D));
        LabState state;
        for (const auto& e : lab)
            state.apply(e);
        QVERIFY(state.cast[2] && state.cast[3]);
        const quint32 qpn[] = {17, 18, 19, 20}; // as the recording's ibv_create_qp events numbered them
        for (std::size_t s = 0; s < kSides; ++s) {
            QCOMPARE(state.qps[s].qpn, qpn[s]);
            QCOMPARE(state.qps[s].state, s == 0 ? QString("RTS") : QString("RTR"));
            QVERIFY(state.objects[s].cq);
        }
        QCOMPARE(state.qps[2].qkey, QString("0x11111111"));
        QCOMPARE(state.objects[2].polled, 1); // C's one completion: the second datagram
        // The payload landed 40 bytes into C's and D's buffers, after the 40-byte GRH area.
        QCOMPARE(state.memory[2].bytes.mid(40, 14), QByteArray("one datagram, "));
        QCOMPARE(state.memory[3].bytes.mid(40, 14), QByteArray("one datagram, "));

        const QStringList texts = play(lab);
        for (const char* title : {"Host A · requester", "Host B", "Host C", "Host D"})
            QVERIFY2(texts.contains(QString::fromUtf8(title)), qPrintable(joined(texts)));
        QVERIFY(!texts.contains("Host B · responder")); // B is one receiver among three
        for (const char* qp : {"QP 17 · UD", "QP 18 · UD", "QP 19 · UD", "QP 20 · UD"})
            QVERIFY2(texts.contains(QString::fromUtf8(qp)), qPrintable(joined(texts)));
        QVERIFY(any(texts, "Q_Key 0x11111111"));
        for (const char* cq : {"CQ 2", "CQ 6", "CQ 10", "CQ 14"})
            QVERIFY2(texts.contains(QString::fromUtf8(cq)), cq);
        // Each receiver's completion is drawn in its own card: C's, D's and B's RECVs of 72 bytes.
        QCOMPARE(count(texts, "IBV_WC_SUCCESS · RECV · 72 B · wr_id 22"), 1); // C
        QCOMPARE(count(texts, "IBV_WC_SUCCESS · RECV · 72 B · wr_id 29"), 1); // D
        QCOMPARE(count(texts, "IBV_WC_SUCCESS · RECV · 72 B · wr_id 15"), 1); // B
        // A datagram from A's QP 17 reached each receiver, C's only with its second send.
        for (const char* side : {"B", "C", "D"})
            QVERIFY2(any(texts, QStringLiteral("rxe copies it into %1's receive buffer").arg(side)), side);
        QCOMPARE(count(texts, "datagram from QP 17 · 72 B"), 3);
        const QStringList dropped =
            play(before(events, seqOf(events, EventKind::Step, "send_c_right_qkey", Endpoint::A)));
        QVERIFY(any(dropped, "rxe copies it into D's receive buffer"));
        QVERIFY(!any(dropped, "rxe copies it into C's receive buffer"));
        QVERIFY(dropped.contains("RECV #22")); // C's receive still waits in its RQ
        // Destroyed objects leave the picture: after the teardown no QP and no receive is drawn.
        const QStringList end = play(events);
        QVERIFY(end.contains("Host C") && end.contains("Host D"));
        QVERIFY(!anyMatch(end, QRegularExpression("^QP \\d+")));
        QVERIFY(!end.contains("RECV #22"));
        // A two-endpoint run is drawn as before: two hosts whole, no card.
        const QStringList pair = play(test::loadRecording("lesson-send.jsonl"));
        QVERIFY(pair.contains("Host B · responder"));
        QVERIFY(!pair.contains("Host C") && !pair.contains("Host D"));
    }

    /// The shared stage (every window's picture, QP diagram and memory view) shows C and D of the UD lab's
    /// real run: the QP diagram their QPs' states, the memory view their buffers.
    void theStageShowsCAndDInEveryView() {
        const auto events = test::loadRecording("lab-ud-datagrams.jsonl");
        const auto lab = before(events, seqOf(events, EventKind::Verb, "ibv_destroy_qp", Endpoint::D));
        const LabState state = LabState::foldedFrom(lab, true);
        LabStage stage(LabStage::Arrangement::PictureBesideState);
        stage.resize(1280, 720);
        stage.setAnimationSpeed(0);
        stage.showAt(lab, state);
        QVERIFY(stage.dataPath()->drawnTexts().contains("QP 19 · UD"));
        for (int s = 0; s < static_cast<int>(kSides); ++s)
            QCOMPARE(stage.qpState()->shownState(s), s == 0 ? QString("RTS") : QString("RTR"));
        // A's events are A's, C's are C's: C's QP is not drawn as A's or B's.
        QCOMPARE(state.qps[0].qpn, 17u);
        QCOMPARE(state.qps[1].qpn, 18u);
        // Rendered at 1280x720 for a look (RDMALAB_CAST_PNG names the file).
        const QString png = qEnvironmentVariable("RDMALAB_CAST_PNG");
        if (!png.isEmpty()) {
            DataPathView view;
            view.resize(1280, 720);
            view.setAnimationSpeed(0);
            view.showAt(lab, state);
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));
            QVERIFY(view.grab().save(png));
            stage.show();
            QVERIFY(QTest::qWaitForWindowExposed(&stage));
            QVERIFY(stage.grab().save(QString(png).replace(".png", "-stage.png")));
        }
    }

    void everyPictureTextIsShownInChineseWhereItIsTranslated() {
        // Every recording and failure the picture draws, on both device paths, in Chinese: no text it shows
        // may be the English source of a string the .ts file translates (an overlay shown without going
        // through the translator once did exactly that).
        const auto sources = translatedSources();
        QVERIFY(sources.size() > 100);
        const auto fault = test::loadRecording("fault-bad-rkey.jsonl");
        const auto read = test::loadRecording("lesson-read.jsonl");
        const std::vector<std::vector<TraceEvent>> recordings = {
            test::loadRecording("lesson-write.jsonl"),
            read,
            test::loadRecording("lesson-send.jsonl"),
            withOpcode(read, "ATOMIC_FETCH_AND_ADD"),
            asHardware(test::loadRecording("lesson-write.jsonl")),
            asHardware(read),
            asHardware(test::loadRecording("lesson-send.jsonl")),
            asHardware(withOpcode(read, "ATOMIC_FETCH_AND_ADD")),
            fault,
            test::loadRecording("fault-no-recv.jsonl"),
            withStatus(fault, "IBV_WC_RETRY_EXC_ERR"),
            withStatus(fault, "IBV_WC_LOC_PROT_ERR"),
            withStatus(fault, "IBV_WC_WR_FLUSH_ERR"),
            withStatus(fault, "IBV_WC_REM_OP_ERR"),
            test::loadRecording("lab-ud-datagrams.jsonl"), // C and D drawn as cards, datagrams arriving
        };
        Language::instance()->set(QStringLiteral("zh"));
        QStringList untranslated;
        int shown = 0;
        for (const auto& events : recordings) {
            const QStringList texts = play(events);
            shown += static_cast<int>(texts.size());
            for (const QString& text : texts)
                for (const auto& [source, pattern] : sources)
                    if (pattern.match(text).hasMatch())
                        untranslated << text + QStringLiteral("  (") + source + ')';
        }
        Language::instance()->set(QStringLiteral("en"));
        QVERIFY(shown > 200);
        untranslated.removeDuplicates();
        QVERIFY2(untranslated.isEmpty(), qPrintable(untranslated.join('\n')));
    }
};

QTEST_MAIN(DataPathTest)
#include "tst_datapath.moc"
