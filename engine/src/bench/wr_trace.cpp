// `bench --trace-wr` (bench.hpp's run_traced_comparison): the same measurement untraced and with every
// work request in the binary tier, alternated so drift in the machine falls on both, and what it cost.
#include "bench/loops.hpp"

#include "rdmalab/engine/bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rdmalab {

namespace {

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

/// The run's figure the comparison is made on: bandwidth, or the median latency.
double figure_of(const BenchResult& r) {
    if (r.latency) return r.has_samples() ? r.latency->p50 : 0;
    return r.bw_MBps;
}

} // namespace

BenchResult run_traced_comparison(const BenchOptions& options, int rounds,
                                  const std::function<BenchResult(const BenchOptions&)>& measure,
                                  const std::function<void(fast::PipelineFolder&)>& after_batch) {
    const MeasurementKind& kind = kMeasurementKinds[static_cast<std::size_t>(options.kind)];
    if (kind.tcp) throw std::invalid_argument("--trace-wr traces work requests: RDMA kinds only");
    WrTraceReport report;
    report.rounds = std::max(1, rounds);
    const bool latency = kind.latency;
    report.figure = latency ? "p50_us" : "bw_MBps";
    std::vector<BenchResult> traced_runs;
    for (int round = 0; round < report.rounds; ++round) {
        report.untraced.push_back(figure_of(measure(options)));
        // A fresh tracer a run, so each pipeline is that run's alone; the drainer wakes every 2 ms (a
        // 64 Ki-record ring holds that long at any rate this machine posts at; overruns are counted).
        fast::BinaryTracer tracer(1 << 16);
        fast::PipelineFolder folder(tracer.calibration());
        const long depth = latency ? 1 : std::max(1, options.window);
        folder.set_depth(static_cast<std::uint64_t>(depth),
                         latency ? 1
                                 : static_cast<std::uint64_t>(
                                       bench_detail::signal_interval(options.window, options.size)));
        tracer.start(
            [&](std::span<const fast::Record> batch) {
                folder.add(batch);
                if (after_batch) after_batch(folder);
            },
            2000);
        BenchOptions traced = options;
        traced.wr_tracer = &tracer;
        BenchResult run = measure(traced);
        tracer.stop();
        report.traced.push_back(figure_of(run));
        report.records += folder.summary().records;
        report.overruns += tracer.overruns();
        report.calibration = tracer.calibration();
        report.pipeline = folder.summary();
        traced_runs.push_back(std::move(run));
    }
    report.untraced_median = median(report.untraced);
    report.traced_median = median(report.traced);
    const double untraced = report.untraced_median, traced = report.traced_median;
    // Throughput ratio: bandwidth traced over untraced; for latency, the inverse of the times.
    report.ratio = latency ? (traced > 0 ? untraced / traced : 0) : (untraced > 0 ? traced / untraced : 0);
    // Time per work request: latency in µs per operation; bandwidth from MB/s at this size.
    const double bytes = static_cast<double>(std::max<std::size_t>(options.size, 1));
    const auto us_per_wr = [&](double f) { return latency ? f : (f > 0 ? bytes / f : 0); };
    report.ns_per_wr = (us_per_wr(traced) - us_per_wr(untraced)) * 1000.0;
    // The result shown is the traced run whose figure is the median.
    auto chosen = std::min_element(traced_runs.begin(), traced_runs.end(), [&](const auto& x, const auto& y) {
        return std::abs(figure_of(x) - traced) < std::abs(figure_of(y) - traced);
    });
    BenchResult result = *chosen;
    result.notes.push_back(fmt::format(
        "--trace-wr: {} untraced and {} traced runs alternated; every post, poll and completion of A's loop "
        "in the binary tier ({} records, {} dropped); traced/untraced {} = {:.3f}",
        report.rounds, report.rounds, report.records, report.overruns, report.figure, report.ratio));
    result.wr_trace = std::move(report);
    return result;
}

} // namespace rdmalab
