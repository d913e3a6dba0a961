// The lab browser without a device: the catalog of the curriculum and of a user's lab folder (a bad file
// is listed with its file, line and reason, a duplicate id refused), checked with
// QAbstractItemModelTester; the lab window's widgets found by object name.
#include "testutil.hpp"

#include "labcatalog.h"
#include "labwindow.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

using namespace rdmalab::app;

namespace {

const QString kLabs = QStringLiteral(RDMALAB_SOURCE_DIR) + QStringLiteral("/labs");

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

    void theCurriculumByChapter() {
        LabCatalog catalog;
        QAbstractItemModelTester tester(&catalog, QAbstractItemModelTester::FailureReportingMode::QtTest);
        catalog.load(kLabs, QString(), QStringLiteral("en"));
        QVERIFY2(catalog.errors().isEmpty(), qPrintable(catalog.errors().join('\n')));
        QCOMPARE(catalog.rowCount(), 28); // chapters 1-28, each with at least one lab
        QCOMPARE(labsUnder(catalog), catalog.labCount());
        QCOMPARE(catalog.labCount(), 48);
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
        QCOMPARE(catalog.labCount(), 49);
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

    void theWindowListsLabsAndTheirParameters() {
        QTemporaryDir user;
        writeFile(user.filePath("broken.yaml"), "lab: 1\nid: [\n");
        LabWindowOptions options;
        options.curriculum = kLabs;
        options.userDirectory = user.path();
        options.engineProgram = QStringLiteral("/nonexistent/rdmalab-cli"); // no engine needed to browse
        LabWindow window(options);
        window.show();
        auto* tree = window.findChild<QTreeView*>("labTree");
        QVERIFY(tree);
        QCOMPARE(tree->model()->rowCount(), 28);
        auto* errors = window.findChild<QLabel*>("labErrors");
        QVERIFY(errors && errors->isVisible());
        QVERIFY2(errors->text().contains(user.filePath("broken.yaml") + ":3:1: YAML syntax error"),
                 qPrintable(errors->text()));
        QVERIFY(window.selectLab(QStringLiteral("write")));
        QVERIFY(window.findChild<QLabel*>("labHeader")->text().contains("RDMA Write"));
        auto* size = window.findChild<QLineEdit*>("labParameter_size");
        QVERIFY(size);
        QCOMPARE(size->placeholderText(), QStringLiteral("64"));
        QVERIFY(!window.selectLab(QStringLiteral("no-such-lab")));
        // Without an engine process nothing can start, and the window says so instead of hanging.
        QTRY_VERIFY(window.findChild<QLabel*>("labStatus")->text().contains("/nonexistent/rdmalab-cli") ||
                    !window.findChild<QPushButton*>("labStart")->isEnabled());
        QVERIFY(!window.findChild<QPushButton*>("labStep")->isEnabled());
    }
};

QTEST_MAIN(LabBrowserTest)
#include "tst_labbrowser.moc"
