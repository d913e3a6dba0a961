// The data-path view's scene items: layer and object boxes (Block), the application buffer (BufferBlock),
// moving tokens (Token), illustrated overlays (Overlay) and painted decoration (Decor), all painted from
// a Theme; plus the text and arrow helpers they share.
#pragma once

#include "labstate.h"
#include "theme.h"

#include <QGraphicsItem>
#include <QPainter>

#include <functional>
#include <vector>

namespace rdmalab::app::datapath {

/// Draws `text` in `rect` elided to its width; returns the height used.
qreal drawLine(QPainter* p, const QRectF& rect, const QString& text, Qt::Alignment align = Qt::AlignLeft);
/// Draws word-wrapped text from the top of `rect`, at most `maxLines` lines; returns the height used.
qreal drawWrapped(QPainter* p, const QRectF& rect, const QString& text, int maxLines);
/// The hatch brush of illustrations.
QBrush hatch(const QColor& color);
/// A filled arrow head at `tip`, pointing away from `from`.
void arrowHead(QPainter* p, QPointF tip, QPointF from, qreal size);

// Block: a layer, an object (QP, CQ, MTT, PD), a queue with slots. Painted from its fields and the theme.
class Block : public QGraphicsItem {
  public:
    Block(const Theme* theme, QRectF rect, QColor Theme::*fill) : t_(theme), rect_(rect), fill_(fill) {}

    QRectF boundingRect() const override { return rect_.adjusted(-10, -10, 10, 10); }
    QRectF rect() const { return rect_; }
    /// Moves or resizes the box (the picture lays a host out again when the run's cast changes).
    void setRect(const QRectF& rect) {
        if (rect == rect_) return;
        prepareGeometryChange();
        rect_ = rect;
        update();
    }

    QString title;
    QString titleRight;       ///< small text right-aligned on the title line
    bool centerTitle = false; ///< the title (and the lines) centred
    bool smallTitle = false;  ///< the title in the body font (a small box with a long name)
    bool vcenter = false;     ///< the title and its lines centred vertically (a box without slots)
    QString bigText;
    QColor bigColor;
    QStringList lines;
    int wrapLast = 0; ///< the last line may wrap onto this many lines
    bool present = true;
    bool error = false;
    /// Drawn with a thick accent border: the endpoint the current step concerns (a card of the cast).
    bool emphasised = false;
    int slotCount = 0;
    QStringList slotLabels;
    std::vector<bool> slotError;
    qreal radius = 6;

    void setFlash(qreal f) {
        flash_ = f;
        update();
    }
    void setHighlighted(bool on) {
        if (highlighted_ == on) return;
        highlighted_ = on;
        update();
    }
    QRectF slotRect(int i) const {
        const int n = std::max(1, slotCount);
        const qreal h = t_->presentation ? 32 : 28;
        const qreal w = (rect_.width() - 16 - 6 * (n - 1)) / n;
        return QRectF(rect_.left() + 8 + i * (w + 6), rect_.bottom() - 8 - h, w, h);
    }
    void refresh() { update(); }
    /// The theme colour it is filled with (a software device's box takes the kernel's).
    void setFill(QColor Theme::*fill) {
        if (fill_ == fill) return;
        fill_ = fill;
        update();
    }

    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override;

  protected:
    const Theme* t_;
    QRectF rect_;
    QColor Theme::*fill_;
    qreal flash_ = 0;
    bool highlighted_ = false;
};

// The application buffer: its first bytes as characters, changed bytes highlighted.
class BufferBlock : public Block {
  public:
    using Block::Block;
    QByteArray bytes;
    quint64 length = 0;
    std::vector<std::pair<int, int>> changed;
    QString info;   ///< "A buffer · 64 B at 0x..."
    QString footer; ///< last completion
    bool footerError = false;
    bool footerOk = false;
    bool compact = false; ///< a card of the cast: no legend line under the bytes, the footer right below them
    static constexpr int kCells = 64;
    static constexpr int kPerRow = 32;

    QRectF cellsRect() const { return QRectF(rect_.left() + 10, rect_.top() + 28, rect_.width() - 20, 52); }
    QRectF cellRect(int i) const {
        const QRectF c = cellsRect();
        const qreal w = c.width() / kPerRow;
        const int row = i / kPerRow; // whole rows above cell i
        return QRectF(c.left() + (i % kPerRow) * w, c.top() + row * 26.0, w, 24);
    }
    bool isChanged(int i) const { return inRanges(changed, i); }

    void paint(QPainter* p, const QStyleOptionGraphicsItem* o, QWidget* w) override;
};

// What Token and Overlay share: a label, drawn red when it tells of an error.
class Labelled : public QGraphicsItem {
  protected:
    Labelled(const Theme* theme, QString label, bool error)
        : t_(theme), label_(std::move(label)), error_(error) {}
    const Theme* t_;
    QString label_;
    bool error_;
};

// A moving token (work request, completion, packet) or an illustration callout; centred on its position.
class Token : public Labelled {
  public:
    Token(const Theme* theme, QString label, bool illustrated, bool error)
        : Labelled(theme, std::move(label), error), illustrated_(illustrated) {
        setZValue(illustrated ? 20 : 30);
        const QFontMetricsF fm(labelFont());
        size_ = QSizeF(fm.horizontalAdvance(label_) + 20, fm.height() + 10);
        captionW_ =
            QFontMetricsF(t_->font(t_->small, false, true)).horizontalAdvance(QStringLiteral("illustrated")) +
            8;
    }
    QFont labelFont() const { return t_->font(t_->base, true, illustrated_); }
    QRectF boundingRect() const override {
        const qreal extra = illustrated_ ? 20 : 4;
        const qreal w = std::max(size_.width(), captionW_);
        return QRectF(-w / 2 - 4, -size_.height() / 2 - extra, w + 8, size_.height() + extra + 4);
    }
    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override;

  private:
    bool illustrated_;
    QSizeF size_;
    qreal captionW_ = 0;
};

// A dashed, hatched overlay over a rectangle: an illustrated effect in place (bytes landing, key check).
class Overlay : public Labelled {
  public:
    Overlay(const Theme* theme, QRectF rect, QString label, bool error)
        : Labelled(theme, std::move(label), error), rect_(rect) {
        setZValue(15);
        labelW_ = QFontMetricsF(t_->font(t_->small, true, true)).horizontalAdvance(label_) + 16;
    }
    QRectF boundingRect() const override {
        return rect_.adjusted(-4, -4, std::max(4.0, labelW_ - rect_.width() + 4), 26);
    }
    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override;

  private:
    QRectF rect_;
    qreal labelW_ = 0;
};

// Static decoration painted by a function (lanes, link, legend, title strip, status line).
class Decor : public QGraphicsItem {
  public:
    Decor(QRectF bounds, std::function<void(QPainter*)> fn) : bounds_(bounds), fn_(std::move(fn)) {}
    QRectF boundingRect() const override { return bounds_; }
    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
        p->setRenderHint(QPainter::Antialiasing);
        fn_(p);
    }

  private:
    QRectF bounds_;
    std::function<void(QPainter*)> fn_;
};

} // namespace rdmalab::app::datapath
