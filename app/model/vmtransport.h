// The engine inside a SoftRoCE VM that the app boots itself (`rdmalab --engine vm`), for machines without
// RDMA. The VM is the test bed's (tests/softroce): Debian's kernel and the initramfs that prepare.sh caches,
// under qemu's software CPU emulation (TCG), with the host's / seen read-only over virtio-9p and rxe0 on the
// guest's lo. guest-init.sh's engine mode runs `rdmalab-cli serve --stdio` (this build's, seen over 9p) with
// its stdin and stdout on a virtio-serial port; qemu joins that port to a Unix socket in a private runtime
// directory of this app instance, and VmTransport speaks the engine protocol over it (QLocalSocket). qemu is
// a child process the transport owns: it is powered off with the engine, and killed with the app.
// docs/engine-in-a-vm.md tells the whole story and what it costs.
#pragma once

#include "enginetransport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QLocalSocket>
#include <QLockFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>

#include <memory>

namespace rdmalab::app {

/// What VmTransport boots. Empty fields take the defaults.
struct VmOptions {
    QString qemu;     ///< default: qemu-system-x86_64 on PATH
    QString cacheDir; ///< default: $RDMALAB_VM_CACHE, else ~/.cache/rdmalab/vm (tests/softroce/prepare.sh's)
    /// The test bed's prepare.sh to run; empty: $RDMALAB_VM_PREPARE, else vmPrepareScript()'s choice.
    QString prepareScript;
    /// Both set: boot these. Else what `tests/softroce/prepare.sh --no-fetch` names (in a checkout), or
    /// RDMALAB_VM_KERNEL and RDMALAB_VM_INITRD in cacheDir/current.env (installed).
    QString kernel;
    QString initrd;
    int memoryMb = 1024;
    /// From starting qemu to the engine's first answer; longer is a failure (the VM did not boot, or the
    /// engine never answered).
    int bootTimeoutSeconds = 240;
    /// The kernel is not cached yet (first use): let prepare.sh download Debian's kernel package and build
    /// the initramfs (progress and downloadProgress report it), then boot. Off: fail and name the command.
    bool downloadKernel = false;
};

/// The name of the virtio-serial port the engine speaks on (qemu's virtserialport name; in the guest
/// /sys/class/virtio-ports/vport*/name).
inline constexpr char kVmEnginePortName[] = "rdmalab.engine";
/// What guest-init.sh writes on the console just before it starts the engine on the port.
inline constexpr char kVmEngineUpMarker[] = "rdmalab-vm: engine on ";

/// The test bed's prepare.sh the VM host may run, chosen only from what is trusted: `configured` (the user
/// named it), else the one installed with `program` (PREFIX/share/rdmalab/softroce/prepare.sh beside
/// PREFIX/bin/PROGRAM), else the checkout's (`sourceDir`) when `program` lies in its build tree
/// (`buildDir`). Never a path relative to the current directory, never the source path an installed
/// program was compiled with. Empty when there is none (the cache's current.env is booted, or the failure
/// says how to prepare it).
QString vmPrepareScript(const QString& configured, const QString& program, const QString& buildDir,
                        const QString& sourceDir);

/// The host paths the guest hides under empty tmpfs mounts of its own: the test bed's one list
/// (tests/softroce/guest-tmpfs.list, which guest-init.sh mounts and this build was compiled with).
QStringList guestHiddenPaths();

/// How the guest gets to see a host file: through the read-only host root, or through a share of the
/// directory that holds it.
struct GuestShare {
    QString directory; ///< the host directory to share at its own path; empty when the host root shows it
    QString hiddenBy;  ///< the hidden path (guestHiddenPaths()) it lies below; empty when none
    /// The file lies directly in a hidden path, so there is no directory of its own to share.
    bool impossible() const { return !hiddenBy.isEmpty() && directory.isEmpty(); }
};
/// The share that lets the guest see `file` (a canonical path): the top directory below the hidden path it
/// lies in (a checkout under /root or /tmp is shared whole), else none.
GuestShare guestShareFor(const QString& file);

class VmTransport : public EngineTransport {
    Q_OBJECT
  public:
    explicit VmTransport(VmOptions options, QObject* parent = nullptr);
    ~VmTransport() override;

    void open(const QString& program) override;
    QIODevice* device() override { return &socket_; }
    bool isOpen() const override;
    bool isActive() const override {
        return prepare_.state() != QProcess::NotRunning || qemu_.state() != QProcess::NotRunning;
    }
    void close() override;
    void kill() override;
    qint64 processId() const override { return qemu_.processId(); }
    QString where() const override;

    /// The VM's console (kernel, guest init, the engine's standard error) of the current run; empty before
    /// open(). It lives in the instance's private runtime directory until the transport is destroyed.
    QString consoleLogPath() const { return console_.fileName(); }
    /// The Unix socket qemu listens on for the engine's port; empty before open().
    QString socketPath() const { return socketPath_; }
    /// $RDMALAB_VM_CACHE, else ~/.cache/rdmalab/vm.
    static QString defaultCacheDir();
    /// The last `lines` lines of the console log.
    QString consoleTail(int lines = 15) const;

  private:
    /// Stops qemu and reports `what` (what failed and why) with the console's last lines and `fix`.
    void fail(const QString& what, const QString& fix);
    void tick();
    void readConsole();
    void onQemuFinished(int exitCode, QProcess::ExitStatus status);
    /// prepare.sh --no-fetch ended: boot what it named, or report why not.
    void onPrepared(int exitCode, QProcess::ExitStatus status);
    /// Boots the kernel and initramfs named in prepare.sh's output (current.env's lines).
    void bootFrom(const QByteArray& envText);
    void boot(const QString& kernel, const QString& initrd);
    QString guestFile(const QString& name) const;
    void stopQemu(int graceMs);
    /// Takes cacheDir/running.lock: one SoftRoCE VM per user and cache at a time (a second would halve the
    /// first's emulated CPU). Empty when taken; else why not (naming the holder) and the fix.
    QString lockTheVm();
    /// Stops qemu and gives the lock back.
    void release();

    VmOptions options_;
    std::unique_ptr<QLockFile> lock_;
    QString program_;
    QString qemuProgram_;
    QString cacheDir_;
    QProcess prepare_;      ///< prepare.sh --no-fetch, before qemu
    QString prepareScript_; ///< which prepare.sh (vmPrepareScript); empty: none is trusted here
    QProcess qemu_;
    QLocalSocket socket_;
    std::unique_ptr<QTemporaryDir> runDir_;
    QString socketPath_;
    QFile console_;
    QByteArray consoleLine_; ///< the console's last line, until its newline arrives
    QTimer tick_;
    QElapsedTimer since_;
    qint64 disconnectedAtMs_ = -1;
    int shownSecond_ = -1;
    bool engineUp_ = false; ///< guest-init said it starts the engine on the port
    bool opened_ = false;   ///< opened() was emitted
    bool answered_ = false; ///< the engine has written something
    bool ending_ = false;   ///< close(), kill() or fail(): qemu's end is expected
    bool fetching_ = false; ///< prepare.sh downloads the kernel (first use)
    QString downloadDir_;   ///< where apt-get downloads it (prepare.sh says), to add up its files
    qint64 downloadTotal_ = 0;
    QByteArray prepareErr_; ///< prepare.sh's standard error, as it arrives while fetching
    /// Reads prepare.sh's lines while it fetches: what it does, for the status line.
    void readPrepareErr();
    /// prepareScript_, or how to find one, for messages.
    QString prepareScriptName() const;
    /// The kernel download's bytes so far.
    qint64 downloadedBytes() const;
};

} // namespace rdmalab::app
