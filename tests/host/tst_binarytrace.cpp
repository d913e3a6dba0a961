// The binary tier (rdmalab/format/binary_trace.hpp): records come out of a ring in the order they went in;
// a full ring drops and counts; records of several threads drained while they are written all arrive
// exactly once, in each thread's order, or are counted as dropped; ticks convert to the trace's clock.
#include "rdmalab/format/binary_trace.hpp"
#include "rdmalab/format/trace.hpp"

#include <QtTest>

#include <map>
#include <thread>
#include <vector>

using namespace rdmalab::fast;

class BinaryTraceTest : public QObject {
    Q_OBJECT
  private slots:
    void aRingGivesBackWhatWentInInOrder() {
        Ring ring(8);
        for (std::uint64_t i = 1; i <= 5; ++i)
            QVERIFY(ring.push(Record{.ticks = i * 10, .wr_id = i, .qpn = 17, .length = 64}));
        std::vector<Record> out;
        QCOMPARE(ring.drain(out), std::size_t{5});
        QCOMPARE(out.size(), std::size_t{5});
        for (std::uint64_t i = 0; i < 5; ++i) {
            QCOMPARE(out[i].wr_id, i + 1);
            QCOMPARE(out[i].ticks, (i + 1) * 10);
            QCOMPARE(out[i].qpn, 17U);
        }
        QCOMPARE(ring.drain(out), std::size_t{0});
    }

    void aFullRingDropsAndCounts() {
        Ring ring(8);
        int accepted = 0;
        for (std::uint64_t i = 0; i < 10; ++i)
            accepted += ring.push(Record{.wr_id = i}) ? 1 : 0;
        QCOMPARE(accepted, 8);
        QCOMPARE(ring.overruns(), std::uint64_t{2});
        std::vector<Record> out;
        QCOMPARE(ring.drain(out), std::size_t{8});
        QCOMPARE(out.back().wr_id, std::uint64_t{7}); // the first eight were kept, the last two dropped
        QVERIFY(ring.push(Record{.wr_id = 99}));      // room again once drained
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Ring(6));
    }

    void recordsOfManyThreadsArriveOnceInEachThreadsOrder() {
        constexpr int kThreads = 4;
        constexpr std::uint64_t kEach = 200000;
        BinaryTracer tracer(1 << 12); // small rings, so that some records may be dropped while draining
        std::mutex mutex;
        std::map<std::uint32_t, std::uint64_t> last; // per thread (qpn): the last wr_id seen
        std::map<std::uint32_t, std::uint64_t> seen;
        bool ordered = true;
        tracer.start([&](std::span<const Record> batch) {
            const std::lock_guard lock(mutex);
            for (const Record& r : batch) {
                ordered = ordered && (seen[r.qpn] == 0 || r.wr_id > last[r.qpn]);
                last[r.qpn] = r.wr_id;
                ++seen[r.qpn];
            }
        });
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t)
            threads.emplace_back([&tracer, t] {
                Ring& ring = tracer.ring();
                for (std::uint64_t i = 1; i <= kEach; ++i)
                    ring.push(
                        Record{.ticks = Clock::now(), .wr_id = i, .qpn = static_cast<std::uint32_t>(t)});
            });
        for (auto& th : threads)
            th.join();
        tracer.stop();
        std::uint64_t total = 0;
        for (const auto& [qpn, count] : seen)
            total += count;
        QVERIFY(ordered);
        QCOMPARE(static_cast<int>(seen.size()), kThreads);
        QCOMPARE(total + tracer.overruns(), kThreads * kEach);
    }

    void ticksBecomeNanosecondsOfTheTracesClock() {
        const Calibration c = Clock::calibrate(20);
        QVERIFY(c.source == "tsc" || c.source == "clock_monotonic");
        QVERIFY(c.ns_per_tick > 0);
        const std::uint64_t before = rdmalab::monotonic_ns();
        const std::uint64_t ticks = Clock::now();
        const std::uint64_t after = rdmalab::monotonic_ns();
        const std::uint64_t ns = c.to_ns(ticks);
        // The conversion lands between the two readings of the trace's clock, give or take 100 µs.
        QVERIFY2(ns + 100'000 >= before && ns <= after + 100'000,
                 qPrintable(QString("%1 not within [%2, %3]").arg(ns).arg(before).arg(after)));
    }
};

QTEST_GUILESS_MAIN(BinaryTraceTest)
#include "tst_binarytrace.moc"
