#include "enginetransport.h"

#include <QCoreApplication>

namespace rdmalab::app {

void ChildProcessTransport::endProcess(int graceMs) {
    if (process_.state() == QProcess::NotRunning) return;
    process_.closeWriteChannel();
    if (!process_.waitForFinished(graceMs)) {
        process_.kill();
        process_.waitForFinished(1000);
    }
}

void ChildProcessTransport::killProcess() {
    if (process_.state() == QProcess::NotRunning) return;
    process_.kill();
    process_.waitForFinished(2000);
}

ProcessTransport::ProcessTransport(QObject* parent) : ChildProcessTransport(parent) {
    process_.setReadChannel(QProcess::StandardOutput);
    connect(&process_, &QProcess::started, this, &EngineTransport::opened);
    connect(&process_, &QProcess::readyReadStandardOutput, this, &EngineTransport::readyRead);
    connect(&process_, &QProcess::finished, this, [this](int exitCode, QProcess::ExitStatus status) {
        emit exited(exitCode, status == QProcess::CrashExit,
                    QString::fromUtf8(process_.readAllStandardError()).trimmed());
    });
    connect(&process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart) return;
        emit failed(
            QCoreApplication::translate("rdmalab::app::EngineClient",
                                        "Could not start the engine process '%1': %2.\nBuild it with "
                                        "`cmake --build --preset dev` or put rdmalab-cli next to the app.")
                .arg(process_.program(), process_.errorString()));
    });
}

void ProcessTransport::open(const QString& program) {
    process_.setProcessChannelMode(QProcess::SeparateChannels);
    process_.start(program, {"serve", "--stdio"});
}

void ProcessTransport::close() {
    endProcess(2000);
}

void ProcessTransport::kill() {
    killProcess();
}

QString ProcessTransport::where() const {
    return QCoreApplication::translate("rdmalab::app::EngineClient", "this machine");
}

} // namespace rdmalab::app
