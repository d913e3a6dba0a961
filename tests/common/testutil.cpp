#include "testutil.hpp"

#include "rdmalab/device.hpp"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
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

CliRun runProgram(const QString& program, const QStringList& args, const QProcessEnvironment& environment,
                  const QByteArray& input) {
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(program, args);
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

CliRun runCli(const QStringList& args, const QStringList& wrapper, const QByteArray& input) {
    QStringList all = wrapper;
    all << QStringLiteral(RDMALAB_CLI_PATH) << args;
    const QString program = all.takeFirst();
    return runProgram(program, all, QProcessEnvironment::systemEnvironment(), input);
}

CliRun renderManPage(const QString& path) {
    auto environment = QProcessEnvironment::systemEnvironment();
    for (const auto* name : {"MAN_KEEP_FORMATTING", "MANPAGER", "PAGER", "MANOPT", "MANROFFOPT"})
        environment.remove(QString::fromLatin1(name));
    environment.insert("MANWIDTH", "200");
    environment.insert("LC_ALL", "C.UTF-8");
    if (QStandardPaths::findExecutable("man").isEmpty()) {
        CliRun run;
        run.err = "man is not installed (package man-db, in resources/scripts/install-deps.sh)";
        return run;
    }
    auto run = runProgram("man", {"-P", "cat", "-l", path}, environment);
    static const QRegularExpression overstrike(QStringLiteral(".\x08"));
    run.out.remove(overstrike);
    if (run.exitCode == 0 && run.out.trimmed().isEmpty()) {
        run.exitCode = -1;
        run.err = QStringLiteral("man -l %1 printed nothing: %2").arg(path, run.err);
    }
    return run;
}

QList<QByteArray> recordingLines(const QString& name, qsizetype count) {
    QFile file(QStringLiteral(RDMALAB_SOURCE_DIR "/tests/data/") + name);
    if (!file.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(file.fileName()));
    QList<QByteArray> lines;
    while (!file.atEnd() && lines.size() < count)
        lines << file.readLine();
    return lines;
}

qint64 deadProcessId() {
    QProcess child;
    child.start(QStringLiteral("true"), {});
    if (!child.waitForStarted(10000)) qFatal("cannot start true");
    const qint64 pid = child.processId();
    child.waitForFinished(10000); // reaped: the pid is free
    return pid;
}

QString writeUnfinishedSession(const QString& directory, const QString& name, const QList<QByteArray>& lines,
                               const QByteArray& partial, qint64 pid, const QString& startedIso) {
    const QString path = directory + "/" + name + ".jsonl";
    QFile session(path);
    if (!session.open(QIODevice::WriteOnly | QIODevice::NewOnly))
        qFatal("cannot create %s", qPrintable(path));
    for (const auto& line : lines)
        session.write(line);
    session.write(partial);
    session.close();
    QFile bootId(QStringLiteral("/proc/sys/kernel/random/boot_id"));
    const QByteArray boot = bootId.open(QIODevice::ReadOnly) ? bootId.readAll().trimmed() : QByteArray();
    QFile marker(path + ".open");
    if (!marker.open(QIODevice::WriteOnly | QIODevice::NewOnly))
        qFatal("cannot create %s.open", qPrintable(path));
    marker.write("{\"pid\":" + QByteArray::number(pid) + ",\"start_ticks\":0,\"boot_id\":\"" + boot +
                 "\",\"started\":\"" + startedIso.toUtf8() + "\"}\n");
    return path;
}

} // namespace rdmalab::test
