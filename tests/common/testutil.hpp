// Helpers shared by the test suites.
#pragma once

#include <QString>
#include <QStringList>

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

} // namespace rdmalab::test

/// Skips (host) or fails (test bed) the current test when there is no RDMA device.
#define RDMALAB_REQUIRE_DEVICE()                                                                             \
    do {                                                                                                     \
        if (!rdmalab::test::haveDevice()) {                                                                  \
            if (rdmalab::test::deviceRequired()) QFAIL(rdmalab::test::noDeviceMessage().constData());        \
            QSKIP(rdmalab::test::noDeviceMessage().constData());                                             \
        }                                                                                                    \
    } while (false)
