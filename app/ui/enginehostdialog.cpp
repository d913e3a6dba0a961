#include "enginehostdialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace rdmalab::app {

std::optional<SshOptions> readSshAddress(const QString& text, QString* error) {
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty()) {
        if (error) *error = EngineHostDialog::tr("Name the host: user@host, or ssh://user@host:port.");
        return std::nullopt;
    }
    return parseSshUrl(
        trimmed.startsWith(QLatin1String("ssh://")) ? trimmed : QStringLiteral("ssh://") + trimmed, error);
}

EngineHostDialog::EngineHostDialog(EngineHost host, const SshOptions& ssh, QWidget* parent)
    : QDialog(parent), ssh_(ssh) {
    setObjectName("engineHostDialog");
    setWindowTitle(tr("Where the engine runs"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("The app never calls verbs itself: its engine (rdmalab-cli) does, on the "
                                "device of the machine it runs on. The status line always says where."));
    intro->setWordWrap(true);
    layout->addWidget(intro);

    local_ = new QRadioButton(tr("This machine: its RDMA NIC, or a SoftRoCE device made on it"));
    local_->setObjectName("engineHostLocal");
    vm_ = new QRadioButton(tr("A SoftRoCE VM the app starts (qemu, software CPU emulation): for a machine "
                              "without RDMA; times are distorted many times over"));
    vm_->setObjectName("engineHostVm");
    ssh_radio_ = new QRadioButton(tr("Another host, over SSH (your own keys and ~/.ssh/config)"));
    ssh_radio_->setObjectName("engineHostSsh");
    for (auto* radio : {local_, vm_, ssh_radio_}) {
        layout->addWidget(radio);
        connect(radio, &QRadioButton::toggled, this, &EngineHostDialog::refresh);
    }
    auto* form = new QFormLayout;
    address_ = new QLineEdit;
    address_->setObjectName("engineHostAddress");
    address_->setPlaceholderText(QStringLiteral("alice@lab-server:22"));
    if (!ssh.destination.isEmpty())
        address_->setText(ssh.port > 0 ? QStringLiteral("%1:%2").arg(ssh.destination).arg(ssh.port)
                                       : ssh.destination);
    program_ = new QLineEdit(ssh.program);
    program_->setObjectName("engineHostProgram");
    program_->setPlaceholderText(tr("rdmalab-cli (on the host's PATH)"));
    form->addRow(tr("Host:"), address_);
    form->addRow(tr("rdmalab-cli there:"), program_);
    layout->addLayout(form);
    auto* note = new QLabel(tr("The login must work with a key and without a prompt (the app has no "
                               "terminal to ask on): run ssh-copy-id user@host once. The host needs rdmalab "
                               "%1 and a device with an ACTIVE port; nothing is installed there.")
                                .arg(QStringLiteral(RDMALAB_VERSION)));
    note->setWordWrap(true);
    layout->addWidget(note);
    error_ = new QLabel;
    error_->setObjectName("engineHostError");
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: #b00020;"));
    error_->hide();
    layout->addWidget(error_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Connect"));
    connect(buttons, &QDialogButtonBox::accepted, this, &EngineHostDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &EngineHostDialog::reject);
    layout->addWidget(buttons);

    (host == EngineHost::Vm ? vm_ : host == EngineHost::Ssh ? ssh_radio_ : local_)->setChecked(true);
    refresh();
}

EngineHost EngineHostDialog::host() const {
    return vm_->isChecked() ? EngineHost::Vm : ssh_radio_->isChecked() ? EngineHost::Ssh : EngineHost::Local;
}

void EngineHostDialog::refresh() {
    address_->setEnabled(ssh_radio_->isChecked());
    program_->setEnabled(ssh_radio_->isChecked());
    error_->hide();
}

void EngineHostDialog::accept() {
    if (ssh_radio_->isChecked()) {
        QString error;
        auto options = readSshAddress(address_->text(), &error);
        if (!options) {
            error_->setText(error);
            error_->show();
            address_->setFocus();
            return;
        }
        options->program = program_->text().trimmed();
        ssh_ = *options;
    }
    QDialog::accept();
}

} // namespace rdmalab::app
