#include "impl.h"

#include "rdmalab/format/describe.hpp"
#include "rdmalab/format/fields.hpp"

#include <QCoreApplication>

#include <QKeyEvent>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QSequentialAnimationGroup>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace rdmalab::app {

using namespace datapath;

// ---- animation helpers

QVariantAnimation* DataPathView::Impl::anim(QParallelAnimationGroup* g, int duration,
                                            const std::function<void(qreal)>& fn, int delay,
                                            const QEasingCurve& curve) {
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

Token* DataPathView::Impl::token(const QString& label, bool illustrated, bool error, QPointF at) {
    auto* t = new Token(&theme, label, illustrated, error);
    t->setPos(at);
    scene->addItem(t);
    temps.push_back(t);
    animated << label;
    return t;
}

Overlay* DataPathView::Impl::overlay(QRectF r, const QString& label, bool error) {
    auto* o = new Overlay(&theme, r, label, error);
    scene->addItem(o);
    temps.push_back(o);
    if (!label.isEmpty()) animated << label;
    return o;
}

void DataPathView::Impl::travel(QParallelAnimationGroup* g, QGraphicsItem* item, const QPainterPath& path,
                                int duration, int delay) {
    item->setPos(path.pointAtPercent(0));
    focus |= path.boundingRect();
    if (!followed) {
        followed = item;
        followMs = duration + delay;
    }
    anim(
        g, duration, [item, path](qreal t) { item->setPos(path.pointAtPercent(std::clamp(t, 0.0, 1.0))); },
        delay, QEasingCurve::InOutQuad);
}

void DataPathView::Impl::fadeIn(QParallelAnimationGroup* g, QGraphicsItem* item, int duration, int delay) {
    item->setOpacity(0);
    focus |= item->sceneBoundingRect();
    anim(
        g, duration, [item](qreal t) { item->setOpacity(t); }, delay);
}

void DataPathView::Impl::pulse(QParallelAnimationGroup* g, Block* b, int duration, int delay) {
    focus |= b->sceneBoundingRect();
    anim(
        g, duration, [b](qreal t) { b->setFlash(std::sin(t * M_PI)); }, delay);
}

void DataPathView::Impl::clearTemps() {
    if (followed && camera) camera->stop(); // it follows a token about to go
    followed = nullptr;
    for (auto* item : temps) {
        scene->removeItem(item);
        delete item;
    }
    temps.clear();
}

void DataPathView::Impl::syncToTarget() {
    const bool replay = target.replay;
    shown = target;
    shown.replay = replay;
    relayoutCast();
    refreshAll();
}

// ---- the texts the picture shows: what the painters draw and drawnTexts() lists

QStringList DataPathView::Impl::laneTexts() const {
    QStringList out{QCoreApplication::translate("rdmalab::app::DataPathView", "control path"),
                    pathText(story().dataLane)};
    if (story().doorbellLane[0] != '\0') out << pathText(story().doorbellLane);
    return out;
}

QStringList DataPathView::Impl::titleTexts() const {
    QStringList out{shown.device.isEmpty()
                        ? QCoreApplication::translate("rdmalab::app::DataPathView", "no device yet")
                        : shown.device};
    if (shown.softwareDevice)
        out << QCoreApplication::translate("rdmalab::app::DataPathView", "SoftRoCE (software RDMA)");
    if (shown.replay) out << QCoreApplication::translate("rdmalab::app::DataPathView", "REPLAY");
    QString step = stepTitles.value(shown.step.id, shown.step.title);
    if (shown.step.index >= 0 && shown.step.count > 0)
        step = step.isEmpty() ? QCoreApplication::translate("rdmalab::app::DataPathView", "Step %1/%2")
                                    .arg(shown.step.index + 1)
                                    .arg(shown.step.count)
                              : QCoreApplication::translate("rdmalab::app::DataPathView", "Step %1/%2: %3")
                                    .arg(shown.step.index + 1)
                                    .arg(shown.step.count)
                                    .arg(step);
    if (!step.isEmpty()) out << step;
    return out;
}

QStringList DataPathView::Impl::linkTexts() const {
    const QString pair = shown.pairDevice();
    if (pair.isEmpty())
        return {QCoreApplication::translate("rdmalab::app::DataPathView", "RoCE v2: UDP/IP, port 4791")};
    return {pathText(story().loopback).arg(pair),
            QCoreApplication::translate("rdmalab::app::DataPathView", "RoCE v2 packets: UDP/IP, port 4791")};
}

QStringList DataPathView::Impl::legendTexts() const {
    QStringList out{QCoreApplication::translate("rdmalab::app::DataPathView",
                                                "solid = observed event from the real device"),
                    pathText(story().legendDashed)};
    if (!shown.sessionNote.isEmpty())
        out << (shown.replay
                    ? QCoreApplication::translate("rdmalab::app::DataPathView",
                                                  "REPLAY · the recording's note: %1")
                    : QCoreApplication::translate("rdmalab::app::DataPathView", "The session's note: %1"))
                   .arg(shown.sessionNote);
    return out;
}

QStringList DataPathView::Impl::staticTexts() const {
    QStringList out = titleTexts();
    for (const auto& h : host) {
        // Only what is drawn: C and D before the run names them, and a card's layers, are not.
        for (const Block* b : {h.frame, static_cast<Block*>(h.app), h.verbs, h.kernel, h.rnic, h.port, h.pd,
                               h.qp, h.sq, h.rq, h.mtt, h.cq, h.doorbell}) {
            if (!b->isVisible()) continue;
            for (const QString& t : {b->title, b->titleRight, b->bigText})
                if (!t.isEmpty()) out << t;
            out << b->lines << b->slotLabels;
        }
        if (h.app->isVisible() && !h.app->footer.isEmpty()) out << h.app->footer;
    }
    out << laneTexts() << linkTexts() << legendTexts();
    return out;
}

// ---- the event queue: one stage at a time, each a group of parallel animations

void DataPathView::Impl::pump() {
    for (;;) {
        if (stages.empty()) {
            if (queue.empty()) {
                finish();
                return;
            }
            const TraceEvent e = std::move(queue.front());
            queue.pop_front();
            announce(e);
            stageEvent(e);
            continue;
        }
        Stage stage = std::move(stages.front());
        stages.pop_front();
        auto* g = new QParallelAnimationGroup(view);
        focus = QRectF();
        followed = nullptr;
        stage(g);
        aim();
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

void DataPathView::Impl::announce(const TraceEvent& e) {
    // The headline says the session and the step; a run's result, a check and a measurement are summed up
    // by the picture's status line: the caption is for what the device was asked and what it did.
    if (e.kind == EventKind::Session || e.kind == EventKind::Step || e.kind == EventKind::Result ||
        e.kind == EventKind::Measure || e.kind == EventKind::Check)
        return;
    try {
        emit view->eventShown(QString::fromStdString(describe(e)));
    } catch (const FieldError&) {
        // A field the line computes with is not a number: the timeline names it; no caption for it.
    }
}

void DataPathView::Impl::aim() {
    if (focus.isEmpty()) return;
    lastFocus = focus;
    if (minTextPx <= 0) return;
    const QRectF visible = view->mapToScene(view->viewport()->rect()).boundingRect();
    if (visible.contains(focus)) return;
    if (camera) camera->stop();
    delete camera;
    camera = nullptr;
    const auto moveCamera = [this](int duration, const QEasingCurve& curve, std::function<void(qreal)> step) {
        camera = new QVariantAnimation(view);
        camera->setStartValue(0.0);
        camera->setEndValue(1.0);
        camera->setDuration(duration);
        camera->setEasingCurve(curve);
        QObject::connect(camera, &QVariantAnimation::valueChanged, view,
                         [step = std::move(step)](const QVariant& v) { step(v.toReal()); });
        camera->start();
    };
    if (speed > 0 && followed && (focus.width() > visible.width() || focus.height() > visible.height())) {
        // More than the view holds (a packet from one host to the other): the view follows the token,
        // catching up two fifths of the way each frame, so that it glides rather than jumps.
        moveCamera(followMs, QEasingCurve::Linear, [this, item = followed](qreal) {
            const QPointF c = view->viewCenter();
            aimedAt = c + (item->pos() - c) * 0.4;
            view->centerOn(aimedAt);
        });
        return;
    }
    // To the middle of what the stage moves, pulses or fades in.
    const QPointF from = view->viewCenter(), to = focus.center();
    aimedAt = to;
    if (speed <= 0) { // no animation: there at once
        view->centerOn(to);
        return;
    }
    moveCamera(ms(350), QEasingCurve::InOutQuad,
               [this, from, to](qreal t) { view->centerOn(from + (to - from) * t); });
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
    setAccessibleDescription(tr("Hosts A and B with their software layers, the RDMA device's queues and "
                                "the RoCE v2 link, drawn as the path of the device in use (a NIC, or "
                                "SoftRoCE in the kernel)"));
    d->build();
    d->retitle();
    d->refreshAll();
}

void DataPathView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        setAccessibleName(tr("RDMA data path"));
        setAccessibleDescription(tr("Hosts A and B with their software layers, the RDMA device's queues and "
                                    "the RoCE v2 link, drawn as the path of the device in use (a NIC, or "
                                    "SoftRoCE in the kernel)"));
        d->retitle();
        d->refreshAll();
    }
    QGraphicsView::changeEvent(event);
}

DataPathView::~DataPathView() {
    d->abort();
    if (d->camera) d->camera->stop();
}

void DataPathView::setPresentationMode(bool on) {
    d->theme.set(on);
    d->refreshAll();
    d->applyTheme();
    rescale(viewCenter()); // the smallest text changed size
}

void DataPathView::setZoom(qreal factor) {
    d->zoom = std::isfinite(factor) ? std::clamp(factor, 1.0, kMaxZoom) : 1.0;
    rescale(viewCenter());
}

qreal DataPathView::zoom() const {
    return d->zoom;
}

void DataPathView::setMinimumTextPixels(qreal px) {
    d->minTextPx = std::isfinite(px) ? std::max(0.0, px) : 0.0;
    // Magnified: on what moved last, or the middle of the picture.
    d->aimedAt = d->lastFocus.isEmpty() ? d->scene->sceneRect().center() : d->lastFocus.center();
    rescale(d->aimedAt);
}

qreal DataPathView::minimumTextPixels() const {
    return d->minTextPx;
}

qreal DataPathView::pictureScale() const {
    return transform().m11();
}

qreal DataPathView::smallestTextSize() const {
    return d->theme.smallest();
}

QPointF DataPathView::viewCenter() const {
    return mapToScene(viewport()->rect().center());
}

void DataPathView::rescale(QPointF center) {
    const QRectF scene = d->scene->sceneRect();
    const QSize room = viewport()->size();
    if (room.isEmpty()) return;
    const qreal fit = std::min(room.width() / scene.width(), room.height() / scene.height());
    qreal scale = fit * d->zoom;
    if (d->minTextPx > 0) scale = std::max(scale, d->minTextPx / d->theme.smallest());
    setTransform(QTransform::fromScale(scale, scale));
    // Larger than the view: dragging pans it (the hidden scroll bars keep the picture in the scene).
    setDragMode(scale > fit * 1.001 ? QGraphicsView::ScrollHandDrag : QGraphicsView::NoDrag);
    centerOn(center);
}

void DataPathView::wheelEvent(QWheelEvent* event) {
    const int steps = event->angleDelta().y();
    if (steps == 0) return QGraphicsView::wheelEvent(event);
    // About the pointer: the point under it stays under it.
    const QPointF pointer = event->position();
    const QPointF under = mapToScene(pointer.toPoint());
    d->zoom = std::clamp(d->zoom * std::pow(1.15, steps / 120.0), 1.0, kMaxZoom);
    rescale(viewCenter());
    const QPointF moved = mapFromScene(under);
    centerOn(mapToScene((QPointF(viewport()->rect().center()) + moved - pointer).toPoint()));
    event->accept();
}

void DataPathView::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        setZoom(d->zoom * 1.25);
        return;
    case Qt::Key_Minus:
        setZoom(d->zoom / 1.25);
        return;
    case Qt::Key_0:
        setZoom(1);
        return;
    default:
        QGraphicsView::keyPressEvent(event);
    }
}

void DataPathView::mouseDoubleClickEvent(QMouseEvent* event) {
    setZoom(1);
    event->accept();
}

bool DataPathView::presentationMode() const {
    return d->theme.presentation;
}

void DataPathView::setAnimationSpeed(double factor) {
    d->speed = std::isfinite(factor) ? std::max(0.0, factor) : 1.0;
    if (d->speed <= 0 && d->busy) {
        d->abort();
        while (!d->queue.empty()) {
            d->stageWithoutAnimation(d->queue.front());
            d->queue.pop_front();
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
    // The picture scales to the space it has (fitInView on every resize, aspect kept): this is only the size
    // below which its smallest texts stop being readable. The window must fit a 1024x768 screen around it.
    return {360, 230};
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
    d->animated.clear();
    d->busy = false;
    highlightSeq(0);
    d->relayoutCast();
    d->refreshAll();
    if (wasBusy) emit idle();
}

void DataPathView::showEvents(std::span<const rdmalab::TraceEvent> events,
                              const rdmalab::app::LabState& state) {
    d->target = state;
    d->shown.replay = state.replay;
    d->relayoutCast(); // the cast the events name, drawn before they are
    if (d->speed <= 0) {
        d->abort();
        auto pending = std::move(d->queue);
        d->queue.clear();
        pending.insert(pending.end(), events.begin(), events.end());
        for (const auto& e : pending)
            d->stageWithoutAnimation(e);
        if (!pending.empty()) d->announce(pending.back());
        d->aimAtLast(pending);
        d->busy = true;
        d->finish();
        return;
    }
    // The picture shows where the session is, not where it was seconds ago.
    if (d->queue.size() + events.size() > kMaxAnimatedBacklog) {
        d->abort();
        const std::size_t keep = std::min(events.size(), kMaxAnimatedBacklog);
        for (const auto& e : d->queue)
            d->stageWithoutAnimation(e);
        d->queue.clear();
        for (const auto& e : events.first(events.size() - keep))
            d->stageWithoutAnimation(e);
        d->refreshAll();
        events = events.last(keep);
        d->busy = false; // the running sequence was stopped: start another
    }
    d->queue.insert(d->queue.end(), events.begin(), events.end());
    if (d->busy) return; // the running sequence picks them up
    d->busy = true;
    d->pump();
}

void DataPathView::showAt(std::span<const rdmalab::TraceEvent> events, const rdmalab::app::LabState& state) {
    resetScene();
    d->target = state;
    d->shown.replay = state.replay;
    d->relayoutCast();
    for (const auto& e : events)
        d->stageWithoutAnimation(e);
    if (!events.empty()) d->announce(events.back());
    d->aimAtLast(events);
    d->busy = true;
    d->finish();
}

void DataPathView::setStepTitles(const QHash<QString, QString>& titles) {
    if (titles == d->stepTitles) return;
    d->stepTitles = titles;
    d->refreshHeader();
}

QStringList DataPathView::titleTexts() const {
    return d->titleTexts();
}

std::size_t DataPathView::pendingEvents() const {
    return d->queue.size();
}

QStringList DataPathView::drawnTexts() const {
    return d->staticTexts() + d->animated;
}

std::vector<Block*> DataPathView::Impl::boxesOf(std::uint64_t seq) {
    std::vector<Block*> boxes;
    auto it = history.find(seq);
    if (seq == 0 || it == history.end()) return boxes;
    const EventRef& ref = it->second;
    if (!ref.side) {
        // Without a side, a verb or an async event concerns the device: both ports.
        if (ref.kind == EventKind::Verb || ref.kind == EventKind::Async)
            for (int s = 0; s < 2; ++s)
                boxes.push_back(host[static_cast<std::size_t>(s)].port);
    } else {
        const auto hs = static_cast<std::size_t>(index(*ref.side));
        for (Part p : highlightFor(ref.kind, ref.name, ref.queue))
            if (Block* b = partOf(hs, p)) boxes.push_back(b);
    }
    return boxes;
}

void DataPathView::highlightSeq(std::uint64_t seq) {
    for (Block* b : d->highlighted)
        b->setHighlighted(false);
    d->highlighted.clear();
    for (Block* b : d->boxesOf(seq)) {
        b->setHighlighted(true);
        d->highlighted.push_back(b);
    }
}

void DataPathView::resizeEvent(QResizeEvent* event) {
    // Magnified, the picture keeps showing what it was aimed at (the view's own centre was computed for
    // the old size); fitted, it stays centred.
    const QPointF center = d->minTextPx > 0 && !d->aimedAt.isNull() ? d->aimedAt : viewCenter();
    QGraphicsView::resizeEvent(event);
    rescale(center);
}

void DataPathView::showEvent(QShowEvent* event) {
    QGraphicsView::showEvent(event);
    rescale(viewCenter());
}

} // namespace rdmalab::app