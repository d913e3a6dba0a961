// The traced-call pattern of the engine (internal): call a verb, capture its errno, time it, record the
// event that shows it, and on failure record an `error` event and throw the explained RdmaError. Every
// verbs class (and the rdma_cm operations) goes through these helpers, so the events of all calls have
// one shape: `ret` (and `errno` for verbs that return a pointer), `dur_ns` for timed calls, `verb` when
// the event is named after what the call does (a QP transition, a posted work request), and `syscalls`
// (or `syscalls_why`) for a call made while a SyscallMeter is attached.
#pragma once

#include "rdmalab/engine/errors.hpp"
#include "rdmalab/engine/syscount.hpp"
#include "rdmalab/engine/verbs.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace rdmalab::detail {

/// Records `info` as an `error` event of `scope` and throws it.
[[noreturn]] inline void fail(const TraceScope& scope, ErrorInfo info) {
    if (scope.on()) scope.record(EventKind::Error, info.verb, {}, info.to_json());
    throw RdmaError(std::move(info));
}

/// An address or 64-bit value as trace events show it ("0x7f...").
inline nlohmann::json hex(std::uint64_t value) {
    return fmt::format("0x{:x}", value);
}

/// What a traced call returned, for the callbacks that describe it and explain its failure.
template <typename R> struct CallOutcome {
    R value{};                ///< the verb's return value: a pointer, or an int status
    int err = 0;              ///< errno right after the call
    std::uint64_t dur_ns = 0; ///< the call's duration (timed calls only)

    /// Success: a non-null pointer, or status 0.
    bool ok() const {
        if constexpr (std::is_pointer_v<R>)
            return value != nullptr;
        else
            return value == 0;
    }
};

/// How one call is traced.
struct VerbCall {
    const TraceScope& scope;
    const char* verb;                 ///< "ibv_alloc_pd"
    bool timed = false;               ///< the event carries `dur_ns`
    EventKind kind = EventKind::Verb; ///< QpState or PostWr for a call shown as what it does
    std::string_view event = {};      ///< the event's name when it is not the verb's (then data has "verb")
    const SyscallMeter* syscalls = nullptr; ///< counts the call's system calls into the event
    SyscallTally* tally = nullptr;          ///< receives what `syscalls` counted (for the caller)
    std::uint64_t* duration = nullptr;      ///< receives the call's duration (timed calls), traced or not
};

/// The system calls a tally holds, as an event's data shows them: `syscalls`, or `syscalls_why` when
/// the number is not known.
inline void syscall_fields(const SyscallTally& tally, nlohmann::json& data) {
    if (!tally.why.empty())
        data["syscalls_why"] = tally.why;
    else if (tally.uncounted > 0)
        data["syscalls_why"] = fmt::format("{} of the {} calls this event shows ran without the counter",
                                           tally.uncounted, tally.uncounted + tally.counted);
    else
        data["syscalls"] = tally.count;
}

/// Calls `call` (a verb returning a pointer or an int status), records the event of `how` with the
/// standard fields, lets `fields(outcome, ids, data)` add its own (it may override the standard ones),
/// and on failure fails with `explain(outcome)`. Returns what the verb returned.
template <typename Call, typename Fields, typename Explain>
auto traced_call(const VerbCall& how, Call&& call, Fields&& fields, Explain&& explain) {
    using R = std::invoke_result_t<Call&>;
    CallOutcome<R> outcome;
    SyscallTally syscalls;
    const auto start = how.timed ? monotonic_ns() : 0;
    outcome.value = how.syscalls ? how.syscalls->count(call, syscalls) : call();
    outcome.err = errno;
    if (how.timed) outcome.dur_ns = monotonic_ns() - start;
    if (how.duration) *how.duration = outcome.dur_ns;
    if (how.tally) *how.tally = syscalls;
    if (how.scope.on()) {
        nlohmann::json ids = nlohmann::json::object();
        nlohmann::json data = nlohmann::json::object();
        if (how.kind != EventKind::Verb) data["verb"] = how.verb;
        if constexpr (std::is_pointer_v<R>) {
            data["ret"] = outcome.ok() ? 0 : -1;
            data["errno"] = outcome.ok() ? 0 : outcome.err;
        } else {
            data["ret"] = outcome.value;
        }
        if (how.timed) data["dur_ns"] = outcome.dur_ns;
        if (how.syscalls) syscall_fields(syscalls, data);
        fields(std::as_const(outcome), ids, data);
        how.scope.record(how.kind, std::string(how.event.empty() ? how.verb : how.event), std::move(ids),
                         std::move(data));
    }
    if (!outcome.ok()) fail(how.scope, explain(std::as_const(outcome)));
    return outcome.value;
}

/// Destroys a verbs object from a destructor: calls `release` (returning an int status) and records its
/// event with `ret` and what `fields(ids, data)` adds. Never throws: a failing destroy is only reported.
template <typename Release, typename Fields>
void traced_release(const TraceScope& scope, const char* verb, Release&& release, Fields&& fields) noexcept {
    const int ret = release();
    try {
        if (!scope.on()) return;
        nlohmann::json ids = nlohmann::json::object();
        nlohmann::json data = {{"ret", ret}};
        fields(ids, data);
        scope.record(EventKind::Verb, verb, std::move(ids), std::move(data));
    } catch (...) {
    }
}

/// For a call or a release whose event has only the standard fields.
inline constexpr auto no_fields = [](auto&&...) {};

} // namespace rdmalab::detail
