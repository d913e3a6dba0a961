// The main window's device panel: the devices and ports the engine sees, or, when it sees none, how to get
// one (create a SoftRoCE device here, run the engine in the SoftRoCE VM or on a host over SSH, open a
// recording); and where the engine runs (the host dialog, the VM's console log).
#pragma once

#include "engineclient.h"
#include "labstate.h"
#include "softroceoffer.h"

#include <QStackedWidget>

#include <optional>
#include <vector>

class QLabel;
class QProcess;
class QPushButton;
class QTreeWidget;

namespace rdmalab::app {

/// "devicePanel": page 0 the devices and ports ("deviceTree"), page 1 how to get a device ("noDeviceText",
/// "createSoftRoceButton", "useVmButton", "connectSshButton", "openRecordingButton"). It talks to the
/// window by signals; the window decides when to show which page.
class DevicePanel : public QStackedWidget {
    Q_OBJECT
  public:
    /// `engine`: where the engine runs and what it says there (read only; the window owns it).
    explicit DevicePanel(EngineClient* engine, QWidget* parent = nullptr);
    ~DevicePanel() override;

    /// The engine's `devices` answer: every device's ports, with state, link layer, MTU and GID table (page
    /// 0); none: the tree is emptied, and the engine's fix kept for showNoDevice().
    void showDevices(const DevicesResult& devices);
    /// Page 1: no RDMA device where the engine runs, and how to get one.
    void showNoDevice();
    bool showsNoDevice() const { return currentIndex() == 1; }
    /// The SoftRoCE offer ("Create rxe0 on IFACE…", shown when available; none: hidden).
    void setSoftRoceOffer(const SoftRoceOffer& offer);
    bool offersSoftRoce() const { return softRoceOffer_.available; }
    /// After a device was just created the engine starts again: true when it now sees one. When it sees
    /// none, the panel says why that may be. False when no device was just created.
    bool createdDeviceArrived(bool haveDevice);
    /// Open a recording… is refused while one is being read.
    void setOpenRecordingEnabled(bool enabled);

    /// Engine ▸ Where the engine runs…: the dialog (with `preselect` chosen); a choice is announced by
    /// engineHostChosen.
    void chooseEngineHost(std::optional<EngineHost> preselect = std::nullopt);
    /// Runs the engine in the SoftRoCE VM from now on (engineHostChosen).
    void useVm();
    /// Engine ▸ The VM's console log: what the VM's kernel and init wrote, this run.
    void showVmConsole();
    /// qemu is installed and tests/softroce/prepare.sh has prepared a kernel: the VM can boot.
    static bool vmReady();

  signals:
    void openRecordingRequested();
    /// The engine is to run on `host` (with `ssh` for EngineHost::Ssh) from now on.
    void engineHostChosen(rdmalab::app::EngineHost host, const rdmalab::app::SshOptions& ssh);
    /// rdma link add succeeded: the engine must start again to see the device.
    void softRoceCreated();

  protected:
    void changeEvent(QEvent* event) override;

  private:
    QWidget* buildNoDevicePage();
    void retranslateUi();
    void showNoDeviceText();
    /// The offer's button: its text and tooltip name the device and the interface.
    void showSoftRoceButton();
    /// "Create a SoftRoCE device…": the exact command, run only after the user agrees.
    void offerSoftRoceDevice();
    void createSoftRoceDevice();

    EngineClient* engine_;
    SshOptions currentSsh_; ///< the SSH host last chosen (the dialog offers it again)
    QTreeWidget* deviceTree_;
    QLabel* noDeviceText_ = nullptr;
    QString noDeviceFix_; ///< how to get a device, when there is none
    QPushButton *createSoftRoceButton_ = nullptr, *useVmButton_ = nullptr, *connectSshButton_ = nullptr,
                *openRecordingButton_ = nullptr;
    QLabel* softRoceResult_ = nullptr; ///< what the last rdma link add did
    QProcess* softRoceProcess_ = nullptr;
    SoftRoceOffer softRoceOffer_;      ///< computed when the engine here reports no device
    bool softRoceJustCreated_ = false; ///< rdma link add succeeded; the restarted engine should see it
};

} // namespace rdmalab::app
