// The engine on another host over SSH (`rdmalab --engine ssh://[USER@]HOST[:PORT]`): the app runs
// `ssh HOST rdmalab-cli serve --stdio` with the user's own ssh configuration and keys, and speaks the engine
// protocol over ssh's stdin and stdout. Nothing is copied to or installed on HOST. ssh runs in batch mode
// (no password or passphrase prompt: a prompt would hang an app that has no terminal), so the login must
// work with a key, from ssh-agent or an unencrypted key file. When ssh fails, the transport reads ssh's own
// words and says which of the usual causes it is (host unknown, unreachable, key rejected, host key
// unknown or changed, rdmalab-cli missing there) and the fix. docs/engine-over-ssh.md tells the whole story.
#pragma once

#include "enginetransport.h"

#include <QProcess>
#include <QStringList>

#include <optional>

namespace rdmalab::app {

/// Where SshTransport connects. Empty fields take the defaults.
struct SshOptions {
    QString destination;        ///< [USER@]HOST as ssh takes it; a Host alias of ~/.ssh/config works too
    int port = 0;               ///< 0: ssh's own choice (~/.ssh/config, else 22)
    QString program;            ///< rdmalab-cli on HOST; default: "rdmalab-cli" on its PATH
    QString ssh;                ///< the ssh client; default: ssh on this machine's PATH
    QStringList extraArguments; ///< more ssh arguments before the destination (tests: -i KEY, -o …)
    int connectTimeoutSeconds = 15;
};

/// Reads `ssh://[USER@]HOST[:PORT]` into options; on a malformed one returns nullopt and says why in
/// `error`.
std::optional<SshOptions> parseSshUrl(const QString& url, QString* error);

/// Why an ssh that exited before the engine spoke failed, from its exit status and its standard error.
enum class SshFailure {
    HostUnknown,   ///< "Could not resolve hostname"
    Refused,       ///< "Connection refused": no SSH server on that port
    Unreachable,   ///< timed out, no route, network unreachable
    KeyRejected,   ///< "Permission denied (publickey…)"
    HostKey,       ///< "Host key verification failed" (unknown in batch mode, or changed)
    EngineMissing, ///< the remote shell could not run rdmalab-cli (exit 127 or 126)
    Other,
};
SshFailure classifySshFailure(int exitCode, const QString& standardError);

/// `ssh HOST rdmalab-cli serve --stdio` as a child process: commands on its stdin, events from its stdout.
class SshTransport : public ChildProcessTransport {
    Q_OBJECT
  public:
    explicit SshTransport(SshOptions options, QObject* parent = nullptr);
    ~SshTransport() override;

    /// Connects; `program` (this machine's rdmalab-cli) is not used: HOST runs its own (options.program).
    void open(const QString& program) override;
    void close() override;
    void kill() override;
    /// "HOST over SSH".
    QString where() const override;

    /// The ssh command line open() runs (program first), for the docs and the tests.
    QStringList commandLine() const;
    /// The host as the user named it ([USER@]HOST[:PORT]).
    QString hostName() const;

  private:
    void onFinished(int exitCode, QProcess::ExitStatus status);
    /// What failed and the fix, for an ssh that ended before the engine answered.
    QString failureBeforeAnswer(int exitCode, const QString& err) const;

    SshOptions options_;
    QString standardError_; ///< ssh's standard error (with the remote engine's), its last 4 KB
    bool answered_ = false; ///< the engine has written something
    bool ending_ = false;   ///< close() or kill(): ssh's end is expected
};

} // namespace rdmalab::app
