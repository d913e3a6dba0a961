// The two lines above the main window's views: the session (the engine and its device, the recording a
// replay comes from, or what the engine said last) and the step (which one of how many, or the plan).
// Both show strings from the engine or a recording: text, never markup.
#pragma once

#include <QHash>
#include <QObject>

class QLabel;
class QVBoxLayout;

namespace rdmalab::app {

class LabState;

/// "sessionLabel" and "stepLabel", added to the layout they are given.
class SessionLines : public QObject {
    Q_OBJECT
  public:
    SessionLines(QVBoxLayout* layout, QObject* parent);

    void setSessionText(const QString& text);
    /// The lines for the lesson's state, once it names a device or a step; `recovered`: the replay is an
    /// unfinished session reopened.
    void showState(const LabState& state, bool replay, bool recovered);
    /// Titles to show instead of the recorded ones, by step id (DataPathView::setStepTitles).
    void setStepTitles(const QHash<QString, QString>& titles) { stepTitles_ = titles; }

  private:
    QHash<QString, QString> stepTitles_;
    QLabel* session_;
    QLabel* step_;
};

} // namespace rdmalab::app
