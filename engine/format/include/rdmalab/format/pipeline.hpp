// The pipeline of a measured loop, folded from its binary-tier records (binary_trace.hpp): over time, the
// work requests outstanding against the send-queue depth, doorbells per post list, completions per poll
// and empty polls. Buckets are fixed in number: when they fill, neighbours merge and the width doubles,
// so a run of any length folds into bounded memory. Verbs-free and Qt-free.
#pragma once

#include "rdmalab/format/binary_trace.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace rdmalab::fast {

/// What the loop did over one slice of time [t_ns, t_ns + width).
struct PipelineBucket {
    std::uint64_t posts = 0;       ///< work requests posted
    std::uint64_t doorbells = 0;   ///< ibv_post_send calls (one per post list)
    std::uint64_t completed = 0;   ///< work requests retired (a signaled completion retires those before it)
    std::uint64_t completions = 0; ///< completions polled (signaled work requests)
    std::uint64_t polls_hit = 0;   ///< ibv_poll_cq calls that returned completions
    std::uint64_t polls_empty = 0; ///< ibv_poll_cq calls that returned none
    std::uint64_t outstanding_max = 0; ///< most work requests in flight at once
    std::uint64_t outstanding_end = 0; ///< in flight at the end of the slice
};

/// The whole run: the buckets and the totals.
struct PipelineSummary {
    std::uint64_t bucket_ns = 0; ///< width of each bucket
    std::vector<PipelineBucket> buckets;
    PipelineBucket total; ///< sums; outstanding_max over the run, outstanding_end at its end
    std::uint64_t records = 0;
    std::uint64_t span_ns = 0; ///< first record to last
    std::uint64_t depth = 0;   ///< the send-queue depth the loop kept (0: not stated)
    std::uint64_t signal_every = 0;
    std::uint64_t completion_errors = 0; ///< completions whose status was not success

    double posts_per_doorbell() const;   ///< work requests per ibv_post_send call (0 with none)
    double completions_per_poll() const; ///< completions per poll that returned any (0 with none)
    double empty_poll_share() const;     ///< empty polls among all polls (0 with none)
};

/// Folds records of one thread, in order, into a PipelineSummary.
class PipelineFolder {
  public:
    /// `max_buckets` (even, at least 2): the most buckets kept; `initial_bucket_ns`: the width to start at.
    explicit PipelineFolder(const Calibration& calibration, std::size_t max_buckets = 256,
                            std::uint64_t initial_bucket_ns = 10'000);
    void add(std::span<const Record> records);
    void set_depth(std::uint64_t depth, std::uint64_t signal_every);
    const PipelineSummary& summary() const { return summary_; }
    /// What happened since the last call (its outstanding figures start at the level then): for a live
    /// view that shows the run as it goes.
    PipelineBucket take_recent();

  private:
    void add(const Record& record);
    PipelineBucket& bucket_at(std::uint64_t t_ns);
    void halve();

    Calibration calibration_;
    std::size_t max_buckets_;
    PipelineSummary summary_;
    bool started_ = false;
    std::uint64_t first_ns_ = 0;
    std::uint64_t outstanding_ = 0;
    PipelineBucket recent_;
};

/// Adds `later` to `into`: sums, the larger outstanding_max, later's outstanding_end.
void merge(PipelineBucket& into, const PipelineBucket& later);
/// One bucket's JSON form (the fields of PipelineBucket).
nlohmann::json to_json(const PipelineBucket& bucket);

/// The JSON form documented in docs/bench-format.md ("wr_trace.pipeline").
nlohmann::json to_json(const PipelineSummary& summary);

} // namespace rdmalab::fast
