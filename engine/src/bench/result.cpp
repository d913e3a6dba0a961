// The public, verbs-free half of bench.hpp: the live feed, statistics, JSON and the table (the kind names
// are the shared vocabulary: rdmalab/format/measurement.hpp in engine/format).
#include "rdmalab/engine/bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <numeric>

namespace rdmalab {

BenchFeed::Snapshot BenchFeed::take() {
    Snapshot s;
    std::lock_guard lock(mutex_);
    s.new_samples_us.swap(shared_);
    s.messages = shared_messages_;
    s.elapsed_s = shared_elapsed_s_;
    return s;
}

void BenchFeed::add_sample(double sample_us, double now) {
    if (muted_) return;
    local_.push_back(sample_us);
    local_messages_ = static_cast<long>(local_messages_ + 1);
    if (now - last_publish_us_ >= kPublishIntervalUs) {
        last_publish_us_ = now;
        publish();
    }
}

void BenchFeed::progress(long messages, double elapsed_s, double now) {
    if (muted_) return;
    local_messages_ = messages;
    local_elapsed_s_ = elapsed_s;
    if (now - last_publish_us_ >= kPublishIntervalUs) {
        last_publish_us_ = now;
        publish();
    }
}

void BenchFeed::publish() {
    std::lock_guard lock(mutex_);
    shared_.insert(shared_.end(), local_.begin(), local_.end());
    local_.clear();
    shared_messages_ = local_messages_;
    shared_elapsed_s_ = local_elapsed_s_;
}

void BenchFeed::reset() {
    std::lock_guard lock(mutex_);
    local_.clear();
    shared_.clear();
    local_messages_ = shared_messages_ = 0;
    local_elapsed_s_ = shared_elapsed_s_ = 0;
    last_publish_us_ = 0;
}

LatencyStats compute_stats(std::vector<double> samples) {
    LatencyStats s;
    if (samples.empty()) return s;
    std::vector<double> sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    auto rank = [&](double p) {
        const auto idx = static_cast<std::size_t>(std::ceil(p * double(sorted.size()))) - 1;
        return sorted[std::min(idx, sorted.size() - 1)];
    };
    s.min = sorted.front();
    s.max = sorted.back();
    s.p50 = rank(0.50);
    s.p90 = rank(0.90);
    s.p99 = rank(0.99);
    s.p999 = rank(0.999);
    s.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / double(sorted.size());
    double var = 0;
    for (double v : sorted)
        var += (v - s.mean) * (v - s.mean);
    s.stdev = sorted.size() > 1 ? std::sqrt(var / double(sorted.size() - 1)) : 0;
    s.samples = std::move(samples);
    return s;
}

nlohmann::json to_json(const BenchResult& r, bool with_samples) {
    // No measured iteration (stopped before the first one): no statistic exists, so none is reported;
    // zeros would read as a result.
    const bool none = !r.has_samples();
    auto figure = [none](double value) { return none ? nlohmann::json(nullptr) : nlohmann::json(value); };
    nlohmann::json j = {
        {"kind", to_string(r.kind)},
        {"device", r.device},
        {"software_device", r.software},
        {"size", r.size},
        {"iters", r.iterations},
        {"no_samples", none},
        {"elapsed_s", r.elapsed_s},
        {"units", {{"lat", "us"}, {"bw_MBps", "10^6 bytes/s"}, {"bw_Gbps", "10^9 bits/s"}}},
        {"cpu",
         {{"user_s", r.cpu.user_s},
          {"sys_s", r.cpu.sys_s},
          {"voluntary_switches", r.cpu.voluntary_switches},
          {"involuntary_switches", r.cpu.involuntary_switches},
          {"user_us_per_msg", figure(r.cpu.user_us_per_msg)},
          {"sys_us_per_msg", figure(r.cpu.sys_us_per_msg)},
          {"switches_per_msg", figure(r.cpu.switches_per_msg)},
          {"syscalls_per_msg",
           r.cpu.syscalls_per_msg ? nlohmann::json(*r.cpu.syscalls_per_msg) : nlohmann::json(nullptr)}}},
        {"completion", r.completion_events ? "events" : "busy_poll"},
        {"notes", r.notes}};
    if (!r.cpu.syscalls_note.empty()) j["cpu"]["syscalls_note"] = r.cpu.syscalls_note;
    if (r.cpu_a || r.cpu_b) {
        j["cpus"] = nlohmann::json::object();
        if (r.cpu_a) j["cpus"]["a"] = *r.cpu_a;
        if (r.cpu_b) j["cpus"]["b"] = *r.cpu_b;
    }
    if (r.latency && none) {
        j["lat_us"] = nullptr;
        j["lat_basis"] = r.latency_basis;
        if (r.latency_basis.rfind("half", 0) == 0) j["rtt_us"] = nullptr;
        if (with_samples) j["samples_us"] = nlohmann::json::array();
    } else if (r.latency) {
        const auto& l = *r.latency;
        j["lat_us"] = {{"min", l.min}, {"p50", l.p50},   {"mean", l.mean}, {"p90", l.p90},
                       {"p99", l.p99}, {"p999", l.p999}, {"max", l.max},   {"stdev", l.stdev}};
        j["lat_basis"] = r.latency_basis;
        if (r.latency_basis.rfind("half", 0) == 0) // ping-pong: the full round trip too, labelled
            j["rtt_us"] = {{"min", 2 * l.min}, {"p50", 2 * l.p50},    {"mean", 2 * l.mean},
                           {"p90", 2 * l.p90}, {"p99", 2 * l.p99},    {"p999", 2 * l.p999},
                           {"max", 2 * l.max}, {"stdev", 2 * l.stdev}};
        if (with_samples) j["samples_us"] = l.samples;
    } else {
        j["bw_MBps"] = figure(r.bw_MBps);
        j["bw_Gbps"] = figure(r.bw_Gbps);
        j["msg_rate_Mpps"] = figure(r.msg_rate_Mpps);
    }
    if (r.wr_trace) {
        const auto& t = *r.wr_trace;
        j["wr_trace"] = {
            {"rounds", t.rounds},
            {"figure", t.figure},
            {"untraced", t.untraced},
            {"traced", t.traced},
            {"ratio", t.ratio},
            {"ns_per_wr", t.ns_per_wr},
            {"records", t.records},
            {"overruns", t.overruns},
            {"clock", {{"source", t.calibration.source}, {"ns_per_tick", t.calibration.ns_per_tick}}},
            {"pipeline", fast::to_json(t.pipeline)}};
    }
    return j;
}

namespace {

/// `--trace-wr`'s lines: the cost of tracing next to the figure it was measured on, and the pipeline.
std::string format_wr_trace(const std::vector<BenchResult>& results) {
    std::string out;
    for (const auto& r : results) {
        if (!r.wr_trace) continue;
        const auto& t = *r.wr_trace;
        const auto& p = t.pipeline;
        out += fmt::format(
            " {:>9} tracing every work request: {} {:.2f} untraced, {:.2f} traced (medians of {}); "
            "ratio {:.3f}, {:+.0f} ns per work request on {}\n",
            r.size, t.figure, t.untraced_median, t.traced_median, t.rounds, t.ratio, t.ns_per_wr, r.device);
        out += fmt::format(
            " {:>9} pipeline: depth {}, signaled 1 in {}, most outstanding {}, {:.2f} posts per "
            "doorbell, {:.2f} completions per poll, {} empty polls of {}; {} records, {} dropped\n",
            "", p.depth, p.signal_every, p.total.outstanding_max, p.posts_per_doorbell(),
            p.completions_per_poll(), p.total.polls_empty, p.total.polls_empty + p.total.polls_hit, t.records,
            t.overruns);
    }
    if (!out.empty()) out += std::string(90, '-') + "\n";
    return out;
}

} // namespace

std::string format_table(const std::vector<BenchResult>& results) {
    static constexpr const char* kNoSamples = "no samples (stopped before the first measured iteration)";
    std::string out;
    if (results.empty()) return out;
    const auto& first = results.front();
    out += std::string(90, '-') + "\n";
    out += fmt::format(" rdmalab {}  device: {}{}\n", to_string(first.kind), first.device,
                       first.software ? "  (SoftRoCE: software, not hardware numbers)" : "");
    if (first.latency)
        out += fmt::format(" latency: {}{}\n", first.latency_basis,
                           first.latency_basis.rfind("half", 0) == 0
                               ? "; the full round trip is twice this (rtt_us in --json)"
                               : "");
    out += std::string(90, '-') + "\n";
    if (first.latency) {
        out += fmt::format(" {:>9} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8}\n", "#bytes",
                           "#iters", "t_min[us]", "t_p50[us]", "t_avg[us]", "t_p90[us]", "t_p99[us]",
                           "t_p999", "t_max[us]", "stdev");
        for (const auto& r : results) {
            const auto& l = *r.latency;
            if (!r.has_samples()) {
                out += fmt::format(" {:>9} {:>10}   {}\n", r.size, r.iterations, kNoSamples);
                continue;
            }
            out += fmt::format(
                " {:>9} {:>10} {:>9.2f} {:>9.2f} {:>9.2f} {:>9.2f} {:>9.2f} {:>9.2f} {:>9.2f} {:>8.2f}\n",
                r.size, r.iterations, l.min, l.p50, l.mean, l.p90, l.p99, l.p999, l.max, l.stdev);
        }
    } else {
        out += fmt::format(" {:>9} {:>10} {:>14} {:>12} {:>12} {:>14} {:>14}\n", "#bytes", "#iters",
                           "BW avg[MB/s]", "BW[Gb/s]", "MsgRate[Mpps]", "user us/msg", "sys us/msg");
        for (const auto& r : results)
            out += r.has_samples()
                       ? fmt::format(" {:>9} {:>10} {:>14.2f} {:>12.3f} {:>12.6f} {:>14.3f} {:>14.3f}\n",
                                     r.size, r.iterations, r.bw_MBps, r.bw_Gbps, r.msg_rate_Mpps,
                                     r.cpu.user_us_per_msg, r.cpu.sys_us_per_msg)
                       : fmt::format(" {:>9} {:>10}   {}\n", r.size, r.iterations, kNoSamples);
    }
    out += std::string(90, '-') + "\n";
    // What each message cost the CPU: the part of the data path the tables above cannot show.
    out += fmt::format(" {:>9} {:>14} {:>14} {:>14} {:>14}\n", "#bytes", "user us/msg", "sys us/msg",
                       "switches/msg", "syscalls/msg");
    std::string note;
    for (const auto& r : results) {
        if (!r.has_samples()) {
            out += fmt::format(" {:>9}   {}\n", r.size, kNoSamples);
            continue;
        }
        out += fmt::format(" {:>9} {:>14.3f} {:>14.3f} {:>14.3f} {:>14}\n", r.size, r.cpu.user_us_per_msg,
                           r.cpu.sys_us_per_msg, r.cpu.switches_per_msg,
                           r.cpu.syscalls_per_msg ? fmt::format("{:.3f}", *r.cpu.syscalls_per_msg)
                                                  : std::string("not measured"));
        if (!r.cpu.syscalls_note.empty()) note = r.cpu.syscalls_note;
    }
    if (!note.empty()) out += " syscalls not measured: " + note + "\n";
    out += std::string(90, '-') + "\n";
    out += format_wr_trace(results);
    return out;
}

int sweep_iterations(int base, std::size_t size) {
    if (size <= 65536) return base;
    const auto scaled = static_cast<long long>(base) * 65536 / static_cast<long long>(size);
    return static_cast<int>(std::min<long long>(base, std::max<long long>(100, scaled)));
}

std::vector<std::size_t> sweep_sizes() {
    std::vector<std::size_t> sizes;
    for (std::size_t s = 2; s <= std::size_t{8} * 1024 * 1024; s *= 2)
        sizes.push_back(s);
    return sizes;
}

} // namespace rdmalab
