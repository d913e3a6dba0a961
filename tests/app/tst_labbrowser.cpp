// The lab browser without a device: the catalog of the curriculum and of a user's lab folder (a bad file
// is listed with its file, line and reason, a duplicate id refused), checked with
// QAbstractItemModelTester; the lab window's widgets found by object name.
#include "testutil.hpp"
#include "windowdrivers.h"

#include "classsummary.h"
#include "labcatalog.h"
#include "labsession.h"
#include "labwindow.h"

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QFormLayout>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

#include <sys/stat.h>

#include <algorithm>

using namespace rdmalab::app;
using rdmalab::test::labWindow;
using rdmalab::test::windowParts;

namespace {

const QString kLabs = RDMALAB_SOURCE_DIR + QStringLiteral("/labs");

void writeFile(const QString& path, const QByteArray& text) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

int labsUnder(const LabCatalog& catalog) {
    int n = 0;
    for (int c = 0; c < catalog.rowCount(); ++c)
        n += catalog.rowCount(catalog.index(c, 0));
    return n;
}

/// A lab of notes only (nothing touches a device, so it runs on any machine) that asks two predictions
/// about values the runner really reports (a note's errno and error are "none") and two questions.
const QByteArray kPredictingLab = R"(lab: 1
id: predicting
chapter: 30
title: {en: "Predict first", zh: "先预测"}
level: intro
minutes: 5
objectives:
  - {en: "Predict, then see", zh: "先预测，再观察"}
steps:
  - id: intro
    text: {en: "A note.", zh: "一条说明。"}
  - id: guess
    text: {en: "Another note.", zh: "又一条说明。"}
    predict:
      question: {en: "Which errno will a note have?", zh: "说明步骤的 errno 会是什么？"}
      answer: guess.errno
      choices:
        - {value: EINVAL, text: {en: "EINVAL", zh: "EINVAL"}}
        - {value: none, text: {en: "none: a note calls nothing", zh: "none：说明步骤不调用任何函数"}}
      why: {en: "A note makes no call, so it has no errno ({guess.errno}).", zh: "说明步骤不调用函数，所以没有 errno（{guess.errno}）。"}
  - id: again
    text: {en: "A third note.", zh: "第三条说明。"}
    predict:
      question: {en: "And its error?", zh: "它的 error 呢？"}
      answer: again.error
      choices:
        - {value: none, text: {en: "none", zh: "none"}}
        - {value: "EPERM: not permitted", text: {en: "EPERM", zh: "EPERM"}}
questions:
  - kind: single
    text: {en: "What does a note step call?", zh: "说明步骤调用什么？"}
    choices:
      - text: {en: "ibv_post_send", zh: "ibv_post_send"}
      - text: {en: "Nothing", zh: "什么也不调用"}
        correct: true
    explanation: {en: "A note only explains.", zh: "说明步骤只做解释。"}
  - kind: multiple
    text: {en: "Which are results of every step?", zh: "哪些是每个步骤都有的结果？"}
    choices:
      - text: {en: "errno", zh: "errno"}
        correct: true
      - text: {en: "rkey", zh: "rkey"}
      - text: {en: "dur_ns", zh: "dur_ns"}
        correct: true
)";

/// A troubleshooting lab of notes only: a set-up, the student's turn with its reference fix, a check.
const QByteArray kTurnLab = R"(lab: 1
id: your-turn
chapter: 30
title: {en: "Fix it", zh: "修好它"}
level: intro
minutes: 5
objectives:
  - {en: "Fix what is broken", zh: "修好坏掉的"}
steps:
  - id: setup
    text: {en: "The broken set-up.", zh: "坏掉的设置。"}
  - id: your_turn
    title: {en: "Your turn", zh: "轮到你了"}
    text: {en: "Find it and fix it.", zh: "找到并修好它。"}
    solution:
      - {id: fix, text: {en: "The reference fix.", zh: "参考修复。"}}
  - id: check
    text: {en: "The check.", zh: "检查。"}
)";

} // namespace

class LabBrowserTest : public QObject {
    Q_OBJECT
  private slots:
    /// Issue 14: a mark per lab, kept between runs (a second catalog reads what the first recorded).
    void progressMarksAreKeptBetweenRuns() {
        QTemporaryDir dir;
        const QString store = dir.filePath(QStringLiteral("progress.ini"));
        {
            LabCatalog catalog;
            QAbstractItemModelTester tester(&catalog, QAbstractItemModelTester::FailureReportingMode::QtTest);
            catalog.setProgressFile(store);
            catalog.load(kLabs, QString(), QStringLiteral("en"));
            const QModelIndex write = catalog.indexOf(QStringLiteral("write"));
            const QModelIndex mark = catalog.index(write.row(), LabCatalog::ProgressColumn, write.parent());
            QCOMPARE(catalog.data(mark).toString(), QString());
            QSignalSpy changed(&catalog, &QAbstractItemModel::dataChanged);
            catalog.setProgress(QStringLiteral("write"), true, 32, 0);
            QCOMPARE(changed.count(), 1);
            QCOMPARE(changed.at(0).at(0).toModelIndex(), mark);
            catalog.setProgress(QStringLiteral("read"), false, 10, 2);
        }
        LabCatalog again;
        again.setProgressFile(store);
        again.load(kLabs, QString(), QStringLiteral("en"));
        const QModelIndex write = again.indexOf(QStringLiteral("write"));
        const QModelIndex read = again.indexOf(QStringLiteral("read"));
        QCOMPARE(again.data(again.index(write.row(), LabCatalog::ProgressColumn, write.parent())).toString(),
                 QStringLiteral("✓"));
        QCOMPARE(again.data(write, LabCatalog::ProgressRole).toString(), QStringLiteral("held"));
        const QModelIndex readMark = again.index(read.row(), LabCatalog::ProgressColumn, read.parent());
        QCOMPARE(again.data(readMark).toString(), QStringLiteral("✗"));
        QVERIFY2(again.data(readMark, Qt::ToolTipRole).toString().contains("10 held, 2 broken"),
                 qPrintable(again.data(readMark, Qt::ToolTipRole).toString()));
        QCOMPARE(again.progress(QStringLiteral("send")).state, QString());
        QCOMPARE(again.headerData(LabCatalog::ProgressColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Done"));
    }

    /// What the room lacks is not the student's failure: with no RDMA device where the engine runs, a lab
    /// that needs one cannot be started and nothing is run or marked; a lab of notes still runs.
    void withNoDeviceALabThatNeedsOneCannotStart() {
        QTemporaryDir user;
        writeFile(user.filePath("predicting.yaml"), kPredictingLab);
        LabWindowOptions options;
        options.curriculum = kLabs;
        options.userDirectory = user.path();
        options.engineProgram = RDMALAB_CLI_PATH;
        LabWindow window(options);
        window.catalog()->setProgressFile(user.filePath("progress.ini"));
        window.show();
        auto* start = labWindow(window).labStart();
        auto* status = labWindow(window).labStatus();
        QVERIFY(start && status);
        QVERIFY(window.selectLab(QStringLiteral("predicting")));
        QTRY_VERIFY_WITH_TIMEOUT(start->isEnabled(), 10000); // notes need no device: it may run anywhere
        QVERIFY(window.selectLab(QStringLiteral("write")));
        if (start->isEnabled()) QSKIP("the engine sees an RDMA device on this machine");
        QVERIFY2(status->text().contains("No RDMA device where the engine runs (this machine), and this lab "
                                         "needs one: nothing was run or marked."),
                 qPrintable(status->text()));
        QVERIFY(!window.session()->started());
        QCOMPARE(window.session()->brokenCount(), 0);
        QVERIFY(!window.catalog()
                     ->data(window.catalog()->indexOf("write").siblingAtColumn(LabCatalog::ProgressColumn))
                     .toString()
                     .contains(QStringLiteral("✗")));
    }

    /// Issue 14, predict first: a user's lab (started by its file: the engine knows only the curriculum's
    /// ids) asks before a step; Step waits until an answer is locked in; the engine's real value marks it;
    /// the questions open after the last step; predictions and answers reach the progress mark and report.
    void aPredictionIsLockedInThenMarkedAndQuestionsAfterTheEnd() {
        QTemporaryDir user;
        writeFile(user.filePath("predicting.yaml"), kPredictingLab);
        LabWindowOptions options;
        options.curriculum = kLabs;
        options.userDirectory = user.path();
        options.engineProgram = RDMALAB_CLI_PATH;
        LabWindow window(options);
        window.catalog()->setProgressFile(user.filePath("progress.ini"));
        window.show();
        QVERIFY(window.selectLab(QStringLiteral("predicting")));
        auto* start = labWindow(window).labStart();
        auto* step = labWindow(window).labStep();
        auto* lockIn = labWindow(window).labLockIn();
        auto* predict = labWindow(window).labPredict();
        QVERIFY(start && step && lockIn && predict);
        QTRY_VERIFY_WITH_TIMEOUT(start->isEnabled(), 10000);
        start->click();
        QTRY_VERIFY2_WITH_TIMEOUT(window.session()->started(), qPrintable(window.session()->error()), 10000);
        QVERIFY(!predict->isVisible()); // step 1 asks nothing
        // A step without a title is listed by its id until it runs, then by its explanation's first sentence.
        auto* session = window.session();
        QVERIFY2(session->index(0, 0).data().toString().startsWith(QStringLiteral("○ 1. intro")),
                 qPrintable(session->index(0, 0).data().toString()));
        step->click();
        QTRY_COMPARE_WITH_TIMEOUT(session->index(0, 0).data().toString(), QStringLiteral("✓ 1. A note."),
                                  10000);
        // Step 2 asks: Step is disabled until an answer is locked in.
        QTRY_VERIFY_WITH_TIMEOUT(predict->isVisible(), 10000);
        QVERIFY(!step->isEnabled());
        QVERIFY(!lockIn->isEnabled());
        QVERIFY(labWindow(window).labPredictQuestion()->text().contains("Which errno"));
        auto* wrong = labWindow(window).labPredictChoice(QStringLiteral("EINVAL"));
        QVERIFY(wrong);
        wrong->click();
        QVERIFY(lockIn->isEnabled());
        lockIn->click(); // locks in and runs the step
        auto* result = labWindow(window).labPredictResult();
        QTRY_VERIFY_WITH_TIMEOUT(result->isVisible() && result->text().contains("Not what happened"), 10000);
        QVERIFY2(result->text().contains("none: a note calls nothing"), qPrintable(result->text()));
        QVERIFY2(result->text().contains("it has no errno (none)"),
                 qPrintable(result->text())); // why, rendered
        QCOMPARE(window.session()->row(1).prediction.answer, QStringLiteral("none"));
        // Step 3 asks next; this time the right answer.
        QTRY_VERIFY(labWindow(window).labPredictChoice(QStringLiteral("none")));
        labWindow(window).labPredictChoice(QStringLiteral("none"))->click();
        lockIn->click();
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->done(), 10000);
        QTRY_VERIFY(result->text().contains("Right"));
        QCOMPARE(window.session()->predictionsMade(), 2);
        QCOMPARE(window.session()->predictionsRight(), 1);
        QVERIFY(window.session()->allHeld()); // each answer was among the choices: the lab is consistent
        // The questions: their tab is shown at the end; answer one right and one wrong.
        auto* questions = labWindow(window).labQuestions();
        QVERIFY(questions);
        QCOMPARE(windowParts(window).labPictures()->currentWidget(), questions);
        labWindow(window).labQuestionChoice(1, 2)->click();
        labWindow(window).labQuestionCheck(1)->click();
        QVERIFY(labWindow(window).labQuestionResult(1)->text().contains("Right"));
        QVERIFY(labWindow(window).labQuestionResult(1)->text().contains("A note only explains."));
        labWindow(window).labQuestionChoice(2, 1)->click(); // errno but not dur_ns
        labWindow(window).labQuestionCheck(2)->click();
        const QString second = labWindow(window).labQuestionResult(2)->text();
        QVERIFY2(second.contains("Not quite") && second.contains("errno; dur_ns"), qPrintable(second));
        QCOMPARE(window.session()->questionsRight(), 1);
        const auto progress = window.catalog()->progress(QStringLiteral("predicting"));
        QCOMPARE(progress.state, QStringLiteral("held"));
        QCOMPARE(progress.predictionsRight, 1);
        QCOMPARE(progress.predictionsMade, 2);
        QCOMPARE(progress.questionsRight, 1);
        QCOMPARE(progress.questions, 2);
        const QString report = user.filePath("report.html");
        QCOMPARE(window.exportReport(report), QString());
        QFile file(report);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(file.readAll());
        QVERIFY2(html.contains("Predictions</th><td>1 of 2 right"), qPrintable(html.left(3000)));
        QVERIFY(html.contains("✗ wrong</span> predicted: EINVAL · the device: none: a note calls nothing"));
        QVERIFY(html.contains("1 of 2 answered right"));
        // The report opens in a real browser, which shows every verdict the run had.
        const auto browser = rdmalab::test::openInChromium(report, user.filePath("report.png"));
        QVERIFY2(browser.exitCode == 0, qPrintable(browser.err.right(2000)));
        QCOMPARE(browser.out.count(QStringLiteral("<td class=\"held\">✓ held</td>")),
                 window.session()->heldCount());
        QCOMPARE(window.session()->heldCount(), 5); // 3 steps succeeded, 2 predictions' answers were offered
        QVERIFY(browser.out.contains("id=\"trace\""));
        const QImage shot(user.filePath("report.png"));
        QCOMPARE(shot.width(), 1100);
        int inked = 0; // text drawn, not a blank or error page
        for (int y = 0; y < shot.height(); y += 3)
            for (int x = 0; x < shot.width(); x += 3)
                inked += qGray(shot.pixel(x, y)) < 128 ? 1 : 0;
        QVERIFY2(inked > 2000, qPrintable(QString::number(inked)));
    }

    void doneNeedsTheAnswersAndAReportBeforeThemIsNoKey() {
        // The lab ran and every expectation held, but its questions are not answered: not done (…), and a
        // report exported now says "Not answered." without marking the right choices or explaining them.
        // Answering both makes it done (✓), and only then the report shows the right choices.
        QTemporaryDir user;
        writeFile(user.filePath("predicting.yaml"), kPredictingLab);
        LabWindowOptions options;
        options.curriculum = kLabs;
        options.userDirectory = user.path();
        options.engineProgram = RDMALAB_CLI_PATH;
        LabWindow window(options);
        window.catalog()->setProgressFile(user.filePath("progress.ini"));
        window.show();
        QVERIFY(window.selectLab(QStringLiteral("predicting")));
        auto* start = labWindow(window).labStart();
        QTRY_VERIFY_WITH_TIMEOUT(start->isEnabled(), 10000);
        start->click();
        QTRY_VERIFY2_WITH_TIMEOUT(window.session()->started(), qPrintable(window.session()->error()), 10000);
        labWindow(window).labStep()->click();
        for (const char* answer : {"none", "none"}) {
            QTRY_VERIFY_WITH_TIMEOUT(labWindow(window).labPredictChoice(QString::fromLatin1(answer)) &&
                                         labWindow(window).labPredict()->isVisible(),
                                     10000);
            labWindow(window).labPredictChoice(QString::fromLatin1(answer))->click();
            labWindow(window).labLockIn()->click();
            QTRY_VERIFY_WITH_TIMEOUT(!labWindow(window).labLockIn()->isEnabled(), 10000);
        }
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->done(), 10000);
        QVERIFY(window.session()->allHeld());
        auto mark = [&] {
            const QModelIndex row = window.catalog()->indexOf(QStringLiteral("predicting"));
            return window.catalog()
                ->index(row.row(), LabCatalog::ProgressColumn, row.parent())
                .data()
                .toString();
        };
        QCOMPARE(window.catalog()->progress(QStringLiteral("predicting")).state,
                 QStringLiteral("unanswered"));
        QCOMPARE(mark(), QStringLiteral("…"));
        auto report = [&](const QString& name) {
            const QString path = user.filePath(name);
            if (!window.exportReport(path).isEmpty()) return QString();
            QFile file(path);
            return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
        };
        const QString before = report("before.html");
        QVERIFY(before.contains("Not answered."));
        QVERIFY2(!before.contains("(right)"), qPrintable(before.mid(before.indexOf("Questions"), 1500)));
        QVERIFY(!before.contains("A note only explains."));
        labWindow(window).labQuestionChoice(1, 2)->click();
        labWindow(window).labQuestionCheck(1)->click();
        QCOMPARE(mark(), QStringLiteral("…")); // one of two
        labWindow(window).labQuestionChoice(2, 1)->click();
        labWindow(window).labQuestionCheck(2)->click();
        QCOMPARE(window.catalog()->progress(QStringLiteral("predicting")).state, QStringLiteral("held"));
        QCOMPARE(mark(), QStringLiteral("✓"));
        const QString after = report("after.html");
        QCOMPARE(after.count("(right)"), 3); // one right choice of the first question, two of the second
        QVERIFY(after.contains("A note only explains."));
    }

    void aTroubleshootingLabWaitsForTheStudentsFix() {
        // Start and Play run the broken set-up and the student's turn, then stop: the lab's own fix is not
        // applied (its row not run) and the status sends the student to the workbench. The teacher switch
        // runs the fix and the check here.
        QTemporaryDir user;
        writeFile(user.filePath("your-turn.yaml"), kTurnLab);
        LabWindowOptions options;
        options.curriculum = kLabs;
        options.userDirectory = user.path();
        options.engineProgram = RDMALAB_CLI_PATH;
        LabWindow window(options);
        window.catalog()->setProgressFile(user.filePath("progress.ini"));
        window.show();
        QVERIFY(window.selectLab(QStringLiteral("your-turn")));
        auto* teacher = labWindow(window).labTeacherMode();
        QVERIFY(teacher && teacher->isVisible() && !teacher->isChecked());
        QTRY_VERIFY_WITH_TIMEOUT(labWindow(window).labStart()->isEnabled(), 10000);
        labWindow(window).labStart()->click();
        QTRY_VERIFY2_WITH_TIMEOUT(window.session()->started(), qPrintable(window.session()->error()), 10000);
        // The buttons follow the session when the window next updates them: a click before that is lost.
        QTRY_VERIFY(labWindow(window).labPlay()->isEnabled());
        labWindow(window).labPlay()->click();
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->stoppedBefore() && !window.session()->busy(), 10000);
        QCOMPARE(window.session()->nextStep(), 2); // set-up and turn ran; the fix (row 2) did not
        QCOMPARE(window.session()->row(2).state, QStringLiteral("pending"));
        QVERIFY(!window.session()->done());
        QVERIFY(!labWindow(window).labStep()->isEnabled() && !labWindow(window).labPlay()->isEnabled());
        QVERIFY2(labWindow(window).labStatus()->text().contains("fix it in the workbench"),
                 qPrintable(labWindow(window).labStatus()->text()));
        QVERIFY(window.catalog()->progress(QStringLiteral("your-turn")).state.isEmpty()); // nothing marked
        teacher->click();
        QTRY_VERIFY(labWindow(window).labStep()->isEnabled());
        labWindow(window).labPlay()->click();
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->done(), 10000);
        QCOMPARE(window.session()->row(2).state, QStringLiteral("held"));
        QVERIFY(window.session()->allHeld());
    }

    void aClassSummaryReadsAFolderOfReports() {
        // Three students run the predicting lab (their names are the seed) and export their reports into
        // one folder, beside a file that is no report: the class summary shows one row per student with
        // their score (right predictions and answers of the four the lab asks), and says why the other file
        // was not read.
        QTemporaryDir user, handedIn;
        writeFile(user.filePath("predicting.yaml"), kPredictingLab);
        writeFile(handedIn.filePath("notes.html"), "<html><body>not a report</body></html>");
        struct Student {
            QString name;
            QString firstPrediction;  // "none" is right
            QString secondPrediction; // "none" is right
            QList<int> firstAnswer;   // choice 2 is right
            QList<int> secondAnswer;  // choices 1 and 3 are right
        };
        const std::vector<Student> students{{"张三 2024001", "EINVAL", "none", {2}, {1}},
                                            {"Li Si 2024002", "none", "none", {2}, {1, 3}},
                                            {"Wang Wu 2024003", "EINVAL", "EPERM: not permitted", {}, {}}};
        for (const auto& student : students) {
            LabWindowOptions options;
            options.curriculum = kLabs;
            options.userDirectory = user.path();
            options.engineProgram = RDMALAB_CLI_PATH;
            options.seed = student.name;
            LabWindow window(options);
            window.catalog()->setProgressFile(user.filePath("progress.ini"));
            window.show();
            QVERIFY(window.selectLab(QStringLiteral("predicting")));
            QTRY_VERIFY_WITH_TIMEOUT(labWindow(window).labStart()->isEnabled(), 10000);
            labWindow(window).labStart()->click();
            QTRY_VERIFY2_WITH_TIMEOUT(window.session()->started(), qPrintable(window.session()->error()),
                                      10000);
            labWindow(window).labStep()->click();
            for (const QString& answer : {student.firstPrediction, student.secondPrediction}) {
                QTRY_VERIFY_WITH_TIMEOUT(labWindow(window).labPredictChoice(answer) &&
                                             labWindow(window).labPredict()->isVisible(),
                                         10000);
                labWindow(window).labPredictChoice(answer)->click();
                labWindow(window).labLockIn()->click();
                QTRY_VERIFY_WITH_TIMEOUT(!labWindow(window).labLockIn()->isEnabled(), 10000);
            }
            QTRY_VERIFY_WITH_TIMEOUT(window.session()->done(), 10000);
            int question = 0;
            for (const auto& chosen : {student.firstAnswer, student.secondAnswer}) {
                ++question;
                if (chosen.isEmpty()) continue;
                for (int choice : chosen)
                    labWindow(window).labQuestionChoice(question, choice)->click();
                labWindow(window).labQuestionCheck(question)->click();
            }
            QCOMPARE(window.exportReport(handedIn.filePath(student.name.section(' ', -1) + ".html")),
                     QString());
        }
        LabWindowOptions options;
        options.curriculum = kLabs;
        options.userDirectory = user.path();
        options.engineProgram = RDMALAB_CLI_PATH;
        LabWindow teacher(options);
        teacher.show();
        auto* button = teacher.findChild<QPushButton*>(QStringLiteral("labClassSummary"));
        QVERIFY(button && button->isVisible());
        auto* dialog = teacher.showClassSummary(handedIn.path());
        auto* table = dialog->findChild<QTableWidget*>(QStringLiteral("classSummaryTable"));
        QVERIFY(table && dialog->isVisible());
        QCOMPARE(table->rowCount(), 3);
        auto cell = [&](int row, int column) { return table->item(row, column)->text(); };
        // By student: "Li Si…", "Wang Wu…", "张三…"; the score column is the fourth.
        QCOMPARE(cell(0, 0), QStringLiteral("Li Si 2024002"));
        QCOMPARE(cell(0, 3), QStringLiteral("100%")); // 4 of 4
        QCOMPARE(cell(1, 0), QStringLiteral("Wang Wu 2024003"));
        QCOMPARE(cell(1, 3), QStringLiteral("0%")); // both predictions wrong, no answer
        QCOMPARE(cell(1, 5), QStringLiteral("0 of 2 right (0 answered)"));
        QCOMPARE(cell(2, 0), QStringLiteral("张三 2024001"));
        QCOMPARE(cell(2, 3), QStringLiteral("50%")); // the second prediction and the first answer
        QVERIFY2(cell(2, 7).contains("Which errno") && cell(2, 7).contains("Which are results"),
                 qPrintable(cell(2, 7)));
        auto* problems = dialog->findChild<QLabel*>(QStringLiteral("classSummaryProblems"));
        QVERIFY2(problems->isVisible() && problems->text().contains("notes.html: no grade inside"),
                 qPrintable(problems->text()));
    }

    void theCurriculumByChapter() {
        LabCatalog catalog;
        QAbstractItemModelTester tester(&catalog, QAbstractItemModelTester::FailureReportingMode::QtTest);
        catalog.load(kLabs, QString(), QStringLiteral("en"));
        QVERIFY2(catalog.errors().isEmpty(), qPrintable(catalog.errors().join('\n')));
        QCOMPARE(catalog.rowCount(), 29); // chapters 1-29, each with at least one lab
        QCOMPARE(labsUnder(catalog), catalog.labCount());
        QCOMPARE(catalog.labCount(), 58);
        QCOMPARE(catalog.data(catalog.index(0, 0)).toString(), QStringLiteral("1 · Devices, ports and GIDs"));
        const QModelIndex write = catalog.indexOf(QStringLiteral("write"));
        QVERIFY(write.isValid());
        QCOMPARE(catalog.data(write.parent(), LabCatalog::ChapterRole).toInt(), 10);
        QCOMPARE(catalog.data(write, LabCatalog::LabIdRole).toString(), QStringLiteral("write"));
        QVERIFY(
            catalog.data(write, LabCatalog::FileRole).toString().endsWith("/labs/10-rdma-write/write.yaml"));
        QCOMPARE(catalog.data(catalog.index(write.row(), LabCatalog::LevelColumn, write.parent())).toString(),
                 QStringLiteral("intro"));
        QVERIFY(catalog.data(write, LabCatalog::ObjectivesRole).toString().contains("remote write access"));
        // Within a chapter, labs keep the order the files give.
        const QModelIndex first = catalog.index(0, 0, catalog.index(0, 0));
        QCOMPARE(catalog.data(first, LabCatalog::LabIdRole).toString(), QStringLiteral("ports-and-gids"));
        catalog.setLanguage(QStringLiteral("zh"));
        QCOMPARE(catalog.data(catalog.index(0, 0)).toString(), QStringLiteral("1 · 设备、端口与 GID"));
        QCOMPARE(catalog.data(write).toString(), QStringLiteral("RDMA Write：单边写入远端内存"));
    }

    void aUsersLabsJoinAndBadFilesAreShownNotDropped() {
        QTemporaryDir user;
        QVERIFY(user.isValid());
        QFile::copy(kLabs + "/10-rdma-write/write.yaml", user.filePath("copy.yaml")); // id 'write' again
        QByteArray mine;
        {
            QFile f(kLabs + "/10-rdma-write/write.yaml");
            QVERIFY(f.open(QIODevice::ReadOnly));
            mine = f.readAll();
        }
        mine.replace("id: write\n", "id: my-write\n");
        mine.replace("chapter: 10\n", "chapter: 31\n");
        writeFile(user.filePath("mine.yaml"), mine);
        writeFile(user.filePath("broken.yaml"),
                  "lab: 1\nid: broken\nchapter: 2\ntitle: {en: x, zh: y}\nlevel: nonsense\n");
        LabCatalog catalog;
        QAbstractItemModelTester tester(&catalog, QAbstractItemModelTester::FailureReportingMode::QtTest);
        catalog.load(kLabs, user.path(), QStringLiteral("en"));
        QCOMPARE(catalog.labCount(), 59); // the curriculum and the user's one good lab
        const QModelIndex mineRow = catalog.indexOf(QStringLiteral("my-write"));
        QVERIFY(mineRow.isValid());
        QCOMPARE(catalog.data(mineRow.parent()).toString(), QStringLiteral("31 · Chapter 31"));
        QCOMPARE(catalog.errors().size(), 2);
        const QString errors = catalog.errors().join('\n');
        QVERIFY2(errors.contains(user.filePath("broken.yaml") + ":5:"), qPrintable(errors));
        QVERIFY2(errors.contains(user.filePath("copy.yaml") +
                                 ":8:1: field 'id': the curriculum already has a lab 'write'"),
                 qPrintable(errors));
    }

    void aFolderOfThousandsOfBadFilesIsListedWithReasonsInBoundedSpace() {
        QTemporaryDir user;
        for (int i = 0; i < 2100; ++i)
            writeFile(user.filePath(QStringLiteral("bad-%1.yaml").arg(i, 4, 10, QLatin1Char('0'))),
                      "lab: 1\nid: [\n");
        QVERIFY(::mkfifo(QFile::encodeName(user.filePath("a-fifo.yaml")).constData(), 0600) == 0);
        QVERIFY(QFile::link(user.filePath("gone.yaml"), user.filePath("a-link.yaml")));
        LabCatalog catalog;
        catalog.load(kLabs, user.path(), QStringLiteral("en"));
        const QStringList& errors = catalog.errors();
        QVERIFY2(errors.contains(user.filePath("a-fifo.yaml") + ": not a lab file: a FIFO"),
                 qPrintable(errors.first()));
        QVERIFY2(std::any_of(errors.begin(), errors.end(),
                             [&](const QString& e) {
                                 return e.startsWith(user.filePath("a-link.yaml") +
                                                     ": not a lab file: a link to nothing");
                             }),
                 "the dangling link is not listed");
        QVERIFY(errors.contains(user.path() +
                                ": the folder holds 2100 lab files; the first 2000 (by name) were read"));
        QCOMPARE(errors.size(), 2000 + 3);
        LabWindowOptions options;
        options.curriculum = kLabs;
        options.userDirectory = user.path();
        options.engineProgram = QStringLiteral("/nonexistent/rdmalab-cli");
        LabWindow window(options);
        window.resize(1280, 720);
        window.show();
        auto* list = labWindow(window).labErrorList();
        QVERIFY(list && list->isVisible());
        QCOMPARE(list->count(), 501);
        QCOMPARE(list->item(500)->text(), QStringLiteral("… and 1503 more"));
        QCOMPARE(labWindow(window).labErrors()->text(),
                 QStringLiteral("These lab files did not load (2003):"));
        QVERIFY2(window.minimumSizeHint().height() <= 720,
                 qPrintable(QString::number(window.minimumSizeHint().height())));
        QVERIFY(list->height() < 200);
    }

    void theWindowListsLabsAndTheirParameters() {
        QTemporaryDir user;
        writeFile(user.filePath("broken.yaml"), "lab: 1\nid: [\n");
        LabWindowOptions options;
        options.curriculum = kLabs;
        options.userDirectory = user.path();
        options.engineProgram = QStringLiteral("/nonexistent/rdmalab-cli"); // no engine needed to browse
        LabWindow window(options);
        window.show();
        auto* tree = labWindow(window).labTree();
        QVERIFY(tree);
        QCOMPARE(tree->model()->rowCount(), 29);
        auto* errors = labWindow(window).labErrors();
        auto* errorList = labWindow(window).labErrorList();
        QVERIFY(errors && errors->isVisible() && errorList && errorList->isVisible());
        QCOMPARE(errors->text(), QStringLiteral("These lab files did not load (1):"));
        QCOMPARE(errorList->count(), 1);
        QVERIFY2(
            errorList->item(0)->text().startsWith(user.filePath("broken.yaml") + ":3:1: YAML syntax error"),
            qPrintable(errorList->item(0)->text()));
        QVERIFY(window.selectLab(QStringLiteral("write")));
        QVERIFY(labWindow(window).labHeader()->text().contains("RDMA Write"));
        auto* size = labWindow(window).labParameter(QStringLiteral("size"));
        QVERIFY(size);
        QCOMPARE(size->placeholderText(), QStringLiteral("64"));
        QVERIFY(!labWindow(window).labHeader()->text().contains("Two hosts"));
        // A two-host lab says, before it starts, that it needs two hosts and how to run it.
        QVERIFY(window.selectLab(QStringLiteral("loss-and-retransmission")));
        QVERIFY2(labWindow(window).labHeader()->text().contains(
                     "Two hosts: this lab runs between two hosts on one wire, with `rdmalab-cli lab run "
                     "loss-and-retransmission --listen ADDR` on B's host"),
                 qPrintable(labWindow(window).labHeader()->text()));
        QVERIFY(!window.selectLab(QStringLiteral("no-such-lab")));
        // Without an engine process nothing can start, and the window says so instead of hanging.
        QTRY_VERIFY(labWindow(window).labStatus()->text().contains("/nonexistent/rdmalab-cli") ||
                    !labWindow(window).labStart()->isEnabled());
        QVERIFY(!labWindow(window).labStep()->isEnabled());
    }
};

QTEST_MAIN(LabBrowserTest)
#include "tst_labbrowser.moc"
