#include "benchstats.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace rdmalab::app {

namespace {} // namespace

double percentile(const std::vector<double>& sorted, double p) {
    if (sorted.empty()) return 0;
    const auto rank = static_cast<std::size_t>(std::ceil(p * double(sorted.size())));
    return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
}

LatencyUnit latencyUnitFor(double maxUs) {
    if (maxUs >= 10'000) return {1000, QStringLiteral("ms")};
    return {};
}

QString figureText(double v, int significant) {
    if (std::abs(v) >= 1 && std::abs(v) < 1e6)
        return QString::number(v, 'f', std::max(0, significant - 1 - int(std::log10(std::abs(v)))));
    return QString::number(v, 'g', significant);
}

QString latencyText(double us) {
    const LatencyUnit u = latencyUnitFor(us);
    return QStringLiteral("%1 %2").arg(figureText(us / u.perUs), u.name);
}

QString sizeText(qint64 bytes) {
    if (bytes >= (1LL << 20) && bytes % (1LL << 20) == 0) return QStringLiteral("%1 MiB").arg(bytes >> 20);
    if (bytes >= 1024 && bytes % 1024 == 0) return QStringLiteral("%1 KiB").arg(bytes >> 10);
    return QStringLiteral("%1 B").arg(bytes);
}

QList<QPointF> Histogram::steps() const {
    QList<QPointF> points;
    points.reserve(qsizetype(counts.size()) * 2);
    for (std::size_t b = 0; b < counts.size(); ++b) {
        const double x0 = lo + double(b) * width;
        points.append(QPointF(x0, counts[b]));
        points.append(QPointF(x0 + width, counts[b]));
    }
    return points;
}

Histogram histogramOf(const std::vector<double>& sorted, int bins) {
    Histogram h;
    h.counts.assign(std::size_t(bins), 0);
    if (sorted.empty()) return h;
    h.lo = sorted.front();
    h.hi = std::max(percentile(sorted, 0.999), h.lo + 1e-3);
    h.width = (h.hi - h.lo) / bins;
    for (double v : sorted) {
        if (v > h.hi) {
            ++h.above;
            continue;
        }
        h.counts[std::size_t(std::min(bins - 1, int((v - h.lo) / h.width)))]++;
    }
    for (int c : h.counts)
        h.peak = std::max(h.peak, c);
    return h;
}

QList<QPointF> cdfOf(const std::vector<double>& sorted, std::size_t maxPoints) {
    QList<QPointF> cdf;
    const std::size_t n = sorted.size();
    const std::size_t points = std::min(n, maxPoints);
    cdf.reserve(qsizetype(points));
    for (std::size_t k = 0; k < points; ++k) {
        const std::size_t i = points == 1 ? 0 : k * (n - 1) / (points - 1);
        cdf.append(QPointF(sorted[i], 100.0 * double(i + 1) / double(n)));
    }
    return cdf;
}

std::vector<PercentileMark> percentileMarksOf(const std::vector<double>& sorted) {
    std::vector<PercentileMark> marks = {{0.5, QStringLiteral("p50"), 0},
                                         {0.9, QStringLiteral("p90"), 0},
                                         {0.99, QStringLiteral("p99"), 0},
                                         {0.999, QStringLiteral("p99.9"), 0}};
    for (auto& m : marks)
        m.value = percentile(sorted, m.fraction);
    return marks;
}

LatencyDistribution latencyDistributionOf(const std::vector<double>& sortedUs) {
    LatencyDistribution d;
    if (sortedUs.empty()) return d;
    d.unit = latencyUnitFor(sortedUs.back());
    std::vector<double> scaled; // in the chart's unit
    if (d.unit.perUs != 1) {
        scaled.reserve(sortedUs.size());
        for (double v : sortedUs)
            scaled.push_back(v / d.unit.perUs);
    }
    const std::vector<double>& sorted = d.unit.perUs != 1 ? scaled : sortedUs;
    d.histogram = histogramOf(sorted);
    d.cdf = cdfOf(sorted);
    d.marks = percentileMarksOf(sorted);
    d.max = sorted.back();
    return d;
}

const BenchRun* latencyRunToShow(const std::vector<BenchRun>& runs, const BenchRun* shown) {
    if (shown && shown->isLatency()) return shown;
    const BenchRun* latest = nullptr;
    for (const auto& r : runs)
        if (r.isLatency() && !r.samplesUs.empty()) latest = &r;
    return latest;
}

const BenchRun* bandwidthRunToShow(const std::vector<BenchRun>& runs, const BenchRun* shown) {
    if (shown && !shown->isLatency()) return shown;
    const BenchRun* latest = nullptr;
    for (const auto& r : runs)
        if (!r.isLatency() && !r.bandwidth.empty()) latest = &r;
    return latest;
}

const BenchRun* pipelineRunToShow(const std::vector<BenchRun>& runs, const BenchRun* shown) {
    if (shown && !shown->pipeline.empty()) return shown;
    const BenchRun* latest = nullptr;
    for (const auto& r : runs)
        if (!r.pipeline.empty()) latest = &r;
    return latest;
}

SizeAxis sizeAxisFor(double smallest, double largest) {
    SizeAxis axis;
    axis.first = int(std::floor(std::log2(smallest)));
    axis.last = int(std::ceil(std::log2(largest)));
    const int span = axis.last - axis.first;
    const int stride = span <= 8 ? 1 : span <= 14 ? 2 : 4;
    for (int e = axis.last; e >= axis.first; e -= stride) // from the top, so the largest size is labelled
        axis.labelled.insert(axis.labelled.begin(), e);
    return axis;
}

QString runSummaryText(const BenchRun* run, bool anyRuns) {
    if (run && run->finished && run->noSamples)
        return QCoreApplication::translate(
                   "rdmalab::app::BenchWindow",
                   "<b>%1, %2</b> · %3: stopped before the first measured iteration, so there are no "
                   "statistics")
            .arg(run->kind, sizeText(run->size), noSamplesText());
    if (run && run->isLatency() && !run->sortedUs.empty()) {
        const std::vector<double>& sorted = run->sortedUs;
        const double mean = run->sumUs / double(sorted.size());
        return QCoreApplication::translate("rdmalab::app::BenchWindow",
                                           "<b>%1, %2</b> · %3 of %4 iterations · %5 · min %6 · p50 %7 · "
                                           "mean %8 · p90 %9 · p99 %10 · "
                                           "p99.9 %11 · max %12")
            .arg(run->kind.toHtmlEscaped(), sizeText(run->size))
            .arg(run->samplesUs.size())
            .arg(run->plannedIters)
            .arg(run->latencyBasis.isEmpty()
                     ? QCoreApplication::translate("rdmalab::app::BenchWindow", "measuring")
                     : run->latencyBasis.toHtmlEscaped())
            .arg(latencyText(sorted.front()), latencyText(percentile(sorted, 0.5)), latencyText(mean),
                 latencyText(percentile(sorted, 0.9)), latencyText(percentile(sorted, 0.99)),
                 latencyText(percentile(sorted, 0.999)), latencyText(sorted.back()));
    }
    if (run && !run->isLatency())
        return run->finished
                   ? QCoreApplication::translate(
                         "rdmalab::app::BenchWindow",
                         "<b>%1, %2</b> · %3 messages in %4 s · %5 MB/s · %6 Gb/s · %7 million messages/s")
                         .arg(run->kind.toHtmlEscaped(), sizeText(run->size))
                         .arg(run->iters)
                         .arg(figureText(run->elapsedS))
                         .arg(figureText(run->bwMBps), figureText(run->bwGbps), figureText(run->msgRateMpps))
                   : QCoreApplication::translate("rdmalab::app::BenchWindow", "<b>%1, %2</b> · measuring …")
                         .arg(run->kind.toHtmlEscaped(), sizeText(run->size));
    return anyRuns ? QString()
                   : QCoreApplication::translate(
                         "rdmalab::app::BenchWindow",
                         "Choose what to measure and press Run. Every number is measured on the device named "
                         "above, now.");
}

QStringList runTableRow(const BenchRun& r) {
    const bool lat = r.isLatency();
    const bool none = r.finished && r.noSamples; // the figure columns say so instead of showing 0
    return {
        r.kind,
        sizeText(r.size),
        r.finished
            ? QString::number(r.iters)
            : QCoreApplication::translate("rdmalab::app::BenchWindow", "%1 planned").arg(r.plannedIters),
        none && lat                      ? noSamplesText()
        : r.finished && lat && r.latency ? figureText(r.latency->p50)
                                         : QString(),
        r.finished && lat && r.latency ? figureText(r.latency->p99) : QString(),
        none && !lat         ? noSamplesText()
        : r.finished && !lat ? figureText(r.bwMBps)
                             : QString(),
        r.finished && !lat && !none ? figureText(r.bwGbps) : QString(),
        r.finished && !lat && !none ? figureText(r.msgRateMpps) : QString(),
        r.finished && !none ? figureText(r.cpu.userUsPerMsg, 3) : QString(),
        r.finished && !none ? figureText(r.cpu.sysUsPerMsg, 3) : QString(),
        r.finished && !none ? figureText(r.cpu.switchesPerMsg, 3) : QString(),
        r.finished && r.cpu.syscallsPerMsg ? figureText(*r.cpu.syscallsPerMsg, 3) : QString(),
        r.finished ? r.device + (r.softwareDevice ? QCoreApplication::translate("rdmalab::app::BenchWindow",
                                                                                " (software RDMA)")
                                                  : QString())
                   : QString(),
    };
}

} // namespace rdmalab::app
