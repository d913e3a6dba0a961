#include "benchdata.h"

#include <algorithm>

namespace rdmalab::app {

namespace {

bool number(const nlohmann::json& o, const char* field, double& out) {
    if (!o.contains(field)) return false;
    if (!o[field].is_number()) return false;
    out = o[field].get<double>();
    return true;
}

} // namespace

QString BenchRun::applyResult(const nlohmann::json& r) {
    if (!r.is_object()) return QStringLiteral("bench.result: data is not an object");
    for (const char* field : {"kind", "device"})
        if (!r.contains(field) || !r[field].is_string())
            return QStringLiteral("bench.result: field '%1' missing or not a string").arg(field);
    for (const char* field : {"size", "iters"})
        if (!r.contains(field) || !r[field].is_number_integer())
            return QStringLiteral("bench.result: field '%1' missing or not an integer").arg(field);
    kind = QString::fromStdString(r["kind"].get<std::string>());
    device = QString::fromStdString(r["device"].get<std::string>());
    softwareDevice = r.value("software_device", false);
    size = r["size"].get<qint64>();
    iters = r["iters"].get<qint64>();
    number(r, "elapsed_s", elapsedS);
    if (r.contains("lat_us")) {
        const auto& l = r["lat_us"];
        LatencyFigures f;
        const std::pair<const char*, double*> fields[] = {
            {"min", &f.min}, {"p50", &f.p50},   {"mean", &f.mean}, {"p90", &f.p90},
            {"p99", &f.p99}, {"p999", &f.p999}, {"max", &f.max},   {"stdev", &f.stdev}};
        for (const auto& [name, target] : fields)
            if (!number(l, name, *target))
                return QStringLiteral("bench.result: field 'lat_us.%1' missing or not a number").arg(name);
        latency = f;
        latencyBasis = QString::fromStdString(r.value("lat_basis", ""));
    }
    number(r, "bw_MBps", bwMBps);
    number(r, "bw_Gbps", bwGbps);
    number(r, "msg_rate_Mpps", msgRateMpps);
    if (r.contains("cpu") && r["cpu"].is_object()) {
        const auto& c = r["cpu"];
        number(c, "user_s", cpu.userS);
        number(c, "sys_s", cpu.sysS);
        number(c, "user_us_per_msg", cpu.userUsPerMsg);
        number(c, "sys_us_per_msg", cpu.sysUsPerMsg);
        number(c, "switches_per_msg", cpu.switchesPerMsg);
        double syscalls = 0;
        if (number(c, "syscalls_per_msg", syscalls)) cpu.syscallsPerMsg = syscalls;
    }
    notes.clear();
    if (r.contains("notes") && r["notes"].is_array())
        for (const auto& n : r["notes"])
            if (n.is_string()) notes << QString::fromStdString(n.get<std::string>());
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

double headlineValue(const BenchRun& run) {
    if (run.isLatency()) return run.latency ? run.latency->p50 : 0.0;
    return run.bwMBps;
}

} // namespace rdmalab::app
