#include "benchwindow.h"

#include "benchcharts.h"
#include "benchexport.h"
#include "benchstats.h"
#include "chartexport.h"
#include "comparisonpage.h"
#include "enginebanner.h"
#include "headlessrun.h"
#include "pipelinechart.h"
#include "tracefile.h"
#include "windowparts.h"

#include "rdmalab/format/measurement.hpp"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cstdio>

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

} // namespace

QStringList BenchWindow::comparisonKinds() {
    return {"tcp_lat", "send_lat", "write_lat", "read_lat", "tcp_bw", "write_bw"};
}

BenchWindow::BenchWindow(const BenchStartOptions& options, QWidget* parent)
    : QMainWindow(parent), options_(options), engine_(new EngineClient(this)),
      session_(new BenchSession(engine_, this)), headless_(new HeadlessRun(1, this)) {
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
    if (options_.tab == "pipeline") tabs_->setCurrentWidget(pipeline_);
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
}

void BenchWindow::buildToolBar() {
    auto* bar = addFixedToolBar(this, tr("Measure"), "benchToolBar");
    kindCombo_ = new ElidingComboBox;
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
    traceWrCheck_ = new QCheckBox(tr("Trace every work request"));
    traceWrCheck_->setObjectName("traceWrCheck");
    traceWrCheck_->setToolTip(tr("Measure each RDMA run once untraced and once with every post, poll and "
                                 "completion traced: the Pipeline page draws it, with what tracing cost."));
    traceWrCheck_->setChecked(options_.traceWr);
    bar->addWidget(runButton_);
    bar->addWidget(stopButton_);
    bar->addWidget(traceWrCheck_); // after Run and Stop, so that they stay on a 1024 px wide window
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
    charts_ = new BenchCharts(this);
    tabs_->addTab(charts_->livePage(), tr("Live charts"));
    tabs_->addTab(charts_->cpuPage(), tr("CPU per message"));

    comparison_ = new ComparisonPage;
    comparison_->setObjectName("comparisonPage");
    comparison_->setLanguage(options_.language);
    tabs_->addTab(comparison_, tr("TCP vs RDMA"));
    pipeline_ = new PipelineChart;
    tabs_->addTab(pipeline_, tr("Pipeline"));
    connect(tabs_, &QTabWidget::currentChanged, this, &BenchWindow::scheduleRedraw);
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
    r.traceWr = traceWrCheck_->isChecked();
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
    if (tabs_->currentIndex() == 0) charts_->redrawLive(session_->runs(), run);
    if (tabs_->currentWidget() == pipeline_)
        pipeline_->redraw(pipelineRunToShow(session_->runs(), run), session_->device(),
                          session_->softwareDevice());
    if (resultsChanged_) {
        charts_->redrawResults(session_->runs(), session_->device());
        std::vector<BenchRun> finished;
        for (const auto& r : session_->runs())
            if (r.finished) finished.push_back(r);
        comparison_->setRuns(finished);
        resultsChanged_ = false;
    }
    statsLabel_->setText(runSummaryText(run, !session_->runs().empty()));
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
    traceWrCheck_->setEnabled(!running);
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
