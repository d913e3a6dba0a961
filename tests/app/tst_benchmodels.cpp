// Measurements after they are taken: the physics floor, CSV/JSON export, chart files, and the TCP/RDMA
// comparison page (offscreen, children found by object name).
#include "apptestutil.hpp"
#include "benchexport.h"
#include "benchsession.h"
#include "benchstats.h"
#include "chartexport.h"
#include "comparisonpage.h"
#include "physicsfloor.h"
#include "tracefile.h"
#include "windowdrivers.h"

#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QGroupBox>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLineSeries>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/resource.h>
#include <sys/stat.h>

#include <csignal>

using namespace rdmalab::app;
using rdmalab::test::benchWindow;

namespace {

BenchRun latencyRun(const QString& kind, qint64 size, const QString& device, bool software, double p50) {
    BenchRun run;
    run.kind = kind;
    run.size = size;
    run.device = device;
    run.softwareDevice = software;
    run.iters = 1000;
    run.elapsedS = 0.25;
    run.finished = true;
    run.latency =
        LatencyFigures{p50 * 0.8, p50, p50 * 1.05, p50 * 1.2, p50 * 1.5, p50 * 2, p50 * 3, p50 * 0.1};
    run.latencyBasis =
        kind == "read_lat" ? "full round trip (post to completion)" : "half round trip (ping-pong / 2)";
    run.cpu = CpuFigures{0.1, 0.2, 12.5, 30.25, 0.004, std::nullopt};
    run.notes = {"a note"};
    return run;
}

BenchRun bandwidthRun(const QString& kind, qint64 size, const QString& device, bool software, double MBps) {
    BenchRun run;
    run.kind = kind;
    run.size = size;
    run.device = device;
    run.softwareDevice = software;
    run.iters = 500;
    run.elapsedS = 1.5;
    run.finished = true;
    run.bwMBps = MBps;
    run.bwGbps = MBps * 8 / 1000;
    run.msgRateMpps = MBps / static_cast<double>(size);
    run.cpu = CpuFigures{0.5, 1.0, 2.5, 4.75, 0.125, 1.0};
    return run;
}

const QString kTcpDevice = QStringLiteral("loopback TCP (lo, kernel stack)");

// RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks.
QList<QStringList> parseCsv(const QString& text) {
    QList<QStringList> records;
    QStringList record;
    QString field;
    bool quoted = false;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            record << field;
            field.clear();
        } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            record << field;
            field.clear();
            records << record;
            record.clear();
            ++i;
        } else {
            field += c;
        }
    }
    return records;
}

QString allText(const QTableWidget* table) {
    QStringList texts;
    for (int row = 0; row < table->rowCount(); ++row)
        for (int column = 0; column < table->columnCount(); ++column)
            if (table->item(row, column)) texts << table->item(row, column)->text();
    for (int column = 0; column < table->columnCount(); ++column)
        if (table->horizontalHeaderItem(column)) texts << table->horizontalHeaderItem(column)->text();
    return texts.join('\n');
}

} // namespace

class BenchModelsTest : public QObject {
    Q_OBJECT
  private slots:
    void physicsFloorOf100MBAt100GbpsIs8ms() {
        QCOMPARE(serializationSeconds(100e6, 100), 0.008);
        QCOMPARE(serializationSeconds(1e9, 10), 0.8);
        QCOMPARE(serializationSeconds(100e6, 0), 0.0); // no rate, no answer rather than infinity
    }

    void measuredTransferTimeComesFromTheNearestRunOfTheTransport() {
        const std::vector<BenchRun> runs{
            bandwidthRun("write_bw", 4096, "rxe0", true, 20),
            bandwidthRun("write_bw", 65536, "rxe0", true, 40),
            bandwidthRun("tcp_bw", 65536, kTcpDevice, false, 50),
            latencyRun("write_lat", 2, "rxe0", true, 47.5),
        };
        // 100 MB: nearest RDMA bandwidth run is 65536 B at 40 MB/s -> 2.5 s.
        const auto rdma = estimateTransferTime(runs, 100e6, Transport::Rdma);
        QVERIFY(rdma);
        QCOMPARE(rdma->kind, QString("write_bw"));
        QCOMPARE(rdma->runSize, qint64(65536));
        QCOMPARE(rdma->runIndex, 1);
        QCOMPARE(rdma->seconds, 2.5);
        QVERIFY(!rdma->fromLatency);
        QCOMPARE(rdma->device, QString("rxe0"));
        const auto tcp = estimateTransferTime(runs, 100e6, Transport::Tcp);
        QVERIFY(tcp);
        QCOMPARE(tcp->seconds, 2.0);
        QCOMPARE(tcp->device, kTcpDevice);
        // One message of a measured size: the latency p50 is the time.
        const auto oneMessage = estimateTransferTime(runs, 2, Transport::Rdma);
        QVERIFY(oneMessage && oneMessage->fromLatency);
        QCOMPARE(oneMessage->seconds, 47.5e-6);
        // Nothing measured for the transport: nothing estimated.
        QVERIFY(!estimateTransferTime({runs[0]}, 100e6, Transport::Tcp));
    }

    void csvHeaderCarriesUnitsAndRowsParseBack() {
        BenchRun latency = latencyRun("write_lat", 64, "rxe0, port 1 \"lo\"", true, 47.66);
        BenchRun bandwidth = bandwidthRun("tcp_bw", 65536, kTcpDevice, false, 54.82);
        BenchRun running = latencyRun("send_lat", 64, "rxe0", true, 1);
        running.finished = false;
        const QString csv = runsToCsv({latency, bandwidth, running});
        const QList<QStringList> records = parseCsv(csv);
        QCOMPARE(records.size(), 3); // header and the two finished runs
        const QStringList header = records[0];
        for (const char* column : {"size_B", "lat_p50_us", "bw_MBps_1e6", "bw_Gbps", "cpu_user_us_per_msg",
                                   "cpu_sys_us_per_msg", "ctx_switches_per_msg"})
            QVERIFY2(header.contains(column), column);
        auto cell = [&](int record, const char* column) { return records[record][header.indexOf(column)]; };
        QCOMPARE(records[1].size(), header.size());
        QCOMPARE(cell(1, "device"), QString("rxe0, port 1 \"lo\""));
        QCOMPARE(cell(1, "software_device"), QString("true"));
        QCOMPARE(cell(1, "size_B").toLongLong(), 64);
        QCOMPARE(cell(1, "lat_p50_us").toDouble(), 47.66);
        QCOMPARE(cell(1, "lat_p999_us").toDouble(), latency.latency->p999);
        QCOMPARE(cell(1, "cpu_sys_us_per_msg").toDouble(), 30.25);
        QVERIFY(cell(1, "bw_MBps_1e6").isEmpty()); // does not apply to a latency run
        QCOMPARE(cell(2, "bw_MBps_1e6").toDouble(), 54.82);
        QCOMPARE(cell(2, "bw_Gbps").toDouble(), bandwidth.bwGbps);
        QCOMPARE(cell(2, "ctx_switches_per_msg").toDouble(), 0.125);
        QCOMPARE(cell(2, "syscalls_per_msg").toDouble(), 1.0);
        QVERIFY(cell(2, "lat_p50_us").isEmpty());
        QVERIFY(cell(1, "syscalls_per_msg").isEmpty()); // not counted: an empty cell, not a zero
        QVERIFY(!csv.contains("47,66"));                // '.' as decimal point whatever the locale
    }

    void samplesCsvListsEveryIteration() {
        BenchRun run = latencyRun("tcp_lat", 2, kTcpDevice, false, 10);
        run.samplesUs = {10.5, 11.25, 9.75};
        const QList<QStringList> records = parseCsv(samplesToCsv(run));
        QCOMPARE(records.size(), 4);
        QCOMPARE(records[0], QStringList({"iteration", "latency_us"}));
        QCOMPARE(records[2], QStringList({"2", "11.25"}));
    }

    void jsonExportRoundTripsThroughApplyResult() {
        BenchRun latency = latencyRun("read_lat", 4096, "rxe0", true, 66.21);
        latency.samplesUs = {60.0, 66.5, 70.25};
        const BenchRun bandwidth = bandwidthRun("write_bw", 65536, "rxe0", true, 34.12);
        const nlohmann::json json = runsToJson({latency, bandwidth});
        QVERIFY(json.is_array());
        QCOMPARE(json.size(), std::size_t(2));
        QCOMPARE(json[0]["samples_us"].size(), std::size_t(3));
        QVERIFY(!json[1].contains("samples_us"));
        QVERIFY(!json[1].contains("lat_us"));
        const std::vector<BenchRun> originals{latency, bandwidth};
        for (std::size_t i = 0; i < originals.size(); ++i) {
            // Through text, as a file would carry it.
            const nlohmann::json reread = nlohmann::json::parse(json[i].dump());
            BenchRun back;
            QCOMPARE(back.applyResult(reread), QString());
            const BenchRun& original = originals[i];
            QCOMPARE(back.kind, original.kind);
            QCOMPARE(back.device, original.device);
            QCOMPARE(back.softwareDevice, original.softwareDevice);
            QCOMPARE(back.size, original.size);
            QCOMPARE(back.iters, original.iters);
            QCOMPARE(back.elapsedS, original.elapsedS);
            QCOMPARE(back.latency.has_value(), original.latency.has_value());
            if (original.latency) {
                QCOMPARE(back.latency->p50, original.latency->p50);
                QCOMPARE(back.latency->p999, original.latency->p999);
                QCOMPARE(back.latency->stdev, original.latency->stdev);
                QCOMPARE(back.latencyBasis, original.latencyBasis);
            }
            QCOMPARE(back.bwMBps, original.bwMBps);
            QCOMPARE(back.bwGbps, original.bwGbps);
            QCOMPARE(back.msgRateMpps, original.msgRateMpps);
            QCOMPARE(back.cpu.userUsPerMsg, original.cpu.userUsPerMsg);
            QCOMPARE(back.cpu.sysUsPerMsg, original.cpu.sysUsPerMsg);
            QCOMPARE(back.cpu.switchesPerMsg, original.cpu.switchesPerMsg);
            QCOMPARE(back.notes, original.notes);
        }
    }

    void aTracedRunKeepsItsPipelineSlicesAndWhatTracingCost() {
        // A real recording (write_bw 64 B, window 128, rxe0 in the SoftRoCE VM) with every work request
        // traced: 20 bench.pipeline events, then bench.result with wr_trace.
        const auto events = rdmalab::test::loadRecording("bench-pipeline.jsonl");
        const auto result = std::find_if(events.begin(), events.end(), [](const rdmalab::TraceEvent& e) {
            return e.name == "bench.result";
        });
        QVERIFY(result != events.end());
        const double ratioInFile = result->data.at("wr_trace").at("ratio").get<double>();
        BenchSession session(nullptr);
        session.openReplay(events, "bench-pipeline.jsonl");
        QCOMPARE(session.runs().size(), std::size_t(1));
        const BenchRun& run = session.runs().front();
        QCOMPARE(run.pipeline.size(), std::size_t(20));
        QCOMPARE(run.pipelineDepth, qint64(128));
        QCOMPARE(run.signalEvery, qint64(64));
        const PipelineSlice& last = run.pipeline.back();
        QCOMPARE(last.tS, 1.047483077);
        QCOMPARE(last.bucket.posts, std::uint64_t(1189));
        QCOMPARE(last.bucket.doorbells, std::uint64_t(1189));
        QCOMPARE(last.bucket.completed, std::uint64_t(1200));
        QCOMPARE(last.bucket.completions, std::uint64_t(19));
        QCOMPARE(last.bucket.polls_hit, std::uint64_t(10));
        QCOMPARE(last.bucket.polls_empty, std::uint64_t(1));
        QCOMPARE(last.bucket.outstanding_max, std::uint64_t(128));
        QCOMPARE(last.bucket.outstanding_end, std::uint64_t(0));
        // The slices add up to the traced run: every work request posted once, each on its own doorbell.
        const auto total = run.pipelineTotal();
        QCOMPARE(total.posts, total.doorbells);
        QCOMPARE(total.outstanding_max, std::uint64_t(128));
        QVERIFY(run.wrTrace);
        QCOMPARE(run.wrTrace->ratio, ratioInFile);
        QCOMPARE(run.wrTrace->rounds, 1);
        QCOMPARE(run.wrTrace->figure, QString("bw_MBps"));
        QCOMPARE(run.wrTrace->untraced.size(), std::size_t(1));
        QCOMPARE(run.wrTrace->traced.front(), run.bwMBps);
        QCOMPARE(run.wrTrace->records, qint64(30967));
        QCOMPARE(run.wrTrace->overruns, qint64(0));
        QCOMPARE(run.wrTrace->clockSource, QString("clock_monotonic"));
        QVERIFY(run.wrTrace->nsPerWr > 0);
        QCOMPARE(pipelineRunToShow(session.runs(), nullptr), &run);
        // The JSON export keeps what tracing cost: read back, it states the same figures.
        BenchRun back;
        QCOMPARE(back.applyResult(runsToJson({run})[0]), QString());
        QVERIFY(back.wrTrace);
        QCOMPARE(back.wrTrace->ratio, run.wrTrace->ratio);
        QCOMPARE(back.wrTrace->nsPerWr, run.wrTrace->nsPerWr);
        QCOMPARE(back.wrTrace->untraced, run.wrTrace->untraced);
        QCOMPARE(back.wrTrace->records, run.wrTrace->records);
        QCOMPARE(back.wrTrace->clockSource, run.wrTrace->clockSource);
        QCOMPARE(back.pipelineDepth, qint64(128));
        QCOMPARE(back.signalEvery, qint64(64));
        // A run measured without tracing has neither.
        BenchSession plain(nullptr);
        plain.openReplay(rdmalab::test::loadRecording("bench-compare.jsonl"), "bench-compare.jsonl");
        for (const auto& r : plain.runs())
            QVERIFY(r.pipeline.empty() && !r.wrTrace && r.pipelineDepth == 0);
        QCOMPARE(pipelineRunToShow(plain.runs(), &plain.runs().front()), nullptr);
    }

    void aRunWithoutSamplesShowsNoSamplesNotZero() {
        // The engine's result for a measurement stopped before its first iteration, and the same as a
        // recording made before `no_samples` existed carried it (zeros, iters 0).
        const nlohmann::json now = nlohmann::json::parse(
            "{\"kind\":\"write_lat\",\"device\":\"rxe0\",\"size\":64,\"iters\":0,\"no_samples\":true,"
            "\"lat_us\":null,\"rtt_us\":null,\"lat_basis\":\"half round trip\",\"cpu\":{\"user_s\":0.01,"
            "\"user_us_per_msg\":null,\"sys_us_per_msg\":null,\"switches_per_msg\":null}}");
        nlohmann::json before = now;
        before.erase("no_samples");
        before["lat_us"] = {{"min", 0}, {"p50", 0},  {"mean", 0}, {"p90", 0},
                            {"p99", 0}, {"p999", 0}, {"max", 0},  {"stdev", 0}};
        nlohmann::json bandwidth = now;
        bandwidth["kind"] = "write_bw";
        bandwidth.erase("lat_us");
        bandwidth["bw_MBps"] = nullptr;
        for (const auto& result : {now, before, bandwidth}) {
            BenchRun run;
            QCOMPARE(run.applyResult(result), QString());
            QVERIFY(run.finished);
            QVERIFY2(run.noSamples, result.dump().c_str());
            QVERIFY(!run.latency);
            QCOMPARE(headlineValue(run), 0.0);
            // CSV: empty cells, never 0; JSON: the engine's form, which reads back.
            const QStringList cells = runsToCsv({run}).split(QStringLiteral("\r\n"))[1].split(',');
            for (int column = 5; column <= 19; ++column)
                QVERIFY2(cells[column].isEmpty(), qPrintable(cells.join(',')));
            const nlohmann::json exported = runsToJson({run})[0];
            QCOMPARE(exported["no_samples"].get<bool>(), true);
            QVERIFY(run.isLatency() ? exported["lat_us"].is_null() : exported["bw_MBps"].is_null());
            BenchRun back;
            QCOMPARE(back.applyResult(exported), QString());
            QVERIFY(back.noSamples);
            // The comparison page says so instead of a figure.
            ComparisonPage page;
            page.setRuns({run});
            const QString text = allText(benchWindow(page).comparisonTable());
            QVERIFY2(text.contains("no samples"), qPrintable(text));
            QVERIFY2(!text.contains("0.00"), qPrintable(text));
        }
    }

    void writeFileAtomicallyNamesThePathOnError() {
        QTemporaryDir dir;
        const QString good = dir.filePath("runs.csv");
        QCOMPARE(writeFileAtomically(good, "a,b\r\n"), QString());
        QFile file(good);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("a,b\r\n"));
        const QString bad = dir.filePath("no/such/dir/runs.csv");
        const QString error = writeFileAtomically(bad, "x");
        QVERIFY2(error.contains(bad), qPrintable(error));
    }

    void anExportNeverReplacesADeviceAFifoOrAFolderAndKeepsTheEarlierFile() {
        QTemporaryDir dir;
        const QString fifo = dir.filePath("pipe");
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        const QString folder = dir.filePath("folder");
        QVERIFY(QDir().mkpath(folder));
        const QString linkToFifo = dir.filePath("link");
        QVERIFY(QFile::link(fifo, linkToFifo));
        const struct {
            QString path, says;
        } refused[] = {{fifo, "it is a FIFO"}, {folder, "it is a folder"}, {linkToFifo, "it is a FIFO"}};
        for (const auto& c : refused) {
            const QString error = writeFileAtomically(c.path, "report");
            QVERIFY2(error.contains(c.path) && error.contains(c.says), qPrintable(error));
            QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::System | QDir::NoDotAndDotDot).size(), 2);
        }
        QVERIFY(QFileInfo(linkToFifo).isSymLink()); // not replaced by a file
        // A device is refused without touching it: /dev/null stays a character device.
        const QString error = writeFileAtomically(QStringLiteral("/dev/null"), "report");
        QVERIFY2(error.contains("it is a device"), qPrintable(error));
        struct stat devNull {};
        QVERIFY(::stat("/dev/null", &devNull) == 0 && S_ISCHR(devNull.st_mode));
        // The trace export takes the same way.
        const std::vector<rdmalab::TraceEvent> oneEvent(1);
        QVERIFY(writeTraceFile(fifo, oneEvent).contains("it is a FIFO"));
    }

    void aWriteThatFailsHalfWayLeavesTheEarlierFileAsItWas() {
        QTemporaryDir dir;
        const QString path = dir.filePath("report.html");
        QCOMPARE(writeFileAtomically(path, "the earlier report"), QString());
        // A file size limit makes the write fail part-way, as a full disk does (EFBIG instead of ENOSPC).
        rlimit before{};
        QVERIFY(::getrlimit(RLIMIT_FSIZE, &before) == 0);
        const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit small = before;
        small.rlim_cur = 4096;
        QVERIFY(::setrlimit(RLIMIT_FSIZE, &small) == 0);
        const QString error = writeFileAtomically(path, QByteArray(64 * 1024, 'x'));
        ::setrlimit(RLIMIT_FSIZE, &before);
        std::signal(SIGXFSZ, oldHandler);
        QVERIFY2(error.contains(path) && error.contains("the earlier file is unchanged"), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("the earlier report"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList{"report.html"}); // no temporary file left behind
    }

    void chartIsSavedAsPngAndSvg() {
        auto* series = new QLineSeries;
        *series << QPointF(0, 1) << QPointF(1, 3) << QPointF(2, 2);
        auto* chart = new QChart;
        chart->addSeries(series);
        chart->createDefaultAxes();
        QChartView view(chart);
        view.resize(480, 320);
        QTemporaryDir dir;
        const QString png = dir.filePath("chart.png");
        const QString svg = dir.filePath("chart.svg");
        QCOMPARE(saveWidgetPng(&view, png), QString());
        QCOMPARE(saveWidgetSvg(&view, svg, "latency"), QString());
        QFile pngFile(png);
        QVERIFY(pngFile.open(QIODevice::ReadOnly));
        const QByteArray pngBytes = pngFile.readAll();
        QVERIFY(pngBytes.size() > 1000);
        QVERIFY(pngBytes.startsWith("\x89PNG"));
        QCOMPARE(QImage(png).size(), view.grab().toImage().size());
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        const QByteArray svgBytes = svgFile.readAll();
        QVERIFY(svgBytes.startsWith("<?xml") || svgBytes.startsWith("<svg"));
        QVERIFY(svgBytes.contains("<title>latency</title>"));
        QVERIFY(svgBytes.size() > 1000);
        const QString error = saveWidgetPng(&view, dir.filePath("missing/chart.png"));
        QVERIFY2(error.contains("missing/chart.png"), qPrintable(error));
    }

    void comparisonPageShowsBothNumbersTheDeviceAndTheSoftRoceLabel() {
        ComparisonPage page;
        page.resize(1280, 800);
        page.setRuns({latencyRun("tcp_lat", 2, kTcpDevice, false, 132.58),
                      latencyRun("write_lat", 2, "rxe0", true, 47.66)});
        page.show();
        auto* table = benchWindow(page).comparisonTable();
        auto* software = benchWindow(page).softwareDeviceLabel();
        auto* literature = benchWindow(page).literatureTable();
        QVERIFY(table && software && literature);
        QCOMPARE(table->rowCount(), 4); // figures and data path for each run
        const QString text = allText(table);
        QVERIFY2(text.contains("132.58"), qPrintable(text));
        QVERIFY(text.contains("47.66"));
        QVERIFY(text.contains("rxe0"));
        QVERIFY(text.contains(kTcpDevice));
        QVERIFY(text.contains("0.36 × TCP's p50")); // 47.66 / 132.58
        QVERIFY(text.contains("recv()"));
        QVERIFY(text.contains("one-sided"));
        QVERIFY(software->isVisible());
        QVERIFY(software->text().contains("SoftRoCE"));
        QVERIFY(software->text().contains("rxe0"));
        QVERIFY(software->text().contains("not those of an RDMA NIC"));
        QVERIFY(allText(literature).contains("not measured here"));
        auto* literatureBox = benchWindow(page).literatureBox();
        QVERIFY(literatureBox && literatureBox->title().contains("not measured here"));
        QVERIFY(allText(literature).contains("Potter")); // every figure names its source

        page.setLanguage("zh");
        QVERIFY(allText(table).contains("47.66"));
        QVERIFY(allText(table).contains("单边"));
        QVERIFY(software->text().contains("软件实现的 RDMA"));
        QVERIFY(allText(literature).contains("并非本机测得"));
        page.setLanguage("en");
        QVERIFY(allText(literature).contains("not measured here"));

        // Without a software device, no SoftRoCE label.
        page.setRuns({latencyRun("tcp_lat", 2, kTcpDevice, false, 20)});
        QVERIFY(!software->isVisible());
    }

    void comparisonPageTellsTheDataPathOfTheDeviceItMeasured() {
        ComparisonPage page;
        page.resize(1280, 800);
        page.setRuns({latencyRun("write_lat", 2, "rxe0", true, 47.66)});
        auto* table = benchWindow(page).comparisonTable();
        QVERIFY(table);
        // SoftRoCE: the send doorbell is a system call, the receive post and the poll are not, and the remote
        // side's work is done by the driver on a CPU.
        QString text = allText(table);
        QVERIFY2(text.contains("ibv_post_recv and ibv_poll_cq stay in user space"), qPrintable(text));
        QVERIFY(text.contains("write() system call"));
        QVERIFY(text.contains("the remote side's work is done by the rxe driver, on a CPU"));
        QVERIFY(!text.contains("only the completion-queue poll"));
        QVERIFY(!text.contains("remote CPU takes no part"));
        // write_lat is a ping-pong: the remote side polls for A's data and then writes its own reply (B5).
        QVERIFY(text.contains("polls its buffer to notice the data, then writes its reply"));
        QVERIFY(!text.contains("only polls"));
        page.setLanguage("zh");
        QVERIFY(allText(table).contains("ibv_post_recv 和 ibv_poll_cq 停留在用户态"));
        page.setLanguage("en");
        // An RDMA NIC: no system call on the data path, and the remote CPU runs no code.
        page.setRuns({latencyRun("read_lat", 2, "mlx5_0", false, 3.1)});
        text = allText(table);
        QVERIFY2(text.contains("The remote CPU runs no code for it"), qPrintable(text));
        QVERIFY(text.contains("no system call and no CPU copy"));
        QVERIFY(!text.contains("rxe"));

        // The physics floor's note: nominal rates are data rates after 64b/66b; frame overhead is what costs.
        auto* note = benchWindow(page).physicsFloorNote();
        QVERIFY(note);
        QVERIFY2(note->text().contains("already the data rate after line coding"), qPrintable(note->text()));
        QVERIFY(note->text().contains("QDR InfiniBand signals 40 Gb/s with 8b/10b and carries 32"));
        QVERIFY(note->text().contains("preamble and inter-frame gap"));
        QVERIFY(!note->text().contains("also carries line coding"));
        // The rate list offers data rates only: FDR's 56 Gb/s is a signalling rate (P3); the tooltip says
        // what to type for InfiniBand.
        auto* rate = benchWindow(page).physicsRate();
        QVERIFY(rate);
        QStringList rates;
        for (int i = 0; i < rate->count(); ++i)
            rates << rate->itemText(i);
        QCOMPARE(rates.join(", "),
                 QString("10 Gb/s, 25 Gb/s, 40 Gb/s, 50 Gb/s, 100 Gb/s, 200 Gb/s, 400 Gb/s"));
        QVERIFY2(rate->toolTip().contains("EDR 100, FDR 54.5, QDR 32"), qPrintable(rate->toolTip()));
        page.setLanguage("zh");
        QVERIFY(rate->toolTip().contains("EDR 100、FDR 54.5、QDR 32"));
        page.setLanguage("en");
    }

    void physicsCalculatorShowsTheFloorAndTheMeasuredTime() {
        ComparisonPage page;
        page.resize(1280, 800);
        page.show();
        auto* rate = benchWindow(page).physicsRate();
        auto* size = benchWindow(page).physicsSize();
        auto* unit = benchWindow(page).physicsSizeUnit();
        auto* result = benchWindow(page).physicsFloorResult();
        auto* measured = benchWindow(page).physicsMeasured();
        auto* chartView = benchWindow(page).physicsChart();
        QVERIFY(rate && size && unit && result && measured && chartView);
        // Defaults: 100 MB at 100 Gb/s.
        QVERIFY2(result->text().contains("8.000 ms"), qPrintable(result->text()));
        QVERIFY(measured->text().contains("No RDMA measurement"));
        rate->setCurrentText("10");
        QVERIFY2(result->text().contains("80.000 ms"), qPrintable(result->text()));
        rate->setCurrentText("400 Gb/s");
        size->setValue(1);
        unit->setCurrentText("GB");
        QVERIFY2(result->text().contains("20.000 ms"), qPrintable(result->text()));
        rate->setCurrentText("100 Gb/s");
        size->setValue(100);
        unit->setCurrentText("MB");

        page.setRuns({bandwidthRun("write_bw", 65536, "rxe0", true, 34.12),
                      bandwidthRun("tcp_bw", 65536, kTcpDevice, false, 54.82)});
        QVERIFY2(measured->text().contains("write_bw"), qPrintable(measured->text()));
        QVERIFY(measured->text().contains("rxe0"));
        QVERIFY(measured->text().contains("2.931 s")); // 100e6 / 34.12e6
        QVERIFY(measured->text().contains("tcp_bw"));
        const auto series = chartView->chart()->series();
        QCOMPARE(series.size(), 1);
        auto* bars = qobject_cast<QHorizontalBarSeries*>(series.first());
        QVERIFY(bars);
        QCOMPARE(bars->count(), 3);                    // floor, RDMA, TCP
        QCOMPARE(bars->barSets().at(0)->at(0), 0.008); // in s, the unit of the longest bar (2.931 s)
    }

    void pageRendersReadablyAt1280x800() {
        // Written to /tmp for a person to look at; the test checks only that rendering works.
        std::vector<BenchRun> runs{
            latencyRun("tcp_lat", 2, kTcpDevice, false, 132.58),
            latencyRun("write_lat", 2, "rxe0", true, 47.66),
            latencyRun("send_lat", 2, "rxe0", true, 45.95),
            latencyRun("read_lat", 2, "rxe0", true, 66.21),
            bandwidthRun("tcp_bw", 65536, kTcpDevice, false, 54.82),
            bandwidthRun("write_bw", 65536, "rxe0", true, 34.12),
        };
        for (const QString lang : {"en", "zh"}) {
            ComparisonPage page;
            page.setLanguage(lang);
            page.setRuns(runs);
            page.resize(1280, 800);
            page.show();
            QVERIFY(QTest::qWaitForWindowExposed(&page));
            QTest::qWait(100); // row heights follow the final column widths after the first layout
            const QString path = QDir::temp().filePath(QStringLiteral("rdmalab-comparison-%1.png").arg(lang));
            QCOMPARE(saveWidgetPng(&page, path), QString());
            QCOMPARE(QImage(path).width(), page.grab().toImage().width());
        }
    }
};

QTEST_MAIN(BenchModelsTest)
#include "tst_benchmodels.moc"
