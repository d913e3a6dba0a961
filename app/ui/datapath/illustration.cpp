// What happens between a posted send-queue request and its completion, illustrated (dashed, hatched) when
// the completion arrives: how the payload is taken, the request, the responder's check, the bytes landing,
// the answer. The texts come from the device's row (devicepath.h: DMA on a NIC, CPU copies in rdma_rxe) and
// the failure's row (choreography.h: how far the request got, what came back).
#include "impl.h"

#include <QCoreApplication>

namespace rdmalab::app {

using namespace datapath;

namespace {

/// The label of the request's packet: its opcode, the rkey of a one-sided one, the bytes it carries or asks.
QString requestText(const OpcodeShape& shape, const QString& op, quint32 rkey, const QString& bytes) {
    if (shape.send)
        return QCoreApplication::translate("rdmalab::app::DataPathView", "%1 packet · %2")
            .arg(shortOpcode(op), bytes);
    if (shape.read)
        return QCoreApplication::translate("rdmalab::app::DataPathView", "READ request · rkey 0x%1 · %2")
            .arg(rkey, 0, 16)
            .arg(bytes);
    if (shape.atomic)
        return QCoreApplication::translate("rdmalab::app::DataPathView", "%1 request · rkey 0x%2")
            .arg(shortOpcode(op))
            .arg(rkey, 0, 16);
    return QCoreApplication::translate("rdmalab::app::DataPathView", "%1 packet · rkey 0x%2 · %3")
        .arg(shortOpcode(op))
        .arg(rkey, 0, 16)
        .arg(bytes);
}

/// What the responder does with the request: takes a receive WQE or accepts the rkey, or the failure's
/// refusal (with the rkey in hex where the text names it).
QString responderCheckText(const OpcodeShape& shape, Fault fault, const FaultStory& failure, quint32 rkey) {
    if (fault == Fault::None || fault == Fault::LocalProtection)
        return shape.send
                   ? QCoreApplication::translate("rdmalab::app::DataPathView", "takes the next receive WQE")
                   : QCoreApplication::translate("rdmalab::app::DataPathView",
                                                 "rkey 0x%1 valid, access allowed")
                         .arg(rkey, 0, 16);
    QString check = pathText(shape.send ? failure.checkSend : failure.checkOneSided);
    if (check.contains(QLatin1String("%1"))) check = check.arg(rkey, 0, 16);
    return check;
}

} // namespace

void DataPathView::Impl::note(QRectF at, const QString& text, bool error) {
    stages.push_back([this, at, text, error](QParallelAnimationGroup* g) {
        fadeIn(g, overlay(at, text, error), ms(300));
        anim(g, ms(700), [](qreal) {});
    });
}

void DataPathView::Impl::illustrateFlushed(std::size_t hs) {
    stages.push_back([this, hs](QParallelAnimationGroup* g) {
        overlay(
            qpNote(hs),
            QCoreApplication::translate("rdmalab::app::DataPathView", "QP in ERR: the request is flushed"),
            true);
        auto* t = token(QCoreApplication::translate("rdmalab::app::DataPathView", "flushed"), true, true,
                        center(host[hs].sq));
        // Below the queues, across to the CQ (a card's lower row is one line: straight across).
        const qreal below = host[hs].compact ? center(host[hs].sq).y() : kBelowRnicY;
        travel(g, t,
               polyline({center(host[hs].sq), QPointF(center(host[hs].sq).x(), below),
                         QPointF(center(host[hs].cq).x(), below), host[hs].cq->slotRect(0).center()}),
               ms(800));
    });
}

void DataPathView::Impl::illustrateFetch(int s, int r, Fault fault, bool atomic, const QString& bytes,
                                         QRectF bufferA, QRectF bufferB, const PathStory& pathStory) {
    const auto hs = static_cast<std::size_t>(s);
    const auto hr = static_cast<std::size_t>(r);
    const PathStory* story = &pathStory;
    stages.push_back([this, r, hr, bytes, atomic, bufferB, story](QParallelAnimationGroup* g) {
        overlay(bufferB, pathText(atomic ? story->atomicOverlay : story->responderRead), false);
        auto* t = token(atomic ? pathText(story->atomicToken) : pathText(story->readToken).arg(bytes), true,
                        false, bufferAt(r));
        travel(g, t, dmaAt(r, center(host[hr].mtt), false), ms(600));
    });
    stages.push_back([this, s, r, hs, hr, bytes, atomic](QParallelAnimationGroup* g) {
        auto* t = token(
            atomic
                ? QCoreApplication::translate("rdmalab::app::DataPathView", "ATOMIC response · old value")
                : QCoreApplication::translate("rdmalab::app::DataPathView", "READ response · %1").arg(bytes),
            true, false, center(host[hr].mtt));
        travel(g, t, packetPath(r, s, center(host[hr].mtt), center(host[hs].sq)), ms(900));
    });
    if (fault == Fault::LocalProtection) {
        note(bufferA, localProtectionText(true), true);
        return;
    }
    const QString landed = atomic ? QStringLiteral("8 B") : bytes;
    stages.push_back([this, s, hs, landed, bufferA, story](QParallelAnimationGroup* g) {
        overlay(bufferA, pathText(story->landRequester), false);
        auto* t = token(pathText(story->writeToken).arg(landed), true, false, center(host[hs].sq));
        travel(g, t, dmaAt(s, center(host[hs].sq), true), ms(600));
    });
}

void DataPathView::Impl::illustrate(int s, const PendingSend& w, const QString& status) {
    const int r = responderOf(s);
    const auto hs = static_cast<std::size_t>(s);
    const auto hr = static_cast<std::size_t>(r);
    const Fault fault = faultOf(status);
    const bool success = fault == Fault::None;
    if (fault == Fault::Flushed) {
        illustrateFlushed(hs);
        return;
    }
    const PathStory* story = &storyFor(deviceClassOf(shown));
    const FaultStory& failure = faultStory(fault);
    const QString op = w.opcode;
    const OpcodeShape shape = shapeOf(op);
    const bool fetches = shape.read || shape.atomic; // bytes come back to A
    const QString bytes = QStringLiteral("%1 B").arg(w.length);
    const QRectF bufferA = host[hs].app->cellsRect().adjusted(-3, -2, 3, 2);
    const QRectF bufferB = host[hr].app->cellsRect().adjusted(-3, -2, 3, 2);

    // A status with no story (not a local protection error, which depends on the opcode): named on A's send
    // queue, no cause invented for it.
    if (!success && !failure.sent && fault != Fault::LocalProtection) {
        note(host[hs].sq->rect().adjusted(-3, -3, 3, 3),
             QCoreApplication::translate("rdmalab::app::DataPathView", "✗ completed with %1").arg(status),
             true);
        return;
    }
    // 1. The payload: in the WQE already (inline), or taken from A's buffer, unless A's lkey is refused.
    if (shape.payload) {
        if (w.inlineData) {
            note(host[hs].sq->rect().adjusted(-3, -3, 3, 3), inlineSentText(), false);
        } else if (fault == Fault::LocalProtection) {
            note(bufferA, localProtectionText(false), true);
            return;
        } else {
            stages.push_back([this, s, hs, bytes, bufferA, story](QParallelAnimationGroup* g) {
                overlay(bufferA, pathText(story->readPayload), false);
                auto* t = token(pathText(story->readToken).arg(bytes), true, false, bufferAt(s));
                travel(g, t, dmaAt(s, center(host[hs].sq), false), ms(600));
            });
        }
    }
    // 2. The request leaves A.
    const QString request = requestText(shape, op, w.rkey, bytes);
    const bool looped = !shown.pairDevice().isEmpty();
    if (failure.sent && !failure.reachesResponder) { // retries exceeded
        // It left, and nothing came back: where it was lost is not known, so it is drawn only leaving.
        stages.push_back([this, s, hs, request, looped](QParallelAnimationGroup* g) {
            auto* t = token(request, true, false, center(host[hs].sq));
            travel(g, t, halfway(s, center(host[hs].sq), looped), ms(700));
        });
        note(qpNote(hs), retryExceededText(shown.qps[hs].retryCnt), true);
        return;
    }
    // UC and UD acknowledge nothing (the responder answers only RC: rxe_resp.c acknowledge()), so the
    // requester's success says only that the request left: whether it arrived is B's to show (its receive
    // completion, its memory), and nothing is drawn arriving or coming back.
    const QString qpType = shown.qps[hs].type;
    if (success && !qpType.isEmpty() && qpType != QLatin1String("RC")) {
        stages.push_back([this, s, hs, request, looped](QParallelAnimationGroup* g) {
            auto* t = token(request, true, false, center(host[hs].sq));
            travel(g, t, halfway(s, center(host[hs].sq), looped), ms(700));
        });
        note(qpNote(hs), unacknowledgedText(qpType), false);
        return;
    }
    Block* at = shape.send ? host[hr].rq : host[hr].mtt;
    stages.push_back([this, s, r, hs, at, request](QParallelAnimationGroup* g) {
        auto* t = token(request, true, false, center(host[hs].sq));
        travel(g, t, packetPath(s, r, center(host[hs].sq), center(at)), ms(900));
    });
    // 3. The responder finds a receive WQE, or checks the rkey, range and rights; a failure answers with a
    // NAK.
    const QString check = responderCheckText(shape, fault, failure, w.rkey);
    const bool refused = failure.reachesResponder;
    note(at->rect().adjusted(-3, -3, 3, 3), check, refused);
    if (refused) {
        const QString nak =
            fault == Fault::NotReady ? rnrNakText(shown.qps[hs].rnrRetry) : pathText(failure.nak);
        if (nak.isEmpty()) return;
        stages.push_back([this, s, r, hs, at, nak](QParallelAnimationGroup* g) {
            auto* t = token(nak, true, true, center(at));
            travel(g, t, packetPath(r, s, center(at), center(host[hs].sq)), ms(900));
        });
        return;
    }
    // 4. The bytes: a READ's or an atomic's come back to A, a WRITE's or a SEND's land at B and are ACKed.
    if (fetches) {
        illustrateFetch(s, r, fault, shape.atomic, bytes, bufferA, bufferB, *story);
        return;
    }
    // A local protection error of a request that was not read from A's buffer (inline): nothing more known.
    if (fault == Fault::LocalProtection) return;
    const bool send = shape.send;
    stages.push_back([this, r, bytes, send, at, bufferB, story](QParallelAnimationGroup* g) {
        overlay(bufferB, pathText(send ? story->landReceive : story->landOneSided), false);
        auto* t = token(pathText(story->writeToken).arg(bytes), true, false, center(at));
        travel(g, t, dmaAt(r, center(at), true), ms(600));
    });
    stages.push_back([this, s, r, hs, hr](QParallelAnimationGroup* g) {
        auto* t = token(QStringLiteral("ACK"), true, false, center(host[hr].qp));
        travel(g, t, packetPath(r, s, center(host[hr].sq), center(host[hs].sq)), ms(800));
    });
}

void DataPathView::Impl::illustrateArrival(int s, const TraceEvent& e) {
    // RC: the sender's completion drew the request arriving and its ACK. A receive completion of a UD or UC
    // QP is the first sign that something arrived: drawn here, from the middle between the hosts.
    const auto hs = static_cast<std::size_t>(s);
    const QString qpType = shown.qps[hs].type;
    const QString opcode = lenientText(e.data, "opcode");
    if (qpType.isEmpty() || qpType == QLatin1String("RC") || !opcode.startsWith(QLatin1String("RECV")))
        return;
    const qint64 bytes = lenientInt(e.data, "byte_len", 0);
    const qint64 source = lenientInt(e.data, "src_qp", 0);
    const QString packet =
        qpType == QLatin1String("UD") && source > 0
            ? QCoreApplication::translate("rdmalab::app::DataPathView", "datagram from QP %1 · %2 B")
                  .arg(source)
                  .arg(bytes)
            : QCoreApplication::translate("rdmalab::app::DataPathView", "%1 packet · %2 B")
                  .arg(qpType)
                  .arg(bytes);
    const PathStory* story = &storyFor(deviceClassOf(shown));
    const QRectF buffer = host[hs].app->cellsRect().adjusted(-3, -2, 3, 2);
    stages.push_back([this, s, hs, packet](QParallelAnimationGroup* g) {
        const QPointF rq = center(host[hs].rq);
        auto* t = token(packet, true, false, arrivalPath(s, rq).pointAtPercent(0));
        travel(g, t, arrivalPath(s, rq), ms(800));
    });
    stages.push_back([this, s, hs, bytes, buffer, story](QParallelAnimationGroup* g) {
        overlay(buffer, pathText(story->landArrived).arg(sideLetter(s)), false);
        auto* t = token(pathText(story->writeToken).arg(QStringLiteral("%1 B").arg(bytes)), true, false,
                        center(host[hs].rq));
        travel(g, t, dmaAt(s, center(host[hs].rq), true), ms(600));
    });
}

} // namespace rdmalab::app
