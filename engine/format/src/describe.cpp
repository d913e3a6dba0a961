#include "rdmalab/format/describe.hpp"

#include "rdmalab/format/fields.hpp"

#include <fmt/format.h>

namespace rdmalab {

namespace {

std::string scalar(const nlohmann::json& value) {
    if (value.is_array()) {
        std::string out;
        for (const auto& item : value) {
            if (!out.empty()) out += "|";
            out += scalar(item);
        }
        return out.empty() ? "0" : out;
    }
    return to_text(value);
}

std::string key_values(const nlohmann::json& object, const std::string& prefix = {}) {
    std::string out;
    if (!object.is_object()) return out;
    for (auto it = object.begin(); it != object.end(); ++it) {
        std::string item = it.value().is_object()
                               ? key_values(it.value(), prefix + it.key() + ".")
                               : fmt::format("{}{}={}", prefix, it.key(), scalar(it.value()));
        if (item.empty()) continue;
        if (!out.empty()) out += ", ";
        out += item;
    }
    return out;
}

std::string ids_text(const nlohmann::json& ids) {
    std::string out;
    if (!ids.is_object()) return out;
    for (auto it = ids.begin(); it != ids.end(); ++it) {
        const auto& v = it.value();
        if ((it.key() == "lkey" || it.key() == "rkey") && v.is_number_integer() && v.get<std::int64_t>() >= 0)
            out += fmt::format("  {}=0x{:x}", it.key(), v.get<std::uint64_t>());
        else
            out += fmt::format("  {}={}", it.key(), scalar(v));
    }
    return out;
}

std::string result_text(const Fields& data) {
    const auto* ret = data.raw("ret");
    if (ret == nullptr) return {};
    if (ret->is_number_integer() && !ret->is_number_unsigned() && ret->get<std::int64_t>() < 0)
        return fmt::format(" -> failed (errno {})", data.get<int>("errno", 0));
    if (ret->is_number_integer() && ret->get<std::int64_t>() == 0) return " -> ok";
    return " -> " + scalar(*ret);
}

// The system calls a post or poll made, when the engine counted them (docs/trace-format.md).
std::string syscalls_text(const Fields& data) {
    if (const auto n = data.find<std::int64_t>("syscalls")) return fmt::format(" syscalls={}", *n);
    return {};
}

} // namespace

std::string describe(const TraceEvent& e) {
    const std::string who = fmt::format("[{}]", static_cast<char>(e.endpoint));
    const Fields d(e.data, "data");
    switch (e.kind) {
    case EventKind::Session:
        return fmt::format("{} session: {} on {}", who, d.text("tool", "rdmalab"), d.text("device", "?"));
    case EventKind::Step: {
        const auto count = d.find<int>("count");
        if (!count) return fmt::format("{} step: {}", who, d.text("title", e.name));
        // Shown 1-based; widened first, so the last int is not an overflow.
        const std::int64_t number = std::int64_t{d.get<int>("index", 0)} + 1;
        return fmt::format("{} step {}/{}: {}", who, number, *count, d.text("title", e.name));
    }
    case EventKind::Verb:
        return fmt::format("{} {}({}){}{}{}{}", who, e.name,
                           key_values(d.json().value("args", nlohmann::json())), result_text(d),
                           d.has("event") ? " " + scalar(*d.raw("event")) : std::string(), syscalls_text(d),
                           ids_text(e.ids));
    case EventKind::QpState:
        return fmt::format("{} ibv_modify_qp {} mask={} {}{}{}", who, e.name,
                           scalar(d.json().value("attr_mask", nlohmann::json())),
                           key_values(d.json().value("attrs", nlohmann::json())), result_text(d),
                           ids_text(e.ids));
    case EventKind::PostWr:
        return fmt::format("{} {} {} length={}{}{}{}", who, d.text("verb", "post"), e.name,
                           d.text("length", "0"), result_text(d), syscalls_text(d), ids_text(e.ids));
    case EventKind::Wc: {
        const auto imm = d.find<std::uint32_t>("imm_data");
        return fmt::format("{} completion {} opcode={} byte_len={}{}{}", who, e.name, d.text("opcode", "?"),
                           d.text("byte_len", "0"),
                           imm ? fmt::format(" imm_data=0x{:x}", *imm) : std::string(), ids_text(e.ids));
    }
    case EventKind::Async:
        return fmt::format("{} async event {}: {}", who, e.name, d.text("meaning"));
    case EventKind::Data:
        if (e.name != "memory")
            return fmt::format("{} {}: {}{}", who, e.name, key_values(d.json()), ids_text(e.ids));
        return fmt::format("{} memory ({}): \"{}\"", who, d.text("when"), d.text("text").substr(0, 48));
    case EventKind::Check: {
        std::string out = fmt::format("{} {}", who, d.text("summary", e.name));
        for (const auto& line : d.texts("checks"))
            out += "\n      " + line;
        return out;
    }
    case EventKind::Error:
        return fmt::format("{} error: {} failed: {} ({})\n      cause: {}\n      fix:   {}", who,
                           d.text("verb", e.name), d.text("code", "?"), d.text("meaning"), d.text("cause"),
                           d.text("fix"));
    case EventKind::Result:
        return fmt::format("{} result {}: {}", who, e.name, to_text(d.json()));
    case EventKind::Measure:
        return fmt::format("{} measure {}: {}", who, e.name, to_text(d.json()));
    case EventKind::Packet:
        if (e.name == "capture.start") {
            std::string window;
            if (const auto w = e.data.find("window"); w != e.data.end() && w->is_object())
                window = fmt::format(": a window of at most {} packets and {} ms from {}",
                                     w->value("packets", std::uint64_t{0}), w->value("ms", std::uint64_t{0}),
                                     w->value("from", std::string("the first data packet")));
            return fmt::format("{} wire: capturing RoCE v2 ({}) on {}{}", who,
                               d.text("filter", "udp port 4791"), d.text("netdev", "?"), window);
        }
        if (e.name == "capture.failed")
            return fmt::format("{} wire: no capture: {}\n      fix: {}", who, d.text("reason", "?"),
                               d.text("fix", "?"));
        if (e.name == "capture.end") {
            // A measurement's window closes the capture early: what followed was not captured at all.
            const std::string closed = d.text("window_closed", "");
            return fmt::format(
                "{} wire: {} packets kept on {} ({} passed the filter, {} dropped by the kernel, "
                "{} over the limit){}",
                who, d.get<std::uint64_t>("kept", 0), d.text("netdev", "?"),
                d.get<std::uint64_t>("received", 0), d.get<std::uint64_t>("dropped", 0),
                d.get<std::uint64_t>("not_kept", 0),
                closed.empty()
                    ? std::string()
                    : "; the capture closed at " + closed + ": the rest of the run was not captured");
        }
        {
            // The work request the packet belongs to, when the capture could tie it to one
            // (packet_match.hpp).
            std::string owner;
            if (const auto it = e.data.find("owner"); it != e.data.end() && it->is_object())
                owner = "\n        ↳ " + it->value("text", std::string());
            return fmt::format("{} wire {:>3} {:<3} {}{}", who, d.get<std::uint64_t>("index", 0),
                               d.text("direction", ""), d.text("summary", e.name), owner);
        }
    }
    return who + " " + e.name;
}

} // namespace rdmalab
