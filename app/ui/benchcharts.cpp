// The measurement window's charts: the live page and the CPU page, drawn from a session's runs (see
// benchcharts.h).
#include "benchcharts.h"

#include "benchstats.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QGridLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>

namespace rdmalab::app {

namespace {

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

QChartView* makeChartView(const QString& objectName, const QString& title) {
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

BenchCharts::BenchCharts(QObject* parent) : QObject(parent), live_(std::make_unique<LiveCharts>()) {
    buildLivePage();
    buildCpuPage();
    buildLiveSeries();
}

BenchCharts::~BenchCharts() = default;

void BenchCharts::buildLivePage() {
    livePage_ = new QWidget;
    auto* grid = new QGridLayout(livePage_);
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
}

void BenchCharts::buildCpuPage() {
    cpuPage_ = new QWidget;
    auto* cpuLayout = new QVBoxLayout(cpuPage_);
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
}

void BenchCharts::buildLiveSeries() {
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

void BenchCharts::redrawLive(const std::vector<BenchRun>& runs, const BenchRun* shown) {
    // A bandwidth run is shown: the latency charts keep the latest latency run, and vice versa.
    const BenchRun* latencyRun = latencyRunToShow(runs, shown);
    redrawTimeSeries(latencyRun);
    redrawDistribution(latencyRun);
    redrawBandwidth(bandwidthRunToShow(runs, shown));
}

void BenchCharts::redrawResults(const std::vector<BenchRun>& runs, const QString& device) {
    redrawSizeCharts(runs);
    redrawCpu(runs, device);
}

void BenchCharts::redrawTimeSeries(const BenchRun* run) {
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

void BenchCharts::redrawDistribution(const BenchRun* run) {
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

void BenchCharts::redrawBandwidth(const BenchRun* run) {
    auto& L = *live_;
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

void BenchCharts::redrawSizeCharts(const std::vector<BenchRun>& runs) {
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

void BenchCharts::redrawCpu(const std::vector<BenchRun>& runs, const QString& device) {
    QChart* c = cpuView_->chart();
    clearChart(c);
    auto* user = new QBarSet(tr("user µs per message"));
    auto* sys = new QBarSet(tr("sys (kernel) µs per message"));
    user->setColor(QColor(0x1f, 0x77, 0xb4));
    sys->setColor(QColor(0xd6, 0x27, 0x28));
    QStringList categories;
    double top = 0;
    for (const auto& r : runs) {
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
    c->setTitle(tr("CPU time per message (both endpoints, from getrusage) — %1").arg(device));
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

} // namespace rdmalab::app
