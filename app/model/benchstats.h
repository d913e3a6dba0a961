// The figures the measurement window draws from a run's samples, without widgets: nearest-rank
// percentiles, the latency unit, the histogram (min .. p99.9), the CDF and its percentile marks, which
// run the live charts show, and the message-size axis. BenchWindow only turns these into chart series.
#pragma once

#include "benchdata.h"

#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <vector>

namespace rdmalab::app {

/// Nearest-rank percentile (p in 0..1) of sorted samples: the engine's method, so live and final figures
/// agree. 0 for no samples.
double percentile(const std::vector<double>& sorted, double p);

/// The unit latency charts use: µs, or ms once values reach 10 ms (large messages under emulation).
struct LatencyUnit {
    double perUs = 1; ///< divide µs by this
    QString name = QStringLiteral("µs");
};
LatencyUnit latencyUnitFor(double maxUs);

/// A figure for tables and labels: 4 significant digits, plain digits up to a million ("220800", never
/// "2.208e+05").
QString figureText(double v, int significant = 4);
/// A latency with its unit: "12.34 µs", or "12.35 ms" from 10 ms on.
QString latencyText(double us);
/// A message size: "64 KiB", "8 MiB", or bytes when it is not a whole number of either.
QString sizeText(qint64 bytes);

/// The latency histogram: equal bins from the fastest sample to p99.9, so one outlier does not squeeze
/// the shape into a single bar; samples above p99.9 are counted, not binned.
struct Histogram {
    static constexpr int kBins = 40;
    double lo = 0, hi = 0, width = 0;
    std::vector<int> counts;
    std::size_t above = 0; ///< samples above hi, not drawn
    int peak = 1;          ///< the largest bin (at least 1, for the axis)
    /// The outline as steps: two points per bin (its left and right edge at its count).
    QList<QPointF> steps() const;
};
Histogram histogramOf(const std::vector<double>& sorted, int bins = Histogram::kBins);

/// The cumulative distribution at up to maxPoints evenly spaced ranks: (value, % of samples at or below).
QList<QPointF> cdfOf(const std::vector<double>& sorted, std::size_t maxPoints = 400);

/// A percentile marked on the CDF.
struct PercentileMark {
    double fraction; ///< 0.5, 0.9, 0.99, 0.999
    QString label;   ///< "p50", "p90", "p99", "p99.9"
    double value;
};
/// The four marks the CDF shows, in this order: p50, p90, p99, p99.9.
std::vector<PercentileMark> percentileMarksOf(const std::vector<double>& sorted);

/// A latency run's distribution as the charts draw it, in the chart's unit.
struct LatencyDistribution {
    LatencyUnit unit;
    Histogram histogram;
    QList<QPointF> cdf;
    std::vector<PercentileMark> marks;
    double max = 0;
};
/// Needs at least one sample (the window draws from two on).
LatencyDistribution latencyDistributionOf(const std::vector<double>& sortedUs);

/// The run the latency charts show: the shown run if it is a latency run, else the latest latency run
/// with samples (a bandwidth run is shown, the latency charts keep the last latency run); may be null.
const BenchRun* latencyRunToShow(const std::vector<BenchRun>& runs, const BenchRun* shown);
/// The run the bandwidth chart shows: the shown run unless it is a latency run, else the latest
/// bandwidth run with points; may be null.
const BenchRun* bandwidthRunToShow(const std::vector<BenchRun>& runs, const BenchRun* shown);
/// The run the pipeline view shows: the shown run if it was traced (has slices), else the latest traced
/// run; may be null.
const BenchRun* pipelineRunToShow(const std::vector<BenchRun>& runs, const BenchRun* shown);

/// The message-size axis of the size charts: log2 of the sizes, labelled from the largest size down
/// with a stride that keeps the labels readable (1, 2 or 4 powers of two).
struct SizeAxis {
    int first = 0, last = 0;   ///< exponents: floor(log2(smallest)), ceil(log2(largest))
    std::vector<int> labelled; ///< exponents with a label, ascending
};
SizeAxis sizeAxisFor(double smallest, double largest);

/// The line above the charts about the shown run (rich text): its latency statistics (min, p50, mean,
/// p90, p99, p99.9, max, from the samples so far), its bandwidth figures once finished, "no samples" for a
/// run stopped before its first iteration; with no run shown, what to do first (`anyRuns` false) or
/// nothing.
QString runSummaryText(const BenchRun* run, bool anyRuns);

/// A run as the runs table shows it, one text per column: kind, size, iterations, p50 µs, p99 µs, MB/s,
/// Gb/s, Mmsg/s, user µs/msg, sys µs/msg, switches/msg, syscalls/msg, device. Figures appear once the
/// run finished; a run without samples says so instead of showing 0.
QStringList runTableRow(const BenchRun& run);

} // namespace rdmalab::app
