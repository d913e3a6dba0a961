#include "vmtransport.h"

#include "qtstrings.h"

#include "rdmalab/format/buildpaths.hpp"

#include "guesttmpfs.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QStandardPaths>
#include <algorithm>

#include <csignal>
#include <sys/prctl.h>

namespace rdmalab::app {

namespace {

/// The script that prepares the VM's kernel and initramfs, as the user types it.
/// Whether `path` lies in `directory` (both made canonical; false when either does not exist).
bool liesIn(const QString& path, const QString& directory) {
    const QString file = QFileInfo(path).canonicalFilePath(), dir = QFileInfo(directory).canonicalFilePath();
    return !file.isEmpty() && !dir.isEmpty() && file.startsWith(dir + QLatin1Char('/'));
}

/// A path inside a qemu option (commas are doubled).
QString qemuPath(const QString& path) {
    QString escaped = path;
    return escaped.replace(QLatin1Char(','), QLatin1String(",,"));
}

} // namespace

QString vmPrepareScript(const QString& configured, const QString& program, const QString& buildDir,
                        const QString& sourceDir) {
    if (!configured.isEmpty()) return configured;
    // Installed: PREFIX/bin/PROGRAM and PREFIX/share/rdmalab/softroce/prepare.sh, from the same package.
    const QString installed =
        QFileInfo(program).absolutePath() + QStringLiteral("/../share/rdmalab/softroce/prepare.sh");
    if (QFileInfo(installed).isFile()) return QDir::cleanPath(installed);
    // A program of this build tree runs its own checkout's. A program installed elsewhere never runs the
    // source path it was compiled with: on this machine that path may be anyone's.
    if (liesIn(program, buildDir)) return sourceDir + QStringLiteral("/tests/softroce/prepare.sh");
    return {};
}

QStringList guestHiddenPaths() {
    QStringList paths;
    for (const char* path : kGuestTmpfsPaths) // guesttmpfs.h, generated from the test bed's list
        paths << QLatin1String(path);
    return paths;
}

GuestShare guestShareFor(const QString& file) {
    GuestShare share;
    for (const QString& hidden : guestHiddenPaths()) {
        const QString prefix = hidden + QLatin1Char('/');
        if (!file.startsWith(prefix)) continue;
        share.hiddenBy = hidden;
        const QString rest = file.mid(prefix.size());
        if (rest.contains(QLatin1Char('/'))) share.directory = prefix + rest.section(QLatin1Char('/'), 0, 0);
        return share;
    }
    return share;
}

VmTransport::VmTransport(VmOptions options, QObject* parent)
    : EngineTransport(parent), options_(std::move(options)) {
    tick_.setInterval(200);
    connect(&tick_, &QTimer::timeout, this, &VmTransport::tick);
    qemu_.setProcessChannelMode(QProcess::MergedChannels);
    qemu_.setStandardInputFile(QProcess::nullDevice());
    // qemu dies with the app, even when the app is killed (SIGKILL) and cannot stop it.
    qemu_.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    connect(&prepare_, &QProcess::finished, this, &VmTransport::onPrepared);
    connect(&prepare_, &QProcess::readyReadStandardError, this, &VmTransport::readPrepareErr);
    connect(&prepare_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart && !ending_) onPrepared(-1, QProcess::CrashExit);
    });
    connect(&qemu_, &QProcess::readyReadStandardOutput, this, &VmTransport::readConsole);
    connect(&qemu_, &QProcess::finished, this, &VmTransport::onQemuFinished);
    connect(&qemu_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart || ending_) return;
        fail(tr("Could not start qemu (%1): %2.").arg(qemu_.program(), qemu_.errorString()),
             tr("Install it: sudo apt-get install qemu-system-x86 (or run "
                "resources/scripts/install-deps.sh)."));
    });
    connect(&socket_, &QLocalSocket::readyRead, this, [this] {
        answered_ = true;
        emit readyRead();
    });
    connect(&socket_, &QLocalSocket::disconnected, this, [this] {
        if (!ending_) disconnectedAtMs_ = since_.elapsed();
    });
}

VmTransport::~VmTransport() {
    ending_ = true;
    release();
}

QString VmTransport::lockTheVm() {
    if (lock_ && lock_->isLocked()) return {};
    QDir().mkpath(cacheDir_);
    lock_ = std::make_unique<QLockFile>(QDir(cacheDir_).filePath(QStringLiteral("running.lock")));
    // The holder's process id decides; a lock left by an instance that was killed is taken over.
    lock_->setStaleLockTime(0);
    if (lock_->tryLock(0)) return {};
    qint64 pid = 0;
    QString host, app;
    const bool known = lock_->getLockInfo(&pid, &host, &app);
    const auto error = lock_->error();
    lock_.reset();
    if (error != QLockFile::LockFailedError || !known)
        return tr("Could not take the SoftRoCE VM's lock file in %1.").arg(cacheDir_) + QLatin1Char('\n') +
               tr("Check that the directory is writable, or set RDMALAB_VM_CACHE to one that is.");
    return tr("Another rdmalab (process %1, %2) is running the SoftRoCE VM already: one VM at a time runs "
              "per user, since a second would share the same emulated CPUs and make both slow.")
               .arg(pid)
               .arg(app.isEmpty() ? tr("program unknown") : app) +
           QLatin1Char('\n') +
           tr("Work in that window, or close it and press Restart engine here. Engine ▸ Where the engine "
              "runs… can point this window at an SSH host instead.");
}

void VmTransport::release() {
    stopQemu(0);
    lock_.reset();
}

QString VmTransport::defaultCacheDir() {
    const QString env = qEnvironmentVariable("RDMALAB_VM_CACHE");
    return env.isEmpty() ? QDir::homePath() + QStringLiteral("/.cache/rdmalab/vm") : env;
}

QString VmTransport::where() const {
    return tr("SoftRoCE VM (qemu, software CPU emulation)");
}

bool VmTransport::isOpen() const {
    return opened_ && socket_.state() == QLocalSocket::ConnectedState && qemu_.state() == QProcess::Running;
}

void VmTransport::open(const QString& program) {
    if (isActive()) return;
    program_ = program;
    engineUp_ = opened_ = answered_ = ending_ = fetching_ = false;
    downloadDir_.clear();
    downloadTotal_ = 0;
    prepareErr_.clear();
    disconnectedAtMs_ = -1;
    shownSecond_ = -1;
    consoleLine_.clear();
    socket_.abort();
    console_.close();
    since_.start();

    // qemu, the kernel and the initramfs, each named with its fix when it is missing.
    QString qemu =
        options_.qemu.isEmpty() ? QStandardPaths::findExecutable("qemu-system-x86_64") : options_.qemu;
    if (qemu.isEmpty() || !QFileInfo(qemu).isExecutable())
        return fail(tr("qemu-system-x86_64 is not installed (%1): the SoftRoCE VM runs under it.")
                        .arg(qemu.isEmpty() ? tr("not on PATH") : qemu),
                    tr("Install it: sudo apt-get install qemu-system-x86 (or run "
                       "resources/scripts/install-deps.sh)."));
    qemuProgram_ = qemu;
    cacheDir_ = options_.cacheDir.isEmpty() ? defaultCacheDir() : options_.cacheDir;
    if (const QString refused = lockTheVm(); !refused.isEmpty()) {
        ending_ = true;
        emit failed(refused);
        return;
    }
    tick_.setInterval(200);
    tick_.start();
    emit progress(tr("Starting the SoftRoCE VM… %1 s").arg(0));
    if (!options_.kernel.isEmpty() && !options_.initrd.isEmpty())
        return boot(options_.kernel, options_.initrd);
    // In a checkout, prepare.sh names the current kernel and initramfs (and rebuilds the initramfs when
    // guest-init.sh changed); it downloads nothing here, and runs while the window is already up (it waits
    // for another prepare.sh that holds the cache). Installed, the cache's current.env names them.
    const QString configured = options_.prepareScript.isEmpty() ? qEnvironmentVariable("RDMALAB_VM_PREPARE")
                                                                : options_.prepareScript;
    prepareScript_ =
        vmPrepareScript(configured, QCoreApplication::applicationFilePath(),
                        QString::fromUtf8(build::binary_dir()), QString::fromUtf8(build::source_dir()));
    const QString& script = prepareScript_;
    if (!script.isEmpty() && QFileInfo(script).isExecutable()) {
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("RDMALAB_VM_CACHE"), cacheDir_);
        prepare_.setProcessEnvironment(env);
        prepare_.start(script, {QStringLiteral("--no-fetch")});
        return;
    }
    QFile env(cacheDir_ + QStringLiteral("/current.env"));
    if (!env.open(QIODevice::ReadOnly))
        return fail(tr("The SoftRoCE VM's kernel is not prepared: %1 does not exist (%2).")
                        .arg(env.fileName(), env.errorString()),
                    tr("Run %1 once: it downloads Debian's kernel and builds the VM's initramfs into %2.")
                        .arg(prepareScriptName(), cacheDir_));
    bootFrom(env.readAll());
}

QString VmTransport::prepareScriptName() const {
    return prepareScript_.isEmpty()
               ? tr("the test bed's prepare.sh (installed: "
                    "/usr/share/rdmalab/softroce/prepare.sh; or name one in RDMALAB_VM_PREPARE)")
               : prepareScript_;
}

void VmTransport::readPrepareErr() {
    prepareErr_ += prepare_.readAllStandardError();
    if (!fetching_) return;
    static const QRegularExpression downloading(
        QStringLiteral("rdmalab prepare: downloading (\\S+) \\((\\d+) bytes\\) into (\\S+)"));
    for (const QByteArray& raw : prepareErr_.split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (const auto m = downloading.match(line); m.hasMatch()) {
            downloadDir_ = m.captured(3);
            downloadTotal_ = m.captured(2).toLongLong();
        } else if (line.startsWith(QLatin1String("rdmalab prepare: unpacking"))) {
            downloadDir_.clear();
            if (downloadTotal_ > 0) emit downloadProgress(downloadTotal_, downloadTotal_);
            emit progress(tr("Unpacking Debian's kernel for the SoftRoCE VM…"));
        } else if (line.startsWith(QLatin1String("rdmalab prepare: building initramfs"))) {
            emit progress(tr("Building the SoftRoCE VM's initramfs…"));
        }
    }
    // Keep only the last, unfinished line for the next read (and the whole text for a failure message).
    if (prepareErr_.size() > 65536) prepareErr_ = prepareErr_.right(65536);
}

qint64 VmTransport::downloadedBytes() const {
    qint64 bytes = 0;
    if (downloadDir_.isEmpty()) return 0;
    QDirIterator files(downloadDir_, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (files.hasNext())
        bytes += QFileInfo(files.next()).size();
    return bytes;
}

void VmTransport::onPrepared(int exitCode, QProcess::ExitStatus status) {
    if (ending_) return;
    readPrepareErr();
    // First use: nothing cached (prepare.sh --no-fetch says so with status 3). Fetch it, then boot.
    if (status == QProcess::NormalExit && exitCode == 3 && !fetching_ && options_.downloadKernel) {
        fetching_ = true;
        prepareErr_.clear();
        emit progress(tr("Downloading Debian's kernel for the SoftRoCE VM (first use, once)…"));
        prepare_.start(prepareScript_, {});
        return;
    }
    if (fetching_ && status == QProcess::NormalExit && exitCode == 0) {
        fetching_ = false;
        if (downloadTotal_ > 0) emit downloadProgress(downloadTotal_, downloadTotal_);
        since_.restart(); // the boot's own time-out starts now
        shownSecond_ = -1;
    }
    fetching_ = false;
    if (status != QProcess::NormalExit || exitCode != 0) {
        const QString said = QString::fromUtf8(prepareErr_).trimmed();
        return fail(tr("The SoftRoCE VM's kernel is not prepared in %1: %2")
                        .arg(cacheDir_, said.isEmpty() ? prepare_.errorString() : said),
                    tr("Run %1 once: it downloads Debian's kernel and builds the VM's initramfs into %2.")
                        .arg(prepareScriptName(), cacheDir_));
    }
    bootFrom(prepare_.readAllStandardOutput());
}

void VmTransport::bootFrom(const QByteArray& envText) {
    QString kernel, initrd;
    for (const QByteArray& line : envText.split('\n')) {
        const auto eq = line.indexOf('=');
        const QString key = QString::fromUtf8(line.left(eq)), value = QString::fromUtf8(line.mid(eq + 1));
        if (key == QLatin1String("RDMALAB_VM_KERNEL")) kernel = value;
        if (key == QLatin1String("RDMALAB_VM_INITRD")) initrd = value;
    }
    boot(kernel, initrd);
}

void VmTransport::boot(const QString& kernel, const QString& initrd) {
    const QString& program = program_;
    const QString& qemu = qemuProgram_;
    const QString& cacheDir = cacheDir_;
    for (const QString& file : {kernel, initrd})
        if (file.isEmpty() || !QFileInfo(file).isReadable())
            return fail(
                tr("The SoftRoCE VM's kernel or initramfs is missing: '%1' cannot be read.").arg(file),
                tr("Run %1 again: it downloads Debian's kernel and builds the VM's initramfs into %2.")
                    .arg(prepareScriptName(), cacheDir));

    // The engine must be a file the guest sees: the host's / is there read-only, but not what lies below
    // the guest's own tmpfs mounts (guestHiddenPaths()). Such a tree (a checkout under /tmp or /root) is
    // shared with the guest read-only, at its own path.
    const QFileInfo engine(program);
    if (!engine.isExecutable())
        return fail(tr("The engine '%1' is not an executable file.").arg(program),
                    tr("Build it with `cmake --build --preset dev` or put rdmalab-cli next to the app."));
    const QString engineFile = engine.canonicalFilePath();
    const GuestShare share = guestShareFor(engineFile);
    if (share.impossible())
        return fail(tr("The engine '%1' lies directly in %2, which the VM cannot share.")
                        .arg(engineFile, share.hiddenBy),
                    tr("Put rdmalab-cli in a directory of its own."));
    const QString& shared = share.directory;

    // A private directory per app instance: the control share, the socket and the console log.
    QString base = QStandardPaths::writableLocation(QStandardPaths::RuntimeLocation);
    if (base.isEmpty() || base.size() > 60) base = QDir::tempPath();
    runDir_ = std::make_unique<QTemporaryDir>(base + QStringLiteral("/rdmalab-vm-XXXXXX"));
    if (!runDir_->isValid())
        return fail(
            tr("Could not create the VM's runtime directory in %1: %2.").arg(base, runDir_->errorString()),
            tr("Make %1 writable, or set XDG_RUNTIME_DIR to a writable directory.").arg(base));
    const QString ctl = runDir_->filePath(QStringLiteral("ctl"));
    socketPath_ = runDir_->filePath(QStringLiteral("engine.sock"));
    QDir().mkpath(ctl);
    QFile(ctl).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                              QFileDevice::ReadGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther |
                              QFileDevice::ExeOther);
    console_.setFileName(runDir_->filePath(QStringLiteral("console.log")));
    if (!console_.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return fail(tr("Could not write the VM's console log %1: %2.")
                        .arg(console_.fileName(), console_.errorString()),
                    tr("Make %1 writable.").arg(base));

    // guest-init.sh's engine mode: run.sh runs with its stdin and stdout on the port named in engine_port.
    QString script = QStringLiteral("# written by rdmalab (VmTransport)\n");
    auto exportVar = [&script](const QString& name, const QString& value) {
        script += QStringLiteral("export %1=%2\n").arg(name, shellQuoted(value));
    };
    exportVar("PATH", QStringLiteral("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"));
    exportVar("HOME", QStringLiteral("/tmp/home"));
    exportVar("TMPDIR", QStringLiteral("/tmp"));
    const auto hostEnv = QProcessEnvironment::systemEnvironment();
    for (const QString& name : hostEnv.keys()) {
        const bool passed =
            name == QLatin1String("LANG") || name == QLatin1String("TZ") ||
            name.startsWith(QLatin1String("LC_")) || name.endsWith(QLatin1String("SAN_OPTIONS")) ||
            (name.startsWith(QLatin1String("RDMALAB_")) && !name.startsWith(QLatin1String("RDMALAB_VM")) &&
             name != QLatin1String("RDMALAB_IN_VM"));
        if (passed) exportVar(name, hostEnv.value(name));
    }
    exportVar("RDMALAB_IN_VM", QStringLiteral("1"));
    exportVar("RDMALAB_VERBS_DEV", QStringLiteral("rxe0"));
    exportVar("RDMALAB_CM_DEV", QStringLiteral("rxe1"));
    exportVar("RDMALAB_CM_ADDR", QStringLiteral("10.233.0.1"));
    script += QStringLiteral("ulimit -l unlimited 2>/dev/null\ncd /\nexec %1 serve --stdio\n")
                  .arg(shellQuoted(engineFile));
    auto writeFile = [](const QString& path, const QByteArray& content) {
        QFile file(path);
        return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(content) == content.size();
    };
    if (!writeFile(ctl + QStringLiteral("/run.sh"), script.toUtf8()) ||
        !writeFile(ctl + QStringLiteral("/engine_port"), QByteArray(kVmEnginePortName) + '\n') ||
        (!shared.isEmpty() && !writeFile(ctl + QStringLiteral("/out_path"), shared.toUtf8() + '\n')))
        return fail(tr("Could not write the VM's control files in %1.").arg(ctl),
                    tr("Make %1 writable.").arg(base));

    // The test bed's machine (tests/softroce/vm-run.sh), with the engine's port instead of a command.
    const QString append = QStringLiteral("console=ttyS0 panic=-1 rdinit=/init nokaslr mitigations=off "
                                          "tsc=reliable no_timer_check idle=halt quiet loglevel=0");
    // The fixed options, as vm-run.sh gives them (no value holds a space), and the virtio-serial bus.
    QStringList args =
        QStringLiteral(
            "-accel tcg -cpu max -smp 2 -nic none -display none -vga none -no-reboot "
            "-monitor none -chardev stdio,id=con,signal=off -serial chardev:con -device virtio-serial")
            .split(QLatin1Char(' '));
    args << "-m" << QString::number(options_.memoryMb);
    args << "-kernel" << kernel << "-initrd" << initrd << "-append" << append;
    args << "-virtfs"
         << "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap";
    args << "-virtfs"
         << QStringLiteral("local,path=%1,mount_tag=rdlctl,security_model=none,multidevs=remap")
                .arg(qemuPath(ctl));
    args << "-chardev"
         << QStringLiteral("socket,path=%1,server=on,wait=off,id=engine").arg(qemuPath(socketPath_));
    args << "-device"
         << QStringLiteral("virtserialport,chardev=engine,name=%1").arg(QLatin1String(kVmEnginePortName));
    if (!shared.isEmpty())
        args << "-virtfs"
             << QStringLiteral(
                    "local,path=%1,mount_tag=rdlout,security_model=none,readonly=on,multidevs=remap")
                    .arg(qemuPath(shared));
    qemu_.start(qemu, args);
}

void VmTransport::readConsole() {
    if (qemu_.state() == QProcess::NotRunning && qemu_.bytesAvailable() == 0)
        return; // never started, or read
    const QByteArray bytes = qemu_.readAllStandardOutput();
    if (console_.isOpen()) {
        console_.write(bytes);
        console_.flush();
    }
    consoleLine_ += bytes;
    for (qsizetype newline = consoleLine_.indexOf('\n'); newline >= 0; newline = consoleLine_.indexOf('\n')) {
        const QByteArray line = consoleLine_.left(newline);
        consoleLine_.remove(0, newline + 1);
        if (line.startsWith(kVmEngineUpMarker)) engineUp_ = true;
    }
    if (consoleLine_.size() > 65536) consoleLine_.clear(); // a line that long is no marker
    if (engineUp_ && !opened_) tick();
}

void VmTransport::tick() {
    if (ending_) return;
    // qemu listens from its start; connected early, the port is open on the host side when the guest
    // opens it (a virtio-serial port reads end-of-file in the guest while nothing is connected).
    if (socket_.state() == QLocalSocket::UnconnectedState && !opened_ && QFileInfo::exists(socketPath_))
        socket_.connectToServer(socketPath_);
    if (engineUp_ && !opened_ && socket_.state() == QLocalSocket::ConnectedState) {
        opened_ = true;
        emit opened();
    }
    if (fetching_) { // the kernel's download: its bytes so far, no boot time-out yet
        const qint64 done = downloadedBytes();
        if (downloadTotal_ > 0 && !downloadDir_.isEmpty()) {
            emit downloadProgress(std::min(done, downloadTotal_), downloadTotal_);
            emit progress(tr("Downloading Debian's kernel for the SoftRoCE VM (first use, once): %1 of %2 MB")
                              .arg(static_cast<double>(done) / 1e6, 0, 'f', 1)
                              .arg(static_cast<double>(downloadTotal_) / 1e6, 0, 'f', 1));
        }
        return;
    }
    const qint64 ms = since_.elapsed();
    if (!answered_) {
        const int second = static_cast<int>(ms / 1000);
        if (second != shownSecond_) {
            shownSecond_ = second;
            emit progress(opened_ ? tr("Starting the engine in the SoftRoCE VM… %1 s").arg(second)
                                  : tr("Starting the SoftRoCE VM… %1 s").arg(second));
        }
        if (ms > options_.bootTimeoutSeconds * 1000LL)
            return fail(opened_
                            ? tr("The engine in the SoftRoCE VM did not answer within %1 s.")
                                  .arg(options_.bootTimeoutSeconds)
                            : tr("The SoftRoCE VM did not start its engine within %1 s (last stage of its "
                                 "init: %2).")
                                  .arg(options_.bootTimeoutSeconds)
                                  .arg(guestFile(QStringLiteral("stage"))),
                        tr("Look at the console's lines above; run %1 again (it rebuilds the initramfs), "
                           "then press Restart engine. Under software emulation a busy machine boots slowly.")
                            .arg(prepareScriptName()));
    } else {
        tick_.setInterval(1000);
    }
    // The engine closed its port: the guest powers off by itself; a guest that does not is stopped.
    if (disconnectedAtMs_ >= 0 && ms - disconnectedAtMs_ > 10000) stopQemu(0);
}

QString VmTransport::guestFile(const QString& name) const {
    if (!runDir_) return QString();
    QFile file(runDir_->filePath(QStringLiteral("ctl/") + name));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()).trimmed() : QString();
}

QString VmTransport::consoleTail(int lines) const {
    QFile file(console_.fileName());
    if (console_.fileName().isEmpty() || !file.open(QIODevice::ReadOnly)) return QString();
    const QStringList all = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
    QStringList kept;
    for (const QString& line : all)
        if (!line.trimmed().isEmpty()) kept << line.trimmed();
    return kept.mid(std::max<qsizetype>(0, kept.size() - lines)).join(QLatin1Char('\n'));
}

void VmTransport::fail(const QString& what, const QString& fix) {
    ending_ = true;
    tick_.stop();
    socket_.abort();
    release();
    readConsole();
    QString message = what;
    const QString guestError = guestFile(QStringLiteral("error"));
    if (!guestError.isEmpty()) message += QLatin1Char('\n') + tr("The guest's init said: %1").arg(guestError);
    const QString tail = consoleTail();
    if (!tail.isEmpty())
        message += QLatin1Char('\n') + tr("Last lines of the VM's console (%1):").arg(console_.fileName()) +
                   QLatin1Char('\n') + tail;
    message += QLatin1Char('\n') + fix;
    emit failed(message);
}

void VmTransport::onQemuFinished(int exitCode, QProcess::ExitStatus status) {
    tick_.stop();
    readConsole();
    if (ending_) return;
    const QString how =
        status == QProcess::CrashExit ? tr("qemu crashed") : tr("qemu exited with status %1").arg(exitCode);
    const QString rc = guestFile(QStringLiteral("rc"));
    if (!opened_)
        return fail(
            tr("The SoftRoCE VM stopped before its engine started (%1).").arg(how),
            tr("Read the console's lines above; run %1 again (it rebuilds the kernel and the initramfs "
               "the VM boots), then press Restart engine.")
                .arg(prepareScriptName()));
    fail(rc.isEmpty()
             ? tr("The SoftRoCE VM stopped (%1), and its engine with it.").arg(how)
             : tr("The engine in the SoftRoCE VM exited with status %1, and the VM powered off.").arg(rc),
         tr("Nothing you recorded is lost: the trace so far stays in the timeline and can be saved. Press "
            "Restart "
            "engine to boot the VM again."));
}

void VmTransport::stopQemu(int graceMs) {
    if (prepare_.state() != QProcess::NotRunning) {
        prepare_.kill();
        prepare_.waitForFinished(3000);
    }
    if (qemu_.state() == QProcess::NotRunning) return;
    if (graceMs > 0 && qemu_.waitForFinished(graceMs)) return;
    qemu_.kill();
    qemu_.waitForFinished(3000);
}

void VmTransport::close() {
    ending_ = true;
    tick_.stop();
    if (opened_ && socket_.state() == QLocalSocket::ConnectedState) {
        // The engine reads the `quit` and ends; guest-init then powers the VM off.
        socket_.flush();
        socket_.waitForBytesWritten(1000);
        stopQemu(15000);
    }
    socket_.abort();
    release();
}

void VmTransport::kill() {
    ending_ = true;
    tick_.stop();
    socket_.abort();
    release();
}

} // namespace rdmalab::app
