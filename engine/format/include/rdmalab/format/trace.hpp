// Trace events: every verbs call, QP state change, work request, completion and async event the
// engine performs or observes. The JSON Lines form is documented in docs/trace-format.md.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdmalab {

/// Version of the JSON Lines trace format ("v" field of every event). 2 added the `packet` kind; a reader
/// of version 2 reads version 1 as it is.
inline constexpr int kTraceFormatVersion = 2;
/// The oldest version this build reads.
inline constexpr int kOldestTraceFormatVersion = 1;

/// Version of the engine-process protocol (`rdmalab-cli serve --stdio`, docs/trace-format.md): the
/// commands, their fields and their results. `hello` announces it and refuses an app that names another
/// one; the app (EngineClient) refuses an engine that announces another one or none. Raise it whenever
/// an app and an engine of the old and the new number would misunderstand each other.
/// 2: lab.start takes a lab id or the lab's text, never a path (the engine opens no file a command names).
inline constexpr int kProtocolVersion = 2;

/// Which side of a connection an event belongs to: A (requester), B (responder) or neither. C and D are
/// further endpoints of a lab (docs/lab-format.md, "Objects"): a third or fourth party, e.g. the second
/// receiver of a multicast group or an attacker guessing keys.
enum class Endpoint : char { A = 'A', B = 'B', C = 'C', D = 'D', None = '-' };

/// Category of a trace event; the string form is the "kind" field.
enum class EventKind {
    Session, ///< header: format version, tool, host, device, start time
    Step,    ///< a named step of an operation begins (narration for front ends)
    Verb,    ///< one verbs / rdma_cm call with its arguments and result
    QpState, ///< a QP state transition with the attributes and mask it set
    PostWr,  ///< a work request handed to the send or receive queue
    Wc,      ///< a work completion polled from a CQ
    Async,   ///< an asynchronous event (ibv_get_async_event)
    Data,    ///< a memory observation: bytes of a buffer before/after an operation
    Check,   ///< a verification result (data moved, expected status observed)
    Error,   ///< a failure with verb, errno/status, meaning, cause and fix
    Result,  ///< a command result in the engine-process protocol
    Measure, ///< live measurement figures (bench.begin, bench.samples, bench.progress, bench.result,
             ///< bench.done)
    Packet,  ///< a packet captured on the wire, decoded (roce.hpp), or the capture's own start and end
};

std::string_view to_string(EventKind kind);
std::optional<EventKind> event_kind_from_string(std::string_view text);

/// One trace event. `ids` holds object identifiers (qpn, lkey, rkey, cq, wr_id, ...) so front ends
/// can link events to objects; `data` holds everything else.
struct TraceEvent {
    std::uint64_t seq = 0;
    std::uint64_t t_ns = 0; ///< CLOCK_MONOTONIC nanoseconds
    Endpoint endpoint = Endpoint::None;
    EventKind kind = EventKind::Verb;
    std::string name; ///< verb name, transition name, opcode, status, step id ...
    nlohmann::json ids = nlohmann::json::object();
    nlohmann::json data = nlohmann::json::object();
};

/// Serializes one event as a single JSON line (no trailing newline).
std::string to_json_line(const TraceEvent& event);
nlohmann::json to_json(const TraceEvent& event);

/// Parse error with the 1-based line number and the offending field, for bad trace files.
struct TraceParseError {
    std::size_t line = 0;
    std::string field;
    std::string message;
    std::string to_string() const;
};

/// How deeply arrays and objects nest in a JSON text (strings skipped). Counted before parsing, so a
/// hostile line cannot make the parsed value, its copies or its rendering recurse deeply.
int json_nesting_depth(std::string_view text);

/// Deepest nesting a trace event may have (real events nest 4 levels or fewer, a packet's field tree 8).
inline constexpr int kMaxTraceNesting = 32;

/// Parses one JSON line into an event; on failure fills `error` (line is set by the caller's count).
/// A line nested deeper than kMaxTraceNesting is refused unparsed.
std::optional<TraceEvent> parse_json_line(std::string_view line, TraceParseError& error);
std::optional<TraceEvent> from_json(const nlohmann::json& object, TraceParseError& error);

/// Receives events. Implementations must be cheap: they run on the verbs path.
class TraceSink {
  public:
    virtual ~TraceSink() = default;
    virtual void write(const TraceEvent& event) = 0;
    virtual void flush() {}
};

/// Keeps every event in memory (thread-safe).
class MemorySink final : public TraceSink {
  public:
    void write(const TraceEvent& event) override;
    std::vector<TraceEvent> events() const;
    void clear();

  private:
    mutable std::mutex mutex_;
    std::vector<TraceEvent> events_;
};

/// Writes JSON Lines to a stdio stream; optionally flushes after each line (for live streams).
/// A failed write, flush or close (a full disk, /dev/full, a closed pipe) is remembered, never ignored:
/// callers check error() or finish() and tell the user that the trace is incomplete.
class JsonLinesSink final : public TraceSink {
  public:
    JsonLinesSink(std::FILE* stream, bool flush_each_line);
    /// Opens `path` for writing; throws std::runtime_error naming the path and errno on failure.
    explicit JsonLinesSink(const std::string& path);
    ~JsonLinesSink() override;
    JsonLinesSink(const JsonLinesSink&) = delete;
    JsonLinesSink& operator=(const JsonLinesSink&) = delete;
    void write(const TraceEvent& event) override;
    void flush() override;
    /// errno of the first failed write, flush or close; 0 while everything was written.
    int error() const;
    /// Flushes, closes the file if this sink opened it, and returns error().
    int finish();

  private:
    void note_failure(); ///< keeps the first errno (caller holds mutex_)

    std::FILE* stream_;
    bool owns_stream_;
    bool flush_each_line_;
    int error_ = 0;
    mutable std::mutex mutex_;
};

/// Calls a function for each event (used by front ends that render events as text).
class CallbackSink final : public TraceSink {
  public:
    explicit CallbackSink(std::function<void(const TraceEvent&)> callback) : callback_(std::move(callback)) {}
    void write(const TraceEvent& event) override { callback_(event); }

  private:
    std::function<void(const TraceEvent&)> callback_;
};

/// Monotonic clock in nanoseconds (CLOCK_MONOTONIC), the trace's time base.
std::uint64_t monotonic_ns();

/// Numbers events and fans them out to sinks. When disabled, record() costs one branch.
class Tracer {
  public:
    void add_sink(std::shared_ptr<TraceSink> sink);
    void set_enabled(bool enabled) { enabled_ = enabled; }
    bool enabled() const { return enabled_ && !sinks_.empty(); }

    /// Stamps seq and time and hands the event to every sink. Returns the sequence number (0 if off).
    std::uint64_t record(TraceEvent event);
    std::uint64_t record(Endpoint endpoint, EventKind kind, std::string name, nlohmann::json ids = {},
                         nlohmann::json data = {});
    void flush();

  private:
    std::vector<std::shared_ptr<TraceSink>> sinks_;
    bool enabled_ = true;
    std::uint64_t next_seq_ = 1;
    std::mutex mutex_;
};

} // namespace rdmalab
