#include "layout.h"

namespace rdmalab::app::datapath {

QPainterPath polyline(std::initializer_list<QPointF> points) {
    QPainterPath path;
    bool first = true;
    for (const auto& pt : points) {
        if (first)
            path.moveTo(pt);
        else
            path.lineTo(pt);
        first = false;
    }
    return path;
}

namespace {
// Down a lane (its local x) from the application into the RNIC, then across to `to`.
QPainterPath lanePath(int s, qreal laneX, QPointF to) {
    const qreal x = P(s, laneX, 0).x();
    return polyline({appPoint(s), QPointF(x, kAppY + kAppH - 14), QPointF(x, kVerbsY + kVerbsH / 2),
                     QPointF(x, kKernelY + kKernelH / 2), QPointF(x, kRnicY + 18),
                     QPointF(to.x(), kRnicY + 18), to});
}
} // namespace

QPainterPath controlPath(int s, QPointF to) {
    return lanePath(s, kControlLaneX, to);
}

QPainterPath dataPath(int s, QPointF to) {
    return lanePath(s, kDataLaneX, to);
}

QPainterPath upPath(int s, QPointF from) {
    const qreal dx = P(s, kDataLaneX, 0).x();
    return polyline({from, QPointF(from.x(), kRnicY + 18), QPointF(dx, kRnicY + 18),
                     QPointF(dx, kVerbsY + kVerbsH / 2), QPointF(dx, kAppY + kAppH - 14), appPoint(s)});
}

QPainterPath wirePath(int from, QPointF start, QPointF end) {
    const int to = 1 - from;
    const QPointF pa = portCenter(from), pb = portCenter(to);
    return polyline({start, QPointF(start.x(), kBelowRnicY), QPointF(pa.x(), kBelowRnicY),
                     QPointF(pa.x(), kLinkY), QPointF(pb.x(), kLinkY), QPointF(pb.x(), kBelowRnicY),
                     QPointF(end.x(), kBelowRnicY), end});
}

QPainterPath loopPath(QPointF start, QPointF end) {
    return polyline({start, QPointF(start.x(), kBelowRnicY), QPointF(end.x(), kBelowRnicY), end});
}

QPainterPath halfwayPath(int from, QPointF start, bool looped) {
    const qreal mid = kSceneW / 2;
    if (looped) return polyline({start, QPointF(start.x(), kBelowRnicY), QPointF(mid, kBelowRnicY)});
    const QPointF pa = portCenter(from);
    return polyline({start, QPointF(start.x(), kBelowRnicY), QPointF(pa.x(), kBelowRnicY),
                     QPointF(pa.x(), kLinkY), QPointF(mid, kLinkY)});
}

QPainterPath doorbellPath(int s, QPointF to, bool throughKernel) {
    const qreal x = P(s, throughKernel ? kDoorbellLaneX : kDataLaneX, 0).x();
    return polyline({QPointF(x, kVerbsY + kVerbsH / 2), QPointF(x, kKernelY + kKernelH / 2),
                     QPointF(x, kRnicY + 18), QPointF(to.x(), kRnicY + 18), to});
}

QPainterPath dmaPath(int s, QPointF rnicPoint, bool toMemory) {
    QPainterPath p = polyline({rnicPoint, QPointF(rnicPoint.x(), kRnicY + 18), rnicEntry(s),
                               QPointF(rnicEntry(s).x(), kVerbsY + kVerbsH / 2), bufferLanePoint(s)});
    return toMemory ? p : p.toReversed();
}

} // namespace rdmalab::app::datapath
