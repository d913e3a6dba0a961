#include "labwindow.h"

#include "classsummary.h"

#include "qtstrings.h"

#include "labpanels.h"
#include "labquiz.h"
#include "labstage/labstage.h"
#include "language.h"
#include "projectorlayout.h"

#include "engineclient.h"
#include "headlessrun.h"
#include "labcatalog.h"
#include "labreport.h"
#include "labsession.h"
#include "labstate.h"
#include "windowparts.h"
#include "workbenchwindow.h"

#include <QCheckBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSplitter>
#include <QStatusBar>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cstdio>
#include <span>

namespace rdmalab::app {

namespace {

QString verdictMark(const QString& verdict) {
    if (verdict == QLatin1String("held")) return LabWindow::tr("✓ held");
    if (verdict == QLatin1String("broken")) return LabWindow::tr("✗ BROKEN");
    return LabWindow::tr("– n/a");
}

} // namespace

LabWindow::LabWindow(const LabWindowOptions& options, QWidget* parent)
    : QMainWindow(parent), options_(options), engine_(new EngineClient(this)), catalog_(new LabCatalog(this)),
      session_(new LabSession(engine_, this)), headless_(new HeadlessRun(1, this)) {
    setObjectName(QStringLiteral("labWindow"));
    if (!options_.engineProgram.isEmpty()) engine_->setProgram(options_.engineProgram);
    const QString curriculum =
        options_.curriculum.isEmpty() ? qs(labs::default_labs_directory()) : options_.curriculum;
    const QString user =
        options_.userDirectory.isEmpty() ? LabCatalog::userLabDirectory() : options_.userDirectory;
    catalog_->load(curriculum, user, options_.language);
    curriculum_ = QFileInfo(curriculum).absoluteFilePath();
    buildUi();
    auto* viewMenu = menuBar()->addMenu(QString());
    viewMenu->setObjectName(QStringLiteral("labViewMenu"));
    // F5: for a class, the picture and the prediction to vote on, large; the keys press the window's buttons.
    projector_ = new ProjectorLayout(this, stage_,
                                     {.step = clickWhenEnabled(this, QStringLiteral("labStep")),
                                      .back = [this] { travelBack(); },
                                      .play = clickWhenEnabled(this, QStringLiteral("labPlay"))});
    projector_->showBelowPicture(predict_);
    projector_->addAction(viewMenu);
    viewMenu->addSeparator();
    Language::instance()->addMenu(viewMenu);
    // The lab texts come from the lab files in both languages: the browser follows at once; a lab that is
    // running keeps its language, the next Start uses the new one.
    connect(Language::instance(), &Language::changed, this, [this](const QString& language) {
        options_.language = language;
        catalog_->setLanguage(language);
        if (!selectedId_.isEmpty()) showLab();
        if (session_->started() && !session_->done())
            status_->setText(tr("The running lab keeps its language; the next Start uses the new one."));
    });
    retranslateUi();
    // Headless runs play to the end: predictions are skipped (they count as not made), never waited for,
    // and a troubleshooting lab is demonstrated with its own fix (the teacher switch on).
    session_->setSkipPredictions(options_.autoplay);
    teacherMode_->setChecked(options_.autoplay);
    connectSession();
    headless_->setQuitWhenDone(options_.quitWhenDone);
    connect(headless_, &HeadlessRun::deadlinePassed, this, [this] { onFinished(false); });
    if (options_.autoplay)
        headless_->armDeadline(30 * 60 * 1000, QStringLiteral("the lab did not end within 30 minutes"));
    connectEngine();
    engine_->start();
    openFromOptions(curriculum, user);
    fitToScreen(this, QSize(1280, 800));
    if (options_.presentation) projector_->set(true);
}

void LabWindow::travelBack() {
    // The step before the one shown, as the step list would show it when clicked.
    const int shown = steps_->currentIndex().isValid()
                          ? steps_->currentIndex().row()
                          : std::min(session_->nextStep(), session_->rowCount()) - 1;
    if (shown <= 0) return;
    steps_->setCurrentIndex(session_->index(shown - 1, 0));
}

void LabWindow::connectSession() {
    connect(session_, &LabSession::labStarted, this, [this] {
        lastPredicted_ = -1;
        buildQuestions();
        updatePrediction();
        updateButtons();
        if (options_.autoplay) session_->play();
    });
    catchUpTimer_ = new QTimer(this);
    catchUpTimer_->setSingleShot(true);
    catchUpTimer_->setInterval(kCatchUpMs);
    connect(catchUpTimer_, &QTimer::timeout, this, &LabWindow::catchUp);
    connect(session_, &LabSession::stepFinished, this, [this](int index) {
        if (session_->row(index).predicts) lastPredicted_ = index;
        unshownStep_ = index;
        // Playing on: catch up once a frame. Where the lab stops (the end, a prediction to lock in), at once.
        if (session_->playing() && !session_->done() && !session_->needsPrediction()) {
            // The list repaints its changed rows once a frame too (catchUp enables it again).
            steps_->setUpdatesEnabled(false);
            if (!catchUpTimer_->isActive()) catchUpTimer_->start();
        } else {
            catchUp();
        }
    });
    connect(session_, &LabSession::predictionNeeded, this, [this] {
        catchUp();
        updatePrediction();
        updateButtons();
        status_->setText(tr("Predict first: lock in your answer, then the step runs."));
    });
    connect(session_, &LabSession::finished, this, &LabWindow::onFinished);
    connect(session_, &LabSession::labStarted, this, [this] {
        catchUpTimer_->stop();
        unshownStep_ = -1;
        unshownEvents_.clear();
        travelled_ = false;
        stage_->clear(session_->state());
    });
    connect(session_, &LabSession::eventsApplied, this, [this](const std::vector<TraceEvent>& events) {
        unshownEvents_.insert(unshownEvents_.end(), events.begin(), events.end());
        if (session_->playing() && !session_->done()) {
            if (!catchUpTimer_->isActive()) catchUpTimer_->start();
        } else {
            catchUp();
        }
    });
    connect(session_, &LabSession::eventsRecorded, this, &LabWindow::autosave);
    connect(session_, &LabSession::failed, this, [this](const QString& message) {
        catchUp();
        status_->setText(tr("Failed: %1").arg(message));
        updateButtons();
        if (options_.autoplay) {
            std::fprintf(stderr, "rdmalab: %s\n", qPrintable(status_->text()));
            onFinished(false);
        }
    });
}

void LabWindow::connectEngine() {
    // A lab starts once the engine process runs (commands sent before are refused).
    // A lab starts once the engine has said which devices it sees: a lab that needs a device is not
    // started where there is none (the room lacks it; the student did nothing wrong).
    connect(engine_, &EngineClient::started, this, [this] {
        engineReady_ = true;
        haveDevice_.reset();
        engine_->send(QStringLiteral("devices"));
        updateButtons();
    });
    connect(engine_, &EngineClient::eventsArrived, this, [this](const std::vector<TraceEvent>& events) {
        for (const auto& e : events)
            if (e.kind == EventKind::Result && e.name == "devices") {
                const auto devices = readDevicesResult(e.data);
                haveDevice_ = !devices.ports.empty();
                noDeviceFix_ = devices.noDeviceFix;
                updateButtons();
                if (options_.autoplay && !selectedId_.isEmpty() && !session_->started()) {
                    if (roomCanRunSelected()) {
                        startSelected();
                    } else {
                        std::fprintf(stderr, "rdmalab: %s\n", qPrintable(status_->text()));
                        headless_->finish(false, [this] {
                            return options_.screenshot.isEmpty() ||
                                   saveScreenshot(grab().toImage(), options_.screenshot);
                        });
                    }
                }
            }
    });
    connect(engine_, &EngineClient::engineDied, this, [this](const QString& message) {
        engineReady_ = false;
        status_->setText(message);
        updateButtons();
        if (options_.autoplay) {
            std::fprintf(stderr, "rdmalab: %s\n", qPrintable(message));
            onFinished(false);
        }
    });
}

void LabWindow::openFromOptions(const QString& curriculum, const QString& user) {
    if (!options_.lab.isEmpty()) {
        if (!selectLab(options_.lab)) {
            status_->setText(tr("No lab '%1' in %2 or %3").arg(options_.lab, curriculum, user));
            if (options_.autoplay || options_.quitWhenDone)
                std::fprintf(stderr, "rdmalab: %s\n", qPrintable(status_->text()));
            if (options_.autoplay) onFinished(false);
        }
    } else if (options_.autoplay) {
        status_->setText(tr("Nothing to play: name a lab with --lab ID."));
        std::fprintf(stderr, "rdmalab: %s\n", qPrintable(status_->text()));
        onFinished(false);
    }
    // With --quit and nothing to play, the window is shown (and its screenshot taken), then the app ends.
    if (options_.quitWhenDone && !options_.autoplay)
        QTimer::singleShot(0, this, [this] {
            headless_->finish(true, [this] {
                return options_.screenshot.isEmpty() || saveScreenshot(grab().toImage(), options_.screenshot);
            });
        });
}

LabWindow::~LabWindow() {
    // The engine client and the session are children, destroyed after this window's own members: stopping
    // the engine process then reports engineDied and the session's failed, which must not reach a window
    // that is no longer one.
    disconnect(engine_, nullptr, this, nullptr);
    disconnect(session_, nullptr, this, nullptr);
    disconnect(headless_, nullptr, this, nullptr);
}

int LabWindow::headlessStatus() const {
    return headless_->status();
}

void LabWindow::buildUi() {
    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->setObjectName(QStringLiteral("labSplitter"));
    // The browser: chapters and labs, and the files that did not load.
    auto* browser = new LabBrowser(catalog_);
    tree_ = browser->tree();
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(browser, 1);
    // For a teacher: the reports a class handed in, as one table.
    classSummaryButton_ = new QPushButton;
    classSummaryButton_->setObjectName(QStringLiteral("labClassSummary"));
    connect(classSummaryButton_, &QPushButton::clicked, this, [this] {
        const QString folder = QFileDialog::getExistingDirectory(this, tr("Folder of lab reports"));
        if (!folder.isEmpty()) showClassSummary(folder);
    });
    leftLayout->addWidget(classSummaryButton_);
    splitter->addWidget(left);
    splitter->addWidget(buildLabPanel());
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({420, 860});
    setCentralWidget(splitter);

    status_ = new QLabel;
    status_->setObjectName(QStringLiteral("labStatus"));
    statusBar()->addWidget(status_, 1);
    connectControls();
    updateButtons();
}

QWidget* LabWindow::buildLabPanel() {
    // The lab: its description, parameters and controls; its steps; the selected step.
    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    autosaveWarning_ = makeAutosaveWarning();
    rightLayout->addWidget(autosaveWarning_);
    form_ = new LabForm(options_.seed);
    rightLayout->addWidget(form_);
    rightLayout->addLayout(buildButtons());
    // Predict first: the next step's question, answered and locked in before the step runs.
    predict_ = new PredictionBox(session_);
    rightLayout->addWidget(predict_);
    rightLayout->addWidget(buildRun(), 1);
    return right;
}

QHBoxLayout* LabWindow::buildButtons() {
    auto* buttons = new QHBoxLayout;
    start_ = new QPushButton(tr("Start"));
    start_->setObjectName(QStringLiteral("labStart"));
    step_ = new QPushButton(tr("Step ▷"));
    step_->setObjectName(QStringLiteral("labStep"));
    play_ = new QPushButton(tr("▶ Play"));
    play_->setObjectName(QStringLiteral("labPlay"));
    reset_ = new QPushButton(tr("⟲ Reset"));
    reset_->setObjectName(QStringLiteral("labReset"));
    export_ = new QPushButton(tr("Export report…"));
    export_->setObjectName(QStringLiteral("labExport"));
    export_->setToolTip(tr("Write an HTML report of this run: device, date, parameters, every step and "
                           "expectation, and the trace"));
    troubleshoot_ = new QPushButton;
    troubleshoot_->setObjectName(QStringLiteral("labTroubleshoot"));
    troubleshoot_->hide();
    for (auto* b : {start_, step_, play_, reset_, export_, troubleshoot_})
        buttons->addWidget(b);
    teacherMode_ = new QCheckBox;
    teacherMode_->setObjectName(QStringLiteral("labTeacherMode"));
    teacherMode_->hide();
    connect(teacherMode_, &QCheckBox::toggled, this, [this] {
        applyStudentsTurn();
        updateButtons();
    });
    buttons->addWidget(teacherMode_);
    buttons->addStretch(1);
    return buttons;
}

QWidget* LabWindow::buildRun() {
    auto* runSplitter = new QSplitter(Qt::Horizontal);
    // A tree view drawn as a list: QListView lays out every row again on each changed row, which makes
    // a long lab quadratic; with uniform row heights a tree view repaints only the row that changed.
    steps_ = new QTreeView;
    steps_->setObjectName(QStringLiteral("labSteps"));
    steps_->setModel(session_);
    steps_->setHeaderHidden(true);
    steps_->setRootIsDecorated(false);
    steps_->setItemsExpandable(false);
    steps_->setUniformRowHeights(true);
    runSplitter->addWidget(steps_);
    auto* detail = new QSplitter(Qt::Vertical);
    // The step as the device did it: drawn from the run's events (observed solid, illustrated dashed).
    stage_ = new LabStage(LabStage::Arrangement::Tabs);
    // Headless runs screenshot the end of the lab: the final picture at once, not an animation behind.
    if (options_.autoplay) stage_->setAnimationSpeed(0);
    detail->addWidget(stage_);
    auto* explanation = new QSplitter(Qt::Horizontal);
    stepText_ = new QTextBrowser;
    stepText_->setObjectName(QStringLiteral("labStepText"));
    explanation->addWidget(stepText_);
    verdicts_ = new QTreeWidget;
    verdicts_->setObjectName(QStringLiteral("labVerdicts"));
    verdicts_->setHeaderLabels({tr("Verdict"), tr("Expectation"), tr("Observed")});
    verdicts_->setRootIsDecorated(false);
    verdicts_->setWordWrap(true);
    verdicts_->setColumnWidth(0, 90);
    verdicts_->setColumnWidth(1, 300);
    explanation->addWidget(verdicts_);
    detail->addWidget(explanation);
    runSplitter->addWidget(detail);
    runSplitter->setStretchFactor(1, 2);
    runSplitter->setSizes({260, 600});
    detail->setSizes({380, 220});
    return runSplitter;
}

void LabWindow::connectControls() {
    connect(predict_, &PredictionBox::stepSent, this, [this] {
        updatePrediction();
        updateButtons();
    });
    connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this, [this] { showLab(); });
    connect(steps_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { showStep(current.row()); });
    connect(start_, &QPushButton::clicked, this, &LabWindow::startSelected);
    connect(export_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export lab report"),
                                                          session_->labId() + QStringLiteral("-report.html"),
                                                          tr("HTML (*.html)"));
        if (path.isEmpty()) return;
        const QString error = exportReport(path);
        status_->setText(error.isEmpty() ? tr("Report written: %1").arg(path) : error);
    });
    connect(step_, &QPushButton::clicked, session_, &LabSession::step);
    connect(troubleshoot_, &QPushButton::clicked, this, [this] {
        WorkbenchWindowOptions options;
        options.language = options_.language;
        options.engineProgram = options_.engineProgram;
        options.troubleshoot = selectedFile_;
        auto* workbench = new WorkbenchWindow(options);
        workbench->setAttribute(Qt::WA_DeleteOnClose);
        workbench->show();
    });
    connect(play_, &QPushButton::clicked, this, [this] {
        if (session_->playing())
            session_->pause();
        else
            session_->play();
        updateButtons();
    });
    connect(reset_, &QPushButton::clicked, this, [this] {
        autosave_.restart(); // a new run, a new file
        session_->reset();
        stepText_->clear();
        verdicts_->clear();
        updateButtons();
    });
}

bool LabWindow::selectLab(const QString& id) {
    const QModelIndex index = catalog_->indexOf(id);
    if (!index.isValid()) return false;
    tree_->setCurrentIndex(index);
    showLab();
    return true;
}

void LabWindow::showLab() {
    const labs::Lab* lab = catalog_->lab(tree_->currentIndex());
    form_->showLab(lab, options_.language.toStdString());
    if (!lab) return;
    selectedId_ = qs(lab->id);
    // The engine finds the curriculum's labs by id; a lab from elsewhere (the user's folder, Open lab…) by
    // its file.
    const QString file = QFileInfo(qs(lab->file)).absoluteFilePath();
    selectedFile_ = file;
    troubleshoot_->setVisible(lab->troubleshooting());
    teacherMode_->setVisible(lab->troubleshooting());
    selectedLab_ = file.startsWith(curriculum_ + QLatin1Char('/')) ? selectedId_ : file;
    updateButtons();
}

void LabWindow::startSelected() {
    if (selectedId_.isEmpty() || session_->busy()) return;
    stepText_->clear();
    verdicts_->clear();
    status_->setText(tr("Preparing %1 on the device…").arg(selectedId_));
    autosave_.restart(); // a new run, a new file
    applyStudentsTurn();
    session_->start(selectedLab_, form_->values(), options_.language, form_->seed());
    updateButtons();
}

void LabWindow::catchUp() {
    catchUpTimer_->stop();
    steps_->setUpdatesEnabled(true);
    if (!unshownEvents_.empty()) {
        std::vector<TraceEvent> events;
        events.swap(unshownEvents_);
        if (travelled_) {
            travelled_ = false; // back to the present, drawn at once
            stage_->showAt(session_->events(), session_->state());
        } else {
            stage_->showEvents(events, session_->state());
        }
    }
    if (unshownStep_ >= 0 && unshownStep_ < session_->rowCount()) {
        const int index = unshownStep_;
        unshownStep_ = -1;
        steps_->setCurrentIndex(session_->index(index));
        showStep(index);
        updatePrediction();
    }
    updateButtons();
}

void LabWindow::travelToStep(int index) {
    const auto& events = session_->events();
    // The run up to the first event of a later step is what step `index` left; the last step run (the
    // one a playing lab shows, step after step) is the present, found without reading the run.
    const auto later = index + 1 >= session_->nextStep()
                           ? events.end()
                           : std::find_if(events.begin(), events.end(), [index](const TraceEvent& e) {
                                 return e.kind == EventKind::Step && lenientInt(e.data, "index", -1) > index;
                             });
    if (later == events.end()) {
        if (travelled_) stage_->showAt(events, session_->state());
        travelled_ = false;
        return;
    }
    const std::span upTo(events.data(), static_cast<std::size_t>(later - events.begin()));
    stage_->showAt(upTo, LabState::foldedFrom(upTo, false));
    travelled_ = true;
}

void LabWindow::showStep(int index) {
    verdicts_->clear();
    stepText_->clear();
    if (index < 0 || index >= session_->rowCount()) return;
    if (session_->row(index).state != QLatin1String("pending") &&
        session_->row(index).state != QLatin1String("not_run"))
        travelToStep(index);
    const auto& row = session_->row(index);
    QString markdown = QStringLiteral("### %1\n\n").arg(row.title.isEmpty() ? row.id : row.title);
    if (row.state == QLatin1String("skipped"))
        markdown += tr("*Skipped: %1*").arg(row.skippedBecause);
    else if (row.state == QLatin1String("pending") || row.state == QLatin1String("not_run"))
        markdown += tr("*Not run yet.*");
    else
        markdown += row.text;
    if (!row.error.isEmpty()) markdown += QStringLiteral("\n\n```\n%1\n```").arg(row.error);
    stepText_->setMarkdown(markdown);
    for (const auto& v : row.verdicts) {
        auto* item = new QTreeWidgetItem(
            verdicts_, {verdictMark(v.verdict), tr("%1: %2").arg(LabSession::kindName(v.kind), v.description),
                        v.observed});
        if (!v.why.isEmpty()) item->setToolTip(1, v.why);
        item->setForeground(0, v.verdict == QLatin1String("broken") ? QColor(0xb0, 0x00, 0x20)
                               : v.verdict == QLatin1String("held") ? QColor(0x1b, 0x6e, 0x20)
                                                                    : QColor(0x60, 0x60, 0x60));
    }
}

bool LabWindow::roomCanRunSelected() const {
    if (!haveDevice_) return false; // not known yet
    if (*haveDevice_) return true;
    const labs::Lab* lab = catalog_->lab(catalog_->indexOf(selectedId_));
    if (!lab) return true; // a lab file given by path: the engine reads it, and says what it lacks
    // Every object a lab makes on the device comes from its open_device step; a lab without one (notes,
    // waits) runs anywhere.
    return std::none_of(lab->steps.begin(), lab->steps.end(),
                        [](const labs::Step& s) { return s.action == "open_device"; });
}

void LabWindow::updateButtons() {
    const bool busy = session_->busy();
    const bool running = session_->started() && !session_->done();
    const bool roomReady = roomCanRunSelected();
    start_->setEnabled(engineReady_ && !selectedId_.isEmpty() && !busy && roomReady);
    if (engineReady_ && !selectedId_.isEmpty() && !session_->started() && haveDevice_ && !roomReady)
        status_->setText(
            tr("No RDMA device where the engine runs (%1), and this lab needs one: nothing was run "
               "or marked. %2")
                .arg(engine_->where(),
                     noDeviceFix_.isEmpty()
                         ? tr("Create a SoftRoCE device, or start rdmalab with --engine vm to run "
                              "the engine in the SoftRoCE VM.")
                         : noDeviceFix_));
    const bool atTurn = session_->stoppedBefore();
    step_->setEnabled(running && !busy && !session_->playing() && !session_->needsPrediction() && !atTurn);
    predict_->updateButtons();
    play_->setEnabled(running && !atTurn);
    play_->setText(session_->playing() ? tr("❚❚ Pause") : tr("▶ Play"));
    reset_->setEnabled(session_->started() && !busy);
    export_->setEnabled(session_->started() && !busy);
    if (session_->stoppedBefore())
        status_->setText(
            tr("Your turn: find what is wrong and fix it in the workbench (Fix it yourself in "
               "the workbench…); its checks judge your fix. The lab's own fix is not run here."));
    else if (session_->started())
        status_->setText(tr("%1: step %2 of %3 · %4 held, %5 broken")
                             .arg(session_->labId())
                             .arg(std::min(session_->nextStep(), session_->rowCount()))
                             .arg(session_->rowCount())
                             .arg(session_->heldCount())
                             .arg(session_->brokenCount()));
}

QString LabWindow::exportReport(const QString& path) {
    QMap<QString, QString> defaults;
    if (const labs::Lab* lab = catalog_->lab(catalog_->indexOf(session_->labId())))
        for (const auto& p : lab->parameters)
            defaults[qs(p.name)] = parameterDefaultText(p.default_value);
    return writeLabReport(path, *session_, defaults);
}

void LabWindow::updatePrediction() {
    predict_->refresh(lastPredicted_);
}

void LabWindow::buildQuestions() {
    if (questions_) {
        stage_->tabs()->removeTab(stage_->tabs()->indexOf(questions_));
        questions_->deleteLater();
        questions_ = nullptr;
    }
    if (session_->questions().empty()) return;
    questions_ = new QuestionsPage(session_);
    connect(questions_, &QuestionsPage::answered, this, &LabWindow::recordProgress);
    stage_->tabs()->addTab(questions_, questions_->title());
}

ClassSummaryDialog* LabWindow::showClassSummary(const QString& folder) {
    if (!classSummary_) classSummary_ = new ClassSummaryDialog(this);
    classSummary_->showFolder(folder);
    classSummary_->show();
    classSummary_->raise();
    return classSummary_;
}

void LabWindow::applyStudentsTurn() {
    // A troubleshooting lab runs its broken set-up and the student's turn, then waits: the reference fix
    // (the solution's steps, right after the turn) is the student's to find, in the workbench. A teacher
    // who ticks the switch runs it, and the checks after it, here.
    int firstFix = -1;
    if (const labs::Lab* lab = catalog_->lab(catalog_->indexOf(selectedId_));
        lab && !teacherMode_->isChecked())
        for (std::size_t i = 0; i < lab->steps.size(); ++i)
            if (lab->steps[i].solution) {
                firstFix = static_cast<int>(i);
                break;
            }
    session_->setStopBefore(firstFix);
}

void LabWindow::recordProgress() {
    if (!session_->done() || session_->labId().isEmpty()) return;
    const auto& questions = session_->questions();
    const auto unanswered = std::count_if(questions.begin(), questions.end(),
                                          [](const LabSession::Question& q) { return !q.answered; });
    catalog_->setProgress(session_->labId(), session_->allHeld(), session_->heldCount(),
                          session_->brokenCount(), static_cast<int>(unanswered));
    catalog_->setAnswers(session_->labId(), session_->predictionsRight(), session_->predictionsMade(),
                         session_->questionsRight(), static_cast<int>(session_->questions().size()));
}

void LabWindow::autosave(const std::vector<TraceEvent>& events) {
    if (autosave_.failed() || autosave_.append(events)) return; // a failure is reported once
    autosaveWarning_->setText(tr("Autosave failed: %1\nThis run is kept in memory only: export its report "
                                 "before you close the window.")
                                  .arg(autosave_.error()));
    autosaveWarning_->show();
    std::fprintf(stderr, "rdmalab: autosave failed: %s\n", qPrintable(autosave_.error()));
}

void LabWindow::onFinished(bool allHeld) {
    updateButtons();
    // The run is over: its file is complete, and is not offered as unfinished.
    if (session_->done()) autosave_.restart();
    // A run that ended because the engine died or the deadline passed did not finish the lab.
    if (session_->done() && !session_->labId().isEmpty()) {
        recordProgress();
        // The questions open now that the device has shown everything they ask about.
        if (questions_) {
            questions_->open();
            if (!options_.autoplay) stage_->tabs()->setCurrentWidget(questions_);
        }
    }
    status_->setText(status_->text() +
                     (allHeld ? tr(" · every expectation held") : tr(" · NOT every expectation held")));
    if (!options_.autoplay) return;
    headless_->finish(allHeld, [this] {
        bool written = true;
        if (!options_.report.isEmpty()) {
            const QString error = exportReport(options_.report);
            if (!error.isEmpty()) std::fprintf(stderr, "rdmalab: %s\n", qPrintable(error));
            written = error.isEmpty();
        }
        if (!options_.screenshot.isEmpty())
            written = saveScreenshot(grab().toImage(), options_.screenshot) && written;
        return written;
    });
}

void LabWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange && start_) retranslateUi();
    QMainWindow::changeEvent(event);
}

void LabWindow::retranslateUi() {
    setWindowTitle(tr("rdmalab — Labs"));
    if (auto* menu = findChild<QMenu*>(QStringLiteral("labViewMenu"))) menu->setTitle(tr("&View"));
    start_->setText(tr("Start"));
    step_->setText(tr("Step ▷"));
    reset_->setText(tr("⟲ Reset"));
    export_->setText(tr("Export report…"));
    troubleshoot_->setText(tr("Fix it yourself in the workbench…"));
    classSummaryButton_->setText(tr("Class summary…"));
    classSummaryButton_->setToolTip(tr("Read a folder of lab reports (the students' exported HTML files) "
                                       "into one table: student, lab, score"));
    teacherMode_->setText(tr("Teacher: run the lab's fix"));
    teacherMode_->setToolTip(tr("Run the reference fix and the checks after it in this window (a "
                                "demonstration); students fix it themselves in the workbench"));
    troubleshoot_->setToolTip(
        tr("Builds this lab's broken set-up in the workbench; find what is wrong, fix it, "
           "and let the lab check your fix. Start here runs the reference fix instead."));
    export_->setToolTip(tr("Write an HTML report of this run: device, date, parameters, every step and "
                           "expectation, and the trace"));
    verdicts_->setHeaderLabels({tr("Verdict"), tr("Expectation"), tr("Observed")});
    // The stage names its own tabs; the questions' tab is this window's.
    if (questions_) stage_->tabs()->setTabText(stage_->tabs()->indexOf(questions_), questions_->title());
    updateButtons();
}

} // namespace rdmalab::app
