// The engine host "ssh" (`rdmalab --engine ssh://HOST`, issue 16): the app runs `ssh HOST rdmalab-cli serve
// --stdio` and speaks the engine protocol over it. The first tests need no device (label host): how an
// ssh:// address is read, the ssh command line, and the message for each way ssh fails (a stand-in ssh
// that says what the real one says, and the real ssh refused by a closed port). The last ones (label
// device) run in the SoftRoCE test bed against a real SSH server (dropbear) on the VM's loopback: a Write
// lesson through the app's widgets with its engine behind ssh, the engine killed there midway (the app
// stays, says what happened, keeps the recording), then reconnected to finish the lesson; and a login
// with a key the server does not know, and a host without rdmalab-cli.
#include "testutil.hpp"
#include "windowdrivers.h"

#include "datapathview.h"
#include "engineclient.h"
#include "lessoncontroller.h"
#include "mainwindow.h"
#include "sshtransport.h"
#include "tracefile.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <memory>

using namespace rdmalab;
using namespace rdmalab::app;
using rdmalab::test::mainWindow;
using rdmalab::test::windowParts;

namespace {

/// A stand-in for ssh: a script that writes `standardError` and exits with `exitCode`, as the real ssh
/// does for that failure.
QString fakeSsh(const QTemporaryDir& dir, const QString& standardError, int exitCode) {
    const QString path =
        dir.filePath(QStringLiteral("ssh-%1").arg(qHash(QString::number(exitCode) + standardError)));
    QFile script(path);
    if (!script.open(QIODevice::WriteOnly)) return {};
    script.write("#!/bin/sh\nprintf '%s\\n' \"$RDMALAB_FAKE_SSH_SAYS\" >&2\nexit " +
                 QByteArray::number(exitCode) + "\n");
    script.close();
    script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

/// The process ids of every `PROGRAM serve --stdio` running now.
QList<qint64> enginesRunning(const QString& program) {
    QList<qint64> pids;
    const QByteArray wanted = program.toUtf8() + QByteArray("\0serve\0--stdio\0", 15);
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool number = false;
        const qint64 pid = entry.toLongLong(&number);
        if (!number) continue;
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (cmdline.open(QIODevice::ReadOnly) && cmdline.readAll() == wanted) pids << pid;
    }
    return pids;
}

/// The app's engine behind ssh to root@127.0.0.1 on the test bed's SSH server.
struct SshServer {
    QTemporaryDir dir;
    QProcess dropbear;
    int port = 0;
    QString key;      ///< the client's key, authorized
    QString otherKey; ///< a key the server does not know
    QString error;    ///< why the server is not running

    SshOptions options(const QString& withKey) const {
        SshOptions o;
        o.destination = QStringLiteral("root@127.0.0.1");
        o.port = port;
        o.program = RDMALAB_CLI_PATH;
        // The test's own key and no known_hosts: the user's ~/.ssh is not involved.
        o.extraArguments = {QStringLiteral("-i"), withKey,
                            QStringLiteral("-o"), QStringLiteral("IdentitiesOnly=yes"),
                            QStringLiteral("-o"), QStringLiteral("StrictHostKeyChecking=no"),
                            QStringLiteral("-o"), QStringLiteral("UserKnownHostsFile=/dev/null"),
                            QStringLiteral("-o"), QStringLiteral("LogLevel=ERROR")};
        return o;
    }

    bool run(const QStringList& command) {
        QProcess p;
        p.start(command.front(), command.mid(1));
        if (p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0)
            return true;
        error = QStringLiteral("%1 failed: %2")
                    .arg(command.join(' '), QString::fromUtf8(p.readAllStandardError()));
        return false;
    }

    /// Starts dropbear on 127.0.0.1 with a fresh host key, and authorizes a fresh client key for root.
    /// Only inside the test bed, whose /root is a scratch tmpfs (tests/softroce/guest-init.sh).
    bool start() {
        if (QDir::homePath() != QStringLiteral("/tmp/home") ||
            !QFile::exists(QStringLiteral("/run/rdmalab"))) {
            error = QStringLiteral("not inside the SoftRoCE test bed (it writes /root/.ssh)");
            return false;
        }
        for (const char* tool : {"dropbear", "dropbearkey", "ssh", "ssh-keygen"})
            if (QStandardPaths::findExecutable(tool, {"/usr/sbin", "/usr/bin"}).isEmpty()) {
                error = QStringLiteral("%1 is not installed (resources/scripts/install-deps.sh installs "
                                       "dropbear-bin and openssh-client)")
                            .arg(tool);
                return false;
            }
        key = dir.filePath("id_client");
        otherKey = dir.filePath("id_other");
        const QString hostKey = dir.filePath("host_key");
        if (!run({"dropbearkey", "-t", "ed25519", "-f", hostKey}) ||
            !run({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key}) ||
            !run({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", otherKey}))
            return false;
        QDir().mkpath("/root/.ssh");
        QFile::setPermissions("/root/.ssh", QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QFile pub(key + ".pub"), authorized("/root/.ssh/authorized_keys");
        if (!pub.open(QIODevice::ReadOnly) || !authorized.open(QIODevice::WriteOnly)) {
            error =
                QStringLiteral("cannot write /root/.ssh/authorized_keys: %1").arg(authorized.errorString());
            return false;
        }
        authorized.write(pub.readAll());
        authorized.close();
        authorized.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
        port = 2222;
        dropbear.setProcessChannelMode(QProcess::MergedChannels);
        // -F foreground, -E log to stderr, -s no passwords, -r the host key, -P a pid file of its own.
        dropbear.start("dropbear", {"-F", "-E", "-s", "-p", QStringLiteral("127.0.0.1:%1").arg(port), "-r",
                                    hostKey, "-P", dir.filePath("dropbear.pid")});
        if (!dropbear.waitForStarted()) {
            error = dropbear.errorString();
            return false;
        }
        for (int i = 0; i < 100; ++i) {
            QTcpSocket probe;
            probe.connectToHost(QStringLiteral("127.0.0.1"), static_cast<quint16>(port));
            if (probe.waitForConnected(200)) return true;
            if (dropbear.state() != QProcess::Running) break;
            QTest::qWait(100);
        }
        error = QStringLiteral("dropbear did not listen on port %1: %2")
                    .arg(port)
                    .arg(QString::fromUtf8(dropbear.readAll()));
        return false;
    }

    ~SshServer() {
        dropbear.kill();
        dropbear.waitForFinished(3000);
        QFile::remove("/root/.ssh/authorized_keys");
    }
};

StartOptions sshOptions(const SshOptions& ssh) {
    StartOptions options;
    options.lesson = "write";
    options.engineHost = EngineHost::Ssh;
    options.ssh = ssh;
    return options;
}

} // namespace

class AppSshTest : public QObject {
    Q_OBJECT
  private slots:
    void sshAddressesAreReadOrRefused() {
        QString error;
        auto plain = parseSshUrl("ssh://lab-server", &error);
        QVERIFY2(plain, qPrintable(error));
        QCOMPARE(plain->destination, QStringLiteral("lab-server"));
        QCOMPARE(plain->port, 0);
        auto full = parseSshUrl("ssh://alice@192.0.2.7:2222", &error);
        QVERIFY2(full, qPrintable(error));
        QCOMPARE(full->destination, QStringLiteral("alice@192.0.2.7"));
        QCOMPARE(full->port, 2222);
        for (const char* bad :
             {"ssh://", "ssh://host/path", "http://host", "ssh://-oProxyCommand=x", "ssh://host:notaport"}) {
            QVERIFY2(!parseSshUrl(bad, &error), bad);
            QVERIFY2(error.contains(QLatin1String(bad)) && error.contains("ssh://[USER@]HOST[:PORT]"),
                     qPrintable(error));
        }
        // A bad port is named as a port, not as a missing host.
        for (const char* port : {"70000", "abc", "-1", "0", ""}) {
            const QString url = QStringLiteral("ssh://alice@lab-server:%1").arg(QLatin1String(port));
            QVERIFY2(!parseSshUrl(url, &error), qPrintable(url));
            QVERIFY2(
                error.contains(
                    QStringLiteral("the port '%1' is not a number from 1 to 65535").arg(QLatin1String(port))),
                qPrintable(error));
        }
        auto ipv6 = parseSshUrl("ssh://[2001:db8::7]:2222", &error);
        QVERIFY2(ipv6, qPrintable(error));
        QCOMPARE(ipv6->port, 2222);
        // An internationalized host goes to ssh in its ASCII (xn--) form.
        auto idn = parseSshUrl(QStringLiteral("ssh://bob@b\u00fccher.example"), &error);
        QVERIFY2(idn, qPrintable(error));
        QCOMPARE(idn->destination, QStringLiteral("bob@xn--bcher-kva.example"));
    }

    /// No prompt (the app has no terminal), no tty (the JSON Lines pass unchanged), the port and the
    /// remote program as given, quoted for the remote shell.
    void theSshCommandNeverPrompts() {
        SshOptions options;
        options.destination = "alice@lab-server";
        options.port = 2222;
        options.program = "/opt/rdma lab/rdmalab-cli";
        options.ssh = "/usr/bin/ssh";
        SshTransport transport(options);
        const QStringList line = transport.commandLine();
        QCOMPARE(line.front(), QStringLiteral("/usr/bin/ssh"));
        QVERIFY(line.contains("BatchMode=yes"));
        QVERIFY(line.contains("-T"));
        QCOMPARE(line.at(line.indexOf("-p") + 1), QStringLiteral("2222"));
        QCOMPARE(line.mid(line.size() - 3),
                 (QStringList{"--", "alice@lab-server", "'/opt/rdma lab/rdmalab-cli' serve --stdio"}));
        QCOMPARE(transport.where(), QStringLiteral("alice@lab-server:2222 over SSH"));
        // A program name ending in a line break stays one quoted word: the remote shell does not run a
        // second command.
        options.program = "rdmalab-cli\n";
        const QStringList broken = SshTransport(options).commandLine();
        QCOMPARE(broken.back(), QStringLiteral("'rdmalab-cli\n' serve --stdio"));
    }

    /// The app stays, and its banner says what ssh said, which failure that is, and the fix.
    void eachSshFailureIsExplained() {
        struct Case {
            QString says;
            int exitCode;
            QStringList expected;
        };
        const std::vector<Case> cases = {
            {"ssh: Could not resolve hostname lab-server: Name or service not known",
             255,
             {"cannot find the host lab-server", "~/.ssh/config"}},
            {"ssh: connect to host lab-server port 22: Connection refused",
             255,
             {"refused the SSH connection", "openssh-server"}},
            {"ssh: connect to host lab-server port 22: No route to host",
             255,
             {"cannot be reached over SSH", "firewall"}},
            {"root@lab-server: Permission denied (publickey,password).",
             255,
             {"refused the login", "ssh-copy-id lab-server"}},
            {"Host key verification failed.", 255, {"does not trust lab-server's host key", "fingerprint"}},
            {"bash: line 1: rdmalab-cli: command not found", 127, {"has no rdmalab-cli", "--engine-program"}},
            {"kex_exchange_identification: read: Connection reset by peer",
             255,
             {"cannot be reached over SSH"}},
            {"", 1, {"failed before the engine started (exit status 1)", "(ssh said nothing)"}},
        };
        QTemporaryDir dir;
        for (const auto& c : cases) {
            qputenv("RDMALAB_FAKE_SSH_SAYS", c.says.toUtf8());
            SshOptions ssh;
            ssh.destination = "lab-server";
            ssh.ssh = fakeSsh(dir, c.says, c.exitCode);
            MainWindow window(sshOptions(ssh));
            window.show();
            auto* message = windowParts(window).engineMessage();
            QTRY_VERIFY(windowParts(window).engineBanner()->isVisible());
            for (const QString& part : c.expected)
                QVERIFY2(message->text().contains(part), qPrintable(message->text()));
            if (!c.says.isEmpty()) QVERIFY2(message->text().contains(c.says), qPrintable(message->text()));
            QCOMPARE(mainWindow(window).engineHostLabel()->text(),
                     QStringLiteral("engine stopped · lab-server over SSH"));
            QVERIFY(windowParts(window).restartEngineButton()->isVisible());
        }
        qunsetenv("RDMALAB_FAKE_SSH_SAYS");
    }

    /// The real ssh, to a port where nothing listens.
    void aClosedPortIsRefused() {
        if (QStandardPaths::findExecutable("ssh").isEmpty())
            QFAIL("ssh is not installed (resources/scripts/install-deps.sh installs openssh-client)");
        SshOptions ssh;
        ssh.destination = "127.0.0.1";
        ssh.port = 1;
        ssh.extraArguments = {"-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null"};
        EngineClient engine;
        engine.setHost(EngineHost::Ssh, {}, ssh);
        QSignalSpy died(&engine, &EngineClient::engineDied);
        engine.start();
        QTRY_COMPARE_WITH_TIMEOUT(died.size(), 1, 30000);
        const QString text = died.front().front().toString();
        QVERIFY2(text.contains("127.0.0.1:1 refused the SSH connection") &&
                     text.contains("Connection refused"),
                 qPrintable(text));
        QVERIFY(!engine.isRunning());
    }

    /// Engine ▸ Where the engine runs…: a bad address is refused in the dialog, with why; a good one
    /// switches the engine there (here a closed port of this machine, so ssh's refusal shows).
    void theEngineHostDialogSwitchesToAnSshHost() {
        if (QStandardPaths::findExecutable("ssh").isEmpty())
            QFAIL("ssh is not installed (resources/scripts/install-deps.sh installs openssh-client)");
        StartOptions options;
        options.lesson = "write";
        options.engineHost = EngineHost::Local;
        MainWindow window(options);
        window.show();
        QString refusal;
        bool seen = false;
        QTimer::singleShot(0, &window, [&] {
            auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            if (!dialog || dialog->objectName() != "engineHostDialog") return;
            seen = true;
            dialog->findChild<QRadioButton*>("engineHostSsh")->setChecked(true);
            auto* address = dialog->findChild<QLineEdit*>("engineHostAddress");
            address->setText("lab server/x");
            dialog->accept(); // refused: it stays open and says why
            refusal = dialog->findChild<QLabel*>("engineHostError")->text();
            address->setText("127.0.0.1:1");
            dialog->accept();
        });
        mainWindow(window).engineHostAction()->trigger();
        QVERIFY(seen);
        QVERIFY2(refusal.contains("is not an SSH engine host"), qPrintable(refusal));
        QCOMPARE(window.engine()->host(), EngineHost::Ssh);
        auto* message = windowParts(window).engineMessage();
        QTRY_VERIFY_WITH_TIMEOUT(windowParts(window).engineBanner()->isVisible(), 30000);
        QVERIFY2(message->text().contains("127.0.0.1:1 refused the SSH connection"),
                 qPrintable(message->text()));
        QCOMPARE(mainWindow(window).engineHostLabel()->text(),
                 QStringLiteral("engine stopped · 127.0.0.1:1 over SSH"));
    }

    /// In the test bed: the Write lesson with its engine behind ssh; the engine is killed on the far side
    /// midway; the app stays, says so and keeps what was recorded (in the timeline and in its autosave);
    /// Restart engine connects again and the lesson runs to its end on rxe0.
    void aLessonOverSshSurvivesItsEngineBeingKilled() {
        RDMALAB_REQUIRE_DEVICE();
        SshServer server;
        QVERIFY2(server.start(), qPrintable(server.error));
        QTemporaryDir sessions;
        qputenv("RDMALAB_SESSIONS_DIR", sessions.path().toUtf8());
        auto owned = std::make_unique<MainWindow>(sshOptions(server.options(server.key)));
        MainWindow& window = *owned;
        window.show();
        auto* controller = window.controller();
        auto* step = mainWindow(window).stepButton();
        auto* hostLabel = mainWindow(window).engineHostLabel();
        auto* banner = windowParts(window).engineBanner();
        auto* message = windowParts(window).engineMessage();
        QTRY_VERIFY_WITH_TIMEOUT(!controller->state().plannedSteps.empty() || banner->isVisible(), 60000);
        QVERIFY2(!banner->isVisible(), qPrintable(message->text()));
        QCOMPARE(hostLabel->text(), QStringLiteral("rxe0 · root@127.0.0.1:2222 over SSH"));
        // The engine runs behind dropbear, not as the app's child.
        const auto remote = enginesRunning(RDMALAB_CLI_PATH);
        QCOMPARE(remote.size(), 1);
        QVERIFY(remote.front() != window.engine()->processId());

        for (int i = 0; i < 4; ++i) {
            const auto before = controller->sessionEvents().size();
            QTRY_VERIFY_WITH_TIMEOUT(step->isEnabled(), 30000);
            step->click();
            QTRY_VERIFY_WITH_TIMEOUT(!controller->busy() && controller->sessionEvents().size() > before,
                                     30000);
            controller->animationsIdle();
        }
        QVERIFY(!controller->finished());
        ::kill(static_cast<pid_t>(remote.front()), SIGKILL);
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 30000);
        QVERIFY2(message->text().contains("The connection to the engine on root@127.0.0.1:2222 ended") &&
                     message->text().contains("Nothing you recorded is lost") &&
                     message->text().contains("Restart engine"),
                 qPrintable(message->text()));
        QCOMPARE(hostLabel->text(), QStringLiteral("engine stopped · root@127.0.0.1:2222 over SSH"));
        QVERIFY(!step->isEnabled());
        qInfo("after the kill: %s", qPrintable(message->text()));
        if (const QByteArray shots = qgetenv("RDMALAB_SCREENSHOT_DIR"); !shots.isEmpty())
            window.grab().save(QString::fromLocal8Bit(shots) + "/engine-over-ssh-lost.png");

        // The recording is intact: the autosave holds every event the timeline holds, in order.
        const std::vector<TraceEvent> recorded(controller->sessionEvents().begin(),
                                               controller->sessionEvents().end());
        QVERIFY(recorded.size() > 10);
        const QStringList files = QDir(sessions.path()).entryList({"*.jsonl"}, QDir::Files);
        QCOMPARE(files.size(), 1);
        TraceFileError error;
        const auto saved = readTraceFile(sessions.filePath(files.front()), error);
        QVERIFY2(saved, qPrintable(error.toString()));
        QCOMPARE(saved->size(), recorded.size());
        for (std::size_t i = 0; i < recorded.size(); ++i) {
            QCOMPARE((*saved)[i].seq, recorded[i].seq);
            QCOMPARE((*saved)[i].name, recorded[i].name);
        }

        // Reconnect: a new engine there, the lesson again from its start, to its end.
        windowParts(window).restartEngineButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(window.engine()->isRunning() && !banner->isVisible(), 30000);
        // A new session: the lesson starts again (the killed one's events are in its autosave).
        QTRY_VERIFY_WITH_TIMEOUT(controller->sessionEvents().size() < recorded.size() &&
                                     !controller->state().plannedSteps.empty() && step->isEnabled(),
                                 60000);
        int presses = 0;
        while (!controller->finished()) {
            const auto before = controller->sessionEvents().size();
            QTRY_VERIFY_WITH_TIMEOUT(step->isEnabled() || banner->isVisible(), 30000);
            QVERIFY2(!banner->isVisible(), qPrintable(message->text()));
            step->click();
            QTRY_VERIFY_WITH_TIMEOUT(!controller->busy() && controller->sessionEvents().size() > before,
                                     30000);
            controller->animationsIdle();
            QVERIFY(++presses < 40);
        }
        const auto& state = controller->state();
        QCOMPARE(state.device, QStringLiteral("rxe0"));
        QCOMPARE(state.verified, std::optional<bool>(true));
        QVERIFY2(state.memory[1].bytes.startsWith(QByteArray("Hello, RDMA!")),
                 state.memory[1].bytes.left(32).toHex().constData());
        QCOMPARE(hostLabel->text(), QStringLiteral("rxe0 · root@127.0.0.1:2222 over SSH"));
        if (const QByteArray shots = qgetenv("RDMALAB_SCREENSHOT_DIR"); !shots.isEmpty()) {
            QTRY_VERIFY_WITH_TIMEOUT(window.findChild<DataPathView*>()->isIdle(), 60000);
            window.grab().save(QString::fromLocal8Bit(shots) + "/engine-over-ssh.png");
        }
        owned.reset();
        QTRY_VERIFY_WITH_TIMEOUT(enginesRunning(RDMALAB_CLI_PATH).isEmpty(), 10000);
        qunsetenv("RDMALAB_SESSIONS_DIR");
        RDMALAB_CHECK_RESOURCES();
    }

    /// In the test bed: a key the server does not know, and a host without rdmalab-cli, each get their
    /// own message from the real ssh and dropbear.
    void aRejectedKeyAndAMissingEngineAreExplained() {
        RDMALAB_REQUIRE_DEVICE();
        SshServer server;
        QVERIFY2(server.start(), qPrintable(server.error));
        {
            EngineClient engine;
            engine.setHost(EngineHost::Ssh, {}, server.options(server.otherKey));
            QSignalSpy died(&engine, &EngineClient::engineDied);
            engine.start();
            QTRY_COMPARE_WITH_TIMEOUT(died.size(), 1, 30000);
            const QString text = died.front().front().toString();
            QVERIFY2(text.contains("root@127.0.0.1:2222 refused the login") &&
                         text.contains("Permission denied") && text.contains("ssh-copy-id root@127.0.0.1"),
                     qPrintable(text));
        }
        {
            auto options = server.options(server.key);
            options.program = "/nonexistent/rdmalab-cli";
            EngineClient engine;
            engine.setHost(EngineHost::Ssh, {}, options);
            QSignalSpy died(&engine, &EngineClient::engineDied);
            engine.start();
            QTRY_COMPARE_WITH_TIMEOUT(died.size(), 1, 30000);
            const QString text = died.front().front().toString();
            QVERIFY2(text.contains("root@127.0.0.1:2222 has no rdmalab-cli that ssh can run "
                                   "(/nonexistent/rdmalab-cli)") &&
                         text.contains("No such file or directory"),
                     qPrintable(text));
        }
        RDMALAB_CHECK_RESOURCES();
    }
};

QTEST_MAIN(AppSshTest)
#include "tst_app_ssh.moc"
