#include "workbenchwindow.h"

#include "language.h"

#include "engineclient.h"
#include "labcatalog.h"
#include "labstage/labstage.h"
#include "savefile.h"
#include "verbscode.h"
#include "windowparts.h"
#include "workbenchsession.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <cstdio>

#include <utility>

namespace rdmalab::app {

namespace {

constexpr const char* kAccessFlags[] = {"local_write", "remote_write", "remote_read", "remote_atomic"};

QComboBox* sideBox(const QString& name, const QStringList& items) {
    auto* box = new QComboBox;
    box->setObjectName(name);
    box->addItems(items);
    return box;
}

QSpinBox* spinBox(const QString& name, int min, int max, int value) {
    auto* box = new QSpinBox;
    box->setObjectName(name);
    box->setRange(min, max);
    box->setValue(value);
    return box;
}

QPushButton* button(const QString& text, const QString& name) {
    auto* b = new QPushButton(text);
    b->setObjectName(name);
    return b;
}

/// "A.qp": an object of a side, as the lab steps name it.
std::string sideObject(const QString& side, const char* object) {
    return side.toStdString() + "." + object;
}

QString other(const QString& side) {
    return side == QLatin1String("A") ? QStringLiteral("B") : QStringLiteral("A");
}

/// A u64 as typed (decimal or 0x hex); nullopt when it is not one.
std::optional<std::uint64_t> u64(const QString& text) {
    bool ok = false;
    const auto v = text.trimmed().toULongLong(&ok, 0);
    return ok ? std::optional<std::uint64_t>(v) : std::nullopt;
}

QString preview(const QByteArray& bytes) {
    QString printable;
    for (const char c : bytes.left(24))
        printable += (c >= 0x20 && c < 0x7f) ? QChar::fromLatin1(c) : QChar(u'·');
    return QStringLiteral("%1 “%2”").arg(QString::fromLatin1(bytes.left(12).toHex(' ')), printable);
}

} // namespace

WorkbenchWindow::WorkbenchWindow(const WorkbenchWindowOptions& options, QWidget* parent)
    : QMainWindow(parent), options_(options), engine_(new EngineClient(this)),
      session_(new WorkbenchSession(engine_, this)) {
    setObjectName(QStringLiteral("workbenchWindow"));
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
    });
    connect(session_, &WorkbenchSession::sessionStarted, this, [this] {
        if (trouble_) setUpTroubleshooting();
        refresh();
    });
    connect(session_, &WorkbenchSession::idle, this, [this] {
        if (firstCheckRow_ >= 0) onChecksDone();
        refresh();
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
    connect(session_, &WorkbenchSession::failed, this,
            [this](const QString& message) { setNotice(tr("Failed: %1").arg(message)); });
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
}

WorkbenchWindow::~WorkbenchWindow() {
    // The engine client and the session are children, destroyed after this window's members: their last
    // signals (the engine stopping) must not reach a window that is no longer one.
    disconnect(engine_, nullptr, this, nullptr);
    disconnect(session_, nullptr, this, nullptr);
}

QString WorkbenchWindow::side(const QComboBox* box) {
    return box->currentIndex() == 0 ? QStringLiteral("A") : QStringLiteral("B");
}

void WorkbenchWindow::buildUi() {
    auto* controls = new QWidget;
    auto* column = new QVBoxLayout(controls);
    if (trouble_ || !troubleError_.isEmpty()) column->addWidget(buildTaskGroup());
    column->addWidget(buildPairGroup());
    column->addWidget(buildSendGroup());
    column->addWidget(buildReceiveGroup());
    column->addWidget(buildStateGroup());
    auto* bottom = new QHBoxLayout;
    reset_ = button(tr("Reset all"), QStringLiteral("resetAll"));
    reset_->setToolTip(tr("Destroys every object (QPs, CQs, regions, PDs, device), children first"));
    save_ = button(tr("Save as lab…"), QStringLiteral("saveLab"));
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

    connect(buildPair_, &QPushButton::clicked, this, &WorkbenchWindow::buildPair);
    connect(postSend_, &QPushButton::clicked, this, &WorkbenchWindow::postSend);
    connect(postRecv_, &QPushButton::clicked, this, &WorkbenchWindow::postReceive);
    connect(poll_, &QPushButton::clicked, this, &WorkbenchWindow::pollCq);
    connect(move_, &QPushButton::clicked, this, &WorkbenchWindow::moveQp);
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
    check_ = button(QString(), QStringLiteral("workbenchCheck"));
    setUpAgain_ = button(QString(), QStringLiteral("workbenchSetUpAgain"));
    row->addWidget(check_);
    row->addWidget(setUpAgain_);
    applySolution_ = button(QString(), QStringLiteral("workbenchApplySolution"));
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

QWidget* WorkbenchWindow::buildPairGroup() {
    auto* group = new QGroupBox;
    group->setObjectName(QStringLiteral("pairBox"));
    auto* form = new QFormLayout(group);
    transport_ = sideBox(QStringLiteral("transport"), {QStringLiteral("rc"), QStringLiteral("uc")});
    transport_->setToolTip(tr("RC: acknowledged, every opcode; UC: no ACKs, no READ and no atomics"));
    mtu_ = sideBox(QStringLiteral("mtu"),
                   {QStringLiteral("port"), QStringLiteral("256"), QStringLiteral("512"),
                    QStringLiteral("1024"), QStringLiteral("2048"), QStringLiteral("4096")});
    sizeA_ = spinBox(QStringLiteral("sizeA"), 1, 1 << 24, 64);
    sizeB_ = spinBox(QStringLiteral("sizeB"), 1, 1 << 24, 64);
    form->addRow(tr("Transport"), transport_);
    form->addRow(tr("Path MTU"), mtu_);
    form->addRow(tr("A's region (bytes)"), sizeA_);
    form->addRow(tr("B's region (bytes)"), sizeB_);
    for (const QString& s : {QStringLiteral("A"), QStringLiteral("B")}) {
        auto* flags = new QWidget;
        auto* grid = new QGridLayout(flags);
        grid->setContentsMargins(0, 0, 0, 0);
        auto& boxes = s == QLatin1String("A") ? accessA_ : accessB_;
        for (const char* flag : kAccessFlags) {
            auto* box = new QCheckBox(QString::fromLatin1(flag).replace(QLatin1Char('_'), QLatin1Char(' ')));
            box->setObjectName(QStringLiteral("access%1_%2").arg(s, QLatin1String(flag)));
            // A starts with LOCAL_WRITE only; B grants every remote right (uncheck one to see it refused).
            box->setChecked(s == QLatin1String("B") || QLatin1String(flag) == QLatin1String("local_write"));
            const int n = static_cast<int>(boxes.size());
            grid->addWidget(box, n / 2, n % 2);
            boxes.push_back(box);
        }
        form->addRow(tr("%1's access flags").arg(s), flags);
    }
    buildPair_ = button(tr("Build the pair"), QStringLiteral("buildPair"));
    buildPair_->setToolTip(tr("Opens the device; for A and B a PD, a region, a CQ and a QP; connects the QPs "
                              "(RESET → INIT → RTR → RTS). An existing pair is torn down first."));
    form->addRow(buildPair_);
    return group;
}

QWidget* WorkbenchWindow::buildSendGroup() {
    auto* group = new QGroupBox;
    group->setObjectName(QStringLiteral("sendBox"));
    auto* form = new QFormLayout(group);
    wrSide_ = sideBox(QStringLiteral("wrSide"), {tr("A → B"), tr("B → A")});
    opcode_ = sideBox(QStringLiteral("opcode"),
                      {QStringLiteral("send"), QStringLiteral("send_imm"), QStringLiteral("write"),
                       QStringLiteral("write_imm"), QStringLiteral("read"), QStringLiteral("cas"),
                       QStringLiteral("faa")});
    opcode_->setCurrentText(QStringLiteral("write"));
    sge_ = new QLineEdit(QStringLiteral("0"));
    sge_->setObjectName(QStringLiteral("sgeList"));
    sge_->setToolTip(tr("The scatter/gather list in the sender's region: OFFSET[:LENGTH], comma separated "
                        "(no length: to the region's end; empty: no SGE)"));
    remoteOffset_ = spinBox(QStringLiteral("remoteOffset"), 0, 1 << 24, 0);
    useRkey_ = new QCheckBox(tr("use this rkey instead of the peer's"));
    useRkey_->setObjectName(QStringLiteral("useRkey"));
    rkey_ = new QLineEdit(QStringLiteral("0xbadbad"));
    rkey_->setObjectName(QStringLiteral("rkey"));
    imm_ = new QLineEdit(QStringLiteral("0x1234"));
    imm_->setObjectName(QStringLiteral("imm"));
    compare_ = new QLineEdit(QStringLiteral("0"));
    compare_->setObjectName(QStringLiteral("compare"));
    swap_ = new QLineEdit(QStringLiteral("1"));
    swap_->setObjectName(QStringLiteral("swap"));
    add_ = new QLineEdit(QStringLiteral("1"));
    add_->setObjectName(QStringLiteral("add"));
    signaled_ = new QCheckBox(tr("signaled"));
    signaled_->setObjectName(QStringLiteral("signaled"));
    signaled_->setChecked(true);
    inline_ = new QCheckBox(tr("inline"));
    inline_->setObjectName(QStringLiteral("inline"));
    wrId_ = spinBox(QStringLiteral("wrId"), 0, 1 << 30, 1);
    auto* flags = new QWidget;
    auto* flagRow = new QHBoxLayout(flags);
    flagRow->setContentsMargins(0, 0, 0, 0);
    flagRow->addWidget(signaled_);
    flagRow->addWidget(inline_);
    auto* rkeyRow = new QWidget;
    auto* rkeyLayout = new QHBoxLayout(rkeyRow);
    rkeyLayout->setContentsMargins(0, 0, 0, 0);
    rkeyLayout->addWidget(useRkey_);
    rkeyLayout->addWidget(rkey_);
    form->addRow(tr("Direction"), wrSide_);
    form->addRow(tr("Opcode"), opcode_);
    form->addRow(tr("SGE list"), sge_);
    form->addRow(tr("Remote offset"), remoteOffset_);
    form->addRow(tr("rkey"), rkeyRow);
    form->addRow(tr("Immediate"), imm_);
    form->addRow(tr("Compare / swap"), compare_);
    form->addRow(QString(), swap_);
    form->addRow(tr("Add"), add_);
    form->addRow(tr("Flags"), flags);
    form->addRow(tr("wr_id"), wrId_);
    postSend_ = button(tr("Post send"), QStringLiteral("postSend"));
    form->addRow(postSend_);
    connect(opcode_, &QComboBox::currentTextChanged, this, [this](const QString& op) {
        const bool atomic = op == QLatin1String("cas") || op == QLatin1String("faa");
        if (atomic && sge_->text() == QLatin1String("0")) sge_->setText(QStringLiteral("0:8"));
        if (!atomic && sge_->text() == QLatin1String("0:8")) sge_->setText(QStringLiteral("0"));
        refresh();
    });
    return group;
}

QWidget* WorkbenchWindow::buildReceiveGroup() {
    auto* group = new QGroupBox;
    group->setObjectName(QStringLiteral("receiveBox"));
    auto* form = new QFormLayout(group);
    recvSide_ = sideBox(QStringLiteral("recvSide"), {tr("A"), tr("B")});
    recvSide_->setCurrentIndex(1);
    recvLength_ = spinBox(QStringLiteral("recvLength"), 0, 1 << 24, 64);
    postRecv_ = button(tr("Post receive"), QStringLiteral("postRecv"));
    pollSide_ = sideBox(QStringLiteral("pollSide"), {tr("A"), tr("B")});
    pollCount_ = spinBox(QStringLiteral("pollCount"), 0, 64, 1);
    pollCount_->setToolTip(tr("Completions to wait for (3 s at most); 0 watches the CQ stay empty"));
    poll_ = button(tr("Poll CQ"), QStringLiteral("pollCq"));
    form->addRow(tr("Receive on"), recvSide_);
    form->addRow(tr("Receive length"), recvLength_);
    form->addRow(postRecv_);
    form->addRow(tr("Poll the CQ of"), pollSide_);
    form->addRow(tr("Completions"), pollCount_);
    form->addRow(poll_);
    return group;
}

QWidget* WorkbenchWindow::buildStateGroup() {
    auto* group = new QGroupBox;
    group->setObjectName(QStringLiteral("stateBox"));
    auto* form = new QFormLayout(group);
    qpSide_ = sideBox(QStringLiteral("qpSide"), {tr("A"), tr("B")});
    qpTarget_ = sideBox(QStringLiteral("qpTarget"),
                        {QStringLiteral("reset"), QStringLiteral("init"), QStringLiteral("rtr"),
                         QStringLiteral("rts"), QStringLiteral("err")});
    move_ = button(tr("Move the QP"), QStringLiteral("moveQp"));
    form->addRow(tr("QP of"), qpSide_);
    form->addRow(tr("To state"), qpTarget_);
    form->addRow(move_);
    return group;
}

void WorkbenchWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange && status_) retranslateUi();
    QMainWindow::changeEvent(event);
}

namespace {

/// The label of `field`'s row in its form.
void setRowLabel(QWidget* field, const QString& text) {
    auto* form = field && field->parentWidget() ? qobject_cast<QFormLayout*>(field->parentWidget()->layout())
                                                : nullptr;
    if (!form) return;
    if (auto* label = qobject_cast<QLabel*>(form->labelForField(field))) label->setText(text);
}

} // namespace

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
    findChild<QGroupBox*>(QStringLiteral("pairBox"))->setTitle(tr("1 · The pair"));
    findChild<QGroupBox*>(QStringLiteral("sendBox"))->setTitle(tr("2 · Work request (ibv_post_send)"));
    findChild<QGroupBox*>(QStringLiteral("receiveBox"))->setTitle(tr("3 · Receive and poll"));
    findChild<QGroupBox*>(QStringLiteral("stateBox"))->setTitle(tr("4 · QP state (ibv_modify_qp)"));
    reset_->setText(tr("Reset all"));
    reset_->setToolTip(tr("Destroys every object (QPs, CQs, regions, PDs, device), children first"));
    save_->setText(tr("Save as lab…"));
    save_->setToolTip(
        tr("Writes the steps done since the last reset as a lab file; its expectations are what "
           "the device did"));
    setRowLabel(labTitle_, tr("Lab title"));
    transport_->setToolTip(tr("RC: acknowledged, every opcode; UC: no ACKs, no READ and no atomics"));
    setRowLabel(transport_, tr("Transport"));
    setRowLabel(mtu_, tr("Path MTU"));
    setRowLabel(sizeA_, tr("A's region (bytes)"));
    setRowLabel(sizeB_, tr("B's region (bytes)"));
    setRowLabel(accessA_.front()->parentWidget(), tr("%1's access flags").arg(QStringLiteral("A")));
    setRowLabel(accessB_.front()->parentWidget(), tr("%1's access flags").arg(QStringLiteral("B")));
    buildPair_->setText(tr("Build the pair"));
    buildPair_->setToolTip(tr("Opens the device; for A and B a PD, a region, a CQ and a QP; connects the QPs "
                              "(RESET → INIT → RTR → RTS). An existing pair is torn down first."));
    wrSide_->setItemText(0, tr("A → B"));
    wrSide_->setItemText(1, tr("B → A"));
    sge_->setToolTip(tr("The scatter/gather list in the sender's region: OFFSET[:LENGTH], comma separated "
                        "(no length: to the region's end; empty: no SGE)"));
    useRkey_->setText(tr("use this rkey instead of the peer's"));
    signaled_->setText(tr("signaled"));
    inline_->setText(tr("inline"));
    setRowLabel(wrSide_, tr("Direction"));
    setRowLabel(opcode_, tr("Opcode"));
    setRowLabel(sge_, tr("SGE list"));
    setRowLabel(remoteOffset_, tr("Remote offset"));
    setRowLabel(useRkey_->parentWidget(), tr("rkey"));
    setRowLabel(imm_, tr("Immediate"));
    setRowLabel(compare_, tr("Compare / swap"));
    setRowLabel(add_, tr("Add"));
    setRowLabel(signaled_->parentWidget(), tr("Flags"));
    setRowLabel(wrId_, tr("wr_id"));
    postSend_->setText(tr("Post send"));
    for (QComboBox* side : {recvSide_, pollSide_, qpSide_}) {
        side->setItemText(0, tr("A"));
        side->setItemText(1, tr("B"));
    }
    postRecv_->setText(tr("Post receive"));
    pollCount_->setToolTip(tr("Completions to wait for (3 s at most); 0 watches the CQ stay empty"));
    poll_->setText(tr("Poll CQ"));
    setRowLabel(recvSide_, tr("Receive on"));
    setRowLabel(recvLength_, tr("Receive length"));
    setRowLabel(pollSide_, tr("Poll the CQ of"));
    setRowLabel(pollCount_, tr("Completions"));
    move_->setText(tr("Move the QP"));
    setRowLabel(qpSide_, tr("QP of"));
    setRowLabel(qpTarget_, tr("To state"));
    if (!engineReady_ && notice_.isEmpty()) status_->setText(tr("Starting the engine…"));
    refresh();
    if (steps_->currentIndex().isValid()) showRow(steps_->currentIndex().row());
}

void WorkbenchWindow::buildPair() {
    notice_.clear();
    const auto flags = [](const std::vector<QCheckBox*>& boxes) {
        nlohmann::json list = nlohmann::json::array();
        for (std::size_t i = 0; i < boxes.size(); ++i)
            if (boxes[i]->isChecked()) list.push_back(kAccessFlags[i]);
        return list;
    };
    std::vector<nlohmann::json> steps;
    steps.push_back({{"do", "open_device"}});
    steps.push_back({{"do", "alloc_pd"}, {"as", "A.pd"}});
    steps.push_back({{"do", "alloc_pd"}, {"as", "B.pd"}});
    steps.push_back({{"do", "reg_mr"},
                     {"as", "A.buf"},
                     {"pd", "A.pd"},
                     {"size", sizeA_->value()},
                     {"access", flags(accessA_)},
                     {"fill", "Hello from A! "}});
    steps.push_back({{"do", "reg_mr"},
                     {"as", "B.buf"},
                     {"pd", "B.pd"},
                     {"size", sizeB_->value()},
                     {"access", flags(accessB_)}});
    steps.push_back({{"do", "create_cq"}, {"as", "A.cq"}});
    steps.push_back({{"do", "create_cq"}, {"as", "B.cq"}});
    const std::string type = transport_->currentText().toStdString();
    steps.push_back(
        {{"do", "create_qp"}, {"as", "A.qp"}, {"pd", "A.pd"}, {"send_cq", "A.cq"}, {"type", type}});
    steps.push_back(
        {{"do", "create_qp"}, {"as", "B.qp"}, {"pd", "B.pd"}, {"send_cq", "B.cq"}, {"type", type}});
    steps.push_back(
        {{"do", "connect"}, {"a", "A.qp"}, {"b", "B.qp"}, {"mtu", mtu_->currentText().toStdString()}});
    if (session_->size() > 0) session_->reset();
    session_->perform(std::move(steps));
    refresh();
}

void WorkbenchWindow::setNotice(const QString& text) {
    notice_ = text;
    status_->setText(text);
}

void WorkbenchWindow::postSend() {
    notice_.clear();
    const QString s = side(wrSide_);
    const QString peer = other(s);
    const std::string op = opcode_->currentText().toStdString();
    nlohmann::json step = {
        {"do", "post_send"},       {"qp", sideObject(s, "qp")},          {"opcode", op},
        {"wr_id", wrId_->value()}, {"signaled", signaled_->isChecked()}, {"inline", inline_->isChecked()}};
    nlohmann::json sge = nlohmann::json::array();
    for (const QString& item : sge_->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const auto parts = item.split(QLatin1Char(':'));
        const auto offset = u64(parts.value(0));
        const auto length = parts.size() > 1 ? u64(parts.value(1)) : std::optional<std::uint64_t>(0);
        if (!offset || !length || parts.size() > 2) {
            setNotice(tr("SGE list: “%1” is not OFFSET[:LENGTH]").arg(item.trimmed()));
            return;
        }
        nlohmann::json entry = {{"mr", sideObject(s, "buf")}, {"offset", *offset}};
        if (parts.size() > 1) entry["length"] = *length;
        sge.push_back(entry);
    }
    if (!sge.empty()) step["sge"] = sge;
    const bool remote = op == "write" || op == "write_imm" || op == "read" || op == "cas" || op == "faa";
    if (remote) {
        nlohmann::json where = {{"mr", sideObject(peer, "buf")}};
        if (remoteOffset_->value() > 0) where["offset"] = remoteOffset_->value();
        if (useRkey_->isChecked()) {
            const auto key = u64(rkey_->text());
            if (!key || *key > 0xffffffffULL) {
                setNotice(tr("rkey: “%1” is not a 32-bit number").arg(rkey_->text()));
                return;
            }
            where["rkey"] = *key;
        }
        step["remote"] = where;
    }
    const auto number = [&](QLineEdit* edit, const char* field) {
        const auto v = u64(edit->text());
        if (!v)
            setNotice(tr("%1: “%2” is not a number").arg(QLatin1String(field), edit->text()));
        else
            step[field] = *v;
        return v.has_value();
    };
    if ((op == "send_imm" || op == "write_imm") && !number(imm_, "imm")) return;
    if (op == "cas" && (!number(compare_, "compare") || !number(swap_, "swap"))) return;
    if (op == "faa" && !number(add_, "add")) return;
    wrId_->setValue(wrId_->value() + 1);
    session_->perform({step});
}

void WorkbenchWindow::postReceive() {
    notice_.clear();
    const QString s = side(recvSide_);
    nlohmann::json step = {{"do", "post_recv"},
                           {"qp", sideObject(s, "qp")},
                           {"wr_id", wrId_->value()},
                           {"sge", {{{"mr", sideObject(s, "buf")}, {"length", recvLength_->value()}}}}};
    wrId_->setValue(wrId_->value() + 1);
    session_->perform({step});
}

void WorkbenchWindow::pollCq() {
    notice_.clear();
    const QString s = side(pollSide_);
    session_->perform({{{"do", "poll_cq"},
                        {"cq", sideObject(s, "cq")},
                        {"count", pollCount_->value()},
                        {"timeout", "3s"}}});
}

void WorkbenchWindow::moveQp() {
    notice_.clear();
    const QString s = side(qpSide_);
    const std::string target = qpTarget_->currentText().toStdString();
    nlohmann::json step = {{"do", "to_" + target}, {"qp", sideObject(s, "qp")}};
    if (target == "rtr") step["peer"] = sideObject(other(s), "qp");
    session_->perform({step});
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
    buildPair_->setEnabled(ready);
    for (auto* b : {postSend_, postRecv_, poll_, move_})
        b->setEnabled(ready && havePair);
    reset_->setEnabled(ready && session_->size() > 0);
    if (check_) {
        check_->setEnabled(ready && trouble_.has_value());
        setUpAgain_->setEnabled(ready && trouble_.has_value());
        applySolution_->setEnabled(ready && trouble_.has_value());
    }
    save_->setEnabled(ready && session_->size() > 0);
    const QString op = opcode_->currentText();
    imm_->setEnabled(op.endsWith(QLatin1String("_imm")));
    compare_->setEnabled(op == QLatin1String("cas"));
    swap_->setEnabled(op == QLatin1String("cas"));
    add_->setEnabled(op == QLatin1String("faa"));
    const bool remote = op != QLatin1String("send") && op != QLatin1String("send_imm");
    remoteOffset_->setEnabled(remote);
    useRkey_->setEnabled(remote);
    rkey_->setEnabled(remote);
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
