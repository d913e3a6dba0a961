// The binary tier (rdmalab/format/binary_trace.hpp): records come out of a ring in the order they went in;
// a full ring drops and counts; records of several threads drained while they are written all arrive
// exactly once, in each thread's order, or are counted as dropped; ticks convert to the trace's clock; a
// measured loop's records fold into its pipeline (outstanding requests, doorbells, polls) in bounded buckets.
#include "rdmalab/format/binary_trace.hpp"
#include "rdmalab/format/pipeline.hpp"
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

    void aLoopsRecordsFoldIntoItsPipeline() {
        // A bandwidth loop's shape with a depth of 4, one in 2 signaled: four posts (one a list of two), an
        // empty poll, then a poll that retires two, another post, a poll that retires the rest. Ticks are
        // nanoseconds (the clock_monotonic calibration), 1 µs apart.
        Calibration ns;
        ns.source = "clock_monotonic";
        std::uint64_t t = 1'000'000;
        auto at = [&](RecordKind kind, std::uint32_t aux = 0, std::uint16_t code = 0) {
            Record r;
            r.ticks = (t += 1000);
            r.kind = kind;
            r.aux = aux;
            r.code = code;
            return r;
        };
        const std::vector<Record> records = {
            at(RecordKind::Post),          at(RecordKind::Post),
            at(RecordKind::PostList, 2),   at(RecordKind::PollEmpty),
            at(RecordKind::PollHit, 1),    at(RecordKind::Completion, 2),
            at(RecordKind::Post),          at(RecordKind::PollHit, 2),
            at(RecordKind::Completion, 2), at(RecordKind::Completion, 1, 12),
        };
        PipelineFolder folder(ns, 4, 2000);
        folder.set_depth(4, 2);
        folder.add(records);
        const PipelineSummary& s = folder.summary();
        QCOMPARE(s.records, std::uint64_t(10));
        QCOMPARE(s.total.posts, std::uint64_t(5));
        QCOMPARE(s.total.doorbells, std::uint64_t(4));
        QCOMPARE(s.total.completions, std::uint64_t(3));
        QCOMPARE(s.total.completed, std::uint64_t(5));
        QCOMPARE(s.total.polls_hit, std::uint64_t(2));
        QCOMPARE(s.total.polls_empty, std::uint64_t(1));
        QCOMPARE(s.total.outstanding_max, std::uint64_t(4));
        QCOMPARE(s.total.outstanding_end, std::uint64_t(0));
        QCOMPARE(s.completion_errors, std::uint64_t(1));
        // 9 µs of records in at most 4 buckets: the width doubled from 2 µs to 4 µs.
        QCOMPARE(s.span_ns, std::uint64_t(9000));
        QCOMPARE(s.bucket_ns, std::uint64_t(4000));
        QCOMPARE(s.buckets.size(), std::size_t(3));
        // [0, 4 µs): three post calls and the empty poll, four in flight at the end.
        QCOMPARE(s.buckets[0].posts, std::uint64_t(4));
        QCOMPARE(s.buckets[0].outstanding_end, std::uint64_t(4));
        QCOMPARE(s.buckets[0].polls_empty, std::uint64_t(1));
        // [4, 8 µs): a poll retires two, one more posted, three in flight at the end.
        QCOMPARE(s.buckets[1].completed, std::uint64_t(2));
        QCOMPARE(s.buckets[1].outstanding_max, std::uint64_t(4));
        QCOMPARE(s.buckets[1].outstanding_end, std::uint64_t(3));
        // [8, 12 µs): the last two completions retire the other three.
        QCOMPARE(s.buckets[2].completed, std::uint64_t(3));
        QCOMPARE(s.buckets[2].outstanding_end, std::uint64_t(0));
        const auto json = to_json(s);
        QCOMPARE(json["posts_per_doorbell"].get<double>(), 1.25);
        QCOMPARE(json["completions_per_poll"].get<double>(), 1.5);
        QCOMPARE(json["buckets"].size(), std::size_t(3));
    }
};

QTEST_GUILESS_MAIN(BinaryTraceTest)
#include "tst_binarytrace.moc"
