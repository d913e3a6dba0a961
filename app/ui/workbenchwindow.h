// The workbench window: free exploration on the device outside any lab. The student builds a pair (transport,
// MTU, each region's size and access flags), then composes work requests (opcode, flags, SGE list, remote
// address and rkey, immediate, atomic operands), posts receives, polls, moves a QP to any state, or resets
// everything; each action is one real engine call (WorkbenchSession), drawn in the data-path picture, the
// QP state diagram and the memory view, and listed with its outcome and its verbs calls as C. The session
// can be saved as a lab file whose expectations are what the device did.
#pragma once

#include "rdmalab/labs/troubleshooting.hpp"

#include "tracefile.h"

#include <QMainWindow>

#include <optional>

#include "rdmalab/format/trace.hpp"

#include <vector>

class QLabel;
class QLineEdit;
class QListView;
class QPushButton;
class QTextBrowser;

namespace rdmalab::app {

class EngineClient;
class HeadlessRun;
class LabStage;
class ProjectorLayout;
class WorkbenchControls;
class WorkbenchSession;

struct WorkbenchWindowOptions {
    QString language = QStringLiteral("en");
    QString engineProgram; ///< rdmalab-cli (default: EngineClient::defaultProgram())
    /// A troubleshooting lab's file: the workbench builds its broken set-up, shows the task, and Check my fix
    /// runs the lab's checks on whatever the student made of it (docs/lab-format.md, Troubleshooting labs).
    QString troubleshoot;
    bool autoplay = false;     ///< unused: a workbench has nothing to play (main.cpp's options read it)
    QString screenshot;        ///< PNG of the window once the session has started, or the engine failed
    bool quitWhenDone = false; ///< exit then (0: the session started; 1: it did not)
    bool presentation = false; ///< open in the projector layout (--present)
};

class WorkbenchWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit WorkbenchWindow(const WorkbenchWindowOptions& options, QWidget* parent = nullptr);
    ~WorkbenchWindow() override;

    WorkbenchSession* session() { return session_; }
    EngineClient* engine() { return engine_; }

    /// Asks the engine for the session as a lab file and writes it to `path` (its id: the file's name);
    /// labSaved or the status line follows.
    void saveAsLab(const QString& path);

    /// Runs the troubleshooting lab's checks on the session as it is now (the result follows in
    /// workbenchCheckResult and fixChecked).
    void checkFix();
    /// Performs the lab's reference fix, one engine call per step (a teacher's demonstration).
    void applySolution();

  signals:
    void labSaved(const QString& path);
    /// The troubleshooting lab's checks ran: every expectation held (`fixed`), with what the label shows.
    void fixChecked(bool fixed, const QString& summary);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    /// Sets every fixed text of the window in the current language (QEvent::LanguageChange); the status
    /// line follows with refresh().
    void retranslateUi();
    void buildUi();
    /// Builds the pair (again): a pair that exists is torn down first (reset), then `steps` are performed.
    void buildPair(const std::vector<nlohmann::json>& steps);
    void resetAll();
    void chooseSaveFile();
    void showRow(int index);
    void onEvents(const std::vector<TraceEvent>& events);
    void refresh();
    /// A message that stays on the status line until the next action (a failure, a saved file).
    void setNotice(const QString& text);

    QWidget* buildTaskGroup();
    /// Builds the troubleshooting lab's broken set-up (again): reset, then its steps.
    void setUpTroubleshooting();
    void onChecksDone();

    WorkbenchWindowOptions options_;
    /// The troubleshooting lab (options_.troubleshoot): its steps as the workbench performs them.
    std::optional<labs::TroubleshootingSteps> trouble_;
    QString troubleError_;
    int checkAttempt_ = 0;
    int solutionAttempt_ = 0;
    int firstCheckRow_ = -1; ///< where the running check's steps begin in the session; -1: no check running
    QLabel *taskText_ = nullptr, *checkResult_ = nullptr;
    QPushButton *check_ = nullptr, *setUpAgain_ = nullptr, *applySolution_ = nullptr;
    EngineClient* engine_;
    WorkbenchSession* session_;
    HeadlessRun* headless_; ///< how a --screenshot / --quit run ends: when the session starts, or cannot
    /// Ends a --screenshot / --quit run: the picture of the window as it is, and the status.
    void finishHeadless(bool started);
    /// The session as it happens (workbench-*.jsonl in the sessions folder, with a marker while it runs):
    /// a killed window loses nothing, and the main window offers it at the next start.
    SessionAutosave autosave_{SessionAutosave::defaultDirectory(), QStringLiteral("workbench-")};
    bool engineReady_ = false;
    QString savePath_;
    QString notice_;

    WorkbenchControls* controls_ = nullptr; ///< the pair, work requests, receive and poll, the QP's state
    QPushButton *reset_ = nullptr, *save_ = nullptr;
    QLineEdit* labTitle_ = nullptr;
    LabStage* stage_ = nullptr; ///< the picture over the QP states and the memory, the snapshot and log below
    ProjectorLayout* projector_ = nullptr; ///< F5: the picture, large
    QListView* steps_ = nullptr;
    QTextBrowser* detail_ = nullptr;
    QLabel* snapshot_ = nullptr;
    QLabel* status_ = nullptr;
};

} // namespace rdmalab::app
