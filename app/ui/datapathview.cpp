#include "datapathview.h"

#include <QEasingCurve>
#include <QFontDatabase>
#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QPainter>
#include <QPainterPath>
#include <QParallelAnimationGroup>
#include <QResizeEvent>
#include <QSequentialAnimationGroup>
#include <QVariantAnimation>

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <map>

namespace rdmalab::app {

namespace {

// ---------------------------------------------------------------------------------------------------------
// Theme: colours, pens and fonts for the normal and the presentation look.

struct Theme {
    bool presentation = false;
    QColor background, hostFill, border, text, dim;
    QColor app, verbs, kernel, rnic, port, object, slot;
    QColor accent, accentText; ///< observed tokens
    QColor illustrated;        ///< outline and text of illustrations
    QColor changed, ok, error, highlight, dataLane, controlLane;
    qreal pen = 1.2;
    qreal thick = 2.5;
    qreal base = 13, small = 11, title = 15, big = 26, mono = 13;

    void set(bool on) {
        presentation = on;
        if (!on) {
            background = QColor("#f4f6f9");
            hostFill = QColor("#ffffff");
            border = QColor("#8a96a8");
            text = QColor("#1b2330");
            dim = QColor("#6b7585");
            app = QColor("#e8f1ff");
            verbs = QColor("#e9f7ec");
            kernel = QColor("#eeeeee");
            rnic = QColor("#fff4e2");
            port = QColor("#efe9fb");
            object = QColor("#ffffff");
            slot = QColor("#f2f4f7");
            accent = QColor("#1f63d6");
            accentText = QColor("#ffffff");
            illustrated = QColor("#7b3fb5");
            changed = QColor("#ffd84d");
            ok = QColor("#1a7f37");
            error = QColor("#cf222e");
            highlight = QColor("#ff9500");
            dataLane = QColor("#1f63d6");
            controlLane = QColor("#59636e");
            pen = 1.2;
            thick = 2.5;
            base = 13;
            small = 11;
            title = 15;
            big = 26;
            mono = 13;
        } else {
            background = QColor("#000000");
            hostFill = QColor("#000000");
            border = QColor("#ffffff");
            text = QColor("#ffffff");
            dim = QColor("#d0d0d0");
            app = verbs = kernel = rnic = port = QColor("#000000");
            object = QColor("#111111");
            slot = QColor("#1c1c1c");
            accent = QColor("#ffd400");
            accentText = QColor("#000000");
            illustrated = QColor("#ffd400");
            changed = QColor("#ffd400");
            ok = QColor("#7dff8a");
            error = QColor("#ff4d4d");
            highlight = QColor("#00e5ff");
            dataLane = QColor("#ffd400");
            controlLane = QColor("#ffffff");
            pen = 2.2;
            thick = 4;
            base = 16;
            small = 13.5;
            title = 18;
            big = 30;
            mono = 15;
        }
    }

    QFont font(qreal px, bool bold = false, bool italic = false) const {
        QFont f(QStringLiteral("DejaVu Sans"));
        f.setPixelSize(std::max(1, static_cast<int>(std::lround(px))));
        f.setBold(bold);
        f.setItalic(italic);
        return f;
    }
    QFont monoFont(qreal px, bool bold = false) const {
        QFont f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
        f.setFamily(QStringLiteral("DejaVu Sans Mono"));
        f.setPixelSize(std::max(1, static_cast<int>(std::lround(px))));
        f.setBold(bold);
        return f;
    }
};

// Draws `text` in `rect` elided to its width; returns the height used.
qreal drawLine(QPainter* p, const QRectF& rect, const QString& text, Qt::Alignment align = Qt::AlignLeft) {
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

// ---------------------------------------------------------------------------------------------------------
// Block: a layer, an object (QP, CQ, MTT, PD), a queue with slots. Painted from its fields and the theme.

class Block : public QGraphicsItem {
  public:
    Block(const Theme* theme, QRectF rect, QColor Theme::*fill) : t_(theme), rect_(rect), fill_(fill) {}

    QRectF boundingRect() const override { return rect_.adjusted(-10, -10, 10, 10); }
    QRectF rect() const { return rect_; }

    QString title;
    QString titleRight; ///< small text right-aligned on the title line
    bool centerTitle = false;
    bool vcenter = false; ///< a title-only box: title centred vertically
    QString bigText;
    QColor bigColor;
    QStringList lines;
    int wrapLast = 0; ///< the last line may wrap onto this many lines
    bool present = true;
    bool error = false;
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

    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
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
        if (highlighted_) {
            p->setBrush(Qt::NoBrush);
            p->setPen(QPen(t_->highlight, t_->thick * 1.6));
            p->drawRoundedRect(rect_.adjusted(-4, -4, 4, 4), radius + 3, radius + 3);
        }
        const QColor textColor = present ? t_->text : t_->dim;
        const qreal pad = 8;
        qreal y = rect_.top() + 4;
        if (vcenter)
            y = rect_.top() + (rect_.height() - QFontMetricsF(t_->font(t_->title, true)).height()) / 2;
        QRectF inner(rect_.left() + pad, y, rect_.width() - 2 * pad, rect_.height());
        if (!title.isEmpty()) {
            p->setFont(t_->font(t_->title, true));
            p->setPen(error ? t_->error : textColor);
            const QFontMetricsF fm(p->font());
            qreal rightW = 0;
            if (!titleRight.isEmpty()) {
                p->save();
                p->setFont(t_->font(t_->small));
                p->setPen(t_->dim);
                const QFontMetricsF fs(p->font());
                rightW = std::min(inner.width() * 0.6, fs.horizontalAdvance(titleRight) + 4);
                drawLine(
                    p,
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
                y += drawLine(p, QRectF(inner.left(), y, inner.width(), 0), lines[i]);
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
    static constexpr int kCells = 64;
    static constexpr int kPerRow = 32;

    QRectF cellsRect() const { return QRectF(rect_.left() + 10, rect_.top() + 28, rect_.width() - 20, 52); }
    QRectF cellRect(int i) const {
        const QRectF c = cellsRect();
        const qreal w = c.width() / kPerRow;
        return QRectF(c.left() + (i % kPerRow) * w, c.top() + (i / kPerRow) * 26, w, 24);
    }
    bool isChanged(int i) const { return inRanges(changed, i); }

    void paint(QPainter* p, const QStyleOptionGraphicsItem* o, QWidget* w) override {
        Block::paint(p, o, w);
        const QRectF c = cellsRect();
        if (bytes.isEmpty()) {
            p->setFont(t_->font(t_->base));
            p->setPen(t_->dim);
            drawLine(p, QRectF(c.left(), c.top() + 12, c.width(), 0),
                     QStringLiteral("no registered buffer yet (ibv_reg_mr registers it)"));
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
        if (!bytes.isEmpty()) {
            QString legend = QStringLiteral("first %1 of %2 bytes")
                                 .arg(std::min<qsizetype>(kCells, bytes.size()))
                                 .arg(length);
            if (!changed.empty()) legend += QStringLiteral("  ·  highlighted: changed since registration");
            drawLine(p, QRectF(c.left(), y, c.width(), 0), legend);
        }
        y += fs.height() + 2;
        if (!footer.isEmpty()) {
            p->setFont(t_->font(t_->base, true));
            p->setPen(footerError ? t_->error : (footerOk ? t_->ok : t_->text));
            drawLine(p, QRectF(c.left(), y, c.width(), 0), footer);
        }
    }
};

// A moving token (work request, completion, packet) or an illustration callout; centred on its position.
class Token : public QGraphicsItem {
  public:
    Token(const Theme* theme, QString label, bool illustrated, bool error)
        : t_(theme), label_(std::move(label)), illustrated_(illustrated), error_(error) {
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
    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
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
                        QStringLiteral("illustrated"));
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

  private:
    const Theme* t_;
    QString label_;
    bool illustrated_;
    bool error_;
    QSizeF size_;
    qreal captionW_ = 0;
};

// A dashed, hatched overlay over a rectangle: an illustrated effect in place (bytes landing, key check).
class Overlay : public QGraphicsItem {
  public:
    Overlay(const Theme* theme, QRectF rect, QString label, bool error)
        : t_(theme), rect_(rect), label_(std::move(label)), error_(error) {
        setZValue(15);
        labelW_ = QFontMetricsF(t_->font(t_->small, true, true)).horizontalAdvance(label_) + 16;
    }
    QRectF boundingRect() const override {
        return rect_.adjusted(-4, -4, std::max(4.0, labelW_ - rect_.width() + 4), 26);
    }
    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
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
            const QRectF tr(rect_.left(), rect_.bottom() + 1, std::max(rect_.width(), labelW_),
                            fm.height() + 2);
            QColor bg = t_->presentation ? QColor(Qt::black) : QColor(Qt::white);
            p->setPen(Qt::NoPen);
            p->setBrush(bg);
            p->drawRect(tr.adjusted(0, 0, 0, -1));
            p->setPen(c);
            p->drawText(tr.adjusted(4, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, label_);
        }
    }

  private:
    const Theme* t_;
    QRectF rect_;
    QString label_;
    bool error_;
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

void arrowHead(QPainter* p, QPointF tip, QPointF from, qreal size) {
    const QLineF l(tip, from);
    const qreal a = std::atan2(-l.dy(), l.dx());
    const QPointF p1 = tip + QPointF(std::cos(a + 0.45) * size, -std::sin(a + 0.45) * size);
    const QPointF p2 = tip + QPointF(std::cos(a - 0.45) * size, -std::sin(a - 0.45) * size);
    p->drawPolygon(QPolygonF({tip, p1, p2}));
}

QString jsonText(const nlohmann::json& j, const char* key) {
    if (!j.is_object()) return {};
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return {};
    if (it->is_string()) return QString::fromStdString(it->get<std::string>());
    return QString::fromStdString(it->dump());
}

qint64 jsonInt(const nlohmann::json& j, const char* key, qint64 fallback = 0) {
    if (!j.is_object()) return fallback;
    auto it = j.find(key);
    if (it == j.end()) return fallback;
    if (it->is_number_integer() || it->is_number_unsigned()) return it->get<qint64>();
    if (it->is_boolean()) return it->get<bool>() ? 1 : 0;
    return fallback;
}

QString shortOpcode(const QString& op) {
    if (op == QLatin1String("RDMA_WRITE")) return QStringLiteral("WRITE");
    if (op == QLatin1String("RDMA_WRITE_WITH_IMM")) return QStringLiteral("WRITE+IMM");
    if (op == QLatin1String("RDMA_READ")) return QStringLiteral("READ");
    if (op == QLatin1String("SEND_WITH_IMM")) return QStringLiteral("SEND+IMM");
    if (op == QLatin1String("ATOMIC_CMP_AND_SWP")) return QStringLiteral("CAS");
    if (op == QLatin1String("ATOMIC_FETCH_AND_ADD")) return QStringLiteral("FAA");
    return op;
}

QString shortStatus(const QString& status) {
    QString s = status;
    if (s.startsWith(QLatin1String("IBV_WC_"))) s = s.mid(7);
    return s;
}

constexpr qreal kSceneW = 1400;
constexpr qreal kSceneH = 880;
constexpr qreal kHostW = 660;
constexpr qreal kInnerW = 640;
// Vertical layout (scene y).
constexpr qreal kHostTop = 50, kHostBottom = 726;
constexpr qreal kAppY = 80, kAppH = 122;
constexpr qreal kVerbsY = 214, kVerbsH = 38;
constexpr qreal kKernelY = 266, kKernelH = 38, kKernelW = 470;
constexpr qreal kRnicY = 318, kRnicH = 350;
constexpr qreal kPortY = 682, kPortH = 34;
constexpr qreal kLinkY = 754;
constexpr qreal kControlLaneX = 58; // local x of the control path lane (outer side)
constexpr qreal kDataLaneX = 560;   // local x of the data path lane (inner side)
constexpr qreal kBelowRnicY = 675;  // the gap between RNIC and port, where packets run sideways

struct PendingSend {
    QString opcode;
    quint64 wrId = 0;
    quint64 length = 0;
    quint32 rkey = 0;
};

struct Extras {
    struct PerSide {
        bool pd = false;
        qint64 pdId = -1;
        bool cq = false;
        qint64 cqId = -1;
        qint64 cqe = 0;
        int polled = 0;
        QString lastWc;
        bool lastWcError = false;
        std::deque<PendingSend> pending;
    };
    std::array<PerSide, 2> side;
    QString portState, linkLayer, gid, gidType;
    qint64 mtu = 0;
    int port = 1;
    bool deviceOpen = false;
};

struct EventRef {
    std::optional<Side> side;
    EventKind kind = EventKind::Verb;
    QString name;
    QString queue;
};

struct HostItems {
    Block* frame = nullptr;
    BufferBlock* app = nullptr;
    Block* verbs = nullptr;
    Block* kernel = nullptr;
    Block* rnic = nullptr;
    Block* port = nullptr;
    Block* pd = nullptr;
    Block* qp = nullptr;
    Block* sq = nullptr;
    Block* rq = nullptr;
    Block* mtt = nullptr;
    Block* cq = nullptr;
    Block* doorbell = nullptr;
};

using Stage = std::function<void(QParallelAnimationGroup*)>;

} // namespace

// -------------------------------------------------------------------------------------------------------------

struct DataPathView::Impl {
    DataPathView* view = nullptr;
    QGraphicsScene* scene = nullptr;
    Theme theme;
    double speed = 1.0;

    std::array<HostItems, 2> host;
    Decor* title = nullptr;
    Decor* statusLine = nullptr;
    Decor* link = nullptr;
    Decor* legend = nullptr;
    std::vector<QGraphicsItem*> decor;

    LabState shown;  ///< what the picture shows (advances event by event)
    LabState target; ///< the state after the last queued events
    Extras extras;
    std::deque<TraceEvent> queue;
    std::deque<Stage> stages;
    std::map<std::uint64_t, EventRef> history;
    QParallelAnimationGroup* group = nullptr;
    std::vector<QGraphicsItem*> temps;
    bool busy = false;
    qreal statusFlash = 0;
    std::vector<Block*> highlighted;

    // ---- geometry
    // ------------------------------------------------------------------------------------------
    static qreal hostX(int s) { return s == 0 ? 12 : kSceneW - 12 - kHostW; }
    static qreal innerX(int s) { return hostX(s) + 10; }
    /// Local rectangle (x measured from the outer edge of the host) to scene coordinates; B is mirrored.
    static QRectF L(int s, qreal x, qreal y, qreal w, qreal h) {
        const qreal lx = s == 0 ? x : kInnerW - x - w;
        return QRectF(innerX(s) + lx, y, w, h);
    }
    static QPointF P(int s, qreal x, qreal y) { return QPointF(innerX(s) + (s == 0 ? x : kInnerW - x), y); }

    int ms(int base) const {
        return std::max(1, static_cast<int>(std::lround(base / std::max(0.05, speed))));
    }

    // ---- building the picture -----------------------------------------------------------------------------
    template <typename T = Block> T* box(int s, QRectF r, QColor Theme::*fill, qreal z = 1) {
        auto* b = new T(&theme, r, fill);
        b->setZValue(z);
        scene->addItem(b);
        (void)s;
        return b;
    }

    void build() {
        scene->setSceneRect(0, 0, kSceneW, kSceneH);
        for (int s = 0; s < 2; ++s) {
            auto& h = host[static_cast<std::size_t>(s)];
            h.frame = box(s, QRectF(hostX(s), kHostTop, kHostW, kHostBottom - kHostTop), &Theme::hostFill, 0);
            h.frame->title =
                s == 0 ? QStringLiteral("Host A · requester") : QStringLiteral("Host B · responder");
            h.frame->radius = 10;
            h.app = box<BufferBlock>(s, L(s, 0, kAppY, kInnerW, kAppH), &Theme::app);
            h.app->title = QStringLiteral("Application buffer");
            h.verbs = box(s, L(s, 0, kVerbsY, kInnerW, kVerbsH), &Theme::verbs);
            h.verbs->title = QStringLiteral("Verbs library (libibverbs) · user space");
            h.verbs->centerTitle = true;
            h.kernel = box(s, L(s, 0, kKernelY, kKernelW, kKernelH), &Theme::kernel);
            h.kernel->title = QStringLiteral("Kernel (ib_uverbs: control path only)");
            h.kernel->centerTitle = true;
            h.rnic = box(s, L(s, 0, kRnicY, kInnerW, kRnicH), &Theme::rnic);
            h.rnic->title = QStringLiteral("RNIC");
            h.rnic->centerTitle = true;
            h.port = box(s, L(s, 0, kPortY, kInnerW, kPortH), &Theme::port);
            h.port->centerTitle = true;
            for (Block* b : {h.verbs, h.kernel, h.port})
                b->vcenter = true;
            h.pd = box(s, L(s, 80, kRnicY + 5, 100, 26), &Theme::object, 2);
            h.doorbell = box(s, L(s, kDataLaneX - 70, kRnicY + 5, 140, 26), &Theme::object, 2);
            h.doorbell->title = QStringLiteral("doorbell");
            h.doorbell->centerTitle = true;
            h.doorbell->vcenter = true;
            h.qp = box(s, L(s, 12, kRnicY + 38, 330, 302), &Theme::object, 2);
            h.qp->wrapLast = 3;
            h.sq = box(s, L(s, 22, kRnicY + 196, 310, 68), &Theme::slot, 3);
            h.sq->slotCount = 4;
            h.rq = box(s, L(s, 22, kRnicY + 268, 310, 68), &Theme::slot, 3);
            h.rq->slotCount = 4;
            h.mtt = box(s, L(s, 354, kRnicY + 38, 274, 150), &Theme::object, 2);
            h.mtt->wrapLast = 2;
            h.cq = box(s, L(s, 354, kRnicY + 196, 274, 140), &Theme::object, 2);
            h.cq->slotCount = 4;
            // Lanes: control path (outer side, through the kernel) and data path (inner side, skipping it).
            auto* lanes =
                new Decor(QRectF(hostX(s), kAppY, kHostW, kRnicY - kAppY + 40), [this, s](QPainter* p) {
                    const qreal cx = P(s, kControlLaneX, 0).x();
                    const qreal dx = P(s, kDataLaneX, 0).x();
                    QPen cp(theme.controlLane, theme.pen + 0.8);
                    p->setPen(cp);
                    p->setBrush(theme.controlLane);
                    for (auto [y0, y1] :
                         {std::pair{kAppY + kAppH, kVerbsY}, std::pair{kVerbsY + kVerbsH, kKernelY},
                          std::pair{kKernelY + kKernelH, kRnicY}}) {
                        p->drawLine(QPointF(cx, y0), QPointF(cx, y1 - 2));
                        arrowHead(p, QPointF(cx, y1), QPointF(cx, y0), 7);
                    }
                    p->setFont(theme.font(theme.small, true));
                    p->setPen(theme.controlLane);
                    const qreal lw = 150;
                    const qreal ly = kVerbsY + kVerbsH;
                    const QRectF lr = s == 0 ? QRectF(cx + 8, ly, lw, kKernelY - ly)
                                             : QRectF(cx - 8 - lw, ly, lw, kKernelY - ly);
                    p->drawText(lr, (s == 0 ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter,
                                QStringLiteral("control path"));
                    // Data path: one band from the verbs library straight into the RNIC, beside the kernel.
                    QColor band = theme.dataLane;
                    band.setAlphaF(static_cast<float>(theme.presentation ? 0.9 : 0.75));
                    p->setPen(QPen(band, theme.thick + 2, Qt::SolidLine, Qt::FlatCap));
                    p->drawLine(QPointF(dx, kAppY + kAppH), QPointF(dx, kRnicY - 4));
                    p->setBrush(band);
                    p->setPen(Qt::NoPen);
                    arrowHead(p, QPointF(dx, kRnicY + 1), QPointF(dx, kAppY), 11);
                    p->setFont(theme.font(theme.presentation ? 12 : theme.small, true));
                    p->setPen(theme.dataLane);
                    const QRectF tr = L(s, kKernelW + 2, kKernelY - 2, kInnerW - kKernelW - 2, kKernelH + 4);
                    const QRectF half = s == 0 ? QRectF(tr.left(), tr.top(), dx - tr.left() - 6, tr.height())
                                               : QRectF(dx + 6, tr.top(), tr.right() - dx - 6, tr.height());
                    p->drawText(half, Qt::AlignCenter | Qt::TextWordWrap,
                                QStringLiteral("data path: skips the kernel"));
                });
            lanes->setZValue(5);
            scene->addItem(lanes);
            decor.push_back(lanes);
        }
        title = new Decor(QRectF(0, 0, kSceneW, 46), [this](QPainter* p) { paintTitle(p); });
        statusLine = new Decor(QRectF(0, 784, kSceneW, 34), [this](QPainter* p) { paintStatus(p); });
        link = new Decor(QRectF(0, kHostBottom, kSceneW, 56), [this](QPainter* p) { paintLink(p); });
        legend = new Decor(QRectF(0, 824, kSceneW, 56), [this](QPainter* p) { paintLegend(p); });
        for (auto* dcr : {title, statusLine, link, legend}) {
            dcr->setZValue(1);
            scene->addItem(dcr);
            decor.push_back(dcr);
        }
        applyTheme();
    }

    void applyTheme() {
        scene->setBackgroundBrush(theme.background);
        scene->update();
        for (auto* item : scene->items())
            item->update();
    }

    void paintTitle(QPainter* p) {
        const QRectF r(12, 8, kSceneW - 24, 32);
        qreal x = r.left();
        p->setFont(theme.font(theme.title + 2, true));
        p->setPen(theme.text);
        const QString dev = shown.device.isEmpty() ? QStringLiteral("no device yet") : shown.device;
        const QFontMetricsF fm(p->font());
        p->drawText(QRectF(x, r.top(), fm.horizontalAdvance(dev) + 4, r.height()), Qt::AlignVCenter, dev);
        x += fm.horizontalAdvance(dev) + 14;
        auto badge = [&](const QString& text, const QColor& bg, const QColor& fg, bool right) {
            p->setFont(theme.font(theme.small + 1, true));
            const QFontMetricsF fb(p->font());
            const qreal w = fb.horizontalAdvance(text) + 18;
            const QRectF b(right ? r.right() - w : x, r.top() + 3, w, r.height() - 6);
            p->setPen(QPen(fg, theme.pen));
            p->setBrush(bg);
            p->drawRoundedRect(b, 5, 5);
            p->setPen(fg);
            p->drawText(b, Qt::AlignCenter, text);
            return w;
        };
        if (shown.softwareDevice) {
            QColor bg = theme.presentation ? QColor(Qt::black) : QColor("#fff1c2");
            x += badge(QStringLiteral("SoftRoCE (software RDMA)"), bg,
                       theme.presentation ? theme.accent : QColor("#7a5200"), false) +
                 14;
        }
        qreal right = r.right();
        if (shown.replay) {
            right -= badge(QStringLiteral("REPLAY"), theme.presentation ? theme.accent : QColor("#5a2ca0"),
                           theme.presentation ? QColor(Qt::black) : QColor(Qt::white), true) +
                     14;
        }
        if (shown.step.index >= 0 || !shown.step.title.isEmpty()) {
            p->setFont(theme.font(theme.base + 1));
            p->setPen(theme.text);
            QString text = shown.step.title;
            if (shown.step.index >= 0 && shown.step.count > 0)
                text = QStringLiteral("Step %1/%2: %3")
                           .arg(shown.step.index + 1)
                           .arg(shown.step.count)
                           .arg(text);
            drawLine(p,
                     QRectF(x + 10, r.top() + (r.height() - QFontMetricsF(p->font()).height()) / 2,
                            right - x - 20, 0),
                     text, Qt::AlignHCenter);
        }
    }

    void paintStatus(QPainter* p) {
        QString text;
        QColor color = theme.text;
        if (shown.lastError) {
            text = QStringLiteral("✖ ") + shown.lastError->section(QLatin1Char('\n'), 0, 0);
            color = theme.error;
        } else if (shown.verified) {
            text = (*shown.verified ? QStringLiteral("✔ ") : QStringLiteral("✖ ")) + shown.checkSummary;
            color = *shown.verified ? theme.ok : theme.error;
        }
        if (text.isEmpty()) return;
        p->setFont(theme.font(theme.title, true));
        const QFontMetricsF fm(p->font());
        const qreal w = std::min(kSceneW - 60, fm.horizontalAdvance(text) + 40);
        const QRectF r((kSceneW - w) / 2, 786, w, 30);
        QColor bg = theme.presentation ? QColor(Qt::black) : theme.hostFill;
        p->setBrush(bg);
        p->setPen(QPen(color, theme.pen + 2 * statusFlash + 0.5));
        p->drawRoundedRect(r, 6, 6);
        p->setPen(color);
        drawLine(p, r.adjusted(14, (r.height() - fm.height()) / 2, -14, 0), text, Qt::AlignHCenter);
    }

    QPointF portCenter(int s) const { return P(s, kInnerW / 2, kPortY + kPortH); }

    void paintLink(QPainter* p) {
        const QPointF a = portCenter(0), b = portCenter(1);
        QPen pen(theme.text, theme.thick + 1);
        p->setPen(pen);
        p->setBrush(Qt::NoBrush);
        QPainterPath path(a);
        path.lineTo(a.x(), kLinkY);
        path.lineTo(b.x(), kLinkY);
        path.lineTo(b);
        p->drawPath(path);
        p->setFont(theme.font(theme.base, true));
        p->setPen(theme.text);
        const QString label = QStringLiteral("RoCE v2: UDP/IP, port 4791");
        const QFontMetricsF fm(p->font());
        const qreal w = fm.horizontalAdvance(label) + 20;
        const QRectF lr((kSceneW - w) / 2, kLinkY - fm.height() - 6, w, fm.height() + 2);
        p->drawText(lr, Qt::AlignCenter, label);
    }

    void paintLegend(QPainter* p) {
        const qreal y = 834;
        p->setFont(theme.font(theme.base));
        const QFontMetricsF fm(p->font());
        const QString solidText = QStringLiteral("solid = observed event from the real device");
        const QString dashedText = QStringLiteral("dashed = illustration of what happens inside the NIC");
        const qreal sw = 44, gap = 10, sep = 40;
        const qreal total =
            sw + gap + fm.horizontalAdvance(solidText) + sep + sw + gap + fm.horizontalAdvance(dashedText);
        qreal x = (kSceneW - total) / 2;
        const QRectF s1(x, y, sw, 24);
        p->setBrush(theme.accent);
        p->setPen(QPen(theme.accent.darker(130), theme.pen));
        p->drawRoundedRect(s1, 6, 6);
        x += sw + gap;
        p->setPen(theme.text);
        p->drawText(QRectF(x, y, fm.horizontalAdvance(solidText) + 2, 24), Qt::AlignVCenter, solidText);
        x += fm.horizontalAdvance(solidText) + sep;
        const QRectF s2(x, y, sw, 24);
        QColor h = theme.illustrated;
        h.setAlphaF(static_cast<float>(0.35));
        p->setBrush(hatch(h));
        p->setPen(QPen(theme.illustrated, theme.pen + 0.8, Qt::DashLine));
        p->drawRoundedRect(s2, 6, 6);
        x += sw + gap;
        p->setFont(theme.font(theme.base, false, true));
        p->setPen(theme.presentation ? theme.text : theme.illustrated.darker(120));
        p->drawText(QRectF(x, y, fm.horizontalAdvance(dashedText) + 20, 24), Qt::AlignVCenter, dashedText);
    }

    // ---- refreshing from `shown`
    // ----------------------------------------------------------------------------
    static QString hex(quint64 v) { return QStringLiteral("0x") + QString::number(v, 16); }

    void refreshHeader() {
        title->update();
        statusLine->update();
    }

    void refreshPorts() {
        for (int s = 0; s < 2; ++s) {
            auto* port = host[static_cast<std::size_t>(s)].port;
            QStringList parts;
            parts << QStringLiteral("Port %1").arg(extras.port);
            if (!extras.portState.isEmpty()) parts << extras.portState;
            if (extras.mtu > 0) parts << QStringLiteral("MTU %1").arg(extras.mtu);
            if (!extras.gid.isEmpty())
                parts << QStringLiteral("GID %1%2")
                             .arg(extras.gid, extras.gidType.isEmpty()
                                                  ? QString()
                                                  : QStringLiteral(" (%1)").arg(extras.gidType));
            port->title = parts.join(QStringLiteral(" · "));
            port->present = extras.deviceOpen || !extras.portState.isEmpty();
            port->update();
            auto* rnic = host[static_cast<std::size_t>(s)].rnic;
            rnic->title = shown.device.isEmpty() ? QStringLiteral("RNIC")
                                                 : QStringLiteral("RNIC · %1").arg(shown.device);
            rnic->update();
        }
    }

    void refreshBuffer(int s) {
        auto& h = host[static_cast<std::size_t>(s)];
        const auto& m = shown.memory[static_cast<std::size_t>(s)];
        const auto& r = shown.regions[static_cast<std::size_t>(s)];
        h.app->bytes = m.bytes;
        h.app->length = m.length ? m.length : r.length;
        h.app->changed = m.changed;
        QString info;
        if (r.registered)
            info = QStringLiteral("%1 · %2 B at %3 · lkey %4")
                       .arg(r.label.isEmpty() ? QStringLiteral("region") : r.label)
                       .arg(r.length)
                       .arg(hex(r.addr))
                       .arg(hex(r.lkey));
        else if (!m.bytes.isEmpty())
            info = QStringLiteral("not registered");
        h.app->titleRight = info;
        const auto& x = extras.side[static_cast<std::size_t>(s)];
        h.app->footer = x.lastWc;
        h.app->footerError = x.lastWcError;
        h.app->footerOk = !x.lastWcError && !x.lastWc.isEmpty();
        h.app->update();
    }

    void refreshMtt(int s) {
        auto& b = *host[static_cast<std::size_t>(s)].mtt;
        const auto& r = shown.regions[static_cast<std::size_t>(s)];
        b.title = QStringLiteral("MTT");
        b.titleRight = QStringLiteral("memory translation table");
        b.present = r.registered;
        b.lines.clear();
        if (!r.registered) {
            b.lines << QStringLiteral("no region registered");
        } else {
            b.lines << QStringLiteral("addr %1").arg(hex(r.addr))
                    << QStringLiteral("length %1 B").arg(r.length)
                    << QStringLiteral("lkey 0x%1 · rkey 0x%2").arg(r.lkey, 0, 16).arg(r.rkey, 0, 16)
                    << QStringLiteral("access %1")
                           .arg(r.access.isEmpty() ? QStringLiteral("(local read only)")
                                                   : r.access.join(QStringLiteral(", ")));
        }
        b.update();
    }

    void refreshQp(int s) {
        auto& h = host[static_cast<std::size_t>(s)];
        const auto& q = shown.qps[static_cast<std::size_t>(s)];
        h.qp->present = q.created;
        h.qp->lines.clear();
        h.qp->bigText.clear();
        h.qp->error = false;
        if (!q.created) {
            h.qp->title = QStringLiteral("QP");
            h.qp->lines << QStringLiteral("no queue pair (none created, or destroyed)");
        } else {
            h.qp->title = QStringLiteral("QP %1%2").arg(q.qpn).arg(
                q.type.isEmpty() ? QString() : QStringLiteral(" · ") + q.type);
            h.qp->bigText = q.state.isEmpty() ? QStringLiteral("?") : q.state;
            h.qp->bigColor = q.state == QLatin1String("RTS")   ? theme.ok
                             : q.state == QLatin1String("ERR") ? theme.error
                                                               : theme.accent;
            h.qp->error = q.state == QLatin1String("ERR");
            QStringList info;
            if (q.destQpn) info << QStringLiteral("peer QPN %1").arg(q.destQpn);
            if (q.pathMtu) info << QStringLiteral("MTU %1").arg(q.pathMtu);
            if (!info.isEmpty()) h.qp->lines << info.join(QStringLiteral(" · "));
            QStringList psn;
            if (q.sqPsn) psn << QStringLiteral("SQ PSN %1").arg(q.sqPsn);
            if (q.rqPsn) psn << QStringLiteral("RQ PSN %1").arg(q.rqPsn);
            if (!psn.isEmpty()) h.qp->lines << psn.join(QStringLiteral(" · "));
            if (!q.lastTransition.isEmpty()) {
                h.qp->lines << QStringLiteral("last: %1").arg(q.lastTransition);
                h.qp->lines << QStringLiteral("mask: %1").arg(q.lastMask.join(QStringLiteral(" ")));
            }
        }
        h.qp->update();
        h.sq->present = h.rq->present = q.created;
        h.sq->update();
        h.rq->update();
    }

    void refreshQueues(int s) {
        auto& h = host[static_cast<std::size_t>(s)];
        h.sq->slotLabels.clear();
        h.rq->slotLabels.clear();
        int sqCount = 0, rqCount = 0;
        for (const auto& w : shown.workRequests) {
            if (index(w.side) != s || w.completed) continue;
            const QString label = QStringLiteral("%1 #%2").arg(shortOpcode(w.opcode)).arg(w.wrId);
            if (w.queue == QLatin1String("recv")) {
                if (h.rq->slotLabels.size() < h.rq->slotCount) h.rq->slotLabels << label;
                ++rqCount;
            } else {
                if (h.sq->slotLabels.size() < h.sq->slotCount) h.sq->slotLabels << label;
                ++sqCount;
            }
        }
        h.sq->title = QStringLiteral("SQ · send queue");
        h.sq->titleRight = sqCount ? QStringLiteral("%1 WQE%2").arg(sqCount).arg(sqCount == 1 ? "" : "s")
                                   : QStringLiteral("empty");
        h.rq->title = QStringLiteral("RQ · receive queue");
        h.rq->titleRight = rqCount ? QStringLiteral("%1 WQE%2").arg(rqCount).arg(rqCount == 1 ? "" : "s")
                                   : QStringLiteral("empty");
        const auto& x = extras.side[static_cast<std::size_t>(s)];
        h.cq->present = x.cq;
        h.cq->title = x.cq ? QStringLiteral("CQ %1").arg(x.cqId) : QStringLiteral("CQ");
        h.cq->titleRight = x.cq && x.cqe ? QStringLiteral("%1 CQEs").arg(x.cqe) : QString();
        h.cq->lines.clear();
        if (!x.cq)
            h.cq->lines << QStringLiteral("no completion queue");
        else
            h.cq->lines << (x.polled ? QStringLiteral("%1 CQE%2 polled by the app")
                                           .arg(x.polled)
                                           .arg(x.polled == 1 ? "" : "s")
                                     : QStringLiteral("no completions yet"));
        h.pd->present = x.pd;
        h.pd->title = x.pd ? QStringLiteral("PD %1").arg(x.pdId) : QStringLiteral("no PD");
        h.pd->centerTitle = true;
        h.pd->vcenter = true;
        for (auto* b : {h.sq, h.rq, h.cq, h.pd})
            b->update();
    }

    void refreshAll() {
        refreshHeader();
        refreshPorts();
        for (int s = 0; s < 2; ++s) {
            refreshBuffer(s);
            refreshMtt(s);
            refreshQp(s);
            refreshQueues(s);
        }
    }

    // ---- animation helpers
    // ----------------------------------------------------------------------------------
    QVariantAnimation* anim(QParallelAnimationGroup* g, int duration, std::function<void(qreal)> fn,
                            int delay = 0, QEasingCurve curve = QEasingCurve::Linear) {
        auto* a = new QVariantAnimation;
        a->setStartValue(0.0);
        a->setEndValue(1.0);
        a->setDuration(duration);
        a->setEasingCurve(curve);
        QObject::connect(a, &QVariantAnimation::valueChanged, a, [fn](const QVariant& v) { fn(v.toReal()); });
        if (delay > 0) {
            auto* seq = new QSequentialAnimationGroup;
            seq->addPause(delay);
            seq->addAnimation(a);
            g->addAnimation(seq);
        } else {
            g->addAnimation(a);
        }
        return a;
    }

    Token* token(const QString& label, bool illustrated, bool error, QPointF at) {
        auto* t = new Token(&theme, label, illustrated, error);
        t->setPos(at);
        scene->addItem(t);
        temps.push_back(t);
        return t;
    }

    Overlay* overlay(QRectF r, const QString& label, bool error) {
        auto* o = new Overlay(&theme, r, label, error);
        scene->addItem(o);
        temps.push_back(o);
        return o;
    }

    void travel(QParallelAnimationGroup* g, QGraphicsItem* item, const QPainterPath& path, int duration,
                int delay = 0) {
        item->setPos(path.pointAtPercent(0));
        anim(
            g, duration,
            [item, path](qreal t) { item->setPos(path.pointAtPercent(std::clamp(t, 0.0, 1.0))); }, delay,
            QEasingCurve::InOutQuad);
    }

    void fadeIn(QParallelAnimationGroup* g, QGraphicsItem* item, int duration, int delay = 0) {
        item->setOpacity(0);
        anim(
            g, duration, [item](qreal t) { item->setOpacity(t); }, delay);
    }

    void pulse(QParallelAnimationGroup* g, Block* b, int duration, int delay = 0) {
        anim(
            g, duration, [b](qreal t) { b->setFlash(std::sin(t * M_PI)); }, delay);
    }

    static QPainterPath polyline(std::initializer_list<QPointF> points) {
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

    // Where things are.
    QPointF appPoint(int s) const { return P(s, 320, kAppY + kAppH - 14); }
    QPointF bufferLanePoint(int s) const { return P(s, kDataLaneX, kAppY + 66); }
    QPointF rnicEntry(int s) const { return P(s, kDataLaneX, kRnicY + 18); }
    QPointF center(const Block* b) const { return b->rect().center(); }
    QPointF above(const Block* b) const { return QPointF(b->rect().center().x(), kRnicY + 30); }

    QPainterPath controlPath(int s, QPointF to) const {
        const qreal cx = P(s, kControlLaneX, 0).x();
        return polyline({appPoint(s), QPointF(cx, kAppY + kAppH - 14), QPointF(cx, kVerbsY + kVerbsH / 2),
                         QPointF(cx, kKernelY + kKernelH / 2), QPointF(cx, kRnicY + 18),
                         QPointF(to.x(), kRnicY + 18), to});
    }
    QPainterPath dataPath(int s, QPointF to) const {
        const qreal dx = P(s, kDataLaneX, 0).x();
        return polyline({appPoint(s), QPointF(dx, kAppY + kAppH - 14), QPointF(dx, kVerbsY + kVerbsH / 2),
                         QPointF(dx, kKernelY + kKernelH / 2), QPointF(dx, kRnicY + 18),
                         QPointF(to.x(), kRnicY + 18), to});
    }
    QPainterPath upPath(int s, QPointF from) const {
        const qreal dx = P(s, kDataLaneX, 0).x();
        return polyline({from, QPointF(from.x(), kRnicY + 18), QPointF(dx, kRnicY + 18),
                         QPointF(dx, kVerbsY + kVerbsH / 2), QPointF(dx, kAppY + kAppH - 14), appPoint(s)});
    }
    QPainterPath wirePath(int from, QPointF start, QPointF end) const {
        const int to = 1 - from;
        const QPointF pa = portCenter(from), pb = portCenter(to);
        return polyline({start, QPointF(start.x(), kBelowRnicY), QPointF(pa.x(), kBelowRnicY),
                         QPointF(pa.x(), kLinkY), QPointF(pb.x(), kLinkY), QPointF(pb.x(), kBelowRnicY),
                         QPointF(end.x(), kBelowRnicY), end});
    }
    QPainterPath dmaPath(int s, QPointF rnicPoint, bool toMemory) const {
        QPainterPath p = polyline({rnicPoint, QPointF(rnicPoint.x(), kRnicY + 18), rnicEntry(s),
                                   QPointF(rnicEntry(s).x(), kVerbsY + kVerbsH / 2), bufferLanePoint(s)});
        return toMemory ? p : p.toReversed();
    }

    // ---- the event queue
    // ------------------------------------------------------------------------------------
    void stageEvent(const TraceEvent& e);
    void illustrate(int s, const PendingSend& w, const QString& status);
    void pump();
    void finish();
    void abort();
    void clearTemps() {
        for (auto* item : temps) {
            scene->removeItem(item);
            delete item;
        }
        temps.clear();
    }
    void applyExtras(const TraceEvent& e);
    void syncToTarget() {
        const bool replay = target.replay;
        shown = target;
        shown.replay = replay;
        refreshAll();
    }
};

// Object bookkeeping the LabState does not keep (PD, CQ, port, pending sends, polled completions).
void DataPathView::Impl::applyExtras(const TraceEvent& e) {
    const auto side = sideOf(e);
    const auto& d = e.data;
    const bool ok = jsonInt(d, "ret", 0) == 0;
    if (e.kind == EventKind::Verb) {
        const std::string& n = e.name;
        if (n == "ibv_open_device" && ok) extras.deviceOpen = true;
        if (n == "ibv_close_device") {
            extras.deviceOpen = false;
            extras.portState.clear();
            extras.gid.clear();
            extras.gidType.clear();
            extras.mtu = 0;
        }
        if (n == "ibv_query_port" && ok) {
            extras.portState = jsonText(d, "state");
            extras.mtu = jsonInt(d, "active_mtu", extras.mtu);
            extras.linkLayer = jsonText(d, "link_layer");
            if (d.contains("args")) extras.port = static_cast<int>(jsonInt(d["args"], "port", extras.port));
        }
        if (n == "ibv_query_gid_ex" && ok) {
            extras.gid = jsonText(d, "gid");
            extras.gidType = jsonText(d, "type");
        }
        if (!side) return;
        auto& x = extras.side[static_cast<std::size_t>(index(*side))];
        if (n == "ibv_alloc_pd" && ok) {
            x.pd = true;
            x.pdId = jsonInt(e.ids, "pd", -1);
        } else if (n == "ibv_dealloc_pd") {
            x.pd = false;
        } else if (n == "ibv_create_cq" && ok) {
            x.cq = true;
            x.cqId = jsonInt(e.ids, "cq", -1);
            x.cqe = jsonInt(d, "actual_cqe", 0);
            x.polled = 0;
        } else if (n == "ibv_destroy_cq") {
            x.cq = false;
        } else if (n == "ibv_destroy_qp") {
            x.pending.clear();
        }
    } else if (e.kind == EventKind::PostWr && side && ok && jsonText(d, "queue") != QLatin1String("recv")) {
        PendingSend w;
        w.opcode = QString::fromStdString(e.name);
        w.wrId = static_cast<quint64>(jsonInt(e.ids, "wr_id", 0));
        w.length = static_cast<quint64>(jsonInt(d, "length", 0));
        w.rkey = static_cast<quint32>(jsonInt(e.ids, "rkey", 0));
        extras.side[static_cast<std::size_t>(index(*side))].pending.push_back(w);
    } else if (e.kind == EventKind::Wc && side) {
        auto& x = extras.side[static_cast<std::size_t>(index(*side))];
        ++x.polled;
        const QString status = QString::fromStdString(e.name);
        const bool success = status == QLatin1String("IBV_WC_SUCCESS");
        QString op = jsonText(d, "opcode");
        if (op.startsWith(QLatin1Char('('))) op.clear();
        x.lastWc = QStringLiteral("last completion: %1%2 · %3 B · wr_id %4")
                       .arg(status, op.isEmpty() ? QString() : QStringLiteral(" · ") + op)
                       .arg(jsonInt(d, "byte_len", 0))
                       .arg(jsonInt(d, "wr_id", jsonInt(e.ids, "wr_id", 0)));
        x.lastWcError = !success;
    }
}

void DataPathView::Impl::stageEvent(const TraceEvent& e) {
    const auto side = sideOf(e);
    EventRef ref;
    ref.side = side;
    ref.kind = e.kind;
    ref.name = QString::fromStdString(e.name);
    ref.queue = jsonText(e.data, "queue");
    history[e.seq] = ref;

    // Completion of a send posted earlier: take it from the pending list before the bookkeeping.
    std::optional<PendingSend> completedSend;
    if (e.kind == EventKind::Wc && side) {
        auto& pend = extras.side[static_cast<std::size_t>(index(*side))].pending;
        const auto wr = static_cast<quint64>(jsonInt(e.data, "wr_id", jsonInt(e.ids, "wr_id", 0)));
        auto it = std::find_if(pend.begin(), pend.end(), [wr](const PendingSend& w) { return w.wrId == wr; });
        if (it != pend.end()) {
            completedSend = *it;
            pend.erase(it);
        }
    }
    try {
        shown.apply(e);
    } catch (const std::exception&) {
        // A malformed event (a field of the wrong type) changes nothing in the picture.
    }
    applyExtras(e);

    const bool ok = jsonInt(e.data, "ret", 0) == 0;
    const int s = side ? index(*side) : -1;
    const auto hs = static_cast<std::size_t>(std::max(0, s));

    switch (e.kind) {
    case EventKind::Session:
    case EventKind::Step:
    case EventKind::Result:
    case EventKind::Measure:
        stages.push_back([this](QParallelAnimationGroup*) {
            refreshHeader();
            refreshPorts();
        });
        return;
    case EventKind::Check:
        stages.push_back([this](QParallelAnimationGroup* g) {
            refreshHeader();
            anim(g, ms(600), [this](qreal t) {
                statusFlash = std::sin(t * M_PI);
                statusLine->update();
            });
        });
        return;
    case EventKind::Error:
        stages.push_back([this, s, hs](QParallelAnimationGroup* g) {
            refreshHeader();
            anim(g, ms(700), [this](qreal t) {
                statusFlash = std::sin(t * M_PI);
                statusLine->update();
            });
            if (s >= 0) {
                host[hs].frame->error = true;
                pulse(g, host[hs].verbs, ms(700));
            }
        });
        stages.push_back([this, s, hs](QParallelAnimationGroup*) {
            if (s >= 0) host[hs].frame->error = false;
            host[hs].frame->update();
        });
        return;
    case EventKind::Async:
        stages.push_back([this, s, hs, name = ref.name](QParallelAnimationGroup* g) {
            if (s < 0) {
                refreshPorts();
                for (auto& h : host)
                    pulse(g, h.port, ms(600));
                return;
            }
            auto* t = token(name, false, true, center(host[hs].qp));
            fadeIn(g, t, ms(200));
            refreshQp(s);
            host[hs].qp->error = true;
            pulse(g, host[hs].qp, ms(700));
        });
        return;
    case EventKind::Data:
        if (s < 0) return;
        stages.push_back([this, s, hs](QParallelAnimationGroup* g) {
            refreshBuffer(s);
            if (!host[hs].app->changed.empty()) pulse(g, host[hs].app, ms(600));
        });
        return;
    case EventKind::QpState:
        if (s < 0) return;
        stages.push_back([this, s, hs, ok](QParallelAnimationGroup* g) {
            auto* t = token(QStringLiteral("ibv_modify_qp"), false, !ok, appPoint(s));
            travel(g, t, controlPath(s, above(host[hs].qp)), ms(450));
        });
        stages.push_back([this, s, hs, ok, name = ref.name](QParallelAnimationGroup* g) {
            refreshQp(s);
            if (!ok) host[hs].qp->error = true;
            pulse(g, host[hs].qp, ms(500));
            auto* t = token(name, false, !ok, center(host[hs].qp) + QPointF(0, -52));
            fadeIn(g, t, ms(150));
        });
        return;
    case EventKind::PostWr: {
        if (s < 0) return;
        const bool recv = ref.queue == QLatin1String("recv");
        const QString label =
            QStringLiteral("WQE %1 #%2").arg(shortOpcode(ref.name)).arg(jsonInt(e.ids, "wr_id", 0));
        stages.push_back([this, s, hs, ok, recv, label](QParallelAnimationGroup* g) {
            Block* q = recv ? host[hs].rq : host[hs].sq;
            const int slot = static_cast<int>(std::min<qsizetype>(q->slotLabels.size(), q->slotCount - 1));
            auto* t = token(label, false, !ok, appPoint(s));
            travel(g, t, dataPath(s, ok ? q->slotRect(slot).center() : rnicEntry(s)), ms(650));
        });
        stages.push_back([this, s, hs, ok, recv](QParallelAnimationGroup* g) {
            refreshQueues(s);
            Block* q = recv ? host[hs].rq : host[hs].sq;
            if (!ok) {
                q->error = true;
                pulse(g, q, ms(500));
                return;
            }
            pulse(g, q, ms(350));
            pulse(g, host[hs].doorbell, ms(400));
            host[hs].doorbell->titleRight.clear();
        });
        if (!ok)
            stages.push_back([this, hs, recv](QParallelAnimationGroup*) {
                (recv ? host[hs].rq : host[hs].sq)->error = false;
                (recv ? host[hs].rq : host[hs].sq)->update();
            });
        return;
    }
    case EventKind::Wc: {
        if (s < 0) return;
        const QString status = ref.name;
        const bool success = status == QLatin1String("IBV_WC_SUCCESS");
        if (completedSend) illustrate(s, *completedSend, status);
        const QString label = QStringLiteral("CQE %1").arg(shortStatus(status));
        stages.push_back([this, s, hs, success, label](QParallelAnimationGroup* g) {
            refreshQueues(s); // the work request is retired
            auto* t = token(label, false, !success, host[hs].cq->slotRect(0).center());
            fadeIn(g, t, ms(250));
            host[hs].cq->error = !success;
            pulse(g, host[hs].cq, ms(350));
        });
        stages.push_back([this, s, hs, success, label](QParallelAnimationGroup* g) {
            auto* t = token(label, false, !success, host[hs].cq->slotRect(0).center());
            travel(g, t, upPath(s, host[hs].cq->slotRect(0).center()), ms(550));
        });
        stages.push_back([this, s, hs](QParallelAnimationGroup* g) {
            host[hs].cq->error = false;
            refreshQueues(s);
            refreshBuffer(s);
            refreshQp(s);
            pulse(g, host[hs].app, ms(300));
        });
        return;
    }
    case EventKind::Verb:
        break;
    }

    // Verbs.
    const std::string& n = e.name;
    if (n == "ibv_poll_cq" || n == "ibv_get_device_list" || n == "ibv_req_notify_cq") return;
    if (n == "ibv_open_device" || n == "ibv_query_port" || n == "ibv_query_gid_ex" ||
        n == "ibv_close_device" || s < 0) {
        stages.push_back([this](QParallelAnimationGroup* g) {
            refreshPorts();
            refreshHeader();
            for (auto& h : host)
                pulse(g, h.port, ms(300));
        });
        return;
    }
    if (n == "ibv_query_qp") {
        stages.push_back([this, s, hs](QParallelAnimationGroup* g) {
            refreshQp(s);
            pulse(g, host[hs].qp, ms(350));
        });
        return;
    }
    Block* targetBox = nullptr;
    bool appearing = n.rfind("ibv_create", 0) == 0 || n == "ibv_alloc_pd" || n == "ibv_reg_mr";
    if (n == "ibv_alloc_pd" || n == "ibv_dealloc_pd")
        targetBox = host[hs].pd;
    else if (n == "ibv_create_cq" || n == "ibv_destroy_cq" || n == "ibv_create_comp_channel" ||
             n == "ibv_destroy_comp_channel")
        targetBox = host[hs].cq;
    else if (n == "ibv_create_qp" || n == "ibv_destroy_qp")
        targetBox = host[hs].qp;
    else if (n == "ibv_reg_mr" || n == "ibv_dereg_mr")
        targetBox = host[hs].mtt;
    else
        targetBox = host[hs].rnic;
    const QString verb = QString::fromStdString(n);
    const QPointF dest = targetBox == host[hs].rnic ? rnicEntry(s) : above(targetBox);
    stages.push_back([this, s, ok, verb, dest](QParallelAnimationGroup* g) {
        auto* t = token(verb, false, !ok, appPoint(s));
        travel(g, t, controlPath(s, dest), ms(500));
    });
    if (n == "ibv_reg_mr" && ok) {
        stages.push_back([this, s, hs](QParallelAnimationGroup* g) {
            refreshBuffer(s);
            pulse(g, host[hs].app, ms(350));
            const auto& r = shown.regions[hs];
            auto* t = token(QStringLiteral("lkey 0x%1 · rkey 0x%2").arg(r.lkey, 0, 16).arg(r.rkey, 0, 16),
                            false, false, P(s, kControlLaneX + 60, kKernelY + kKernelH / 2));
            travel(g, t,
                   polyline({P(s, kControlLaneX + 60, kKernelY + kKernelH / 2),
                             QPointF(center(host[hs].mtt).x(), kRnicY + 18), center(host[hs].mtt)}),
                   ms(500));
        });
    }
    stages.push_back([this, s, targetBox, ok, appearing](QParallelAnimationGroup* g) {
        refreshMtt(s);
        refreshQp(s);
        refreshQueues(s);
        refreshBuffer(s);
        if (!ok) targetBox->error = true;
        if (appearing && ok) fadeIn(g, targetBox, ms(250));
        pulse(g, targetBox, ms(appearing ? 400 : 250));
    });
    if (!ok)
        stages.push_back([targetBox](QParallelAnimationGroup*) {
            targetBox->error = false;
            targetBox->update();
        });
}

void DataPathView::Impl::illustrate(int s, const PendingSend& w, const QString& status) {
    const int r = 1 - s;
    const auto hs = static_cast<std::size_t>(s);
    const auto hr = static_cast<std::size_t>(r);
    const bool success = status == QLatin1String("IBV_WC_SUCCESS");
    if (status.contains(QLatin1String("FLUSH"))) {
        stages.push_back([this, hs](QParallelAnimationGroup* g) {
            overlay(host[hs].qp->rect().adjusted(4, 30, -4, -150),
                    QStringLiteral("QP in ERR: nothing is sent"), true);
            auto* t = token(QStringLiteral("flushed, not sent"), true, true, center(host[hs].sq));
            travel(
                g, t,
                polyline({center(host[hs].sq), QPointF(center(host[hs].sq).x(), kBelowRnicY),
                          QPointF(center(host[hs].cq).x(), kBelowRnicY), host[hs].cq->slotRect(0).center()}),
                ms(800));
        });
        return;
    }
    const QString op = w.opcode;
    const bool read = op == QLatin1String("RDMA_READ");
    const bool atomic = op.startsWith(QLatin1String("ATOMIC"));
    const bool send = op.startsWith(QLatin1String("SEND"));
    const bool rnr = status.contains(QLatin1String("RNR"));
    const QString bytes = QStringLiteral("%1 B").arg(w.length);

    // 1. The NIC reads the payload from local memory (not for READ and atomics: they carry no payload).
    if (!read && !atomic) {
        stages.push_back([this, s, hs, bytes](QParallelAnimationGroup* g) {
            overlay(host[hs].app->cellsRect().adjusted(-3, -2, 3, 2),
                    QStringLiteral("NIC reads the payload (DMA)"), false);
            auto* t = token(QStringLiteral("DMA read %1").arg(bytes), true, false, bufferLanePoint(s));
            travel(g, t, dmaPath(s, center(host[hs].sq), false), ms(600));
        });
    }
    // 2. The request crosses the link.
    QString request;
    if (send)
        request = QStringLiteral("%1 packet · %2").arg(shortOpcode(op), bytes);
    else if (read)
        request = QStringLiteral("READ request · rkey 0x%1 · %2").arg(w.rkey, 0, 16).arg(bytes);
    else if (atomic)
        request = QStringLiteral("%1 request · rkey 0x%2").arg(shortOpcode(op)).arg(w.rkey, 0, 16);
    else
        request =
            QStringLiteral("%1 packet · rkey 0x%2 · %3").arg(shortOpcode(op)).arg(w.rkey, 0, 16).arg(bytes);
    stages.push_back([this, s, hs, hr, send, request](QParallelAnimationGroup* g) {
        Block* to = send ? host[hr].rq : host[hr].mtt;
        auto* t = token(request, true, false, center(host[hs].sq));
        travel(g, t, wirePath(s, center(host[hs].sq), center(to)), ms(900));
    });
    // 3. The responder checks the key (or finds a receive WQE).
    QString check;
    if (send)
        check =
            rnr ? QStringLiteral("✗ no receive WQE posted") : QStringLiteral("takes the next receive WQE");
    else
        check = success ? QStringLiteral("rkey 0x%1 valid, access allowed").arg(w.rkey, 0, 16)
                        : QStringLiteral("✗ rkey 0x%1 / access rejected").arg(w.rkey, 0, 16);
    stages.push_back([this, hr, send, check, success](QParallelAnimationGroup* g) {
        Block* at = send ? host[hr].rq : host[hr].mtt;
        auto* o = overlay(at->rect().adjusted(-3, -3, 3, 3), check, !success);
        fadeIn(g, o, ms(300));
        anim(g, ms(500), [](qreal) {});
    });
    if (!success) {
        const QString nak = rnr ? QStringLiteral("RNR NAK (retried, then gave up)")
                            : status.contains(QLatin1String("REM_ACCESS"))
                                ? QStringLiteral("NAK: remote access error")
                                : QStringLiteral("NAK: %1").arg(shortStatus(status));
        stages.push_back([this, s, r, hs, hr, send, nak](QParallelAnimationGroup* g) {
            Block* from = send ? host[hr].rq : host[hr].mtt;
            auto* t = token(nak, true, true, center(from));
            travel(g, t, wirePath(r, center(from), center(host[hs].sq)), ms(900));
        });
        return;
    }
    if (read || atomic) {
        stages.push_back([this, r, hr, bytes, atomic](QParallelAnimationGroup* g) {
            overlay(host[hr].app->cellsRect().adjusted(-3, -2, 3, 2),
                    atomic ? QStringLiteral("NIC reads, compares/adds and writes 8 bytes (DMA)")
                           : QStringLiteral("NIC reads the requested bytes (DMA)"),
                    false);
            auto* t = token(atomic ? QStringLiteral("DMA read-modify-write")
                                   : QStringLiteral("DMA read %1").arg(bytes),
                            true, false, bufferLanePoint(r));
            travel(g, t, dmaPath(r, center(host[hr].mtt), false), ms(600));
        });
        stages.push_back([this, s, r, hs, hr, bytes, atomic](QParallelAnimationGroup* g) {
            auto* t = token(atomic ? QStringLiteral("ATOMIC response · old value")
                                   : QStringLiteral("READ response · %1").arg(bytes),
                            true, false, center(host[hr].mtt));
            travel(g, t, wirePath(r, center(host[hr].mtt), center(host[hs].sq)), ms(900));
        });
        stages.push_back([this, s, hs, bytes, atomic](QParallelAnimationGroup* g) {
            overlay(host[hs].app->cellsRect().adjusted(-3, -2, 3, 2),
                    QStringLiteral("bytes land in A's memory (DMA)"), false);
            auto* t = token(QStringLiteral("DMA write %1").arg(atomic ? QStringLiteral("8 B") : bytes), true,
                            false, center(host[hs].sq));
            travel(g, t, dmaPath(s, center(host[hs].sq), true), ms(600));
        });
        return;
    }
    stages.push_back([this, r, hr, bytes, send](QParallelAnimationGroup* g) {
        overlay(host[hr].app->cellsRect().adjusted(-3, -2, 3, 2),
                QStringLiteral("bytes land in B's memory (DMA), no CPU involved"), false);
        Block* from = send ? host[hr].rq : host[hr].mtt;
        auto* t = token(QStringLiteral("DMA write %1").arg(bytes), true, false, center(from));
        travel(g, t, dmaPath(r, center(from), true), ms(600));
    });
    stages.push_back([this, s, r, hs, hr](QParallelAnimationGroup* g) {
        auto* t = token(QStringLiteral("ACK"), true, false, center(host[hr].qp));
        travel(g, t, wirePath(r, center(host[hr].sq), center(host[hs].sq)), ms(800));
    });
}

void DataPathView::Impl::pump() {
    for (;;) {
        if (stages.empty()) {
            if (queue.empty()) {
                finish();
                return;
            }
            const TraceEvent e = std::move(queue.front());
            queue.pop_front();
            stageEvent(e);
            continue;
        }
        Stage stage = std::move(stages.front());
        stages.pop_front();
        auto* g = new QParallelAnimationGroup(view);
        stage(g);
        if (g->animationCount() == 0) {
            delete g;
            clearTemps();
            continue;
        }
        group = g;
        QObject::connect(g, &QAbstractAnimation::finished, view, [this, g] {
            if (group != g) return;
            group = nullptr;
            g->deleteLater();
            clearTemps();
            pump();
        });
        g->start();
        return;
    }
}

void DataPathView::Impl::finish() {
    syncToTarget();
    if (busy) {
        busy = false;
        emit view->idle();
    }
}

void DataPathView::Impl::abort() {
    if (group) {
        auto* g = group;
        group = nullptr;
        QObject::disconnect(g, nullptr, view, nullptr);
        g->stop();
        delete g;
    }
    stages.clear();
    clearTemps();
    statusFlash = 0;
    for (auto& h : host)
        for (Block* b : {static_cast<Block*>(h.frame), static_cast<Block*>(h.app), h.verbs, h.kernel, h.rnic,
                         h.port, h.pd, h.qp, h.sq, h.rq, h.mtt, h.cq, h.doorbell}) {
            b->setFlash(0);
            b->setOpacity(1);
            b->error = false;
        }
}

// -------------------------------------------------------------------------------------------------------------

DataPathView::DataPathView(QWidget* parent) : QGraphicsView(parent), d(std::make_unique<Impl>()) {
    setObjectName(QStringLiteral("dataPathView"));
    d->view = this;
    d->theme.set(false);
    d->scene = new QGraphicsScene(this);
    setScene(d->scene);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setFrameShape(QFrame::NoFrame);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setAlignment(Qt::AlignCenter);
    setAccessibleName(tr("RDMA data path"));
    setAccessibleDescription(
        tr("Hosts A and B with their software layers, RNIC queues and the RoCE v2 link"));
    d->build();
    d->refreshAll();
}

DataPathView::~DataPathView() {
    d->abort();
}

void DataPathView::setPresentationMode(bool on) {
    d->theme.set(on);
    d->refreshAll();
    d->applyTheme();
}

bool DataPathView::presentationMode() const {
    return d->theme.presentation;
}

void DataPathView::setAnimationSpeed(double factor) {
    d->speed = std::isfinite(factor) ? std::max(0.0, factor) : 1.0;
    if (d->speed <= 0 && d->busy) {
        d->abort();
        while (!d->queue.empty()) {
            d->stageEvent(d->queue.front());
            d->queue.pop_front();
            d->stages.clear();
        }
        d->finish();
    }
}

double DataPathView::animationSpeed() const {
    return d->speed;
}

bool DataPathView::isIdle() const {
    return !d->busy;
}

QSize DataPathView::minimumSizeHint() const {
    return {700, 440};
}

QSize DataPathView::sizeHint() const {
    return {1400, 880};
}

void DataPathView::resetScene() {
    const bool wasBusy = d->busy;
    d->abort();
    d->queue.clear();
    d->history.clear();
    d->shown = LabState{};
    d->target = LabState{};
    d->extras = Extras{};
    d->busy = false;
    highlightSeq(0);
    d->refreshAll();
    if (wasBusy) emit idle();
}

void DataPathView::showEvents(const std::vector<rdmalab::TraceEvent>& events,
                              const rdmalab::app::LabState& state) {
    d->target = state;
    d->shown.replay = state.replay;
    if (d->speed <= 0) {
        d->abort();
        auto pending = std::move(d->queue);
        d->queue.clear();
        pending.insert(pending.end(), events.begin(), events.end());
        for (const auto& e : pending) {
            d->stageEvent(e);
            d->stages.clear();
        }
        d->busy = true;
        d->finish();
        return;
    }
    d->queue.insert(d->queue.end(), events.begin(), events.end());
    if (d->busy) return; // the running sequence picks them up
    d->busy = true;
    d->pump();
}

void DataPathView::highlightSeq(std::uint64_t seq) {
    for (Block* b : d->highlighted)
        b->setHighlighted(false);
    d->highlighted.clear();
    auto it = d->history.find(seq);
    if (seq == 0 || it == d->history.end()) return;
    const EventRef& ref = it->second;
    std::vector<Block*> boxes;
    if (!ref.side) {
        if (ref.kind == EventKind::Verb || ref.kind == EventKind::Async)
            for (auto& h : d->host)
                boxes.push_back(h.port);
    } else {
        auto& h = d->host[static_cast<std::size_t>(index(*ref.side))];
        const QString& n = ref.name;
        switch (ref.kind) {
        case EventKind::Verb:
            if (n == QLatin1String("ibv_reg_mr") || n == QLatin1String("ibv_dereg_mr"))
                boxes = {h.app, h.mtt};
            else if (n == QLatin1String("ibv_alloc_pd") || n == QLatin1String("ibv_dealloc_pd"))
                boxes = {h.pd};
            else if (n.contains(QLatin1String("_cq")))
                boxes = {h.cq};
            else if (n.contains(QLatin1String("_qp")))
                boxes = {h.qp};
            else
                boxes = {h.verbs};
            break;
        case EventKind::QpState:
        case EventKind::Async:
            boxes = {h.qp};
            break;
        case EventKind::PostWr:
            boxes = {ref.queue == QLatin1String("recv") ? h.rq : h.sq};
            if (ref.queue != QLatin1String("recv")) boxes.push_back(h.doorbell);
            break;
        case EventKind::Wc:
            boxes = {h.cq, h.app};
            break;
        case EventKind::Data:
            boxes = {h.app};
            break;
        case EventKind::Error:
            boxes = {h.frame};
            break;
        default:
            break;
        }
    }
    for (Block* b : boxes) {
        b->setHighlighted(true);
        d->highlighted.push_back(b);
    }
}

void DataPathView::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    fitInView(d->scene->sceneRect(), Qt::KeepAspectRatio);
}

void DataPathView::showEvent(QShowEvent* event) {
    QGraphicsView::showEvent(event);
    fitInView(d->scene->sceneRect(), Qt::KeepAspectRatio);
}

} // namespace rdmalab::app
