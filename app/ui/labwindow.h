// The lab window: every lab of the curriculum and of the user's lab folder, by chapter; a lab's
// parameters; and the lab run on the device step by step through the engine process, each step's
// explanation with the real values and each expectation held, broken or not applicable with what the
// device showed.
#pragma once

#include "tracefile.h"

#include <QMainWindow>

#include <optional>
#include <vector>

class QHBoxLayout;
class QCheckBox;
class QLabel;
class QPushButton;
class QTextBrowser;
class QTimer;
class QTreeView;
class QTreeWidget;

namespace rdmalab::app {

class ClassSummaryDialog;
class EngineClient;
class HeadlessRun;
class LabCatalog;
class LabForm;
class LabSession;
class LabStage;
class ProjectorLayout;
class PredictionBox;
class QuestionsPage;

struct LabWindowOptions {
    QString lab;           ///< lab to select (and start) at once, by id
    QString curriculum;    ///< labs directory (default: the engine's, labs::default_labs_directory())
    QString userDirectory; ///< the user's lab folder (default: LabCatalog::userLabDirectory())
    QString language = QStringLiteral("en");
    QString engineProgram; ///< rdmalab-cli (default: EngineClient::defaultProgram())
    bool autoplay = false; ///< start the lab and play it to the end
    QString screenshot;    ///< PNG of the window when the lab ends
    QString seed;          ///< the Student field: a seed for the varying parameters
    QString report;        ///< HTML report of the run when the lab ends
    bool quitWhenDone = false;
    bool presentation = false; ///< open in the projector layout (--present)
};

class LabWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit LabWindow(const LabWindowOptions& options, QWidget* parent = nullptr);
    ~LabWindow() override;

    LabCatalog* catalog() { return catalog_; }
    LabSession* session() { return session_; }
    EngineClient* engine() { return engine_; }
    /// Exit status of a headless run (0: every expectation held and the screenshot was written).
    int headlessStatus() const;

    /// Selects lab `id` in the browser; false when there is none.
    bool selectLab(const QString& id);
    /// The class summary of the reports in `folder` (the "Class summary…" button, after its folder
    /// dialog), shown and returned.
    ClassSummaryDialog* showClassSummary(const QString& folder);
    /// Writes the HTML report of the current run; returns an error text, or empty.
    QString exportReport(const QString& path);

  public slots:
    /// Starts the selected lab with the parameter values typed in.
    void startSelected();

  protected:
    void changeEvent(QEvent* event) override;

  private:
    /// Sets every fixed text of the window in the current language (QEvent::LanguageChange).
    void retranslateUi();
    void buildUi();
    /// The selected lab: its description, parameters and controls, the prediction box, and its run.
    QWidget* buildLabPanel();
    QHBoxLayout* buildButtons();
    /// The run: its steps beside the stage over the selected step's text and verdicts.
    QWidget* buildRun();
    void connectControls();
    void connectSession();
    void connectEngine();
    /// --lab ID selects the lab (and --autoplay plays it once the engine is ready); with --quit and nothing
    /// to play, the window's screenshot ends the run.
    void openFromOptions(const QString& curriculum, const QString& user);
    void showLab();
    void showStep(int index);
    /// Time travel: the stage shows the run as step `index` left it, or the present for the last step run.
    void travelToStep(int index);
    /// Shows the step before the one shown (the projector's Back key).
    void travelBack();
    /// A troubleshooting lab stops before its reference fix unless the teacher switch is on.
    void applyStudentsTurn();
    /// Brings the step list, texts and pictures up to the last step run. While the lab plays this runs once
    /// a frame (kCatchUpMs), not once a step: a note step costs the engine microseconds, a repaint
    /// milliseconds, and a 10,000-step lab must play about as fast as `lab run`.
    void catchUp();
    void updateButtons();
    /// True when the selected lab can run where the engine runs: it opens no device (notes, waits), or the
    /// engine sees an ACTIVE port. False until the engine has answered `devices`.
    bool roomCanRunSelected() const;
    void onFinished(bool allHeld);
    /// Appends a live run's events to its autosave; a failure shows once, and the run stays in memory.
    void autosave(const std::vector<rdmalab::TraceEvent>& events);
    /// The predict box: the next step's open question, and the verdict on the last prediction.
    void updatePrediction();
    /// The Questions tab for the lab just started (removed when it has none).
    void buildQuestions();
    /// Records the run's finish, predictions and answers in the browser's progress marks.
    void recordProgress();

    LabWindowOptions options_;
    EngineClient* engine_;
    LabCatalog* catalog_;
    LabSession* session_;
    HeadlessRun* headless_;
    QTreeView* tree_ = nullptr; ///< the browser's chapters and labs
    LabForm* form_ = nullptr;   ///< the selected lab, its parameters and the student's seed
    QTreeView* steps_ = nullptr;
    QTextBrowser* stepText_ = nullptr;
    QTreeWidget* verdicts_ = nullptr;
    LabStage* stage_ = nullptr;            ///< the picture, the QP states and the memory, on tabs
    ProjectorLayout* projector_ = nullptr; ///< F5: the picture and the prediction, large
    QLabel* status_ = nullptr;
    QPushButton *start_ = nullptr, *step_ = nullptr, *play_ = nullptr, *reset_ = nullptr, *export_ = nullptr;
    QPushButton* troubleshoot_ = nullptr; ///< a troubleshooting lab: fix it yourself in the workbench
    QCheckBox* teacherMode_ = nullptr;
    QPushButton* classSummaryButton_ = nullptr;
    ClassSummaryDialog* classSummary_ = nullptr; ///< a troubleshooting lab: run the lab's own fix here
    QString selectedFile_;
    /// Every live run is written as it happens (lab-*.jsonl in the sessions folder, with a marker while it
    /// runs), so a killed window loses nothing: the main window offers it at the next start.
    SessionAutosave autosave_{SessionAutosave::defaultDirectory(), QStringLiteral("lab-")};
    QLabel* autosaveWarning_ = nullptr;
    PredictionBox* predict_ = nullptr;
    int lastPredicted_ = -1;             ///< the last step run that asked a prediction
    QuestionsPage* questions_ = nullptr; ///< the lab's questions, on a tab of the stage; null: none
    static constexpr int kCatchUpMs = 40;
    QTimer* catchUpTimer_ = nullptr;
    bool travelled_ = false; ///< the stage shows an earlier step than the run's last (travelToStep)
    int unshownStep_ = -1;   ///< the last step run, when the window has not shown it
    std::vector<rdmalab::TraceEvent> unshownEvents_; ///< events the pictures have not drawn yet
    QString selectedId_;
    QString selectedLab_; ///< what lab.start is given: the id of a curriculum lab, the file of another
    QString curriculum_;
    bool engineReady_ = false;
    std::optional<bool> haveDevice_; ///< the engine's `devices` answer: an ACTIVE port? (unknown until then)
    QString noDeviceFix_;            ///< the engine's advice when there is none
};

} // namespace rdmalab::app
