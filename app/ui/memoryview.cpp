#include "memoryview.h"

#include <QFontDatabase>
#include <QPainter>

namespace rdmalab::app {

MemoryView::MemoryView(QWidget* parent) : QWidget(parent) {
    setObjectName("memoryView");
    setMinimumSize(240, 120);
}

void MemoryView::setState(const LabState& state) {
    memory_ = state.memory;
    regions_ = state.regions;
    cast_ = state.cast;
    update();
}

void MemoryView::setPresentationMode(bool on) {
    presentation_ = on;
    update();
}

void MemoryView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QColor bg = presentation_ ? Qt::black : palette().color(QPalette::Base);
    const QColor fg = presentation_ ? Qt::white : palette().color(QPalette::Text);
    const QColor changed = presentation_ ? QColor(Qt::yellow) : QColor(0xff, 0xe0, 0x66);
    p.fillRect(rect(), bg);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setPointSizeF(presentation_ ? 12 : 8.5);
    // A narrow panel (a 1024x768 screen, a projector's large fonts) gets 8 bytes a line, then a smaller font,
    // rather than lines cut off at the right: a line is the offset, the bytes in hex, a space and the text.
    auto lineWidth = [&](int bytes) {
        return QFontMetricsF(mono).horizontalAdvance('0') * (6 + bytes * 4 + 1) + 12;
    };
    const int perLine = lineWidth(16) <= width() ? 16 : 8;
    const double needed = lineWidth(perLine);
    if (needed > width()) mono.setPointSizeF(std::max(5.5, mono.pointSizeF() * width() / needed));
    QFont bold = font();
    bold.setBold(true);
    bold.setPointSizeF(presentation_ ? 13 : 9);
    // One band per endpoint of the cast: A and B, and C and D when the run names them.
    std::vector<int> sides;
    for (int s = 0; s < static_cast<int>(kSides); ++s)
        if (cast_[static_cast<std::size_t>(s)]) sides.push_back(s);
    const double half = height() / static_cast<double>(sides.size());
    for (std::size_t band = 0; band < sides.size(); ++band) {
        const int s = sides[band];
        const auto& m = memory_[static_cast<std::size_t>(s)];
        const auto& r = regions_[static_cast<std::size_t>(s)];
        const double top = static_cast<double>(band) * half;
        double y = top + 4;
        p.setFont(bold);
        p.setPen(fg);
        QString title = s == 0   ? tr("A's buffer")
                        : s == 1 ? tr("B's buffer")
                                 : tr("%1's buffer").arg(sideLetter(s));
        if (r.registered)
            title +=
                tr(" · %1 B · lkey 0x%2 · rkey 0x%3").arg(r.length).arg(r.lkey, 0, 16).arg(r.rkey, 0, 16);
        const QFontMetricsF bm(bold);
        p.drawText(QPointF(6, y + bm.ascent()), title);
        y += bm.height() + 2;
        p.setFont(mono);
        const QFontMetricsF fm(mono);
        if (m.bytes.isEmpty()) {
            p.drawText(QPointF(6, y + fm.ascent()), tr("(not registered yet)"));
            continue;
        }
        const double cw = fm.horizontalAdvance('0');
        // The "observed …" line at the bottom of the half keeps its own line, under the bytes.
        const double whenHeight = m.when.isEmpty() ? 0 : QFontMetricsF(p.font()).height();
        const int lines = std::min<int>((static_cast<int>(m.bytes.size()) + perLine - 1) / perLine,
                                        static_cast<int>((half - (y - top) - 4 - whenHeight) / fm.height()));
        for (int line = 0; line < lines; ++line) {
            const double ly = y + line * fm.height();
            p.setPen(fg);
            p.drawText(QPointF(6, ly + fm.ascent()),
                       QStringLiteral("%1").arg(line * perLine, 4, 16, QChar('0')));
            for (int i = 0; i < perLine; ++i) {
                const int at = line * perLine + i;
                if (at >= m.bytes.size()) break;
                const auto byte = static_cast<unsigned char>(m.bytes[at]);
                const double hx = 6 + cw * (6 + i * 3);
                const double tx = 6 + cw * (6 + perLine * 3 + 1 + i);
                const bool changedByte = inRanges(m.changed, at);
                if (changedByte) {
                    p.fillRect(QRectF(hx - 1, ly, cw * 2 + 2, fm.height()), changed);
                    p.fillRect(QRectF(tx, ly, cw, fm.height()), changed);
                }
                p.setPen(changedByte && presentation_ ? Qt::black : fg);
                p.drawText(QPointF(hx, ly + fm.ascent()), QStringLiteral("%1").arg(byte, 2, 16, QChar('0')));
                p.drawText(QPointF(tx, ly + fm.ascent()),
                           QString(QChar(byte >= 32 && byte < 127 ? char(byte) : '.')));
            }
        }
        if (!m.when.isEmpty()) {
            p.setPen(presentation_ ? QColor(Qt::lightGray) : palette().color(QPalette::PlaceholderText));
            p.drawText(QPointF(6, top + half - 4), tr("observed %1").arg(m.when));
        }
    }
}

} // namespace rdmalab::app
