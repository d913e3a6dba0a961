#include "rdmalab/format/trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <utility>

namespace rdmalab {

namespace {
constexpr std::array<std::pair<EventKind, std::string_view>, 13> kKindNames{{
    {EventKind::Session, "session"},
    {EventKind::Step, "step"},
    {EventKind::Verb, "verb"},
    {EventKind::QpState, "qp_state"},
    {EventKind::PostWr, "post_wr"},
    {EventKind::Wc, "wc"},
    {EventKind::Async, "async"},
    {EventKind::Data, "data"},
    {EventKind::Check, "check"},
    {EventKind::Error, "error"},
    {EventKind::Result, "result"},
    {EventKind::Measure, "measure"},
    {EventKind::Packet, "packet"},
}};
} // namespace

std::string_view to_string(EventKind kind) {
    for (const auto& [k, name] : kKindNames)
        if (k == kind) return name;
    return "unknown";
}

std::optional<EventKind> event_kind_from_string(std::string_view text) {
    for (const auto& [k, name] : kKindNames)
        if (name == text) return k;
    return std::nullopt;
}

nlohmann::json to_json(const TraceEvent& event) {
    nlohmann::json j;
    j["v"] = kTraceFormatVersion;
    j["seq"] = event.seq;
    j["t_ns"] = event.t_ns;
    j["ep"] = std::string(1, static_cast<char>(event.endpoint));
    j["kind"] = std::string(to_string(event.kind));
    j["name"] = event.name;
    j["ids"] = event.ids.is_null() ? nlohmann::json::object() : event.ids;
    j["data"] = event.data.is_null() ? nlohmann::json::object() : event.data;
    return j;
}

std::string to_json_line(const TraceEvent& event) {
    // Replace invalid UTF-8 instead of throwing: buffer contents are user data.
    return to_json(event).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string TraceParseError::to_string() const {
    return fmt::format("line {}: field '{}': {}", line, field, message);
}

std::optional<TraceEvent> from_json(const nlohmann::json& j, TraceParseError& error) {
    auto fail = [&](std::string field, std::string message) -> std::optional<TraceEvent> {
        error.field = std::move(field);
        error.message = std::move(message);
        return std::nullopt;
    };
    if (!j.is_object()) return fail("(event)", "expected a JSON object");
    auto v = j.find("v");
    if (v == j.end() || !v->is_number_integer()) return fail("v", "missing or not an integer");
    // Compared as the 64-bit value it is: narrowing first would read 4294967297 as version 1.
    if (v->get<std::int64_t>() < kOldestTraceFormatVersion || v->get<std::int64_t>() > kTraceFormatVersion)
        return fail("v",
                    fmt::format("unsupported trace format version {} (this build reads versions {} to {})",
                                v->dump(), kOldestTraceFormatVersion, kTraceFormatVersion));
    TraceEvent event;
    auto seq = j.find("seq");
    if (seq == j.end() || !seq->is_number_unsigned())
        return fail("seq", "missing or not a non-negative integer");
    event.seq = seq->get<std::uint64_t>();
    auto t = j.find("t_ns");
    if (t == j.end() || !t->is_number_unsigned())
        return fail("t_ns", "missing or not a non-negative integer");
    event.t_ns = t->get<std::uint64_t>();
    auto ep = j.find("ep");
    if (ep == j.end() || !ep->is_string()) return fail("ep", "missing or not a string");
    const auto ep_text = ep->get<std::string>();
    if (ep_text == "A")
        event.endpoint = Endpoint::A;
    else if (ep_text == "B")
        event.endpoint = Endpoint::B;
    else if (ep_text == "C")
        event.endpoint = Endpoint::C;
    else if (ep_text == "D")
        event.endpoint = Endpoint::D;
    else if (ep_text == "-")
        event.endpoint = Endpoint::None;
    else
        return fail("ep", fmt::format("'{}' is not one of A, B, C, D, -", ep_text));
    auto kind = j.find("kind");
    if (kind == j.end() || !kind->is_string()) return fail("kind", "missing or not a string");
    auto parsed_kind = event_kind_from_string(kind->get<std::string>());
    if (!parsed_kind) return fail("kind", fmt::format("unknown kind '{}'", kind->get<std::string>()));
    event.kind = *parsed_kind;
    auto name = j.find("name");
    if (name == j.end() || !name->is_string()) return fail("name", "missing or not a string");
    event.name = name->get<std::string>();
    auto ids = j.find("ids");
    if (ids != j.end()) {
        if (!ids->is_object()) return fail("ids", "not an object");
        event.ids = *ids;
    }
    auto data = j.find("data");
    if (data != j.end()) {
        if (!data->is_object()) return fail("data", "not an object");
        event.data = *data;
    }
    return event;
}

int json_nesting_depth(std::string_view text) {
    int depth = 0, deepest = 0;
    bool in_string = false, escaped = false;
    for (const char ch : text) {
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (ch == '\\')
                escaped = true;
            else if (ch == '"')
                in_string = false;
        } else if (ch == '"') {
            in_string = true;
        } else if (ch == '[' || ch == '{') {
            deepest = std::max(deepest, ++depth);
        } else if (ch == ']' || ch == '}') {
            --depth;
        }
    }
    return deepest;
}

std::optional<TraceEvent> parse_json_line(std::string_view line, TraceParseError& error) {
    if (json_nesting_depth(line) > kMaxTraceNesting) {
        error.field = "(line)";
        error.message = fmt::format("nested deeper than {} levels; no trace event is", kMaxTraceNesting);
        return std::nullopt;
    }
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) {
        error.field = "(line)";
        error.message = "not valid JSON";
        return std::nullopt;
    }
    return from_json(j, error);
}

void MemorySink::write(const TraceEvent& event) {
    std::lock_guard lock(mutex_);
    events_.push_back(event);
}

std::vector<TraceEvent> MemorySink::events() const {
    std::lock_guard lock(mutex_);
    return events_;
}

void MemorySink::clear() {
    std::lock_guard lock(mutex_);
    events_.clear();
}

JsonLinesSink::JsonLinesSink(std::FILE* stream, bool flush_each_line)
    : stream_(stream), owns_stream_(false), flush_each_line_(flush_each_line) {}

JsonLinesSink::JsonLinesSink(const std::string& path)
    : stream_(std::fopen(path.c_str(), "w")), owns_stream_(true), flush_each_line_(false) {
    if (stream_ == nullptr)
        throw std::runtime_error(
            fmt::format("cannot open trace file '{}' for writing: {}", path, std::strerror(errno)));
}

JsonLinesSink::~JsonLinesSink() {
    finish();
}

void JsonLinesSink::note_failure() {
    if (error_ == 0) error_ = errno != 0 ? errno : EIO;
}

void JsonLinesSink::write(const TraceEvent& event) {
    std::string line = to_json_line(event);
    line.push_back('\n');
    std::lock_guard lock(mutex_);
    if (stream_ == nullptr) return;
    errno = 0;
    if (std::fwrite(line.data(), 1, line.size(), stream_) != line.size()) note_failure();
    if (flush_each_line_ && std::fflush(stream_) != 0) note_failure();
}

void JsonLinesSink::flush() {
    std::lock_guard lock(mutex_);
    errno = 0;
    if (stream_ != nullptr && std::fflush(stream_) != 0) note_failure();
}

int JsonLinesSink::error() const {
    std::lock_guard lock(mutex_);
    return error_;
}

int JsonLinesSink::finish() {
    std::lock_guard lock(mutex_);
    if (stream_ == nullptr) return error_;
    errno = 0;
    if (std::fflush(stream_) != 0) note_failure();
    if (owns_stream_) {
        errno = 0;
        if (std::fclose(stream_) != 0) note_failure();
        stream_ = nullptr;
    }
    return error_;
}

std::uint64_t monotonic_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ULL + static_cast<std::uint64_t>(ts.tv_nsec);
}

void Tracer::add_sink(std::shared_ptr<TraceSink> sink) {
    std::lock_guard lock(mutex_);
    sinks_.push_back(std::move(sink));
}

std::uint64_t Tracer::record(TraceEvent event) {
    if (!enabled()) return 0;
    std::lock_guard lock(mutex_);
    event.seq = next_seq_++;
    event.t_ns = monotonic_ns();
    for (auto& sink : sinks_)
        sink->write(event);
    return event.seq;
}

std::uint64_t Tracer::record(Endpoint endpoint, EventKind kind, std::string name, nlohmann::json ids,
                             nlohmann::json data) {
    if (!enabled()) return 0;
    TraceEvent event;
    event.endpoint = endpoint;
    event.kind = kind;
    event.name = std::move(name);
    event.ids = ids.is_null() ? nlohmann::json::object() : std::move(ids);
    event.data = data.is_null() ? nlohmann::json::object() : std::move(data);
    return record(std::move(event));
}

void Tracer::flush() {
    std::lock_guard lock(mutex_);
    for (auto& sink : sinks_)
        sink->flush();
}

} // namespace rdmalab
