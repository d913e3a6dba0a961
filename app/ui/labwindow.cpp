#include "labwindow.h"

#include "qtstrings.h"

#include "labstage/labstage.h"
#include "language.h"

#include "engineclient.h"
#include "headlessrun.h"
#include "labcatalog.h"
#include "labreport.h"
#include "labsession.h"
#include "labstate.h"
#include "windowparts.h"
#include "workbenchwindow.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cstdio>

namespace rdmalab::app {

namespace {

/// A parameter's default as the lab file gives it.
QString defaultText(const labs::Value& v) {
    switch (v.kind) {
    case labs::Value::Kind::integer:
        return v.unsigned_value ? QString::number(v.as_u64()) : QString::number(v.integer);
    case labs::Value::Kind::boolean:
        return v.boolean ? QStringLiteral("true") : QStringLiteral("false");
    default:
        return qs(v.text);
    }
}

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
    // Headless runs play to the end: predictions are skipped (they count as not made), never waited for.
    session_->setSkipPredictions(options_.autoplay);
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
    headless_->setQuitWhenDone(options_.quitWhenDone);
    connect(headless_, &HeadlessRun::deadlinePassed, this, [this] { onFinished(false); });
    if (options_.autoplay)
        headless_->armDeadline(30 * 60 * 1000, QStringLiteral("the lab did not end within 30 minutes"));
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
    engine_->start();
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
    fitToScreen(this, QSize(1280, 800));
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
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    tree_ = new QTreeView;
    tree_->setObjectName(QStringLiteral("labTree"));
    tree_->setModel(catalog_);
    tree_->setUniformRowHeights(true);
    tree_->header()->setSectionResizeMode(LabCatalog::TitleColumn, QHeaderView::Stretch);
    tree_->header()->setStretchLastSection(false);
    for (int row = 0; row < catalog_->rowCount(); ++row)
        tree_->setFirstColumnSpanned(row, QModelIndex(), true); // a chapter's title uses the whole row
    tree_->expandAll();
    tree_->resizeColumnToContents(LabCatalog::LevelColumn);
    tree_->resizeColumnToContents(LabCatalog::MinutesColumn);
    tree_->resizeColumnToContents(LabCatalog::ProgressColumn);
    leftLayout->addWidget(tree_);
    errors_ = new QLabel;
    errors_->setObjectName(QStringLiteral("labErrors"));
    errors_->setWordWrap(true);
    errors_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    errors_->setStyleSheet(QStringLiteral("background: #fff3b0; color: #000; padding: 4px;"));
    leftLayout->addWidget(errors_);
    // One row per file that did not load, each with its reason, in a list of bounded height: a folder of
    // thousands of bad files scrolls instead of making the window thousands of pixels tall.
    errorList_ = new QListWidget;
    errorList_->setObjectName(QStringLiteral("labErrorList"));
    errorList_->setMaximumHeight(errorList_->fontMetrics().height() * 6 + 8);
    errorList_->setWordWrap(false);
    errorList_->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    leftLayout->addWidget(errorList_);
    showLoadErrors();
    splitter->addWidget(left);

    // The lab: its description, parameters and controls; its steps; the selected step.
    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    autosaveWarning_ = makeAutosaveWarning();
    rightLayout->addWidget(autosaveWarning_);
    header_ = new QLabel(tr("Choose a lab on the left."));
    header_->setObjectName(QStringLiteral("labHeader"));
    header_->setWordWrap(true);
    header_->setTextFormat(Qt::RichText);
    rightLayout->addWidget(header_);
    auto* parameters = new QWidget;
    parameters->setObjectName(QStringLiteral("labParameters"));
    parameterForm_ = new QFormLayout(parameters);
    rightLayout->addWidget(parameters);
    auto* seedRow = new QFormLayout;
    seed_ = new QLineEdit;
    seed_->setObjectName(QStringLiteral("labSeed"));
    seed_->setPlaceholderText(tr("a name or number: varying parameters are drawn from it"));
    seed_->setToolTip(tr("Per-student variation: the same seed always gives the same values, a neighbour's "
                         "seed others. Values typed above still win."));
    seed_->setText(options_.seed);
    auto* studentLabel = new QLabel(tr("Student"));
    studentLabel->setObjectName(QStringLiteral("labStudentLabel"));
    seedRow->addRow(studentLabel, seed_);
    rightLayout->addLayout(seedRow);
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
    buttons->addStretch(1);
    rightLayout->addLayout(buttons);

    // Predict first: the next step's question, answered and locked in before the step runs.
    predict_ = new QGroupBox;
    predict_->setObjectName(QStringLiteral("labPredict"));
    auto* predictLayout = new QVBoxLayout(predict_);
    predictQuestion_ = new QLabel;
    predictQuestion_->setObjectName(QStringLiteral("labPredictQuestion"));
    predictQuestion_->setWordWrap(true);
    predictLayout->addWidget(predictQuestion_);
    predictChoices_ = new QWidget;
    auto* choicesLayout = new QVBoxLayout(predictChoices_);
    choicesLayout->setContentsMargins(12, 0, 0, 0);
    predictLayout->addWidget(predictChoices_);
    predictGroup_ = new QButtonGroup(this);
    auto* predictButtons = new QHBoxLayout;
    lockIn_ = new QPushButton;
    lockIn_->setObjectName(QStringLiteral("labLockIn"));
    skipPredict_ = new QPushButton;
    skipPredict_->setObjectName(QStringLiteral("labSkipPrediction"));
    predictButtons->addWidget(lockIn_);
    predictButtons->addWidget(skipPredict_);
    predictButtons->addStretch(1);
    predictLayout->addLayout(predictButtons);
    predictResult_ = new QLabel;
    predictResult_->setObjectName(QStringLiteral("labPredictResult"));
    predictResult_->setWordWrap(true);
    predictResult_->setTextFormat(Qt::RichText);
    predictLayout->addWidget(predictResult_);
    predict_->hide();
    rightLayout->addWidget(predict_);
    connect(predictGroup_, &QButtonGroup::buttonClicked, this, [this] { updateButtons(); });
    connect(lockIn_, &QPushButton::clicked, this, [this] {
        const auto* chosen = predictGroup_->checkedButton();
        if (!chosen || !session_->needsPrediction()) return;
        session_->lockPrediction(chosen->property("value").toString());
        session_->step(); // the answer is locked in: the real step runs
        updatePrediction();
        updateButtons();
    });
    connect(skipPredict_, &QPushButton::clicked, this, [this] {
        session_->skipPrediction();
        session_->step();
        updatePrediction();
        updateButtons();
    });

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
    rightLayout->addWidget(runSplitter, 1);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({420, 860});
    runSplitter->setSizes({260, 600});
    detail->setSizes({380, 220});
    setCentralWidget(splitter);

    status_ = new QLabel;
    status_->setObjectName(QStringLiteral("labStatus"));
    statusBar()->addWidget(status_, 1);

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
    updateButtons();
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
    while (parameterForm_->rowCount() > 0)
        parameterForm_->removeRow(0);
    parameterEdits_.clear();
    if (!lab) return;
    selectedId_ = qs(lab->id);
    // The engine finds the curriculum's labs by id; a lab from elsewhere (the user's folder, Open lab…) by
    // its file.
    const QString file = QFileInfo(qs(lab->file)).absoluteFilePath();
    selectedFile_ = file;
    troubleshoot_->setVisible(lab->troubleshooting());
    selectedLab_ = file.startsWith(curriculum_ + QLatin1Char('/')) ? selectedId_ : file;
    const std::string language = options_.language.toStdString();
    QStringList objectives;
    for (const auto& o : lab->objectives)
        objectives << QStringLiteral("<li>%1</li>").arg(qs(o.get(language)).toHtmlEscaped());
    header_->setText(QStringLiteral("<h3>%1</h3><p>%2 · %3 · %4</p><ul>%5</ul>")
                         .arg(qs(lab->title.get(language)).toHtmlEscaped(),
                              tr("chapter %1").arg(lab->chapter), LabCatalog::levelName(qs(lab->level)),
                              tr("%1 minutes").arg(lab->minutes), objectives.join(QString())));
    for (const auto& p : lab->parameters) {
        auto* edit = new QLineEdit;
        edit->setObjectName(QStringLiteral("labParameter_") + qs(p.name));
        edit->setProperty("parameter", qs(p.name));
        edit->setPlaceholderText(defaultText(p.default_value));
        QString range;
        if (p.min && p.max) range = tr(" (%1 to %2)").arg(*p.min).arg(*p.max);
        if (!p.choices.empty()) {
            QStringList choices;
            for (const auto& c : p.choices)
                choices << qs(c);
            range = tr(" (one of %1)").arg(choices.join(QStringLiteral(", ")));
        }
        edit->setToolTip(qs(p.text.get(language)) + range);
        parameterForm_->addRow(qs(p.name), edit);
        parameterEdits_ << edit;
    }
    updateButtons();
}

void LabWindow::startSelected() {
    if (selectedId_.isEmpty() || session_->busy()) return;
    QMap<QString, QString> values;
    for (auto* edit : parameterEdits_)
        if (!edit->text().trimmed().isEmpty())
            values[edit->property("parameter").toString()] = edit->text().trimmed();
    stepText_->clear();
    verdicts_->clear();
    status_->setText(tr("Preparing %1 on the device…").arg(selectedId_));
    autosave_.restart(); // a new run, a new file
    session_->start(selectedLab_, values, options_.language, seed_->text().trimmed());
    updateButtons();
}

void LabWindow::catchUp() {
    catchUpTimer_->stop();
    steps_->setUpdatesEnabled(true);
    if (!unshownEvents_.empty()) {
        std::vector<TraceEvent> events;
        events.swap(unshownEvents_);
        stage_->showEvents(events, session_->state());
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

void LabWindow::showStep(int index) {
    verdicts_->clear();
    stepText_->clear();
    if (index < 0 || index >= session_->rowCount()) return;
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
            verdicts_, {verdictMark(v.verdict), v.kind + QStringLiteral(": ") + v.description, v.observed});
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
    step_->setEnabled(running && !busy && !session_->playing() && !session_->needsPrediction());
    lockIn_->setEnabled(session_->needsPrediction() && !busy && predictGroup_->checkedButton());
    skipPredict_->setEnabled(session_->needsPrediction() && !busy);
    play_->setEnabled(running);
    play_->setText(session_->playing() ? tr("❚❚ Pause") : tr("▶ Play"));
    reset_->setEnabled(session_->started() && !busy);
    export_->setEnabled(session_->started() && !busy);
    if (session_->started())
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
            defaults[qs(p.name)] = defaultText(p.default_value);
    return writeLabReport(path, *session_, defaults);
}

void LabWindow::updatePrediction() {
    const bool open = session_->needsPrediction();
    const int next = session_->nextStep();
    if (open && predictShown_ != next) {
        // A new question: fresh choices.
        const auto& p = session_->row(next).prediction;
        for (auto* b : predictGroup_->buttons()) {
            predictGroup_->removeButton(b);
            delete b;
        }
        for (const auto& c : p.choices) {
            auto* radio = new QRadioButton(c.text);
            radio->setObjectName(QStringLiteral("labPredictChoice_") + c.value);
            radio->setProperty("value", c.value);
            predictGroup_->addButton(radio);
            predictChoices_->layout()->addWidget(radio);
        }
        predictQuestion_->setText(tr("Step %1 · %2").arg(next + 1).arg(p.question));
        predictShown_ = next;
    }
    predictQuestion_->setVisible(open);
    predictChoices_->setVisible(open);
    lockIn_->setVisible(open);
    skipPredict_->setVisible(open);
    // The verdict on the last prediction, until the next step runs.
    QString verdict;
    if (lastPredicted_ >= 0 && lastPredicted_ == next - 1) {
        const auto& p = session_->row(lastPredicted_).prediction;
        if (p.marked())
            verdict =
                (p.right() ? tr("<b style='color:#1b6e20'>✓ Right.</b> You predicted “%1”; the device did "
                                "exactly that.")
                                 .arg(p.choiceText(p.chosen).toHtmlEscaped())
                           : tr("<b style='color:#b00020'>✗ Not what happened.</b> You predicted “%1”; "
                                "the device did “%2”.")
                                 .arg(p.choiceText(p.chosen).toHtmlEscaped(),
                                      p.choiceText(p.answer).toHtmlEscaped()));
        else if (!p.answer.isEmpty())
            verdict =
                tr("No prediction made. The device did “%1”.").arg(p.choiceText(p.answer).toHtmlEscaped());
        if (!verdict.isEmpty() && !p.why.isEmpty()) verdict += QStringLiteral("<br>") + p.why.toHtmlEscaped();
        if (!verdict.isEmpty())
            verdict = tr("Step %1 · %2").arg(lastPredicted_ + 1).arg(p.question.toHtmlEscaped()) +
                      QStringLiteral("<br>") + verdict;
    }
    predictResult_->setText(verdict);
    predictResult_->setVisible(!verdict.isEmpty());
    predict_->setVisible(open || !verdict.isEmpty());
}

void LabWindow::buildQuestions() {
    QTabWidget* pictures = stage_->tabs();
    if (auto* old = findChild<QScrollArea*>(QStringLiteral("labQuestions"))) {
        pictures->removeTab(pictures->indexOf(old));
        old->deleteLater();
    }
    const auto& questions = session_->questions();
    if (questions.empty()) return;
    auto* area = new QScrollArea;
    area->setObjectName(QStringLiteral("labQuestions"));
    area->setWidgetResizable(true);
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    for (int i = 0; i < static_cast<int>(questions.size()); ++i) {
        const auto& q = questions[static_cast<std::size_t>(i)];
        auto* box = new QGroupBox(tr("Question %1").arg(i + 1));
        auto* boxLayout = new QVBoxLayout(box);
        auto* text = new QLabel(q.text + (q.multiple ? tr(" (tick every right answer)") : QString()));
        text->setWordWrap(true);
        boxLayout->addWidget(text);
        auto* group = new QButtonGroup(box);
        group->setExclusive(!q.multiple);
        for (int c = 0; c < q.choices.size(); ++c) {
            QAbstractButton* choice = q.multiple
                                          ? static_cast<QAbstractButton*>(new QCheckBox(q.choices.at(c)))
                                          : new QRadioButton(q.choices.at(c));
            choice->setObjectName(QStringLiteral("labQuestion%1Choice%2").arg(i + 1).arg(c + 1));
            group->addButton(choice, c);
            boxLayout->addWidget(choice);
        }
        auto* check = new QPushButton(tr("Check my answer"));
        check->setObjectName(QStringLiteral("labQuestion%1Check").arg(i + 1));
        check->setEnabled(false); // after the last step
        boxLayout->addWidget(check, 0, Qt::AlignLeft);
        auto* result = new QLabel;
        result->setObjectName(QStringLiteral("labQuestion%1Result").arg(i + 1));
        result->setWordWrap(true);
        result->setTextFormat(Qt::RichText);
        result->hide();
        boxLayout->addWidget(result);
        connect(check, &QPushButton::clicked, this, [this, i] { checkQuestion(i); });
        layout->addWidget(box);
    }
    layout->addStretch(1);
    area->setWidget(page);
    pictures->addTab(area, tr("Questions (%1)").arg(questions.size()));
}

void LabWindow::checkQuestion(int index) {
    auto* check = findChild<QPushButton*>(QStringLiteral("labQuestion%1Check").arg(index + 1));
    auto* result = findChild<QLabel*>(QStringLiteral("labQuestion%1Result").arg(index + 1));
    if (!check || !result) return;
    QList<int> chosen;
    const auto& q = session_->questions().at(static_cast<std::size_t>(index));
    for (int c = 0; c < q.choices.size(); ++c)
        if (auto* b = findChild<QAbstractButton*>(
                QStringLiteral("labQuestion%1Choice%2").arg(index + 1).arg(c + 1));
            b && b->isChecked())
            chosen << c;
    if (chosen.isEmpty()) {
        result->setText(tr("Choose an answer first."));
        result->show();
        return;
    }
    const bool right = session_->answerQuestion(index, chosen);
    QStringList rightChoices;
    for (const int c : q.correct)
        rightChoices << q.choices.at(c).toHtmlEscaped();
    QString text = right ? tr("<b style='color:#1b6e20'>✓ Right.</b>")
                         : tr("<b style='color:#b00020'>✗ Not quite.</b> The right answer: %1.")
                               .arg(rightChoices.join(QStringLiteral("; ")));
    if (!q.explanation.isEmpty()) text += QStringLiteral("<br>") + q.explanation.toHtmlEscaped();
    result->setText(text);
    result->show();
    check->setEnabled(false);
    for (int c = 0; c < q.choices.size(); ++c)
        if (auto* b = findChild<QAbstractButton*>(
                QStringLiteral("labQuestion%1Choice%2").arg(index + 1).arg(c + 1)))
            b->setEnabled(false);
    recordProgress();
}

void LabWindow::recordProgress() {
    if (!session_->done() || session_->labId().isEmpty()) return;
    catalog_->setProgress(session_->labId(), session_->allHeld(), session_->heldCount(),
                          session_->brokenCount());
    catalog_->setAnswers(session_->labId(), session_->predictionsRight(), session_->predictionsMade(),
                         session_->questionsRight(), static_cast<int>(session_->questions().size()));
}

void LabWindow::showLoadErrors() {
    const QStringList& errors = catalog_->errors();
    errors_->setVisible(!errors.isEmpty());
    errorList_->setVisible(!errors.isEmpty());
    errors_->setText(tr("These lab files did not load (%1):").arg(errors.size()));
    constexpr int kShown = 500; // enough to find one's own; the rest are counted
    errorList_->clear();
    for (int i = 0; i < std::min<int>(kShown, static_cast<int>(errors.size())); ++i)
        errorList_->addItem(errors.at(i));
    if (errors.size() > kShown) errorList_->addItem(tr("… and %1 more").arg(errors.size() - kShown));
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
        for (int i = 1; auto* check = findChild<QPushButton*>(QStringLiteral("labQuestion%1Check").arg(i));
             ++i)
            check->setEnabled(true);
        if (!options_.autoplay)
            if (auto* questions = findChild<QScrollArea*>(QStringLiteral("labQuestions")))
                stage_->tabs()->setCurrentWidget(questions);
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
    if (selectedId_.isEmpty()) header_->setText(tr("Choose a lab on the left."));
    seed_->setPlaceholderText(tr("a name or number: varying parameters are drawn from it"));
    seed_->setToolTip(tr("Per-student variation: the same seed always gives the same values, a neighbour's "
                         "seed others. Values typed above still win."));
    if (auto* student = findChild<QLabel*>(QStringLiteral("labStudentLabel")))
        student->setText(tr("Student"));
    start_->setText(tr("Start"));
    step_->setText(tr("Step ▷"));
    reset_->setText(tr("⟲ Reset"));
    export_->setText(tr("Export report…"));
    predict_->setTitle(tr("Predict first"));
    troubleshoot_->setText(tr("Fix it yourself in the workbench…"));
    troubleshoot_->setToolTip(
        tr("Builds this lab's broken set-up in the workbench; find what is wrong, fix it, "
           "and let the lab check your fix. Start here runs the reference fix instead."));
    lockIn_->setText(tr("Lock in and run ▷"));
    skipPredict_->setText(tr("Skip"));
    skipPredict_->setToolTip(tr("Run the step without a prediction (it counts as not made)"));
    export_->setToolTip(tr("Write an HTML report of this run: device, date, parameters, every step and "
                           "expectation, and the trace"));
    verdicts_->setHeaderLabels({tr("Verdict"), tr("Expectation"), tr("Observed")});
    // The stage names its own tabs; the questions' tab is this window's.
    if (auto* questions = findChild<QScrollArea*>(QStringLiteral("labQuestions")))
        stage_->tabs()->setTabText(stage_->tabs()->indexOf(questions),
                                   tr("Questions (%1)").arg(session_->questions().size()));
    showLoadErrors();
    updateButtons();
}

} // namespace rdmalab::app
