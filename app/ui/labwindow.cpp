#include "labwindow.h"

#include "datapath/datapathview.h"
#include "language.h"

#include "engineclient.h"
#include "headlessrun.h"
#include "labcatalog.h"
#include "labreport.h"
#include "labsession.h"
#include "memoryview.h"
#include "qpstateview.h"
#include "windowparts.h"

#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cstdio>

namespace rdmalab::app {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

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
    connect(session_, &LabSession::labStarted, this, [this] {
        updateButtons();
        if (options_.autoplay) session_->play();
    });
    connect(session_, &LabSession::stepFinished, this, [this](int index) {
        steps_->setCurrentIndex(session_->index(index));
        showStep(index);
        updateButtons();
    });
    connect(session_, &LabSession::finished, this, &LabWindow::onFinished);
    connect(session_, &LabSession::labStarted, this, [this] {
        dataPath_->resetScene();
        qpView_->setState(session_->state());
        memoryView_->setState(session_->state());
    });
    connect(session_, &LabSession::eventsApplied, this, [this](const std::vector<TraceEvent>& events) {
        dataPath_->showEvents(events, session_->state());
        qpView_->setState(session_->state());
        memoryView_->setState(session_->state());
    });
    connect(session_, &LabSession::failed, this, [this](const QString& message) {
        status_->setText(tr("Failed: %1").arg(message));
        updateButtons();
        if (options_.autoplay) onFinished(false);
    });
    headless_->setQuitWhenDone(options_.quitWhenDone);
    connect(headless_, &HeadlessRun::deadlinePassed, this, [this] { onFinished(false); });
    if (options_.autoplay)
        headless_->armDeadline(30 * 60 * 1000, QStringLiteral("the lab did not end within 30 minutes"));
    // A lab starts once the engine process runs (commands sent before are refused).
    connect(engine_, &EngineClient::started, this, [this] {
        engineReady_ = true;
        if (options_.autoplay && !selectedId_.isEmpty() && !session_->started()) startSelected();
        updateButtons();
    });
    connect(engine_, &EngineClient::engineDied, this, [this](const QString& message) {
        engineReady_ = false;
        status_->setText(message);
        updateButtons();
        if (options_.autoplay) onFinished(false);
    });
    engine_->start();
    if (!options_.lab.isEmpty()) {
        if (!selectLab(options_.lab)) {
            status_->setText(tr("No lab '%1' in %2 or %3").arg(options_.lab, curriculum, user));
            if (options_.autoplay) onFinished(false);
        }
    }
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
    if (catalog_->errors().isEmpty()) {
        errors_->hide();
    } else {
        errors_->setText(
            tr("These lab files did not load:\n%1").arg(catalog_->errors().join(QLatin1Char('\n'))));
    }
    leftLayout->addWidget(errors_);
    splitter->addWidget(left);

    // The lab: its description, parameters and controls; its steps; the selected step.
    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
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
    for (auto* b : {start_, step_, play_, reset_, export_})
        buttons->addWidget(b);
    buttons->addStretch(1);
    rightLayout->addLayout(buttons);

    auto* runSplitter = new QSplitter(Qt::Horizontal);
    steps_ = new QListView;
    steps_->setObjectName(QStringLiteral("labSteps"));
    steps_->setModel(session_);
    runSplitter->addWidget(steps_);
    auto* detail = new QSplitter(Qt::Vertical);
    // The step as the device did it: drawn from the run's events (observed solid, illustrated dashed).
    auto* pictures = new QTabWidget;
    pictures->setObjectName(QStringLiteral("labPictures"));
    dataPath_ = new DataPathView;
    // Headless runs screenshot the end of the lab: the final picture at once, not an animation behind.
    if (options_.autoplay) dataPath_->setAnimationSpeed(0);
    pictures->addTab(dataPath_, tr("Data path"));
    auto* objects = new QWidget;
    auto* objectsRow = new QHBoxLayout(objects);
    objectsRow->setContentsMargins(0, 0, 0, 0);
    qpView_ = new QpStateView;
    memoryView_ = new MemoryView;
    objectsRow->addWidget(qpView_, 1);
    objectsRow->addWidget(memoryView_, 1);
    pictures->addTab(objects, tr("QP states · memory"));
    detail->addWidget(pictures);
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
    connect(play_, &QPushButton::clicked, this, [this] {
        if (session_->playing())
            session_->pause();
        else
            session_->play();
        updateButtons();
    });
    connect(reset_, &QPushButton::clicked, this, [this] {
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
    session_->start(selectedId_, values, options_.language, seed_->text().trimmed());
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

void LabWindow::updateButtons() {
    const bool busy = session_->busy();
    const bool running = session_->started() && !session_->done();
    start_->setEnabled(engineReady_ && !selectedId_.isEmpty() && !busy);
    step_->setEnabled(running && !busy && !session_->playing());
    play_->setEnabled(running);
    play_->setText(session_->playing() ? tr("⏸ Pause") : tr("▶ Play"));
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

void LabWindow::onFinished(bool allHeld) {
    updateButtons();
    // A run that ended because the engine died or the deadline passed did not finish the lab.
    if (session_->done() && !session_->labId().isEmpty())
        catalog_->setProgress(session_->labId(), allHeld, session_->heldCount(), session_->brokenCount());
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
    export_->setToolTip(tr("Write an HTML report of this run: device, date, parameters, every step and "
                           "expectation, and the trace"));
    verdicts_->setHeaderLabels({tr("Verdict"), tr("Expectation"), tr("Observed")});
    if (auto* pictures = findChild<QTabWidget*>(QStringLiteral("labPictures"))) {
        pictures->setTabText(0, tr("Data path"));
        pictures->setTabText(1, tr("QP states · memory"));
    }
    if (!catalog_->errors().isEmpty())
        errors_->setText(
            tr("These lab files did not load:\n%1").arg(catalog_->errors().join(QLatin1Char('\n'))));
    updateButtons();
}

} // namespace rdmalab::app
