// The main window: device panel, lesson controls, the stage (data-path view, QP state machine, memory),
// inspector and timeline, all fed from one LessonController (live engine process or a replayed recording).
#pragma once

#include "engineclient.h"
#include "headlessrun.h"
#include "lessoncontroller.h"
#include "lessons.h"
#include "softroceoffer.h"
#include "timelinemodel.h"
#include "tracefile.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QTimer>

class QLabel;
class QPushButton;

namespace rdmalab::app {

class Banner;
class DevicePanel;
class EngineStatusLine;
class LabStage;
class LessonToolBars;
class MainMenus;
class ProjectorLayout;
class RecordingOpener;
class RecoveryBanner;
class SessionLines;
class TimelinePanel;

struct StartOptions {
    QString lesson = "write";
    QString replayFile;
    bool autoplay = false;
    QString screenshot;
    bool quitWhenDone = false;
    bool presentation = false;
    QString language = "en";
    int stepDelayMs = -1;       ///< -1: the speed slider's default
    double animationSpeed = -1; ///< -1: the speed slider's default
    QString engineProgram;
    /// Where the engine runs (`--engine local|vm|ssh://HOST`); unset: EngineClient::defaultHost().
    std::optional<EngineHost> engineHost;
    VmOptions vm;   ///< the VM to boot when engineHost is EngineHost::Vm
    SshOptions ssh; ///< the host to reach when engineHost is EngineHost::Ssh
    /// Where to look whether a SoftRoCE device can be created here (no device, a kernel with rdma_rxe).
    SoftRoceProbe softRoce;
    /// Open the newest session that ended without being closed as a replay instead of running live.
    bool reopenUnfinished = false;
    /// No --engine was given: when this machine has no RDMA device and the SoftRoCE VM is ready (qemu
    /// installed, its kernel prepared), switch to the VM by itself and say why. Headless runs never do.
    bool automaticEngineHost = false;
};

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(const StartOptions& options, QWidget* parent = nullptr);
    ~MainWindow() override;

    LessonController* controller() { return controller_; }
    EngineClient* engine() { return engine_; }
    /// Exit status of a headless run (0: lesson verified and screenshot saved).
    int headlessStatus() const { return headless_->status(); }
    /// Sessions that ended without being closed, still offered (the first is in the banner).
    const std::vector<UnfinishedSession>& unfinishedSessions() const;

  public slots:
    void openRecording(const QString& path);
    bool saveTrace(const QString& path);
    bool exportPng(const QString& path);
    void setPresentationMode(bool on);
    /// Opens the offered unfinished session as a replay and stops offering it.
    void reopenUnfinishedSession();
    /// Stops offering the unfinished session (its file stays); offers the next one, if any.
    void dismissUnfinishedSession();

  protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

  private:
    /// Sets every text of the window in the current language (QEvent::LanguageChange).
    void retranslateUi();
    /// The lesson texts (from the YAML files, in both languages) follow the app's language.
    void setLessonLanguage(const QString& language);
    void buildUi();
    void buildMenus();
    /// The device panel (devicePanel_), talking to the window by signals.
    QWidget* buildDevicePanel();
    void connectControls();
    /// The engine's events, answers, death and start (its download and boot progress in the status line).
    void connectEngine();
    /// The lesson's events, resets, messages and end (a headless run's screenshot waits for the picture).
    void connectController();
    /// Reopens an unfinished session, opens the replay, or starts the engine, as the options ask.
    void startFromOptions();
    void loadLessons();
    void startSelectedLesson();
    void onEngineEvents(const std::vector<TraceEvent>& events);
    void onEventsReady(std::span<const TraceEvent> events);
    void onEngineDied(const QString& message);
    void restartEngine();
    /// Runs the engine on `host` from now on (stops the current one, starts the new one).
    void switchEngineHost(EngineHost host, const SshOptions& ssh);
    /// The status line's engine part: where the engine runs and on which device ("rxe0 · SoftRoCE VM (…)").
    void refreshEngineHost();
    void refreshControls();
    /// The shown run's lesson's step titles in the app's language, for the picture and the step line.
    void refreshStepTitles();
    void refreshInspector();
    void showDevices(const nlohmann::json& result);
    /// The session line when the engine sees no device: where, and what to do.
    QString noDeviceSessionText() const;
    void autosave(std::span<const TraceEvent> events);
    /// Time travel: the stage shows the session as it was after the timeline's row `row`, or for a step's
    /// row after that step (the last row: the present again).
    void travelTo(int row);
    /// Back: the picture as the step before the one it shows left it (time travel; Step and Play go on
    /// from the present).
    void stepBack();
    /// The row of the step before the one the picture shows, or -1.
    int stepBeforeShown() const;
    /// Whether the reason a headless run failed has been printed already (then no "did not verify" line).
    enum class ReasonPrinted { no, yes };
    void finishHeadless(bool success, ReasonPrinted reason = ReasonPrinted::no);
    bool headless() const { return options_.autoplay || options_.quitWhenDone; }
    /// A recording read (RecordingOpener): its lesson selected, its events replayed.
    void showReplay(std::vector<TraceEvent>&& events, const QString& title, bool recovered);
    void reopenAtStart();

    StartOptions options_;
    EngineClient* engine_;
    LessonController* controller_;
    TimelineModel* timeline_;
    TimelineFilter* filter_;
    HeadlessRun* headless_;             ///< how an --autoplay / --quit run ends (status 3 until it does)
    RecordingOpener* opener_ = nullptr; ///< opens recordings and reopens unfinished sessions
    std::vector<Lesson> lessons_;       ///< the labs that are lessons (lessons.h)
    QString lessonLoadErrors_;
    QString language_;
    QString titlesLesson_, titlesLanguage_;   ///< what the steps' titles were last looked up for
    ProjectorLayout* presentation_ = nullptr; ///< F5: the picture over the whole screen, text 18 px
    SessionAutosave autosave_;     ///< the live session, as it happens (SessionAutosave::defaultDirectory())
    bool recoveredReplay_ = false; ///< the replay is a recovered unfinished session
    bool firstLiveStepReported_ = false; ///< headless: "first live step" was written on stderr
    bool automaticSwitchDone_ = false;   ///< automaticEngineHost has switched to the VM once

    // Widgets (object names match the member names without the trailing underscore).
    // The toolbars: the lesson, its size and message, the player, the speed and the language.
    LessonToolBars* toolBars_ = nullptr;
    MainMenus* menus_ = nullptr;                ///< File, View (with Panels), Labs, Engine
    std::optional<nlohmann::json> helloResult_; ///< the engine's hello, shown again in another language
    bool engineStopped_ = false;
    // Above the views: the engine stopped (engineMessage, restartEngineButton), an earlier session is offered
    // for recovery, the session could not be autosaved; the session and the step.
    Banner* engineBanner_ = nullptr;
    RecoveryBanner* recoveryBanner_ = nullptr;
    QPushButton* restartEngineButton_ = nullptr;
    QLabel* autosaveWarning_ = nullptr;
    SessionLines* sessionLines_ = nullptr;
    // The status line's permanent part: where the engine runs, and its device (or how far its VM booted).
    EngineStatusLine* engineLine_ = nullptr;
    QString engineDevice_; ///< the first device the engine reported; empty: none yet
    // The device panel: the devices and ports, or how to get one; where the engine runs.
    DevicePanel* devicePanel_ = nullptr;
    bool haveDevice_ = false; ///< the engine reported a port: lessons can run live
    // The views of the state: the picture, the QP state diagram, the memory.
    LabStage* stage_ = nullptr;
    // The timeline, its filters and the inspector of the selected (else the step's latest) event.
    TimelinePanel* timelinePanel_ = nullptr;
    std::optional<std::uint64_t> selectedSeq_;
    bool travelled_ = false; ///< the stage shows an earlier moment of the session (travelTo)
    int shownRow_ = -1;      ///< while travelled_: the last row the stage shows
    // During a fast replay the inspector is rewritten at most every kFastInspectorRefreshMs.
    static constexpr int kFastInspectorRefreshMs = 100;
    QTimer inspectorTimer_;
    QElapsedTimer inspectorRefreshed_;
};

} // namespace rdmalab::app
