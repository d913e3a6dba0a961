// Where things are in the data-path picture: the scene's fixed layout (scene units, 1400 x 880; hosts A
// left and B right, B mirrored) and the paths tokens travel (control path through the kernel, data path
// beside it, the wire between the ports, DMA between the RNIC and the buffer).
#pragma once

#include "items.h"

#include <QPainterPath>
#include <QPointF>
#include <QRectF>

#include <initializer_list>

namespace rdmalab::app::datapath {

constexpr qreal kSceneW = 1400;
constexpr qreal kSceneH = 880;
constexpr qreal kHostW = 660;
constexpr qreal kInnerW = 640;
// Vertical layout (scene y).
constexpr qreal kHostTop = 50, kHostBottom = 726;
constexpr qreal kAppY = 80, kAppH = 122;
constexpr qreal kVerbsY = 214, kVerbsH = 30;
constexpr qreal kKernelY = 256, kKernelH = 50,
                kKernelW = 470; // two lines: a software device's kernel says more
constexpr qreal kRnicY = 318, kRnicH = 350;
constexpr qreal kPortY = 682, kPortH = 34;
constexpr qreal kLinkY = 754;
constexpr qreal kControlLaneX = 58;   // local x of the control path lane (outer side)
constexpr qreal kDataLaneX = 560;     // local x of the data path lane (inner side)
constexpr qreal kDoorbellLaneX = 440; // local x of a software device's doorbell lane (through the kernel)
constexpr qreal kBelowRnicY = 675;    // the gap between RNIC and port, where packets run sideways
// The receivers' column, when the run names C or D: a card per endpoint of B, C, D stacked in B's place above
// B's port (shared), each its buffer over its MTT and CQ (outer column), its QP over its SQ and RQ (inner).
constexpr qreal kCardsTop = kHostTop, kCardsBottom = kPortY - 8, kCardGap = 6;
constexpr qreal kCardTitleH = 26;    // the card's title row (its name, doorbell and PD)
constexpr qreal kCardRowH = 70;      // the lower row: SQ, RQ, MTT, CQ
constexpr qreal kCardInnerW = 310;   // the inner column (QP, SQ, RQ), facing A
constexpr qreal kCardColumnGap = 12; // between the columns: the card's lane

inline qreal hostX(int s) {
    return s == 0 ? 12 : kSceneW - 12 - kHostW;
}
inline qreal innerX(int s) {
    return hostX(s) + 10;
}
/// Local rectangle (x measured from the outer edge of the host) to scene coordinates; B is mirrored.
inline QRectF L(int s, qreal x, qreal y, qreal w, qreal h) {
    const qreal lx = s == 0 ? x : kInnerW - x - w;
    return QRectF(innerX(s) + lx, y, w, h);
}
/// Local point to scene coordinates; B is mirrored.
inline QPointF P(int s, qreal x, qreal y) {
    return QPointF(innerX(s) + (s == 0 ? x : kInnerW - x), y);
}

inline QPointF portCenter(int s) {
    return P(s, kInnerW / 2, kPortY + kPortH);
}
inline QPointF appPoint(int s) {
    return P(s, 320, kAppY + kAppH - 14);
}
inline QPointF bufferLanePoint(int s) {
    return P(s, kDataLaneX, kAppY + 66);
}
inline QPointF rnicEntry(int s) {
    return P(s, kDataLaneX, kRnicY + 18);
}
inline QPointF center(const Block* b) {
    return b->rect().center();
}
/// Where a control-path call arrives above an object in the RNIC.
inline QPointF above(const Block* b) {
    return QPointF(b->rect().center().x(), kRnicY + 30);
}

QPainterPath polyline(std::initializer_list<QPointF> points);
/// From the application down the control lane (verbs, kernel) into the RNIC, to `to`.
QPainterPath controlPath(int s, QPointF to);
/// From the application down the data lane (beside the kernel) into the RNIC, to `to`.
QPainterPath dataPath(int s, QPointF to);
/// From `from` in the RNIC up the data lane to the application.
QPainterPath upPath(int s, QPointF from);
/// From `start` on host `from` below the RNIC, over the link, to `end` on the other host.
QPainterPath wirePath(int from, QPointF start, QPointF end);
/// From `start` on one host to `end` on the other without leaving the device: the path of a pair on one
/// device, looped back inside it (below the RNIC, across, never through the ports).
QPainterPath loopPath(QPointF start, QPointF end);
/// From `start` on host `from` to the middle between the hosts (over the link, or `looped` inside the
/// device).
QPainterPath halfwayPath(int from, QPointF start, bool looped);
/// A send doorbell from the verbs library to `to` (the doorbell box): straight down the data lane (an MMIO
/// write), or `throughKernel` down the doorbell lane into the kernel (a write() system call).
QPainterPath doorbellPath(int s, QPointF to, bool throughKernel);
/// Between a point in the RNIC and the buffer (to memory, or from it).
QPainterPath dmaPath(int s, QPointF rnicPoint, bool toMemory);

} // namespace rdmalab::app::datapath
