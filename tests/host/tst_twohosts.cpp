// Two-host labs without a device (docs/lab-format.md, "Two-host labs"): the link's messages, a lab of two
// hosts run on one (every step skipped with the reason, none broken), two runs that do not run the same lab
// (both stop at the first step and say why), and two runs whose first step fails on both (each stops there,
// neither waits for ever). The labs themselves run between two SoftRoCE hosts in tests/softroce/wire-test.sh.
#include "rdmalab/labrun/lab_run.hpp"
#include "rdmalab/labrun/peer_link.hpp"
#include "testutil.hpp"

#include <QtTest>

#include <arpa/inet.h>
#include <linux/capability.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <future>
#include <string>

using namespace rdmalab;
using namespace rdmalab::labs;

namespace {

const QString kSource = RDMALAB_SOURCE_DIR;

/// A free TCP port on 127.0.0.1 (bound, then released).
std::uint16_t freePort() {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
    getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    close(fd);
    return ntohs(address.sin_port);
}

Lab prepared(const QString& file) {
    LabError error;
    auto lab = prepare_lab((kSource + file).toStdString(), {}, "", error);
    if (!lab) qFatal("%s", error.to_string().c_str());
    return *lab;
}

/// Runs `lab` as endpoint `side` over `peer` until it stops; returns the run's outcomes.
std::vector<StepOutcome> runAs(Lab lab, std::shared_ptr<PeerLink> peer, Endpoint side) {
    LabRunOptions options;
    options.peer = std::move(peer);
    options.side = side;
    options.peer_timeout_ms = 20000;
    LabRun run(std::move(lab), nullptr, options);
    while (!run.done())
        run.run_next();
    std::vector<StepOutcome> out;
    for (std::size_t i = 0; i < run.steps().size(); ++i)
        out.push_back(run.outcome(i));
    return out;
}

/// Drops CAP_NET_RAW from the calling thread's effective set (a thread it then starts inherits that): its
/// packet captures then fail as an unprivileged user's would. False when it could not.
bool dropNetRawInThisThread() {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2]{};
    if (syscall(SYS_capget, &header, data) != 0) return false;
    data[CAP_NET_RAW / 32].effective &= ~(1U << (CAP_NET_RAW % 32));
    return syscall(SYS_capset, &header, data) == 0;
}

/// Connects two links on 127.0.0.1.
std::pair<std::shared_ptr<PeerLink>, std::shared_ptr<PeerLink>> linkedPair() {
    const auto port = freePort();
    auto listening =
        std::async(std::launch::async, [port] { return PeerLink::listen("127.0.0.1", port, 20000); });
    std::shared_ptr<PeerLink> a = PeerLink::connect("127.0.0.1", port, 20000);
    std::shared_ptr<PeerLink> b = listening.get();
    return {a, b};
}

} // namespace

class TwoHostsTest : public QObject {
    Q_OBJECT

  private slots:
    void theLinkCarriesMessagesBothWays() {
        auto [a, b] = linkedPair();
        QCOMPARE(QString::fromStdString(a->peer_address()), QStringLiteral("127.0.0.1"));
        QCOMPARE(QString::fromStdString(b->local_address()), QStringLiteral("127.0.0.1"));
        a->send({{"index", 3}, {"values", {{"B.buf.rkey", "0x2a"}}}});
        const auto got = b->receive(5000);
        QCOMPARE(got["index"].get<int>(), 3);
        QCOMPARE(QString::fromStdString(got["values"]["B.buf.rkey"].get<std::string>()),
                 QStringLiteral("0x2a"));
        b->send({{"ok", true}});
        QVERIFY(a->receive(5000)["ok"].get<bool>());
    }

    void aClosedOrSilentPeerIsAnErrorThatSaysSo() {
        auto [a, b] = linkedPair();
        try {
            b->receive(300);
            QFAIL("a silent peer must time out");
        } catch (const std::exception& e) {
            QVERIFY2(QString(e.what()).contains("said nothing"), e.what());
        }
        a.reset(); // the other host's run ends
        try {
            b->receive(5000);
            QFAIL("a closed link must be an error");
        } catch (const std::exception& e) {
            QVERIFY2(QString(e.what()).contains("closed the lab's link"), e.what());
        }
    }

    void nobodyListeningNamesTheFix() {
        try {
            PeerLink::connect("127.0.0.1", freePort(), 500);
            QFAIL("nobody listens");
        } catch (const std::exception& e) {
            const QString what = e.what();
            QVERIFY2(what.contains("ECONNREFUSED") && what.contains("--listen"), e.what());
        }
    }

    void aTwoHostLabOnOneHostSkipsEveryStepAndSaysWhy() {
        LabRun run(prepared("/labs/29-wire/write-on-the-wire.yaml"), nullptr, {});
        run.run_all();
        QVERIFY(run.done());
        QVERIFY(run.all_held());
        QCOMPARE(run.held_count(), std::size_t(0));
        QCOMPARE(run.broken_count(), std::size_t(0));
        for (std::size_t i = 0; i < run.steps().size(); ++i) {
            QCOMPARE(run.outcome(i).state, StepOutcome::State::skipped);
            QVERIFY2(QString::fromStdString(run.outcome(i).skipped_because).contains("needs two hosts"),
                     run.outcome(i).skipped_because.c_str());
        }
    }

    void aOneHostLabIsNotRunAcrossTwoHosts() {
        // Its texts speak of a loopback pair on one device: the CLI refuses before connecting anywhere.
        const auto run = test::runCli(
            {"lab", "run", kSource + "/labs/10-rdma-write/write.yaml", "--connect", "127.0.0.1"});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("lab 'write' runs on one host") && run.err.contains("fix: run it without"),
                 qPrintable(run.err));
    }

    void aCaptureThatCannotStartSkipsTheWireStepAndSaysWhy() {
        // With the capture: the step reads `lo` (nothing of RoCE there). Without CAP_NET_RAW, on a thread of
        // its own: the capture cannot start, and the step is skipped with libpcap's reason, not broken.
        const Lab lab = prepared("/tests/data/labs-two-hosts/read-wire-only.yaml");
        for (const bool privileged : {true, false}) {
            auto [a, b] = linkedPair();
            auto other = std::async(std::launch::async, [lab, b = b] { return runAs(lab, b, Endpoint::B); });
            auto mine = std::async(std::launch::async, [lab, a = a, privileged] {
                if (!privileged && !dropNetRawInThisThread()) qFatal("capset failed");
                return runAs(lab, a, Endpoint::A);
            });
            const StepOutcome step = mine.get().front();
            QCOMPARE(other.get().front().state, step.state); // B reports A's step as A did
            if (privileged && step.state == StepOutcome::State::skipped)
                QSKIP("this process may not capture at all (no CAP_NET_RAW)");
            if (privileged) {
                QCOMPARE(step.state, StepOutcome::State::held);
                QCOMPARE(step.results.at("packets"), std::string("0"));
            } else {
                QCOMPARE(step.state, StepOutcome::State::skipped);
                QVERIFY2(QString::fromStdString(step.skipped_because)
                             .contains("the capture of the wire did not "
                                       "start on this host"),
                         step.skipped_because.c_str());
                QVERIFY(!step.failed_unexpectedly);
            }
        }
    }

    void twoRunsOfDifferentLabsStopAtTheFirstStep() {
        auto [a, b] = linkedPair();
        auto other = std::async(std::launch::async, [b = b] {
            return runAs(prepared("/labs/29-wire/loss-and-retransmission.yaml"), b, Endpoint::B);
        });
        const auto mine = runAs(prepared("/labs/29-wire/write-on-the-wire.yaml"), a, Endpoint::A);
        const auto theirs = other.get();
        for (const auto* outcomes : {&mine, &theirs}) {
            QVERIFY((*outcomes)[0].failed_unexpectedly);
            QVERIFY((*outcomes)[0].error.has_value());
            QVERIFY2(
                QString::fromStdString((*outcomes)[0].error->meaning).contains("the other host runs lab"),
                (*outcomes)[0].error->meaning.c_str());
            QCOMPARE((*outcomes)[1].state, StepOutcome::State::not_run);
        }
    }

    void bothHostsStopWhenTheFirstStepFailsOnBoth() {
        // No RDMA device here: open_device fails on both hosts, and each stops there instead of waiting
        // for the other's next step.
        auto [a, b] = linkedPair();
        auto other = std::async(std::launch::async, [b = b] {
            return runAs(prepared("/labs/29-wire/write-on-the-wire.yaml"), b, Endpoint::B);
        });
        const auto mine = runAs(prepared("/labs/29-wire/write-on-the-wire.yaml"), a, Endpoint::A);
        const auto theirs = other.get();
        for (const auto* outcomes : {&mine, &theirs}) {
            QCOMPARE(outcomes->front().id, std::string("open_device"));
            QVERIFY(outcomes->front().failed_unexpectedly);
            QCOMPARE((*outcomes)[1].state, StepOutcome::State::not_run);
        }
    }
};

QTEST_GUILESS_MAIN(TwoHostsTest)
#include "tst_twohosts.moc"
