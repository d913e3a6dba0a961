// Private to the data-path view (app/ui/datapath/*.cpp): the view's scene items, its animation queue, and
// the members that build, refresh and animate the picture. Split by concern over scene.cpp (building and
// refreshing), cast.cpp (where each endpoint of the run's cast is drawn, and the paths between them),
// stages.cpp (each Move's animation; the tables are in choreography.cpp) and datapathview.cpp (animation
// helpers, the queue and the public API).
#pragma once

#include "choreography.h"
#include "datapathview.h"
#include "devicepath.h"
#include "items.h"
#include "layout.h"
#include "theme.h"

#include <QEasingCurve>
#include <QGraphicsScene>
#include <QParallelAnimationGroup>
#include <QVariantAnimation>

#include <array>
#include <deque>
#include <functional>
#include <map>

namespace rdmalab::app {

namespace datapath {

/// What highlightSeq needs of an event seen earlier.
struct EventRef {
    std::optional<Side> side;
    EventKind kind = EventKind::Verb;
    QString name;
    QString queue;
};

/// The boxes of one host: its layers, then the objects inside its RNIC.
struct HostItems {
    Block *frame = nullptr, *verbs = nullptr, *kernel = nullptr, *rnic = nullptr, *port = nullptr;
    BufferBlock* app = nullptr;
    Block *pd = nullptr, *qp = nullptr, *sq = nullptr, *rq = nullptr, *mtt = nullptr, *cq = nullptr;
    Block* doorbell = nullptr;
    Decor* lanes = nullptr; ///< the control and data lanes (hosts A and B drawn whole)
    /// Drawn as a card of the receivers' column (its buffer and RDMA objects; the layers between are as on
    /// A and not drawn again): B when the run names C or D, and C and D always.
    bool compact = false;
    Block* part(Part p) const;
};

/// An event as the stagers see it: its rule, side and outcome.
struct Cue {
    const TraceEvent* event = nullptr;
    Rule rule;
    int s = -1;         ///< host index, -1 without a side
    std::size_t hs = 0; ///< host index for the arrays (0 without a side)
    bool ok = true;     ///< ret == 0
    QString name;
    QString queue;
    std::optional<PendingSend> completedSend; ///< what a completion retires (see LabState::pendingSendFor)
};

/// One step of an event's animation: adds its animations to the group (none: applied at once).
using Stage = std::function<void(QParallelAnimationGroup*)>;

} // namespace datapath

struct DataPathView::Impl {
    using Block = datapath::Block;
    using Stage = datapath::Stage;

    DataPathView* view = nullptr;
    QGraphicsScene* scene = nullptr;
    Theme theme;
    double speed = 1.0;

    std::array<datapath::HostItems, kSides> host;
    /// The endpoints drawn as cards in the receivers' column, in order (B, then C and D as the run names
    /// them); empty while the run names only A and B, whose picture is the two hosts drawn whole.
    std::vector<int> cards;
    datapath::Decor* title = nullptr;
    datapath::Decor* statusLine = nullptr;
    datapath::Decor* link = nullptr;
    datapath::Decor* legend = nullptr;
    std::vector<QGraphicsItem*> decor;

    LabState shown;  ///< what the picture shows (advances event by event)
    LabState target; ///< the state after the last queued events
    std::deque<TraceEvent> queue;
    std::deque<Stage> stages;
    std::map<std::uint64_t, datapath::EventRef> history;
    QParallelAnimationGroup* group = nullptr;
    std::vector<QGraphicsItem*> temps;
    bool busy = false;
    qreal statusFlash = 0;
    QStringList animated; ///< every token's and overlay's label since the last reset (drawnTexts)
    QHash<QString, QString> stepTitles; ///< setStepTitles
    qreal zoom = 1;                     ///< over the picture fitting the view
    qreal minTextPx = 0; ///< projector: the smallest text on screen, in pixels (0: the picture fits)
    QRectF focus;        ///< what the stage being built moves, pulses or fades in (scene coordinates)
    QRectF lastFocus;    ///< the focus of the last stage that had one
    QPointF aimedAt;     ///< projector: the scene point the view was last moved to
    QGraphicsItem* followed = nullptr;   ///< the first token the stage being built moves
    int followMs = 0;                    ///< how long it moves
    QVariantAnimation* camera = nullptr; ///< the view moving to the running stage's focus
    /// The boxes the event with this sequence number touched (highlightSeq's; none for 0 or unknown).
    std::vector<Block*> boxesOf(std::uint64_t seq);
    /// Drawn at once, nothing moved: aims (aim()) at the boxes the newest of `events` (a span or a deque)
    /// that touched any touched.
    template <typename Events> void aimAtLast(const Events& events) {
        for (auto e = events.rbegin(); e != events.rend(); ++e) {
            const auto boxes = boxesOf(e->seq);
            if (boxes.empty()) continue;
            focus = QRectF();
            for (const Block* b : boxes)
                focus |= b->sceneBoundingRect();
            aim();
            return;
        }
    }
    /// Emits eventShown for `e`.
    void announce(const TraceEvent& e);
    /// Projector: moves the view to `focus` (the stage about to run) unless the whole of it is in view.
    void aim();
    std::vector<Block*> highlighted;

    template <typename T = Block> T* box(QRectF r, QColor Theme::*fill, qreal z = 1) {
        auto* b = new T(&theme, r, fill);
        b->setZValue(z);
        scene->addItem(b);
        return b;
    }

    int ms(int base) const {
        return std::max(1, static_cast<int>(std::lround(base / std::max(0.05, speed))));
    }

    // scene.cpp: building the picture and refreshing it from `shown`
    void build();
    /// The fixed titles (Host A, the application buffer, the verbs library) in the current language.
    void retitle();
    void buildHost(int s);
    void paintLanes(QPainter* p, int s);
    void applyTheme();
    void paintTitle(QPainter* p);
    void paintStatus(QPainter* p);
    void paintLink(QPainter* p);
    void paintLegend(QPainter* p);
    const datapath::PathStory& story() const { return datapath::storyFor(deviceClassOf(shown)); }
    // The texts the painted decoration shows (one source for painting them and for drawnTexts).
    QStringList laneTexts() const;
    QStringList linkTexts() const;
    QStringList legendTexts() const;
    QStringList titleTexts() const;
    QStringList staticTexts() const;
    void refreshDevice();
    QColor replayBack() const; ///< the REPLAY badge's colours (also the recording's note)
    QColor replayFore() const;
    void refreshHeader();
    void refreshPorts();
    void refreshBuffer(int s);
    void refreshMtt(int s);
    void refreshQp(int s);
    void refreshQueues(int s);
    void refreshAll();

    // cast.cpp: where the endpoints of the run's cast are drawn, and the paths between them. Hosts drawn
    // whole take the paths of layout.h; a card (compact) its own, through the gap between its two columns.
    void placeWhole(int s);
    void placeCard(int s, QRectF card);
    /// Lays the picture out for the cast of `shown` and `target`: A and B whole, or A whole and a card for
    /// each of B, C and D the run names (no change when the cast is the same).
    void relayoutCast();
    /// The box of host `hs` that stands for part `p`: a card has no layers of its own (its frame stands for
    /// them) and shares B's port.
    Block* partOf(std::size_t hs, datapath::Part p) const;
    QPointF appAt(int s) const;
    QPointF entryAt(int s) const;
    QPointF bufferAt(int s) const;
    QPointF portAt(int s) const;
    QPointF aboveOf(int s, const Block* b) const;
    /// Where a note about host `hs`'s QP goes (inside its QP box, below the title).
    QRectF qpNote(std::size_t hs) const;
    QPainterPath downPath(int s, QPointF to, bool control) const;
    QPainterPath upFrom(int s, QPointF from) const;
    QPainterPath dmaAt(int s, QPointF rnicPoint, bool toMemory) const;
    QPainterPath bellPath(int s, QPointF to, bool throughKernel) const;
    QPainterPath halfway(int from, QPointF start, bool looped) const;
    /// From the middle between the hosts (the link, or inside the device) to `end` on host `to`.
    QPainterPath arrivalPath(int to, QPointF end) const;
    /// The endpoint side `s`'s requests go to: the one whose QP number its QP names as its peer, else B (A's
    /// default peer) or, for B, A.
    int responderOf(int s) const;

    // datapathview.cpp: animation helpers and the queue
    QVariantAnimation* anim(QParallelAnimationGroup* g, int duration, const std::function<void(qreal)>& fn,
                            int delay = 0, const QEasingCurve& curve = QEasingCurve::Linear);
    datapath::Token* token(const QString& label, bool illustrated, bool error, QPointF at);
    datapath::Overlay* overlay(QRectF r, const QString& label, bool error);
    void travel(QParallelAnimationGroup* g, QGraphicsItem* item, const QPainterPath& path, int duration,
                int delay = 0);
    void fadeIn(QParallelAnimationGroup* g, QGraphicsItem* item, int duration, int delay = 0);
    void pulse(QParallelAnimationGroup* g, Block* b, int duration, int delay = 0);
    void pump();
    void finish();
    void abort();
    void clearTemps();
    void syncToTarget();

    // choreography.cpp: an event's animation, staged by its Move (see choreography.h)
    void stageEvent(const TraceEvent& e);
    /// Takes the event into the picture's state and history without animating it.
    void stageWithoutAnimation(const TraceEvent& e) {
        stageEvent(e);
        stages.clear();
    }
    void stageHeader(const datapath::Cue& c);
    void stageCheck(const datapath::Cue& c);
    void stageError(const datapath::Cue& c);
    void stageAsync(const datapath::Cue& c);
    void stageData(const datapath::Cue& c);
    void stageQpState(const datapath::Cue& c);
    void stagePostWr(const datapath::Cue& c);
    void stageCompletion(const datapath::Cue& c);
    void stageDeviceCall(const datapath::Cue& c);
    void stageQuery(const datapath::Cue& c);
    void stageObjectCall(const datapath::Cue& c);
    void ringDoorbell(QParallelAnimationGroup* g, int s);
    // illustration.cpp: between a posted request and its completion
    QPainterPath packetPath(int from, int to, QPointF start, QPointF end) const;
    void illustrate(int s, const PendingSend& w, const QString& status);
    /// A datagram (or an unacknowledged packet) that a receive completion of side `s` shows arrived: from the
    /// middle between the hosts into its receive queue, then its bytes into the buffer (illustrated: only the
    /// completion and the memory are observed).
    void illustrateArrival(int s, const TraceEvent& e);
    /// A note faded in over `at` (an error's in the error colour), held a moment.
    void note(QRectF at, const QString& text, bool error);
    /// Side `hs`'s request was flushed: its QP is in ERR, the request goes straight to its CQ.
    void illustrateFlushed(std::size_t hs);
    /// A READ's or an atomic's bytes, taken at B and sent back to side `s`, landing in its buffer (unless
    /// A's lkey is refused there).
    void illustrateFetch(int s, int r, datapath::Fault fault, bool atomic, const QString& bytes,
                         QRectF bufferA, QRectF bufferB, const datapath::PathStory& pathStory);
};

} // namespace rdmalab::app
