// The workbench without a device: the engine process checks each step against the session's earlier ones
// before anything touches a device, so a refused step (an object nobody made, a wrong flag) is seen here
// with the field it names; the window's controls wait for a pair. QAbstractItemModelTester checks the model.
#include "testutil.hpp"
#include "windowdrivers.h"

#include "workbenchsession.h"
#include "workbenchwindow.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

using namespace rdmalab::app;
using rdmalab::test::workbench;

class WorkbenchTest : public QObject {
    Q_OBJECT
  private slots:
    void aStepNamingNothingIsRefusedWithItsField() {
        EngineClient engine;
        WorkbenchSession session(&engine);
        QAbstractItemModelTester tester(&session, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy started(&session, &WorkbenchSession::sessionStarted);
        connect(&engine, &EngineClient::started, &session, [&] { session.start(QStringLiteral("en")); });
        engine.start();
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 30000);
        // Neither step reaches a device: the first names a QP no step made, the second a PD no step made. The
        // queue stops at the first refusal, so the second is never sent.
        session.perform({{{"do", "post_send"}, {"qp", "A.qp"}, {"opcode", "write"}},
                         {{"do", "alloc_pd"}, {"as", "A.pd"}}});
        QTRY_VERIFY_WITH_TIMEOUT(session.size() == 1 && !session.busy(), 30000);
        QCOMPARE(session.row(0).state, QStringLiteral("refused"));
        QVERIFY2(session.row(0).error.contains("steps[0].qp"), qPrintable(session.row(0).error));
        QVERIFY2(session.row(0).error.contains("A.qp"), qPrintable(session.row(0).error));
        session.perform({{{"do", "create_cq"}, {"as", "A.cq"}, {"depth", 0}}});
        QTRY_VERIFY_WITH_TIMEOUT(session.size() == 2 && !session.busy(), 30000);
        QCOMPARE(session.row(1).state, QStringLiteral("refused"));
        QVERIFY2(session.row(1).error.contains("steps[0].depth"), qPrintable(session.row(1).error));
        QVERIFY(
            session.data(session.index(1), Qt::DisplayRole).toString().startsWith(QStringLiteral("⊘ 2.")));
        QVERIFY(session.objects().isEmpty());
        // Nothing was performed, so there is nothing to save: the engine says so.
        QSignalSpy failed(&session, &WorkbenchSession::failed);
        session.save(QStringLiteral("empty"), QStringLiteral("Empty"), 1);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QVERIFY2(failed.at(0).at(0).toString().contains("steps"), qPrintable(failed.at(0).at(0).toString()));
    }

    void theWindowWaitsForAPairBeforeAnyRequest() {
        WorkbenchWindow window(WorkbenchWindowOptions{});
        window.show();
        auto* build = workbench(window).buildPair();
        QVERIFY(build);
        QTRY_VERIFY_WITH_TIMEOUT(build->isEnabled(), 30000);
        for (const char* name : {"postSend", "postRecv", "pollCq", "moveQp", "resetAll", "saveLab"}) {
            auto* b = window.findChild<QPushButton*>(name);
            QVERIFY2(b, name);
            QVERIFY2(!b->isEnabled(), name);
        }
        QCOMPARE(workbench(window).workbenchSnapshot()->text(), QStringLiteral("Build the pair to start."));
        QCOMPARE(workbench(window).workbenchStatus()->text(),
                 QStringLiteral("Workbench ready: build the pair."));
    }
};

QTEST_MAIN(WorkbenchTest)
#include "tst_workbench.moc"
