// The picture of the run's cast: hosts A and B drawn whole (layout.h), or, when the run names C or D, A whole
// and one card per endpoint of B, C and D in B's place. A card is its application buffer and its RDMA objects
// (QP, SQ, RQ, MTT, CQ, PD, doorbell); the layers between (verbs library, kernel, device) are those of A and
// are not drawn again. Tokens in a card run through the gap between its two columns (its lane).
#include "impl.h"

#include <QCoreApplication>

namespace rdmalab::app {

using namespace datapath;

void DataPathView::Impl::placeWhole(int s) {
    auto& h = host[static_cast<std::size_t>(s)];
    h.compact = false;
    h.frame->setRect(QRectF(hostX(s), kHostTop, kHostW, kHostBottom - kHostTop));
    h.app->setRect(L(s, 0, kAppY, kInnerW, kAppH));
    h.app->compact = false;
    h.verbs->setRect(L(s, 0, kVerbsY, kInnerW, kVerbsH));
    h.kernel->setRect(L(s, 0, kKernelY, kKernelW, kKernelH));
    h.rnic->setRect(L(s, 0, kRnicY, kInnerW, kRnicH));
    h.port->setRect(L(s, 0, kPortY, kInnerW, kPortH));
    h.pd->setRect(L(s, 80, kRnicY + 5, 80, 26));
    h.doorbell->setRect(L(s, kDataLaneX - 94, kRnicY + 5, 170, 26));
    h.qp->setRect(L(s, 12, kRnicY + 38, 330, 302));
    h.qp->wrapLast = 3;
    h.sq->setRect(L(s, 22, kRnicY + 196, 310, 68));
    h.sq->slotCount = 4;
    h.rq->setRect(L(s, 22, kRnicY + 268, 310, 68));
    h.rq->slotCount = 4;
    h.mtt->setRect(L(s, 354, kRnicY + 38, 274, 150));
    h.mtt->wrapLast = 2;
    h.cq->setRect(L(s, 354, kRnicY + 196, 274, 140));
    h.cq->slotCount = 4;
    h.cq->wrapLast = 2;
    h.frame->emphasised = false;
    for (QGraphicsItem* item :
         std::initializer_list<QGraphicsItem*>{h.frame, h.app, h.verbs, h.kernel, h.rnic, h.port, h.pd,
                                               h.doorbell, h.qp, h.sq, h.rq, h.mtt, h.cq})
        item->setVisible(true);
    if (h.lanes) h.lanes->setVisible(true);
}

void DataPathView::Impl::placeCard(int s, QRectF card) {
    auto& h = host[static_cast<std::size_t>(s)];
    h.compact = true;
    const qreal x0 = card.left() + 10, w = card.width() - 20;
    const qreal rowY = card.bottom() - 4 - kCardRowH;
    const qreal upperY = card.top() + kCardTitleH, upperH = rowY - 4 - upperY;
    const qreal outerX = x0 + kCardInnerW + kCardColumnGap, outerW = w - kCardInnerW - kCardColumnGap;
    const qreal innerHalf = (kCardInnerW - 8) / 2, outerHalf = (outerW - 8) / 2;
    h.frame->setRect(card);
    h.pd->setRect(QRectF(x0 + w - 80, card.top() + 3, 80, 20));
    h.doorbell->setRect(QRectF(x0 + w - 80 - 8 - 150, card.top() + 3, 150, 20));
    h.qp->setRect(QRectF(x0, upperY, kCardInnerW, upperH));
    h.qp->wrapLast = 1;
    h.sq->setRect(QRectF(x0, rowY, innerHalf, kCardRowH));
    h.sq->slotCount = 2;
    h.rq->setRect(QRectF(x0 + innerHalf + 8, rowY, innerHalf, kCardRowH));
    h.rq->slotCount = 2;
    h.app->setRect(QRectF(outerX, upperY, outerW, upperH));
    h.app->compact = true;
    h.mtt->setRect(QRectF(outerX, rowY, outerHalf, kCardRowH));
    h.mtt->wrapLast = 1;
    h.cq->setRect(QRectF(outerX + outerHalf + 8, rowY, outerHalf, kCardRowH));
    h.cq->slotCount = 1;
    h.cq->wrapLast = 1;
    for (QGraphicsItem* item : std::initializer_list<QGraphicsItem*>{h.frame, h.app, h.pd, h.doorbell, h.qp,
                                                                     h.sq, h.rq, h.mtt, h.cq})
        item->setVisible(true);
    for (Block* b : {h.verbs, h.kernel, h.rnic})
        b->setVisible(false);
    // B's port stays where it is, the port of every card (one device); C and D have none of their own.
    h.port->setVisible(s == 1);
    if (h.lanes) h.lanes->setVisible(false);
}

void DataPathView::Impl::relayoutCast() {
    std::vector<int> wanted;
    if (shown.castBeyondPair() || target.castBeyondPair()) {
        wanted.push_back(1);
        for (int s = 2; s < static_cast<int>(kSides); ++s)
            if (shown.cast[static_cast<std::size_t>(s)] || target.cast[static_cast<std::size_t>(s)])
                wanted.push_back(s);
    }
    if (wanted == cards) return;
    cards = wanted;
    if (cards.empty()) {
        placeWhole(1);
        for (int s = 2; s < static_cast<int>(kSides); ++s) {
            auto& h = host[static_cast<std::size_t>(s)];
            h.compact = true;
            for (QGraphicsItem* item :
                 std::initializer_list<QGraphicsItem*>{h.frame, h.app, h.verbs, h.kernel, h.rnic, h.port,
                                                       h.pd, h.doorbell, h.qp, h.sq, h.rq, h.mtt, h.cq})
                item->setVisible(false);
        }
    } else {
        const auto n = static_cast<qreal>(cards.size());
        const qreal height = (kCardsBottom - kCardsTop - (n - 1) * kCardGap) / n;
        for (std::size_t i = 0; i < cards.size(); ++i)
            placeCard(cards[i], QRectF(hostX(1), kCardsTop + static_cast<qreal>(i) * (height + kCardGap),
                                       kHostW, height));
        for (int s = 2; s < static_cast<int>(kSides); ++s)
            if (std::find(cards.begin(), cards.end(), s) == cards.end()) {
                auto& h = host[static_cast<std::size_t>(s)];
                for (QGraphicsItem* item :
                     std::initializer_list<QGraphicsItem*>{h.frame, h.app, h.verbs, h.kernel, h.rnic, h.port,
                                                           h.pd, h.doorbell, h.qp, h.sq, h.rq, h.mtt, h.cq})
                    item->setVisible(false);
            }
    }
    retitle();
    refreshAll();
    scene->update();
}

Block* DataPathView::Impl::partOf(std::size_t hs, Part p) const {
    const auto& h = host[hs];
    if (!h.compact) return h.part(p);
    switch (p) {
    case Part::Verbs:
    case Part::Kernel:
    case Part::Rnic:
        return h.frame;
    case Part::Port:
        return host[1].port;
    default:
        return h.part(p);
    }
}

namespace {
/// A card's lane: the gap between its inner column (QP, SQ, RQ) and its outer one (buffer, MTT, CQ).
qreal laneOf(const HostItems& h) {
    return h.app->rect().left() - kCardColumnGap / 2;
}
} // namespace

QPointF DataPathView::Impl::appAt(int s) const {
    const auto& h = host[static_cast<std::size_t>(s)];
    if (!h.compact) return appPoint(s);
    return QPointF(h.app->rect().left() + 60, h.app->rect().bottom() - 10);
}

QPointF DataPathView::Impl::entryAt(int s) const {
    const auto& h = host[static_cast<std::size_t>(s)];
    if (!h.compact) return rnicEntry(s);
    return QPointF(laneOf(h), h.qp->rect().top() + 12);
}

QPointF DataPathView::Impl::bufferAt(int s) const {
    const auto& h = host[static_cast<std::size_t>(s)];
    if (!h.compact) return bufferLanePoint(s);
    return h.app->cellsRect().center();
}

QPointF DataPathView::Impl::portAt(int s) const {
    return portCenter(s == 0 ? 0 : 1);
}

QPointF DataPathView::Impl::aboveOf(int s, const Block* b) const {
    if (!host[static_cast<std::size_t>(s)].compact) return above(b);
    return QPointF(b->rect().center().x(), b->rect().top() + 12);
}

QRectF DataPathView::Impl::qpNote(std::size_t hs) const {
    const QRectF r = host[hs].qp->rect();
    return host[hs].compact ? r.adjusted(4, 24, -4, -std::max<qreal>(4, r.height() - 60))
                            : r.adjusted(4, 30, -4, -150);
}

QPainterPath DataPathView::Impl::downPath(int s, QPointF to, bool control) const {
    const auto& h = host[static_cast<std::size_t>(s)];
    if (!h.compact) return control ? controlPath(s, to) : dataPath(s, to);
    const QPointF from = appAt(s);
    const qreal x = laneOf(h);
    return polyline({from, QPointF(x, from.y()), QPointF(x, to.y()), to});
}

QPainterPath DataPathView::Impl::upFrom(int s, QPointF from) const {
    if (!host[static_cast<std::size_t>(s)].compact) return upPath(s, from);
    return downPath(s, from, false).toReversed();
}

QPainterPath DataPathView::Impl::dmaAt(int s, QPointF rnicPoint, bool toMemory) const {
    const auto& h = host[static_cast<std::size_t>(s)];
    if (!h.compact) return dmaPath(s, rnicPoint, toMemory);
    const qreal x = laneOf(h);
    const QPointF cells = bufferAt(s);
    const QPainterPath p = polyline({rnicPoint, QPointF(x, rnicPoint.y()), QPointF(x, cells.y()), cells});
    return toMemory ? p : p.toReversed();
}

QPainterPath DataPathView::Impl::bellPath(int s, QPointF to, bool throughKernel) const {
    if (!host[static_cast<std::size_t>(s)].compact) return doorbellPath(s, to, throughKernel);
    return downPath(s, to, false);
}

QPainterPath DataPathView::Impl::halfway(int from, QPointF start, bool looped) const {
    if (!host[static_cast<std::size_t>(from)].compact) return halfwayPath(from, start, looped);
    const qreal mid = kSceneW / 2;
    if (looped) return polyline({start, QPointF(start.x(), kBelowRnicY), QPointF(mid, kBelowRnicY)});
    const QPointF port = portAt(from);
    return polyline({start, QPointF(start.x(), kBelowRnicY), QPointF(port.x(), kBelowRnicY),
                     QPointF(port.x(), kLinkY), QPointF(mid, kLinkY)});
}

QPainterPath DataPathView::Impl::arrivalPath(int to, QPointF end) const {
    const qreal mid = kSceneW / 2;
    if (!shown.pairDevice().isEmpty())
        return polyline({QPointF(mid, kBelowRnicY), QPointF(end.x(), kBelowRnicY), end});
    const QPointF port = portAt(to);
    return polyline({QPointF(mid, kLinkY), QPointF(port.x(), kLinkY), QPointF(port.x(), kBelowRnicY),
                     QPointF(end.x(), kBelowRnicY), end});
}

QPainterPath DataPathView::Impl::packetPath(int from, int to, QPointF start, QPointF end) const {
    if (!shown.pairDevice().isEmpty()) return loopPath(start, end);
    const QPointF pa = portAt(from), pb = portAt(to);
    return polyline({start, QPointF(start.x(), kBelowRnicY), QPointF(pa.x(), kBelowRnicY),
                     QPointF(pa.x(), kLinkY), QPointF(pb.x(), kLinkY), QPointF(pb.x(), kBelowRnicY),
                     QPointF(end.x(), kBelowRnicY), end});
}

int DataPathView::Impl::responderOf(int s) const {
    const quint32 peer = shown.qps[static_cast<std::size_t>(s)].destQpn;
    if (peer != 0)
        for (int r = 0; r < static_cast<int>(kSides); ++r)
            if (r != s && shown.qps[static_cast<std::size_t>(r)].created &&
                shown.qps[static_cast<std::size_t>(r)].qpn == peer)
                return r;
    return s == 1 ? 0 : 1;
}

} // namespace rdmalab::app
