#include "rdmalab/describe.hpp"

#include <fmt/format.h>

namespace rdmalab {

namespace {

std::string scalar(const nlohmann::json& value) {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_array()) {
        std::string out;
        for (const auto& item : value) {
            if (!out.empty()) out += "|";
            out += scalar(item);
        }
        return out.empty() ? "0" : out;
    }
    return value.dump();
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

std::string result_text(const nlohmann::json& data) {
    if (!data.contains("ret")) return {};
    const auto& ret = data["ret"];
    if (ret.is_number_integer() && ret.get<long long>() < 0) {
        const int err = data.value("errno", 0);
        return fmt::format(" -> failed (errno {})", err);
    }
    if (ret.is_number_integer() && ret.get<long long>() > 0 && data.contains("errno") == false)
        return fmt::format(" -> {}", ret.get<long long>());
    return ret.is_number_integer() && ret.get<long long>() == 0 ? " -> ok"
                                                                : fmt::format(" -> {}", scalar(ret));
}

} // namespace

std::string describe(const TraceEvent& e) {
    const std::string who = fmt::format("[{}]", static_cast<char>(e.endpoint));
    const auto& d = e.data;
    switch (e.kind) {
    case EventKind::Session:
        return fmt::format("{} session: {} on {}", who, d.value("tool", "rdmalab"), d.value("device", "?"));
    case EventKind::Step:
        if (!d.contains("count")) return fmt::format("{} step: {}", who, d.value("title", e.name));
        return fmt::format("{} step {}/{}: {}", who, d.value("index", 0) + 1, d.value("count", 0),
                           d.value("title", e.name));
    case EventKind::Verb:
        return fmt::format("{} {}({}){}{}{}", who, e.name,
                           key_values(d.value("args", nlohmann::json::object())), result_text(d),
                           d.contains("event") ? " " + scalar(d["event"]) : std::string(), ids_text(e.ids));
    case EventKind::QpState:
        return fmt::format(
            "{} ibv_modify_qp {} mask={} {}{}{}", who, e.name, scalar(d.value("attr_mask", nlohmann::json())),
            key_values(d.value("attrs", nlohmann::json::object())), result_text(d), ids_text(e.ids));
    case EventKind::PostWr:
        return fmt::format("{} {} {} length={}{}{}", who, d.value("verb", "post"), e.name,
                           d.value("length", 0), result_text(d), ids_text(e.ids));
    case EventKind::Wc:
        return fmt::format("{} completion {} opcode={} byte_len={}{}{}", who, e.name, d.value("opcode", "?"),
                           d.value("byte_len", 0),
                           d.contains("imm_data")
                               ? fmt::format(" imm_data=0x{:x}", d["imm_data"].get<std::uint64_t>())
                               : std::string(),
                           ids_text(e.ids));
    case EventKind::Async:
        return fmt::format("{} async event {}: {}", who, e.name, d.value("meaning", ""));
    case EventKind::Data:
        if (e.name != "memory")
            return fmt::format("{} {}: {}{}", who, e.name, key_values(d), ids_text(e.ids));
        return fmt::format("{} memory ({}): \"{}\"", who, d.value("when", ""),
                           d.value("text", "").substr(0, 48));
    case EventKind::Check: {
        std::string out = fmt::format("{} {}", who, d.value("summary", e.name));
        if (d.contains("checks"))
            for (const auto& line : d["checks"])
                out += "\n      " + line.get<std::string>();
        return out;
    }
    case EventKind::Error:
        return fmt::format("{} error: {} failed: {} ({})\n      cause: {}\n      fix:   {}", who,
                           d.value("verb", e.name), d.value("code", "?"), d.value("meaning", ""),
                           d.value("cause", ""), d.value("fix", ""));
    case EventKind::Result:
        return fmt::format("{} result {}: {}", who, e.name, d.dump());
    case EventKind::Measure:
        return fmt::format("{} measure {}: {}", who, e.name, d.dump());
    }
    return who + " " + e.name;
}

} // namespace rdmalab
