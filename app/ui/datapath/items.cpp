#include "items.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPolygonF>

#include <algorithm>
#include <cmath>

namespace rdmalab::app::datapath {

// Draws `text` in `rect` elided to its width; returns the height used.
qreal drawLine(QPainter* p, const QRectF& rect, const QString& text, Qt::Alignment align) {
    const QFontMetricsF fm(p->font());
    const QString shown = fm.elidedText(text, Qt::ElideRight, rect.width());
    p->drawText(QRectF(rect.left(), rect.top(), rect.width(), fm.height()), align | Qt::AlignVCenter, shown);
    return fm.height();
}

// Draws word-wrapped text from the top of `rect`, at most `maxLines` lines; returns the height used.
qreal drawWrapped(QPainter* p, const QRectF& rect, const QString& text, int maxLines) {
    const QFontMetricsF fm(p->font());
    QStringList words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    qreal y = rect.top();
    int lines = 0;
    QString line;
    auto flush = [&](bool last) {
        if (line.isEmpty()) return;
        QString shown = line;
        if (last && !words.isEmpty())
            shown = fm.elidedText(line + QStringLiteral(" …"), Qt::ElideRight, rect.width());
        drawLine(p, QRectF(rect.left(), y, rect.width(), fm.height()), shown);
        y += fm.height();
        ++lines;
        line.clear();
    };
    while (!words.isEmpty()) {
        const QString candidate = line.isEmpty() ? words.front() : line + QLatin1Char(' ') + words.front();
        if (fm.horizontalAdvance(candidate) <= rect.width() || line.isEmpty()) {
            line = candidate;
            words.pop_front();
        } else {
            flush(lines + 1 >= maxLines);
            if (lines >= maxLines) return y - rect.top();
        }
    }
    flush(true);
    return y - rect.top();
}

QBrush hatch(const QColor& color) {
    QBrush b(color, Qt::BDiagPattern);
    return b;
}

void arrowHead(QPainter* p, QPointF tip, QPointF from, qreal size) {
    const QLineF l(tip, from);
    const qreal a = std::atan2(-l.dy(), l.dx());
    const QPointF p1 = tip + QPointF(std::cos(a + 0.45) * size, -std::sin(a + 0.45) * size);
    const QPointF p2 = tip + QPointF(std::cos(a - 0.45) * size, -std::sin(a - 0.45) * size);
    p->drawPolygon(QPolygonF({tip, p1, p2}));
}

void Block::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
    p->setRenderHint(QPainter::Antialiasing);
    QColor fill = present ? t_->*fill_ : t_->background;
    QColor edge = present ? t_->border : t_->dim;
    if (error) edge = t_->error;
    p->setPen(QPen(edge, present ? t_->pen : t_->pen * 0.7));
    p->setBrush(fill);
    p->drawRoundedRect(rect_, radius, radius);
    if (flash_ > 0.01) {
        QColor glow = error ? t_->error : t_->accent;
        glow.setAlphaF(static_cast<float>(0.22 * flash_));
        p->setBrush(glow);
        QColor line = error ? t_->error : t_->accent;
        p->setPen(QPen(line, t_->pen + 3 * flash_));
        p->drawRoundedRect(rect_, radius, radius);
    }
    if (emphasised) {
        p->setBrush(Qt::NoBrush);
        p->setPen(QPen(t_->accent, t_->thick * 1.4));
        p->drawRoundedRect(rect_, radius, radius);
    }
    if (highlighted_) {
        p->setBrush(Qt::NoBrush);
        p->setPen(QPen(t_->highlight, t_->thick * 1.6));
        p->drawRoundedRect(rect_.adjusted(-4, -4, 4, 4), radius + 3, radius + 3);
    }
    const QColor textColor = present ? t_->text : t_->dim;
    const qreal pad = 8;
    qreal y = rect_.top() + 4;
    const QFont titleFont = t_->font(smallTitle ? t_->base : t_->title, true);
    if (vcenter) {
        // The title, and its lines below it, centred as a block.
        const qreal lineH = QFontMetricsF(t_->font(t_->base)).height();
        const qreal h = QFontMetricsF(titleFont).height() +
                        (lines.isEmpty() ? 0 : 2 + static_cast<qreal>(lines.size()) * lineH);
        y = rect_.top() + (rect_.height() - h) / 2;
    }
    QRectF inner(rect_.left() + pad, y, rect_.width() - 2 * pad, rect_.height());
    if (!title.isEmpty()) {
        p->setFont(titleFont);
        p->setPen(error ? t_->error : textColor);
        const QFontMetricsF fm(p->font());
        qreal rightW = 0;
        if (!titleRight.isEmpty()) {
            p->save();
            p->setFont(t_->font(t_->small));
            p->setPen(t_->dim);
            const QFontMetricsF fs(p->font());
            rightW = std::min(inner.width() * 0.6, fs.horizontalAdvance(titleRight) + 4);
            drawLine(p,
                     QRectF(inner.right() - rightW, y + (fm.height() - fs.height()) / 2, rightW, fs.height()),
                     titleRight, Qt::AlignRight);
            p->restore();
        }
        if (centerTitle)
            drawLine(p, QRectF(inner.left(), y, inner.width(), fm.height()), title, Qt::AlignHCenter);
        else
            drawLine(p, QRectF(inner.left(), y, inner.width() - rightW - 6, fm.height()), title);
        y += fm.height() + 2;
    }
    if (!bigText.isEmpty()) {
        p->setFont(t_->font(t_->big, true));
        p->setPen(bigColor.isValid() ? bigColor : textColor);
        y += drawLine(p, QRectF(inner.left(), y, inner.width(), 0), bigText);
    }
    const qreal bottom = slotCount > 0 ? slotRect(0).top() - 2 : rect_.bottom() - 2;
    p->setFont(t_->font(t_->base));
    p->setPen(textColor);
    const QFontMetricsF fm(p->font());
    for (int i = 0; i < lines.size(); ++i) {
        if (y + fm.height() > bottom + 1) break;
        const bool last = i == lines.size() - 1;
        if (last && wrapLast > 1) {
            const int room = static_cast<int>((bottom - y) / fm.height());
            y += drawWrapped(p, QRectF(inner.left(), y, inner.width(), bottom - y), lines[i],
                             std::max(1, std::min(wrapLast, room)));
        } else {
            y += drawLine(p, QRectF(inner.left(), y, inner.width(), 0), lines[i],
                          centerTitle ? Qt::AlignHCenter : Qt::AlignLeft);
        }
    }
    for (int i = 0; i < slotCount; ++i) {
        const QRectF s = slotRect(i);
        const bool filled = i < slotLabels.size();
        const bool bad =
            filled && i < static_cast<int>(slotError.size()) && slotError[static_cast<std::size_t>(i)];
        p->setPen(QPen(filled ? (bad ? t_->error : t_->accent) : t_->dim, t_->pen));
        QColor f = filled ? (bad ? t_->error : t_->accent) : t_->slot;
        if (filled) f.setAlphaF(static_cast<float>(t_->presentation ? 0.9 : 0.16));
        p->setBrush(f);
        p->drawRoundedRect(s, 4, 4);
        if (filled) {
            p->setFont(t_->font(t_->small, true));
            p->setPen(t_->presentation ? t_->accentText : (bad ? t_->error : t_->accent));
            drawLine(p, s.adjusted(3, (s.height() - QFontMetricsF(p->font()).height()) / 2, -3, 0),
                     slotLabels[i], Qt::AlignHCenter);
        }
    }
}

void BufferBlock::paint(QPainter* p, const QStyleOptionGraphicsItem* o, QWidget* w) {
    Block::paint(p, o, w);
    const QRectF c = cellsRect();
    if (bytes.isEmpty()) {
        p->setFont(t_->font(t_->base));
        p->setPen(t_->dim);
        drawLine(p, QRectF(c.left(), c.top() + 12, c.width(), 0),
                 QCoreApplication::translate("rdmalab::app::DataPathView",
                                             "no registered buffer yet (ibv_reg_mr registers it)"));
    } else {
        const int n = std::min<int>(kCells, static_cast<int>(bytes.size()));
        p->setFont(t_->monoFont(t_->mono, true));
        for (int i = 0; i < n; ++i) {
            const QRectF r = cellRect(i).adjusted(0.5, 0.5, -0.5, -0.5);
            const bool ch = isChanged(i);
            QColor f = ch ? t_->changed : t_->slot;
            if (ch && flash_ > 0.01) f = f.lighter(100 + static_cast<int>(30 * flash_));
            p->setPen(QPen(ch ? t_->changed.darker(140) : t_->dim, 0.6));
            p->setBrush(f);
            p->drawRect(r);
            const auto b = static_cast<unsigned char>(bytes[i]);
            const bool printable = b >= 0x20 && b < 0x7f;
            p->setPen(ch && t_->presentation ? QColor(Qt::black) : (printable ? t_->text : t_->dim));
            p->drawText(r, Qt::AlignCenter, printable ? QString(QChar(b)) : QStringLiteral("·"));
        }
    }
    qreal y = c.bottom() + 4;
    p->setFont(t_->font(t_->small));
    p->setPen(t_->dim);
    const QFontMetricsF fs(p->font());
    if (!bytes.isEmpty() && !compact) {
        QString legend = QCoreApplication::translate("rdmalab::app::DataPathView", "first %1 of %2 bytes")
                             .arg(std::min<qsizetype>(kCells, bytes.size()))
                             .arg(length);
        if (!changed.empty())
            legend += QCoreApplication::translate("rdmalab::app::DataPathView",
                                                  "  ·  highlighted: changed since registration");
        drawLine(p, QRectF(c.left(), y, c.width(), 0), legend);
    }
    if (!compact) y += fs.height() + 2;
    if (!footer.isEmpty()) {
        p->setFont(t_->font(t_->base, true));
        p->setPen(footerError ? t_->error : (footerOk ? t_->ok : t_->text));
        drawLine(p, QRectF(c.left(), y, c.width(), 0), footer);
    }
}

void Token::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
    p->setRenderHint(QPainter::Antialiasing);
    const QRectF r(-size_.width() / 2, -size_.height() / 2, size_.width(), size_.height());
    const QColor main = error_ ? t_->error : (illustrated_ ? t_->illustrated : t_->accent);
    if (illustrated_) {
        QColor fill = t_->presentation ? QColor(Qt::black) : QColor(Qt::white);
        fill.setAlphaF(static_cast<float>(0.82));
        p->setBrush(fill);
        p->setPen(Qt::NoPen);
        p->drawRoundedRect(r, 8, 8);
        QColor h = main;
        h.setAlphaF(static_cast<float>(0.35));
        p->setBrush(hatch(h));
        QPen pen(main, t_->pen + 0.8, Qt::DashLine);
        p->setPen(pen);
        p->drawRoundedRect(r, 8, 8);
        p->setFont(t_->font(t_->small, false, true));
        p->setPen(main);
        const qreal cw = std::max(r.width(), captionW_);
        p->drawText(QRectF(-cw / 2, r.top() - 18, cw, 17), Qt::AlignCenter,
                    QCoreApplication::translate("rdmalab::app::DataPathView", "illustrated"));
        p->setFont(labelFont());
        p->setPen(t_->presentation ? t_->text : main.darker(130));
        p->drawText(r, Qt::AlignCenter, label_);
    } else {
        p->setBrush(main);
        p->setPen(QPen(main.darker(130), t_->pen));
        p->drawRoundedRect(r, 8, 8);
        p->setFont(labelFont());
        p->setPen(error_ ? QColor(Qt::white) : t_->accentText);
        p->drawText(r, Qt::AlignCenter, label_);
    }
}

void Overlay::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
    p->setRenderHint(QPainter::Antialiasing);
    const QColor c = error_ ? t_->error : t_->illustrated;
    QColor h = c;
    h.setAlphaF(static_cast<float>(0.3));
    p->setBrush(hatch(h));
    p->setPen(QPen(c, t_->pen + 1, Qt::DashLine));
    p->drawRoundedRect(rect_, 5, 5);
    if (!label_.isEmpty()) {
        p->setFont(t_->font(t_->small, true, true));
        const QFontMetricsF fm(p->font());
        const QRectF tr(rect_.left(), rect_.bottom() + 1, std::max(rect_.width(), labelW_), fm.height() + 2);
        QColor bg = t_->presentation ? QColor(Qt::black) : QColor(Qt::white);
        p->setPen(Qt::NoPen);
        p->setBrush(bg);
        p->drawRect(tr.adjusted(0, 0, 0, -1));
        p->setPen(c);
        p->drawText(tr.adjusted(4, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, label_);
    }
}

} // namespace rdmalab::app::datapath
