// Folding binary-tier records into the pipeline of a measured loop (rdmalab/format/pipeline.hpp).
#include "rdmalab/format/pipeline.hpp"

#include <algorithm>
#include <stdexcept>

namespace rdmalab::fast {

void merge(PipelineBucket& into, const PipelineBucket& later) {
    into.posts += later.posts;
    into.doorbells += later.doorbells;
    into.completed += later.completed;
    into.completions += later.completions;
    into.polls_hit += later.polls_hit;
    into.polls_empty += later.polls_empty;
    into.outstanding_max = std::max(into.outstanding_max, later.outstanding_max);
    into.outstanding_end = later.outstanding_end;
}

nlohmann::json to_json(const PipelineBucket& b) {
    return {{"posts", b.posts},
            {"doorbells", b.doorbells},
            {"completed", b.completed},
            {"completions", b.completions},
            {"polls_hit", b.polls_hit},
            {"polls_empty", b.polls_empty},
            {"outstanding_max", b.outstanding_max},
            {"outstanding_end", b.outstanding_end}};
}

namespace {

double ratio(std::uint64_t numerator, std::uint64_t denominator) {
    return denominator == 0 ? 0.0 : static_cast<double>(numerator) / static_cast<double>(denominator);
}

} // namespace

PipelineFolder::PipelineFolder(const Calibration& calibration, std::size_t max_buckets,
                               std::uint64_t initial_bucket_ns)
    : calibration_(calibration), max_buckets_(max_buckets) {
    if (max_buckets < 2 || max_buckets % 2 != 0)
        throw std::invalid_argument("a pipeline keeps an even number of buckets, at least 2");
    summary_.bucket_ns = std::max<std::uint64_t>(initial_bucket_ns, 1);
}

void PipelineFolder::set_depth(std::uint64_t depth, std::uint64_t signal_every) {
    summary_.depth = depth;
    summary_.signal_every = signal_every;
}

void PipelineFolder::add(std::span<const Record> records) {
    for (const auto& record : records)
        add(record);
}

void PipelineFolder::halve() {
    auto& buckets = summary_.buckets;
    std::vector<PipelineBucket> merged;
    merged.reserve(buckets.size() / 2 + 1);
    for (std::size_t i = 0; i < buckets.size(); i += 2) {
        merged.push_back(buckets[i]);
        if (i + 1 < buckets.size()) merge(merged.back(), buckets[i + 1]);
    }
    buckets = std::move(merged);
    summary_.bucket_ns *= 2;
}

PipelineBucket& PipelineFolder::bucket_at(std::uint64_t t_ns) {
    const std::uint64_t since = t_ns > first_ns_ ? t_ns - first_ns_ : 0;
    summary_.span_ns = std::max(summary_.span_ns, since);
    while (since / summary_.bucket_ns >= max_buckets_)
        halve();
    const auto index = static_cast<std::size_t>(since / summary_.bucket_ns);
    auto& buckets = summary_.buckets;
    // The slices nothing happened in keep the level the queue was at.
    while (buckets.size() <= index) {
        PipelineBucket quiet;
        quiet.outstanding_max = quiet.outstanding_end = outstanding_;
        buckets.push_back(quiet);
    }
    // Records of one thread come in order, so a late one (clock step) lands in the last bucket.
    return buckets.back();
}

void PipelineFolder::add(const Record& record) {
    const std::uint64_t t_ns = calibration_.to_ns(record.ticks);
    if (!started_) {
        started_ = true;
        first_ns_ = t_ns;
    }
    ++summary_.records;
    PipelineBucket& bucket = bucket_at(t_ns);
    PipelineBucket change;
    switch (record.kind) {
    case RecordKind::Post:
        change.posts = 1;
        change.doorbells = 1;
        ++outstanding_;
        break;
    case RecordKind::PostList:
        change.posts = std::max<std::uint32_t>(record.aux, 1);
        change.doorbells = 1;
        outstanding_ += change.posts;
        break;
    case RecordKind::PollHit:
        change.polls_hit = 1;
        break;
    case RecordKind::PollEmpty:
        change.polls_empty = 1;
        break;
    case RecordKind::Completion:
        change.completions = 1;
        change.completed = std::min<std::uint64_t>(std::max<std::uint32_t>(record.aux, 1), outstanding_);
        outstanding_ -= change.completed;
        if (record.code != 0) ++summary_.completion_errors;
        break;
    case RecordKind::Doorbell:
    case RecordKind::Packet:
        break;
    }
    change.outstanding_max = std::max(bucket.outstanding_max, outstanding_);
    change.outstanding_end = outstanding_;
    merge(bucket, change);
    change.outstanding_max = std::max(summary_.total.outstanding_max, outstanding_);
    merge(summary_.total, change);
    change.outstanding_max = std::max(recent_.outstanding_max, outstanding_);
    merge(recent_, change);
}

PipelineBucket PipelineFolder::take_recent() {
    PipelineBucket taken = recent_;
    recent_ = {};
    recent_.outstanding_max = recent_.outstanding_end = outstanding_;
    return taken;
}

double PipelineSummary::posts_per_doorbell() const {
    return ratio(total.posts, total.doorbells);
}

double PipelineSummary::completions_per_poll() const {
    return ratio(total.completions, total.polls_hit);
}

double PipelineSummary::empty_poll_share() const {
    return ratio(total.polls_empty, total.polls_hit + total.polls_empty);
}

nlohmann::json to_json(const PipelineSummary& summary) {
    nlohmann::json buckets = nlohmann::json::array();
    for (const auto& b : summary.buckets)
        buckets.push_back(to_json(b));
    const auto& t = summary.total;
    return {{"bucket_ns", summary.bucket_ns},
            {"span_ns", summary.span_ns},
            {"records", summary.records},
            {"depth", summary.depth},
            {"signal_every", summary.signal_every},
            {"completion_errors", summary.completion_errors},
            {"total", to_json(t)},
            {"posts_per_doorbell", summary.posts_per_doorbell()},
            {"completions_per_poll", summary.completions_per_poll()},
            {"empty_poll_share", summary.empty_poll_share()},
            {"buckets", std::move(buckets)}};
}

} // namespace rdmalab::fast
