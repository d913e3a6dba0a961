#include "benchwindow.h"

#include "benchexport.h"
#include "benchstats.h"
#include "chartexport.h"
#include "comparisonpage.h"
#include "enginebanner.h"
#include "headlessrun.h"
#include "tracefile.h"
#include "windowparts.h"

#include "rdmalab/format/measurement.hpp"

#include <QApplication>
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMenu>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedBarSeries>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QToolBar>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace rdmalab::app {

namespace {

// The order the kind menu lists them in (one-sided WRITE first, as perftest's usual headline); names and
// titles come from the shared vocabulary (rdmalab/format/measurement.hpp).
constexpr BenchKind kMenuOrder[] = {BenchKind::WriteLat,  BenchKind::SendLat, BenchKind::ReadLat,
                                    BenchKind::AtomicLat, BenchKind::TcpLat,  BenchKind::WriteBw,
                                    BenchKind::ReadBw,    BenchKind::SendBw,  BenchKind::TcpBw};

QString fromView(std::string_view text) {
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

/// Colours per kind, the same in every chart, so an overlaid series is recognisable.
QColor kindColor(const QString& kind) {
    static const std::map<QString, QColor> colors = {
        {"write_lat", QColor(0x1f, 0x77, 0xb4)}, {"send_lat", QColor(0x2c, 0xa0, 0x2c)},
        {"read_lat", QColor(0x94, 0x67, 0xbd)},  {"atomic_lat", QColor(0x8c, 0x56, 0x4b)},
        {"tcp_lat", QColor(0xd6, 0x27, 0x28)},   {"write_bw", QColor(0x1f, 0x77, 0xb4)},
        {"read_bw", QColor(0x94, 0x67, 0xbd)},   {"send_bw", QColor(0x2c, 0xa0, 0x2c)},
        {"tcp_bw", QColor(0xd6, 0x27, 0x28)},
    };
    const auto it = colors.find(kind);
    return it == colors.end() ? QColor(Qt::darkGray) : it->second;
}

void clearChart(QChart* chart) {
    chart->removeAllSeries();
    for (auto* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

} // namespace

/// Series the live charts keep and update in place (replace()), so a redraw allocates little.
struct LiveCharts {
    QLineSeries* timeSeries = nullptr;
    QValueAxis *timeX = nullptr, *timeY = nullptr;
    QLineSeries* histogramUpper = nullptr;
    QAreaSeries* histogramArea = nullptr;
    QValueAxis *histogramX = nullptr, *histogramY = nullptr;
    QLineSeries* cdf = nullptr;
    std::vector<QScatterSeries*> percentileMarks;
    QValueAxis *cdfX = nullptr, *cdfY = nullptr;
    QLineSeries* bandwidth = nullptr;
    QValueAxis *bandwidthX = nullptr, *bandwidthY = nullptr;
};

QStringList BenchWindow::comparisonKinds() {
    return {"tcp_lat", "send_lat", "write_lat", "read_lat", "tcp_bw", "write_bw"};
}

BenchWindow::BenchWindow(const BenchStartOptions& options, QWidget* parent)
    : QMainWindow(parent), options_(options), engine_(new EngineClient(this)),
      session_(new BenchSession(engine_, this)), headless_(new HeadlessRun(1, this)),
      live_(std::make_unique<LiveCharts>()) {
    setObjectName("benchWindow");
    setWindowTitle(tr("rdmalab — TCP and RDMA, measured side by side"));
    if (!options_.engineProgram.isEmpty()) engine_->setProgram(options_.engineProgram);
    redrawTimer_.setSingleShot(true);
    redrawTimer_.setInterval(kRedrawIntervalMs);
    connect(&redrawTimer_, &QTimer::timeout, this, &BenchWindow::redraw);
    buildUi();
    fitToScreen(this, QSize(1600, 1000));

    connect(session_, &BenchSession::dataChanged, this, &BenchWindow::scheduleRedraw);
    connect(session_, &BenchSession::runFinished, this, [this](int) {
        resultsChanged_ = true;
        refreshTable();
    });
    connect(session_, &BenchSession::runStarted, this, [this](int index) {
        refreshTable();
        statusLabel_->setText(tr("Measuring %1 of %2 …").arg(index + 1).arg(session_->runs().size()));
    });
    connect(session_, &BenchSession::runningChanged, this, &BenchWindow::refreshControls);
    connect(session_, &BenchSession::finished, this, &BenchWindow::onFinished);
    connect(engine_, &EngineClient::engineDied, this, &BenchWindow::onEngineDied);
    connectEngineBanner(this, engine_, engineBanner_);
    connect(engine_, &EngineClient::started, this, [this] {
        refreshControls();
        // Start once the window has painted and settled, so start-up work does not disturb the run.
        if (options_.autoplay && !options_.kinds.isEmpty() && session_->runs().empty())
            QTimer::singleShot(kAutoplayStartDelayMs, this, &BenchWindow::startMeasurement);
    });

    if (options_.tab == "cpu") tabs_->setCurrentIndex(1);
    if (options_.tab == "compare") tabs_->setCurrentIndex(2);
    headless_->setQuitWhenDone(options_.quitWhenDone);
    connect(headless_, &HeadlessRun::deadlinePassed, this, [this] { finishHeadless(false); });
    if (options_.autoplay)
        headless_->armDeadline(3600 * 1000, QStringLiteral("the measurement did not finish within an hour"));
    if (!options_.replayFile.isEmpty())
        QTimer::singleShot(0, this, [this] { openRecording(options_.replayFile); });
    else
        engine_->start();
    refreshControls();
    refreshHeader();
}

BenchWindow::~BenchWindow() {
    engine_->stop();
}

QChartView* BenchWindow::makeChartView(const QString& objectName, const QString& title) {
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setAnimationOptions(QChart::NoAnimation); // figures arrive live; animation would lag them
    auto* view = new QChartView(chart);
    view->setObjectName(objectName);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(220, 150); // six of them fit a 1024x768 screen
    return view;
}

void BenchWindow::buildUi() {
    buildToolBar();
    auto* central = new QWidget;
    auto* outer = new QVBoxLayout(central);
    outer->setContentsMargins(6, 6, 6, 6);
    // Engine errors, failed measurements and recordings that cannot be opened; Restart only for the first.
    engineBanner_ = makeEngineBanner(&restartButton_);
    restartButton_->hide();
    connect(restartButton_, &QPushButton::clicked, this, [this] {
        restartButton_->hide();
        engineBanner_->hide();
        engine_->start();
    });
    outer->addWidget(engineBanner_);
    autosaveWarning_ = makeAutosaveWarning();
    outer->addWidget(autosaveWarning_);
    deviceLabel_ = new QLabel;
    deviceLabel_->setObjectName("deviceLabel");
    deviceLabel_->setWordWrap(true);
    outer->addWidget(deviceLabel_);
    statsLabel_ = new QLabel;
    statsLabel_->setObjectName("statsLabel");
    statsLabel_->setWordWrap(true);
    statsLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    outer->addWidget(statsLabel_);

    buildTabs();
    runsTable_ = new QTableWidget;
    runsTable_->setObjectName("runsTable");
    runsTable_->setColumnCount(13);
    runsTable_->setHorizontalHeaderLabels({tr("Kind"), tr("Size"), tr("Iterations"), tr("p50 µs"),
                                           tr("p99 µs"), tr("MB/s (10^6)"), tr("Gb/s"), tr("Mmsg/s"),
                                           tr("user µs/msg"), tr("sys µs/msg"), tr("switches/msg"),
                                           tr("syscalls/msg"), tr("Device")});
    runsTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    runsTable_->setSelectionMode(QAbstractItemView::SingleSelection);
    runsTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    runsTable_->verticalHeader()->hide();
    runsTable_->horizontalHeader()->setStretchLastSection(true);
    connect(runsTable_, &QTableWidget::itemSelectionChanged, this, [this] {
        const auto rows = runsTable_->selectionModel()->selectedRows();
        selectedRun_ = rows.isEmpty() ? -1 : rows.first().row();
        scheduleRedraw();
    });

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(tabs_);
    split->addWidget(runsTable_);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    split->setSizes({720, 280}); // proportions: at 720 px high the table still shows a few runs
    split->setCollapsible(0, false);
    outer->addWidget(split, 1);
    setCentralWidget(central);
    statusLabel_ = new QLabel;
    statusLabel_->setObjectName("statusLabel");
    statusLabel_->setTextFormat(Qt::PlainText);
    statusBar()->addWidget(statusLabel_, 1);

    buildLiveSeries();
}

void BenchWindow::buildToolBar() {
    auto* bar = addFixedToolBar(this, tr("Measure"), "benchToolBar");
    kindCombo_ = new QComboBox;
    kindCombo_->setObjectName("kindCombo");
    kindCombo_->addItem(tr("TCP vs RDMA (latency and bandwidth)"), comparisonKinds());
    kindCombo_->addItem(tr("All latency kinds (TCP and RDMA)"),
                        QStringList{"tcp_lat", "send_lat", "write_lat", "read_lat", "atomic_lat"});
    kindCombo_->addItem(tr("All bandwidth kinds (TCP and RDMA)"),
                        QStringList{"tcp_bw", "write_bw", "read_bw", "send_bw"});
    for (const BenchKind kind : kMenuOrder) {
        const MeasurementKind& k = measurement_kind(kind);
        kindCombo_->addItem(QStringLiteral("%1 — %2").arg(fromView(k.name), fromView(k.title)),
                            QStringList{fromView(k.name)});
    }
    // The longest kind must not push Run and Stop off a 1024 px wide window: the combo shows the start of
    // it, its list the whole of it.
    kindCombo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    kindCombo_->setMinimumContentsLength(22);
    kindCombo_->view()->setMinimumWidth(kindCombo_->view()->sizeHintForColumn(0));
    bar->addWidget(new QLabel(tr(" Measure ")));
    bar->addWidget(kindCombo_);
    sizeCombo_ = new QComboBox;
    sizeCombo_->setObjectName("sizeCombo");
    sizeCombo_->addItem(tr("2 B and 64 KiB"), QVariantList{2, 65536});
    for (qint64 s = 2; s <= (8LL << 20); s *= 2)
        sizeCombo_->addItem(sizeText(s), QVariantList{s});
    bar->addWidget(new QLabel(tr("  Size ")));
    bar->addWidget(sizeCombo_);
    sweepCheck_ = new QCheckBox(tr("Sweep 2 B … 8 MiB"));
    sweepCheck_->setObjectName("sweepCheck");
    bar->addWidget(sweepCheck_);
    itersSpin_ = new QSpinBox;
    itersSpin_->setObjectName("itersSpin");
    itersSpin_->setRange(10, 10000000);
    itersSpin_->setValue(options_.iters);
    bar->addWidget(new QLabel(tr("  Iterations ")));
    bar->addWidget(itersSpin_);
    runButton_ = new QPushButton(tr("Run"));
    runButton_->setObjectName("runButton");
    stopButton_ = new QPushButton(tr("Stop"));
    stopButton_->setObjectName("stopButton");
    exportButton_ = new QPushButton(tr("Export"));
    exportButton_->setObjectName("exportButton");
    bar->addWidget(runButton_);
    bar->addWidget(stopButton_);
    bar->addSeparator();
    bar->addWidget(exportButton_);
    auto* openButton = openButton_ = new QPushButton(tr("Open recording…"));
    openButton->setObjectName(QStringLiteral("benchOpenRecording"));
    bar->addWidget(openButton);
    connect(runButton_, &QPushButton::clicked, this, &BenchWindow::startMeasurement);
    connect(stopButton_, &QPushButton::clicked, session_, &BenchSession::stop);
    connect(openButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a measurement trace"), {},
                                                          tr("Trace (*.jsonl);;All files (*)"));
        if (!path.isEmpty()) openRecording(path);
    });
    auto* exportMenu = new QMenu(exportButton_);
    auto ask = [this](const QString& title, const QString& filter) {
        return QFileDialog::getSaveFileName(this, title, {}, filter);
    };
    exportMenu->addAction(tr("Results as CSV…"), this, [this, ask] {
        if (auto p = ask(tr("Export results"), tr("CSV (*.csv)")); !p.isEmpty()) exportResults(p);
    });
    exportMenu->addAction(tr("Results as JSON…"), this, [this, ask] {
        if (auto p = ask(tr("Export results"), tr("JSON (*.json)")); !p.isEmpty()) exportResults(p);
    });
    exportMenu->addAction(tr("Samples of the shown run as CSV…"), this, [this, ask] {
        const BenchRun* run = shownRun();
        if (!run) return;
        if (auto p = ask(tr("Export samples"), tr("CSV (*.csv)")); !p.isEmpty()) {
            const QString error = writeFileAtomically(p, samplesToCsv(*run).toUtf8());
            statusBar()->showMessage(error.isEmpty() ? tr("Saved %1").arg(p) : error, 10000);
        }
    });
    exportMenu->addAction(tr("Charts as PNG…"), this, [this, ask] {
        if (auto p = ask(tr("Save charts"), tr("PNG (*.png)")); !p.isEmpty()) exportCharts(p);
    });
    exportMenu->addAction(tr("Charts as SVG…"), this, [this, ask] {
        if (auto p = ask(tr("Save charts"), tr("SVG (*.svg)")); !p.isEmpty()) exportCharts(p);
    });
    exportMenu->addAction(tr("Measurement trace (JSON Lines)…"), this, [this, ask] {
        if (auto p = ask(tr("Save trace"), tr("Trace (*.jsonl)")); !p.isEmpty()) {
            const QString error = writeTraceFile(p, session_->events());
            statusBar()->showMessage(error.isEmpty() ? tr("Saved %1").arg(p) : error, 10000);
        }
    });
    exportButton_->setMenu(exportMenu);

    // Presets from the command line.
    if (!options_.kinds.isEmpty()) {
        int found = -1;
        for (int i = 0; i < kindCombo_->count(); ++i)
            if (kindCombo_->itemData(i).toStringList() == options_.kinds) found = i;
        if (found >= 0) kindCombo_->setCurrentIndex(found);
    }
    if (options_.sizes.size() == 1) {
        const int i = sizeCombo_->findText(sizeText(options_.sizes.front()));
        if (i >= 0) sizeCombo_->setCurrentIndex(i);
    }
    sweepCheck_->setChecked(options_.sweep);
}

void BenchWindow::buildTabs() {
    tabs_ = new QTabWidget;
    tabs_->setObjectName("benchTabs");
    auto* livePage = new QWidget;
    auto* grid = new QGridLayout(livePage);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(4);
    timeSeriesView_ = makeChartView("timeSeriesChart", tr("Latency per iteration"));
    histogramView_ = makeChartView("histogramChart", tr("Latency histogram"));
    cdfView_ = makeChartView("cdfChart", tr("Latency CDF"));
    bandwidthView_ = makeChartView("bandwidthChart", tr("Bandwidth over time"));
    sizeLatencyView_ = makeChartView("sizeLatencyChart", tr("Latency (p50) against message size"));
    sizeBandwidthView_ = makeChartView("sizeBandwidthChart", tr("Bandwidth against message size"));
    // The four live charts repaint up to 25 times a second while the measurement shares the CPU with
    // us: thin pens without antialiasing stroke in a fraction of the time (measured with perf).
    for (QChartView* v : {timeSeriesView_, histogramView_, cdfView_, bandwidthView_})
        v->setRenderHint(QPainter::Antialiasing, false);
    grid->addWidget(timeSeriesView_, 0, 0);
    grid->addWidget(histogramView_, 0, 1);
    grid->addWidget(cdfView_, 0, 2);
    grid->addWidget(bandwidthView_, 1, 0);
    grid->addWidget(sizeLatencyView_, 1, 1);
    grid->addWidget(sizeBandwidthView_, 1, 2);
    tabs_->addTab(livePage, tr("Live charts"));

    auto* cpuPage = new QWidget;
    auto* cpuLayout = new QVBoxLayout(cpuPage);
    cpuView_ = makeChartView("cpuChart", tr("CPU time per message (both endpoints, from getrusage)"));
    cpuLayout->addWidget(cpuView_, 1);
    auto* cpuText = new QLabel(tr(
        "<b>Reading the CPU bars.</b> TCP: every message is a <code>send()</code> and a <code>recv()</code> "
        "system call, and the CPU copies the payload twice (into the socket buffer and out of it), so its "
        "time is mostly kernel (sys) time. RDMA on a NIC: the application posts work requests and polls "
        "completions from user space; the steady-state data path makes no system call and no CPU copy, "
        "and busy polling shows up as user time. <b>SoftRoCE (rdma_rxe) is different</b>: posting a send "
        "is a system call and the kernel does the transport and copies, so it shows sys time a NIC would "
        "not spend."));
    cpuText->setWordWrap(true);
    cpuText->setTextFormat(Qt::RichText);
    cpuLayout->addWidget(cpuText);
    tabs_->addTab(cpuPage, tr("CPU per message"));

    comparison_ = new ComparisonPage;
    comparison_->setObjectName("comparisonPage");
    comparison_->setLanguage(options_.language);
    tabs_->addTab(comparison_, tr("TCP vs RDMA"));
    connect(tabs_, &QTabWidget::currentChanged, this, &BenchWindow::scheduleRedraw);
}

void BenchWindow::buildLiveSeries() {
    auto& L = *live_;
    auto axis = [](const QString& title) {
        auto* a = new QValueAxis;
        a->setTitleText(title);
        a->setLabelFormat("%.4g");
        return a;
    };
    // A series on its chart, with a value axis below and one at the left.
    auto place = [&](QChartView* view, QAbstractSeries* series, QValueAxis*& x, const QString& xTitle,
                     QValueAxis*& y, const QString& yTitle) {
        QChart* c = view->chart();
        c->addSeries(series);
        x = axis(xTitle);
        y = axis(yTitle);
        c->addAxis(x, Qt::AlignBottom);
        c->addAxis(y, Qt::AlignLeft);
        series->attachAxis(x);
        series->attachAxis(y);
        c->legend()->hide();
    };
    L.timeSeries = new QLineSeries;
    L.timeSeries->setName(tr("latency (µs)"));
    L.timeSeries->setPen(QPen(QColor(0x1f, 0x77, 0xb4), 1));
    place(timeSeriesView_, L.timeSeries, L.timeX, tr("iteration"), L.timeY, tr("µs"));

    L.histogramUpper = new QLineSeries;
    L.histogramArea = new QAreaSeries(L.histogramUpper);
    L.histogramUpper->setParent(L.histogramArea); // an area series does not own its line series
    L.histogramArea->setName(tr("iterations per bin"));
    L.histogramArea->setColor(QColor(0x1f, 0x77, 0xb4, 140));
    place(histogramView_, L.histogramArea, L.histogramX, tr("µs"), L.histogramY, tr("iterations"));

    L.cdf = new QLineSeries;
    L.cdf->setName(tr("CDF"));
    place(cdfView_, L.cdf, L.cdfX, tr("µs"), L.cdfY, tr("% of iterations at or below"));
    L.cdfY->setRange(0, 100);
    QChart* cdfChart = cdfView_->chart();
    const QColor marks[] = {QColor(0x2c, 0xa0, 0x2c), QColor(0xff, 0x7f, 0x0e), QColor(0xd6, 0x27, 0x28),
                            QColor(0x7f, 0x00, 0x7f)};
    for (const QColor& color : marks) {
        auto* s = new QScatterSeries;
        s->setMarkerSize(9);
        s->setColor(color);
        cdfChart->addSeries(s);
        s->attachAxis(L.cdfX);
        s->attachAxis(L.cdfY);
        L.percentileMarks.push_back(s);
    }
    cdfChart->legend()->show(); // it names the percentile marks
    cdfChart->legend()->markers(L.cdf).first()->setVisible(false);

    L.bandwidth = new QLineSeries;
    L.bandwidth->setName(tr("MB/s (10^6 B/s)"));
    place(bandwidthView_, L.bandwidth, L.bandwidthX, tr("seconds"), L.bandwidthY, tr("MB/s (10^6 B/s)"));
}

void BenchWindow::startMeasurement() {
    BenchSession::Request r;
    // --autoplay measures what the command line asked for; otherwise the toolbar's choice counts.
    const bool fromCommandLine = options_.autoplay && !options_.kinds.isEmpty();
    r.kinds = fromCommandLine ? options_.kinds : kindCombo_->currentData().toStringList();
    if (options_.autoplay && !options_.sizes.empty()) {
        r.sizes = options_.sizes;
    } else {
        for (const auto& v : sizeCombo_->currentData().toList())
            r.sizes.push_back(v.toLongLong());
    }
    r.sweep = sweepCheck_->isChecked();
    r.maxSize = options_.maxSize;
    r.iters = itersSpin_->value();
    r.seconds = options_.seconds;
    r.device = options_.device;
    r.cpus = options_.cpus;
    selectedRun_ = -1;
    runsTable_->clearSelection();
    resultsChanged_ = true;
    if (!session_->start(r)) {
        statusLabel_->setText(session_->lastError());
        if (options_.autoplay) finishHeadless(false);
        return;
    }
    statusLabel_->setText(tr("Starting …"));
    refreshTable();
    refreshControls();
    scheduleRedraw();
}

void BenchWindow::openRecording(const QString& path) {
    // Read on a thread of its own: a long sweep takes seconds to parse, and the window stays responsive.
    const bool started = reader_->read(path, [this](RecordingReader::Result& result) {
        openButton_->setEnabled(true);
        showRecording(result);
    });
    if (!started) {
        engineBanner_->showMessage(tr("Still opening the previous recording: wait until it is shown."));
        return;
    }
    openButton_->setEnabled(false);
}

void BenchWindow::showRecording(RecordingReader::Result& result) {
    const QString& path = result.path;
    if (!result.events) {
        engineBanner_->showMessage(tr("Could not open the recording: %1").arg(result.error.toString()));
        if (options_.autoplay) finishHeadless(false);
        return;
    }
    const auto& events = *result.events;
    const bool measured = std::any_of(events.begin(), events.end(),
                                      [](const TraceEvent& e) { return e.kind == EventKind::Measure; });
    if (!measured) {
        engineBanner_->showMessage(
            tr("%1 holds no measurement (no \"measure\" events): open it in the lesson "
               "window instead.")
                .arg(path));
        if (options_.autoplay) finishHeadless(false);
        return;
    }
    resultsChanged_ = true;
    session_->openReplay(events, path);
    refreshTable();
    refreshHeader();
    refreshControls();
    redraw();
}

void BenchWindow::scheduleRedraw() {
    // PlotJuggler's pattern: data lands in the session at any rate; the charts redraw once per tick.
    if (!redrawTimer_.isActive()) redrawTimer_.start();
}

const BenchRun* BenchWindow::shownRun() const {
    const auto& runs = session_->runs();
    int index = selectedRun_ >= 0 ? selectedRun_ : session_->currentRun();
    if (index < 0 || static_cast<std::size_t>(index) >= runs.size()) return nullptr;
    return &runs[static_cast<std::size_t>(index)];
}

void BenchWindow::redraw() {
    ++redrawCount_;
    const BenchRun* run = shownRun();
    refreshHeader();
    // The live charts draw only while visible: charts nobody sees should not take CPU from the
    // measurement. Result charts change only when a run finishes.
    if (tabs_->currentIndex() == 0) {
        // A bandwidth run is shown: the latency charts keep the latest latency run, and vice versa.
        const BenchRun* latencyRun = latencyRunToShow(session_->runs(), run);
        redrawTimeSeries(latencyRun);
        redrawDistribution(latencyRun);
        redrawBandwidth(run);
    }
    if (resultsChanged_) {
        redrawSizeCharts();
        redrawCpu();
        std::vector<BenchRun> finished;
        for (const auto& r : session_->runs())
            if (r.finished) finished.push_back(r);
        comparison_->setRuns(finished);
        resultsChanged_ = false;
    }
    statsLabel_->setText(runSummaryText(run, !session_->runs().empty()));
}

void BenchWindow::redrawTimeSeries(const BenchRun* run) {
    auto& L = *live_;
    QList<QPointF> points;
    double top = 1;
    qint64 first = 0;
    if (run && run->isLatency()) {
        const auto& s = run->samplesUs;
        first = std::max<qint64>(0, qint64(s.size()) - kTimeSeriesPoints);
        const LatencyUnit unit = latencyUnitFor(run->sortedUs.empty() ? 0 : run->sortedUs.back());
        points.reserve(qsizetype(s.size()) - first);
        for (auto i = first; i < qint64(s.size()); ++i) {
            points.append(QPointF(double(i), s[std::size_t(i)] / unit.perUs));
            top = std::max(top, s[std::size_t(i)] / unit.perUs);
        }
        L.timeY->setTitleText(unit.name);
        L.timeSeries->setPen(QPen(kindColor(run->kind), 1));
        timeSeriesView_->chart()->setTitle(tr("Latency per iteration — %1, %2 (last %3)")
                                               .arg(run->kind, sizeText(run->size))
                                               .arg(kTimeSeriesPoints));
    } else {
        timeSeriesView_->chart()->setTitle(tr("Latency per iteration (latency kinds)"));
    }
    L.timeSeries->replace(points);
    L.timeX->setRange(double(first), std::max(double(first) + 10, points.isEmpty() ? 10 : points.last().x()));
    L.timeX->applyNiceNumbers();
    L.timeY->setRange(0, top * 1.1);
    L.timeY->applyNiceNumbers();
}

void BenchWindow::redrawDistribution(const BenchRun* run) {
    auto& L = *live_;
    if (!run || !run->isLatency() || run->samplesUs.size() < 2) {
        L.histogramUpper->clear();
        L.cdf->clear();
        for (auto* m : L.percentileMarks) {
            m->clear();
            m->setName({});
        }
        cdfView_->chart()->legend()->hide();
        histogramView_->chart()->setTitle(tr("Latency histogram (latency kinds)"));
        cdfView_->chart()->setTitle(tr("Latency CDF (latency kinds)"));
        return;
    }
    const LatencyDistribution d = latencyDistributionOf(run->sortedUs);
    const Histogram& h = d.histogram;
    L.histogramX->setTitleText(d.unit.name);
    L.cdfX->setTitleText(d.unit.name);
    L.histogramUpper->replace(h.steps());
    L.histogramArea->setColor(kindColor(run->kind).lighter(130));
    L.histogramArea->setBorderColor(kindColor(run->kind));
    L.histogramX->setRange(h.lo, h.hi);
    L.histogramY->setRange(0, h.peak * 1.1);
    L.histogramY->applyNiceNumbers();
    histogramView_->chart()->setTitle(
        h.above ? tr("Latency histogram — %1 iterations above p99.9 (%2 %3) not drawn")
                      .arg(h.above)
                      .arg(figureText(h.hi), d.unit.name)
                : tr("Latency histogram — %1 iterations").arg(run->sortedUs.size()));

    L.cdf->replace(d.cdf);
    L.cdf->setPen(QPen(kindColor(run->kind), 2));
    L.cdfX->setRange(h.lo, d.max);
    for (std::size_t m = 0; m < L.percentileMarks.size() && m < d.marks.size(); ++m) {
        const PercentileMark& mark = d.marks[m];
        L.percentileMarks[m]->replace(QList<QPointF>{QPointF(mark.value, mark.fraction * 100)});
        L.percentileMarks[m]->setName(
            QStringLiteral("%1 %2 %3").arg(mark.label, figureText(mark.value), d.unit.name));
    }
    cdfView_->chart()->legend()->show();
    cdfView_->chart()->setTitle(tr("Latency CDF — %1, %2").arg(run->kind, sizeText(run->size)));
}

void BenchWindow::redrawBandwidth(const BenchRun* run) {
    auto& L = *live_;
    // A latency run is shown: draw the latest bandwidth run instead, if there is one.
    run = bandwidthRunToShow(session_->runs(), run);
    if (!run || run->bandwidth.empty()) {
        L.bandwidth->clear();
        bandwidthView_->chart()->setTitle(tr("Bandwidth over time (bandwidth kinds)"));
        return;
    }
    QList<QPointF> points;
    double top = 1;
    for (const auto& p : run->bandwidth) {
        points.append(QPointF(p.elapsedS, p.MBps));
        top = std::max(top, p.MBps);
    }
    L.bandwidth->replace(points);
    L.bandwidth->setColor(kindColor(run->kind));
    L.bandwidthX->setRange(0, std::max(0.01, run->bandwidth.back().elapsedS));
    L.bandwidthX->applyNiceNumbers();
    L.bandwidthY->setRange(0, top * 1.15);
    L.bandwidthY->applyNiceNumbers();
    bandwidthView_->chart()->setTitle(tr("Bandwidth over time — %1, %2").arg(run->kind, sizeText(run->size)));
}

void BenchWindow::redrawSizeCharts() {
    const auto& runs = session_->runs();
    auto draw = [&](QChartView* view, bool latency, const QString& title, const QString& yTitle) {
        QChart* c = view->chart();
        clearChart(c);
        std::map<QString, QLineSeries*> byKind;
        double yMin = 1e300, yMax = 0, xMin = 1e300, xMax = 0;
        for (const auto& r : runs) {
            if (!r.finished || r.isLatency() != latency) continue;
            const double y = headlineValue(r);
            if (y <= 0 || r.size <= 0) continue;
            auto*& s = byKind[r.kind];
            if (!s) {
                s = new QLineSeries;
                s->setName(r.kind);
                s->setColor(kindColor(r.kind));
                s->setPointsVisible(true);
            }
            s->append(std::log2(double(r.size)), y);
            yMin = std::min(yMin, y);
            yMax = std::max(yMax, y);
            xMin = std::min(xMin, double(r.size));
            xMax = std::max(xMax, double(r.size));
        }
        if (byKind.empty()) {
            c->setTitle(
                title +
                tr(" (no finished %1 measurement yet)").arg(latency ? tr("latency") : tr("bandwidth")));
            return;
        }
        c->setTitle(title);
        // x is log2(size) on a category axis, so the labels read "64 B", "1 KiB", "8 MiB".
        auto* x = new QCategoryAxis;
        x->setTitleText(tr("message size (log scale)"));
        x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        const SizeAxis axis = sizeAxisFor(xMin, xMax);
        for (int e : axis.labelled) // QCategoryAxis wants its categories in ascending order
            x->append(sizeText(qint64(1) << e), e);
        x->setRange(axis.first - 0.3, axis.last + 0.3);
        auto* y = new QLogValueAxis;
        y->setBase(10);
        y->setTitleText(yTitle);
        y->setLabelFormat("%g");
        y->setRange(yMin / 2, yMax * 2);
        c->addAxis(x, Qt::AlignBottom);
        c->addAxis(y, Qt::AlignLeft);
        for (auto& [kind, s] : byKind) {
            c->addSeries(s);
            s->attachAxis(x);
            s->attachAxis(y);
        }
        c->legend()->show();
    };
    draw(sizeLatencyView_, true, tr("Latency (p50) against message size"), tr("µs (log scale)"));
    draw(sizeBandwidthView_, false, tr("Bandwidth against message size"), tr("MB/s, 10^6 B/s (log scale)"));
}

void BenchWindow::redrawCpu() {
    QChart* c = cpuView_->chart();
    clearChart(c);
    auto* user = new QBarSet(tr("user µs per message"));
    auto* sys = new QBarSet(tr("sys (kernel) µs per message"));
    user->setColor(QColor(0x1f, 0x77, 0xb4));
    sys->setColor(QColor(0xd6, 0x27, 0x28));
    QStringList categories;
    double top = 0;
    for (const auto& r : session_->runs()) {
        if (!r.finished) continue;
        categories << QStringLiteral("%1 %2").arg(r.kind, sizeText(r.size));
        *user << r.cpu.userUsPerMsg;
        *sys << r.cpu.sysUsPerMsg;
        top = std::max(top, r.cpu.userUsPerMsg + r.cpu.sysUsPerMsg);
    }
    if (categories.isEmpty()) {
        delete user;
        delete sys;
        c->setTitle(tr("CPU time per message (no finished measurement yet)"));
        return;
    }
    c->setTitle(tr("CPU time per message (both endpoints, from getrusage) — %1").arg(session_->device()));
    auto* series = new QStackedBarSeries;
    series->append(user);
    series->append(sys);
    c->addSeries(series);
    auto* x = new QBarCategoryAxis;
    x->append(categories);
    auto* y = new QValueAxis;
    y->setTitleText(tr("µs per message"));
    y->setRange(0, top * 1.15 + 1e-6);
    y->setLabelFormat("%g");
    c->addAxis(x, Qt::AlignBottom);
    c->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    c->legend()->show();
}

void BenchWindow::refreshTable() {
    const auto& runs = session_->runs();
    const QSignalBlocker block(runsTable_);
    runsTable_->setRowCount(int(runs.size()));
    for (int row = 0; row < int(runs.size()); ++row) {
        const BenchRun& r = runs[std::size_t(row)];
        const QStringList cells = runTableRow(r);
        for (int col = 0; col < cells.size(); ++col) {
            auto* item = runsTable_->item(row, col);
            if (!item) {
                item = new QTableWidgetItem;
                runsTable_->setItem(row, col, item);
            }
            item->setText(cells[col]);
        }
    }
    runsTable_->resizeColumnsToContents();
    if (selectedRun_ >= 0 && selectedRun_ < int(runs.size())) runsTable_->selectRow(selectedRun_);
}

void BenchWindow::refreshHeader() {
    const QString text = measurementBannerText({.device = session_->device(),
                                                .softwareDevice = session_->softwareDevice(),
                                                .replay = session_->isReplay(),
                                                .source = session_->replaySource()},
                                               !session_->runs().empty());
    if (text != deviceLabel_->text()) deviceLabel_->setText(text);
}

void BenchWindow::refreshControls() {
    const bool running = session_->running();
    const bool engineUp = engine_->isRunning();
    runButton_->setEnabled(!running && engineUp);
    stopButton_->setEnabled(running);
    kindCombo_->setEnabled(!running);
    sizeCombo_->setEnabled(!running && !sweepCheck_->isChecked());
    sweepCheck_->setEnabled(!running);
    itersSpin_->setEnabled(!running);
}

void BenchWindow::onFinished(bool ok, const QString& error) {
    refreshTable();
    refreshControls();
    resultsChanged_ = true;
    redrawTimer_.stop();
    redraw();
    if (!session_->isReplay()) autosave();
    if (ok) {
        statusLabel_->setText(session_->isReplay()
                                  ? tr("Replay loaded: %1 measurements.").arg(session_->runs().size())
                                  : tr("Done: %1 measurements.").arg(session_->runs().size()));
    } else {
        statusLabel_->setText(tr("The measurement failed: %1").arg(error.section('\n', 0, 0)));
        engineBanner_->showMessage(tr("The measurement failed.\n%1").arg(error));
    }
    if (options_.autoplay && !headless_->finished()) {
        QTimer::singleShot(300, this, [this, ok] { finishHeadless(ok); });
    }
}

void BenchWindow::onEngineDied(const QString& message) {
    engineBanner_->showMessage(message);
    restartButton_->show();
    refreshControls();
    if (options_.autoplay && !headless_->finished() && !session_->running()) finishHeadless(false);
}

void BenchWindow::exportResults(const QString& path) {
    QByteArray bytes;
    if (path.endsWith(".csv", Qt::CaseInsensitive))
        bytes = runsToCsv(session_->runs()).toUtf8();
    else
        bytes = QByteArray::fromStdString(runsToJson(session_->runs()).dump(2) + "\n");
    const QString error = writeFileAtomically(path, bytes);
    statusBar()->showMessage(error.isEmpty() ? tr("Saved %1").arg(path) : error, 10000);
    if (!error.isEmpty()) std::fprintf(stderr, "rdmalab: %s\n", qPrintable(error));
}

void BenchWindow::exportCharts(const QString& path) {
    QWidget* page = tabs_->currentWidget();
    const QString error = path.endsWith(".svg", Qt::CaseInsensitive)
                              ? saveWidgetSvg(page, path, windowTitle())
                              : saveWidgetPng(page, path);
    statusBar()->showMessage(error.isEmpty() ? tr("Saved %1").arg(path) : error, 10000);
}

void BenchWindow::autosave() {
    if (session_->events().empty()) return;
    // What the user measured is never lost: every measurement session is kept as a trace of its own.
    SessionAutosave autosave(SessionAutosave::defaultDirectory(), QStringLiteral("bench-"));
    if (autosave.append(session_->events())) {
        autosaveWarning_->hide();
        return;
    }
    autosaveWarning_->setText(tr("Autosave failed: %1\nThe measurement is kept in memory only: save it with "
                                 "Export ▸ Measurement trace before you start another one.")
                                  .arg(autosave.error()));
    autosaveWarning_->show();
    std::fprintf(stderr, "rdmalab: autosave failed: %s\n", qPrintable(autosave.error()));
}

void BenchWindow::finishHeadless(bool ok) {
    const bool first = headless_->finish(ok, [this] {
        bool written = true;
        if (!options_.exportPath.isEmpty()) {
            exportResults(options_.exportPath);
            written = QFileInfo::exists(options_.exportPath);
        }
        if (!options_.screenshot.isEmpty() && !saveScreenshot(grab().toImage(), options_.screenshot))
            written = false;
        return written;
    });
    if (first && !ok)
        std::fprintf(stderr, "rdmalab: measurement failed: %s\n", qPrintable(session_->lastError()));
}

} // namespace rdmalab::app
