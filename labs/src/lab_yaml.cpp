// How a lab file is read (lab_yaml.hpp): errors, the YAML walker, placeholders, localized texts, and the text
// and number helpers of the parser.
#include "lab_yaml.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace rdmalab::labs::detail {

namespace {

bool equals_ignoring_case(sv a, sv b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               auto lower = [](char c) {
                   return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
               };
               return lower(x) == lower(y);
           });
}

constexpr sv kCommonResults[] = {"dur_ns", "end_ns", "errno", "error"};

} // namespace

// ---- errors ----------------------------------------------------------------------------------------------

Position position_of(const YAML::Mark& mark) {
    if (mark.line < 0 || mark.column < 0) return {};
    return {mark.line + 1, mark.column + 1};
}

[[noreturn]] void fail(Position where, std::string field, std::string message, std::string expected,
                       std::string found) {
    throw Failure{where, std::move(field), std::move(message), std::move(expected), std::move(found)};
}

[[noreturn]] void fail(const YAML::Mark& mark, std::string field, std::string message, std::string expected,
                       std::string found) {
    fail(position_of(mark), std::move(field), std::move(message), std::move(expected), std::move(found));
}

bool read_file(const std::string& path, std::string& text, LabError& error) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        error.message = "cannot open the file (not a regular file)";
        return false;
    }
    // Refused by its size before a byte is read (a sparse file of gigabytes reads as zeros).
    if (const auto size = std::filesystem::file_size(path, ec); !ec && size > kMaxFileBytes) {
        error.message = "the file is too large (" + std::to_string(size) + " bytes; a lab is at most 1 MiB)";
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error.message = "cannot open the file";
        return false;
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    text = buffer.str();
    if (text.size() > kMaxFileBytes) { // it grew while it was read
        error.message = "the file is too large (more than 1 MiB)";
        return false;
    }
    return true;
}

// ---- texts and names -------------------------------------------------------------------------------------

std::size_t utf8_length(sv text, std::size_t i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t n = c >= 0xf0 && c <= 0xf4   ? 4
                          : c >= 0xe0 && c <= 0xef ? 3
                          : c >= 0xc2 && c < 0xe0  ? 2
                                                   : 0;
    if (n == 0 || i + n > text.size()) return 0;
    for (std::size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80) return 0;
    return n;
}

std::string shown(sv text) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
        if (out.size() >= 60) {
            out += "...";
            break;
        }
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x80) {
            if (const std::size_t n = utf8_length(text, i)) {
                out += text.substr(i, n);
                i += n;
                continue;
            }
        }
        if (c < 0x20 || c >= 0x7f) {
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 15];
        } else {
            out += static_cast<char>(c);
        }
        ++i;
    }
    return out;
}

std::string join(const std::string& path, sv key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string indexed(const std::string& path, std::size_t i) {
    return path + "[" + std::to_string(i) + "]";
}

bool is_lab_id(sv text) {
    if (text.empty() || !(lower_letter(text[0]) || digit(text[0]))) return false;
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return lower_letter(c) || digit(c) || c == '_' || c == '-'; });
}

bool is_name(sv text) { // [a-z][a-z0-9_]*
    if (text.empty() || !lower_letter(text[0])) return false;
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return lower_letter(c) || digit(c) || c == '_'; });
}

bool is_decimal(sv text) {
    if (!text.empty() && text[0] == '-') text.remove_prefix(1);
    const auto dot = text.find('.');
    if (dot == sv::npos || dot == 0 || dot + 1 == text.size()) return false;
    return std::all_of(text.begin(), text.end(), [](char c) { return digit(c) || c == '.'; }) &&
           text.find('.', dot + 1) == sv::npos;
}

bool is_step_id(sv text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return lower_letter(c) || (c >= 'A' && c <= 'Z') || digit(c) || c == '_';
    });
}

bool is_object_name(sv text) {
    return text.size() >= 3 && schema::is_endpoint(text[0]) && text[1] == '.' && is_name(text.substr(2));
}

sv placeholder_name(sv text) {
    if (text.size() < 3 || text.front() != '{' || text.back() != '}') return {};
    const sv inner = text.substr(1, text.size() - 2);
    return is_name(inner) ? inner : sv{};
}

const sv* find_choice(std::span<const sv> choices, sv text) {
    for (const auto& c : choices)
        if (equals_ignoring_case(c, text)) return &c;
    return nullptr;
}

// ---- numbers ---------------------------------------------------------------------------------------------

bool parse_unsigned(sv text, std::uint64_t& out) {
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        text.remove_prefix(2);
    }
    if (text.empty()) return false;
    std::uint64_t value = 0;
    for (char c : text) {
        int d = -1;
        if (digit(c))
            d = c - '0';
        else if (base == 16 && c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (base == 16 && c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        if (d < 0) return false;
        if (value > (std::numeric_limits<std::uint64_t>::max() - static_cast<unsigned>(d)) / base)
            return false;
        value = value * base + static_cast<unsigned>(d);
    }
    out = value;
    return true;
}

bool parse_integer(sv text, std::int64_t& out) {
    bool negative = false;
    if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
        negative = text[0] == '-';
        text.remove_prefix(1);
    }
    std::uint64_t magnitude = 0;
    if (!parse_unsigned(text, magnitude)) return false;
    if (negative) {
        if (magnitude > static_cast<std::uint64_t>(kInt64Max) + 1) return false;
        out = magnitude == static_cast<std::uint64_t>(kInt64Max) + 1 ? kInt64Min
                                                                     : -static_cast<std::int64_t>(magnitude);
    } else {
        if (magnitude > static_cast<std::uint64_t>(kInt64Max)) return false;
        out = static_cast<std::int64_t>(magnitude);
    }
    return true;
}

bool parse_with_unit(sv text, std::span<const std::pair<sv, std::int64_t>> units, std::int64_t& out) {
    std::size_t digits = 0;
    while (digits < text.size() && digit(text[digits]))
        ++digits;
    if (digits == 0) return false;
    sv suffix = text.substr(digits);
    if (!suffix.empty() && suffix[0] == ' ') suffix.remove_prefix(1);
    std::int64_t multiplier = 1;
    if (!suffix.empty()) {
        const auto it =
            std::find_if(units.begin(), units.end(), [&](const auto& u) { return u.first == suffix; });
        if (it == units.end()) return false;
        multiplier = it->second;
    }
    std::int64_t value = 0;
    if (!parse_integer(text.substr(0, digits), value)) return false;
    if (value > kInt64Max / multiplier) return false;
    out = value * multiplier;
    return true;
}

// ---- the YAML walker -------------------------------------------------------------------------------------

void Budget::spend(const YAML::Node& node) {
    if (--left < 0)
        fail(node.Mark(), "", "the file is too large (too many nodes, or aliases that repeat too much)");
    if (!node.IsScalar()) return;
    const std::size_t bytes = node.Scalar().size();
    if (bytes > textBytesLeft)
        fail(node.Mark(), "",
             "the lab is too large: its texts, with every alias repeated, come to more than 8 MiB");
    textBytesLeft -= bytes;
}

Fields::Fields(const YAML::Node& node, const YAML::Mark& where, std::string path,
               const std::vector<sv>& allowed, Budget& budget, const std::string& context)
    : where_(where), path_(std::move(path)) {
    if (!node.IsMap())
        fail(node.IsNull() ? where : node.Mark(), path_,
             path_.empty() ? "the file must be a YAML mapping (key: value lines)"
                           : "must be a mapping (key: value lines)",
             {}, node.IsScalar() ? shown(node.Scalar()) : std::string());
    for (auto it = node.begin(); it != node.end(); ++it) {
        budget.spend(it->second);
        const YAML::Node key = it->first;
        if (!key.IsScalar()) fail(key.Mark(), path_, "keys must be plain names");
        const std::string& name = key.Scalar();
        if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
            fail(key.Mark(), join(path_, name),
                 "unknown key '" + shown(name) + "'" + (context.empty() ? "" : " " + context),
                 one_of(allowed), shown(name));
        if (const auto seen = entries_.find(name); seen != entries_.end())
            fail(key.Mark(), join(path_, name),
                 "key '" + name + "' appears twice (first on line " +
                     std::to_string(seen->second.key.Mark().line + 1) + ")");
        entries_.emplace(name, Entry{key, it->second});
    }
}

const Fields::Entry& Fields::required(const std::string& key) const {
    const auto it = entries_.find(key);
    if (it == entries_.end()) fail(where_, field(key), "required field '" + key + "' is missing");
    return it->second;
}

std::string Fields::string(const std::string& key, bool required) const {
    if (!has(key)) {
        if (required) this->required(key);
        return {};
    }
    const auto& e = at(key);
    if (!e.value.IsScalar()) {
        if (e.value.IsNull() && !required) return {};
        fail(e.value.IsNull() ? e.key.Mark() : e.value.Mark(), field(key),
             e.value.IsNull() ? "has no value" : "must be a text", "a text");
    }
    std::string text = e.value.Scalar();
    if (required && text.empty()) fail(e.value.Mark(), field(key), "must not be empty", "a text");
    return text;
}

std::string Scope::condition_problem(const std::map<std::string, std::string>& conditions,
                                     const std::string& name, sv what) const {
    const auto it = conditions.find(name);
    if (it == conditions.end() || it->second == condition) return {};
    return std::string(what) + " '" + name + "' exists only when " + it->second +
           ": give this step the same 'when'";
}

const Parameter* Scope::parameter(sv name) const {
    for (const auto& p : *parameters)
        if (p.name == name) return &p;
    return nullptr;
}

std::string path_problem(sv path, const Scope& scope) {
    const auto dot = path.find('.');
    if (dot == sv::npos) {
        if (scope.parameter(path)) return {};
        if (scope.later_steps.count(std::string(path)) || scope.steps.count(std::string(path)))
            return "'" + std::string(path) + "' is a step: name one of its results, e.g. '" +
                   std::string(path) + ".dur_ns'";
        return "unknown parameter '" + shown(path) + "'";
    }
    const sv head = path.substr(0, dot);
    const sv rest = path.substr(dot + 1);
    if (head == "device") {
        if (!scope.objects.count("device")) return "'device' is opened by no earlier step (open_device)";
        const auto* kind = schema::find_object_kind("device");
        if (std::find(kind->fields.begin(), kind->fields.end(), rest) == kind->fields.end())
            return "the device has no field '" + shown(rest) + "' (" + one_of(kind->fields) + ")";
        return {};
    }
    if (head == "peer") { // a two-host lab: the other host's device (docs/lab-format.md, "Two-host labs")
        if (!rest.starts_with("device."))
            return "'peer' names the other host's device only: peer.device.FIELD (found '" + shown(path) +
                   "')";
        return path_problem(rest, scope);
    }
    if (head.size() == 1 && schema::is_endpoint(head[0])) {
        const auto dot2 = rest.find('.');
        if (dot2 == sv::npos)
            return "'" + shown(path) + "' names an object, not one of its fields (E.name.field)";
        const std::string object = std::string(head) + "." + std::string(rest.substr(0, dot2));
        const sv field = rest.substr(dot2 + 1);
        const auto it = scope.objects.find(object);
        if (it == scope.objects.end()) {
            if (const auto later = scope.later_objects.find(object); later != scope.later_objects.end())
                return "object '" + object + "' is created later, by step '" + later->second.first +
                       "' (line " + std::to_string(later->second.second) + ")";
            return "no step creates object '" + shown(object) + "'";
        }
        const auto* kind = schema::find_object_kind(it->second);
        if (std::find(kind->fields.begin(), kind->fields.end(), field) == kind->fields.end())
            return "object '" + object + "' (a " + it->second + ") has no field '" + shown(field) + "' (" +
                   one_of(kind->fields) + ")";
        return scope.condition_problem(scope.object_conditions, object, "object");
    }
    const std::string step(head);
    if (step == scope.predicting)
        return "the question is asked before step '" + step +
               "' runs, so it cannot name the step's own results (name them in 'why', shown after the step)";
    const auto it = scope.steps.find(step);
    if (it == scope.steps.end()) {
        if (const auto later = scope.later_steps.find(step); later != scope.later_steps.end())
            return "step '" + step + "' comes later (line " + std::to_string(later->second) +
                   "): only earlier steps and this one have results";
        return "unknown step, object or parameter '" + shown(head) + "' in '" + shown(path) + "'";
    }
    if (auto problem = scope.condition_problem(scope.step_conditions, step, "step"); !problem.empty())
        return problem;
    const auto& results = it->second->results;
    if (std::find(results.begin(), results.end(), rest) == results.end() &&
        std::find(std::begin(kCommonResults), std::end(kCommonResults), rest) == std::end(kCommonResults)) {
        std::vector<sv> all(results.begin(), results.end());
        for (const sv common : kCommonResults)
            if (std::find(all.begin(), all.end(), common) == all.end()) all.push_back(common);
        return "step '" + step + "' (" + std::string(it->second->name) + ") has no result '" + shown(rest) +
               "' (" + one_of(all) + ")";
    }
    return {};
}

bool path_char(char c) {
    return lower_letter(c) || (c >= 'A' && c <= 'Z') || digit(c) || c == '_' || c == '.';
}

void check_placeholders(const std::string& text, const YAML::Node& node, const std::string& field,
                        const Scope& scope) {
    std::size_t i = 0;
    while ((i = text.find('{', i)) != std::string::npos) {
        const auto close = text.find('}', i + 1);
        if (close == std::string::npos) return;
        const sv inner = sv(text).substr(i + 1, close - i - 1);
        if (!inner.empty() && std::all_of(inner.begin(), inner.end(), path_char)) {
            const std::string problem = path_problem(inner, scope);
            if (!problem.empty())
                fail(node.Mark(), field, "placeholder {" + shown(inner) + "}: " + problem, {},
                     "{" + shown(inner) + "}");
        }
        i = close + 1;
    }
}

// ---- texts -----------------------------------------------------------------------------------------------

LocalizedText localized(const YAML::Node& node, const YAML::Mark& key_mark, const std::string& path,
                        const Scope& scope, Budget& budget) {
    if (node.IsNull()) fail(key_mark, join(path, "en"), "required field 'en' is missing");
    if (!node.IsMap())
        fail(node.Mark(), path, "must be a mapping with the texts 'en' and 'zh'", "{en: ..., zh: ...}",
             node.IsScalar() ? shown(node.Scalar()) : std::string());
    const Fields fields(node, key_mark, path, {"en", "zh"}, budget);
    LocalizedText text;
    text.en = fields.string("en", true);
    text.zh = fields.string("zh", false);
    check_placeholders(text.en, fields.at("en").value, fields.field("en"), scope);
    if (fields.has("zh")) check_placeholders(text.zh, fields.at("zh").value, fields.field("zh"), scope);
    return text;
}

LocalizedText localized(const Fields& parent, const std::string& key, bool required, const Scope& scope,
                        Budget& budget) {
    if (!parent.has(key)) {
        if (required) fail(parent.where(), parent.field(key), "required field '" + key + "' is missing");
        return {};
    }
    const auto& e = parent.at(key);
    return localized(e.value, e.key.Mark(), parent.field(key), scope, budget);
}

DeviceText device_text(const Fields& parent, const std::string& key, bool required, const Scope& scope,
                       Budget& budget) {
    if (!parent.has(key)) {
        if (required) fail(parent.where(), parent.field(key), "required field '" + key + "' is missing");
        return {};
    }
    const auto& e = parent.at(key);
    if (e.value.IsNull()) fail(e.key.Mark(), parent.field(key + ".en"), "required field 'en' is missing");
    if (!e.value.IsMap())
        fail(e.value.Mark(), parent.field(key),
             "must be a mapping with the texts 'en' and 'zh' (and optionally 'software' and 'hardware')",
             "{en: ..., zh: ...}", e.value.IsScalar() ? shown(e.value.Scalar()) : std::string());
    const Fields fields(e.value, e.key.Mark(), parent.field(key), {"en", "zh", "software", "hardware"},
                        budget);
    DeviceText text;
    if (fields.has("software"))
        text.software = localized(fields.at("software").value, fields.at("software").key.Mark(),
                                  fields.field("software"), scope, budget);
    if (fields.has("hardware"))
        text.hardware = localized(fields.at("hardware").value, fields.at("hardware").key.Mark(),
                                  fields.field("hardware"), scope, budget);
    const bool both = fields.has("software") && fields.has("hardware");
    if (!both && !fields.has("en"))
        fail(
            e.key.Mark(), fields.field("en"),
            "required field 'en' is missing (it may be left out only when both 'software' and 'hardware' are "
            "given)");
    text.common.en = fields.string("en", !both);
    text.common.zh = fields.string("zh", false);
    if (!text.common.zh.empty() && text.common.en.empty())
        fail(fields.at("zh").value.Mark(), fields.field("zh"),
             "a Chinese text needs the English one ('en') beside it");
    if (fields.has("en"))
        check_placeholders(text.common.en, fields.at("en").value, fields.field("en"), scope);
    if (fields.has("zh"))
        check_placeholders(text.common.zh, fields.at("zh").value, fields.field("zh"), scope);
    return text;
}

} // namespace rdmalab::labs::detail
