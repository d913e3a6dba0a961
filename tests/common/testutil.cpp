#include "testutil.hpp"

#include "rdmalab/engine/device.hpp"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QUrl>
#include <QtGlobal>
#include <QtTest>

#include <optional>

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

CliRun openInChromium(const QString& html, const QString& png, int width, int height) {
    // Its own profile in a temporary directory (the test bed's $HOME is read-only); no sandbox, as root.
    QTemporaryDir profile;
    const QStringList common = {QStringLiteral("--headless"), QStringLiteral("--no-sandbox"),
                                QStringLiteral("--disable-gpu"), QStringLiteral("--hide-scrollbars"),
                                QStringLiteral("--user-data-dir=") + profile.path()};
    const QString url = QUrl::fromLocalFile(QFileInfo(html).absoluteFilePath()).toString();
    CliRun dom =
        runProgram(QStringLiteral("chromium"), common + QStringList{QStringLiteral("--dump-dom"), url});
    if (dom.exitCode != 0 || png.isEmpty()) return dom;
    const CliRun shot =
        runProgram(QStringLiteral("chromium"),
                   common + QStringList{QStringLiteral("--window-size=%1,%2").arg(width).arg(height),
                                        QStringLiteral("--screenshot=") + png, url});
    if (shot.exitCode != 0 || !QFileInfo::exists(png)) {
        dom.exitCode = shot.exitCode == 0 ? 1 : shot.exitCode;
        dom.err = shot.err;
    }
    return dom;
}

CliRun runCli(const QStringList& args, const QStringList& wrapper, const QByteArray& input) {
    QStringList all = wrapper;
    all << RDMALAB_CLI_PATH << args;
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

QString RdmaResourceCounts::describe() const {
    if (!error.isEmpty()) return error;
    QStringList parts;
    for (auto it = counts.begin(); it != counts.end(); ++it)
        parts << QStringLiteral("%1 %2").arg(it.key()).arg(it.value());
    return parts.join(QStringLiteral(", "));
}

RdmaResourceCounts rdmaResourceCounts() {
    RdmaResourceCounts result;
    QString rdma = QStandardPaths::findExecutable(QStringLiteral("rdma"));
    if (rdma.isEmpty())
        rdma = QStandardPaths::findExecutable(QStringLiteral("rdma"),
                                              {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")});
    if (rdma.isEmpty()) {
        result.error = QStringLiteral("the rdma tool (iproute2) is not installed");
        return result;
    }
    QProcess process;
    process.start(rdma, {QStringLiteral("-j"), QStringLiteral("resource"), QStringLiteral("show")});
    if (!process.waitForFinished(10000) || process.exitCode() != 0) {
        result.error = QStringLiteral("`rdma -j resource show` failed: %1")
                           .arg(QString::fromUtf8(process.readAllStandardError()).trimmed());
        return result;
    }
    QJsonParseError parseError{};
    const auto document = QJsonDocument::fromJson(process.readAllStandardOutput(), &parseError);
    if (!document.isArray()) {
        result.error =
            QStringLiteral("`rdma -j resource show` printed no JSON array: %1").arg(parseError.errorString());
        return result;
    }
    for (const auto& entry : document.array()) {
        const auto device = entry.toObject();
        const QString name = device.value(QStringLiteral("ifname")).toString();
        for (auto it = device.begin(); it != device.end(); ++it)
            if (it.key() != QLatin1String("ifindex") && it.value().isDouble())
                result.counts.insert(name + u' ' + it.key(), it.value().toInteger());
    }
    return result;
}

namespace {
std::optional<RdmaResourceCounts> resourceBaseline;
}

void beginResourceCheck() {
    resourceBaseline = rdmaResourceCounts();
}

QString endResourceCheck() {
    if (!resourceBaseline) return {}; // the test was skipped before it began
    const RdmaResourceCounts before = *resourceBaseline;
    resourceBaseline.reset();
    RdmaResourceCounts after = rdmaResourceCounts();
    // Objects of processes that just ended are released by the kernel as their files close: allow a moment.
    QElapsedTimer clock;
    clock.start();
    while (before.error.isEmpty() && after.error.isEmpty() && after.counts != before.counts &&
           clock.elapsed() < 3000) {
        QThread::msleep(100);
        after = rdmaResourceCounts();
    }
    QString difference;
    if (!before.error.isEmpty() || !after.error.isEmpty()) {
        if (deviceRequired())
            difference = QStringLiteral("RDMA resources could not be counted: %1")
                             .arg(before.error.isEmpty() ? after.error : before.error);
    } else if (after.counts != before.counts) {
        QStringList changed;
        QStringList keys = before.counts.keys() + after.counts.keys();
        keys.removeDuplicates();
        keys.sort();
        for (const auto& key : keys)
            if (before.counts.value(key) != after.counts.value(key))
                changed << QStringLiteral("%1: %2 before, %3 after")
                               .arg(key)
                               .arg(before.counts.value(key))
                               .arg(after.counts.value(key));
        difference =
            QStringLiteral("RDMA resources differ after the test: ") + changed.join(QStringLiteral("; "));
    }
    const QString log = qEnvironmentVariable("RDMALAB_RESOURCE_LOG");
    if (!log.isEmpty()) {
        QFile file(log);
        if (file.open(QIODevice::Append | QIODevice::Text)) {
            const QString name = QCoreApplication::applicationName() + u'.' +
                                 QString::fromLatin1(QTest::currentTestFunction());
            const QString line = difference.isEmpty()
                                     ? QStringLiteral("%1\tsame\t%2\n").arg(name, after.describe())
                                     : QStringLiteral("%1\tDIFFERENT\t%2\n").arg(name, difference);
            file.write(line.toUtf8());
        }
    }
    return difference;
}

QList<QByteArray> recordingLines(const QString& name, qsizetype count) {
    QFile file((RDMALAB_SOURCE_DIR + QStringLiteral("/tests/data/")) + name);
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
