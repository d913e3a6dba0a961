// Cost of recording trace events: ns per event with tracing off, into memory, as JSON Lines to a file, and
// in the binary tier (a 32-byte record into this thread's ring, drained by another thread; median of 5).
// With a device (run it in the SoftRoCE test bed), also ns per RDMA WRITE (post + poll) with tracing on vs
// off.
#include "rdmalab/engine/device.hpp"
#include "rdmalab/engine/verbs.hpp"
#include "rdmalab/format/binary_trace.hpp"
#include "rdmalab/format/trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace rdmalab;

namespace {

double ns_per_event(Tracer& tracer, int count) {
    const auto start = monotonic_ns();
    // The engine's call sites build an event only when the tracer is on; so does this loop.
    for (int i = 0; i < count; ++i)
        if (tracer.enabled())
            tracer.record(Endpoint::A, EventKind::PostWr, "RDMA_WRITE",
                          {{"qpn", 17}, {"wr_id", i}, {"rkey", 0x1234}},
                          {{"verb", "ibv_post_send"}, {"length", 64}, {"signaled", true}, {"ret", 0}});
    return double(monotonic_ns() - start) / count;
}

double ns_per_write(bool tracing, int count) {
    auto tracer = std::make_shared<Tracer>();
    auto file = std::make_shared<JsonLinesSink>("/dev/null");
    tracer->add_sink(file);
    tracer->set_enabled(false); // setup is not what we measure
    auto ctx = Context::open("", tracer);
    const int gid_index = ctx->rocev2_gid_index(1);
    const ibv_gid gid = ctx->query_gid(1, gid_index);
    auto pd = ProtectionDomain::alloc(ctx, Endpoint::A);
    auto cq_a = CompletionQueue::create(ctx, Endpoint::A, 64);
    auto cq_b = CompletionQueue::create(ctx, Endpoint::B, 64);
    auto qp_a = QueuePair::create(pd, cq_a, cq_a, IBV_QPT_RC);
    auto qp_b = QueuePair::create(pd, cq_b, cq_b, IBV_QPT_RC);
    auto src = MemoryRegion::allocate(pd, 64, IBV_ACCESS_LOCAL_WRITE);
    auto dst = MemoryRegion::allocate(pd, 64, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
    PathInfo path;
    path.remote_gid = gid;
    path.sgid_index = gid_index;
    connect_pair(*qp_a, *qp_b, 1, IBV_ACCESS_REMOTE_WRITE, path, {});
    SendRequest wr;
    wr.opcode = IBV_WR_RDMA_WRITE;
    wr.sges = {{src->address(), 64, src->lkey()}};
    wr.remote_addr = dst->address();
    wr.rkey = dst->rkey();
    tracer->set_enabled(tracing);
    const auto start = monotonic_ns();
    for (int i = 0; i < count; ++i) {
        wr.wr_id = static_cast<std::uint64_t>(i);
        qp_a->post_send(wr);
        while (cq_a->poll(1).empty()) {
        }
    }
    return double(monotonic_ns() - start) / count;
}

/// ns per record pushed into a ring while the drainer empties it. The ring holds every record of the run
/// (2 Mi slots, 64 MiB), so a drainer starved of CPU on a busy machine cannot make records drop, which
/// would flatter the figure (a dropped push only counts); the drops are reported beside it all the same.
double ns_per_binary_event(int count, std::uint64_t& dropped) {
    fast::BinaryTracer tracer(std::size_t{1} << 21);
    std::uint64_t drained = 0;
    tracer.start([&](std::span<const fast::Record> batch) { drained += batch.size(); });
    fast::Ring& ring = tracer.ring();
    const auto start = monotonic_ns();
    for (int i = 0; i < count; ++i)
        ring.push(fast::Record{.ticks = fast::Clock::now(),
                               .wr_id = static_cast<std::uint64_t>(i),
                               .qpn = 17,
                               .length = 64,
                               .kind = fast::RecordKind::Post,
                               .code = 0});
    const double ns = double(monotonic_ns() - start) / count;
    tracer.stop();
    dropped = tracer.overruns();
    return ns;
}

} // namespace

int main(int argc, char** argv) {
    const int events = argc > 1 ? std::atoi(argv[1]) : 200000;
    Tracer off;
    off.add_sink(std::make_shared<MemorySink>());
    off.set_enabled(false);
    Tracer memory;
    memory.add_sink(std::make_shared<MemorySink>());
    Tracer file;
    file.add_sink(std::make_shared<JsonLinesSink>("/dev/null"));
    std::printf("trace cost per event (%d events, one post_wr event each)\n", events);
    std::printf("  tracing off            %8.1f ns/event\n", ns_per_event(off, events));
    std::printf("  in-memory sink         %8.1f ns/event\n", ns_per_event(memory, events));
    std::printf("  JSON Lines to a file   %8.1f ns/event\n", ns_per_event(file, events));
    std::vector<double> runs;
    std::uint64_t dropped = 0, dropped_total = 0;
    for (int run = 0; run < 5; ++run) {
        runs.push_back(ns_per_binary_event(std::min(events * 10, 2'000'000), dropped));
        dropped_total += dropped;
    }
    std::sort(runs.begin(), runs.end());
    const auto calibration = fast::Clock::calibrate();
    std::printf(
        "  binary tier (ring)     %8.1f ns/event   (median of 5 runs of %d; min %.1f, max %.1f; clock %s; "
        "%llu dropped by full rings)\n",
        runs[2], events * 10, runs.front(), runs.back(), calibration.source.c_str(),
        static_cast<unsigned long long>(dropped_total));
    if (list_devices().empty()) {
        std::printf(
            "no RDMA device: skipping the per-operation comparison (run in tests/softroce/vm-run.sh)\n");
        return 0;
    }
    const auto device = list_devices().front();
    const int writes = 20000;
    ns_per_write(false, 1000); // warm-up
    const double traced = ns_per_write(true, writes);
    const double untraced = ns_per_write(false, writes);
    std::printf("RDMA WRITE 64 B, post + busy-poll, %d iterations on %s%s\n", writes, device.name.c_str(),
                device.software ? " (SoftRoCE: software, not hardware numbers)" : "");
    std::printf("  tracing off            %8.1f ns/op\n", untraced);
    std::printf("  tracing on (3 events)  %8.1f ns/op   (+%.1f ns/op)\n", traced, traced - untraced);
    return 0;
}
