// Measurements as the app holds them: one BenchRun per (kind, size), filled from the engine's
// "measure" events (bench.begin, bench.samples, bench.progress, bench.result; docs/trace-format.md).
#pragma once

#include "rdmalab/format/measurement.hpp"
#include "rdmalab/format/pipeline.hpp"

#include <nlohmann/json.hpp>

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace rdmalab::app {

/// Latency statistics in microseconds (percentiles by nearest rank), as the engine computed them.
struct LatencyFigures {
    double min = 0, p50 = 0, mean = 0, p90 = 0, p99 = 0, p999 = 0, max = 0, stdev = 0;
};

/// CPU the measured loop cost, from getrusage in the engine (both endpoints: one process).
struct CpuFigures {
    double userS = 0, sysS = 0;
    double userUsPerMsg = 0, sysUsPerMsg = 0, switchesPerMsg = 0;
    std::optional<double> syscallsPerMsg; ///< both endpoints; empty when the engine could not count them
};

/// One point of bandwidth over time: measured time since the start and MB/s (10^6 B/s) over the
/// interval since the previous point.
struct BandwidthPoint {
    double elapsedS = 0;
    double MBps = 0;
};

/// One slice of a traced run's pipeline (a bench.pipeline event): what the measured loop did since the
/// previous slice.
struct PipelineSlice {
    double tS = 0; ///< end of the slice: seconds since the run's first traced record
    fast::PipelineBucket bucket;
};

/// What tracing every work request cost (bench.result's `wr_trace`; docs/bench-format.md).
struct WrTraceFigures {
    int rounds = 0;               ///< untraced and traced runs each, alternated
    QString figure;               ///< the figure compared: "bw_MBps" or "p50_us"
    std::vector<double> untraced; ///< each untraced run's figure, in order
    std::vector<double> traced;   ///< each traced run's figure, in order
    double ratio = 0;             ///< traced over untraced throughput (latency: untraced p50 over traced)
    double nsPerWr = 0;           ///< time tracing added per work request, from the medians
    qint64 records = 0;           ///< binary-tier records of the last traced run
    qint64 overruns = 0;          ///< records a full ring dropped (0: every one kept)
    QString clockSource;          ///< "tsc" or "clock_monotonic"
    double nsPerTick = 0;
};

struct BenchRun {
    int index = -1;          ///< position in the engine's plan
    QString kind;            ///< send_lat, write_lat, read_lat, atomic_lat, tcp_lat, write_bw, ...
    qint64 size = 0;         ///< message bytes
    qint64 plannedIters = 0; ///< what bench.begin announced
    bool finished = false;   ///< bench.result arrived
    // Filled by bench.result:
    QString device; ///< "rxe0", or "loopback TCP (lo, kernel stack)"
    bool softwareDevice = false;
    qint64 iters = 0;
    /// Not one iteration was measured (stopped before the first): no statistics, shown as "no samples".
    /// From the result's `no_samples`, or `iters` 0 in a recording made before that field existed.
    bool noSamples = false;
    double elapsedS = 0;
    std::optional<LatencyFigures> latency;          ///< latency kinds
    QString latencyBasis;                           ///< "half round trip (...)" / "full round trip (...)"
    double bwMBps = 0, bwGbps = 0, msgRateMpps = 0; ///< bandwidth kinds
    CpuFigures cpu;
    QStringList notes;
    // Live:
    std::vector<double> samplesUs; ///< every measured iteration, in order (latency kinds)
    std::vector<double> sortedUs;  ///< the same samples, sorted (kept by merging each batch)
    double sumUs = 0;
    std::vector<BandwidthPoint> bandwidth; ///< bandwidth kinds
    double lastProgressS = 0;
    double lastProgressBytes = 0;
    // Every work request traced (bench.start's trace_wr):
    std::vector<PipelineSlice> pipeline;   ///< the traced run's slices, from bench.pipeline, in order
    qint64 pipelineDepth = 0;              ///< send-queue depth the loop kept (the window; 1 for latency)
    qint64 signalEvery = 0;                ///< one work request in this many is signaled
    std::optional<WrTraceFigures> wrTrace; ///< from the result's wr_trace

    /// The kind's entry in the shared vocabulary (rdmalab/format/measurement.hpp); nullptr for a name it
    /// lacks.
    const MeasurementKind* measurementKind() const { return find_measurement_kind(kind.toStdString()); }
    bool isLatency() const {
        const auto* k = measurementKind();
        return k && k->latency;
    }
    bool isTcp() const {
        const auto* k = measurementKind();
        return k && k->tcp;
    }
    /// Fills the result fields from a bench.result object (an event's `data`); returns an error text
    /// naming a missing field, and throws FieldError (rdmalab/format/fields.hpp) for a field of the wrong
    /// type.
    QString applyResult(const nlohmann::json& result);
    /// Appends a batch of samples. Keeps sortedUs by sorting the batch and merging it (linear), so the
    /// live histogram and CDF never re-sort everything measured so far.
    void appendSamples(std::vector<double> batch);
    /// Appends a bench.pipeline event's slice (its `data`); throws FieldError for a field of the wrong type.
    void appendPipelineSlice(const nlohmann::json& data);
    /// The pipeline's slices summed (outstanding_max the largest, outstanding_end the last).
    fast::PipelineBucket pipelineTotal() const;
};

/// The figure a comparison shows for a run: p50 latency (µs) for latency kinds, MB/s for bandwidth; 0 for
/// a run without samples.
double headlineValue(const BenchRun& run);

/// What the views show instead of figures for a run without samples.
QString noSamplesText();

} // namespace rdmalab::app
