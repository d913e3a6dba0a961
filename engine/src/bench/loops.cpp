#include "bench/loops.hpp"

#include "rdmalab/engine/errors.hpp"

#include <fmt/format.h>

#include <deque>
#include <utility>
#include <vector>

namespace rdmalab::bench_detail {

QpCapacity queue_capacity(int depth) {
    QpCapacity cap;
    cap.max_send_wr = static_cast<std::uint32_t>(depth + 4);
    cap.max_recv_wr = static_cast<std::uint32_t>(depth + 4);
    cap.max_inline_data = 0;
    return cap;
}

int send_lat_recv_depth(const BenchOptions& o) {
    const long planned = o.seconds > 0 ? kSendLatRecvDepth : long(o.warmup) + o.iterations;
    return static_cast<int>(std::clamp(planned, 2L, kSendLatRecvDepth));
}

void post_send(ibv_qp* qp, ibv_send_wr& wr) {
    ibv_send_wr* bad = nullptr;
    if (int ret = ibv_post_send(qp, &wr, &bad); ret != 0)
        throw RdmaError(explain_errno("ibv_post_send", ret));
}

void post_recv(ibv_qp* qp, const MemoryRegion& mr, std::size_t size) {
    ibv_sge sge{mr.address(), static_cast<std::uint32_t>(std::max<std::size_t>(size, 1)), mr.lkey()};
    ibv_recv_wr wr{};
    wr.sg_list = &sge;
    wr.num_sge = 1;
    ibv_recv_wr* bad = nullptr;
    if (int ret = ibv_post_recv(qp, &wr, &bad); ret != 0)
        throw RdmaError(explain_errno("ibv_post_recv", ret));
}

ibv_send_wr latency_wr(BenchKind kind, const MemoryRegion& local, std::uint64_t peer_addr,
                       std::uint32_t peer_rkey, std::size_t size, ibv_sge& sge) {
    sge = {local.address() + size, static_cast<std::uint32_t>(size), local.lkey()};
    ibv_send_wr wr{};
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.wr.rdma.remote_addr = peer_addr;
    wr.wr.rdma.rkey = peer_rkey;
    if (kind == BenchKind::WriteLat) {
        wr.opcode = IBV_WR_RDMA_WRITE;
    } else if (kind == BenchKind::SendLat) {
        wr.opcode = IBV_WR_SEND;
    } else if (kind == BenchKind::ReadLat) {
        wr.opcode = IBV_WR_RDMA_READ;
        sge.addr = local.address(); // read the peer's [0,size) into the local [0,size)
    } else {
        wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
        wr.wr.atomic.remote_addr = peer_addr;
        wr.wr.atomic.rkey = peer_rkey;
        wr.wr.atomic.compare_add = 1;
    }
    return wr;
}

BenchResult latency_loop(const BenchOptions& o, const RdmaEnd& a, std::size_t size, Stall& stall) {
    BenchResult r;
    r.size = size;
    std::vector<double> samples;
    samples.reserve(static_cast<std::size_t>(std::max(o.iterations, 1)));
    ibv_sge sge{};
    ibv_send_wr wr = latency_wr(o.kind, *a.mr, a.peer_addr, a.peer_rkey, size, sge);
    volatile std::uint8_t* in = a.mr->data() + size - 1; // last byte B writes into A
    std::uint8_t* src_last = a.mr->data() + 2 * size - 1;
    const bool full = o.kind == BenchKind::ReadLat || o.kind == BenchKind::AtomicLat;
    r.latency_basis = full ? "full round trip (one operation, as ib_read_lat/ib_atomic_lat)"
                           : "half round trip (ping-pong / 2, as ib_send_lat/ib_write_lat)";
    // send_lat: as perftest, a receive is posted again only while the posted ones do not cover the
    // remaining iterations (rcnt + rx_depth <= iters).
    const long total_planned = o.seconds > 0 ? -1 : long(o.warmup) + o.iterations;
    const long recv_depth = send_lat_recv_depth(o);
    auto repost_after = [&](long received) {
        return total_planned < 0 || received + recv_depth <= total_planned;
    };
    // As perftest: one sample is the time from one post to the next (tposted[i+1] - tposted[i]), so
    // everything the loop does between two posts is part of it.
    Usage u0 = Usage::take();
    double start = 0, end = 0, prev_post = 0;
    long measured = 0;
    const long messages_per_iteration = full ? 1 : 2;
    const WrRecorder record(o, a.qp);
    const auto length = static_cast<std::uint32_t>(size);
    const auto opcode = static_cast<std::uint16_t>(wr.opcode);
    warmup_begins();
    for (long i = 0;; ++i) {
        if (i < o.warmup && o.feed && o.feed->stop_requested()) { // stopped in the warm-up: no samples
            warmup_ends(i * messages_per_iteration);
            u0 = Usage::take();
            start = end = now_us();
            break;
        }
        if (i == o.warmup) {
            warmup_ends(o.warmup * messages_per_iteration);
            u0 = Usage::take();
        }
        const double t = now_us(); // this iteration's post time (perftest's tposted[i])
        if (i > o.warmup) {
            const double dt = t - prev_post;
            samples.push_back(full ? dt : dt / 2);
            ++measured;
            if (o.feed) o.feed->add_sample(samples.back(), t);
        }
        if (i == o.warmup) start = t;
        if (i >= o.warmup && !keep_going(o, measured, start)) {
            end = t;
            break;
        }
        prev_post = t;
        if (o.kind == BenchKind::WriteLat) {
            // ib_write_lat's client: post the WRITE, wait for its completion, then for the peer's.
            const std::uint8_t tag = write_lat_tag(i);
            *src_last = tag;
            wr.wr_id = static_cast<std::uint64_t>(i) + 1;
            post_send(a.qp, wr);
            record(fast::RecordKind::Post, wr.wr_id, length, opcode);
            const ibv_wc wc = poll_one(a.scq, stall, "RDMA_WRITE");
            record(fast::RecordKind::Completion, wc.wr_id, wc.byte_len,
                   static_cast<std::uint16_t>(wc.status));
            stall.reset();
            while (*in != tag)
                stall.tick("B's RDMA WRITE reply");
        } else if (o.kind == BenchKind::SendLat) {
            // ib_send_lat's client: post the SEND, wait for its completion, then for the reply's receive
            // completion, and post that receive again if still needed.
            wr.wr_id = static_cast<std::uint64_t>(i) + 1;
            post_send(a.qp, wr);
            record(fast::RecordKind::Post, wr.wr_id, length, opcode);
            const ibv_wc wc = complete_one(a.scq, a.scq_channel, stall, "SEND");
            record(fast::RecordKind::Completion, wc.wr_id, wc.byte_len,
                   static_cast<std::uint16_t>(wc.status));
            complete_one(a.rcq, a.rcq_channel, stall, "RECV of B's reply");
            if (repost_after(i + 1)) post_recv(a.qp, *a.mr, size);
        } else {
            wr.wr_id = static_cast<std::uint64_t>(i) + 1;
            post_send(a.qp, wr);
            record(fast::RecordKind::Post, wr.wr_id, length, opcode);
            const ibv_wc wc =
                poll_one(a.scq, stall, o.kind == BenchKind::ReadLat ? "RDMA_READ" : "ATOMIC_FETCH_AND_ADD");
            record(fast::RecordKind::Completion, wc.wr_id, wc.byte_len,
                   static_cast<std::uint16_t>(wc.status));
        }
    }
    const Usage u1 = Usage::take();
    r.iterations = measured;
    r.elapsed_s = (end - start) / 1e6;
    r.latency = compute_stats(std::move(samples));
    if (!o.keep_samples) r.latency->samples.clear();
    r.cpu = cpu_between(u0, u1, measured * messages_per_iteration);
    r.notes.push_back("one sample is the time from one post to the next, as perftest; every work request is "
                      "signaled and no data is sent inline (perftest inlines small messages only on NICs it "
                      "recognises, none on rxe)");
    r.completion_events = a.scq_channel != nullptr;
    return r;
}

BenchResult bandwidth_loop(const BenchOptions& o, const RdmaEnd& a, std::size_t size, Stall& stall) {
    BenchResult r;
    r.size = size;
    const int window = std::max(1, o.window);
    ibv_sge sge{a.mr->address(), static_cast<std::uint32_t>(size), a.mr->lkey()};
    ibv_send_wr wr{};
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = o.kind == BenchKind::WriteBw  ? IBV_WR_RDMA_WRITE
                : o.kind == BenchKind::ReadBw ? IBV_WR_RDMA_READ
                                              : IBV_WR_SEND;
    wr.wr.rdma.remote_addr = a.peer_addr;
    wr.wr.rdma.rkey = a.peer_rkey;
    const long signal_every = signal_interval(window, size);
    std::deque<long> signaled_upto;              // posted-count at each signaled request, oldest first
    long target = long(o.warmup) + o.iterations; // work requests to post (fixed-count mode)
    long posted = 0, completed = 0, measured_from = 0;
    const WrRecorder record(o, a.qp);
    const auto length = static_cast<std::uint32_t>(size);
    const auto opcode = static_cast<std::uint16_t>(wr.opcode);
    Usage u0 = Usage::take(), u1;
    double start = now_us(), end = start;
    bool started = false, stopped = false;
    warmup_begins();
    ibv_wc wcs[16];
    for (;;) {
        // The warm-up ends when its requests have completed (at once without one), before the next post.
        if (!started && completed >= o.warmup) {
            warmup_ends(posted); // each post is the doorbell's system call on rxe
            started = true;
            measured_from = completed;
            if (o.seconds <= 0) target = measured_from + o.iterations;
            u0 = Usage::take();
            start = now_us();
        }
        const bool stop_asked = o.feed && o.feed->stop_requested();
        const bool more = stop_asked      ? false
                          : o.seconds > 0 ? (!started || now_us() - start < o.seconds * 1e6)
                                          : posted < target;
        while (more && posted - completed < window && (o.seconds > 0 || posted < target)) {
            // Signal one request in `signal_every` (perftest's cq_mod): a completion stands for the
            // unsignaled requests before it, since an RC send queue completes in order.
            const bool last = o.seconds <= 0 && posted + 1 == target;
            wr.send_flags = ((posted + 1) % signal_every == 0 || last) ? IBV_SEND_SIGNALED : 0;
            wr.wr_id = static_cast<std::uint64_t>(posted) + 1;
            post_send(a.qp, wr);
            record(fast::RecordKind::Post, wr.wr_id, length, opcode);
            ++posted;
            if (wr.send_flags) signaled_upto.push_back(posted);
        }
        const int n = ibv_poll_cq(a.scq, 16, wcs);
        if (n < 0) throw RdmaError(explain_errno("ibv_poll_cq", -n));
        record(n == 0 ? fast::RecordKind::PollEmpty : fast::RecordKind::PollHit, 0, 0, 0,
               static_cast<std::uint32_t>(n));
        if (n == 0)
            stall.tick("a bandwidth completion");
        else
            stall.reset();
        for (int k = 0; k < n; ++k) {
            // A signaled completion retires the unsignaled requests posted before it.
            const long retired = signaled_upto.front() - completed;
            record(fast::RecordKind::Completion, wcs[k].wr_id, wcs[k].byte_len,
                   static_cast<std::uint16_t>(wcs[k].status), static_cast<std::uint32_t>(retired));
            if (wcs[k].status != IBV_WC_SUCCESS)
                throw RdmaError(explain_wc_status(wcs[k].status, "bandwidth"));
            completed = signaled_upto.front();
            signaled_upto.pop_front();
        }
        if (o.feed && started && n > 0) {
            const double t = now_us();
            o.feed->progress(completed - measured_from, (t - start) / 1e6, t);
        }
        // Fixed count: the clock stops when exactly `iterations` measured requests have completed.
        if (started && !stopped && o.seconds <= 0 && completed - measured_from >= o.iterations) {
            end = now_us();
            u1 = Usage::take();
            stopped = true;
        }
        // Done when every signaled request has completed (in timed mode a few unsignaled ones may still
        // be in flight; they are not counted and are flushed when the QP is destroyed).
        if (!more && signaled_upto.empty()) break;
    }
    if (!stopped) {
        end = now_us();
        u1 = Usage::take();
    }
    // Stopped in the warm-up (bench.stop): nothing was measured, whatever completed.
    const long measured = !started                      ? 0
                          : (o.seconds > 0 || !stopped) ? std::max(0L, completed - measured_from)
                                                        : o.iterations;
    if (!started) start = end;
    fill_bandwidth(r, measured, start, end, u0, u1);
    r.notes.push_back(signal_every == 1
                          ? fmt::format("window of {} outstanding work requests, every one signaled (as "
                                        "perftest above 8 KiB)",
                                        window)
                          : fmt::format("window of {} outstanding work requests, one in {} signaled", window,
                                        signal_every));
    return r;
}

} // namespace rdmalab::bench_detail
