// The main window's lower panels: the timeline of the session's events, filtered by kind and side, beside
// the inspector, which describes the selected event (the window writes what it says).
#pragma once

#include <QSplitter>

#include <cstdint>

class QComboBox;
class QLabel;
class QTableView;
class QTextBrowser;

namespace rdmalab::app {

class TimelineFilter;

/// "bottomSplitter": "timelinePanel" (its label, "kindFilter", "endpointFilter" and "timelineView") beside
/// "inspector".
class TimelinePanel : public QSplitter {
    Q_OBJECT
  public:
    /// `filter`: the events shown (its source is the window's TimelineModel); the filters set it.
    explicit TimelinePanel(TimelineFilter* filter, QWidget* parent = nullptr);

    QWidget* timeline() const { return timelineBox_; }
    QTextBrowser* inspector() const { return inspector_; }
    void scrollToBottom();

  signals:
    /// The event with this sequence number was selected in the timeline.
    void eventSelected(std::uint64_t seq);

  protected:
    /// The texts in the new language; other languages' headers and presentation mode's font need other
    /// column widths.
    void changeEvent(QEvent* event) override;

  private:
    void retranslateUi();
    /// Column widths from the current font and header texts (no header cut short).
    void fitColumns();

    TimelineFilter* filter_;
    QTextBrowser* inspector_;
    QWidget* timelineBox_;
    QLabel* timelineLabel_;
    QComboBox *kindFilter_, *endpointFilter_;
    QTableView* timelineView_;
};

} // namespace rdmalab::app
