// The engine host "vm" (`rdmalab --engine vm`, issue 16): the app boots the SoftRoCE VM itself and drives the
// engine inside it over a virtio-serial port. writeLessonRunsLiveInTheVm boots the VM on this machine (label
// vm: it needs qemu and the kernel tests/softroce/prepare.sh caches, which the fixture vm_prepare makes); the
// others check the failure paths without booting anything (label host).
#include "testutil.hpp"
#include "windowdrivers.h"

#include "lessoncontroller.h"
#include "mainwindow.h"
#include "vmtransport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace rdmalab;
using namespace rdmalab::app;
using rdmalab::test::mainWindow;
using rdmalab::test::windowParts;

namespace {

/// True while a process with this id exists (and is not a zombie).
bool processAlive(qint64 pid) {
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly)) return false;
    const QByteArray text = stat.readAll();
    const auto close = text.lastIndexOf(')');
    return close > 0 && text.mid(close + 2, 1) != "Z";
}

StartOptions vmOptions() {
    StartOptions options;
    options.lesson = "write";
    options.engineHost = EngineHost::Vm;
    return options;
}

} // namespace

class AppVmTest : public QObject {
    Q_OBJECT
  private slots:
    /// Boots the VM, steps the Write lesson through the window's own buttons, and checks what the real engine
    /// on rxe0 in the VM did: B's bytes changed to A's message and the lesson verified; the status line names
    /// the VM; qemu is gone once the window is.
    void writeLessonRunsLiveInTheVm() {
        if (QStandardPaths::findExecutable("qemu-system-x86_64").isEmpty())
            QFAIL("qemu-system-x86_64 is not installed (resources/scripts/install-deps.sh installs it)");
        qint64 qemuPid = 0;
        QElapsedTimer clock;
        clock.start();
        auto owned = std::make_unique<MainWindow>(vmOptions());
        {
            MainWindow& window = *owned;
            window.show();
            auto* controller = window.controller();
            auto* step = mainWindow(window).stepButton();
            auto* hostLabel = mainWindow(window).engineHostLabel();
            auto* banner = windowParts(window).engineBanner();
            auto* message = windowParts(window).engineMessage();
            QVERIFY(step && hostLabel && banner && message);
            // Booting: the status line counts the seconds.
            QTRY_VERIFY_WITH_TIMEOUT(hostLabel->text().contains("SoftRoCE VM") || banner->isVisible(), 10000);
            QVERIFY2(!banner->isVisible(), qPrintable(message->text()));
            QVERIFY2(hostLabel->text().startsWith("Starting the SoftRoCE VM"), qPrintable(hostLabel->text()));
            // prepare.sh --no-fetch names the kernel, then qemu starts.
            QTRY_VERIFY_WITH_TIMEOUT(window.engine()->processId() > 0 || banner->isVisible(), 60000);
            QVERIFY2(!banner->isVisible(), qPrintable(message->text()));
            qemuPid = window.engine()->processId();
            QTRY_VERIFY_WITH_TIMEOUT(!controller->state().plannedSteps.empty() || banner->isVisible(),
                                     240000);
            QVERIFY2(!banner->isVisible(), qPrintable(message->text()));
            const qint64 bootMs = clock.elapsed();
            QCOMPARE(hostLabel->text(), QStringLiteral("rxe0 · SoftRoCE VM (qemu, software CPU emulation)"));
            int presses = 0;
            qint64 firstStepMs = -1;
            while (!controller->finished()) {
                const auto before = controller->sessionEvents().size();
                QTRY_VERIFY_WITH_TIMEOUT(step->isEnabled() || banner->isVisible(), 60000);
                QVERIFY2(!banner->isVisible(), qPrintable(message->text()));
                step->click();
                QTRY_VERIFY_WITH_TIMEOUT(!controller->busy() && controller->sessionEvents().size() > before,
                                         60000);
                if (firstStepMs < 0) firstStepMs = clock.elapsed();
                controller->animationsIdle();
                QVERIFY(++presses < 40);
            }
            qInfo("VM booted and the engine listed rxe0 after %lld ms; first live step done after %lld ms; "
                  "%d steps in %lld ms",
                  static_cast<long long>(bootMs), static_cast<long long>(firstStepMs), presses,
                  static_cast<long long>(clock.elapsed()));
            const auto& state = controller->state();
            QCOMPARE(state.device, QStringLiteral("rxe0"));
            QCOMPARE(state.verified, std::optional<bool>(true));
            // B's buffer holds A's message now, and the memory view marks the bytes the WRITE changed.
            QVERIFY2(state.memory[1].bytes.startsWith(QByteArray("Hello, RDMA!")),
                     state.memory[1].bytes.left(32).toHex().constData());
            QVERIFY(!state.memory[1].changed.empty());
            QCOMPARE(hostLabel->text(), QStringLiteral("rxe0 · SoftRoCE VM (qemu, software CPU emulation)"));
            QVERIFY(processAlive(qemuPid));
        }
        // The window is gone: the engine was asked to quit, the guest powered off, qemu ended.
        clock.restart();
        owned.reset();
        qInfo("window closed -> qemu ended in %lld ms", static_cast<long long>(clock.elapsed()));
        QVERIFY(!processAlive(qemuPid));
    }

    /// The app shares with the guest exactly what the guest hides: its list is the test bed's one list
    /// (guest-init.sh mounts nothing else), and a checkout under each place a user clones into is seen in
    /// the guest, through the host root or through a share of its top directory. Boots nothing.
    void guestSharingFollowsTheOneListOfHiddenPaths() {
        QFile list((RDMALAB_SOURCE_DIR + QStringLiteral("/tests/softroce/guest-tmpfs.list")));
        QVERIFY(list.open(QIODevice::ReadOnly | QIODevice::Text));
        QStringList listed;
        for (const QString& line : QString::fromUtf8(list.readAll()).split(u'\n'))
            if (line.startsWith(u'/')) listed << line.section(u' ', 0, 0);
        QCOMPARE(guestHiddenPaths(), listed);
        QVERIFY(listed.contains("/root") && listed.contains("/tmp"));
        // guest-init.sh mounts a tmpfs over a host path only through the list.
        QFile init((RDMALAB_SOURCE_DIR + QStringLiteral("/tests/softroce/guest-init.sh")));
        QVERIFY(init.open(QIODevice::ReadOnly | QIODevice::Text));
        const QString initText = QString::fromUtf8(init.readAll());
        QCOMPARE(initText.count(QStringLiteral("mount -t tmpfs")), 1);
        QVERIFY(initText.contains(QStringLiteral("done < /etc/rdmalab-tmpfs")));

        const QString engine = QStringLiteral("/build/dev/engine/rdmalab-cli");
        struct Case {
            QString checkout, shared, hiddenBy;
        };
        const QList<Case> cases = {
            {"/root/rdmalab", "/root/rdmalab", "/root"},
            {"/home/me/rdmalab", "", ""}, // the host root shows it (qemu reads it as its user, mode 0700 too)
            {"/home/me/src/rdmalab", "", ""},
            {"/tmp/rdmalab", "/tmp/rdmalab", "/tmp"},
            {"/tmp/ci.Xy12/rdmalab", "/tmp/ci.Xy12", "/tmp"},
            {"/var/tmp/rdmalab", "/var/tmp/rdmalab", "/var/tmp"},
            {"/srv/rdmalab", "", ""},
            {"/tmp/my labs/rdma lab", "/tmp/my labs", "/tmp"},
            {"/root/my labs/rdmalab", "/root/my labs", "/root"},
            {"/run/user/1000/rdmalab", "/run/user", "/run"},
            {"/rootless/rdmalab", "", ""}, // a prefix of a hidden path's name is not below it
        };
        for (const Case& c : cases) {
            const GuestShare share = guestShareFor(c.checkout + engine);
            QVERIFY2(share.directory == c.shared && share.hiddenBy == c.hiddenBy && !share.impossible(),
                     qPrintable(QStringLiteral("%1: shared '%2' (hidden by '%3'), expected '%4' ('%5')")
                                    .arg(c.checkout, share.directory, share.hiddenBy, c.shared, c.hiddenBy)));
        }
        // A file directly in a hidden path has no directory of its own to share.
        QVERIFY(guestShareFor(QStringLiteral("/tmp/rdmalab-cli")).impossible());
        QVERIFY(guestShareFor(QStringLiteral("/root/rdmalab-cli")).impossible());
    }

    /// The VM host runs only a prepare.sh it can trust: the one the user named, the one installed with the
    /// program, or the checkout's for a program of its build tree; never one of the current directory.
    void onlyATrustedPrepareScriptIsRun() {
        QTemporaryDir dir;
        const QString root = dir.path();
        for (const char* made : {"/usr/bin", "/usr/share/rdmalab/softroce", "/build/tests", "/checkout",
                                 "/elsewhere/bin", "/untrusted/tests/softroce"})
            QVERIFY(QDir().mkpath(root + made));
        for (const char* file :
             {"/usr/bin/rdmalab", "/usr/share/rdmalab/softroce/prepare.sh", "/build/tests/tst_app_vm",
              "/elsewhere/bin/rdmalab", "/untrusted/tests/softroce/prepare.sh"}) {
            QFile f(root + file);
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        const QString build = root + "/build", source = root + "/checkout";
        struct Case {
            QString configured, program, chosen;
        };
        const QList<Case> cases = {
            {"/opt/mine/prepare.sh", root + "/usr/bin/rdmalab", "/opt/mine/prepare.sh"},
            {"", root + "/usr/bin/rdmalab", root + "/usr/share/rdmalab/softroce/prepare.sh"},
            {"", root + "/build/tests/tst_app_vm", source + "/tests/softroce/prepare.sh"},
            // Installed elsewhere, compiled from a checkout that this machine may not trust: none.
            {"", root + "/elsewhere/bin/rdmalab", ""},
        };
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(root + "/untrusted")); // holds tests/softroce/prepare.sh
        for (const Case& c : cases) {
            const QString chosen = vmPrepareScript(c.configured, c.program, build, source);
            QVERIFY2(
                chosen == c.chosen,
                qPrintable(QStringLiteral("%1: chose '%2', expected '%3'").arg(c.program, chosen, c.chosen)));
        }
        QDir::setCurrent(before);
    }

    /// No kernel prepared: the app stays, and says to run prepare.sh.
    void aMissingKernelIsExplained() {
        QTemporaryDir cache;
        auto options = vmOptions();
        options.vm.cacheDir = cache.path();
        MainWindow window(options);
        window.show();
        auto* banner = windowParts(window).engineBanner();
        auto* message = windowParts(window).engineMessage();
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 30000); // 8-9 s on a loaded machine
        QVERIFY2(message->text().contains("kernel is not prepared") &&
                     message->text().contains(cache.path()) &&
                     message->text().contains("tests/softroce/prepare.sh"),
                 qPrintable(message->text()));
        QVERIFY(!window.engine()->isRunning());
        QCOMPARE(mainWindow(window).engineHostLabel()->text(),
                 QStringLiteral("engine stopped · SoftRoCE VM (qemu, software CPU emulation)"));
        QVERIFY(windowParts(window).restartEngineButton()->isVisible());
    }

    void aMissingQemuIsExplained() {
        auto options = vmOptions();
        options.vm.qemu = "/nonexistent/qemu-system-x86_64";
        MainWindow window(options);
        window.show();
        auto* message = windowParts(window).engineMessage();
        QTRY_VERIFY_WITH_TIMEOUT(windowParts(window).engineBanner()->isVisible(), 30000);
        QVERIFY2(message->text().contains("qemu-system-x86_64 is not installed") &&
                     message->text().contains("apt-get install qemu-system-x86"),
                 qPrintable(message->text()));
    }

    /// qemu runs but the kernel is no kernel: the VM never boots, the app stays and shows qemu's own words
    /// from the console log, and the fix. Two transports at once get separate private directories.
    void aVmThatCannotBootShowsItsConsole() {
        if (QStandardPaths::findExecutable("qemu-system-x86_64").isEmpty())
            QSKIP("qemu-system-x86_64 is not installed");
        QTemporaryDir cache;
        QFile junk(cache.filePath("vmlinux"));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write(QByteArray(4096, 'x'));
        junk.close();
        auto options = vmOptions();
        options.vm.kernel = options.vm.initrd = junk.fileName();
        MainWindow window(options);
        window.show();
        auto* message = windowParts(window).engineMessage();
        QTRY_VERIFY_WITH_TIMEOUT(windowParts(window).engineBanner()->isVisible(), 30000);
        const QString text = message->text();
        QVERIFY2(
            text.contains("The SoftRoCE VM stopped before its engine started (qemu exited with status 1)") &&
                text.contains("Last lines of the VM's console") &&
                text.contains(QRegularExpression("\\nqemu[-a-z0-9_]*: ")) && // qemu's own words
                text.contains("prepare.sh"),
            qPrintable(text));
        QVERIFY(!window.engine()->isRunning());

        // A second VM of the same user is refused while the first runs, naming the process that has it;
        // once the first is gone, the next one boots. The socket's directory is private.
        VmOptions vm;
        vm.kernel = vm.initrd = junk.fileName();
        vm.cacheDir = cache.path();
        VmTransport first(vm), second(vm);
        QSignalSpy firstFailed(&first, &EngineTransport::failed),
            secondFailed(&second, &EngineTransport::failed);
        first.open(RDMALAB_CLI_PATH);
        second.open(RDMALAB_CLI_PATH);
        QVERIFY(first.isActive());
        QVERIFY(!second.isActive());
        QCOMPARE(secondFailed.size(), 1);
        const QString refused = secondFailed.at(0).at(0).toString();
        QVERIFY2(
            refused.contains(
                QStringLiteral("Another rdmalab (process %1, ").arg(QCoreApplication::applicationPid())) &&
                refused.contains("is running the SoftRoCE VM already") &&
                refused.contains("close it and press Restart engine"),
            qPrintable(refused));
        QVERIFY(second.socketPath().isEmpty());
        const QFileInfo dir(QFileInfo(first.socketPath()).path());
        QCOMPARE(dir.permissions() &
                     (QFile::ReadGroup | QFile::WriteGroup | QFile::ReadOther | QFile::WriteOther),
                 QFile::Permissions());
        QTRY_VERIFY_WITH_TIMEOUT(firstFailed.size() == 1, 30000);
        QVERIFY(firstFailed.at(0).at(0).toString().contains("stopped before its engine started"));
        second.open(RDMALAB_CLI_PATH);
        QVERIFY(second.isActive());
        QVERIFY(!second.socketPath().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(secondFailed.size() == 2, 30000);
        QVERIFY2(secondFailed.at(1).at(0).toString().contains("stopped before its engine started"),
                 qPrintable(secondFailed.at(1).at(0).toString()));
    }
};

QTEST_MAIN(AppVmTest)
#include "tst_app_vm.moc"
