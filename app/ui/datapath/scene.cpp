#include "impl.h"
#include "language.h"

#include <QCoreApplication>

#include <QFontMetricsF>

#include <algorithm>

namespace rdmalab::app {

using namespace datapath;

namespace {
QString hex(quint64 v) {
    return QStringLiteral("0x") + QString::number(v, 16);
}
} // namespace

void DataPathView::Impl::retitle() {
    for (int s = 0; s < static_cast<int>(kSides); ++s) {
        auto& h = host[static_cast<std::size_t>(s)];
        if (s == 0)
            h.frame->title = QCoreApplication::translate("rdmalab::app::DataPathView", "Host A · requester");
        else if (s == 1 && !h.compact)
            h.frame->title = QCoreApplication::translate("rdmalab::app::DataPathView", "Host B · responder");
        else
            h.frame->title =
                QCoreApplication::translate("rdmalab::app::DataPathView", "Host %1").arg(sideLetter(s));
        h.app->title = QCoreApplication::translate("rdmalab::app::DataPathView", "Application buffer");
        h.verbs->title = QCoreApplication::translate("rdmalab::app::DataPathView",
                                                     "Verbs library (libibverbs) · user space");
    }
}

void DataPathView::Impl::build() {
    scene->setSceneRect(0, 0, kSceneW, kSceneH);
    for (int s = 0; s < static_cast<int>(kSides); ++s) {
        auto& h = host[static_cast<std::size_t>(s)];
        // Where each box goes is placeWhole's or placeCard's (cast.cpp).
        h.frame = box(QRectF(), &Theme::hostFill, 0);
        h.frame->radius = 10;
        h.app = box<BufferBlock>(QRectF(), &Theme::app);
        h.verbs = box(QRectF(), &Theme::verbs);
        h.verbs->centerTitle = true;
        // The kernel's, the device's and the doorbell's titles follow the device (refreshDevice).
        h.kernel = box(QRectF(), &Theme::kernel);
        h.rnic = box(QRectF(), &Theme::rnic);
        h.rnic->centerTitle = true;
        h.rnic->smallTitle = true; // between the PD and the doorbell, in presentation mode too
        h.port = box(QRectF(), &Theme::port);
        h.port->centerTitle = true;
        for (Block* b : {h.verbs, h.kernel, h.port})
            b->vcenter = true;
        h.pd = box(QRectF(), &Theme::object, 2);
        h.doorbell = box(QRectF(), &Theme::object, 2);
        h.doorbell->centerTitle = true;
        h.doorbell->smallTitle = true;
        h.doorbell->vcenter = true;
        h.qp = box(QRectF(), &Theme::object, 2);
        h.sq = box(QRectF(), &Theme::slot, 3);
        h.rq = box(QRectF(), &Theme::slot, 3);
        h.mtt = box(QRectF(), &Theme::object, 2);
        h.cq = box(QRectF(), &Theme::object, 2);
        if (s < 2) {
            h.lanes = new Decor(QRectF(hostX(s), kAppY, kHostW, kRnicY - kAppY + 40),
                                [this, s](QPainter* p) { paintLanes(p, s); });
            h.lanes->setZValue(5);
            scene->addItem(h.lanes);
            decor.push_back(h.lanes);
            placeWhole(s);
        }
    }
    title = new Decor(QRectF(0, 0, kSceneW, 46), [this](QPainter* p) { paintTitle(p); });
    statusLine = new Decor(QRectF(0, 784, kSceneW, 34), [this](QPainter* p) { paintStatus(p); });
    link = new Decor(QRectF(0, kBelowRnicY - 6, kSceneW, kLinkY + 28 - kBelowRnicY),
                     [this](QPainter* p) { paintLink(p); });
    legend = new Decor(QRectF(0, 824, kSceneW, 56), [this](QPainter* p) { paintLegend(p); });
    for (auto* dcr : {title, statusLine, link, legend}) {
        dcr->setZValue(1);
        scene->addItem(dcr);
        decor.push_back(dcr);
    }
    // C and D are drawn once the run names them (relayoutCast).
    cards = {-1};
    relayoutCast();
    applyTheme();
}

// Lanes: control path (outer side, through the kernel) and data path (inner side, skipping it).
void DataPathView::Impl::paintLanes(QPainter* p, int s) {
    const qreal cx = P(s, kControlLaneX, 0).x();
    const qreal dx = P(s, kDataLaneX, 0).x();
    QPen cp(theme.controlLane, theme.pen + 0.8);
    p->setPen(cp);
    p->setBrush(theme.controlLane);
    for (auto [y0, y1] : {std::pair{kAppY + kAppH, kVerbsY}, std::pair{kVerbsY + kVerbsH, kKernelY},
                          std::pair{kKernelY + kKernelH, kRnicY}}) {
        p->drawLine(QPointF(cx, y0), QPointF(cx, y1 - 2));
        arrowHead(p, QPointF(cx, y1), QPointF(cx, y0), 7);
    }
    p->setFont(theme.font(theme.small, true));
    p->setPen(theme.controlLane);
    const qreal lw = 150;
    const qreal ly = kVerbsY + kVerbsH;
    const QRectF lr =
        s == 0 ? QRectF(cx + 8, ly, lw, kKernelY - ly) : QRectF(cx - 8 - lw, ly, lw, kKernelY - ly);
    p->drawText(lr, (s == 0 ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter, laneTexts().value(0));
    // Data path: one band from the verbs library straight into the device, beside the kernel.
    QColor band = theme.dataLane;
    band.setAlphaF(static_cast<float>(theme.presentation ? 0.9 : 0.75));
    p->setPen(QPen(band, theme.thick + 2, Qt::SolidLine, Qt::FlatCap));
    p->drawLine(QPointF(dx, kAppY + kAppH), QPointF(dx, kRnicY - 4));
    p->setBrush(band);
    p->setPen(Qt::NoPen);
    arrowHead(p, QPointF(dx, kRnicY + 1), QPointF(dx, kAppY), 11);
    const QStringList texts = laneTexts();
    p->setFont(theme.font(theme.lane, true));
    p->setPen(theme.dataLane);
    const QRectF tr =
        L(s, kKernelW + 2, kVerbsY + kVerbsH + 1, kInnerW - kKernelW - 2, kRnicY - kVerbsY - kVerbsH - 2);
    const QRectF half = s == 0 ? QRectF(tr.left(), tr.top(), dx - tr.left() - 6, tr.height())
                               : QRectF(dx + 6, tr.top(), tr.right() - dx - 6, tr.height());
    p->drawText(half, Qt::AlignCenter | Qt::TextWordWrap, texts.value(1));
    if (texts.size() < 3) return;
    // A software device's send doorbell: a write() system call, through the kernel into the driver.
    const qreal bx = P(s, kDoorbellLaneX, 0).x();
    p->setPen(QPen(theme.dataLane, theme.pen + 0.8));
    p->setBrush(theme.dataLane);
    for (auto [y0, y1] : {std::pair{kVerbsY + kVerbsH, kKernelY}, std::pair{kKernelY + kKernelH, kRnicY}}) {
        p->drawLine(QPointF(bx, y0), QPointF(bx, y1 - 2));
        arrowHead(p, QPointF(bx, y1), QPointF(bx, y0), 7);
    }
    const QRectF gap =
        s == 0 ? QRectF(bx - 8 - 260, ly, 260, kKernelY - ly) : QRectF(bx + 8, ly, 260, kKernelY - ly);
    p->drawText(gap, (s == 0 ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter, texts.value(2));
}

void DataPathView::Impl::applyTheme() {
    scene->setBackgroundBrush(theme.background);
    scene->update();
    for (auto* item : scene->items())
        item->update();
}

void DataPathView::Impl::paintTitle(QPainter* p) {
    const QRectF r(12, 8, kSceneW - 24, 32);
    QStringList texts = titleTexts();
    const QString dev = texts.takeFirst();
    const QString software = shown.softwareDevice ? texts.takeFirst() : QString();
    const QString replay = shown.replay ? texts.takeFirst() : QString();
    const QString step = texts.value(0);
    qreal x = r.left();
    p->setFont(theme.font(theme.title + 2, true));
    p->setPen(theme.text);
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
    if (!software.isEmpty()) {
        QColor bg = theme.presentation ? QColor(Qt::black) : QColor("#fff1c2");
        x += badge(software, bg, theme.presentation ? theme.accent : QColor("#7a5200"), false) + 14;
    }
    qreal right = r.right();
    if (!replay.isEmpty()) right -= badge(replay, replayBack(), replayFore(), true) + 14;
    if (!step.isEmpty()) {
        p->setFont(theme.font(theme.base + 1));
        p->setPen(theme.text);
        drawLine(
            p,
            QRectF(x + 10, r.top() + (r.height() - QFontMetricsF(p->font()).height()) / 2, right - x - 20, 0),
            step, Qt::AlignHCenter);
    }
}

QColor DataPathView::Impl::replayBack() const {
    return theme.presentation ? theme.accent : QColor("#5a2ca0");
}

QColor DataPathView::Impl::replayFore() const {
    return theme.presentation ? QColor(Qt::black) : QColor(Qt::white);
}

void DataPathView::Impl::paintStatus(QPainter* p) {
    QString text;
    QColor color = theme.text;
    if (const auto& error = shown.lastErrorIn(Language::instance()->current().toStdString()); error) {
        text = QStringLiteral("✖ ") + error->section(QLatin1Char('\n'), 0, 0);
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

void DataPathView::Impl::paintLink(QPainter* p) {
    const QStringList texts = linkTexts();
    p->setBrush(Qt::NoBrush);
    p->setFont(theme.font(theme.base, true));
    const QFontMetricsF fm(p->font());
    if (texts.size() == 1) {
        // Two devices (or not known yet): the packets go out through the ports and over the link.
        const QPointF a = portCenter(0), b = portCenter(1);
        p->setPen(QPen(theme.text, theme.thick + 1));
        QPainterPath path(a);
        path.lineTo(a.x(), kLinkY);
        path.lineTo(b.x(), kLinkY);
        path.lineTo(b);
        p->drawPath(path);
        p->setPen(theme.text);
        const qreal w = fm.horizontalAdvance(texts[0]) + 20;
        p->drawText(QRectF((kSceneW - w) / 2, kLinkY - fm.height() - 6, w, fm.height() + 2), Qt::AlignCenter,
                    texts[0]);
        return;
    }
    // A pair on one device: the packets turn round inside it (the path the illustrated packets take) and
    // never reach the ports.
    QPen loop(theme.illustrated, theme.thick, Qt::DashLine);
    p->setPen(loop);
    const qreal y = kBelowRnicY;
    const qreal xa = P(0, kInnerW / 2, 0).x(), xb = P(1, kInnerW / 2, 0).x();
    p->drawLine(QPointF(xa, y), QPointF(xb, y));
    p->setBrush(theme.illustrated);
    p->setPen(Qt::NoPen);
    arrowHead(p, QPointF(xb, y), QPointF(xa, y), 8);
    arrowHead(p, QPointF(xa, y), QPointF(xb, y), 8);
    p->setPen(theme.presentation ? theme.text : theme.illustrated.darker(120));
    qreal ty = kHostBottom + 4;
    for (int i = 0; i < texts.size(); ++i) {
        p->setFont(theme.font(theme.base, i == 0));
        ty += drawLine(p, QRectF(20, ty, kSceneW - 40, 0), texts[i], Qt::AlignHCenter) + 2;
    }
}

void DataPathView::Impl::paintLegend(QPainter* p) {
    const QStringList texts = legendTexts();
    const qreal y = texts.size() > 2 ? 821 : 834;
    p->setFont(theme.font(theme.base));
    const QFontMetricsF fm(p->font());
    const QString& solidText = texts[0];
    const QString& dashedText = texts[1];
    const qreal sw = 44, gap = 10, sep = 40;
    const qreal total =
        sw + gap + fm.horizontalAdvance(solidText) + sep + sw + gap + fm.horizontalAdvance(dashedText);
    qreal x = (kSceneW - total) / 2;
    const QRectF s1(x, y, sw, 22);
    p->setBrush(theme.accent);
    p->setPen(QPen(theme.accent.darker(130), theme.pen));
    p->drawRoundedRect(s1, 6, 6);
    x += sw + gap;
    p->setPen(theme.text);
    p->drawText(QRectF(x, y, fm.horizontalAdvance(solidText) + 2, 22), Qt::AlignVCenter, solidText);
    x += fm.horizontalAdvance(solidText) + sep;
    const QRectF s2(x, y, sw, 22);
    QColor h = theme.illustrated;
    h.setAlphaF(static_cast<float>(0.35));
    p->setBrush(hatch(h));
    p->setPen(QPen(theme.illustrated, theme.pen + 0.8, Qt::DashLine));
    p->drawRoundedRect(s2, 6, 6);
    x += sw + gap;
    p->setFont(theme.font(theme.base, false, true));
    p->setPen(theme.presentation ? theme.text : theme.illustrated.darker(120));
    p->drawText(QRectF(x, y, fm.horizontalAdvance(dashedText) + 20, 22), Qt::AlignVCenter, dashedText);
    if (texts.size() < 3) return;
    // A note the recording carries (how it was made or edited), in the REPLAY badge's colours.
    // On one line when it fits, else wrapped onto two in a smaller font.
    p->setFont(theme.font(theme.base, true));
    if (QFontMetricsF(p->font()).horizontalAdvance(texts[2]) > kSceneW - 48)
        p->setFont(theme.font(theme.small, true));
    const QFontMetricsF fn(p->font());
    const int rows = fn.horizontalAdvance(texts[2]) > kSceneW - 48 ? 2 : 1;
    const qreal w = std::min(kSceneW - 24, fn.horizontalAdvance(texts[2]) + 24);
    const QRectF nr((kSceneW - w) / 2, y + 25, w, rows * fn.height() + 3);
    p->setPen(Qt::NoPen);
    p->setBrush(replayBack());
    p->drawRoundedRect(nr, 5, 5);
    p->setPen(replayFore());
    if (rows == 1)
        drawLine(p, nr.adjusted(12, 1, -12, 0), texts[2], Qt::AlignHCenter);
    else
        drawWrapped(p, nr.adjusted(12, 1, -12, 0), texts[2], 2);
}

// ---- refreshing from `shown`
// ----------------------------------------------------------------------------

void DataPathView::Impl::refreshHeader() {
    title->update();
    statusLine->update();
    // With C or D in the picture, the endpoint the current step concerns is drawn emphasised.
    for (int s = 0; s < static_cast<int>(kSides); ++s) {
        Block* frame = host[static_cast<std::size_t>(s)].frame;
        const bool on = !cards.empty() && !shown.step.sideless && index(shown.step.side) == s;
        if (frame->emphasised != on) {
            frame->emphasised = on;
            frame->update();
        }
    }
    refreshDevice();
}

// The parts of the picture that tell the device's path (devicepath.h).
void DataPathView::Impl::refreshDevice() {
    const PathStory& st = story();
    for (auto& h : host) {
        h.kernel->title = pathText(st.kernelTitle);
        h.kernel->lines.clear();
        if (st.kernelNote[0] != '\0') h.kernel->lines << pathText(st.kernelNote);
        h.kernel->centerTitle = true;
        h.rnic->title =
            shown.device.isEmpty() ? pathText(st.deviceUnnamed) : pathText(st.deviceTitle).arg(shown.device);
        h.rnic->setFill(st.deviceInKernel ? &Theme::kernel : &Theme::rnic);
        h.doorbell->title = pathText(st.doorbellTitle);
        for (Block* b : {h.kernel, h.rnic, h.doorbell})
            b->update();
    }
    for (auto* item : decor)
        item->update();
}

void DataPathView::Impl::refreshPorts() {
    for (int s = 0; s < 2; ++s) {
        auto* port = host[static_cast<std::size_t>(s)].port;
        QStringList parts;
        parts << QCoreApplication::translate("rdmalab::app::DataPathView", "Port %1").arg(shown.port.port);
        if (!shown.port.state.isEmpty()) parts << shown.port.state;
        if (shown.port.mtu > 0) parts << QStringLiteral("MTU %1").arg(shown.port.mtu);
        if (!shown.port.gid.isEmpty())
            parts << QStringLiteral("GID %1%2")
                         .arg(shown.port.gid, shown.port.gidType.isEmpty()
                                                  ? QString()
                                                  : QStringLiteral(" (%1)").arg(shown.port.gidType));
        port->title = parts.join(QStringLiteral(" · "));
        port->present = shown.port.deviceOpen || !shown.port.state.isEmpty();
        port->update();
    }
    refreshDevice();
}

void DataPathView::Impl::refreshBuffer(int s) {
    auto& h = host[static_cast<std::size_t>(s)];
    const auto& m = shown.memory[static_cast<std::size_t>(s)];
    const auto& r = shown.regions[static_cast<std::size_t>(s)];
    h.app->bytes = m.bytes;
    h.app->length = m.length ? m.length : r.length;
    h.app->changed = m.changed;
    QString info;
    if (r.registered && h.compact)
        info =
            QCoreApplication::translate("rdmalab::app::DataPathView", "%1 · %2 B")
                .arg(r.label.isEmpty() ? QCoreApplication::translate("rdmalab::app::DataPathView", "region")
                                       : r.label)
                .arg(r.length);
    else if (r.registered)
        info =
            QCoreApplication::translate("rdmalab::app::DataPathView", "%1 · %2 B at %3 · lkey %4")
                .arg(r.label.isEmpty() ? QCoreApplication::translate("rdmalab::app::DataPathView", "region")
                                       : r.label)
                .arg(r.length)
                .arg(hex(r.addr))
                .arg(hex(r.lkey));
    else if (!m.bytes.isEmpty())
        info = QCoreApplication::translate("rdmalab::app::DataPathView", "not registered");
    h.app->titleRight = info;
    const auto& x = shown.objects[static_cast<std::size_t>(s)];
    // A card has room for the completion, not for its "last completion: " (the footer says what it is).
    h.app->footer =
        x.lastWc.isEmpty() || h.compact
            ? x.lastWc
            : QCoreApplication::translate("rdmalab::app::DataPathView", "last completion: %1").arg(x.lastWc);
    h.app->footerError = x.lastWcError;
    h.app->footerOk = !x.lastWcError && !x.lastWc.isEmpty();
    h.app->update();
}

void DataPathView::Impl::refreshMtt(int s) {
    auto& b = *host[static_cast<std::size_t>(s)].mtt;
    const auto& r = shown.regions[static_cast<std::size_t>(s)];
    const bool compact = host[static_cast<std::size_t>(s)].compact;
    b.title = QStringLiteral("MTT");
    b.titleRight =
        compact ? QString()
                : QCoreApplication::translate("rdmalab::app::DataPathView", "memory translation table");
    b.present = r.registered;
    b.lines.clear();
    if (compact && r.registered) {
        // A card's MTT: the rights on the title line, a key a line.
        b.titleRight = r.access.isEmpty()
                           ? QCoreApplication::translate("rdmalab::app::DataPathView", "(local read only)")
                           : r.access.join(QStringLiteral(", "));
        b.lines << QStringLiteral("lkey 0x%1").arg(r.lkey, 0, 16)
                << QStringLiteral("rkey 0x%1").arg(r.rkey, 0, 16);
    } else if (!r.registered) {
        b.lines << QCoreApplication::translate("rdmalab::app::DataPathView", "no region registered");
    } else {
        b.lines << QCoreApplication::translate("rdmalab::app::DataPathView", "addr %1").arg(hex(r.addr))
                << QCoreApplication::translate("rdmalab::app::DataPathView", "length %1 B").arg(r.length)
                << QStringLiteral("lkey 0x%1 · rkey 0x%2").arg(r.lkey, 0, 16).arg(r.rkey, 0, 16)
                << QCoreApplication::translate("rdmalab::app::DataPathView", "access %1")
                       .arg(r.access.isEmpty() ? QCoreApplication::translate("rdmalab::app::DataPathView",
                                                                             "(local read only)")
                                               : r.access.join(QStringLiteral(", ")));
    }
    b.update();
}

void DataPathView::Impl::refreshQp(int s) {
    auto& h = host[static_cast<std::size_t>(s)];
    const auto& q = shown.qps[static_cast<std::size_t>(s)];
    h.qp->present = q.created;
    h.qp->lines.clear();
    h.qp->bigText.clear();
    h.qp->error = false;
    if (!q.created) {
        h.qp->title = QStringLiteral("QP");
        h.qp->lines << QCoreApplication::translate("rdmalab::app::DataPathView",
                                                   "no queue pair (none created, or destroyed)");
    } else {
        h.qp->title = QStringLiteral("QP %1%2").arg(q.qpn).arg(
            q.type.isEmpty() ? QString() : QStringLiteral(" · ") + q.type);
        h.qp->bigText = q.state.isEmpty() ? QStringLiteral("?") : q.state;
        h.qp->bigColor = q.state == QLatin1String("RTS")   ? theme.ok
                         : q.state == QLatin1String("ERR") ? theme.error
                                                           : theme.accent;
        h.qp->error = q.state == QLatin1String("ERR");
        QStringList info;
        if (q.destQpn)
            info << QCoreApplication::translate("rdmalab::app::DataPathView", "peer QPN %1").arg(q.destQpn);
        if (q.pathMtu) info << QStringLiteral("MTU %1").arg(q.pathMtu);
        if (!q.qkey.isEmpty()) info << QStringLiteral("Q_Key %1").arg(q.qkey);
        if (!info.isEmpty()) h.qp->lines << info.join(QStringLiteral(" · "));
        QStringList psn;
        if (q.sqPsn) psn << QStringLiteral("SQ PSN %1").arg(q.sqPsn);
        if (q.rqPsn) psn << QStringLiteral("RQ PSN %1").arg(q.rqPsn);
        // A card has room for the peer (or Q_Key) and the last transition, not for the PSNs.
        if (!psn.isEmpty() && !h.compact) h.qp->lines << psn.join(QStringLiteral(" · "));
        if (!q.lastTransition.isEmpty()) {
            h.qp->lines << QCoreApplication::translate("rdmalab::app::DataPathView", "last: %1")
                               .arg(q.lastTransition);
            h.qp->lines << QCoreApplication::translate("rdmalab::app::DataPathView", "mask: %1")
                               .arg(q.lastMask.join(QStringLiteral(" ")));
        }
    }
    h.qp->update();
    h.sq->present = h.rq->present = q.created;
    h.sq->update();
    h.rq->update();
}

void DataPathView::Impl::refreshQueues(int s) {
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
    h.sq->title = h.compact ? QStringLiteral("SQ")
                            : QCoreApplication::translate("rdmalab::app::DataPathView", "SQ · send queue");
    h.sq->titleRight =
        sqCount ? (sqCount == 1 ? QCoreApplication::translate("rdmalab::app::DataPathView", "%1 WQE")
                                : QCoreApplication::translate("rdmalab::app::DataPathView", "%1 WQEs"))
                      .arg(sqCount)
                : QCoreApplication::translate("rdmalab::app::DataPathView", "empty");
    h.rq->title = h.compact ? QStringLiteral("RQ")
                            : QCoreApplication::translate("rdmalab::app::DataPathView", "RQ · receive queue");
    h.rq->titleRight =
        rqCount ? (rqCount == 1 ? QCoreApplication::translate("rdmalab::app::DataPathView", "%1 WQE")
                                : QCoreApplication::translate("rdmalab::app::DataPathView", "%1 WQEs"))
                      .arg(rqCount)
                : QCoreApplication::translate("rdmalab::app::DataPathView", "empty");
    const auto& x = shown.objects[static_cast<std::size_t>(s)];
    h.cq->present = x.cq;
    h.cq->title = x.cq ? QStringLiteral("CQ %1").arg(x.cqId) : QStringLiteral("CQ");
    h.cq->titleRight = x.cq && x.cqe
                           ? QCoreApplication::translate("rdmalab::app::DataPathView", "%1 CQEs").arg(x.cqe)
                           : QString();
    h.cq->lines.clear();
    if (h.compact) {
        // A card's CQ: how many completions its application polled, on the title line.
        h.cq->titleRight =
            !x.cq      ? QString()
            : x.polled ? QCoreApplication::translate("rdmalab::app::DataPathView", "%1 polled").arg(x.polled)
                       : QCoreApplication::translate("rdmalab::app::DataPathView", "none yet");
        if (!x.cq)
            h.cq->lines << QCoreApplication::translate("rdmalab::app::DataPathView", "no completion queue");
    } else if (!x.cq)
        h.cq->lines << QCoreApplication::translate("rdmalab::app::DataPathView", "no completion queue");
    else
        h.cq->lines << (x.polled ? (x.polled == 1 ? QCoreApplication::translate("rdmalab::app::DataPathView",
                                                                                "%1 CQE polled by the app")
                                                  : QCoreApplication::translate("rdmalab::app::DataPathView",
                                                                                "%1 CQEs polled by the app"))
                                       .arg(x.polled)
                                 : QCoreApplication::translate("rdmalab::app::DataPathView",
                                                               "no completions yet"));
    if (x.cq && !h.compact && story().cqNote[0] != '\0') h.cq->lines << pathText(story().cqNote);
    h.pd->present = x.pd;
    h.pd->title = x.pd ? QStringLiteral("PD %1").arg(x.pdId)
                       : QCoreApplication::translate("rdmalab::app::DataPathView", "no PD");
    h.pd->centerTitle = true;
    h.pd->vcenter = true;
    for (auto* b : {h.sq, h.rq, h.cq, h.pd})
        b->update();
}

void DataPathView::Impl::refreshAll() {
    refreshHeader();
    refreshPorts();
    for (int s = 0; s < static_cast<int>(kSides); ++s) {
        refreshBuffer(s);
        refreshMtt(s);
        refreshQp(s);
        refreshQueues(s);
    }
}

} // namespace rdmalab::app
