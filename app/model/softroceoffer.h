// The second choice of the automatic engine host (issue 16): no ACTIVE RDMA port here, but a kernel that has
// rdma_rxe, a real network interface and a way to become root (pkexec, or being root). Then the app offers
// to create a SoftRoCE device, showing the exact command, and runs it only after the user agrees. No verbs
// here: the engine, restarted, finds the device (or says it did not).
#pragma once
#include <QString>
#include <QStringList>
#include <optional>

namespace rdmalab::app {

/// Where the offer looks. Empty fields take this machine's; tests point them at files of their own.
struct SoftRoceProbe {
    QString modulesDir;   ///< default /lib/modules/<running kernel release>
    QString sysModuleDir; ///< default /sys/module (a loaded rdma_rxe is there)
    /// default: the interfaces that are up and running, not loopback, with an IPv4 address
    std::optional<QStringList> interfaces;
    QString pkexec;           ///< default pkexec on PATH
    QString rdma;             ///< default rdma (iproute2) on PATH, /usr/sbin or /sbin
    std::optional<bool> root; ///< default: whether this process runs as root
};

/// Whether to offer `rdma link add`, with what, or why not.
struct SoftRoceOffer {
    bool available = false;
    QString interfaceName;
    QString deviceName = QStringLiteral("rxe0");
    QStringList command; ///< program and arguments: pkexec RDMA link add … (without pkexec for root)
    QString whyNot;      ///< when not available: what is missing
    /// The command as one shell line, as the dialog shows it.
    QString commandLine() const { return command.join(QLatin1Char(' ')); }
    /// The command goes through pkexec (which asks for a password), rather than run as root already.
    bool asksForRoot() const;
    /// The same with sudo, for a terminal.
    QString sudoLine() const;
};

/// The kernel has rdma_rxe: loaded, built in, or a module file for the running kernel.
bool kernelHasRxe(const SoftRoceProbe& probe = {});
SoftRoceOffer softRoceOffer(const SoftRoceProbe& probe = {});
/// What went wrong when `offer.command` ended with `exitCode` and said `errorText`: the cause and the fix.
QString explainSoftRoceFailure(const SoftRoceOffer& offer, int exitCode, const QString& errorText);

} // namespace rdmalab::app
