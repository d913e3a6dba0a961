// Issue 16, the automatic engine host's second choice: no ACTIVE RDMA port here, but a kernel with rdma_rxe,
// a network interface and pkexec. The app offers to create a SoftRoCE device, shows the exact `rdma link add`
// command, and runs it only after the user agrees; each way it can fail is explained. The machine's own
// modules, interfaces and pkexec are replaced by files of the test's (SoftRoceProbe): a fake pkexec records
// what it was asked to run, so nothing here needs root or changes the machine.
#include "testutil.hpp"
#include "windowdrivers.h"

#include "mainwindow.h"
#include "softroceoffer.h"

#include <QAbstractButton>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

using namespace rdmalab;
using namespace rdmalab::app;
using rdmalab::test::mainWindow;

namespace {

void writeFile(const QString& path, const QByteArray& text, bool executable = false) {
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
    file.close();
    if (executable) file.setPermissions(file.permissions() | QFile::ExeOwner);
}

} // namespace

class SoftRoceOfferTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    /// A kernel with rdma_rxe as a module file, interface eth0, and a pkexec that logs its arguments to
    /// pkexec.log and exits with `status` (after writing `said` on stderr).
    SoftRoceProbe probe(int status, const QByteArray& said = {}) {
        SoftRoceProbe probe;
        probe.modulesDir = dir_.filePath("modules");
        probe.sysModuleDir = dir_.filePath("sys-module");
        QDir().mkpath(probe.sysModuleDir);
        writeFile(probe.modulesDir + "/modules.dep", "kernel/drivers/infiniband/sw/rxe/rdma_rxe.ko.xz: "
                                                     "kernel/drivers/infiniband/core/ib_core.ko.xz\n");
        probe.interfaces = QStringList{"eth0", "wlan0"};
        probe.rdma = "/usr/sbin/rdma";
        probe.root = false;
        probe.pkexec = dir_.filePath(QStringLiteral("pkexec-%1/pkexec").arg(status));
        writeFile(probe.pkexec,
                  "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + dir_.filePath("pkexec.log").toUtf8() + "'\n" +
                      (said.isEmpty() ? QByteArray() : "echo '" + said + "' >&2\n") + "exit " +
                      QByteArray::number(status) + "\n",
                  true);
        return probe;
    }

    /// The window on this machine's engine (no RDMA device here), with the test's probe.
    std::unique_ptr<MainWindow> openWindow(const SoftRoceProbe& probe) {
        StartOptions options;
        options.lesson = "write";
        options.engineHost = EngineHost::Local;
        options.softRoce = probe;
        auto window = std::make_unique<MainWindow>(options);
        window->show();
        return window;
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        // The offer is for machines without an RDMA device (like CI's); with one, the engine finds it.
        if (!QDir("/sys/class/infiniband").entryList(QDir::Dirs | QDir::NoDotAndDotDot).isEmpty())
            QSKIP("this machine has an RDMA device: the window offers no SoftRoCE device here");
    }

    void theOfferNeedsTheModuleAnInterfaceAndAWayToBecomeRoot() {
        SoftRoceProbe none;
        none.modulesDir = dir_.filePath("no-modules");
        none.sysModuleDir = dir_.filePath("no-sys");
        none.interfaces = QStringList{"eth0"};
        QVERIFY(!kernelHasRxe(none));
        const auto noModule = softRoceOffer(none);
        QVERIFY(!noModule.available);
        QVERIFY2(noModule.whyNot.contains("has no rdma_rxe module"), qPrintable(noModule.whyNot));

        // Loaded (in /sys/module), built in, or a module file: each counts.
        QDir().mkpath(none.sysModuleDir + "/rdma_rxe");
        QVERIFY(kernelHasRxe(none));
        QDir(none.sysModuleDir + "/rdma_rxe").removeRecursively();
        writeFile(none.modulesDir + "/modules.builtin", "kernel/drivers/infiniband/sw/rxe/rdma_rxe.ko\n");
        QVERIFY(kernelHasRxe(none));
        QFile::remove(none.modulesDir + "/modules.builtin");
        writeFile(none.modulesDir + "/kernel/drivers/infiniband/sw/rxe/rdma_rxe.ko.zst", "x");
        QVERIFY(kernelHasRxe(none));

        auto p = probe(0);
        const auto offer = softRoceOffer(p);
        QVERIFY2(offer.available, qPrintable(offer.whyNot));
        QCOMPARE(offer.interfaceName, QStringLiteral("eth0"));
        QCOMPARE(offer.command, (QStringList{p.pkexec, "/usr/sbin/rdma", "link", "add", "rxe0", "type", "rxe",
                                             "netdev", "eth0"}));
        QCOMPARE(offer.sudoLine(), QStringLiteral("sudo rdma link add rxe0 type rxe netdev eth0"));
        p.root = true; // root needs no pkexec
        QCOMPARE(softRoceOffer(p).command.front(), QStringLiteral("/usr/sbin/rdma"));
        p.root = false;
        p.pkexec = dir_.filePath("nowhere/pkexec");
        QVERIFY(softRoceOffer(p).whyNot.contains("pkexec (package pkexec) is not installed"));
        p = probe(0);
        p.interfaces = QStringList{};
        QVERIFY(softRoceOffer(p).whyNot.contains("no network interface is up"));
    }

    /// The button names the interface; the dialog shows the exact command; Cancel runs nothing; Run it runs
    /// it, and the engine starts again. The fake made no device, and the app says so rather than pretend.
    void theCommandRunsOnlyAfterTheUserAgrees() {
        QFile::remove(dir_.filePath("pkexec.log"));
        const auto p = probe(0);
        auto window = openWindow(p);
        auto* create = mainWindow(*window).createSoftRoceButton();
        QTRY_VERIFY_WITH_TIMEOUT(create->isVisible(), 30000);
        QCOMPARE(create->text(), QStringLiteral("Create rxe0 on eth0…"));
        const QString commandLine = p.pkexec + " /usr/sbin/rdma link add rxe0 type rxe netdev eth0";

        create->click();
        auto* box = mainWindow(*window).softRoceConfirm();
        QVERIFY(box && box->isVisible());
        QVERIFY2(box->text().contains(commandLine.toHtmlEscaped()) && box->text().contains("pkexec asks"),
                 qPrintable(box->text()));
        if (const QByteArray shots = qgetenv("RDMALAB_SCREENSHOT_DIR"); !shots.isEmpty()) {
            window->grab().save(QString::fromLocal8Bit(shots) + "/softroce-offer.png");
            box->grab().save(QString::fromLocal8Bit(shots) + "/softroce-offer-confirm.png");
        }
        box->findChild<QAbstractButton*>("softRoceCancel")->click();
        QTest::qWait(300);
        QVERIFY(!QFile::exists(dir_.filePath("pkexec.log")));

        create->click();
        box = mainWindow(*window).softRoceConfirm();
        QVERIFY(box);
        box->findChild<QAbstractButton*>("softRoceRun")->click();
        auto* result = mainWindow(*window).softRoceResult();
        QTRY_VERIFY_WITH_TIMEOUT(result->text().contains("still finds no ACTIVE port"), 30000);
        // The fake pkexec has ended (the engine started again after it), so its log is whole: the file
        // exists from the moment the shell opens it, before printf has written a line.
        QFile log(dir_.filePath("pkexec.log"));
        QVERIFY(log.open(QIODevice::ReadOnly));
        QCOMPARE(log.readAll(), QByteArray("/usr/sbin/rdma\nlink\nadd\nrxe0\ntype\nrxe\nnetdev\neth0\n"));
        QVERIFY(result->isVisible());
        QVERIFY(create->isVisible() && create->isEnabled());
    }

    void aDismissedPasswordAndARefusedCommandAreExplained() {
        const QString dismissed = runTheOffer(probe(126));
        QVERIFY2(dismissed.contains("status 126") &&
                     dismissed.contains("authentication dialog was dismissed") &&
                     dismissed.contains("sudo rdma link add rxe0 type rxe netdev eth0"),
                 qPrintable(dismissed));
        const QString taken = runTheOffer(probe(255, "error: File exists"));
        QVERIFY2(taken.contains("status 255") && taken.contains("error: File exists") &&
                     taken.contains("a device named rxe0 exists already") && taken.contains("rdma link show"),
                 qPrintable(taken));
    }

  private:
    /// Opens the window with `probe`, agrees to the offer, and returns what the panel says once it ended.
    QString runTheOffer(const SoftRoceProbe& probe) {
        auto window = openWindow(probe);
        auto* create = mainWindow(*window).createSoftRoceButton();
        if (!QTest::qWaitFor([&] { return create->isVisible(); }, 30000)) return "the offer was not shown";
        create->click();
        mainWindow(*window).softRoceConfirm()->findChild<QAbstractButton*>("softRoceRun")->click();
        auto* result = mainWindow(*window).softRoceResult();
        if (!QTest::qWaitFor([&] { return result->text().contains("status"); }, 10000))
            return "no outcome within 10 s: " + result->text();
        return result->text();
    }
};

QTEST_MAIN(SoftRoceOfferTest)
#include "tst_softroce_offer.moc"
