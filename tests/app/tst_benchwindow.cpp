// The measurement window offscreen: a recorded real measurement replayed, a live TCP measurement through
// the engine process (TCP needs no RDMA device, so this runs on any host), redraw batching, a bad file.
#include "benchwindow.h"
#include "panelcheck.h"
#include "testutil.hpp"
#include "windowdrivers.h"
#include "windowparts.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineSeries>
#include <QPointer>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <csignal>

using namespace rdmalab;
using namespace rdmalab::app;
using rdmalab::test::benchWindow;
using rdmalab::test::windowParts;

namespace {
const QString kData = (RDMALAB_SOURCE_DIR + QStringLiteral("/tests/data/"));

qsizetype pointsOf(QChartView* view) {
    qsizetype n = 0;
    for (auto* s : view->chart()->series())
        if (auto* line = qobject_cast<QLineSeries*>(s)) n += line->count();
    return n;
}
} // namespace

class BenchWindowTest : public QObject {
    Q_OBJECT
  private slots:
    void replayOfARecordedMeasurementIsLabelledAndComplete() {
        BenchStartOptions options;
        options.replayFile = kData + "bench-compare.jsonl";
        BenchWindow window(options);
        window.show();
        auto* session = window.session();
        QTRY_VERIFY(session->isReplay() && !session->runs().empty());
        QCOMPARE(session->runs().size(), std::size_t(12));
        for (const auto& run : session->runs()) {
            QVERIFY2(run.finished, qPrintable(run.kind));
            if (run.isLatency()) {
                // Every measured iteration travelled to the app, in order: histogram and CDF use them all.
                QCOMPARE(qint64(run.samplesUs.size()), run.iters);
                QVERIFY(run.latency && run.latency->p50 > 0);
            } else {
                QVERIFY(run.bwMBps > 0);
            }
        }
        QCOMPARE(session->device(), QString("rxe0"));
        QVERIFY(session->softwareDevice());
        auto* device = benchWindow(window).deviceLabel();
        QVERIFY2(device->text().contains("REPLAY"), qPrintable(device->text()));
        QVERIFY(device->text().contains("rxe0"));
        QVERIFY(device->text().contains("SoftRoCE"));
        auto* table = benchWindow(window).runsTable();
        QCOMPARE(table->rowCount(), 12);
        QCOMPARE(table->item(0, 0)->text(), QString("tcp_lat"));
        // Latency against size has one series per latency kind with a point per size.
        auto* sizeLatency = benchWindow(window).sizeLatencyChart();
        QCOMPARE(sizeLatency->chart()->series().size(), 4);
        QCOMPARE(pointsOf(sizeLatency), qsizetype(8));
        // Selecting a run draws its samples.
        table->selectRow(2); // send_lat 2 B
        auto* timeSeries = benchWindow(window).timeSeriesChart();
        QTRY_COMPARE(pointsOf(timeSeries), qsizetype(session->runs()[2].samplesUs.size()));
    }

    void aTracedRunShowsItsPipelineAgainstTheSendQueueDepth() {
        // Issue 34: a write_bw run with every work request traced, recorded in the SoftRoCE VM; the replay
        // goes through the same session and redraw as a live measurement.
        BenchStartOptions options;
        options.replayFile = kData + "bench-pipeline.jsonl";
        options.tab = "pipeline";
        BenchWindow window(options);
        window.resize(1280, 720);
        window.show();
        auto* session = window.session();
        QTRY_VERIFY(session->isReplay() && !session->runs().empty() && session->runs()[0].finished);
        const BenchRun& run = session->runs()[0];
        auto* page = window.findChild<QWidget*>("pipelinePage");
        QVERIFY(page);
        QCOMPARE(benchWindow(window).benchTabs()->currentWidget(), page);
        auto* chart = window.findChild<QChartView*>("pipelineChart");
        QVERIFY(chart);
        QTRY_VERIFY(chart->isVisible());
        QLineSeries* depth = nullptr;
        QLineSeries* most = nullptr;
        for (auto* s : chart->chart()->series()) {
            auto* line = qobject_cast<QLineSeries*>(s);
            if (line && line->name().startsWith("send-queue depth")) depth = line;
            auto* area = qobject_cast<QAreaSeries*>(s);
            if (area && area->name().startsWith("most work requests")) most = area->upperSeries();
        }
        QVERIFY(depth && most);
        QCOMPARE(depth->name(), QString("send-queue depth 128"));
        QVERIFY(depth->count() == 2);
        QCOMPARE(depth->at(0).y(), 128.0);
        QCOMPARE(depth->at(1).y(), 128.0);
        QCOMPARE(qsizetype(most->count()), qsizetype(run.pipeline.size()));
        QCOMPARE(most->count(), 20);
        QVERIFY2(chart->chart()->title().contains("rxe0 (SoftRoCE, software)"),
                 qPrintable(chart->chart()->title()));
        auto* caption = window.findChild<QLabel*>("pipelineCaption");
        QVERIFY(caption && caption->isVisible());
        const QString text = caption->text();
        QVERIFY2(text.contains("rxe0 (SoftRoCE, software)"), qPrintable(text));
        QVERIFY2(text.contains(QString::number(run.wrTrace->ratio, 'f', 2)), qPrintable(text));
        QVERIFY2(text.contains("traced/untraced 0.68"), qPrintable(text));
        QVERIFY2(text.contains("1.00 posts per doorbell"), qPrintable(text));
        QVERIFY2(text.contains("signaled 1 in 64"), qPrintable(text));
        QVERIFY2(text.contains("--trace-wr-rounds 5"), qPrintable(text));
        QVERIFY(!window.findChild<QLabel*>("pipelineExplanation")->isVisible());
        // The checkbox that asks for it live.
        auto* trace = window.findChild<QCheckBox*>("traceWrCheck");
        QVERIFY(trace && !trace->isChecked());
    }

    void aMeasurementWithoutTracingExplainsThePipelinePage() {
        BenchStartOptions options;
        options.replayFile = kData + "bench-compare.jsonl";
        options.tab = "pipeline";
        options.traceWr = true;
        BenchWindow window(options);
        window.show();
        QTRY_VERIFY(window.session()->isReplay() && !window.session()->runs().empty());
        QTRY_VERIFY(window.findChild<QLabel*>("pipelineExplanation")->isVisible());
        QVERIFY(!window.findChild<QChartView*>("pipelineChart")->isVisible());
        QVERIFY(window.findChild<QCheckBox*>("traceWrCheck")->isChecked());
    }

    void liveTcpMeasurementUpdatesChartsInBatches() {
        BenchStartOptions options;
        options.kinds = {"tcp_lat"};
        options.sizes = {64};
        options.seconds = 2.0;
        options.autoplay = true;
        BenchWindow window(options);
        window.show();
        auto* session = window.session();
        QTRY_VERIFY_WITH_TIMEOUT(session->running(), 20000);
        QElapsedTimer clock;
        clock.start();
        const int redrawsAtStart = window.redrawCount();
        auto* timeSeries = benchWindow(window).timeSeriesChart();
        // Charts fill while the measurement is still running.
        QTRY_VERIFY_WITH_TIMEOUT(pointsOf(timeSeries) > 0 && session->running(), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(!session->running(), 30000);
        const qint64 elapsedMs = clock.elapsed();
        const int redraws = window.redrawCount() - redrawsAtStart;
        QVERIFY2(redraws >= 3, qPrintable(QString("only %1 redraws in %2 ms").arg(redraws).arg(elapsedMs)));
        // At most one redraw per kRedrawIntervalMs (plus the final one when the run ends).
        QVERIFY2(redraws <= elapsedMs / BenchWindow::kRedrawIntervalMs + 2,
                 qPrintable(QString("%1 redraws in %2 ms").arg(redraws).arg(elapsedMs)));
        const auto& run = session->runs().at(0);
        QVERIFY(run.finished);
        QCOMPARE(qint64(run.samplesUs.size()), run.iters);
        QVERIFY(run.iters > 10);
        QCOMPARE(run.device, QString("loopback TCP (lo, kernel stack)"));
    }

    void aDeadEngineKeepsWhatWasMeasured() {
        BenchStartOptions options;
        options.kinds = {"tcp_lat"};
        options.sizes = {64};
        options.seconds = 60;
        options.autoplay = true;
        BenchWindow window(options);
        window.show();
        auto* session = window.session();
        QTRY_VERIFY_WITH_TIMEOUT(!session->runs().empty() && !session->runs()[0].samplesUs.empty(), 20000);
        ::kill(static_cast<pid_t>(window.engine()->processId()), SIGKILL);
        auto* banner = windowParts(window).engineMessage();
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 10000);
        QVERIFY2(banner->text().contains("crashed"), qPrintable(banner->text()));
        QVERIFY(!session->running());
        QVERIFY(!session->runs()[0].samplesUs.empty()); // what arrived before the crash is kept
        QVERIFY(!session->events().empty());
        auto* restart = windowParts(window).restartEngineButton();
        QVERIFY(restart->isVisible());
        restart->click();
        QTRY_VERIFY_WITH_TIMEOUT(window.engine()->isRunning(), 20000);
        QTRY_VERIFY(benchWindow(window).runButton()->isEnabled());
    }

    void aRunStoppedBeforeItsFirstSampleSaysNoSamples() {
        // A measurement stopped before its first iteration, as the engine records it.
        QTemporaryDir dir;
        const QString path = dir.filePath("stopped.jsonl");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"v\":1,\"seq\":1,\"t_ns\":1,\"ep\":\"-\",\"kind\":\"measure\",\"name\":\"bench.begin\","
                "\"ids\":{\"id\":1},\"data\":{\"index\":0,\"total\":1,\"kind\":\"tcp_lat\",\"size\":64,"
                "\"iters\":1000}}\n");
        f.write("{\"v\":1,\"seq\":2,\"t_ns\":2,\"ep\":\"-\",\"kind\":\"measure\",\"name\":\"bench.result\","
                "\"ids\":{\"id\":1},\"data\":{\"index\":0,\"kind\":\"tcp_lat\",\"size\":64,\"iters\":0,"
                "\"no_samples\":true,\"device\":\"loopback TCP (lo, kernel stack)\",\"lat_us\":null,"
                "\"rtt_us\":null,\"lat_basis\":\"half round trip\",\"cpu\":{\"user_us_per_msg\":null}}}\n");
        f.write("{\"v\":1,\"seq\":3,\"t_ns\":3,\"ep\":\"-\",\"kind\":\"measure\",\"name\":\"bench.done\","
                "\"ids\":{\"id\":1},\"data\":{\"ok\":true,\"runs\":1,\"completed\":1,\"stopped\":true}}\n");
        f.close();
        BenchStartOptions options;
        options.replayFile = path;
        BenchWindow window(options);
        window.show();
        auto* session = window.session();
        QTRY_VERIFY(session->isReplay() && !session->runs().empty() && session->runs()[0].finished);
        QVERIFY(session->runs()[0].noSamples);
        auto* table = benchWindow(window).runsTable();
        QTRY_COMPARE(table->rowCount(), 1);
        QCOMPARE(table->item(0, 3)->text(), QString("no samples")); // p50
        QVERIFY(table->item(0, 8)->text().isEmpty());               // CPU per message
        table->selectRow(0);
        auto* stats = benchWindow(window).statsLabel();
        QTRY_VERIFY2(stats->text().contains("no samples"), qPrintable(stats->text()));
        QVERIFY2(!stats->text().contains("0.0"), qPrintable(stats->text()));
    }

    void aBadRecordingNamesLineAndField() {
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.jsonl");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QFile good(kData + "bench-compare.jsonl");
        QVERIFY(good.open(QIODevice::ReadOnly));
        f.write(good.readLine());
        f.write(good.readLine());
        f.write("{\"v\":1,\"seq\":3,\"t_ns\":1,\"ep\":\"-\",\"kind\":\"measure\",\"name\":1}\n");
        f.close();
        BenchStartOptions options;
        options.replayFile = path;
        BenchWindow window(options);
        window.show();
        auto* banner = windowParts(window).engineMessage();
        QTRY_VERIFY(banner->isVisible());
        QVERIFY2(banner->text().contains("line 3"), qPrintable(banner->text()));
        QVERIFY2(banner->text().contains("name"), qPrintable(banner->text()));
    }

    void windowsFitA1280x720Projector() {
        // 90 % of the available area, never more than the size the windows were designed at.
        QCOMPARE(fittedWindowSize(QSize(1680, 1050), QSize(1280, 720)), QSize(1152, 648));
        QCOMPARE(fittedWindowSize(QSize(1600, 1000), QSize(1280, 720)), QSize(1152, 648));
        QCOMPARE(fittedWindowSize(QSize(1680, 1050), QSize(2560, 1440)), QSize(1680, 1050));
        QCOMPARE(fittedWindowSize(QSize(1680, 1050), QSize(1920, 1080)), QSize(1680, 972));
        // Not below a usable minimum while the screen has room for it; no screen: the designed size.
        QCOMPARE(fittedWindowSize(QSize(1680, 1050), QSize(820, 600)), QSize(800, 560));
        QCOMPARE(fittedWindowSize(QSize(1680, 1050), QSize(640, 480)), QSize(640, 480));
        QCOMPARE(fittedWindowSize(QSize(1680, 1050), QSize()), QSize(1680, 1050));
        // --window-size WxH.
        QCOMPARE(parseWindowSize("1280x720"), QSize(1280, 720));
        QCOMPARE(parseWindowSize(" 1024 X 768 "), QSize(1024, 768));
        QCOMPARE(parseWindowSize(QStringLiteral("1280×720")), QSize(1280, 720));
        for (const char* bad : {"", "1280", "1280x", "x720", "1280x720x2", "-1280x720", "1280,720", "100x100",
                                "99999x720", "wide"})
            QVERIFY2(!parseWindowSize(bad).isValid(), bad);
    }

    void everyPanelIsOnAProjectorAndASmallScreen() {
        // Issue 16: at 1280x720 (a classroom projector) and 1024x768 every chart and table is on screen.
        BenchStartOptions options;
        options.replayFile = kData + "bench-compare.jsonl";
        BenchWindow window(options);
        const QSize least = window.minimumSizeHint();
        qInfo("minimum size hint: %dx%d", least.width(), least.height());
        QVERIFY2(least.width() <= 1024 && least.height() <= 640,
                 qPrintable(QStringLiteral("minimum %1x%2").arg(least.width()).arg(least.height())));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY(window.session()->isReplay() && !window.session()->runs().empty());
        auto* tabs = benchWindow(window).benchTabs();
        QVERIFY(tabs);
        const QStringList live{"timeSeriesChart", "histogramChart",   "cdfChart",
                               "bandwidthChart",  "sizeLatencyChart", "sizeBandwidthChart"};
        for (const QString& name : live)
            QVERIFY2(window.findChild<QWidget*>(name), qPrintable(name));
        for (const QSize size : {QSize(1280, 720), QSize(1024, 768), QSize(1152, 648)}) {
            window.resize(size);
            QTRY_COMPARE(window.size(), size);
            const QString where = QStringLiteral("at %1x%2:\n").arg(size.width()).arg(size.height());
            tabs->setCurrentIndex(0);
            QCoreApplication::processEvents();
            QString problems = rdmalab::test::panelsOffScreen(window, QStringList(live) << "runsTable");
            QVERIFY2(problems.isEmpty(), qPrintable(where + problems));
            problems = rdmalab::test::panelsOffScreen(window, {"kindCombo", "runButton", "stopButton"}, 16);
            QVERIFY2(problems.isEmpty(), qPrintable(where + problems));
            tabs->setCurrentIndex(1);
            QCoreApplication::processEvents();
            problems = rdmalab::test::panelsOffScreen(window, {"cpuChart", "runsTable"});
            QVERIFY2(problems.isEmpty(), qPrintable(where + problems));
            tabs->setCurrentIndex(2);
            QCoreApplication::processEvents();
            problems =
                rdmalab::test::panelsOffScreen(window, {"comparisonPage", "physicsChart", "runsTable"});
            QVERIFY2(problems.isEmpty(), qPrintable(where + problems));
        }
    }

    void closingTheWindowFreesEveryChartSeries() {
        // A QAreaSeries does not own the line series it is drawn from; every series, and every line an
        // area is drawn from, must go with the window (ASan's leak check found the histogram's).
        QList<QPointer<QObject>> series;
        {
            BenchStartOptions options;
            options.replayFile = kData + "bench-compare.jsonl";
            BenchWindow window(options);
            for (auto* view : window.findChildren<QChartView*>())
                for (auto* s : view->chart()->series()) {
                    series.append(s);
                    if (auto* area = qobject_cast<QAreaSeries*>(s)) {
                        series.append(area->upperSeries());
                        if (area->lowerSeries()) series.append(area->lowerSeries());
                    }
                }
            QVERIFY(std::any_of(series.begin(), series.end(),
                                [](const QPointer<QObject>& s) { return qobject_cast<QAreaSeries*>(s); }));
        }
        for (const auto& s : series)
            QVERIFY2(s.isNull(), "a chart series outlived its window");
    }
};

QTEST_MAIN(BenchWindowTest)
#include "tst_benchwindow.moc"
