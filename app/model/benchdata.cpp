#include "benchdata.h"

#include "rdmalab/format/fields.hpp"

#include <algorithm>

namespace rdmalab::app {

namespace {

/// wr_trace of a bench.result (absent: nullopt).
std::optional<WrTraceFigures> wrTraceOf(const Fields& result) {
    if (!result.has("wr_trace")) return std::nullopt;
    const Fields w = result.object("wr_trace");
    WrTraceFigures f;
    f.rounds = w.get<int>("rounds", 0);
    f.figure = QString::fromStdString(w.text("figure"));
    f.untraced = w.list<double>("untraced");
    f.traced = w.list<double>("traced");
    f.ratio = w.get<double>("ratio", 0.0);
    f.nsPerWr = w.get<double>("ns_per_wr", 0.0);
    f.records = w.get<qint64>("records", 0);
    f.overruns = w.get<qint64>("overruns", 0);
    const Fields clock = w.object("clock");
    f.clockSource = QString::fromStdString(clock.text("source"));
    f.nsPerTick = clock.get<double>("ns_per_tick", 0.0);
    return f;
}

} // namespace

QString BenchRun::applyResult(const nlohmann::json& result) {
    const Fields r(result, "data");
    const auto resultKind = r.find<std::string>("kind");
    const auto resultDevice = r.find<std::string>("device");
    const auto resultSize = r.find<qint64>("size");
    const auto resultIters = r.find<qint64>("iters");
    const std::pair<const char*, bool> required[] = {{"kind", resultKind.has_value()},
                                                     {"device", resultDevice.has_value()},
                                                     {"size", resultSize.has_value()},
                                                     {"iters", resultIters.has_value()}};
    for (const auto& [field, present] : required)
        if (!present) return QStringLiteral("bench.result: field '%1' missing").arg(field);
    if (!find_measurement_kind(*resultKind))
        return QStringLiteral("bench.result: field 'kind': unknown measurement kind '%1'")
            .arg(QString::fromStdString(*resultKind));
    kind = QString::fromStdString(*resultKind);
    device = QString::fromStdString(*resultDevice);
    softwareDevice = r.get<bool>("software_device", false);
    size = *resultSize;
    iters = *resultIters;
    elapsedS = r.get<double>("elapsed_s", elapsedS);
    noSamples = r.get<bool>("no_samples", false) || iters == 0;
    if (noSamples) {
        latency.reset(); // older recordings carry zeros here: they are not a result
        latencyBasis = QString::fromStdString(r.text("lat_basis"));
    } else if (r.has("lat_us")) {
        const Fields l = r.object("lat_us");
        LatencyFigures f;
        const std::pair<const char*, double*> fields[] = {
            {"min", &f.min}, {"p50", &f.p50},   {"mean", &f.mean}, {"p90", &f.p90},
            {"p99", &f.p99}, {"p999", &f.p999}, {"max", &f.max},   {"stdev", &f.stdev}};
        for (const auto& [name, target] : fields) {
            const auto value = l.find<double>(name);
            if (!value) return QStringLiteral("bench.result: field 'lat_us.%1' missing").arg(name);
            *target = *value;
        }
        latency = f;
        latencyBasis = QString::fromStdString(r.text("lat_basis"));
    }
    bwMBps = r.get<double>("bw_MBps", bwMBps);
    bwGbps = r.get<double>("bw_Gbps", bwGbps);
    msgRateMpps = r.get<double>("msg_rate_Mpps", msgRateMpps);
    const Fields c = r.object("cpu");
    cpu.userS = c.get<double>("user_s", cpu.userS);
    cpu.sysS = c.get<double>("sys_s", cpu.sysS);
    cpu.userUsPerMsg = c.get<double>("user_us_per_msg", cpu.userUsPerMsg);
    cpu.sysUsPerMsg = c.get<double>("sys_us_per_msg", cpu.sysUsPerMsg);
    cpu.switchesPerMsg = c.get<double>("switches_per_msg", cpu.switchesPerMsg);
    if (const auto syscalls = c.find<double>("syscalls_per_msg")) cpu.syscallsPerMsg = syscalls;
    wrTrace = wrTraceOf(r);
    if (wrTrace && pipelineDepth == 0) { // a recording without bench.pipeline events still states the depth
        const Fields p = r.object("wr_trace").object("pipeline");
        pipelineDepth = p.get<qint64>("depth", 0);
        signalEvery = p.get<qint64>("signal_every", 0);
    }
    notes.clear();
    for (const auto& note : r.texts("notes"))
        notes << QString::fromStdString(note);
    finished = true;
    return {};
}

void BenchRun::appendSamples(std::vector<double> batch) {
    samplesUs.insert(samplesUs.end(), batch.begin(), batch.end());
    for (double v : batch)
        sumUs += v;
    std::sort(batch.begin(), batch.end());
    const auto middle = static_cast<std::ptrdiff_t>(sortedUs.size());
    sortedUs.insert(sortedUs.end(), batch.begin(), batch.end());
    std::inplace_merge(sortedUs.begin(), sortedUs.begin() + middle, sortedUs.end());
}

void BenchRun::appendPipelineSlice(const nlohmann::json& data) {
    const Fields d(data, "data");
    PipelineSlice slice;
    slice.tS = d.get<double>("t_s", 0.0);
    const std::pair<const char*, std::uint64_t*> counts[] = {
        {"posts", &slice.bucket.posts},
        {"doorbells", &slice.bucket.doorbells},
        {"completed", &slice.bucket.completed},
        {"completions", &slice.bucket.completions},
        {"polls_hit", &slice.bucket.polls_hit},
        {"polls_empty", &slice.bucket.polls_empty},
        {"outstanding_max", &slice.bucket.outstanding_max},
        {"outstanding_end", &slice.bucket.outstanding_end}};
    for (const auto& [name, target] : counts)
        *target = d.get<std::uint64_t>(name, 0);
    pipelineDepth = d.get<qint64>("depth", pipelineDepth);
    signalEvery = d.get<qint64>("signal_every", signalEvery);
    pipeline.push_back(slice);
}

fast::PipelineBucket BenchRun::pipelineTotal() const {
    fast::PipelineBucket total;
    for (const auto& slice : pipeline)
        fast::merge(total, slice.bucket);
    return total;
}

double headlineValue(const BenchRun& run) {
    if (run.noSamples) return 0.0;
    if (run.isLatency()) return run.latency ? run.latency->p50 : 0.0;
    return run.bwMBps;
}

QString noSamplesText() {
    return QStringLiteral("no samples");
}

} // namespace rdmalab::app
