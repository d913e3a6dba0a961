// The data path picture: two hosts (A requester left, B responder right), each drawn as the layers a
// verbs call crosses (application buffer, libibverbs, kernel, RDMA device, port), joined by the RoCE v2
// link (when the run names C or D too, B's place holds a card per endpoint of B, C and D: its buffer and its
// RDMA objects; cast.cpp), as the path of the device the trace ran on (devicepath.h: a NIC's kernel bypass
// and DMA, or SoftRoCE's write() doorbell and CPU copies in the kernel). Observed trace events animate where
// they happen (solid shapes); what the device does between a posted send and its completion is illustrated
// (dashed, hatched, italic "illustrated"), never presented as observed.
#pragma once

#include "labstate.h"
#include "rdmalab/format/trace.hpp"

#include <QGraphicsView>
#include <QHash>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace rdmalab::app {

class DataPathView : public QGraphicsView {
    Q_OBJECT
  public:
    explicit DataPathView(QWidget* parent = nullptr); ///< objectName "dataPathView"
    ~DataPathView() override;

    /// Larger fonts, thicker lines, high contrast (black, white, yellow).
    void setPresentationMode(bool on);
    bool presentationMode() const;
    /// 1.0 normal, 4.0 four times faster, 0 no animation (the final state is applied at once).
    void setAnimationSpeed(double factor);
    double animationSpeed() const;
    /// Magnification over the whole picture fitting the view: 1 fits it (the default), up to kMaxZoom. The
    /// wheel, + and - change it about the pointer; dragging pans; 0 or a double-click fits the picture again.
    void setZoom(qreal factor);
    qreal zoom() const;
    static constexpr qreal kMaxZoom = 6;
    /// Projector: the picture is drawn so large that its smallest text is at least `px` pixels high on
    /// screen, and the view moves to what each animation shows (0: off, the default; the whole picture fits).
    void setMinimumTextPixels(qreal px);
    qreal minimumTextPixels() const;
    /// Screen pixels per scene unit, as the picture is drawn now.
    qreal pictureScale() const;
    /// The smallest font size the picture draws with, in scene units (times pictureScale(): on screen).
    qreal smallestTextSize() const;
    /// True when no animation is queued or running.
    bool isIdle() const;
    /// The texts the picture shows: what its boxes, lanes, link, legend and title say now, then the label of
    /// every token and overlay an animation has drawn since the last resetScene(), in order (for tests and
    /// for reading what the picture told without looking at pixels).
    QStringList drawnTexts() const;

    /// The picture animates at most this many events behind the newest it was given: a longer backlog (a
    /// replay skipping to its end, a burst from the engine) is drawn at once up to its newest events.
    static constexpr std::size_t kMaxAnimatedBacklog = 256;
    /// Events given and not yet animated.
    std::size_t pendingEvents() const;

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

  public slots:
    /// Back to the empty two-host picture (stops any animation; emits idle() if one was running).
    void resetScene();
    /// Queues the events (in order) for animation (see kMaxAnimatedBacklog); `state` is the LabState after
    /// these events.
    void showEvents(std::span<const rdmalab::TraceEvent> events, const rdmalab::app::LabState& state);
    /// Draws, at once and without animation, the run as it was after `events` (its first events, in
    /// order); `state` is the LabState after them (emits idle()).
    void showAt(std::span<const rdmalab::TraceEvent> events, const rdmalab::app::LabState& state);
    /// Emphasises the objects the event with this sequence number touched (0 clears).
    void highlightSeq(std::uint64_t seq);

    /// Titles to show instead of the ones the events carry, by step id (a lesson's own titles in the app's
    /// language, for a recording made in English); empty: the events' titles.
    void setStepTitles(const QHash<QString, QString>& titles);
    /// What the picture's title says now: the device, SoftRoCE's note, REPLAY, the step ("Step 3/18: ...").
    QStringList titleTexts() const;

  signals:
    /// Every queued animation has finished (emitted at once when nothing was queued).
    void idle();
    /// The event whose animation starts now (or that time travel stopped at), as one line: the call and
    /// what it returned (rdmalab::describe).
    void eventShown(const QString& line);

  protected:
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    /// QEvent::LanguageChange: every text of the picture again, in the new language.
    void changeEvent(QEvent* event) override;

  private:
    /// Draws the picture at the scale zoom and the minimum text size ask for, keeping `center` (scene
    /// coordinates) in the middle of the view.
    void rescale(QPointF center);
    QPointF viewCenter() const;
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace rdmalab::app
