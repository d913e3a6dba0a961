// The binary tier's rings, clock and drainer (rdmalab/format/binary_trace.hpp).
#include "rdmalab/format/binary_trace.hpp"

#include <chrono>
#include <fstream>
#include <stdexcept>
#include <utility>

namespace rdmalab::fast {

std::atomic<bool> Clock::use_tsc_{false};

namespace {

std::uint64_t monotonic_now() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000U + static_cast<std::uint64_t>(ts.tv_nsec);
}

/// Whether the CPU says its TSC ticks at one rate in every state (constant_tsc) and never stops
/// (nonstop_tsc): only then is it a clock.
bool tsc_is_a_clock() {
#if defined(__x86_64__)
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line))
        if (line.rfind("flags", 0) == 0)
            return line.find(" constant_tsc") != std::string::npos &&
                   line.find(" nonstop_tsc") != std::string::npos;
#endif
    return false;
}

std::atomic<std::uint64_t> next_tracer_id{1};

} // namespace

std::uint64_t Calibration::to_ns(std::uint64_t ticks) const {
    const double delta = static_cast<double>(static_cast<std::int64_t>(ticks - base_ticks)) * ns_per_tick;
    return base_ns + static_cast<std::uint64_t>(static_cast<std::int64_t>(delta));
}

Calibration Clock::calibrate(int span_ms) {
    use_tsc_.store(tsc_is_a_clock());
    Calibration c;
    c.source = use_tsc_.load() ? "tsc" : "clock_monotonic";
    c.base_ns = monotonic_now();
    c.base_ticks = now();
    if (!use_tsc_.load()) {
        c.base_ticks = c.base_ns;
        return c; // the ticks are nanoseconds of the same clock
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(span_ms));
    const std::uint64_t end_ns = monotonic_now();
    const std::uint64_t end_ticks = now();
    c.ns_per_tick = static_cast<double>(end_ns - c.base_ns) / static_cast<double>(end_ticks - c.base_ticks);
    return c;
}

Ring::Ring(std::size_t capacity_pow2) : slots_(capacity_pow2), mask_(capacity_pow2 - 1) {
    if (capacity_pow2 == 0 || (capacity_pow2 & mask_) != 0)
        throw std::invalid_argument("a ring's capacity must be a power of two");
}

std::size_t Ring::drain(std::vector<Record>& out) {
    const std::uint64_t tail = tail_.load(std::memory_order_relaxed);
    const std::uint64_t head = head_.load(std::memory_order_acquire);
    for (std::uint64_t i = tail; i != head; ++i)
        out.push_back(slots_[i & mask_]);
    tail_.store(head, std::memory_order_release);
    return static_cast<std::size_t>(head - tail);
}

BinaryTracer::BinaryTracer(std::size_t ring_capacity)
    : ring_capacity_(ring_capacity), calibration_(Clock::calibrate()), id_(next_tracer_id++) {}

BinaryTracer::~BinaryTracer() {
    stop();
}

Ring& BinaryTracer::ring() {
    // One cached ring per thread for the tracer it last used; a thread that switches tracers looks its
    // ring up again (rare: the engine has one tracer per run).
    struct Cached {
        std::uint64_t tracer = 0;
        Ring* ring = nullptr;
    };
    thread_local Cached cached;
    if (cached.tracer == id_) return *cached.ring;
    const std::lock_guard lock(rings_mutex_);
    rings_.push_back(std::make_unique<Ring>(ring_capacity_));
    cached = {id_, rings_.back().get()};
    return *cached.ring;
}

void BinaryTracer::start(BatchSink sink, int period_us) {
    if (running_.exchange(true)) return;
    sink_ = std::move(sink);
    drainer_ = std::thread([this, period_us] {
        while (running_.load()) {
            drain_all();
            std::this_thread::sleep_for(std::chrono::microseconds(period_us));
        }
    });
}

void BinaryTracer::stop() {
    if (!running_.exchange(false)) return;
    drainer_.join();
    drain_all();
}

void BinaryTracer::drain_all() {
    std::vector<Record> batch;
    const std::lock_guard lock(rings_mutex_);
    for (const auto& ring : rings_) {
        batch.clear();
        if (ring->drain(batch) > 0 && sink_) sink_(batch);
    }
}

std::uint64_t BinaryTracer::overruns() const {
    const std::lock_guard lock(rings_mutex_);
    std::uint64_t total = 0;
    for (const auto& ring : rings_)
        total += ring->overruns();
    return total;
}

} // namespace rdmalab::fast
