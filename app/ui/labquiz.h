// The lab window's questions to the student, each marked by what the device did: the prediction asked
// before a step runs (PredictionBox) and the questions after the last step (QuestionsPage).
#pragma once

#include <QGroupBox>
#include <QScrollArea>

#include <vector>

class QButtonGroup;
class QLabel;
class QPushButton;

namespace rdmalab::app {

class LabSession;

/// Predict first ("labPredict"): the next step's question, answered and locked in before the step runs; then
/// the verdict on the last prediction, until the next step runs. Hidden when there is neither.
class PredictionBox : public QGroupBox {
    Q_OBJECT
  public:
    explicit PredictionBox(LabSession* session, QWidget* parent = nullptr);

    /// Shows the question the session waits on (fresh choices for a new one), and the verdict on
    /// `lastPredicted`, the last step run that asked a prediction (-1: none).
    void refresh(int lastPredicted);
    /// Lock in and Skip: usable while the session waits for a prediction and no command is pending.
    void updateButtons();

  signals:
    /// The prediction was locked in or skipped, and the step it asks about was sent.
    void stepSent();

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void retranslateUi();
    /// The verdict's HTML on step `index`'s prediction; empty while it is not marked.
    QString verdict(int index) const;

    LabSession* session_;
    QLabel* question_;
    QWidget* choices_;
    QButtonGroup* group_;
    QPushButton *lockIn_, *skip_;
    QLabel* result_;
    int shown_ = -1; ///< the step whose question the box shows
};

/// The questions after the last step ("labQuestions"): each a box of choices with Check my answer, marked by
/// the session and explained. Made for the lab just started; the window puts it on a tab of its own.
class QuestionsPage : public QScrollArea {
    Q_OBJECT
  public:
    explicit QuestionsPage(LabSession* session, QWidget* parent = nullptr);

    /// The tab's title: "Questions (N)", in the current language.
    QString title() const;
    /// The questions may be answered now: the device has shown everything they ask about.
    void open();

  signals:
    /// A question was answered (the lab's progress mark follows).
    void answered();

  private:
    struct Asked {
        QButtonGroup* choices;
        QPushButton* check;
        QLabel* result;
    };
    void check(int index);

    LabSession* session_;
    std::vector<Asked> asked_;
};

} // namespace rdmalab::app
