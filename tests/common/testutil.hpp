// Helpers shared by the test suites.
#pragma once

#include "rdmalab/format/buildpaths.hpp"

#include <QList>
#include <QMap>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

/// This build's paths as QStrings (rdmalab/format/buildpaths.hpp: they are in no compile definition, so a
/// clone elsewhere recompiles no test).
#define RDMALAB_SOURCE_DIR QString::fromUtf8(rdmalab::build::source_dir())
#define RDMALAB_LABS_DIR QString::fromUtf8(rdmalab::build::labs_dir())
#define RDMALAB_CLI_PATH QString::fromUtf8(rdmalab::build::cli_path())
#define RDMALAB_APP_PATH QString::fromUtf8(rdmalab::build::app_path())
#define RDMALAB_LUPDATE QString::fromUtf8(rdmalab::build::lupdate_path())
#define RDMALAB_CLI_MAN_PAGE                                                                                 \
    (QString::fromUtf8(rdmalab::build::binary_dir()) + QStringLiteral("/engine/rdmalab-cli.1.gz"))
#define RDMALAB_APP_MAN_PAGE                                                                                 \
    (QString::fromUtf8(rdmalab::build::binary_dir()) + QStringLiteral("/app/rdmalab.1.gz"))

namespace rdmalab::test {

/// True when the machine has at least one RDMA device.
bool haveDevice();
/// Message for QSKIP/QFAIL when there is no device.
QByteArray noDeviceMessage();
/// True when device tests must not be skipped (inside the test bed: RDMALAB_REQUIRE_DEVICE=1).
bool deviceRequired();

/// Result of running rdmalab-cli.
struct CliRun {
    int exitCode = -1;
    bool crashed = false;
    QString out;
    QString err;
};
/// Runs rdmalab-cli with arguments (optionally through a wrapper such as setpriv/prlimit), 60 s limit.
CliRun runCli(const QStringList& args, const QStringList& wrapper = {}, const QByteArray& input = {});
/// Runs any program in `environment` (default: this process's), 60 s limit.
CliRun runProgram(const QString& program, const QStringList& args,
                  const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment(),
                  const QByteArray& input = {});
/// Opens an HTML file in headless Chromium (installed by resources/scripts/install-deps.sh): `out` is the
/// DOM as the browser built it; with `png`, a screenshot `width` pixels wide is written there too.
CliRun openInChromium(const QString& html, const QString& png = {}, int width = 1100, int height = 1600);
/// A man page file (roff, or gzipped roff) as `man -l` shows it to a reader: plain text, 200 columns,
/// no overstrike. `out` is the text; a failure has a non-zero exit code and says why in `err`.
CliRun renderManPage(const QString& path);

/// The kernel's RDMA resource counts (`rdma -j resource show`), per device and kind ("rxe0 qp").
struct RdmaResourceCounts {
    QMap<QString, qint64> counts;
    QString error; ///< why the counts could not be read (empty when they were)
    QString describe() const;
};
RdmaResourceCounts rdmaResourceCounts();

/// Records the kernel's RDMA resource counts before a device test (called from its init()).
void beginResourceCheck();
/// Compares the counts after the test with those before (waiting up to 3 s for asynchronous release):
/// an empty string when equal, else what differs. Appends one line per test to $RDMALAB_RESOURCE_LOG.
QString endResourceCheck();
/// The first `count` lines of a recording in tests/data (each with its newline).
QList<QByteArray> recordingLines(const QString& name, qsizetype count);
/// A process id no process has now: a child that has ended and been reaped.
qint64 deadProcessId();
/// Leaves a session in `directory` as an app killed while autosaving does: the file NAME.jsonl holding
/// `lines`, then `partial` with no newline, and its marker NAME.jsonl.open naming process `pid` (start
/// time unknown, this boot) and the time the session started. Returns the session file's path.
QString writeUnfinishedSession(const QString& directory, const QString& name, const QList<QByteArray>& lines,
                               const QByteArray& partial, qint64 pid, const QString& startedIso);

} // namespace rdmalab::test

/// Skips (host) or fails (test bed) the current test when there is no RDMA device.
#define RDMALAB_REQUIRE_DEVICE()                                                                             \
    do {                                                                                                     \
        if (!rdmalab::test::haveDevice()) {                                                                  \
            if (rdmalab::test::deviceRequired()) QFAIL(rdmalab::test::noDeviceMessage().constData());        \
            QSKIP(rdmalab::test::noDeviceMessage().constData());                                             \
        }                                                                                                    \
        rdmalab::test::beginResourceCheck();                                                                 \
    } while (false)

/// In a device suite's cleanup(): fails the test when it left RDMA resources behind (or took some away).
#define RDMALAB_CHECK_RESOURCES()                                                                            \
    do {                                                                                                     \
        const QString difference = rdmalab::test::endResourceCheck();                                        \
        if (!difference.isEmpty()) QFAIL(qPrintable(difference));                                            \
    } while (false)
