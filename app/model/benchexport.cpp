#include "benchexport.h"

#include <QStringList>

namespace rdmalab::app {

namespace {

// QString::number ignores the locale, so the decimal point is always '.'. 'g' with 12 significant
// digits keeps what the engine measured without printing binary noise.
QString number(double value) {
    return QString::number(value, 'g', 12);
}

QString csvField(const QString& text) {
    if (!text.contains(',') && !text.contains('"') && !text.contains('\n') && !text.contains('\r'))
        return text;
    QString quoted = text;
    quoted.replace('"', QStringLiteral("\"\""));
    return '"' + quoted + '"';
}

QString csvLine(const QStringList& fields) {
    QStringList escaped;
    escaped.reserve(fields.size());
    for (const QString& field : fields)
        escaped << csvField(field);
    return escaped.join(',') + QStringLiteral("\r\n");
}

} // namespace

QString runsCsvHeader() {
    return QStringLiteral(
        "kind,device,software_device,size_B,iters,lat_min_us,lat_p50_us,lat_mean_us,"
        "lat_p90_us,lat_p99_us,lat_p999_us,lat_max_us,lat_stdev_us,bw_MBps_1e6,bw_Gbps,"
        "msg_rate_Mpps,cpu_user_us_per_msg,cpu_sys_us_per_msg,ctx_switches_per_msg,syscalls_per_msg");
}

QString runsToCsv(const std::vector<BenchRun>& runs) {
    QString csv = runsCsvHeader() + QStringLiteral("\r\n");
    for (const BenchRun& run : runs) {
        if (!run.finished) continue;
        QStringList row{run.kind, run.device, run.softwareDevice ? "true" : "false",
                        QString::number(run.size), QString::number(run.iters)};
        // A run without samples has no figures: its cells stay empty (never 0).
        if (run.isLatency() && run.latency && !run.noSamples) {
            const LatencyFigures& l = *run.latency;
            for (double v : {l.min, l.p50, l.mean, l.p90, l.p99, l.p999, l.max, l.stdev})
                row << number(v);
        } else {
            for (int i = 0; i < 8; ++i)
                row << QString();
        }
        if (!run.isLatency() && !run.noSamples)
            row << number(run.bwMBps) << number(run.bwGbps) << number(run.msgRateMpps);
        else
            row << QString() << QString() << QString();
        if (!run.noSamples)
            row << number(run.cpu.userUsPerMsg) << number(run.cpu.sysUsPerMsg)
                << number(run.cpu.switchesPerMsg);
        else
            row << QString() << QString() << QString();
        row << (run.cpu.syscallsPerMsg ? number(*run.cpu.syscallsPerMsg) : QString());
        csv += csvLine(row);
    }
    return csv;
}

QString samplesToCsv(const BenchRun& run) {
    QString csv = QStringLiteral("iteration,latency_us\r\n");
    for (std::size_t i = 0; i < run.samplesUs.size(); ++i)
        csv += QString::number(i + 1) + ',' + number(run.samplesUs[i]) + QStringLiteral("\r\n");
    return csv;
}

nlohmann::json runsToJson(const std::vector<BenchRun>& runs) {
    nlohmann::json array = nlohmann::json::array();
    for (const BenchRun& run : runs) {
        if (!run.finished) continue;
        nlohmann::json o;
        o["kind"] = run.kind.toStdString();
        o["device"] = run.device.toStdString();
        o["software_device"] = run.softwareDevice;
        o["size"] = run.size;
        o["iters"] = run.iters;
        o["no_samples"] = run.noSamples;
        o["elapsed_s"] = run.elapsedS;
        o["units"] = {{"lat", "us"}, {"bw_MBps", "10^6 bytes/s"}, {"bw_Gbps", "10^9 bits/s"}};
        const nlohmann::json none = nullptr; // the engine's form for a run without samples
        if (run.isLatency() && run.noSamples) {
            o["lat_us"] = none;
            o["lat_basis"] = run.latencyBasis.toStdString();
        } else if (run.isLatency() && run.latency) {
            const LatencyFigures& l = *run.latency;
            o["lat_us"] = {{"min", l.min}, {"p50", l.p50},   {"mean", l.mean}, {"p90", l.p90},
                           {"p99", l.p99}, {"p999", l.p999}, {"max", l.max},   {"stdev", l.stdev}};
            o["lat_basis"] = run.latencyBasis.toStdString();
        }
        if (!run.isLatency()) {
            o["bw_MBps"] = run.noSamples ? none : nlohmann::json(run.bwMBps);
            o["bw_Gbps"] = run.noSamples ? none : nlohmann::json(run.bwGbps);
            o["msg_rate_Mpps"] = run.noSamples ? none : nlohmann::json(run.msgRateMpps);
        }
        o["cpu"] = {{"user_s", run.cpu.userS},
                    {"sys_s", run.cpu.sysS},
                    {"user_us_per_msg", run.noSamples ? none : nlohmann::json(run.cpu.userUsPerMsg)},
                    {"sys_us_per_msg", run.noSamples ? none : nlohmann::json(run.cpu.sysUsPerMsg)},
                    {"switches_per_msg", run.noSamples ? none : nlohmann::json(run.cpu.switchesPerMsg)},
                    {"syscalls_per_msg", run.cpu.syscallsPerMsg ? nlohmann::json(*run.cpu.syscallsPerMsg)
                                                                : nlohmann::json(nullptr)}};
        nlohmann::json notes = nlohmann::json::array();
        for (const QString& note : run.notes)
            notes.push_back(note.toStdString());
        o["notes"] = notes;
        if (!run.samplesUs.empty()) o["samples_us"] = run.samplesUs;
        if (const auto& w = run.wrTrace) // what tracing every work request cost, as the engine stated it
            o["wr_trace"] = {
                {"rounds", w->rounds},
                {"figure", w->figure.toStdString()},
                {"untraced", w->untraced},
                {"traced", w->traced},
                {"ratio", w->ratio},
                {"ns_per_wr", w->nsPerWr},
                {"records", w->records},
                {"overruns", w->overruns},
                {"clock", {{"source", w->clockSource.toStdString()}, {"ns_per_tick", w->nsPerTick}}},
                {"pipeline", {{"depth", run.pipelineDepth}, {"signal_every", run.signalEvery}}}};
        array.push_back(std::move(o));
    }
    return array;
}

} // namespace rdmalab::app
