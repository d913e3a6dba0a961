// Trace serialization: round trip, error positions, sinks.
#include "testutil.hpp"

#include "rdmalab/format/describe.hpp"
#include "rdmalab/format/measurement.hpp"
#include "rdmalab/format/trace.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace rdmalab;

class TraceTest : public QObject {
    Q_OBJECT
  private slots:
    void roundTripKeepsEveryField() {
        TraceEvent e;
        e.seq = 42;
        e.t_ns = 123456789012ULL;
        e.endpoint = Endpoint::B;
        e.kind = EventKind::Wc;
        e.name = "IBV_WC_SUCCESS";
        e.ids = {{"qpn", 17}, {"cq", 3}, {"wr_id", 1}};
        e.data = {{"opcode", "RECV"}, {"byte_len", 64}, {"imm_data", 0x1234abcd}};
        const std::string line = to_json_line(e);
        QVERIFY(line.find('\n') == std::string::npos);
        TraceParseError error;
        auto parsed = parse_json_line(line, error);
        QVERIFY2(parsed.has_value(), error.to_string().c_str());
        QCOMPARE(parsed->seq, e.seq);
        QCOMPARE(parsed->t_ns, e.t_ns);
        QCOMPARE(parsed->endpoint, Endpoint::B);
        QCOMPARE(parsed->kind, EventKind::Wc);
        QCOMPARE(parsed->name, e.name);
        QCOMPARE(parsed->ids, e.ids);
        QCOMPARE(parsed->data, e.data);
    }

    void everyKindRoundTrips() {
        for (auto kind : {EventKind::Session, EventKind::Step, EventKind::Verb, EventKind::QpState,
                          EventKind::PostWr, EventKind::Wc, EventKind::Async, EventKind::Data,
                          EventKind::Check, EventKind::Error, EventKind::Result, EventKind::Measure}) {
            const auto text = to_string(kind);
            QVERIFY2(text != "unknown", "kind without a name");
            QCOMPARE(event_kind_from_string(text), std::optional<EventKind>(kind));
        }
    }

    void parseErrorsNameTheField() {
        TraceParseError error;
        QVERIFY(!parse_json_line("{not json", error));
        QCOMPARE(error.field, std::string("(line)"));
        QVERIFY(!parse_json_line(R"({"v":1,"seq":1,"t_ns":5,"ep":"E","kind":"verb","name":"x"})", error));
        QCOMPARE(error.field, std::string("ep"));
        QCOMPARE(error.message, std::string("'E' is not one of A, B, C, D, -"));
        // C and D are a lab's further endpoints (docs/trace-format.md).
        const auto c =
            parse_json_line(R"({"v":1,"seq":1,"t_ns":5,"ep":"C","kind":"verb","name":"x"})", error);
        QVERIFY(c && c->endpoint == Endpoint::C);
        QCOMPARE(to_json_line(*c).find(R"("ep":"C")") != std::string::npos, true);
        const auto d =
            parse_json_line(R"({"v":1,"seq":1,"t_ns":5,"ep":"D","kind":"verb","name":"x"})", error);
        QVERIFY(d && d->endpoint == Endpoint::D);
        QVERIFY(!parse_json_line(R"({"v":1,"seq":1,"t_ns":5,"ep":"A","kind":"nope","name":"x"})", error));
        QCOMPARE(error.field, std::string("kind"));
        QVERIFY(error.message.find("nope") != std::string::npos);
        QVERIFY(!parse_json_line(R"({"v":3,"seq":1,"t_ns":5,"ep":"A","kind":"verb","name":"x"})", error));
        QCOMPARE(error.field, std::string("v"));
        // 2^32 + 1 is not version 1, however an int would truncate it.
        QVERIFY(!parse_json_line(R"({"v":4294967297,"seq":1,"t_ns":5,"ep":"A","kind":"verb","name":"x"})",
                                 error));
        QCOMPARE(error.field, std::string("v"));
        QVERIFY(error.message.find("4294967297") != std::string::npos);
        QVERIFY(!parse_json_line(
            R"({"v":18446744073709551617,"seq":1,"t_ns":5,"ep":"A","kind":"verb","name":"x"})", error));
        QCOMPARE(error.field, std::string("v"));
        QVERIFY(!parse_json_line(R"({"v":1,"seq":-1,"t_ns":5,"ep":"A","kind":"verb","name":"x"})", error));
        QCOMPARE(error.field, std::string("seq"));
        QVERIFY(!parse_json_line(R"({"v":1,"seq":1,"t_ns":5,"ep":"A","kind":"verb","name":"x","data":[]})",
                                 error));
        QCOMPARE(error.field, std::string("data"));
        error.line = 7;
        QCOMPARE(error.to_string().rfind("line 7: field 'data'", 0), 0u);
    }

    void aDeeplyNestedLineIsRefusedBeforeParsing() {
        const std::string head =
            "{\"v\":1,\"seq\":1,\"t_ns\":5,\"ep\":\"A\",\"kind\":\"verb\",\"name\":\"x\",";
        const std::string deep =
            head + "\"data\":{\"a\":" + std::string(100000, '[') + std::string(100000, ']') + "}}";
        TraceParseError error;
        QVERIFY(!parse_json_line(deep, error));
        QCOMPARE(error.field, std::string("(line)"));
        QVERIFY(error.message.find("nested deeper than 32 levels") != std::string::npos);
        // Brackets inside strings are text, not nesting. (No raw strings here: moc misreads these.)
        const std::string text = head + "\"data\":{\"s\":\"" + std::string(1000, '[') + "\\\"]\"}}";
        QVERIFY2(parse_json_line(text, error).has_value(), error.message.c_str());
        QCOMPARE(json_nesting_depth("{\"a\":[{\"b\":[]}],\"c\":\"[[[\"}"), 4);
    }

    void tracerNumbersEventsInOrder() {
        auto sink = std::make_shared<MemorySink>();
        Tracer tracer;
        tracer.add_sink(sink);
        tracer.record(Endpoint::A, EventKind::Verb, "ibv_alloc_pd");
        tracer.record(Endpoint::B, EventKind::Verb, "ibv_alloc_pd");
        const auto events = sink->events();
        QCOMPARE(events.size(), 2u);
        QCOMPARE(events[0].seq, 1u);
        QCOMPARE(events[1].seq, 2u);
        QVERIFY(events[1].t_ns >= events[0].t_ns);
        tracer.set_enabled(false);
        QCOMPARE(tracer.record(Endpoint::A, EventKind::Verb, "x"), 0u);
        QCOMPARE(sink->events().size(), 2u);
    }

    void jsonLinesFileIsReadableLineByLine() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.jsonl").toStdString();
        {
            Tracer tracer;
            tracer.add_sink(std::make_shared<JsonLinesSink>(path));
            tracer.record(Endpoint::A, EventKind::Data, "memory", {}, {{"text", "caf\xc3\xa9 \xff"}});
            tracer.record(Endpoint::None, EventKind::Check, "verified", {}, {{"ok", true}});
            tracer.flush();
        }
        std::ifstream in(path);
        std::string line;
        int count = 0;
        while (std::getline(in, line)) {
            TraceParseError error;
            QVERIFY2(parse_json_line(line, error).has_value(), error.to_string().c_str());
            ++count;
        }
        QCOMPARE(count, 2);
    }

    void unwritableTraceFileIsAClearError() {
        try {
            JsonLinesSink sink("/nonexistent-dir/trace.jsonl");
            QFAIL("expected an exception");
        } catch (const std::runtime_error& e) {
            const std::string what = e.what();
            QVERIFY(what.find("/nonexistent-dir/trace.jsonl") != std::string::npos);
            QVERIFY(what.find("No such file") != std::string::npos);
        }
    }

    void aTraceToAFullDiskReportsTheError() {
        JsonLinesSink sink("/dev/full"); // opens fine; every write fails with ENOSPC
        TraceEvent e;
        e.kind = EventKind::Check;
        e.name = "n";
        sink.write(e); // buffered: the failure shows when the buffer is written
        QCOMPARE(sink.error(), 0);
        QCOMPARE(sink.finish(), ENOSPC);
        QCOMPARE(sink.error(), ENOSPC);
        sink.write(e); // after finish: ignored, the first error stays
        QCOMPARE(sink.finish(), ENOSPC);
    }

    void aLiveStreamReportsAFailedLineAtOnce() {
        std::FILE* full = std::fopen("/dev/full", "w");
        QVERIFY(full != nullptr);
        {
            JsonLinesSink sink(full, true);
            TraceEvent e;
            e.kind = EventKind::Check;
            e.name = "n";
            sink.write(e);
            QCOMPARE(sink.error(), ENOSPC);
        }
        std::fclose(full);
    }

    void describeRendersVerbCalls() {
        TraceEvent e;
        e.endpoint = Endpoint::A;
        e.kind = EventKind::Verb;
        e.name = "ibv_reg_mr";
        e.ids = {{"lkey", 0x1234}, {"rkey", 0x1234}};
        e.data = {{"args", {{"length", 64}, {"access", {"LOCAL_WRITE", "REMOTE_WRITE"}}}}, {"ret", 0}};
        const auto text = describe(e);
        QVERIFY2(text == std::string(
                             "[A] ibv_reg_mr(access=LOCAL_WRITE|REMOTE_WRITE, length=64) -> ok  lkey=0x1234  "
                             "rkey=0x1234"),
                 text.c_str());
    }

    void describeShowsTheSystemCallsOfAPost() {
        TraceEvent e;
        e.endpoint = Endpoint::A;
        e.kind = EventKind::PostWr;
        e.name = "RDMA_WRITE";
        e.ids = {{"wr_id", 1}};
        e.data = {{"verb", "ibv_post_send"}, {"length", 64}, {"ret", 0}, {"syscalls", 1}};
        auto text = describe(e);
        QVERIFY2(text == "[A] ibv_post_send RDMA_WRITE length=64 -> ok syscalls=1  wr_id=1", text.c_str());
        e.data.erase("syscalls");
        e.data["syscalls_why"] = "perf_event_open: not permitted";
        text = describe(e);
        QVERIFY2(text == "[A] ibv_post_send RDMA_WRITE length=64 -> ok  wr_id=1", text.c_str());
    }

    void measurementKindsAreOneTable() {
        const auto kinds = measurement_kinds();
        QCOMPARE(kinds.size(), std::size_t{9});
        for (const auto& k : kinds) {
            QCOMPARE(to_string(k.kind), k.name);
            QVERIFY(bench_kind_from_string(k.name) == k.kind);
            QCOMPARE(find_measurement_kind(k.name), &k);
            QVERIFY2(!k.reference.empty() && !k.title.empty(), std::string(k.name).c_str());
            QVERIFY2(!k.full_round_trip || k.latency, "only a latency is a round trip");
        }
        QVERIFY(!bench_kind_from_string("write_latency"));
        QVERIFY(find_measurement_kind("") == nullptr);
        // What the figures mean: READ and atomics are timed one whole operation at a time, SEND/WRITE
        // and TCP ping-pong halved; tcp_* use kernel sockets.
        QVERIFY(measurement_kind(BenchKind::ReadLat).full_round_trip);
        QVERIFY(measurement_kind(BenchKind::AtomicLat).full_round_trip);
        QVERIFY(!measurement_kind(BenchKind::WriteLat).full_round_trip);
        QVERIFY(!measurement_kind(BenchKind::TcpLat).full_round_trip);
        QVERIFY(is_tcp(BenchKind::TcpBw) && is_tcp(BenchKind::TcpLat) && !is_tcp(BenchKind::SendLat));
        QVERIFY(is_latency(BenchKind::AtomicLat) && !is_latency(BenchKind::SendBw));
        QCOMPARE(measurement_kind(BenchKind::WriteBw).reference, std::string_view("ib_write_bw"));
        // The compile-time names (the lab language's `bench` kinds) are the table's, in its order.
        QCOMPARE(kMeasurementKindNames.size(), kinds.size());
        for (std::size_t i = 0; i < kinds.size(); ++i)
            QCOMPARE(kMeasurementKindNames[i], kinds[i].name);
        QVERIFY(bench_kind_names() ==
                std::vector<std::string_view>(kMeasurementKindNames.begin(), kMeasurementKindNames.end()));
    }
};

QTEST_GUILESS_MAIN(TraceTest)
#include "tst_trace.moc"
