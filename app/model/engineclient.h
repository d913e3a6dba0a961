// The bridge to the engine process: starts `rdmalab-cli serve --stdio` (a child process on this machine, or
// inside the SoftRoCE VM the app boots: EngineTransport), sends JSON commands, parses the JSON Lines it
// streams back into trace events and hands them to the UI in batches (one signal per batch, at most every
// kBatchIntervalMs), so a fast event stream never floods the event loop. A command's answer (a result
// event) is handed over at once, with the events before it.
#pragma once

#include "enginetransport.h"
#include "sshtransport.h"
#include "vmtransport.h"

#include "rdmalab/format/protocol.hpp"
#include "rdmalab/format/trace.hpp"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace rdmalab::app {

/// The id of the command an event answers (`ids.id`), if it has one; throws FieldError when it is not an
/// integer.
std::optional<std::int64_t> commandId(const TraceEvent& event);

/// How EngineClient treats what the engine writes on its standard output. The engine speaks JSON Lines;
/// an engine that writes something else is broken (the wrong program, a library writing to stdout,
/// memory corruption) and is treated like one that died: it is stopped, engineDied says what it sent and
/// where, the events before it are kept, and Restart engine is offered.
/// - a line that is not a trace event at all (not JSON, not a JSON object, a header field missing or
///   wrong: v, seq, t_ns, ep, kind, name, ids, data): at once;
/// - a line longer than kMaxEngineLineBytes (counted before its newline arrives): at once;
/// - an event with a field of the wrong type for the views (checkEventFields): reported with
///   protocolError and skipped; the kMaxSkippedEvents-th such event stops the engine.
inline constexpr qsizetype kMaxEngineLineBytes = 16LL << 20; ///< real lines are far shorter (< 100 KB)
inline constexpr int kMaxSkippedEvents = 3;

/// The id of the `hello` EngineClient sends itself as soon as the engine has started, before `started` is
/// emitted (send() never hands out 0). Its result reaches eventsArrived like any other when the engine
/// speaks this app's protocol (kProtocolVersion).
inline constexpr std::int64_t kHelloCommandId = 0;

/// A name of the engine protocol (rdmalab/format/protocol.hpp: a command, a measurement event) as the
/// QString EngineClient::send takes.
inline QString protocolName(std::string_view name) {
    return QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size()));
}

class EngineClient : public QObject {
    Q_OBJECT
  public:
    static constexpr int kBatchIntervalMs = 16;

    explicit EngineClient(QObject* parent = nullptr);
    ~EngineClient() override;

    /// Path of rdmalab-cli; default: next to the app, then the build tree, then PATH.
    void setProgram(const QString& program) { program_ = program; }
    QString program() const { return program_; }
    static QString defaultProgram();

    /// Where the engine runs from the next start() on (default: defaultHost()); a VM is booted with `vm`,
    /// another host reached with `ssh`.
    void setHost(EngineHost host, const VmOptions& vm = {}, const SshOptions& ssh = {});
    EngineHost host() const { return host_; }
    /// The SSH host, when host() is EngineHost::Ssh.
    const SshOptions& sshOptions() const { return ssh_; }
    /// The host every new EngineClient starts with (`rdmalab --engine local|vm|ssh://HOST` sets it for all
    /// windows).
    static void setDefaultHost(EngineHost host, const VmOptions& vm = {}, const SshOptions& ssh = {});
    static EngineHost defaultHost();
    /// Where the engine runs, for the status line: "this machine", "SoftRoCE VM (qemu, software CPU
    /// emulation)".
    QString where() const { return transport_->where(); }
    EngineTransport* transport() { return transport_; }

    void start();
    void stop();
    bool isRunning() const { return transport_->isOpen(); }
    /// The engine process, or the VM's qemu process; 0 when none.
    qint64 processId() const { return transport_->processId(); }

    /// Sends {"id":N,"cmd":cmd,...fields}; returns the id, or -1 when the engine is not running. A `hello`
    /// carries `protocol` (kProtocolVersion).
    int send(const QString& cmd, const nlohmann::json& fields = nlohmann::json::object());
    /// Number of commands sent that have not been answered.
    int pending() const { return pending_; }

  signals:
    /// While the engine is being started (a VM booting): what happens, for the status line.
    void startProgress(const QString& text);
    /// Before the engine can start, something is downloaded (the VM's kernel, on first use): `done` bytes
    /// of `total`; done == total ends it.
    void startDownload(qint64 done, qint64 total);
    void started();
    /// A batch of events in arrival order (trace events and command results).
    void eventsArrived(const std::vector<rdmalab::TraceEvent>& events);
    /// The engine process failed to start, crashed or exited; or it speaks another engine protocol than
    /// this app (its `hello` names another version, or none: an older engine), and was stopped.
    /// `message` says which and how to recover.
    void engineDied(const QString& message);
    /// An event from the engine with a field of the wrong type (checkEventFields): shown and skipped, until
    /// kMaxSkippedEvents of them stop the engine (engineDied).
    void protocolError(const QString& message);

  private:
    void onStarted();
    void readOutput();
    void flushBatch();
    void onExited(int exitCode, bool crashed, const QString& diagnostics);
    void onFailed(const QString& message);
    void write(const std::string& line);
    /// The program, and where it runs when that is not this machine, for messages.
    QString engineName() const;
    /// The engine sent garbage: stop it and report it through engineDied, as if it had died.
    void refuseOutput(const QString& reason);
    /// The answer to a `hello` names another protocol than kProtocolVersion, or none: stop the engine and
    /// report it through engineDied, naming both. Returns true when it did.
    bool refuseProtocol(const TraceEvent& hello);
    /// Stops the engine at once and reports `message` through engineDied; its exit is not reported again.
    void abandon(const QString& message);

    EngineHost host_;
    VmOptions vm_;
    SshOptions ssh_;
    QPointer<EngineTransport> transport_;
    QString program_;
    QByteArray buffer_;
    std::vector<TraceEvent> batch_;
    QTimer batchTimer_;
    int nextId_ = 1;
    int pending_ = 0;
    std::size_t lineNumber_ = 0;
    int skippedEvents_ = 0;
    bool stopping_ = false;
    bool diedReported_ = false;
};

} // namespace rdmalab::app
