// The engine process's measurement thread and its reporter (bench_job.hpp).
#include "bench_job.hpp"

#include "rdmalab/engine/errors.hpp"
#include "rdmalab/format/protocol.hpp"

#include <chrono>
#include <cmath>
#include <exception>
#include <string>
#include <utility>

namespace rdmalab::cli {

BenchJob::BenchJob(std::shared_ptr<Tracer> tracer, nlohmann::json id, std::vector<BenchOptions> runs,
                   BenchRunner runner, bool trace_wr)
    : tracer_(std::move(tracer)), id_(std::move(id)), runs_(std::move(runs)), runner_(std::move(runner)),
      trace_wr_(trace_wr) {
    worker_ = std::thread([this] { work(); });
    reporter_ = std::thread([this] { report(); });
}

BenchJob::~BenchJob() {
    stop();
    if (worker_.joinable()) worker_.join();
    {
        std::lock_guard lock(wake_mutex_);
        finished_ = true;
    }
    wake_.notify_all();
    if (reporter_.joinable()) reporter_.join();
}

void BenchJob::wait() {
    if (worker_.joinable()) worker_.join();
    if (reporter_.joinable()) reporter_.join(); // woken by the worker when done_ was set
}

void BenchJob::work() {
    nlohmann::json done = {{"ok", true}, {"runs", runs_.size()}};
    std::size_t completed = 0;
    try {
        // The first run always begins, so a stop that arrives before the worker does still yields
        // one bench.result (with no samples), as it would a moment later.
        for (std::size_t i = 0; i < runs_.size() && (i == 0 || !feed_.stop_requested()); ++i) {
            {
                std::lock_guard lock(run_mutex_);
                current_ = i;
                sent_ = 0;
                feed_.reset();
            }
            BenchOptions o = runs_[i];
            o.feed = &feed_;
            emit(protocol::kBenchBegin, {{"index", i},
                                         {"total", runs_.size()},
                                         {"kind", to_string(o.kind)},
                                         {"size", o.size},
                                         {"iters", o.iterations}});
            BenchResult result = measure(o);
            std::lock_guard lock(run_mutex_);
            drain(); // the last samples before the result
            nlohmann::json j = to_json(result, false);
            j["index"] = i;
            emit(protocol::kBenchResult, std::move(j));
            ++completed;
        }
    } catch (const RdmaError& e) {
        done = {{"ok", false}, {"error", e.info().to_string()}, {"error_info", e.info().to_json()}};
    } catch (const std::exception& e) {
        done = {{"ok", false}, {"error", e.what()}};
    }
    done["completed"] = completed;
    done["stopped"] = feed_.stop_requested();
    {
        std::lock_guard lock(wake_mutex_); // so the reporter either sees done_ or is waiting
        done_ = true;
    }
    wake_.notify_all();
    emit(protocol::kBenchDone, std::move(done));
    tracer_->flush();
}

BenchResult BenchJob::measure(const BenchOptions& o) {
    if (!trace_wr_ || kMeasurementKinds[static_cast<std::size_t>(o.kind)].tcp) return runner_(o);
    // The untraced run only gives the figure tracing is compared with: the live view shows the traced one.
    const auto measure_one = [this](const BenchOptions& each) {
        feed_.set_muted(each.wr_tracer == nullptr);
        BenchResult result = runner_(each);
        feed_.set_muted(false);
        return result;
    };
    return run_traced_comparison(o, 1, measure_one, [this](fast::PipelineFolder& folder) {
        const fast::PipelineBucket recent = folder.take_recent();
        std::lock_guard lock(pipeline_mutex_);
        fast::merge(pipeline_, recent);
        pipeline_t_ns_ = folder.summary().span_ns;
        pipeline_depth_ = folder.summary().depth;
        pipeline_signal_every_ = folder.summary().signal_every;
        pipeline_fresh_ = true;
    });
}

void BenchJob::report() {
    std::unique_lock wake(wake_mutex_);
    while (!finished_ && !done_) {
        wake_.wait_for(wake, std::chrono::milliseconds(kReportIntervalMs));
        std::lock_guard lock(run_mutex_);
        if (!done_) drain();
    }
}

void BenchJob::drain() {
    BenchFeed::Snapshot s = feed_.take();
    const BenchOptions& o = runs_[current_];
    if (!s.new_samples_us.empty()) {
        for (double& v : s.new_samples_us) // nanosecond resolution keeps the JSON short
            v = std::round(v * 1000.0) / 1000.0;
        const std::size_t first = sent_;
        sent_ += s.new_samples_us.size();
        emit(protocol::kBenchSamples, {{"index", current_},
                                       {"kind", to_string(o.kind)},
                                       {"size", o.size},
                                       {"first", first},
                                       {"samples_us", std::move(s.new_samples_us)}});
    } else if (!is_latency(o.kind) && s.messages > 0 && s.messages != last_messages_) {
        emit(protocol::kBenchProgress,
             {{"index", current_},
              {"kind", to_string(o.kind)},
              {"size", o.size},
              {"messages", s.messages},
              {"bytes", static_cast<double>(s.messages) * static_cast<double>(o.size)},
              {"elapsed_s", s.elapsed_s}});
    }
    last_messages_ = s.messages;
    std::lock_guard lock(pipeline_mutex_);
    if (!pipeline_fresh_) return;
    nlohmann::json slice = fast::to_json(pipeline_);
    slice["index"] = current_;
    slice["kind"] = to_string(o.kind);
    slice["size"] = o.size;
    slice["t_s"] = static_cast<double>(pipeline_t_ns_) / 1e9;
    slice["depth"] = pipeline_depth_;
    slice["signal_every"] = pipeline_signal_every_;
    emit(protocol::kBenchPipeline, std::move(slice));
    pipeline_ = {};
    pipeline_fresh_ = false;
}

void BenchJob::emit(std::string_view name, nlohmann::json data) {
    TraceEvent e;
    e.kind = EventKind::Measure;
    e.name = std::string(name);
    if (!id_.is_null()) e.ids = {{"id", id_}};
    e.data = std::move(data);
    tracer_->record(std::move(e));
}

} // namespace rdmalab::cli
