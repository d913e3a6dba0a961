// How EngineClient reaches the engine: a byte stream (a QIODevice) to `rdmalab-cli serve --stdio` wherever
// it runs. ProcessTransport runs it as a child process on this machine (its stdin and stdout);
// VmTransport (vmtransport.h) boots the SoftRoCE VM and speaks to the engine inside it over a
// virtio-serial port; SshTransport (sshtransport.h) runs it on another host over ssh. EngineClient speaks the
// same JSON Lines protocol over either.
#pragma once

#include <QIODevice>
#include <QObject>
#include <QProcess>
#include <QString>

namespace rdmalab::app {

/// Where the engine runs.
enum class EngineHost {
    Local, ///< a child process on this machine
    Vm,    ///< inside the SoftRoCE VM the app boots (qemu, tests/softroce)
    Ssh,   ///< on another host, over ssh (sshtransport.h)
};

class EngineTransport : public QObject {
    Q_OBJECT
  public:
    using QObject::QObject;

    /// Starts the engine `program` (rdmalab-cli); opened() once commands can be written to device().
    virtual void open(const QString& program) = 0;
    /// The engine's stream: commands are written to it, its JSON Lines read from it. Valid while isOpen().
    virtual QIODevice* device() = 0;
    /// Commands can be written (the engine has started).
    virtual bool isOpen() const = 0;
    /// Something runs that close() or kill() must end (a VM still booting counts).
    virtual bool isActive() const = 0;
    /// Ends the engine after it has read what was written (the `quit` EngineClient wrote): lets it stop on
    /// its own for a while, then kills it. Blocks until it has ended.
    virtual void close() = 0;
    /// Ends the engine at once. Blocks until it has ended.
    virtual void kill() = 0;
    /// The process that is the engine (or the VM that holds it); 0 when none.
    virtual qint64 processId() const = 0;
    /// Where the engine runs, for the status line ("this machine", "SoftRoCE VM (qemu, …)").
    virtual QString where() const = 0;

  signals:
    void opened();
    void readyRead();
    /// The engine could not be started, or the machine it ran on stopped: `message` says what failed, why,
    /// and the fix.
    void failed(const QString& message);
    /// The engine process ended on its own; `diagnostics` is what it wrote on standard error.
    void exited(int exitCode, bool crashed, const QString& diagnostics);
    /// While the engine is being started (a VM booting): what is happening, for the status line.
    void progress(const QString& text);
    /// While something is downloaded before the engine can start (the VM's kernel, on first use): bytes so
    /// far of `total` (0: unknown). done == total ends it.
    void downloadProgress(qint64 done, qint64 total);
};

/// An engine behind a child process whose stdin and stdout are the engine's stream: rdmalab-cli itself
/// (ProcessTransport), or the ssh that runs it on another host (SshTransport).
class ChildProcessTransport : public EngineTransport {
    Q_OBJECT
  public:
    using EngineTransport::EngineTransport;
    QIODevice* device() override { return &process_; }
    bool isOpen() const override { return process_.state() == QProcess::Running; }
    bool isActive() const override { return process_.state() != QProcess::NotRunning; }
    qint64 processId() const override { return process_.processId(); }

  protected:
    /// Closes the process's stdin (the engine reads its end of input and quits), gives it `graceMs` to end,
    /// then kills it. Blocks until it has ended.
    void endProcess(int graceMs);
    /// Kills the process. Blocks until it has ended.
    void killProcess();

    QProcess process_; ///< the engine's process (or the ssh that runs it)
};

/// `rdmalab-cli serve --stdio` as a child process: commands on its stdin, events from its stdout.
class ProcessTransport : public ChildProcessTransport {
    Q_OBJECT
  public:
    explicit ProcessTransport(QObject* parent = nullptr);
    void open(const QString& program) override;
    void close() override;
    void kill() override;
    QString where() const override;
};

} // namespace rdmalab::app
