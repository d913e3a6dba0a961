#include "qpstateview.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace rdmalab::app {

namespace {
const QColor kColorA(0x1f, 0x6f, 0xc5);
const QColor kColorB(0xc5, 0x6a, 0x1f);
const QColor kColorC(0x2e, 0x8b, 0x57);
const QColor kColorD(0x8e, 0x44, 0xad);

QColor colorOf(int side) {
    static const QColor colors[] = {kColorA, kColorB, kColorC, kColorD};
    return colors[std::clamp(side, 0, 3)];
}

struct Node {
    const char* name;
    QPointF pos; // in a 100 x 100 box
};
constexpr Node kNodes[] = {{"RESET", {10, 20}}, {"INIT", {32, 20}}, {"RTR", {54, 20}}, {"RTS", {76, 20}},
                           {"SQD", {76, 58}},   {"SQE", {54, 58}},  {"ERR", {32, 58}}};
} // namespace

std::vector<QpStateView::Transition> QpStateView::transitions() {
    const QString none;
    return {
        {"RESET", "INIT", false, none}, {"INIT", "RTR", false, none},
        {"RTR", "RTS", false, none},    {"RTS", "SQD", false, none},
        {"SQD", "RTS", false, none},    {"RTS", "SQE", true, tr("UC/UD: send error")},
        {"SQE", "RTS", false, none},
    };
}

QpStateView::QpStateView(QWidget* parent) : QWidget(parent) {
    setObjectName("qpStateView");
    setMinimumSize(240, 150); // the diagram scales with the widget
}

void QpStateView::setState(const LabState& state) {
    qps_ = state.qps;
    cast_ = state.cast;
    update();
}

std::vector<int> QpStateView::sides() const {
    std::vector<int> out;
    for (int s = 0; s < static_cast<int>(kSides); ++s)
        if (cast_[static_cast<std::size_t>(s)]) out.push_back(s);
    return out;
}

void QpStateView::setPresentationMode(bool on) {
    presentation_ = on;
    update();
}

void QpStateView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor bg = presentation_ ? Qt::black : palette().color(QPalette::Base);
    const QColor fg = presentation_ ? Qt::white : palette().color(QPalette::Text);
    p.fillRect(rect(), bg);
    const Geometry g{static_cast<double>(width()), height() * 0.62,
                     QSizeF(width() * 0.17, presentation_ ? 34 : 26)};
    QFont font = p.font();
    font.setPointSizeF(presentation_ ? 13 : 9);
    font.setBold(true);
    // A narrow view (a small screen, a projector's large fonts) draws smaller names rather than cut ones.
    while (font.pointSizeF() > 6 &&
           QFontMetricsF(font).horizontalAdvance(QStringLiteral("RESET")) > g.box.width() - 6)
        font.setPointSizeF(font.pointSizeF() - 0.5);
    p.setFont(font);

    drawTransitions(p, g, font, fg);
    // Every state but RESET may move to ERR, every state to RESET (core/verbs.c qp_state_table).
    // Below the tags that mark where A and B are in the lower row.
    p.setPen(QPen(fg, 1, Qt::DotLine));
    const double captionTop =
        std::max(g.at({2, 72}).y(), g.at({2, 58}).y() + g.box.height() / 2 + 2 + g.box.height() * 0.6 + 2);
    QRectF captionUsed;
    p.drawText(QRectF(QPointF(g.at({2, 72}).x(), captionTop), QSizeF(g.w - 30, 40)),
               Qt::AlignLeft | Qt::TextWordWrap, tr("any state but RESET → ERR; any state → RESET"),
               &captionUsed);
    drawStates(p, g, font, fg);
    drawQpLines(p, font, std::max(g.h + 24, captionUsed.bottom() + 4));
}

void QpStateView::drawTransitions(QPainter& p, const Geometry& g, const QFont& font, const QColor& fg) const {
    // Transitions of the IBTA state diagram; the one RC QPs never take is dashed and says who takes it.
    auto nodeIndex = [](const QString& name) {
        for (int i = 0; i < 7; ++i)
            if (name == QLatin1String(kNodes[i].name)) return i;
        return 0;
    };
    QFont captionFont = font;
    captionFont.setBold(false);
    captionFont.setPointSizeF(font.pointSizeF() * 0.85);
    for (const Transition& edge : transitions()) {
        const int from = nodeIndex(edge.from), to = nodeIndex(edge.to);
        p.setPen(QPen(fg, 1.5, edge.dashed ? Qt::DashLine : Qt::SolidLine));
        QPointF a = g.at(kNodes[from].pos), b = g.at(kNodes[to].pos);
        if (a.y() == b.y()) {
            a.rx() += g.box.width() / 2;
            b.rx() -= g.box.width() / 2;
        } else {
            a.ry() += (b.y() > a.y() ? 1 : -1) * g.box.height() / 2;
            b.ry() -= (b.y() > a.y() ? 1 : -1) * g.box.height() / 2;
            const double shift = from < to ? -8 : 8;
            a.rx() += shift;
            b.rx() += shift;
        }
        p.drawLine(a, b);
        const QPointF dir = (b - a) / std::max(1.0, std::hypot(b.x() - a.x(), b.y() - a.y()));
        const QPointF normal(-dir.y(), dir.x());
        QPolygonF head{b, b - dir * 8 + normal * 4, b - dir * 8 - normal * 4};
        p.setBrush(fg);
        p.setPen(QPen(fg, 1.5));
        p.drawPolygon(head);
        if (!edge.caption.isEmpty()) {
            // Left of the arrow's middle, between the two rows of states.
            const QPointF mid = (a + b) / 2;
            const QFontMetricsF metrics(captionFont);
            const double width = metrics.horizontalAdvance(edge.caption) + 4;
            p.setFont(captionFont);
            p.drawText(QRectF(mid.x() - 6 - width, mid.y() - metrics.height() / 2, width, metrics.height()),
                       Qt::AlignRight | Qt::AlignVCenter, edge.caption);
            p.setFont(font);
        }
    }
}

void QpStateView::drawStates(QPainter& p, const Geometry& g, const QFont& font, const QColor& fg) const {
    for (int i = 0; i < 7; ++i) {
        const QPointF c = g.at(kNodes[i].pos);
        const QRectF r(c - QPointF(g.box.width() / 2, g.box.height() / 2), g.box);
        const QString name = kNodes[i].name;
        // The endpoints whose QP is in this state, in order (A, B, then C and D when the run names them).
        std::vector<int> here;
        for (const int s : sides())
            if (qps_[static_cast<std::size_t>(s)].created && qps_[static_cast<std::size_t>(s)].state == name)
                here.push_back(s);
        const bool occupied = !here.empty();
        QColor fill = presentation_ ? QColor(0x20, 0x20, 0x20) : palette().color(QPalette::AlternateBase);
        if (occupied) fill = presentation_ ? QColor(Qt::yellow) : QColor(0xff, 0xf3, 0xb0);
        if (name == "ERR" && occupied) fill = QColor(0xff, 0x9a, 0x9a);
        p.setBrush(fill);
        p.setPen(QPen(occupied ? colorOf(here.front()) : fg, occupied ? 3 : 1.2));
        p.drawRoundedRect(r, 6, 6);
        p.setPen(occupied && presentation_ ? Qt::black : fg);
        p.drawText(r, Qt::AlignCenter, name);
        // Which QP is here: small tags under the box (two to a box's width, four when C and D are drawn).
        const int perRow = sides().size() > 2 ? 4 : 2;
        int tag = 0;
        for (const int s : here) {
            const QRectF t(r.left() + tag * (r.width() / perRow), r.bottom() + 2, r.width() / perRow - 2,
                           g.box.height() * 0.6);
            p.setBrush(colorOf(s));
            p.setPen(Qt::NoPen);
            p.drawRoundedRect(t, 3, 3);
            p.setPen(Qt::white);
            QFont small = font;
            small.setPointSizeF(font.pointSizeF() * 0.8);
            p.setFont(small);
            p.drawText(t, Qt::AlignCenter, sideLetter(s));
            p.setFont(font);
            ++tag;
        }
    }
}

void QpStateView::drawQpLines(QPainter& p, const QFont& font, double top) const {
    // Last transition of each QP, with the attribute mask it set.
    QFont text = font;
    text.setBold(false);
    text.setPointSizeF(presentation_ ? 12 : 8.5);
    p.setFont(text);
    const std::vector<int> shown = sides();
    QStringList lines;
    for (const int s : shown) {
        const auto& q = qps_[static_cast<std::size_t>(s)];
        QString line = q.created ? tr("%1: QP %2 (%3) %4").arg(sideLetter(s)).arg(q.qpn).arg(q.type, q.state)
                                 : tr("%1: no QP yet").arg(sideLetter(s));
        if (!q.lastTransition.isEmpty())
            line += tr("  — last %1 set %2").arg(q.lastTransition, q.lastMask.join(QStringLiteral(" | ")));
        lines << line;
    }
    // Wrapped when all fit the room below the diagram, else one elided line each: the last line always shows.
    const QFontMetricsF metrics(text);
    const double room = height() - top, lineWidth = width() - 16;
    double wrapped = 0;
    for (const auto& line : lines)
        wrapped += metrics.boundingRect(QRectF(0, 0, lineWidth, 1e6), Qt::TextWordWrap, line).height() + 4;
    double y = top;
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const QString& line = lines[static_cast<qsizetype>(i)];
        p.setPen(colorOf(shown[i]));
        if (wrapped <= room) {
            QRectF used;
            p.drawText(QRectF(8, y, lineWidth, room), Qt::AlignLeft | Qt::TextWordWrap, line, &used);
            y += std::max(used.height(), metrics.height()) + 4;
        } else {
            p.drawText(QPointF(8, y + metrics.ascent()), metrics.elidedText(line, Qt::ElideRight, lineWidth));
            y += metrics.height() + 4;
        }
    }
}

} // namespace rdmalab::app
