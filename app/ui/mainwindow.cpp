#include "mainwindow.h"
#include "rdmalab/format/buildpaths.hpp"

#include "labwindow.h"
#include "workbenchwindow.h"

#include "benchwindow.h"
#include "chartexport.h"
#include "devicepanel.h"
#include "enginebanner.h"
#include "enginestatusline.h"
#include "headlessrun.h"
#include "inspector.h"
#include "labstage/labstage.h"
#include "language.h"
#include "lessontoolbars.h"
#include "mainmenus.h"
#include "memoryview.h"
#include "projectorlayout.h"
#include "qpstateview.h"
#include "recordingopener.h"
#include "recoverybanner.h"
#include "sessionlines.h"
#include "timelinepanel.h"
#include "tracefile.h"
#include "windowparts.h"

#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QEvent>
#include <QLabel>
#include <QPushButton>
#include <QResizeEvent>
#include <QSplitter>
#include <QStatusBar>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>

namespace rdmalab::app {

namespace {

/// Where the labs are: the app's lessons are among them (lessons.h).
QString lessonsDirectory() {
    QString env = qEnvironmentVariable("RDMALAB_LABS_DIR");
    if (!env.isEmpty()) return env;
    QString beside = QCoreApplication::applicationDirPath() + "/../share/rdmalab/labs";
    if (QDir(beside).exists()) return beside;
    return QString::fromUtf8(build::labs_dir());
}

} // namespace

MainWindow::MainWindow(const StartOptions& options, QWidget* parent)
    : QMainWindow(parent), options_(options), engine_(new EngineClient(this)),
      controller_(new LessonController(engine_, this)),
      timeline_(new TimelineModel([this] { return controller_->sessionEvents(); }, this)),
      filter_(new TimelineFilter(this)), headless_(new HeadlessRun(3, this)), language_(options.language) {
    setObjectName("mainWindow");
    if (options_.engineHost) engine_->setHost(*options_.engineHost, options_.vm, options_.ssh);
    if (!options_.engineProgram.isEmpty()) engine_->setProgram(options_.engineProgram);
    filter_->setSourceModel(timeline_);
    controller_->setWaitForAnimations(true);
    loadLessons();
    buildUi();
    retranslateUi();
    connect(Language::instance(), &Language::changed, this, &MainWindow::setLessonLanguage);
    if (options_.replayFile.isEmpty() && !options_.lesson.isEmpty() &&
        !toolBars_->hasLesson(options_.lesson)) {
        // A misspelt --lesson must not silently run another lesson.
        QStringList ids;
        for (const auto& l : lessons_)
            ids << QString::fromStdString(l.id());
        const QString text = tr("There is no lesson '%1'; the lessons are: %2")
                                 .arg(options_.lesson, ids.join(QStringLiteral(", ")));
        std::fprintf(stderr, "rdmalab: %s\n", qPrintable(text));
        QTimer::singleShot(0, this, [this, text] {
            statusBar()->showMessage(text);
            if (options_.autoplay) finishHeadless(false, ReasonPrinted::yes);
        });
    }

    connectEngine();
    connectController();
    if (options_.stepDelayMs >= 0) controller_->setStepDelay(options_.stepDelayMs);
    if (options_.animationSpeed >= 0) stage_->setAnimationSpeed(options_.animationSpeed);
    if (options_.presentation) setPresentationMode(true);

    headless_->setQuitWhenDone(options_.quitWhenDone);
    connect(headless_, &HeadlessRun::deadlinePassed, this, [this] { finishHeadless(false); });
    if (options_.autoplay) {
        // A VM boots first (its own bound is options_.vm.bootTimeoutSeconds).
        const int seconds = 180 + (engine_->host() == EngineHost::Vm ? options_.vm.bootTimeoutSeconds : 0);
        headless_->armDeadline(seconds * 1000,
                               QStringLiteral("the lesson did not finish within %1 s").arg(seconds));
    }
    startFromOptions();
}

void MainWindow::connectEngine() {
    connect(engine_, &EngineClient::eventsArrived, this, &MainWindow::onEngineEvents);
    connect(engine_, &EngineClient::engineDied, this, &MainWindow::onEngineDied);
    connectEngineBanner(this, engine_, engineBanner_);
    // EngineClient has sent `hello` itself (onEngineEvents shows its answer).
    connect(engine_, &EngineClient::started, this, [this] {
        engineLine_->endProgressLine();
        engine_->send("devices");
    });
}

void MainWindow::connectController() {
    inspectorTimer_.setSingleShot(true);
    connect(&inspectorTimer_, &QTimer::timeout, this, &MainWindow::refreshInspector);
    inspectorRefreshed_.start();
    connect(controller_, &LessonController::eventsReady, this, &MainWindow::onEventsReady);
    connect(controller_, &LessonController::stateReset, this, [this] {
        timeline_->clear();
        stage_->clearPicture();
        selectedSeq_.reset();
        travelled_ = false;
    });
    connect(controller_, &LessonController::changed, this, &MainWindow::refreshControls);
    connect(controller_, &LessonController::message, this, [this](const QString& m) {
        sessionLines_->setSessionText(m.section('\n', 0, 0));
        statusBar()->showMessage(m.section('\n', 0, 0), 10000);
    });
    connect(controller_, &LessonController::finishedChanged, this, [this](bool success) {
        // The closing sentence says what the device did: a fault lesson that saw its fault did not move data.
        // A lab's closing sentence is its verdicts: a broken expectation is never "verified".
        const auto& state = controller_->state();
        const int verdicts = state.expectationsHeld + state.expectationsBroken;
        QString closing;
        if (!success)
            closing = tr("Lesson finished with an error: see the inspector.");
        else if (state.expectationsBroken > 0)
            closing = tr("Finished: %1 of %2 expectations broken; see the inspector for what the device did.")
                          .arg(state.expectationsBroken)
                          .arg(verdicts);
        else if (verdicts > 0 && lessonOfMode(state.mode).isEmpty())
            closing = tr("Lab finished: every expectation held (%1).").arg(state.expectationsHeld);
        else if (state.faultObserved)
            closing =
                tr("Lesson finished: the device refused the request (%1), as this fault is meant to show; "
                   "see the inspector for what it left unchanged.")
                    .arg(state.lastErrorCode.isEmpty() ? tr("an error") : state.lastErrorCode);
        else
            closing = tr("Lesson finished: the data moved and was verified.");
        statusBar()->showMessage(closing, 10000);
        if (options_.autoplay && !headless_->finished()) {
            // Let the last animation play out, then take the screenshot. A recovered session was cut off
            // by the crash: replaying it to its end is what a headless --reopen-unfinished run asks for.
            auto finish = [this, success] { finishHeadless(success || recoveredReplay_); };
            if (stage_->isIdle())
                QTimer::singleShot(300, this, finish);
            else
                connect(stage_, &LabStage::idle, this, finish, Qt::SingleShotConnection);
        }
    });
    connect(stage_, &LabStage::idle, controller_, &LessonController::animationsIdle);
}

void MainWindow::startFromOptions() {
    // An unattended run is not someone coming back to the app: it leaves the offer for the next start and
    // keeps its screenshot free of it.
    recoveryBanner_->collect(SessionAutosave::defaultDirectory(), !options_.autoplay);
    if (options_.reopenUnfinished && !unfinishedSessions().empty()) {
        QTimer::singleShot(0, this, &MainWindow::reopenAtStart);
    } else if (options_.reopenUnfinished && headless()) {
        const QString text =
            tr("There is no unfinished session to reopen in %1.").arg(SessionAutosave::defaultDirectory());
        std::fprintf(stderr, "rdmalab: %s\n", qPrintable(text));
        QTimer::singleShot(0, this, [this, text] {
            statusBar()->showMessage(text);
            finishHeadless(false, ReasonPrinted::yes);
        });
    } else if (!options_.replayFile.isEmpty()) {
        QTimer::singleShot(0, this, [this] { openRecording(options_.replayFile); });
    } else {
        engine_->start();
    }
}

MainWindow::~MainWindow() {
    engine_->stop();
}

void MainWindow::loadLessons() {
    std::vector<labs::LabError> errors;
    lessons_ = lessonsAmong(labs::load_labs(lessonsDirectory().toStdString(), errors));
    QStringList lines;
    for (const auto& e : errors) {
        lines << QString::fromStdString(e.to_string());
        std::fprintf(stderr, "rdmalab: lesson not loaded: %s\n", e.to_string().c_str());
    }
    lessonLoadErrors_ = lines.join('\n');
    if (!lines.isEmpty())
        QTimer::singleShot(0, this, [this] {
            statusBar()->showMessage(tr("Some lab files could not be loaded: %1").arg(lessonLoadErrors_));
        });
}

void MainWindow::buildUi() {
    toolBars_ = new LessonToolBars(this, lessons_, options_.lesson, language_);
    buildMenus();
    auto* central = new QWidget;
    auto* outer = new QVBoxLayout(central);
    outer->setContentsMargins(4, 4, 4, 4);
    engineBanner_ = makeEngineBanner(&restartEngineButton_);
    outer->addWidget(engineBanner_);
    autosaveWarning_ = makeAutosaveWarning();
    outer->addWidget(autosaveWarning_);
    recoveryBanner_ = new RecoveryBanner;
    outer->addWidget(recoveryBanner_);
    connect(recoveryBanner_, &RecoveryBanner::reopenClicked, this, &MainWindow::reopenUnfinishedSession);
    connect(recoveryBanner_, &RecoveryBanner::dismissClicked, this, &MainWindow::dismissUnfinishedSession);
    opener_ =
        new RecordingOpener(this, recoveryBanner_, headless(),
                            [this](std::vector<TraceEvent>&& events, const QString& title, bool recovered) {
                                showReplay(std::move(events), title, recovered);
                            });
    connect(opener_, &RecordingOpener::headlessFailed, this,
            [this] { finishHeadless(false, ReasonPrinted::yes); });
    connect(opener_, &RecordingOpener::openEnabled, menus_, &MainMenus::setOpenRecordingEnabled);

    sessionLines_ = new SessionLines(outer, this);
    engineLine_ = new EngineStatusLine(engine_, statusBar(), headless());

    // Every panel but the data path can be dragged shut or hidden (View ▸ Panels); the data path scales to
    // the room left (a 1280x720 projector, a 1024x768 screen).
    auto* top = new QSplitter(Qt::Horizontal);
    top->setObjectName("topSplitter");
    top->addWidget(buildDevicePanel());
    stage_ = new LabStage(LabStage::Arrangement::PictureBesideState);
    top->addWidget(stage_);
    top->setStretchFactor(0, 0);
    top->setStretchFactor(1, 1);
    top->setCollapsible(1, false);
    top->setSizes({170, 1330}); // proportions: most of the width to the stage, and in it to the picture

    auto* main = new QSplitter(Qt::Vertical);
    main->setObjectName("mainSplitter");
    main->addWidget(top);
    timelinePanel_ = new TimelinePanel(filter_);
    main->addWidget(timelinePanel_);
    main->setStretchFactor(0, 3);
    main->setStretchFactor(1, 2);
    main->setCollapsible(0, false);
    main->setSizes({680, 320}); // proportions; at 720 px high the timeline still shows a few rows
    outer->addWidget(main, 1);
    setCentralWidget(central);
    menus_->addPanels({{{devicePanel_, "showDevicePanelAction"},
                        {stage_->qpState(), "showQpStateAction"},
                        {stage_->memory(), "showMemoryAction"},
                        {timelinePanel_->timeline(), "showTimelineAction"},
                        {timelinePanel_->inspector(), "showInspectorAction"}}});
    // F5: the projector layout. Its keys press the toolbar's buttons, so they do what the buttons would
    // (nothing while a button is disabled).
    ProjectorLayout::Keys keys{.step = clickWhenEnabled(this, "stepButton"),
                               .back = clickWhenEnabled(this, "backButton"),
                               .play = [this, play = clickWhenEnabled(this, "playButton"),
                                        pause = clickWhenEnabled(this, "pauseButton")] {
                                   controller_->playing() ? pause() : play();
                               }};
    presentation_ = new ProjectorLayout(this, stage_, std::move(keys));
    connect(presentation_, &ProjectorLayout::changed, this, [this](bool on) {
        QTimer::singleShot(0, toolBars_, &LessonToolBars::place); // the font, so the toolbars' widths, change
        menus_->setPresentationChecked(on);
        refreshInspector();
    });
    fitToScreen(this, QSize(1680, 1050));
    connectControls();
}

void MainWindow::buildMenus() {
    menus_ = new MainMenus(this, engine_);
    connect(menus_, &MainMenus::openRecordingRequested, this, [this] { opener_->choose(); });
    connect(menus_, &MainMenus::saveTraceRequested, this, &MainWindow::saveTrace);
    connect(menus_, &MainMenus::exportPngRequested, this, &MainWindow::exportPng);
    connect(menus_, &MainMenus::presentationToggled, this, &MainWindow::setPresentationMode);
    connect(menus_, &MainMenus::labBrowserRequested, this,
            [this] { openWindow<LabWindow, LabWindowOptions>(language_, options_.engineProgram); });
    connect(menus_, &MainMenus::workbenchRequested, this, [this] {
        openWindow<WorkbenchWindow, WorkbenchWindowOptions>(language_, options_.engineProgram);
    });
    connect(menus_, &MainMenus::engineHostRequested, this, [this] { devicePanel_->chooseEngineHost(); });
    connect(menus_, &MainMenus::restartEngineRequested, this, &MainWindow::restartEngine);
    connect(menus_, &MainMenus::vmConsoleRequested, this, [this] { devicePanel_->showVmConsole(); });
}

void MainWindow::resizeEvent(QResizeEvent* event) {
    QMainWindow::resizeEvent(event);
    if (toolBars_) toolBars_->place();
}

void MainWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QMainWindow::changeEvent(event);
}

void MainWindow::retranslateUi() {
    // Texts of another language have other widths: the toolbars may need one row more, or one less.
    QTimer::singleShot(0, toolBars_, &LessonToolBars::place);
    setWindowTitle(tr("rdmalab — RDMA data paths, step by step"));
    menus_->retranslateUi();
    toolBars_->retranslateUi();
    restartEngineButton_->setText(Banner::tr("Restart engine"));

    // The session line: what it last said, in the new language.
    if (engineStopped_)
        sessionLines_->setSessionText(tr("The engine process stopped."));
    else if (!haveDevice_ && devicePanel_->showsNoDevice())
        sessionLines_->setSessionText(noDeviceSessionText());
    else if (helloResult_)
        sessionLines_->setSessionText(engineReadyText(*helloResult_));
    else if (controller_->state().device.isEmpty())
        sessionLines_->setSessionText(tr("Starting the engine…"));
    refreshEngineHost();
    refreshControls();
}

void MainWindow::setLessonLanguage(const QString& language) {
    language_ = language;
    toolBars_->setLanguage(language_);
    refreshInspector();
    refreshControls(); // the steps' titles in the new language
}

QWidget* MainWindow::buildDevicePanel() {
    devicePanel_ = new DevicePanel(engine_);
    connect(devicePanel_, &DevicePanel::openRecordingRequested, opener_, &RecordingOpener::choose);
    connect(opener_, &RecordingOpener::openEnabled, devicePanel_, &DevicePanel::setOpenRecordingEnabled);
    connect(devicePanel_, &DevicePanel::engineHostChosen, this, &MainWindow::switchEngineHost);
    connect(devicePanel_, &DevicePanel::softRoceCreated, this, &MainWindow::restartEngine);
    return devicePanel_;
}

void MainWindow::connectControls() {
    connect(toolBars_, &LessonToolBars::playClicked, controller_, &LessonController::play);
    connect(toolBars_, &LessonToolBars::pauseClicked, controller_, &LessonController::pause);
    connect(toolBars_, &LessonToolBars::stepClicked, controller_, &LessonController::step);
    connect(toolBars_, &LessonToolBars::skipToEndClicked, controller_, &LessonController::skipToEnd);
    connect(toolBars_, &LessonToolBars::backClicked, this, &MainWindow::stepBack);
    connect(toolBars_, &LessonToolBars::measureClicked, this,
            [this] { openWindow<BenchWindow, BenchStartOptions>(language_, options_.engineProgram); });
    connect(toolBars_, &LessonToolBars::resetClicked, this, [this] {
        if (controller_->mode() == LessonController::Mode::Replay)
            controller_->reset();
        else
            startSelectedLesson();
    });
    connect(restartEngineButton_, &QPushButton::clicked, this, &MainWindow::restartEngine);
    connect(toolBars_, &LessonToolBars::lessonChosen, this, [this] {
        if (haveDevice_) startSelectedLesson();
    });
    auto applySpeed = [this](int speed) {
        controller_->setStepDelay(LessonToolBars::stepDelayMs(speed));
        stage_->setAnimationSpeed(LessonToolBars::animationSpeed(speed));
    };
    connect(toolBars_, &LessonToolBars::speedChanged, this, applySpeed);
    applySpeed(toolBars_->speed());
    connect(timelinePanel_, &TimelinePanel::eventSelected, this, [this](std::uint64_t seq) {
        selectedSeq_ = seq;
        travelTo(timeline_->rowOfSeq(seq));
        stage_->highlightSeq(seq);
        refreshInspector();
    });
    refreshControls();
}

void MainWindow::startSelectedLesson() {
    const auto* lesson = toolBars_->currentLesson();
    if (!lesson) {
        const QString text = tr("No lessons found in %1. %2").arg(lessonsDirectory(), lessonLoadErrors_);
        statusBar()->showMessage(text);
        std::fprintf(stderr, "rdmalab: %s\n", qPrintable(text));
        if (options_.autoplay)
            finishHeadless(false, ReasonPrinted::yes); // nothing to play: no point waiting for the time-out
        return;
    }
    autosave_.restart(); // a new session, a new file
    autosaveWarning_->hide();
    recoveredReplay_ = false;
    controller_->startLive(QString::fromStdString(lesson->id()), toolBars_->size(), toolBars_->message(),
                           language_);
    if (options_.autoplay) QTimer::singleShot(0, controller_, &LessonController::play);
}

void MainWindow::onEngineEvents(const std::vector<TraceEvent>& events) {
    engineLine_->endProgressLine(); // the engine speaks: its start is over
    for (const auto& e : events) {
        if (e.kind != EventKind::Result) continue;
        if (e.name == "devices") showDevices(e.data);
        if (e.name == "hello") {
            helloResult_ = e.data;
            engineStopped_ = false;
            sessionLines_->setSessionText(engineReadyText(e.data));
        }
    }
}

void MainWindow::showDevices(const nlohmann::json& result) {
    const auto devices = readDevicesResult(result);
    devicePanel_->showDevices(devices);
    haveDevice_ = !devices.ports.empty();
    engineDevice_ = haveDevice_ ? devices.ports.front().device : QString();
    refreshEngineHost();
    // No device here: can one be made here (a kernel with rdma_rxe, an interface, pkexec)? That is offered
    // before the VM, which emulates a whole CPU.
    devicePanel_->setSoftRoceOffer(!haveDevice_ && engine_->host() == EngineHost::Local && !headless()
                                       ? softRoceOffer(options_.softRoce)
                                       : SoftRoceOffer{});
    if (devicePanel_->createdDeviceArrived(haveDevice_))
        statusBar()->showMessage(tr("%1 is ready: lessons run on it.").arg(engineDevice_), 20000);
    if (!haveDevice_ && engine_->host() == EngineHost::Local && options_.automaticEngineHost &&
        !automaticSwitchDone_ && !headless() && !devicePanel_->offersSoftRoce() && DevicePanel::vmReady()) {
        // No device here, and the VM is ready: use it, and say why (Engine ▸ Where the engine runs… to
        // choose otherwise).
        automaticSwitchDone_ = true;
        statusBar()->showMessage(tr("This machine has no RDMA device: the engine runs in the SoftRoCE VM "
                                    "instead (Engine ▸ Where the engine runs… to choose)."),
                                 20000);
        QTimer::singleShot(0, devicePanel_, &DevicePanel::useVm);
        return;
    }
    if (!haveDevice_) {
        devicePanel_->showNoDevice();
        sessionLines_->setSessionText(noDeviceSessionText());
        refreshControls();
        if (options_.autoplay) {
            std::fprintf(stderr, "rdmalab: no RDMA device; cannot run the lesson live\n");
            finishHeadless(false, ReasonPrinted::yes);
        }
        return;
    }
    if (controller_->mode() != LessonController::Mode::Replay) startSelectedLesson();
}

QString MainWindow::noDeviceSessionText() const {
    return engine_->host() == EngineHost::Ssh
               ? tr("No ACTIVE RDMA port on %1: create a SoftRoCE device there, or open a recording.")
                     .arg(engine_->where())
               : tr("No RDMA device: create a SoftRoCE device, or open a recording.");
}

void MainWindow::onEventsReady(std::span<const TraceEvent> events) {
    timeline_->append(events);
    timelinePanel_->scrollToBottom();
    const auto& state = controller_->state();
    if (travelled_) {
        // The picture showed an earlier moment: back to the present, drawn at once.
        travelled_ = false;
        stage_->showAt(controller_->sessionEvents(), state);
    } else {
        stage_->showEvents(events, state);
    }
    if (controller_->mode() == LessonController::Mode::Live) {
        autosave(events);
        // For start.sh and tests/bench/start-to-live.sh, which time the way from start to live.
        if (headless() && !firstLiveStepReported_ && !state.device.isEmpty()) {
            firstLiveStepReported_ = true;
            std::fprintf(stderr, "rdmalab: first live step done on %s · %s\n", qPrintable(state.device),
                         qPrintable(engine_->where()));
        }
    }
    selectedSeq_.reset();
    // A fast replay rewrites the inspector ten times a second, not at every batch: each rewrite lays out
    // its text again.
    if (!controller_->fastReplay() || inspectorRefreshed_.elapsed() >= kFastInspectorRefreshMs)
        refreshInspector();
    else if (!inspectorTimer_.isActive())
        inspectorTimer_.start(kFastInspectorRefreshMs);
    refreshControls();
}

void MainWindow::travelTo(int row) {
    const auto events = controller_->sessionEvents();
    if (row < 0 || static_cast<std::size_t>(row) >= events.size()) return;
    // A step's row stands for the whole step: the picture as the step left it.
    auto last = static_cast<std::size_t>(row);
    if (events[last].kind == EventKind::Step)
        while (last + 1 < events.size() && events[last + 1].kind != EventKind::Step)
            ++last;
    row = static_cast<int>(last);
    const bool present = static_cast<std::size_t>(row) + 1 == events.size();
    if (present && !travelled_) return; // the picture is there already (and may be animating it)
    const auto upTo = events.first(static_cast<std::size_t>(row) + 1);
    stage_->showAt(upTo,
                   present ? controller_->state() : LabState::foldedFrom(upTo, controller_->state().replay));
    travelled_ = !present;
    shownRow_ = row;
    refreshControls();
}

int MainWindow::stepBeforeShown() const {
    const auto events = controller_->sessionEvents();
    if (events.empty()) return -1;
    auto at =
        static_cast<std::ptrdiff_t>(travelled_ ? static_cast<std::size_t>(shownRow_) : events.size() - 1);
    // The step shown begins at the last step event at or before `at`; the one before it is wanted.
    while (at >= 0 && events[static_cast<std::size_t>(at)].kind != EventKind::Step)
        --at;
    for (--at; at >= 0; --at)
        if (events[static_cast<std::size_t>(at)].kind == EventKind::Step) return static_cast<int>(at);
    return -1;
}

void MainWindow::stepBack() {
    const int row = stepBeforeShown();
    if (row < 0) return;
    selectedSeq_ = controller_->sessionEvents()[static_cast<std::size_t>(row)].seq;
    travelTo(row);
    stage_->highlightSeq(*selectedSeq_);
    refreshInspector();
}

void MainWindow::autosave(std::span<const TraceEvent> events) {
    if (autosave_.failed() || autosave_.append(events)) return; // a failure is reported once
    autosaveWarning_->setText(
        tr("Autosave failed: %1\nThis session is kept in memory only: save it with File ▸ "
           "Save trace… before you start another lesson.")
            .arg(autosave_.error()));
    autosaveWarning_->show();
    std::fprintf(stderr, "rdmalab: autosave failed: %s\n", qPrintable(autosave_.error()));
}

void MainWindow::onEngineDied(const QString& message) {
    engineLine_->engineDied();
    engineBanner_->showMessage(message);
    engineStopped_ = true;
    refreshEngineHost();
    if (headless()) std::fprintf(stderr, "rdmalab: %s\n", qPrintable(message));
    sessionLines_->setSessionText(tr("The engine process stopped."));
    refreshControls();
    if (options_.autoplay && !headless_->finished()) finishHeadless(false, ReasonPrinted::yes);
}

void MainWindow::restartEngine() {
    engine_->stop();
    engineBanner_->hide();
    engineStopped_ = false;
    engineDevice_.clear();
    refreshEngineHost();
    engine_->start();
}

void MainWindow::switchEngineHost(EngineHost host, const SshOptions& ssh) {
    engine_->setHost(host, options_.vm, ssh);
    helloResult_.reset();
    haveDevice_ = false;
    restartEngine();
}

void MainWindow::refreshEngineHost() {
    engineLine_->refresh(controller_->mode() == LessonController::Mode::Replay, engineStopped_, engineDevice_,
                         helloResult_.has_value());
}

void MainWindow::openRecording(const QString& path) {
    opener_->open(path);
}

namespace {
/// The session header's mode ("op write", "serve bench"), or empty.
QString recordedMode(const std::vector<TraceEvent>& events) {
    for (const auto& e : events)
        if (e.kind == EventKind::Session && e.data.is_object() && e.data.contains("mode") &&
            e.data.at("mode").is_string())
            return QString::fromStdString(e.data.at("mode").get<std::string>());
    return {};
}
} // namespace

void MainWindow::showReplay(std::vector<TraceEvent>&& events, const QString& title, bool recovered) {
    autosave_.restart(); // a replay ends the live session, and its file is complete
    recoveredReplay_ = recovered;
    // The recording's own lesson explains it ("op read" → the Read lesson), whatever was selected before;
    // selecting it here starts nothing.
    if (const QString lesson = lessonOfMode(recordedMode(events)); toolBars_->hasLesson(lesson))
        toolBars_->showLessonQuietly(lesson);
    controller_->startReplay(std::move(events), title);
    refreshEngineHost();
    if (options_.autoplay) QTimer::singleShot(0, controller_, &LessonController::play);
}

const std::vector<UnfinishedSession>& MainWindow::unfinishedSessions() const {
    return opener_->unfinishedSessions();
}

void MainWindow::reopenUnfinishedSession() {
    opener_->reopenFirstUnfinished();
}

void MainWindow::dismissUnfinishedSession() {
    opener_->dismissFirstUnfinished();
}

void MainWindow::reopenAtStart() {
    opener_->reopenFirstUnfinished([this](bool opened) {
        if (!opened) {
            if (headless()) finishHeadless(false, ReasonPrinted::yes);
            return;
        }
        // Without --autoplay there is nothing to wait for: the screenshot shows the reopened session.
        if (!options_.autoplay && headless()) QTimer::singleShot(300, this, [this] { finishHeadless(true); });
    });
}

bool MainWindow::saveTrace(const QString& path) {
    const QString error = writeTraceFile(path, controller_->sessionEvents());
    statusBar()->showMessage(
        error.isEmpty() ? tr("Saved %1 events to %2").arg(controller_->sessionEvents().size()).arg(path)
                        : error,
        10000);
    return error.isEmpty();
}

bool MainWindow::exportPng(const QString& path) {
    const QString error = saveWidgetPng(this, path);
    statusBar()->showMessage(error.isEmpty() ? tr("Saved %1").arg(path) : error, 10000);
    return error.isEmpty();
}

void MainWindow::setPresentationMode(bool on) {
    presentation_->set(on);
}

void MainWindow::refreshStepTitles() {
    // The recordings (and the engine's operations) title their steps in English. In another language the
    // shown run's lesson (its session's mode) gives each step, by id, its title in that language; in
    // English, and for any step the lesson does not have, the title is shown as recorded.
    const QString lessonId = lessonOfMode(controller_->state().mode);
    if (lessonId == titlesLesson_ && language_ == titlesLanguage_) return;
    titlesLesson_ = lessonId;
    titlesLanguage_ = language_;
    QHash<QString, QString> titles;
    if (!language_.startsWith(QLatin1String("en")))
        for (const auto& lesson : lessons_)
            if (QString::fromStdString(lesson.id()) == lessonId)
                for (const auto& step : lesson.lab.steps)
                    titles.insert(QString::fromStdString(step.id),
                                  QString::fromStdString(step.title.get(language_.toStdString())));
    stage_->setStepTitles(titles);
    sessionLines_->setStepTitles(titles);
}

void MainWindow::refreshControls() {
    const bool live = controller_->mode() == LessonController::Mode::Live;
    const bool replay = controller_->mode() == LessonController::Mode::Replay;
    const bool running = engine_->isRunning();
    const bool canStep = ((live && running && haveDevice_) || replay) && !controller_->finished();
    toolBars_->enablePlayer(canStep && !controller_->busy(), canStep && !controller_->playing(),
                            controller_->playing(), (live && running) || replay);
    toolBars_->showSkipToEnd(replay, replay && !controller_->finished() && !controller_->fastReplay());
    toolBars_->enableBack(!controller_->playing() && stepBeforeShown() >= 0);
    refreshStepTitles();
    sessionLines_->showState(controller_->state(), replay, recoveredReplay_);
}

void MainWindow::refreshInspector() {
    inspectorTimer_.stop();
    inspectorRefreshed_.restart();
    // The event to describe: the selected one, else the last "interesting" event of the current step.
    const TraceEvent* shown = nullptr;
    if (selectedSeq_) {
        const int row = timeline_->rowOfSeq(*selectedSeq_);
        if (row >= 0) shown = &timeline_->event(row);
    }
    if (!shown) shown = inspectedEvent(timeline_->events());

    const InspectedLesson lesson{toolBars_->currentLesson(), toolBars_->size(), toolBars_->message()};
    timelinePanel_->inspector()->setHtml(inspectorHtml(
        controller_->state(), lesson, shown, controller_->mode() == LessonController::Mode::Live,
        controller_->mode() == LessonController::Mode::Replay, language_.toStdString()));
}

void MainWindow::finishHeadless(bool success, ReasonPrinted reason) {
    const bool first = headless_->finish(success, [this] {
        return options_.screenshot.isEmpty() || saveScreenshot(grab().toImage(), options_.screenshot);
    });
    if (!first) return;
    engineLine_->endProgressLine();
    const auto& state = controller_->state();
    if (success && controller_->mode() == LessonController::Mode::Live && state.memory[1].bytes.size() > 0) {
        // What the device did, in one line a script can check: B's buffer after the lesson.
        const QByteArray head = state.memory[1].bytes.left(16);
        QByteArray shown;
        for (const char c : head)
            shown += (c >= 0x20 && c < 0x7f) ? c : '.';
        std::fprintf(stderr, "rdmalab: the lesson verified on %s · %s; B's buffer begins \"%s\"\n",
                     qPrintable(state.device), qPrintable(engine_->where()), shown.constData());
    }
    // A reopened session is not expected to verify; a run that never started (a file it could not open,
    // no device, no such lesson) has said why, and "did not verify" would name a lesson that never ran.
    if (!success && !options_.reopenUnfinished && reason == ReasonPrinted::no) {
        std::fprintf(stderr, "rdmalab: the lesson did not verify%s%s\n", state.lastError ? ":\n" : "",
                     state.lastError ? qPrintable(*state.lastError) : "");
    }
}

} // namespace rdmalab::app
