#include "workbenchwindow.h"

#include "language.h"

#include "engineclient.h"
#include "headlessrun.h"
#include "labcatalog.h"
#include "labstage/labstage.h"
#include "projectorlayout.h"
#include "savefile.h"
#include "verbscode.h"
#include "windowparts.h"
#include "workbenchcontrols.h"
#include "workbenchsession.h"

#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <cstdio>

#include <utility>

namespace rdmalab::app {

namespace {

QString preview(const QByteArray& bytes) {
    QString printable;
    for (const char c : bytes.left(24))
        printable += (c >= 0x20 && c < 0x7f) ? QChar::fromLatin1(c) : QChar(u'·');
    return QStringLiteral("%1 “%2”").arg(QString::fromLatin1(bytes.left(12).toHex(' ')), printable);
}

} // namespace

WorkbenchWindow::WorkbenchWindow(const WorkbenchWindowOptions& options, QWidget* parent)
    : QMainWindow(parent), options_(options), engine_(new EngineClient(this)),
      session_(new WorkbenchSession(engine_, this)), headless_(new HeadlessRun(1, this)) {
    setObjectName(QStringLiteral("workbenchWindow"));
    headless_->setQuitWhenDone(options_.quitWhenDone);
    if (!options_.engineProgram.isEmpty()) engine_->setProgram(options_.engineProgram);
    if (!options_.troubleshoot.isEmpty()) {
        labs::LabError error;
        if (const auto lab = labs::load_lab(options_.troubleshoot.toStdString(), error))
            trouble_ = labs::troubleshooting_steps(*lab, {}, error);
        if (!trouble_) troubleError_ = QString::fromStdString(error.to_string());
    }
    buildUi();
    auto* viewMenu = menuBar()->addMenu(QString());
    viewMenu->setObjectName(QStringLiteral("workbenchViewMenu"));
    // F5: the picture for a class, large (a workbench has no steps to play: its keys only zoom).
    projector_ = new ProjectorLayout(this, stage_, {});
    projector_->addAction(viewMenu);
    viewMenu->addSeparator();
    Language::instance()->addMenu(viewMenu);
    // The engine's texts (the steps' results) come in the language the session started with; the next
    // Reset all starts it again in the new one.
    connect(Language::instance(), &Language::changed, this,
            [this](const QString& language) { options_.language = language; });
    retranslateUi();
    connect(engine_, &EngineClient::started, this, [this] {
        engineReady_ = true;
        autosave_.restart(); // a new engine, a new session and file
        session_->start(options_.language);
    });
    connect(engine_, &EngineClient::engineDied, this, [this](const QString& message) {
        engineReady_ = false;
        setNotice(message);
        refresh();
        finishHeadless(false);
    });
    connect(session_, &WorkbenchSession::sessionStarted, this, [this] {
        if (trouble_) setUpTroubleshooting();
        refresh();
        if (!trouble_) finishHeadless(true);
    });
    connect(session_, &WorkbenchSession::idle, this, [this] {
        if (firstCheckRow_ >= 0) onChecksDone();
        refresh();
        if (trouble_) finishHeadless(session_->started()); // the broken set-up is built
    });
    connect(session_, &WorkbenchSession::eventsApplied, this, &WorkbenchWindow::onEvents);
    connect(session_, &WorkbenchSession::eventsRecorded, this, [this](const std::vector<TraceEvent>& events) {
        if (autosave_.failed() || autosave_.append(events)) return; // a failure is reported once
        setNotice(tr("Autosave failed: %1. This session is kept in memory only: save it as a lab before you "
                     "close the window.")
                      .arg(autosave_.error()));
        std::fprintf(stderr, "rdmalab: autosave failed: %s\n", qPrintable(autosave_.error()));
    });
    connect(session_, &WorkbenchSession::stepFinished, this, [this](int index) {
        steps_->setCurrentIndex(session_->index(index));
        showRow(index);
        refresh();
    });
    connect(session_, &WorkbenchSession::sessionReset, this, [this] {
        stage_->clear(session_->state());
        detail_->clear();
        refresh();
    });
    connect(session_, &WorkbenchSession::failed, this, [this](const QString& message) {
        setNotice(tr("Failed: %1").arg(message));
        if (!session_->started()) finishHeadless(false); // e.g. no RDMA device where the engine runs
    });
    connect(session_, &WorkbenchSession::saved, this, [this](const QString& yaml) {
        if (const QString error = writeFileAtomically(savePath_, yaml.toUtf8()); !error.isEmpty()) {
            setNotice(error);
            return;
        }
        setNotice(tr("Saved the session as the lab %1 (rdmalab-cli lab run %1 replays it).").arg(savePath_));
        emit labSaved(savePath_);
    });
    engine_->start();
    fitToScreen(this, QSize(1280, 800));
    if (options_.presentation) projector_->set(true);
}

WorkbenchWindow::~WorkbenchWindow() {
    // The engine client and the session are children, destroyed after this window's members: their last
    // signals (the engine stopping) must not reach a window that is no longer one.
    disconnect(engine_, nullptr, this, nullptr);
    disconnect(session_, nullptr, this, nullptr);
}

void WorkbenchWindow::buildUi() {
    auto* controls = new QWidget;
    auto* column = new QVBoxLayout(controls);
    if (trouble_ || !troubleError_.isEmpty()) column->addWidget(buildTaskGroup());
    controls_ = new WorkbenchControls;
    column->addWidget(controls_);
    auto* bottom = new QHBoxLayout;
    reset_ = makeButton(tr("Reset all"), QStringLiteral("resetAll"));
    reset_->setToolTip(tr("Destroys every object (QPs, CQs, regions, PDs, device), children first"));
    save_ = makeButton(tr("Save as lab…"), QStringLiteral("saveLab"));
    save_->setToolTip(
        tr("Writes the steps done since the last reset as a lab file; its expectations are what "
           "the device did"));
    bottom->addWidget(reset_);
    bottom->addWidget(save_);
    column->addLayout(bottom);
    labTitle_ = new QLineEdit(tr("My workbench lab"));
    labTitle_->setObjectName(QStringLiteral("labTitle"));
    auto* titleRow = new QFormLayout;
    titleRow->addRow(tr("Lab title"), labTitle_);
    column->addLayout(titleRow);
    column->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidget(controls);
    scroll->setWidgetResizable(true);
    scroll->setMinimumWidth(360);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    stage_ = new LabStage(LabStage::Arrangement::PictureAboveState);
    snapshot_ = new QLabel;
    snapshot_->setObjectName(QStringLiteral("workbenchSnapshot"));
    snapshot_->setWordWrap(true);
    snapshot_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    steps_ = new QListView;
    steps_->setObjectName(QStringLiteral("workbenchSteps"));
    steps_->setModel(session_);
    detail_ = new QTextBrowser;
    detail_->setObjectName(QStringLiteral("workbenchDetail"));
    auto* log = new QSplitter(Qt::Horizontal);
    log->addWidget(steps_);
    log->addWidget(detail_);
    log->setStretchFactor(0, 1);
    log->setStretchFactor(1, 1);
    // Below the stage's views, in its splitter: the snapshot and the step log share the height with them.
    QSplitter* right = stage_->splitter();
    right->addWidget(snapshot_);
    right->addWidget(log);
    right->setStretchFactor(3, 2);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(scroll);
    split->addWidget(stage_);
    split->setStretchFactor(1, 1);
    setCentralWidget(split);
    status_ = new QLabel(tr("Starting the engine…"));
    status_->setObjectName(QStringLiteral("workbenchStatus"));
    statusBar()->addWidget(status_, 1);

    connect(controls_, &WorkbenchControls::pairWanted, this, &WorkbenchWindow::buildPair);
    connect(controls_, &WorkbenchControls::stepWanted, this, [this](const nlohmann::json& step) {
        notice_.clear();
        session_->perform({step});
    });
    connect(controls_, &WorkbenchControls::refused, this, &WorkbenchWindow::setNotice);
    connect(reset_, &QPushButton::clicked, this, &WorkbenchWindow::resetAll);
    connect(save_, &QPushButton::clicked, this, &WorkbenchWindow::chooseSaveFile);
    connect(steps_, &QListView::clicked, this, [this](const QModelIndex& index) { showRow(index.row()); });
    refresh();
}

QWidget* WorkbenchWindow::buildTaskGroup() {
    auto* box = new QGroupBox;
    box->setObjectName(QStringLiteral("workbenchTask"));
    auto* layout = new QVBoxLayout(box);
    taskText_ = new QLabel;
    taskText_->setObjectName(QStringLiteral("workbenchTaskText"));
    taskText_->setWordWrap(true);
    taskText_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(taskText_);
    auto* row = new QHBoxLayout;
    check_ = makeButton(QString(), QStringLiteral("workbenchCheck"));
    setUpAgain_ = makeButton(QString(), QStringLiteral("workbenchSetUpAgain"));
    row->addWidget(check_);
    row->addWidget(setUpAgain_);
    applySolution_ = makeButton(QString(), QStringLiteral("workbenchApplySolution"));
    row->addWidget(applySolution_);
    row->addStretch(1);
    layout->addLayout(row);
    checkResult_ = new QLabel;
    checkResult_->setObjectName(QStringLiteral("workbenchCheckResult"));
    checkResult_->setWordWrap(true);
    checkResult_->setTextFormat(Qt::RichText);
    checkResult_->hide();
    layout->addWidget(checkResult_);
    connect(check_, &QPushButton::clicked, this, &WorkbenchWindow::checkFix);
    connect(setUpAgain_, &QPushButton::clicked, this, &WorkbenchWindow::setUpTroubleshooting);
    connect(applySolution_, &QPushButton::clicked, this, &WorkbenchWindow::applySolution);
    return box;
}

void WorkbenchWindow::setUpTroubleshooting() {
    if (!trouble_ || session_->busy()) return;
    notice_.clear();
    checkResult_->hide();
    firstCheckRow_ = -1;
    if (session_->size() > 0) session_->reset();
    session_->perform(trouble_->setup);
}

void WorkbenchWindow::checkFix() {
    if (!trouble_ || session_->busy() || !session_->started()) return;
    ++checkAttempt_;
    std::vector<nlohmann::json> checks = trouble_->checks_for_attempt(checkAttempt_);
    firstCheckRow_ = session_->size();
    checkResult_->setText(tr("Checking…"));
    checkResult_->show();
    session_->perform(std::move(checks));
}

void WorkbenchWindow::applySolution() {
    if (!trouble_ || session_->busy() || !session_->started()) return;
    checkResult_->hide();
    session_->perform(trouble_->solution_for_attempt(++solutionAttempt_));
}

void WorkbenchWindow::onChecksDone() {
    const int first = std::exchange(firstCheckRow_, -1);
    const int expected = static_cast<int>(trouble_->checks.size());
    int held = 0;
    QStringList problems;
    for (int i = first; i < session_->size(); ++i) {
        const auto& row = session_->row(i);
        held += row.held;
        problems << row.broken;
        if (row.state != QLatin1String("done") && !row.error.isEmpty()) problems << row.error;
    }
    const bool ran = session_->size() - first == expected;
    const bool fixed = ran && problems.isEmpty();
    QString summary;
    if (fixed) {
        summary = tr("<b style='color:#1b6e20'>✓ Fixed.</b> Every check held (%1).").arg(held);
    } else {
        summary = tr("<b style='color:#b00020'>✗ Not yet.</b> %1 of the lab's %2 check steps ran; what did "
                     "not hold:")
                      .arg(session_->size() - first)
                      .arg(expected);
        summary += QStringLiteral("<ul>");
        for (const auto& p : problems)
            summary += QStringLiteral("<li>%1</li>").arg(p.toHtmlEscaped());
        summary += QStringLiteral("</ul>");
    }
    checkResult_->setText(summary);
    checkResult_->show();
    emit fixChecked(fixed, summary);
}

void WorkbenchWindow::finishHeadless(bool started) {
    if ((options_.screenshot.isEmpty() && !options_.quitWhenDone) || headless_->finished()) return;
    if (!started) std::fprintf(stderr, "rdmalab: %s\n", qPrintable(status_->text()));
    headless_->finish(started, [this] {
        return options_.screenshot.isEmpty() || saveScreenshot(grab().toImage(), options_.screenshot);
    });
}

void WorkbenchWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange && status_) retranslateUi();
    QMainWindow::changeEvent(event);
}

void WorkbenchWindow::retranslateUi() {
    setWindowTitle(tr("rdmalab — Workbench"));
    if (auto* task = findChild<QGroupBox*>(QStringLiteral("workbenchTask"))) {
        if (trouble_) {
            const std::string language = options_.language.toStdString();
            const auto text = [&](const char* key) {
                const auto it = trouble_->turn.find(key);
                if (it == trouble_->turn.end() || !it->is_object()) return QString();
                return QString::fromStdString(it->value(language, it->value("en", std::string())));
            };
            task->setTitle(tr("Troubleshooting: %1").arg(text("title")));
            taskText_->setText(text("text"));
        } else {
            task->setTitle(tr("Troubleshooting"));
            taskText_->setText(tr("This troubleshooting lab did not load: %1").arg(troubleError_));
        }
        check_->setText(tr("Check my fix"));
        check_->setToolTip(tr("Runs the lab's checks on the objects as they are now: they judge the result, "
                              "not the path to it"));
        setUpAgain_->setText(tr("Set up again"));
        setUpAgain_->setToolTip(tr("Tears everything down and builds the lab's broken set-up again"));
        applySolution_->setText(tr("Apply the lab's fix"));
        applySolution_->setToolTip(
            tr("Performs the lab's own fix on the device, one real call per step, each "
               "drawn with its explanation (for a demonstration; then Check my fix)"));
    }
    if (auto* menu = findChild<QMenu*>(QStringLiteral("workbenchViewMenu"))) menu->setTitle(tr("&View"));
    reset_->setText(tr("Reset all"));
    reset_->setToolTip(tr("Destroys every object (QPs, CQs, regions, PDs, device), children first"));
    save_->setText(tr("Save as lab…"));
    save_->setToolTip(
        tr("Writes the steps done since the last reset as a lab file; its expectations are what "
           "the device did"));
    setRowLabel(labTitle_, tr("Lab title"));
    if (!engineReady_ && notice_.isEmpty()) status_->setText(tr("Starting the engine…"));
    refresh();
    if (steps_->currentIndex().isValid()) showRow(steps_->currentIndex().row());
}

void WorkbenchWindow::buildPair(const std::vector<nlohmann::json>& steps) {
    notice_.clear();
    if (session_->size() > 0) session_->reset();
    session_->perform(steps);
    refresh();
}

void WorkbenchWindow::setNotice(const QString& text) {
    notice_ = text;
    status_->setText(text);
}

void WorkbenchWindow::resetAll() {
    notice_.clear();
    session_->reset();
    refresh();
}

void WorkbenchWindow::chooseSaveFile() {
    QDir().mkpath(LabCatalog::userLabDirectory());
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save the session as a lab"),
        LabCatalog::userLabDirectory() + QStringLiteral("/my-lab.yaml"), tr("Lab files (*.yaml)"));
    if (!path.isEmpty()) saveAsLab(path);
}

void WorkbenchWindow::saveAsLab(const QString& path) {
    savePath_ = path;
    // A lab id is [a-z0-9][a-z0-9_-]*: the file's base name, lower case, other characters as '-'.
    QString id = QFileInfo(path).completeBaseName().toLower();
    for (QChar& c : id)
        if (!(c.isDigit() || (c >= QLatin1Char('a') && c <= QLatin1Char('z')) || c == QLatin1Char('_')))
            c = QLatin1Char('-');
    if (id.isEmpty() || !id.at(0).isLetterOrNumber()) id.prepend(QLatin1Char('w'));
    session_->save(id, labTitle_->text().trimmed().isEmpty() ? id : labTitle_->text().trimmed(), 1);
}

void WorkbenchWindow::onEvents(const std::vector<TraceEvent>& events) {
    const auto& state = session_->state();
    stage_->showEvents(events, state);
}

void WorkbenchWindow::showRow(int index) {
    if (index < 0 || index >= session_->size()) return;
    const auto& r = session_->row(index);
    QString html = QStringLiteral("<h3>%1</h3>").arg(r.description.toHtmlEscaped());
    if (r.state == QLatin1String("refused"))
        html += tr("<p><b>Refused before it reached the device</b> (the step is not valid here):</p>");
    else if (r.state == QLatin1String("failed"))
        html += tr("<p><b>The verb failed</b>:</p>");
    if (!r.error.isEmpty()) html += QStringLiteral("<pre>%1</pre>").arg(r.error.toHtmlEscaped());
    QStringList results;
    for (auto it = r.results.begin(); it != r.results.end(); ++it)
        if (it.key() != QLatin1String("error") && it.key() != QLatin1String("errno") &&
            it.key() != QLatin1String("dur_ns"))
            results << QStringLiteral("%1 = %2").arg(it.key(), it.value().toHtmlEscaped());
    if (!results.isEmpty()) html += tr("<p><b>Results:</b> %1</p>").arg(results.join(QStringLiteral(" · ")));
    QStringList code;
    for (const auto& e : r.events)
        if (const QString c = verbsCode(e); !c.isEmpty()) code << c;
    if (!code.isEmpty())
        html += tr("<p><b>The verbs calls, as C:</b></p>") +
                QStringLiteral("<pre>%1</pre>").arg(code.join(QStringLiteral("\n")).toHtmlEscaped());
    detail_->setHtml(html);
}

void WorkbenchWindow::refresh() {
    const bool ready = engineReady_ && session_->started() && !session_->busy();
    const bool havePair = session_->objects().contains(QStringLiteral("B.qp"));
    controls_->setReady(ready, havePair);
    reset_->setEnabled(ready && session_->size() > 0);
    if (check_) {
        check_->setEnabled(ready && trouble_.has_value());
        setUpAgain_->setEnabled(ready && trouble_.has_value());
        applySolution_->setEnabled(ready && trouble_.has_value());
    }
    save_->setEnabled(ready && session_->size() > 0);
    QStringList parts;
    const auto states = session_->qpStates();
    for (auto it = states.begin(); it != states.end(); ++it)
        parts << QStringLiteral("%1 %2").arg(it.key(), it.value().toUpper());
    const auto bytes = session_->regionBytes();
    for (auto it = bytes.begin(); it != bytes.end(); ++it)
        parts << QStringLiteral("%1: %2").arg(it.key(), preview(it.value()));
    snapshot_->setText(parts.isEmpty()
                           ? tr("Build the pair to start.")
                           : tr("After the last step (ibv_query_qp, the regions' first bytes): %1")
                                 .arg(parts.join(QStringLiteral(" · "))));
    if (!engineReady_) return;
    QString device;
    for (int i = 0; i < session_->size(); ++i)
        if (session_->row(i).action == QLatin1String("open_device") &&
            session_->row(i).results.contains(QStringLiteral("name"))) {
            const auto& results = session_->row(i).results;
            device =
                results.value(QStringLiteral("software")) == QLatin1String("yes")
                    ? tr("%1 (SoftRoCE: software, in the kernel)").arg(results.value(QStringLiteral("name")))
                    : results.value(QStringLiteral("name"));
        }
    if (!notice_.isEmpty())
        status_->setText(notice_);
    else if (session_->busy())
        status_->setText(tr("Working on the device…"));
    else if (session_->started())
        status_->setText(
            device.isEmpty()
                ? tr("Workbench ready: build the pair.")
                : tr("%1 · %n step(s) since the last reset", nullptr, session_->size()).arg(device));
}

} // namespace rdmalab::app
