// Two-host labs (docs/lab-format.md, "Two-host labs"): which host performs a step, what the two hosts tell
// each other over their link (peer_link.hpp), and the capture of the wire both run from the first step to
// teardown. Both hosts walk every step in order: a step of the other host's waits for its message, which
// carries the values the step created (B's QP number, address and rkey among them) and its verdicts, so the
// report on either host shows the whole lab.
#include "rdmalab/labrun/lab_run.hpp"
#include "run_state.hpp"

#include <fmt/format.h>

namespace rdmalab::labs {

using namespace run;

namespace run {

namespace {

/// The most packets a lab's capture keeps between two reads.
constexpr std::size_t kLabPacketLimit = 100000;

/// The first endpoint a value names (a text "B.buf", or inside a list or mapping), else None.
Endpoint endpoint_in(const Value& value) {
    if (value.kind == Value::Kind::text) return endpoint_of(value.text);
    for (const auto& item : value.list)
        if (const Endpoint e = endpoint_in(item); e != Endpoint::None) return e;
    for (const auto& [key, item] : value.map)
        if (const Endpoint e = endpoint_in(item); e != Endpoint::None) return e;
    return Endpoint::None;
}

/// The endpoint whose host performs `step`: that of the object it creates, else of the first object it
/// names other than the other side's it addresses (`remote`, `remote_qp`, `peer`), else of its
/// expectations' objects; None when it names none.
Endpoint endpoint_performing(const Step& step) {
    if (const Value* as = arg(step, "as")) return endpoint_of(as->text);
    for (const auto& [key, value] : step.args)
        if (key != "remote" && key != "remote_qp" && key != "peer")
            if (const Endpoint e = endpoint_in(value); e != Endpoint::None) return e;
    for (const auto& e : step.expect)
        if (const Endpoint found = endpoint_in(e.value); found != Endpoint::None) return found;
    return Endpoint::None;
}

StepOutcome::State state_from(const std::string& text) {
    if (text == "held") return StepOutcome::State::held;
    if (text == "broken") return StepOutcome::State::broken;
    if (text == "skipped") return StepOutcome::State::skipped;
    return StepOutcome::State::not_run;
}

/// Takes the other host's values: its own endpoint's objects and its steps' results; its device's values
/// become `peer.device.*` (each host has its own device).
void merge_values(State& s, const nlohmann::json& values, const Step& step, bool both) {
    if (!values.is_object()) return;
    const std::string mine = std::string(1, static_cast<char>(s.options.side)) + ".";
    for (const auto& [key, value] : values.items()) {
        // The other host's own `peer.*` is this host: never take it.
        if (!value.is_string() || key.starts_with("peer.")) continue;
        if (key.starts_with("device.")) {
            s.values["peer." + key] = value.get<std::string>();
        } else if (!key.starts_with(mine) && !(both && key.starts_with(step.id + "."))) {
            s.values[key] = value.get<std::string>();
        }
    }
}

/// The other host's outcome of a step, as its outcome_json wrote it.
void outcome_from_json(StepOutcome& o, const nlohmann::json& j) {
    o.state = state_from(j.value("state", "not_run"));
    o.skipped_because = j.value("skipped_because", "");
    o.seconds = j.value("seconds", 0.0);
    o.results.clear();
    if (const auto it = j.find("results"); it != j.end() && it->is_object())
        for (const auto& [key, value] : it->items())
            if (value.is_string()) o.results[key] = value.get<std::string>();
    o.expectations.clear();
    if (const auto it = j.find("expectations"); it != j.end() && it->is_array())
        for (const auto& e : *it)
            o.expectations.push_back(ExpectationOutcome{.kind = e.value("kind", ""),
                                                        .description = e.value("description", ""),
                                                        .held = e.value("held", false),
                                                        .observed = e.value("observed", ""),
                                                        .why = e.value("why", ""),
                                                        .applies = e.value("applies", true)});
    if (const auto it = j.find("predicted"); it != j.end() && it->is_object())
        o.predicted_answer = it->value("answer", "");
    if (const auto it = j.find("error_info"); it != j.end() && it->is_object())
        o.error = ErrorInfo::from_json(*it);
    o.failed_unexpectedly = j.value("failed_unexpectedly", false);
}

/// link_failed with the meaning also in Chinese (`what_zh`; empty: `what` stands in both).
void link_failed_in(State& s, std::size_t index, const std::string& what, const std::string& what_zh) {
    StepOutcome& o = s.outcomes[index];
    o.error =
        ErrorInfo{.verb = "lab link",
                  .err = 0,
                  .code = "LAB_LINK",
                  .meaning = what,
                  .cause = "the other host's run of the lab ended, or the two hosts do not run the same lab",
                  .fix = "see the other host's output; start both runs again, `lab run FILE --listen ADDR` "
                         "on B's host first",
                  .zh = {.meaning = what_zh,
                         .cause = "另一台主机上的这次实验运行已经结束，或者两台主机运行的不是同一个实验",
                         .fix = "查看另一台主机的输出；重新启动两边的运行，先在 B 的主机上执行 "
                                "`lab run FILE --listen ADDR`"}}
            .seal();
    o.failed_unexpectedly = true;
    o.state = StepOutcome::State::broken;
    o.expectations.push_back(
        ExpectationOutcome{.kind = "succeeds",
                           .description = say(s.options.language, "the other host takes part in the step",
                                              "另一台主机参与这一步"),
                           .held = false,
                           .observed = what,
                           .why = {},
                           .applies = true});
}

} // namespace

void link_failed(State& s, std::size_t index, const std::string& what) {
    link_failed_in(s, index, what, {});
}

bool performed_by_both(const Step& step) {
    return step.action == "open_device" || step.action == "connect";
}

bool performed_here(const State& s, const Step& step) {
    if (performed_by_both(step)) return true;
    const Endpoint e = endpoint_performing(step);
    return (e == Endpoint::None ? Endpoint::A : e) == s.options.side;
}

std::string peer_value(const State& s, const std::string& path) {
    const auto it = s.values.find(path);
    if (it == s.values.end())
        throw LabRunError(
            fmt::format("the other host has not told this one '{}' (the step that makes it runs "
                        "there, earlier in the lab)",
                        path));
    return it->second;
}

void start_wire(State& s) {
    if (s.wire_started) return;
    s.wire_started = true;
    // Both hosts first check that they run the same lab with the same values, as the two endpoints.
    const nlohmann::json hello = {{"lab", s.lab.id},
                                  {"side", std::string(1, static_cast<char>(s.options.side))},
                                  {"steps", s.lab.steps.size()}};
    s.options.peer->send(hello);
    const auto theirs = s.options.peer->receive(s.options.peer_timeout_ms);
    if (theirs.value("lab", "") != s.lab.id || theirs.value("steps", 0U) != s.lab.steps.size())
        throw std::runtime_error(
            fmt::format("the other host runs lab '{}' ({} steps), this one '{}' ({} steps)",
                        theirs.value("lab", "?"), theirs.value("steps", 0U), s.lab.id, s.lab.steps.size()));
    if (theirs.value("side", "") == hello["side"])
        throw std::runtime_error(fmt::format("both hosts play endpoint {}: one runs --listen (B), the other "
                                             "--connect (A)",
                                             hello["side"].get<std::string>()));

    const std::string& local = s.options.peer->local_address();
    const auto netdev = wire::netdev_for_address(local);
    auto failed = [&](const std::string& reason, const std::string& fix) {
        s.capture_failed = reason + "; fix: " + fix;
        if (s.tracer && s.tracer->enabled())
            s.tracer->record(s.options.side, EventKind::Packet, "capture.failed", {},
                             {{"reason", reason}, {"fix", fix}, {"netdev", netdev.value_or("")}});
    };
    if (!netdev) return failed("no network interface here holds " + local, "check `ip -br addr`");
    std::string why, fix;
    s.capture = wire::Capture::start(*netdev, kLabPacketLimit, why, fix);
    if (!s.capture) return failed(why, fix);
    if (s.tracer) {
        s.ledger = std::make_shared<wire::RequestLedger>();
        s.tracer->add_sink(s.ledger);
        s.tracer->record(s.options.side, EventKind::Packet, "capture.start", {},
                         {{"netdev", *netdev}, {"filter", "udp port 4791"}, {"limit", kLabPacketLimit}});
    }
}

void stop_wire(State& s) {
    if (!s.capture) return;
    const auto frames = s.capture->stop();
    if (s.tracer && s.tracer->enabled())
        wire::record_packets(*s.tracer, s.options.side, *s.capture, frames,
                             s.ledger ? s.ledger->matcher() : packet::PacketMatcher{},
                             s.packets_recorded + 1);
    s.capture.reset();
}

} // namespace run

namespace run {

void exchange_step(State& s, std::size_t index, const nlohmann::json& outcome_json, bool both) {
    const Step& step = s.lab.steps[index];
    StepOutcome& outcome = s.outcomes[index];
    try {
        s.options.peer->send({{"index", index}, {"values", s.values}, {"outcome", outcome_json}});
        if (!both) return;
        const auto theirs = s.options.peer->receive(s.options.peer_timeout_ms);
        if (theirs.value("index", std::size_t(-1)) != index)
            throw std::runtime_error(fmt::format("the other host sent step {}, this one is at step {} ('{}')",
                                                 theirs.value("index", std::size_t(-1)), index, step.id));
        merge_values(s, theirs["values"], step, true);
        StepOutcome peer;
        outcome_from_json(peer, theirs.value("outcome", nlohmann::json::object()));
        if (peer.failed_unexpectedly && !outcome.failed_unexpectedly) {
            const std::string what =
                fmt::format("on the other host ({}): {}", s.options.peer->peer_address(),
                            peer.error ? peer.error->code + ": " + peer.error->meaning : "the step failed");
            const std::string peer_meaning_zh =
                peer.error
                    ? (peer.error->zh_meaning().empty() ? peer.error->meaning : peer.error->zh_meaning())
                    : std::string();
            const std::string what_zh =
                fmt::format("在另一台主机（{}）上：{}", s.options.peer->peer_address(),
                            peer.error ? peer.error->code + "：" + peer_meaning_zh : "这一步失败了");
            link_failed_in(s, index, what, what_zh);
            if (peer.error) {
                outcome.error = peer.error;
                outcome.error->meaning = what;
                outcome.error->zh.meaning = what_zh;
                outcome.error->seal();
            }
        }
    } catch (const std::exception& e) {
        if (!outcome.failed_unexpectedly) link_failed(s, index, e.what());
    }
}

void take_peer_step(State& s, std::size_t index) {
    const Step& step = s.lab.steps[index];
    try {
        const auto theirs = s.options.peer->receive(s.options.peer_timeout_ms);
        if (theirs.value("index", std::size_t(-1)) != index)
            throw std::runtime_error(
                fmt::format("the other host sent step {}, this one waits for step {} ('{}')",
                            theirs.value("index", std::size_t(-1)), index, step.id));
        merge_values(s, theirs["values"], step, false);
        outcome_from_json(s.outcomes[index], theirs.value("outcome", nlohmann::json::object()));
    } catch (const std::exception& e) {
        link_failed(s, index, e.what());
    }
}

} // namespace run

} // namespace rdmalab::labs
