// The stage every window shows a run on: the data-path picture, the QP state diagram and the memory view,
// all drawn from one LabState. A new view of the run is added here, and every window then has it.
#pragma once

#include "labstate.h"
#include "rdmalab/format/trace.hpp"

#include <QHash>
#include <QWidget>

#include <cstdint>
#include <span>
#include <vector>

class QSplitter;
class QTabWidget;

namespace rdmalab::app {

class DataPathView;
class MemoryView;
class QpStateView;

class LabStage : public QWidget {
    Q_OBJECT
  public:
    /// How a window lays the views out.
    enum class Arrangement {
        /// The main window: the picture, and beside it the QP diagram over the memory view (splitters).
        PictureBesideState,
        /// The lab window: the picture on one tab, the QP diagram beside the memory view on another (tabs()).
        Tabs,
        /// The workbench: the picture over the QP diagram beside the memory view, in splitter().
        PictureAboveState,
    };

    /// objectName "labStage"; the views keep theirs ("dataPathView", "qpStateView", "memoryView").
    explicit LabStage(Arrangement arrangement, QWidget* parent = nullptr);

    DataPathView* dataPath() const { return dataPath_; }
    QpStateView* qpState() const { return qpState_; }
    MemoryView* memory() const { return memory_; }
    /// Tabs: the tab widget ("labPictures"), where a window may add pages of its own after the views' (the
    /// lab window's questions). Null in the other arrangements.
    QTabWidget* tabs() const { return tabs_; }
    /// The splitter that holds the views ("stageSplitter"), null with Tabs. In PictureAboveState a window may
    /// add panels of its own below the views (the workbench's snapshot and step log), which then share its
    /// height.
    QSplitter* splitter() const { return splitter_; }

    /// Draws the run after `events` (in order): the picture animates them, and every view shows `state`, the
    /// LabState after them.
    void showEvents(std::span<const rdmalab::TraceEvent> events, const LabState& state);
    /// Time travel: every view shows the run as it was after `events` (the first events of the run, in
    /// order), drawn at once; `state` is the LabState after them. The next showEvents() animates from there.
    void showAt(std::span<const rdmalab::TraceEvent> events, const LabState& state);
    /// Back to the empty picture (stops any animation; idle() follows if one was running). The QP diagram
    /// and the memory view keep what they show until the next showEvents().
    void clearPicture();
    /// clearPicture(), and the QP diagram and the memory view show `state` at once (a new run's).
    void clear(const LabState& state);
    /// Emphasises, in the picture, the objects the event with this sequence number touched (0 clears).
    void highlightSeq(std::uint64_t seq);
    /// Titles to show instead of the recorded ones, by step id (DataPathView::setStepTitles).
    void setStepTitles(const QHash<QString, QString>& titles);
    /// Larger fonts, thicker lines, high contrast, in every view.
    void setPresentationMode(bool on);
    /// The picture's animation speed: 1 normal, 4 four times faster, 0 none (the final picture at once).
    void setAnimationSpeed(double factor);
    /// True when the picture has no animation queued or running.
    bool isIdle() const;

  signals:
    /// Every animation the picture had queued has finished.
    void idle();

  protected:
    /// QEvent::LanguageChange: the tabs' titles (the views retranslate themselves).
    void changeEvent(QEvent* event) override;

  private:
    QWidget* buildPictureBesideState();
    QWidget* buildTabs();
    QWidget* buildPictureAboveState();
    /// The QP diagram and the memory view side by side, half the width each.
    QWidget* qpBesideMemory();
    void retranslateUi();

    DataPathView* dataPath_;
    QpStateView* qpState_;
    MemoryView* memory_;
    QTabWidget* tabs_ = nullptr;
    QSplitter* splitter_ = nullptr;
};

} // namespace rdmalab::app
