// One lab run on the device through the engine process (lab.start, then one lab.step per step), as a
// list model of its steps: each with its title, its explanation with the real values filled in, its state
// (pending, held, broken, skipped, not run) and the verdict on each expectation with what was observed.
// The engine performs every step; this only sends the commands and reads the answers.
#pragma once

#include "engineclient.h"
#include "labstate.h"

#include <QAbstractListModel>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <string_view>
#include <vector>

namespace rdmalab {
class Fields;
}

namespace rdmalab::app {

class LabSession : public QAbstractListModel {
    Q_OBJECT
  public:
    /// One expectation's verdict as the engine reported it.
    struct Verdict {
        QString kind;        ///< "completion", "compare", ... ("succeeds" for the implicit one)
        QString description; ///< what was expected
        QString observed;    ///< what the device did
        QString why;         ///< the lab's reason, in the run's language
        QString verdict;     ///< "held", "broken" or "not_applicable"
    };
    /// A step's "predict first" question: asked before the step runs, locked in, then marked against what
    /// the device did (the engine reports the value of the lab's answer path after the step).
    struct Prediction {
        struct Choice {
            QString value; ///< as the device shows it, e.g. "rem_access_err"
            QString text;
        };
        QString question; ///< empty until the engine asked it (rendered when the step is next)
        std::vector<Choice> choices;
        QString chosen;       ///< the locked-in value; empty while open
        bool skipped = false; ///< run without a prediction (Play in a headless run, or the student skipped)
        QString answer;       ///< what the device did; empty until the step ran
        QString why;          ///< the lab's explanation, shown after the step
        bool locked() const { return !chosen.isEmpty(); }
        bool marked() const { return !answer.isEmpty() && locked(); }
        bool right() const { return marked() && chosen == answer; }
        /// The text of the choice with `value` (the value itself when no choice has it).
        QString choiceText(const QString& value) const;
    };
    /// A check-your-understanding question asked after the last step.
    struct Question {
        bool multiple = false;
        QString text;
        QStringList choices;
        QList<int> correct; ///< indices of the right choices
        QString explanation;
        QList<int> given; ///< the student's choices once answered
        bool answered = false;
        bool right() const;
    };
    struct StepRow {
        QString id;
        QString title;
        QString action;
        QString state = QStringLiteral("pending"); ///< pending, held, broken, skipped, not_run
        QString text;                              ///< the explanation, once the step ran
        QString error;                             ///< the engine's explanation of a failed verb
        QString skippedBecause;
        std::vector<Verdict> verdicts;
        QMap<QString, QString> results; ///< the step's results ("status" -> "success", "name" -> "rxe0")
        bool predicts = false;          ///< the lab asks a prediction before this step
        Prediction prediction;
    };
    enum Role { StateRole = Qt::UserRole + 1, StepIdRole };
    /// An expectation's kind as a student reads it, in the app's language ("completion", "完成"); a kind
    /// this app does not know as it is.
    static QString kindName(const QString& kind);
    /// A step's state ("held", "broken", "skipped", "not_run", "pending") in the app's language.
    static QString stateName(const QString& state);

    explicit LabSession(EngineClient* engine, QObject* parent = nullptr);

    /// Asks the engine to prepare `lab` (an id of the curriculum or a file) with these parameter values.
    /// `seed` (a student's name or number) draws the lab's varying parameters; empty: their defaults.
    void start(const QString& lab, const QMap<QString, QString>& parameters, const QString& language,
               const QString& seed = {});
    /// Performs the next step (one lab.step). Ignored while a command is pending, when done, or while the
    /// next step's prediction is open (needsPrediction()).
    void step();
    /// The next step asks a prediction that is neither locked in nor skipped: step() waits for it.
    bool needsPrediction() const;
    /// Locks in `value` (one of the choices) as the prediction for the next step.
    void lockPrediction(const QString& value);
    /// Runs the next step without a prediction (it counts as not made).
    void skipPrediction();
    /// Play skips predictions instead of pausing at them (headless runs).
    void setSkipPredictions(bool skip) { skipPredictions_ = skip; }
    int predictionsMade() const;
    int predictionsRight() const;
    /// The lab's end-of-lab questions (known from lab.start).
    const std::vector<Question>& questions() const { return questions_; }
    /// Records the student's answer to question `index`; returns whether it is right.
    bool answerQuestion(int index, const QList<int>& chosen);
    int questionsAnswered() const;
    int questionsRight() const;
    /// Steps to the end, one step at a time (each waits for the previous answer).
    void play();
    /// Runs no step from `index` on (-1: every step): a troubleshooting lab's reference fix is the
    /// student's to make, so the run waits before it (stoppedBefore()).
    void setStopBefore(int index) { stopBefore_ = index; }
    /// The run has come to the step it stops before (setStopBefore).
    bool stoppedBefore() const { return started_ && !done_ && stopBefore_ >= 0 && nextStep_ >= stopBefore_; }
    void pause();
    /// Prepares the same lab again (the engine tears the last run down).
    void reset();

    bool started() const { return started_; }
    bool busy() const { return pendingId_ >= 0; }
    bool playing() const { return playing_; }
    bool done() const { return done_; }
    /// The run finished with every expectation held (the engine's summary).
    bool allHeld() const { return allHeld_; }
    QString labId() const { return labId_; }
    QString labTitle() const { return labTitle_; }
    /// Why the last command failed (lab.start refused the lab, a step failed unexpectedly), or empty.
    QString error() const { return error_; }
    int nextStep() const { return nextStep_; }
    const StepRow& row(int index) const { return rows_.at(static_cast<std::size_t>(index)); }
    int heldCount() const;
    int brokenCount() const;
    /// The parameter values given to lab.start (the others took their defaults).
    QMap<QString, QString> parameters() const { return parameters_; }
    QString language() const { return language_; }
    QString seed() const { return seed_; }
    /// The values the seed drew (lab.start's answer), parameter name -> value.
    QMap<QString, QString> seededValues() const { return seededValues_; }
    /// The run's objects as its events describe them (the pictures are drawn from it).
    const LabState& state() const { return state_; }
    /// Every event the engine sent since lab.start (the trace of this run, for the report).
    const std::vector<TraceEvent>& events() const { return events_; }
    /// The device the lab opened: the results of its open_device step ("name", "software", "kernel"), or
    /// empty before that step ran.
    QMap<QString, QString> device() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

  signals:
    void labStarted();
    void stepFinished(int index);
    /// The next step (`index`) waits for a prediction: Play paused there.
    void predictionNeeded(int index);
    /// The last step ran (or the run stopped at an unexpected failure); `allHeld` as the summary says.
    void finished(bool allHeld);
    void failed(const QString& message);
    /// Trace events of the run (not command results), already folded into state().
    void eventsApplied(const std::vector<rdmalab::TraceEvent>& events);
    /// Every event the run recorded (events(): the trace, command results included), as it arrives.
    void eventsRecorded(const std::vector<rdmalab::TraceEvent>& events);

  private:
    void onEvents(const std::vector<TraceEvent>& events);
    void onResult(const TraceEvent& result);
    /// lab.start's answer: the lab, its steps and questions, the values the seed drew.
    void onStartResult(const Fields& data, bool ok);
    /// lab.step's answer: the step that ran, what comes next, and the summary once done.
    void onStepResult(const Fields& data, bool ok);
    /// Sends `cmd` (a protocol:: name) and waits for its answer (pendingCmd_, pendingId_).
    void send(std::string_view cmd, const nlohmann::json& fields);

    EngineClient* engine_;
    std::vector<StepRow> rows_;
    std::vector<TraceEvent> events_;
    LabState state_;
    QString lab_, labId_, labTitle_, language_ = QStringLiteral("en"), error_;
    QMap<QString, QString> parameters_, seededValues_;
    QString seed_;
    std::string_view pendingCmd_; ///< a protocol:: name
    int pendingId_ = -1;
    int nextStep_ = 0;
    int stopBefore_ = -1;
    bool started_ = false;
    bool playing_ = false;
    bool done_ = false;
    bool allHeld_ = false;
    bool skipPredictions_ = false;
    std::vector<Question> questions_;
};

} // namespace rdmalab::app
