// A measurement of the engine process (bench.start) on its own worker thread, with a reporter thread that
// streams its live figures as `measure` events (docs/architecture.md, "Live measurements").
#pragma once

#include "server.hpp"

#include "rdmalab/engine/bench.hpp"
#include "rdmalab/format/trace.hpp"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

namespace rdmalab::cli {

/// A measurement running on its own thread while the server keeps reading commands (bench.stop).
/// A reporter thread drains the live feed every kReportIntervalMs and emits "measure" events, so
/// front ends get batched figures at a steady rate whatever the message rate.
class BenchJob {
  public:
    static constexpr int kReportIntervalMs = 40;

    /// Starts both threads: `runs` in order, each through `runner`, every event to `tracer` with `id`.
    /// With `trace_wr`, each RDMA run is measured untraced and then with every work request in the binary
    /// tier (run_traced_comparison, one round), and the traced run's pipeline streams as bench.pipeline.
    BenchJob(std::shared_ptr<Tracer> tracer, nlohmann::json id, std::vector<BenchOptions> runs,
             BenchRunner runner, bool trace_wr = false);
    /// Stops the measurement and joins both threads.
    ~BenchJob();
    BenchJob(const BenchJob&) = delete;
    BenchJob& operator=(const BenchJob&) = delete;

    void stop() { feed_.request_stop(); }
    /// Blocks until the measurement ends and both its threads are gone (bench.wait, for scripts).
    void wait();
    bool running() const { return !done_.load(); }

  private:
    void work();
    /// Ends with the measurement (the worker drains the last batch itself), so an idle engine keeps no
    /// thread waking every kReportIntervalMs until the next bench.start or quit.
    void report();
    /// Emits what the feed published since the last drain (caller holds run_mutex_).
    void drain();
    /// Runs `o` (traced against untraced when trace_wr_ and the kind is RDMA).
    BenchResult measure(const BenchOptions& o);
    void emit(std::string_view name, nlohmann::json data);

    std::shared_ptr<Tracer> tracer_;
    nlohmann::json id_;
    std::vector<BenchOptions> runs_; ///< a kind at a size each, in order
    BenchRunner runner_;
    BenchFeed feed_;
    std::mutex run_mutex_;
    std::size_t current_ = 0;
    std::size_t sent_ = 0;
    long last_messages_ = 0;
    bool trace_wr_ = false;
    std::mutex pipeline_mutex_;     ///< guards the two below: the drainer thread writes, the reporter reads
    fast::PipelineBucket pipeline_; ///< the traced run's pipeline since the last report
    std::uint64_t pipeline_t_ns_ = 0, pipeline_depth_ = 0, pipeline_signal_every_ = 0;
    bool pipeline_fresh_ = false;
    std::atomic<bool> done_{false};
    std::mutex wake_mutex_;
    std::condition_variable wake_;
    bool finished_ = false;
    std::thread worker_, reporter_;
};

} // namespace rdmalab::cli
