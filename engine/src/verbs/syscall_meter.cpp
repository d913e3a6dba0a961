// SyscallMeter: the system calls of one verb call, for the trace events of the step-by-step operation.
#include "rdmalab/engine/syscount.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace rdmalab {

SyscallMeter::SyscallMeter() {
    if (!counter_.available()) {
        why_ = counter_.why();
        return;
    }
    // The empty bracket's cost, measured rather than assumed: the smallest of a few differences between
    // two reads in a row (a signal handled in between could only add to one of them).
    std::optional<std::uint64_t> cost;
    for (int i = 0; i < 3; ++i) {
        const auto first = counter_.read();
        const auto second = counter_.read();
        if (!first || !second || *second < *first) {
            why_ = "reading the system-call counter (perf_event read) failed";
            return;
        }
        cost = std::min(cost.value_or(*second - *first), *second - *first);
    }
    bracket_cost_ = *cost;
}

bool SyscallMeter::usable_here(SyscallTally& tally) const {
    if (!available()) {
        if (tally.why.empty()) tally.why = why_;
        return false;
    }
    if (std::this_thread::get_id() != owner_) {
        if (tally.why.empty())
            tally.why = "the call ran on another thread than the one whose system calls are counted";
        return false;
    }
    return true;
}

void SyscallMeter::add(std::optional<std::uint64_t> before, std::optional<std::uint64_t> after,
                       SyscallTally& tally) const {
    if (!before || !after) {
        if (tally.why.empty()) tally.why = "reading the system-call counter (perf_event read) failed";
        return;
    }
    if (*after < *before + bracket_cost_) {
        if (tally.why.empty())
            tally.why = fmt::format("the counter advanced by {} across the call, less than the {} of an "
                                    "empty bracket",
                                    *after - std::min(*after, *before), bracket_cost_);
        return;
    }
    tally.count += *after - *before - bracket_cost_;
    ++tally.counted;
}

} // namespace rdmalab
