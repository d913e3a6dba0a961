// The workbench's controls and the lab steps each of them composes.
#include "workbenchcontrols.h"

#include "windowparts.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <optional>
#include <string>

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

/// "A" or "B" from a side combo box.
QString side(const QComboBox* box) {
    return box->currentIndex() == 0 ? QStringLiteral("A") : QStringLiteral("B");
}

} // namespace

WorkbenchControls::WorkbenchControls(QWidget* parent) : QWidget(parent) {
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(buildPairGroup());
    column->addWidget(buildSendGroup());
    column->addWidget(buildReceiveGroup());
    column->addWidget(buildStateGroup());
    connect(buildPair_, &QPushButton::clicked, this, &WorkbenchControls::buildPair);
    connect(postSend_, &QPushButton::clicked, this, &WorkbenchControls::postSend);
    connect(postRecv_, &QPushButton::clicked, this, &WorkbenchControls::postReceive);
    connect(poll_, &QPushButton::clicked, this, &WorkbenchControls::pollCq);
    connect(move_, &QPushButton::clicked, this, &WorkbenchControls::moveQp);
    retranslateUi();
}

void WorkbenchControls::setReady(bool ready, bool havePair) {
    buildPair_->setEnabled(ready);
    for (auto* b : {postSend_, postRecv_, poll_, move_})
        b->setEnabled(ready && havePair);
    enableOperands();
}

void WorkbenchControls::enableOperands() {
    const QString op = opcode_->currentText();
    imm_->setEnabled(op.endsWith(QLatin1String("_imm")));
    compare_->setEnabled(op == QLatin1String("cas"));
    swap_->setEnabled(op == QLatin1String("cas"));
    add_->setEnabled(op == QLatin1String("faa"));
    const bool remote = op != QLatin1String("send") && op != QLatin1String("send_imm");
    remoteOffset_->setEnabled(remote);
    useRkey_->setEnabled(remote);
    rkey_->setEnabled(remote);
}

QWidget* WorkbenchControls::buildPairGroup() {
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
    buildPair_ = makeButton(tr("Build the pair"), QStringLiteral("buildPair"));
    buildPair_->setToolTip(tr("Opens the device; for A and B a PD, a region, a CQ and a QP; connects the QPs "
                              "(RESET → INIT → RTR → RTS). An existing pair is torn down first."));
    form->addRow(buildPair_);
    return group;
}

QWidget* WorkbenchControls::buildSendGroup() {
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
    postSend_ = makeButton(tr("Post send"), QStringLiteral("postSend"));
    form->addRow(postSend_);
    connect(opcode_, &QComboBox::currentTextChanged, this, [this](const QString& op) {
        const bool atomic = op == QLatin1String("cas") || op == QLatin1String("faa");
        if (atomic && sge_->text() == QLatin1String("0")) sge_->setText(QStringLiteral("0:8"));
        if (!atomic && sge_->text() == QLatin1String("0:8")) sge_->setText(QStringLiteral("0"));
        enableOperands();
    });
    return group;
}

QWidget* WorkbenchControls::buildReceiveGroup() {
    auto* group = new QGroupBox;
    group->setObjectName(QStringLiteral("receiveBox"));
    auto* form = new QFormLayout(group);
    recvSide_ = sideBox(QStringLiteral("recvSide"), {tr("A"), tr("B")});
    recvSide_->setCurrentIndex(1);
    recvLength_ = spinBox(QStringLiteral("recvLength"), 0, 1 << 24, 64);
    postRecv_ = makeButton(tr("Post receive"), QStringLiteral("postRecv"));
    pollSide_ = sideBox(QStringLiteral("pollSide"), {tr("A"), tr("B")});
    pollCount_ = spinBox(QStringLiteral("pollCount"), 0, 64, 1);
    pollCount_->setToolTip(tr("Completions to wait for (3 s at most); 0 watches the CQ stay empty"));
    poll_ = makeButton(tr("Poll CQ"), QStringLiteral("pollCq"));
    form->addRow(tr("Receive on"), recvSide_);
    form->addRow(tr("Receive length"), recvLength_);
    form->addRow(postRecv_);
    form->addRow(tr("Poll the CQ of"), pollSide_);
    form->addRow(tr("Completions"), pollCount_);
    form->addRow(poll_);
    return group;
}

QWidget* WorkbenchControls::buildStateGroup() {
    auto* group = new QGroupBox;
    group->setObjectName(QStringLiteral("stateBox"));
    auto* form = new QFormLayout(group);
    qpSide_ = sideBox(QStringLiteral("qpSide"), {tr("A"), tr("B")});
    qpTarget_ = sideBox(QStringLiteral("qpTarget"),
                        {QStringLiteral("reset"), QStringLiteral("init"), QStringLiteral("rtr"),
                         QStringLiteral("rts"), QStringLiteral("err")});
    move_ = makeButton(tr("Move the QP"), QStringLiteral("moveQp"));
    form->addRow(tr("QP of"), qpSide_);
    form->addRow(tr("To state"), qpTarget_);
    form->addRow(move_);
    return group;
}

void WorkbenchControls::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange && move_) retranslateUi();
    QWidget::changeEvent(event);
}

void WorkbenchControls::retranslateUi() {
    findChild<QGroupBox*>(QStringLiteral("pairBox"))->setTitle(tr("1 · The pair"));
    findChild<QGroupBox*>(QStringLiteral("sendBox"))->setTitle(tr("2 · Work request (ibv_post_send)"));
    findChild<QGroupBox*>(QStringLiteral("receiveBox"))->setTitle(tr("3 · Receive and poll"));
    findChild<QGroupBox*>(QStringLiteral("stateBox"))->setTitle(tr("4 · QP state (ibv_modify_qp)"));
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
}

void WorkbenchControls::buildPair() {
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
    emit pairWanted(steps);
}

void WorkbenchControls::postSend() {
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
            emit refused(tr("SGE list: “%1” is not OFFSET[:LENGTH]").arg(item.trimmed()));
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
                emit refused(tr("rkey: “%1” is not a 32-bit number").arg(rkey_->text()));
                return;
            }
            where["rkey"] = *key;
        }
        step["remote"] = where;
    }
    const auto number = [&](QLineEdit* edit, const char* field) {
        const auto v = u64(edit->text());
        if (!v)
            emit refused(tr("%1: “%2” is not a number").arg(QLatin1String(field), edit->text()));
        else
            step[field] = *v;
        return v.has_value();
    };
    if ((op == "send_imm" || op == "write_imm") && !number(imm_, "imm")) return;
    if (op == "cas" && (!number(compare_, "compare") || !number(swap_, "swap"))) return;
    if (op == "faa" && !number(add_, "add")) return;
    wrId_->setValue(wrId_->value() + 1);
    emit stepWanted(step);
}

void WorkbenchControls::postReceive() {
    const QString s = side(recvSide_);
    nlohmann::json step = {{"do", "post_recv"},
                           {"qp", sideObject(s, "qp")},
                           {"wr_id", wrId_->value()},
                           {"sge", {{{"mr", sideObject(s, "buf")}, {"length", recvLength_->value()}}}}};
    wrId_->setValue(wrId_->value() + 1);
    emit stepWanted(step);
}

void WorkbenchControls::pollCq() {
    const QString s = side(pollSide_);
    emit stepWanted(
        {{"do", "poll_cq"}, {"cq", sideObject(s, "cq")}, {"count", pollCount_->value()}, {"timeout", "3s"}});
}

void WorkbenchControls::moveQp() {
    const QString s = side(qpSide_);
    const std::string target = qpTarget_->currentText().toStdString();
    nlohmann::json step = {{"do", "to_" + target}, {"qp", sideObject(s, "qp")}};
    if (target == "rtr") step["peer"] = sideObject(other(s), "qp");
    emit stepWanted(step);
}

} // namespace rdmalab::app
