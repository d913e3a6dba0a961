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

QPainterPath DataPathView::Impl::packetPath(int from, QPointF start, QPointF end) const {
    return shown.pairDevice().isEmpty() ? wirePath(from, start, end) : loopPath(start, end);
}

void DataPathView::Impl::note(QRectF at, const QString& text, bool error) {
    stages.push_back([this, at, text, error](QParallelAnimationGroup* g) {
        fadeIn(g, overlay(at, text, error), ms(300));
        anim(g, ms(700), [](qreal) {});
    });
}

void DataPathView::Impl::illustrateFlushed(std::size_t hs) {
    stages.push_back([this, hs](QParallelAnimationGroup* g) {
        overlay(
            host[hs].qp->rect().adjusted(4, 30, -4, -150),
            QCoreApplication::translate("rdmalab::app::DataPathView", "QP in ERR: the request is flushed"),
            true);
        auto* t = token(QCoreApplication::translate("rdmalab::app::DataPathView", "flushed"), true, true,
                        center(host[hs].sq));
        travel(g, t,
               polyline({center(host[hs].sq), QPointF(center(host[hs].sq).x(), kBelowRnicY),
                         QPointF(center(host[hs].cq).x(), kBelowRnicY), host[hs].cq->slotRect(0).center()}),
               ms(800));
    });
}

void DataPathView::Impl::illustrateFetch(int s, Fault fault, bool atomic, const QString& bytes,
                                         QRectF bufferA, QRectF bufferB, const PathStory& pathStory) {
    const int r = 1 - s;
    const auto hs = static_cast<std::size_t>(s);
    const auto hr = static_cast<std::size_t>(r);
    const PathStory* story = &pathStory;
    stages.push_back([this, r, hr, bytes, atomic, bufferB, story](QParallelAnimationGroup* g) {
        overlay(bufferB, pathText(atomic ? story->atomicOverlay : story->responderRead), false);
        auto* t = token(atomic ? pathText(story->atomicToken) : pathText(story->readToken).arg(bytes), true,
                        false, bufferLanePoint(r));
        travel(g, t, dmaPath(r, center(host[hr].mtt), false), ms(600));
    });
    stages.push_back([this, r, hs, hr, bytes, atomic](QParallelAnimationGroup* g) {
        auto* t = token(
            atomic
                ? QCoreApplication::translate("rdmalab::app::DataPathView", "ATOMIC response · old value")
                : QCoreApplication::translate("rdmalab::app::DataPathView", "READ response · %1").arg(bytes),
            true, false, center(host[hr].mtt));
        travel(g, t, packetPath(r, center(host[hr].mtt), center(host[hs].sq)), ms(900));
    });
    if (fault == Fault::LocalProtection) {
        note(bufferA, localProtectionText(true), true);
        return;
    }
    const QString landed = atomic ? QStringLiteral("8 B") : bytes;
    stages.push_back([this, s, hs, landed, bufferA, story](QParallelAnimationGroup* g) {
        overlay(bufferA, pathText(story->landRequester), false);
        auto* t = token(pathText(story->writeToken).arg(landed), true, false, center(host[hs].sq));
        travel(g, t, dmaPath(s, center(host[hs].sq), true), ms(600));
    });
}

void DataPathView::Impl::illustrate(int s, const PendingSend& w, const QString& status) {
    const int r = 1 - s;
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
                auto* t = token(pathText(story->readToken).arg(bytes), true, false, bufferLanePoint(s));
                travel(g, t, dmaPath(s, center(host[hs].sq), false), ms(600));
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
            travel(g, t, halfwayPath(s, center(host[hs].sq), looped), ms(700));
        });
        note(host[hs].qp->rect().adjusted(4, 30, -4, -150), retryExceededText(shown.qps[hs].retryCnt), true);
        return;
    }
    // UC and UD acknowledge nothing (the responder answers only RC: rxe_resp.c acknowledge()), so the
    // requester's success says only that the request left: whether it arrived is B's to show (its receive
    // completion, its memory), and nothing is drawn arriving or coming back.
    const QString qpType = shown.qps[hs].type;
    if (success && !qpType.isEmpty() && qpType != QLatin1String("RC")) {
        stages.push_back([this, s, hs, request, looped](QParallelAnimationGroup* g) {
            auto* t = token(request, true, false, center(host[hs].sq));
            travel(g, t, halfwayPath(s, center(host[hs].sq), looped), ms(700));
        });
        note(host[hs].qp->rect().adjusted(4, 30, -4, -150), unacknowledgedText(qpType), false);
        return;
    }
    Block* at = shape.send ? host[hr].rq : host[hr].mtt;
    stages.push_back([this, s, hs, at, request](QParallelAnimationGroup* g) {
        auto* t = token(request, true, false, center(host[hs].sq));
        travel(g, t, packetPath(s, center(host[hs].sq), center(at)), ms(900));
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
        stages.push_back([this, r, hs, at, nak](QParallelAnimationGroup* g) {
            auto* t = token(nak, true, true, center(at));
            travel(g, t, packetPath(r, center(at), center(host[hs].sq)), ms(900));
        });
        return;
    }
    // 4. The bytes: a READ's or an atomic's come back to A, a WRITE's or a SEND's land at B and are ACKed.
    if (fetches) {
        illustrateFetch(s, fault, shape.atomic, bytes, bufferA, bufferB, *story);
        return;
    }
    // A local protection error of a request that was not read from A's buffer (inline): nothing more known.
    if (fault == Fault::LocalProtection) return;
    const bool send = shape.send;
    stages.push_back([this, r, bytes, send, at, bufferB, story](QParallelAnimationGroup* g) {
        overlay(bufferB, pathText(send ? story->landReceive : story->landOneSided), false);
        auto* t = token(pathText(story->writeToken).arg(bytes), true, false, center(at));
        travel(g, t, dmaPath(r, center(at), true), ms(600));
    });
    stages.push_back([this, r, hs, hr](QParallelAnimationGroup* g) {
        auto* t = token(QStringLiteral("ACK"), true, false, center(host[hr].qp));
        travel(g, t, packetPath(r, center(host[hr].sq), center(host[hs].sq)), ms(800));
    });
}

} // namespace rdmalab::app
