#include "sshtransport.h"

#include "qtstrings.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QUrl>

#include <algorithm>

namespace rdmalab::app {

namespace {

/// What ssh said, without its routine notices, for a message.
QString sshWords(const QString& err) {
    QStringList kept;
    for (const QString& line : err.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QString trimmed = line.trimmed();
        if (trimmed.startsWith(QLatin1String("Warning: Permanently added"))) continue;
        kept << trimmed;
    }
    if (kept.size() > 8) kept = kept.mid(kept.size() - 8);
    return kept.join(QLatin1Char('\n'));
}

} // namespace

std::optional<SshOptions> parseSshUrl(const QString& url, QString* error) {
    auto refuse = [error, &url](const QString& why) -> std::optional<SshOptions> {
        if (error)
            *error = QCoreApplication::translate("rdmalab::app::SshTransport",
                                                 "'%1' is not an SSH engine host: %2 (the form is "
                                                 "ssh://[USER@]HOST[:PORT])")
                         .arg(url, why);
        return std::nullopt;
    };
    if (!url.startsWith(QLatin1String("ssh://")))
        return refuse(
            QCoreApplication::translate("rdmalab::app::SshTransport", "it does not start with ssh://"));
    // The port is read here, so that "host:70000" or "host:abc" is named as a bad port, not as "no host".
    const QString authority = url.mid(6).section(QRegularExpression(QStringLiteral("[/?#]")), 0, 0);
    const QString hostAndPort = authority.section(QLatin1Char('@'), -1);
    const qsizetype colon = hostAndPort.lastIndexOf(QLatin1Char(':'));
    if (colon >= 0 && !hostAndPort.endsWith(QLatin1Char(']'))) {
        const QString port = hostAndPort.mid(colon + 1);
        bool number = !port.isEmpty() && std::all_of(port.begin(), port.end(), [](QChar c) {
            return c.isDigit() && c.unicode() < 128;
        });
        const int value = number ? port.toInt(&number) : 0;
        if (!number || value < 1 || value > 65535)
            return refuse(QCoreApplication::translate("rdmalab::app::SshTransport",
                                                      "the port '%1' is not a number from 1 to 65535")
                              .arg(port));
    }
    const QUrl parsed(url, QUrl::StrictMode);
    if (!parsed.isValid() || parsed.host().isEmpty())
        return refuse(QCoreApplication::translate("rdmalab::app::SshTransport", "it names no host"));
    if (!parsed.path().isEmpty() && parsed.path() != QLatin1String("/"))
        return refuse(QCoreApplication::translate("rdmalab::app::SshTransport", "a path after the host"));
    if (parsed.hasQuery() || parsed.hasFragment() || !parsed.password().isEmpty())
        return refuse(QCoreApplication::translate("rdmalab::app::SshTransport",
                                                  "something after the host that ssh would not take"));
    SshOptions options;
    const QString user = parsed.userName();
    // A user name or host that starts with '-' would be read by ssh as an option.
    if (parsed.host().startsWith(QLatin1Char('-')) || user.startsWith(QLatin1Char('-')))
        return refuse(
            QCoreApplication::translate("rdmalab::app::SshTransport", "a name that starts with '-'"));
    // An internationalized name goes to ssh (and to the status line) in its ASCII form, xn--…: what the
    // resolver looks up, and no look-alike of another host's name.
    const QString host = parsed.host(QUrl::EncodeUnicode);
    if (host.isEmpty())
        return refuse(QCoreApplication::translate("rdmalab::app::SshTransport", "it names no host"));
    options.destination = user.isEmpty() ? host : user + QLatin1Char('@') + host;
    options.port = parsed.port(0);
    return options;
}

SshFailure classifySshFailure(int exitCode, const QString& err) {
    if (exitCode == 127 || exitCode == 126) return SshFailure::EngineMissing;
    if (err.contains(QLatin1String("Could not resolve hostname"))) return SshFailure::HostUnknown;
    if (err.contains(QLatin1String("Host key verification failed")) ||
        err.contains(QLatin1String("REMOTE HOST IDENTIFICATION HAS CHANGED")))
        return SshFailure::HostKey;
    if (err.contains(QLatin1String("Permission denied"))) return SshFailure::KeyRejected;
    if (err.contains(QLatin1String("Connection refused"))) return SshFailure::Refused;
    if (err.contains(QLatin1String("timed out")) || err.contains(QLatin1String("No route to host")) ||
        err.contains(QLatin1String("Network is unreachable")) ||
        err.contains(QLatin1String("Connection reset")))
        return SshFailure::Unreachable;
    return SshFailure::Other;
}

SshTransport::SshTransport(SshOptions options, QObject* parent)
    : ChildProcessTransport(parent), options_(std::move(options)) {
    process_.setReadChannel(QProcess::StandardOutput);
    process_.setProcessChannelMode(QProcess::SeparateChannels);
    connect(&process_, &QProcess::started, this, &EngineTransport::opened);
    connect(&process_, &QProcess::readyReadStandardOutput, this, [this] {
        answered_ = true;
        emit readyRead();
    });
    connect(&process_, &QProcess::readyReadStandardError, this, [this] {
        standardError_ += QString::fromUtf8(process_.readAllStandardError());
        if (standardError_.size() > 4096) standardError_ = standardError_.right(4096);
    });
    connect(&process_, &QProcess::finished, this, &SshTransport::onFinished);
    connect(&process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart) return;
        emit failed(tr("Could not start ssh (%1): %2.\nFix: install the SSH client: sudo apt-get install "
                       "openssh-client (resources/scripts/install-deps.sh installs it).")
                        .arg(process_.program(), process_.errorString()));
    });
}

SshTransport::~SshTransport() {
    ending_ = true;
    kill();
}

QString SshTransport::hostName() const {
    return options_.port > 0 ? QStringLiteral("%1:%2").arg(options_.destination).arg(options_.port)
                             : options_.destination;
}

QString SshTransport::where() const {
    return tr("%1 over SSH").arg(hostName());
}

QStringList SshTransport::commandLine() const {
    QString ssh = options_.ssh;
    if (ssh.isEmpty()) ssh = QStandardPaths::findExecutable(QStringLiteral("ssh"));
    if (ssh.isEmpty()) ssh = QStringLiteral("ssh");
    QStringList line{ssh,
                     // Never a prompt: the app has no terminal to answer it on.
                     QStringLiteral("-o"), QStringLiteral("BatchMode=yes"), QStringLiteral("-o"),
                     QStringLiteral("ConnectTimeout=%1").arg(options_.connectTimeoutSeconds),
                     // A network that goes away is noticed within ~15 s, not at the next TCP time-out.
                     QStringLiteral("-o"), QStringLiteral("ServerAliveInterval=5"), QStringLiteral("-o"),
                     QStringLiteral("ServerAliveCountMax=3"),
                     // No terminal: the engine's JSON Lines pass through unchanged.
                     QStringLiteral("-T")};
    if (options_.port > 0) line << QStringLiteral("-p") << QString::number(options_.port);
    line << options_.extraArguments;
    const QString program = options_.program.isEmpty() ? QStringLiteral("rdmalab-cli") : options_.program;
    line << QStringLiteral("--") << options_.destination
         << QStringLiteral("%1 serve --stdio").arg(shellQuoted(program));
    return line;
}

void SshTransport::open(const QString& /*program: this machine's, HOST runs its own*/) {
    ending_ = false;
    answered_ = false;
    standardError_.clear();
    QStringList line = commandLine();
    const QString ssh = line.takeFirst();
    emit progress(tr("Connecting to %1 over SSH…").arg(hostName()));
    process_.start(ssh, line);
}

void SshTransport::close() {
    if (process_.state() == QProcess::NotRunning) return;
    ending_ = true;
    endProcess(3000); // the engine reads its end of input and quits; so does ssh
}

void SshTransport::kill() {
    if (process_.state() == QProcess::NotRunning) return;
    ending_ = true;
    killProcess(); // the remote engine reads end of input when the session closes, and quits
}

void SshTransport::onFinished(int exitCode, QProcess::ExitStatus status) {
    standardError_ += QString::fromUtf8(process_.readAllStandardError());
    if (ending_) {
        emit exited(exitCode, status == QProcess::CrashExit, sshWords(standardError_));
        return;
    }
    const QString said = sshWords(standardError_);
    if (!answered_) {
        emit failed(failureBeforeAnswer(status == QProcess::CrashExit ? -1 : exitCode, said));
        return;
    }
    QString message =
        status == QProcess::CrashExit
            ? tr("The connection to the engine on %1 ended: the ssh process was killed.").arg(hostName())
        : exitCode == 255
            ? tr("The connection to the engine on %1 ended (ssh exited with status 255): the engine there "
                 "was stopped, or the network to %1 was lost.")
                  .arg(hostName())
            : tr("The engine on %1 exited with status %2.").arg(hostName()).arg(exitCode);
    if (!said.isEmpty()) message += QLatin1Char('\n') + said;
    message += tr("\nNothing you recorded is lost: the trace so far stays in the timeline and in the "
                  "session's autosave. Press Restart engine to connect again.");
    emit failed(message);
}

QString SshTransport::failureBeforeAnswer(int exitCode, const QString& said) const {
    const QString host = hostName();
    const QString destination = options_.destination;
    const QString words = said.isEmpty() ? tr("(ssh said nothing)") : said;
    switch (classifySshFailure(exitCode, said)) {
    case SshFailure::HostUnknown:
        return tr("ssh cannot find the host %1:\n%2\nFix: check the name. A short name needs a Host entry "
                  "in ~/.ssh/config (with its HostName) or an entry in DNS or /etc/hosts.")
            .arg(destination, words);
    case SshFailure::Refused:
        return tr("%1 refused the SSH connection: no SSH server listens on that port.\n%2\nFix: start one "
                  "on %1 (Debian: sudo apt-get install openssh-server), or name its port: ssh://HOST:PORT.")
            .arg(host, words);
    case SshFailure::Unreachable:
        return tr("%1 cannot be reached over SSH.\n%2\nFix: check that %1 is on and on this network, and "
                  "that no firewall between blocks SSH (TCP port 22, or the port you named).")
            .arg(host, words);
    case SshFailure::KeyRejected:
        return tr("%1 refused the login.\n%2\nrdmalab runs ssh without asking for a password or a key's "
                  "passphrase (it has no terminal to ask on), so the login must work with a key. Fix: run "
                  "`ssh-copy-id %3` once in a terminal, and `ssh-add` if your key has a passphrase; then "
                  "`ssh %3 true` must work without a prompt.")
            .arg(host, words, destination);
    case SshFailure::HostKey:
        return tr("ssh does not trust %1's host key.\n%2\nFix: run `ssh %3` once in a terminal, compare "
                  "the key's fingerprint with what the host's administrator tells you, and accept it. If "
                  "ssh says the key has CHANGED, find out why before you remove the old one with "
                  "`ssh-keygen -R HOST`.")
            .arg(host, words, destination);
    case SshFailure::EngineMissing:
        return tr("%1 has no rdmalab-cli that ssh can run (%2).\n%3\nFix: install rdmalab %4 on %1 (the "
                  "same version as this app), or give the path of its rdmalab-cli with --engine-program "
                  "PATH. A command run over ssh gets the login's PATH without what ~/.bashrc adds.")
            .arg(host, options_.program.isEmpty() ? QStringLiteral("rdmalab-cli") : options_.program, words,
                 QStringLiteral(RDMALAB_VERSION));
    case SshFailure::Other:
        break;
    }
    return tr("ssh to %1 failed before the engine started (exit status %2).\n%3\nFix: run `ssh %4 "
              "rdmalab-cli --version` in a terminal to see the whole story.")
        .arg(host)
        .arg(exitCode)
        .arg(words, destination);
}

} // namespace rdmalab::app
