#include "impl.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace rdmalab::app {

using namespace datapath;

void DataPathView::Impl::stageEvent(const TraceEvent& e) {
    const auto side = sideOf(e);
    EventRef ref;
    ref.side = side;
    ref.kind = e.kind;
    ref.name = QString::fromStdString(e.name);
    ref.queue = lenientText(e.data, "queue");
    history[e.seq] = ref;

    Cue c;
    c.event = &e;
    c.rule = ruleFor(e.kind, e.name, side.has_value());
    // A completion of a send posted earlier: the facts to illustrate it, before the event retires it.
    c.completedSend = shown.pendingSendFor(e);
    try {
        shown.apply(e);
    } catch (const std::exception&) {
        // A malformed event (a field of the wrong type) changes nothing more in the picture.
    }
    c.ok = lenientInt(e.data, "ret", 0) == 0;
    c.s = side ? index(*side) : -1;
    c.hs = static_cast<std::size_t>(std::max(0, c.s));
    c.name = ref.name;
    c.queue = ref.queue;

    using Stager = void (Impl::*)(const Cue&);
    // Indexed by Move.
    static constexpr Stager kStagers[] = {
        nullptr,
        &Impl::stageHeader,
        &Impl::stageCheck,
        &Impl::stageError,
        &Impl::stageAsync,
        &Impl::stageData,
        &Impl::stageQpState,
        &Impl::stagePostWr,
        &Impl::stageCompletion,
        &Impl::stageDeviceCall,
        &Impl::stageQuery,
        &Impl::stageObjectCall,
    };
    if (const Stager stager = kStagers[static_cast<std::size_t>(c.rule.move)]) (this->*stager)(c);
}

void DataPathView::Impl::stageHeader(const Cue&) {
    stages.push_back([this](QParallelAnimationGroup*) {
        refreshHeader();
        refreshPorts();
    });
}

void DataPathView::Impl::stageCheck(const Cue&) {
    stages.push_back([this](QParallelAnimationGroup* g) {
        refreshHeader();
        anim(g, ms(600), [this](qreal t) {
            statusFlash = std::sin(t * M_PI);
            statusLine->update();
        });
    });
}

void DataPathView::Impl::stageError(const Cue& c) {
    stages.push_back([this, s = c.s, hs = c.hs](QParallelAnimationGroup* g) {
        refreshHeader();
        anim(g, ms(700), [this](qreal t) {
            statusFlash = std::sin(t * M_PI);
            statusLine->update();
        });
        if (s >= 0) {
            host[hs].frame->error = true;
            pulse(g, partOf(hs, Part::Verbs), ms(700));
        }
    });
    stages.push_back([this, s = c.s, hs = c.hs](QParallelAnimationGroup*) {
        if (s >= 0) host[hs].frame->error = false;
        host[hs].frame->update();
    });
}

void DataPathView::Impl::stageAsync(const Cue& c) {
    stages.push_back([this, s = c.s, hs = c.hs, name = c.name](QParallelAnimationGroup* g) {
        if (s < 0) {
            refreshPorts();
            for (std::size_t p = 0; p < 2; ++p)
                pulse(g, host[p].port, ms(600));
            return;
        }
        auto* t = token(name, false, true, center(host[hs].qp));
        fadeIn(g, t, ms(200));
        refreshQp(s);
        host[hs].qp->error = true;
        pulse(g, host[hs].qp, ms(700));
    });
}

void DataPathView::Impl::stageData(const Cue& c) {
    if (c.s < 0) return;
    stages.push_back([this, s = c.s, hs = c.hs](QParallelAnimationGroup* g) {
        refreshBuffer(s);
        if (!host[hs].app->changed.empty()) pulse(g, host[hs].app, ms(600));
    });
}

void DataPathView::Impl::stageQpState(const Cue& c) {
    if (c.s < 0) return;
    stages.push_back([this, s = c.s, hs = c.hs, ok = c.ok](QParallelAnimationGroup* g) {
        auto* t = token(QStringLiteral("ibv_modify_qp"), false, !ok, appAt(s));
        travel(g, t, downPath(s, aboveOf(s, host[hs].qp), true), ms(450));
    });
    stages.push_back([this, s = c.s, hs = c.hs, ok = c.ok, name = c.name](QParallelAnimationGroup* g) {
        refreshQp(s);
        if (!ok) host[hs].qp->error = true;
        pulse(g, host[hs].qp, ms(500));
        auto* t = token(name, false, !ok, center(host[hs].qp) + QPointF(0, host[hs].compact ? -8 : -52));
        fadeIn(g, t, ms(150));
    });
}

void DataPathView::Impl::stagePostWr(const Cue& c) {
    if (c.s < 0) return;
    const int s = c.s;
    const std::size_t hs = c.hs;
    const bool ok = c.ok;
    const bool recv = c.queue == QLatin1String("recv");
    QString label =
        QStringLiteral("WQE %1 #%2").arg(shortOpcode(c.name)).arg(lenientInt(c.event->ids, "wr_id", 0));
    // An inline send's payload is copied into the WQE by the CPU, here, when it is posted.
    if (!recv && lenientInt(c.event->data, "inline", 0) != 0)
        label += QStringLiteral(" · ") +
                 inlinePostedText(static_cast<quint64>(lenientInt(c.event->data, "length", 0)));
    stages.push_back([this, s, hs, ok, recv, label](QParallelAnimationGroup* g) {
        Block* q = recv ? host[hs].rq : host[hs].sq;
        const int slot = static_cast<int>(std::min<qsizetype>(q->slotLabels.size(), q->slotCount - 1));
        auto* t = token(label, false, !ok, appAt(s));
        travel(g, t, downPath(s, ok ? q->slotRect(slot).center() : entryAt(s), false), ms(650));
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
        // Only a send rings the doorbell: a receive is only written into its ring (rxe), or its doorbell
        // record in memory is updated (a NIC); neither makes a system call or an MMIO write.
        if (!recv) ringDoorbell(g, s);
    });
    if (!ok)
        stages.push_back([this, hs, recv](QParallelAnimationGroup*) {
            (recv ? host[hs].rq : host[hs].sq)->error = false;
            (recv ? host[hs].rq : host[hs].sq)->update();
        });
}

void DataPathView::Impl::ringDoorbell(QParallelAnimationGroup* g, int s) {
    const PathStory& story = storyFor(deviceClassOf(shown));
    Block* bell = host[static_cast<std::size_t>(s)].doorbell;
    const bool syscall = story.doorbellLane[0] != '\0';
    auto* t = token(pathText(story.doorbellToken), false, false, QPointF());
    travel(g, t, bellPath(s, center(bell), syscall), ms(550));
    pulse(g, bell, ms(400), ms(450));
}

void DataPathView::Impl::stageCompletion(const Cue& c) {
    if (c.s < 0) return;
    const int s = c.s;
    const std::size_t hs = c.hs;
    const QString& status = c.name;
    const bool success = status == QLatin1String("IBV_WC_SUCCESS");
    if (c.completedSend)
        illustrate(s, *c.completedSend, status);
    else if (success)
        illustrateArrival(s, *c.event);
    const QString label = QStringLiteral("CQE %1").arg(shortStatus(status));
    const QString written = pathText(storyFor(deviceClassOf(shown)).cqeWritten);
    stages.push_back([this, s, hs, success, label, written](QParallelAnimationGroup* g) {
        refreshQueues(s); // the work request is retired
        overlay(host[hs].cq->slotRect(0).adjusted(-3, -3, 3, 3), written, false);
        auto* t = token(label, false, !success, host[hs].cq->slotRect(0).center());
        fadeIn(g, t, ms(250));
        host[hs].cq->error = !success;
        pulse(g, host[hs].cq, ms(350));
    });
    stages.push_back([this, s, hs, success, label](QParallelAnimationGroup* g) {
        auto* t = token(label, false, !success, host[hs].cq->slotRect(0).center());
        travel(g, t, upFrom(s, host[hs].cq->slotRect(0).center()), ms(550));
    });
    stages.push_back([this, s, hs](QParallelAnimationGroup* g) {
        host[hs].cq->error = false;
        refreshQueues(s);
        refreshBuffer(s);
        refreshQp(s);
        pulse(g, host[hs].app, ms(300));
    });
}

void DataPathView::Impl::stageDeviceCall(const Cue&) {
    stages.push_back([this](QParallelAnimationGroup* g) {
        refreshPorts();
        refreshHeader();
        for (std::size_t p = 0; p < 2; ++p)
            pulse(g, host[p].port, ms(300));
    });
}

void DataPathView::Impl::stageQuery(const Cue& c) {
    stages.push_back([this, s = c.s, box = partOf(c.hs, c.rule.part)](QParallelAnimationGroup* g) {
        refreshQp(s);
        pulse(g, box, ms(350));
    });
}

void DataPathView::Impl::stageObjectCall(const Cue& c) {
    const int s = c.s;
    const std::size_t hs = c.hs;
    const bool ok = c.ok;
    const bool appearing = c.rule.appearing;
    Block* targetBox = partOf(hs, c.rule.part);
    const QString verb = c.name;
    const QPointF dest =
        targetBox == host[hs].rnic || targetBox == host[hs].frame ? entryAt(s) : aboveOf(s, targetBox);
    stages.push_back([this, s, ok, verb, dest](QParallelAnimationGroup* g) {
        auto* t = token(verb, false, !ok, appAt(s));
        travel(g, t, downPath(s, dest, true), ms(500));
    });
    if (c.name == QLatin1String("ibv_reg_mr") && ok) {
        // The keys the registration returned travel from the kernel into the MTT.
        stages.push_back([this, s, hs](QParallelAnimationGroup* g) {
            refreshBuffer(s);
            pulse(g, host[hs].app, ms(350));
            const auto& r = shown.regions[hs];
            const QPointF from =
                host[hs].compact ? appAt(s) : P(s, kControlLaneX + 60, kKernelY + kKernelH / 2);
            auto* t = token(QStringLiteral("lkey 0x%1 · rkey 0x%2").arg(r.lkey, 0, 16).arg(r.rkey, 0, 16),
                            false, false, from);
            travel(g, t,
                   host[hs].compact ? downPath(s, center(host[hs].mtt), true)
                                    : polyline({from, QPointF(center(host[hs].mtt).x(), kRnicY + 18),
                                                center(host[hs].mtt)}),
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
} // namespace rdmalab::app
