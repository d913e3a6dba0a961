// The binary tier of the trace: data-path events (post, doorbell, poll, completion, packet) as fixed
// 32-byte records written into a per-thread single-producer ring, with no allocation, no lock and no JSON
// on the thread that posts; a drainer on another thread takes them out in batches. A full ring drops the
// record and counts it: nothing is lost silently. Timestamps are raw ticks of the cheapest monotonic clock
// (the TSC where the CPU says it is constant, else CLOCK_MONOTONIC), converted by a recorded calibration.
// The JSON Lines tier (trace.hpp) stays for lesson steps and the protocol. Verbs-free and Qt-free.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif
#include <time.h>

namespace rdmalab::fast {

/// What a record says happened.
enum class RecordKind : std::uint16_t {
    Post = 1,       ///< one send work request posted (wr_id, length, opcode)
    PostList = 2,   ///< a list posted with one ibv_post_send (aux: requests in it)
    Doorbell = 3,   ///< the doorbell of a post (aux: system calls it took, when known)
    PollHit = 4,    ///< ibv_poll_cq returned completions (aux: how many)
    PollEmpty = 5,  ///< ibv_poll_cq returned none
    Completion = 6, ///< one completion (wr_id, code: status, length: byte_len)
    Packet = 7,     ///< one packet captured (code: BTH opcode, aux: PSN)
};

/// One event: 32 bytes, written by value.
struct Record {
    std::uint64_t ticks = 0; ///< Clock::now() when it happened
    std::uint64_t wr_id = 0;
    std::uint32_t qpn = 0;
    std::uint32_t length = 0;
    RecordKind kind = RecordKind::Post;
    std::uint16_t code = 0; ///< the opcode or the completion status
    std::uint32_t aux = 0;
};
static_assert(sizeof(Record) == 32, "a record is 32 bytes");

/// The clock records are stamped with, and how its ticks become nanoseconds.
struct Calibration {
    std::string source;           ///< "tsc" or "clock_monotonic"
    double ns_per_tick = 1.0;     ///< nanoseconds per tick
    std::uint64_t base_ticks = 0; ///< ticks at base_ns
    std::uint64_t base_ns = 0;    ///< CLOCK_MONOTONIC ns at base_ticks (the JSON tier's t_ns clock)
    std::uint64_t to_ns(std::uint64_t ticks) const;
};

class Clock {
  public:
    /// Reads the clock chosen by calibrate() (the TSC only when the CPU flags it constant and nonstop).
    static std::uint64_t now() noexcept {
#if defined(__x86_64__)
        if (use_tsc_.load(std::memory_order_relaxed)) return __rdtsc();
#endif
        timespec ts{};
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000U +
               static_cast<std::uint64_t>(ts.tv_nsec);
    }
    /// Chooses the clock and measures its rate against CLOCK_MONOTONIC over about `span_ms`.
    static Calibration calibrate(int span_ms = 20);

  private:
    static std::atomic<bool> use_tsc_;
};

/// A single-producer, single-consumer ring of records with a power-of-two capacity.
class Ring {
  public:
    explicit Ring(std::size_t capacity_pow2);
    /// The producer's side: never blocks, never allocates; false (and counted) when the ring is full.
    bool push(const Record& record) noexcept {
        const std::uint64_t head = head_.load(std::memory_order_relaxed);
        if (head - tail_cache_ >= slots_.size()) {
            tail_cache_ = tail_.load(std::memory_order_acquire);
            if (head - tail_cache_ >= slots_.size()) {
                overruns_.fetch_add(1, std::memory_order_relaxed);
                return false;
            }
        }
        slots_[head & mask_] = record;
        head_.store(head + 1, std::memory_order_release);
        return true;
    }
    /// The consumer's side: appends every record pushed so far to `out`; returns how many.
    std::size_t drain(std::vector<Record>& out);
    std::uint64_t overruns() const { return overruns_.load(std::memory_order_relaxed); }
    std::size_t capacity() const { return slots_.size(); }

  private:
    std::vector<Record> slots_;
    std::size_t mask_;
    alignas(64) std::atomic<std::uint64_t> head_{0};
    std::uint64_t tail_cache_ = 0; ///< the producer's last look at tail_
    alignas(64) std::atomic<std::uint64_t> tail_{0};
    alignas(64) std::atomic<std::uint64_t> overruns_{0};
};

/// Rings for every thread that records, and a drainer thread that hands their records over in batches.
class BinaryTracer {
  public:
    /// Receives each batch (records of one ring, in that thread's order) on the drainer thread.
    using BatchSink = std::function<void(std::span<const Record>)>;

    explicit BinaryTracer(std::size_t ring_capacity = 1 << 16);
    ~BinaryTracer();
    BinaryTracer(const BinaryTracer&) = delete;
    BinaryTracer& operator=(const BinaryTracer&) = delete;

    /// This thread's ring (made on its first call, then cached): keep it and push() on it.
    Ring& ring();
    /// Starts draining every `period_us` into `sink`.
    void start(BatchSink sink, int period_us = 200);
    /// Drains what is left and stops the drainer.
    void stop();
    /// Records dropped by full rings, all threads together.
    std::uint64_t overruns() const;
    const Calibration& calibration() const { return calibration_; }

  private:
    void drain_all();

    std::size_t ring_capacity_;
    Calibration calibration_;
    mutable std::mutex rings_mutex_;
    std::vector<std::unique_ptr<Ring>> rings_;
    BatchSink sink_;
    std::atomic<bool> running_{false};
    std::thread drainer_;
    std::uint64_t id_; ///< tells this tracer's thread-local ring apart from another's
};

} // namespace rdmalab::fast
