#include "testutil.hpp"

#include "rdmalab/device.hpp"

#include <QProcess>
#include <QtGlobal>

namespace rdmalab::test {

bool haveDevice() {
    try {
        return !rdmalab::list_devices().empty();
    } catch (...) {
        return false;
    }
}

QByteArray noDeviceMessage() {
    return "no RDMA device on this machine: device tests run inside the SoftRoCE test bed "
           "(tests/softroce/vm-run.sh, started by tests/run-all.sh)";
}

bool deviceRequired() {
    return qEnvironmentVariable("RDMALAB_REQUIRE_DEVICE") == QLatin1String("1");
}

CliRun runCli(const QStringList& args, const QStringList& wrapper, const QByteArray& input) {
    QProcess process;
    QStringList all = wrapper;
    all << QStringLiteral(RDMALAB_CLI_PATH) << args;
    const QString program = all.takeFirst();
    process.start(program, all);
    CliRun run;
    if (!process.waitForStarted(10000)) {
        run.err = QStringLiteral("could not start %1").arg(program);
        return run;
    }
    if (!input.isEmpty()) process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        run.err = QStringLiteral("timed out");
        return run;
    }
    run.crashed = process.exitStatus() == QProcess::CrashExit;
    run.exitCode = process.exitCode();
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

} // namespace rdmalab::test
