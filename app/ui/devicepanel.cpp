// The device panel: the engine's devices, the ways to get one, and where the engine runs.
#include "devicepanel.h"

#include "enginebanner.h"
#include "enginehostdialog.h"
#include "inspector.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QStandardPaths>
#include <QTextCursor>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace rdmalab::app {

DevicePanel::DevicePanel(EngineClient* engine, QWidget* parent)
    : QStackedWidget(parent), engine_(engine), currentSsh_(engine->sshOptions()),
      deviceTree_(new QTreeWidget) {
    setObjectName("devicePanel");
    deviceTree_->setObjectName("deviceTree");
    deviceTree_->setColumnWidth(0, 150);
    addWidget(deviceTree_);
    addWidget(buildNoDevicePage());
    setMinimumWidth(150);
    retranslateUi();
}

DevicePanel::~DevicePanel() {
    // Closed while rdma link add runs (pkexec asking for a password): ~QProcess, run after this among the
    // children, kills it and emits finished; its handler must not reach this panel, whose page is gone then.
    if (softRoceProcess_) softRoceProcess_->disconnect(this);
}

QWidget* DevicePanel::buildNoDevicePage() {
    auto* noDevicePage = new QWidget;
    auto* noDeviceLayout = new QVBoxLayout(noDevicePage);
    noDeviceText_ = new QLabel;
    noDeviceText_->setObjectName("noDeviceText");
    noDeviceText_->setWordWrap(true);
    noDeviceText_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    openRecordingButton_ = new QPushButton;
    openRecordingButton_->setObjectName("openRecordingButton");
    connect(openRecordingButton_, &QPushButton::clicked, this, &DevicePanel::openRecordingRequested);
    // A SoftRoCE device here, when the kernel has rdma_rxe (offered first: it is the fastest way).
    createSoftRoceButton_ = new QPushButton;
    createSoftRoceButton_->setObjectName("createSoftRoceButton");
    createSoftRoceButton_->hide();
    connect(createSoftRoceButton_, &QPushButton::clicked, this, &DevicePanel::offerSoftRoceDevice);
    softRoceResult_ = new QLabel;
    softRoceResult_->setObjectName("softRoceResult");
    softRoceResult_->setWordWrap(true);
    softRoceResult_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    softRoceResult_->hide();
    // Where else the engine can run: the SoftRoCE VM, another host.
    useVmButton_ = new QPushButton;
    useVmButton_->setObjectName("useVmButton");
    connect(useVmButton_, &QPushButton::clicked, this, &DevicePanel::useVm);
    connectSshButton_ = new QPushButton;
    connectSshButton_->setObjectName("connectSshButton");
    connect(connectSshButton_, &QPushButton::clicked, this, [this] { chooseEngineHost(EngineHost::Ssh); });
    noDeviceLayout->addWidget(noDeviceText_);
    noDeviceLayout->addWidget(createSoftRoceButton_);
    noDeviceLayout->addWidget(softRoceResult_);
    noDeviceLayout->addWidget(useVmButton_);
    noDeviceLayout->addWidget(connectSshButton_);
    noDeviceLayout->addWidget(openRecordingButton_);
    noDeviceLayout->addStretch();
    return noDevicePage;
}

void DevicePanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QStackedWidget::changeEvent(event);
}

void DevicePanel::retranslateUi() {
    deviceTree_->setHeaderLabels({tr("Device / port"), tr("Value")});
    openRecordingButton_->setText(tr("Open a recording…"));
    useVmButton_->setText(tr("Use the SoftRoCE VM"));
    useVmButton_->setToolTip(tr("The app boots a VM with Debian's kernel and rdma_rxe under qemu and runs "
                                "the engine there (software CPU emulation: slow, but real verbs)"));
    connectSshButton_->setText(tr("Use a host over SSH…"));
    showSoftRoceButton();
    if (showsNoDevice()) showNoDeviceText();
}

void DevicePanel::showDevices(const DevicesResult& devices) {
    deviceTree_->clear();
    noDeviceFix_ = devices.noDeviceFix;
    if (devices.ports.empty()) return;
    for (const auto& p : devices.ports) {
        auto* dev = new QTreeWidgetItem(deviceTree_, {QStringLiteral("%1 port %2").arg(p.device).arg(p.port),
                                                      deviceKindText(p.driver, p.software)});
        new QTreeWidgetItem(dev, {tr("state"), p.state});
        new QTreeWidgetItem(dev, {tr("link layer"), p.linkLayer});
        new QTreeWidgetItem(dev, {tr("active MTU"), QString::number(p.activeMtu)});
        auto* gids = new QTreeWidgetItem(dev, {tr("GID table"), QString::number(p.gids.size())});
        for (const auto& g : p.gids)
            new QTreeWidgetItem(gids, {QString(), g});
        dev->setExpanded(true);
        gids->setExpanded(true);
    }
    setCurrentIndex(0);
}

void DevicePanel::showNoDevice() {
    showNoDeviceText();
    setCurrentIndex(1);
}

void DevicePanel::showNoDeviceText() {
    QString text =
        tr("<h3>No RDMA device</h3><p>rdmalab shows real verbs calls on a real device, so it needs "
           "one. Without an RDMA NIC, <b>SoftRoCE</b> (the <code>rdma_rxe</code> kernel module) "
           "implements RoCE v2 in software on an ordinary network interface (Ethernet, or even the "
           "loopback interface).</p>");
    // The engine runs on another host: the device, and its fix, are that host's.
    if (engine_->host() == EngineHost::Ssh)
        text.insert(text.indexOf(QLatin1String("</h3>")) + 5,
                    tr("<p>The engine on <b>%1</b> found no RDMA device with an ACTIVE port there. What "
                       "follows is for that host.</p>")
                        .arg(engine_->where().toHtmlEscaped()));
    if (!noDeviceFix_.isEmpty()) text += "<p>" + htmlText(noDeviceFix_) + "</p>";
    text += tr("<p>Or open a recording of a real run to replay it.</p>");
    noDeviceText_->setText(text);
}

void DevicePanel::setOpenRecordingEnabled(bool enabled) {
    openRecordingButton_->setEnabled(enabled);
}

void DevicePanel::setSoftRoceOffer(const SoftRoceOffer& offer) {
    softRoceOffer_ = offer;
    showSoftRoceButton();
}

void DevicePanel::showSoftRoceButton() {
    createSoftRoceButton_->setVisible(softRoceOffer_.available);
    createSoftRoceButton_->setText(
        tr("Create %1 on %2…").arg(softRoceOffer_.deviceName, softRoceOffer_.interfaceName));
    createSoftRoceButton_->setToolTip(
        tr("Create a SoftRoCE device: rdma link add %1 type rxe netdev %2, run as root through pkexec after "
           "you agree")
            .arg(softRoceOffer_.deviceName, softRoceOffer_.interfaceName));
}

bool DevicePanel::createdDeviceArrived(bool haveDevice) {
    if (!softRoceJustCreated_) return false;
    softRoceJustCreated_ = false;
    softRoceResult_->setVisible(!haveDevice);
    if (!haveDevice)
        softRoceResult_->setText(
            tr("The command succeeded, but the engine still finds no ACTIVE port. Check `rdma link "
               "show`: the port is ACTIVE only while its network interface is up."));
    return haveDevice;
}

void DevicePanel::offerSoftRoceDevice() {
    if (!softRoceOffer_.available || (softRoceProcess_ && softRoceProcess_->state() != QProcess::NotRunning))
        return;
    auto* box = new QMessageBox(this);
    box->setObjectName("softRoceConfirm");
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setIcon(QMessageBox::Question);
    box->setWindowTitle(tr("Create a SoftRoCE device"));
    box->setTextFormat(Qt::RichText);
    box->setText(
        tr("<p>SoftRoCE (the kernel's <code>rdma_rxe</code>) makes <b>%1</b> an RDMA device in software: "
           "RoCE v2 over that interface, driven by the host's CPU. Creating it needs root, so the app runs "
           "this command%2:</p><pre>%3</pre><p>The device %4 lasts until the next reboot, or until "
           "<code>sudo rdma link delete %4</code>. Nothing else is changed.</p>")
            .arg(softRoceOffer_.interfaceName.toHtmlEscaped(),
                 softRoceOffer_.asksForRoot() ? tr(" (pkexec asks for your password)") : QString(),
                 softRoceOffer_.commandLine().toHtmlEscaped(), softRoceOffer_.deviceName));
    auto* run = box->addButton(tr("Run it"), QMessageBox::AcceptRole);
    run->setObjectName("softRoceRun");
    box->addButton(QMessageBox::Cancel)->setObjectName("softRoceCancel");
    connect(box, &QMessageBox::buttonClicked, this, [this, run](QAbstractButton* clicked) {
        if (clicked == run) createSoftRoceDevice();
    });
    box->open();
}

void DevicePanel::createSoftRoceDevice() {
    if (!softRoceProcess_) {
        softRoceProcess_ = new QProcess(this);
        softRoceProcess_->setStandardInputFile(QProcess::nullDevice());
        connect(softRoceProcess_, &QProcess::finished, this,
                [this](int exitCode, QProcess::ExitStatus status) {
                    createSoftRoceButton_->setEnabled(true);
                    const QString said = QString::fromLocal8Bit(softRoceProcess_->readAllStandardError());
                    if (status == QProcess::NormalExit && exitCode == 0) {
                        softRoceJustCreated_ = true;
                        softRoceResult_->setText(
                            tr("Created %1 on %2: the engine starts again to use it.")
                                .arg(softRoceOffer_.deviceName, softRoceOffer_.interfaceName));
                        softRoceResult_->show();
                        emit softRoceCreated();
                        return;
                    }
                    softRoceResult_->setText(explainSoftRoceFailure(
                        softRoceOffer_, status == QProcess::NormalExit ? exitCode : -1, said));
                    softRoceResult_->show();
                });
        connect(softRoceProcess_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
            if (error != QProcess::FailedToStart) return;
            createSoftRoceButton_->setEnabled(true);
            softRoceResult_->setText(
                explainSoftRoceFailure(softRoceOffer_, -1, softRoceProcess_->errorString()));
            softRoceResult_->show();
        });
    }
    createSoftRoceButton_->setEnabled(false);
    softRoceResult_->setText(tr("Running: %1").arg(softRoceOffer_.commandLine()));
    softRoceResult_->show();
    softRoceProcess_->start(softRoceOffer_.command.front(), softRoceOffer_.command.mid(1));
}
bool DevicePanel::vmReady() {
    if (QStandardPaths::findExecutable(QStringLiteral("qemu-system-x86_64")).isEmpty()) return false;
    // tests/softroce/prepare.sh keeps one directory per kernel version, with the kernel in it.
    const QDir cache(VmTransport::defaultCacheDir());
    for (const QString& dir : cache.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        if (QFileInfo::exists(cache.filePath(dir + QStringLiteral("/vmlinux")))) return true;
    return false;
}
void DevicePanel::showVmConsole() {
    auto* vm = qobject_cast<VmTransport*>(engine_->transport());
    QDialog dialog(this);
    dialog.setObjectName("vmConsoleDialog");
    dialog.setWindowTitle(tr("The SoftRoCE VM's console"));
    auto* layout = new QVBoxLayout(&dialog);
    auto* path = new QLabel;
    path->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* text = new QPlainTextEdit;
    text->setObjectName("vmConsoleLog");
    text->setReadOnly(true);
    text->setLineWrapMode(QPlainTextEdit::NoWrap);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto load = [vm, path, text] {
        QFile log(vm ? vm->consoleLogPath() : QString());
        if (!vm || vm->consoleLogPath().isEmpty() || !log.open(QIODevice::ReadOnly)) {
            path->setText(tr("The engine does not run in a VM, or the VM has not started yet."));
            text->clear();
            return;
        }
        path->setText(log.fileName());
        text->setPlainText(QString::fromUtf8(log.readAll()));
        text->moveCursor(QTextCursor::End);
    };
    load();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    auto* reload = buttons->addButton(tr("Reload"), QDialogButtonBox::ActionRole);
    connect(reload, &QPushButton::clicked, &dialog, load);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(path);
    layout->addWidget(text);
    layout->addWidget(buttons);
    dialog.resize(900, 500);
    dialog.exec();
}

void DevicePanel::chooseEngineHost(std::optional<EngineHost> preselect) {
    EngineHostDialog dialog(preselect.value_or(engine_->host()), currentSsh_, this);
    if (dialog.exec() != QDialog::Accepted) return;
    currentSsh_ = dialog.ssh();
    emit engineHostChosen(dialog.host(), currentSsh_);
}

void DevicePanel::useVm() {
    currentSsh_ = {};
    emit engineHostChosen(EngineHost::Vm, currentSsh_);
}

} // namespace rdmalab::app
