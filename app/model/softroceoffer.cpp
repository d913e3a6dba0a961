#include "softroceoffer.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QNetworkInterface>
#include <QStandardPaths>
#include <QSysInfo>

#include <unistd.h>

/// The offer's texts, in their own translation context (outside the namespace: lupdate and the run-time
/// lookup then agree on its name).
class SoftRoceText {
    Q_DECLARE_TR_FUNCTIONS(SoftRoceText)
};

namespace rdmalab::app {

namespace {

QString modulesDirOf(const SoftRoceProbe& probe) {
    return probe.modulesDir.isEmpty() ? QStringLiteral("/lib/modules/") + QSysInfo::kernelVersion()
                                      : probe.modulesDir;
}

/// Up, running, not loopback, with an IPv4 address: where RoCE v2 packets can go.
QStringList usableInterfaces() {
    QStringList names;
    for (const auto& interface : QNetworkInterface::allInterfaces()) {
        const auto flags = interface.flags();
        if (!flags.testFlag(QNetworkInterface::IsUp) || !flags.testFlag(QNetworkInterface::IsRunning) ||
            flags.testFlag(QNetworkInterface::IsLoopBack))
            continue;
        for (const auto& entry : interface.addressEntries())
            if (entry.ip().protocol() == QAbstractSocket::IPv4Protocol) {
                names << interface.name();
                break;
            }
    }
    return names;
}

QString findRdma(const SoftRoceProbe& probe) {
    if (!probe.rdma.isEmpty()) return probe.rdma;
    QString rdma = QStandardPaths::findExecutable(QStringLiteral("rdma"));
    if (rdma.isEmpty())
        rdma = QStandardPaths::findExecutable(QStringLiteral("rdma"),
                                              {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")});
    return rdma;
}

} // namespace

bool SoftRoceOffer::asksForRoot() const {
    return !command.isEmpty() && QFileInfo(command.front()).fileName() == QLatin1String("pkexec");
}

QString SoftRoceOffer::sudoLine() const {
    QStringList line = command;
    if (asksForRoot()) line.removeFirst();
    if (!line.isEmpty()) line.front() = QFileInfo(line.front()).fileName();
    return QStringLiteral("sudo ") + line.join(QLatin1Char(' '));
}

bool kernelHasRxe(const SoftRoceProbe& probe) {
    const QString sys = probe.sysModuleDir.isEmpty() ? QStringLiteral("/sys/module") : probe.sysModuleDir;
    if (QFileInfo::exists(sys + QStringLiteral("/rdma_rxe"))) return true;
    const QString modules = modulesDirOf(probe);
    // modules.dep lists every module file of the kernel, modules.builtin the ones compiled in.
    for (const char* list : {"/modules.dep", "/modules.builtin"}) {
        QFile file(modules + QLatin1String(list));
        if (file.open(QIODevice::ReadOnly) && file.readAll().contains("/rdma_rxe.ko")) return true;
    }
    const QDir rxe(modules + QStringLiteral("/kernel/drivers/infiniband/sw/rxe"));
    return !rxe.entryList({QStringLiteral("rdma_rxe.ko*")}, QDir::Files).isEmpty();
}

SoftRoceOffer softRoceOffer(const SoftRoceProbe& probe) {
    SoftRoceOffer offer;
    if (!kernelHasRxe(probe)) {
        offer.whyNot =
            SoftRoceText::tr("this kernel (%1) has no rdma_rxe module").arg(QSysInfo::kernelVersion());
        return offer;
    }
    const QStringList interfaces = probe.interfaces ? *probe.interfaces : usableInterfaces();
    if (interfaces.isEmpty()) {
        offer.whyNot =
            SoftRoceText::tr("no network interface is up with an IPv4 address (SoftRoCE needs one)");
        return offer;
    }
    const QString rdma = findRdma(probe);
    if (rdma.isEmpty()) {
        offer.whyNot = SoftRoceText::tr("the rdma tool (package iproute2) is not installed");
        return offer;
    }
    const bool root = probe.root ? *probe.root : ::geteuid() == 0;
    const QString pkexec =
        probe.pkexec.isEmpty() ? QStandardPaths::findExecutable(QStringLiteral("pkexec")) : probe.pkexec;
    if (!root && (pkexec.isEmpty() || !QFileInfo(pkexec).isExecutable())) {
        offer.whyNot =
            SoftRoceText::tr("pkexec (package pkexec) is not installed, so the app cannot ask for root");
        return offer;
    }
    offer.interfaceName = interfaces.front();
    if (!root) offer.command << pkexec;
    offer.command << rdma << QStringLiteral("link") << QStringLiteral("add") << offer.deviceName
                  << QStringLiteral("type") << QStringLiteral("rxe") << QStringLiteral("netdev")
                  << offer.interfaceName;
    offer.available = true;
    return offer;
}

QString explainSoftRoceFailure(const SoftRoceOffer& offer, int exitCode, const QString& errorText) {
    const QString said = errorText.trimmed();
    const bool viaPkexec = offer.asksForRoot();
    QString what, fix;
    if (exitCode < 0) {
        what = SoftRoceText::tr("%1 could not be started.").arg(offer.command.value(0));
        fix = SoftRoceText::tr("Run it in a terminal instead: %1").arg(offer.sudoLine());
    } else if (viaPkexec && exitCode == 126) {
        what = SoftRoceText::tr(
            "pkexec did not run the command (status 126): the authentication dialog was dismissed.");
        fix = SoftRoceText::tr("Run it in a terminal instead: %1, then press Restart engine.")
                  .arg(offer.sudoLine());
    } else if (viaPkexec && exitCode == 127) {
        what = SoftRoceText::tr(
            "pkexec did not run the command (status 127): you are not authorized, or authorization "
            "could not be obtained (no authentication agent in this session, or the password was "
            "refused), or pkexec failed.");
        fix = SoftRoceText::tr("Run it in a terminal instead: %1, then press Restart engine.")
                  .arg(offer.sudoLine());
    } else if (said.contains(QLatin1String("File exists"))) {
        what = SoftRoceText::tr(
                   "rdma link add failed (status %1): %2 — a device named %3 exists already, or %4 has a "
                   "SoftRoCE device.")
                   .arg(exitCode)
                   .arg(said, offer.deviceName, offer.interfaceName);
        fix =
            SoftRoceText::tr(
                "See what exists with `rdma link show`; remove a stale one with `sudo rdma link delete %1`.")
                .arg(offer.deviceName);
    } else if (said.contains(QLatin1String("not supported"), Qt::CaseInsensitive)) {
        what = SoftRoceText::tr("rdma link add failed (status %1): %2 — the kernel could not load rdma_rxe.")
                   .arg(exitCode)
                   .arg(said);
        fix = SoftRoceText::tr(
            "Check `sudo modprobe rdma_rxe`; Engine ▸ Where the engine runs… offers the SoftRoCE VM.");
    } else {
        what = SoftRoceText::tr("rdma link add failed (status %1): %2")
                   .arg(exitCode)
                   .arg(said.isEmpty() ? SoftRoceText::tr("(it said nothing)") : said);
        fix = SoftRoceText::tr("Run it in a terminal to see more: %1").arg(offer.sudoLine());
    }
    return what + QLatin1Char('\n') + fix;
}

} // namespace rdmalab::app
