// The lab parser and validator (lab.hpp). Every check walks the tables of lab_schema.hpp: a new action,
// field or expectation kind there needs no change here.
#include "rdmalab/labs/lab.hpp"
#include "rdmalab/format/buildpaths.hpp"
#include "rdmalab/labs/troubleshooting.hpp"

#include "rdmalab/labs/lab_schema.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <system_error>

namespace rdmalab::labs {

namespace {

using schema::Field;
using schema::Type;
using sv = std::string_view;

constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
/// Nodes a file may make the parser visit (aliases can make a small file large); far above any real lab.
constexpr long kNodeBudget = 2'000'000;
/// Bytes of text a file may make the parser copy (aliases repeat texts); eight times the largest file.
constexpr std::size_t kTextByteBudget = 8u << 20;
/// Lab files read from one folder (the user's lab folder may hold anything).
constexpr std::size_t kMaxLabFiles = 2000;
constexpr std::size_t kMaxFileBytes = kMaxLabBytes; // lab check, lab run and the app: one limit

/// Thrown inside the parser; turned into the LabError of the public functions.
struct Failure {
    Position position;
    std::string field;
    std::string message;
    std::string expected;
    std::string found;
};

Position position_of(const YAML::Mark& mark) {
    if (mark.line < 0 || mark.column < 0) return {};
    return {mark.line + 1, mark.column + 1};
}

[[noreturn]] void fail(Position where, std::string field, std::string message, std::string expected = {},
                       std::string found = {}) {
    throw Failure{where, std::move(field), std::move(message), std::move(expected), std::move(found)};
}

[[noreturn]] void fail(const YAML::Mark& mark, std::string field, std::string message,
                       std::string expected = {}, std::string found = {}) {
    fail(position_of(mark), std::move(field), std::move(message), std::move(expected), std::move(found));
}

/// Length of the valid UTF-8 sequence starting at `text[i]`, or 0.
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

/// A value as shown in an error: at most 60 characters, control bytes and invalid UTF-8 escaped.
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

template <typename Range> std::string one_of(const Range& names) {
    std::string out = "one of: ";
    bool first = true;
    for (const auto& n : names) {
        if (!first) out += ", ";
        out += std::string(n);
        first = false;
    }
    return out;
}

bool lower_letter(char c) {
    return c >= 'a' && c <= 'z';
}
bool digit(char c) {
    return c >= '0' && c <= '9';
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

/// A decimal fraction such as 1.5 or -0.25 (compare operands; kept as text).
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

/// "E.name" with E in A-D.
bool is_object_name(sv text) {
    return text.size() >= 3 && schema::is_endpoint(text[0]) && text[1] == '.' && is_name(text.substr(2));
}

/// The parameter name of a value written as exactly "{name}", or empty.
sv placeholder_name(sv text) {
    if (text.size() < 3 || text.front() != '{' || text.back() != '}') return {};
    const sv inner = text.substr(1, text.size() - 2);
    return is_name(inner) ? inner : sv{};
}

bool equals_ignoring_case(sv a, sv b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               auto lower = [](char c) {
                   return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
               };
               return lower(x) == lower(y);
           });
}

/// The table's spelling of `text` among `choices` (case-insensitive), or nullptr.
const sv* find_choice(std::span<const sv> choices, sv text) {
    for (const auto& c : choices)
        if (equals_ignoring_case(c, text)) return &c;
    return nullptr;
}

// ---- numbers ---------------------------------------------------------------------------------------------

/// Decimal or 0x-hex, no sign; false on anything else or overflow.
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

/// An optionally signed whole number (decimal or 0x-hex) that fits in int64.
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

/// A number with an optional unit suffix from `units` (suffix -> multiplier); an optional space before it.
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

constexpr std::pair<sv, std::int64_t> kSizeUnits[] = {
    {"B", 1}, {"KiB", 1LL << 10}, {"MiB", 1LL << 20}, {"GiB", 1LL << 30}, {"TiB", 1LL << 40}};
constexpr std::pair<sv, std::int64_t> kDurationUnits[] = {{"ms", 1}, {"s", 1000}};

std::string size_text(std::int64_t bytes) {
    for (auto it = std::rbegin(kSizeUnits); it != std::rend(kSizeUnits); ++it)
        if (it->second > 1 && bytes != 0 && bytes % it->second == 0)
            return std::to_string(bytes / it->second) + " " + std::string(it->first);
    return std::to_string(bytes);
}

std::string range_text(const Field& field) {
    if (field.type == Type::size) return size_text(field.min) + " to " + size_text(field.max);
    if (field.type == Type::duration)
        return std::to_string(field.min) + " to " + std::to_string(field.max) + " ms";
    return std::to_string(field.min) + " to " + std::to_string(field.max);
}

std::string type_text(const Field& field) {
    switch (field.type) {
    case Type::integer:
        return field.min < field.max ? "an integer from " + range_text(field) : "an integer";
    case Type::size:
        return "a size in bytes (e.g. 4096, 4KiB, 1MiB)" +
               (field.min < field.max ? " from " + range_text(field) : std::string());
    case Type::u64:
        return field.min < field.max ? "a number (decimal or 0x hex) from " + std::to_string(field.min) +
                                           " to " + std::to_string(field.max)
                                     : "a number from 0 to 2^64-1 (decimal or 0x hex)";
    case Type::boolean:
        return "true or false";
    case Type::text:
        return "a text";
    case Type::hex:
        return "bytes in hex: an even number of hex digits (e.g. 00ff10)";
    case Type::duration:
        return "a duration (e.g. 250ms, 2s)";
    case Type::choice:
        return one_of(field.choices);
    case Type::flags:
        return "a list of " + one_of(field.choices);
    case Type::object:
        return "the name of a " + std::string(field.object_kind) + " created earlier (E.name)";
    case Type::new_object:
        return "a new name E.name (E one of A, B, C, D; name [a-z][a-z0-9_]*)";
    case Type::map: {
        std::string keys;
        for (const auto& f : field.fields)
            keys += (keys.empty() ? "" : ", ") + std::string(f.name);
        return "a mapping with the keys " + keys;
    }
    case Type::list:
        return "a list";
    case Type::operand:
        return "a number, a {parameter} or a value path";
    }
    return {};
}

// ---- the YAML walker -------------------------------------------------------------------------------------

/// Counts visited nodes, and the bytes of the texts they hold, so that an alias bomb ends in an error
/// rather than in minutes of work and gigabytes: aliases repeat a text without copying it in the file, but
/// every visit copies it into the lab.
struct Budget {
    long left = kNodeBudget;
    std::size_t textBytesLeft = kTextByteBudget;
    void spend(const YAML::Node& node) {
        if (--left < 0)
            fail(node.Mark(), "", "the file is too large (too many nodes, or aliases that repeat too much)");
        if (!node.IsScalar()) return;
        const std::size_t bytes = node.Scalar().size();
        if (bytes > textBytesLeft)
            fail(node.Mark(), "",
                 "the lab is too large: its texts, with every alias repeated, come to more than 8 MiB");
        textBytesLeft -= bytes;
    }
};

/// A mapping whose keys were checked against the allowed ones (no unknown, no duplicate keys).
class Fields {
  public:
    struct Entry {
        YAML::Node key;
        YAML::Node value;
    };

    /// `where` is the position to report for missing fields (the mapping, or its key). `context` names the
    /// mapping in an unknown-key message ("for action 'reg_mr'").
    Fields(const YAML::Node& node, const YAML::Mark& where, std::string path, const std::vector<sv>& allowed,
           Budget& budget, const std::string& context = {})
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

    const std::string& path() const { return path_; }
    const YAML::Mark& where() const { return where_; }
    bool has(const std::string& key) const { return entries_.count(key) != 0; }
    const Entry& at(const std::string& key) const { return entries_.at(key); }
    std::string field(sv key) const { return join(path_, key); }

    const Entry& required(const std::string& key) const {
        const auto it = entries_.find(key);
        if (it == entries_.end()) fail(where_, field(key), "required field '" + key + "' is missing");
        return it->second;
    }

    /// A scalar text; "" when absent and not required.
    std::string string(const std::string& key, bool required) const {
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

  private:
    YAML::Mark where_;
    std::string path_;
    std::map<std::string, Entry> entries_;
};

/// What a step may name: parameters, objects created so far, steps done so far.
struct Scope {
    const std::vector<Parameter>* parameters = nullptr;
    std::map<std::string, std::string> objects;         ///< "A.buf" -> "mr"; "device" -> "device"
    std::map<std::string, const schema::Action*> steps; ///< step id -> its action
    std::map<std::string, std::pair<std::string, int>> later_objects; ///< name -> (step id, line): not yet
    std::map<std::string, int> later_steps;                           ///< step id -> line: not yet
    /// Objects and steps that exist only under a step's `when`: name -> the condition ("a.b == 1").
    std::map<std::string, std::string> object_conditions, step_conditions;
    std::string condition;  ///< the `when` of the step being read ("" for none)
    std::string predicting; ///< the step whose `predict` question is being read: its results do not exist yet

    /// Why the current step may not name `name` (created or run under another condition), or "".
    std::string condition_problem(const std::map<std::string, std::string>& conditions,
                                  const std::string& name, sv what) const {
        const auto it = conditions.find(name);
        if (it == conditions.end() || it->second == condition) return {};
        return std::string(what) + " '" + name + "' exists only when " + it->second +
               ": give this step the same 'when'";
    }

    const Parameter* parameter(sv name) const {
        for (const auto& p : *parameters)
            if (p.name == name) return &p;
        return nullptr;
    }
};

constexpr sv kCommonResults[] = {"dur_ns", "end_ns", "errno", "error"};

/// Why `path` (a value path without braces) names nothing in `scope`, or "" when it names a value.
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

/// Every {placeholder} of a text must name a value; braces around anything else are left alone.
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

/// A localized text that may have device variants (docs/lab-format.md, Device variants): `en`, `zh`, and the
/// optional mappings `software` and `hardware`; `en` may be left out only when both variants are given.
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

// ---- values ----------------------------------------------------------------------------------------------

/// Converts the scalar `text` to a value of `field`'s type (not object, new_object, map, list, flags).
Value convert(const Field& field, const std::string& text, Position where, const std::string& path) {
    Value v;
    v.position = where;
    const bool ranged = field.min < field.max;
    auto in_range = [&](std::int64_t n) {
        if (ranged && (n < field.min || n > field.max))
            fail(where, path, std::to_string(n) + " is out of range", range_text(field), shown(text));
    };
    switch (field.type) {
    case Type::integer: {
        std::int64_t n = 0;
        if (!parse_integer(text, n)) fail(where, path, "must be an integer", type_text(field), shown(text));
        in_range(n);
        v.kind = Value::Kind::integer;
        v.integer = n;
        break;
    }
    case Type::size: {
        std::int64_t n = 0;
        if (!parse_with_unit(text, kSizeUnits, n))
            fail(where, path, "must be a size in bytes", type_text(field), shown(text));
        if (ranged && (n < field.min || n > field.max))
            fail(where, path, "size " + size_text(n) + " is out of range", range_text(field), shown(text));
        v.kind = Value::Kind::integer;
        v.integer = n;
        break;
    }
    case Type::duration: {
        std::int64_t n = 0;
        if (!parse_with_unit(text, kDurationUnits, n))
            fail(where, path, "must be a duration", type_text(field), shown(text));
        if (ranged && (n < field.min || n > field.max))
            fail(where, path, "duration " + std::to_string(n) + " ms is out of range", range_text(field),
                 shown(text));
        v.kind = Value::Kind::integer;
        v.integer = n;
        break;
    }
    case Type::u64: {
        std::uint64_t n = 0;
        if (!parse_unsigned(text, n))
            fail(where, path, "must be an unsigned 64-bit number", type_text(field), shown(text));
        if (ranged &&
            (n < static_cast<std::uint64_t>(field.min) || n > static_cast<std::uint64_t>(field.max)))
            fail(where, path, shown(text) + " is out of range", range_text(field), shown(text));
        v.kind = Value::Kind::integer;
        v.integer = static_cast<std::int64_t>(n);
        v.unsigned_value = n > static_cast<std::uint64_t>(kInt64Max);
        break;
    }
    case Type::boolean:
        if (text == "true" || text == "True" || text == "TRUE")
            v.boolean = true;
        else if (text == "false" || text == "False" || text == "FALSE")
            v.boolean = false;
        else
            fail(where, path, "must be true or false", "true or false", shown(text));
        v.kind = Value::Kind::boolean;
        break;
    case Type::text:
        v.kind = Value::Kind::text;
        v.text = text;
        break;
    case Type::hex:
        // A digit appended to an odd count makes it even, so this asks only whether every character is one.
        if (text.empty() || !is_hex_bytes(text + (text.size() % 2 != 0 ? "0" : "")))
            fail(where, path, "must be hex digits", type_text(field), shown(text));
        if (text.size() % 2 != 0)
            fail(where, path, "has an odd number of hex digits (two make a byte)", type_text(field),
                 shown(text));
        v.kind = Value::Kind::text;
        v.text = text;
        break;
    case Type::choice: {
        const sv* choice = find_choice(field.choices, text);
        if (!choice)
            fail(where, path, "unknown value '" + shown(text) + "' for '" + std::string(field.name) + "'",
                 one_of(field.choices), shown(text));
        v.kind = Value::Kind::text;
        v.text = std::string(*choice);
        break;
    }
    case Type::operand: {
        std::int64_t n = 0;
        if (parse_integer(text, n) || parse_with_unit(text, kSizeUnits, n)) {
            v.kind = Value::Kind::integer;
            v.integer = n;
        } else {
            v.kind = Value::Kind::text;
            const sv* choice = find_choice(field.choices, text);
            v.text = choice ? std::string(*choice) : text;
        }
        break;
    }
    default:
        fail(where, path, "must be " + type_text(field), {}, shown(text));
    }
    return v;
}

/// The text a parameter's value is substituted as (into "{param}" values and texts).
std::string value_text(const Value& v) {
    switch (v.kind) {
    case Value::Kind::boolean:
        return v.boolean ? "true" : "false";
    case Value::Kind::integer:
        return v.unsigned_value ? std::to_string(v.as_u64()) : std::to_string(v.integer);
    case Value::Kind::text:
        return v.text;
    default:
        return {};
    }
}

/// A parameter's value, typed as written ("4KiB"), checked against its type, range and choices.
Value parameter_value(const Parameter& p, const std::string& text, Position where, const std::string& path) {
    Field field{p.name, Type::text};
    std::vector<sv> choices(p.choices.begin(), p.choices.end());
    if (p.type == "int" || p.type == "size") {
        field.type = p.type == "int" ? Type::integer : Type::size;
        field.min = p.min.value_or(p.type == "int" ? kInt64Min : 0);
        field.max = p.max.value_or(kInt64Max);
    } else if (p.type == "bool") {
        field.type = Type::boolean;
    } else if (p.type == "choice") {
        field.type = Type::choice;
        field.choices = choices;
    }
    return convert(field, text, where, path);
}

class LabParser {
  public:
    explicit LabParser(const std::vector<Parameter>& parameters) { scope_.parameters = &parameters; }

    Scope& scope() { return scope_; }
    Budget& budget() { return budget_; }

    /// One field's value per `field`; object references are checked against the scope.
    Value value(const Field& field, const YAML::Node& node, const YAML::Mark& key_mark,
                const std::string& path) {
        budget_.spend(node);
        if (node.IsNull() || !node.IsDefined()) fail(key_mark, path, "has no value", type_text(field), {});
        Value v;
        v.position = position_of(node.Mark());
        switch (field.type) {
        case Type::map: {
            std::vector<sv> names;
            for (const auto& f : field.fields)
                names.push_back(f.name);
            const Fields fields(node, node.Mark(), path, names, budget_);
            v.kind = Value::Kind::map;
            for (const auto& f : field.fields) {
                const std::string key(f.name);
                if (fields.has(key)) {
                    const auto& e = fields.at(key);
                    v.map.emplace(key, value(f, e.value, e.key.Mark(), fields.field(key)));
                } else if (f.required) {
                    fields.required(key);
                }
            }
            return v;
        }
        case Type::list: {
            if (!node.IsSequence())
                fail(node.Mark(), path, "must be a list", type_text(field),
                     node.IsScalar() ? shown(node.Scalar()) : std::string());
            v.kind = Value::Kind::list;
            if (field.fields.empty()) return v;
            std::size_t i = 0;
            for (const auto& item : node) {
                v.list.push_back(value(field.fields[0], item, item.Mark(), indexed(path, i)));
                ++i;
            }
            return v;
        }
        case Type::flags: {
            if (!node.IsSequence())
                fail(node.Mark(), path,
                     "must be a list of flags, e.g. [" + std::string(field.choices.front()) + "]",
                     type_text(field), node.IsScalar() ? shown(node.Scalar()) : std::string());
            v.kind = Value::Kind::list;
            std::size_t i = 0;
            for (const auto& item : node) {
                budget_.spend(item);
                const std::string item_path = indexed(path, i++);
                if (!item.IsScalar())
                    fail(item.Mark(), item_path, "must be a flag name", one_of(field.choices));
                const sv* choice = find_choice(field.choices, item.Scalar());
                if (!choice)
                    fail(item.Mark(), item_path,
                         "unknown " + std::string(field.name) + " flag '" + shown(item.Scalar()) + "'",
                         one_of(field.choices), shown(item.Scalar()));
                for (const auto& earlier : v.list)
                    if (earlier.text == *choice)
                        fail(item.Mark(), item_path, "flag '" + std::string(*choice) + "' is given twice");
                Value flag;
                flag.kind = Value::Kind::text;
                flag.text = std::string(*choice);
                flag.position = position_of(item.Mark());
                v.list.push_back(std::move(flag));
            }
            return v;
        }
        default:
            break;
        }
        if (!node.IsScalar())
            fail(node.Mark(), path, "must be " + type_text(field), type_text(field),
                 node.IsSequence() ? "a list" : "a mapping");
        const std::string& text = node.Scalar();
        const Position where = position_of(node.Mark());
        if (field.type == Type::object || field.type == Type::new_object)
            return object(field, text, where, path);
        if (const sv name = placeholder_name(text); !name.empty()) {
            const Parameter* p = scope_.parameter(name);
            if (!p)
                fail(where, path, "unknown parameter '{" + std::string(name) + "}'",
                     parameter_names().empty() ? "a value (this lab has no parameters)"
                                               : one_of(parameter_names()),
                     shown(text));
            try {
                (void)convert(field, value_text(p->default_value), where, path);
            } catch (Failure& f) {
                f.message = "parameter '" + p->name + "' (default " + value_text(p->default_value) +
                            ") does not fit: " + f.message;
                throw;
            }
            v.kind = Value::Kind::text;
            v.text = text;
            return v;
        }
        if (field.type == Type::operand) {
            Value result = convert(field, text, where, path);
            if (result.kind == Value::Kind::text && !find_choice(field.choices, text) && !is_decimal(text)) {
                sv inner = text;
                if (!inner.empty() && inner.front() == '{')
                    fail(where, path, "an operand is written without braces (only a {parameter} has them)",
                         type_text(field), shown(text));
                if (inner.empty() || !std::all_of(inner.begin(), inner.end(), path_char))
                    fail(where, path, "bad operand '" + shown(text) + "'", type_text(field), shown(text));
                const std::string problem = path_problem(inner, scope_);
                if (!problem.empty()) fail(where, path, problem, type_text(field), shown(text));
            }
            return result;
        }
        return convert(field, text, where, path);
    }

    std::vector<std::string> parameter_names() const {
        std::vector<std::string> names;
        for (const auto& p : *scope_.parameters)
            names.push_back(p.name);
        return names;
    }

    /// Objects created by this step (added to the scope after its fields are read).
    std::vector<std::pair<std::string, std::string>> created;

  private:
    Value object(const Field& field, const std::string& text, Position where, const std::string& path) {
        Value v;
        v.kind = Value::Kind::text;
        v.text = text;
        v.position = where;
        if (!placeholder_name(text).empty())
            fail(where, path, "an object cannot be a parameter: name it (E.name)", type_text(field),
                 shown(text));
        const std::string kind(field.object_kind);
        if (field.type == Type::new_object) {
            if (!is_object_name(text))
                fail(where, path, "'" + shown(text) + "' is not an object name", type_text(field),
                     shown(text));
            if (scope_.objects.count(text))
                fail(where, path, "object '" + text + "' is created twice", "a name not used before",
                     shown(text));
            created.emplace_back(text, kind);
            return v;
        }
        if (text != "device" && !is_object_name(text))
            fail(where, path, "'" + shown(text) + "' is not an object name", type_text(field), shown(text));
        const auto it = scope_.objects.find(text);
        if (it == scope_.objects.end()) {
            if (const auto later = scope_.later_objects.find(text); later != scope_.later_objects.end())
                fail(where, path,
                     "object '" + text + "' is used before it is created (by step '" + later->second.first +
                         "', line " + std::to_string(later->second.second) + ")",
                     type_text(field), shown(text));
            fail(where, path, "no earlier step creates object '" + shown(text) + "'", type_text(field),
                 shown(text));
        }
        if (it->second != kind)
            fail(where, path, "object '" + text + "' is a " + it->second + ", not a " + kind, "a " + kind,
                 it->second);
        if (auto problem = scope_.condition_problem(scope_.object_conditions, text, "object");
            !problem.empty())
            fail(where, path, problem);
        return v;
    }

    Scope scope_;
    Budget budget_;
};

// ---- the lab ---------------------------------------------------------------------------------------------

constexpr sv kLevels[] = {"intro", "basic", "intermediate", "advanced"};
constexpr sv kParameterTypes[] = {"int", "size", "choice", "bool", "text"};
constexpr sv kStepKeys[] = {"id", "do", "title", "text", "expect", "when", "predict", "solution"};
constexpr std::size_t kMaxChoices = 8;

int small_integer(const Fields& fields, const std::string& key, bool required, std::int64_t min,
                  std::int64_t max, int fallback) {
    if (!fields.has(key)) {
        if (required) fields.required(key);
        return fallback;
    }
    const auto& e = fields.at(key);
    if (!e.value.IsScalar())
        fail(e.value.IsNull() ? e.key.Mark() : e.value.Mark(), fields.field(key), "must be an integer",
             "an integer from " + std::to_string(min) + " to " + std::to_string(max));
    const Field spec{key, Type::integer, required, {}, {}, {}, min, max};
    return static_cast<int>(
        convert(spec, e.value.Scalar(), position_of(e.value.Mark()), fields.field(key)).integer);
}

std::vector<Parameter> parse_parameters(const Fields& top, Budget& budget) {
    std::vector<Parameter> parameters;
    if (!top.has("parameters")) return parameters;
    const auto& list = top.at("parameters");
    if (list.value.IsNull()) return parameters;
    if (!list.value.IsSequence())
        fail(list.value.Mark(), "parameters", "must be a list of parameters ('- name: ...')");
    Scope no_scope;
    std::vector<Parameter> none;
    no_scope.parameters = &none;
    std::size_t i = 0;
    for (const auto& node : list.value) {
        const std::string path = indexed("parameters", i++);
        const Fields f(node, node.Mark(), path,
                       {"name", "type", "default", "min", "max", "choices", "text", "vary"}, budget);
        Parameter p;
        p.position = position_of(node.Mark());
        p.name = f.string("name", true);
        if (!is_name(p.name))
            fail(f.at("name").value.Mark(), f.field("name"),
                 "'" + shown(p.name) + "' is not a parameter name", "[a-z][a-z0-9_]*", shown(p.name));
        for (const auto& other : parameters)
            if (other.name == p.name)
                fail(f.at("name").value.Mark(), f.field("name"),
                     "parameter '" + p.name + "' is declared twice");
        p.type = f.string("type", true);
        const Field type_field{"parameter type", Type::choice, true, {}, kParameterTypes};
        p.type = convert(type_field, p.type, position_of(f.at("type").value.Mark()), f.field("type")).text;
        const bool numeric = p.type == "int" || p.type == "size";
        for (const char* bound : {"min", "max"}) {
            if (!f.has(bound)) continue;
            const auto& e = f.at(bound);
            if (!numeric)
                fail(e.key.Mark(), f.field(bound),
                     "'" + std::string(bound) + "' applies to int and size only");
            if (!e.value.IsScalar()) fail(e.value.Mark(), f.field(bound), "must be a number", "a number");
            const Field spec{bound, p.type == "int" ? Type::integer : Type::size};
            const auto n =
                convert(spec, e.value.Scalar(), position_of(e.value.Mark()), f.field(bound)).integer;
            (std::string(bound) == "min" ? p.min : p.max) = n;
        }
        if (p.min && p.max && *p.min > *p.max)
            fail(f.at("max").value.Mark(), f.field("max"), "max is below min",
                 "at least " + std::to_string(*p.min), std::to_string(*p.max));
        if (f.has("choices")) {
            const auto& e = f.at("choices");
            if (p.type != "choice")
                fail(e.key.Mark(), f.field("choices"), "'choices' applies to type choice only");
            if (!e.value.IsSequence() || e.value.size() == 0)
                fail(e.value.IsNull() ? e.key.Mark() : e.value.Mark(), f.field("choices"),
                     "must be a non-empty list of values");
            std::size_t j = 0;
            for (const auto& item : e.value) {
                budget.spend(item);
                if (!item.IsScalar() || item.Scalar().empty())
                    fail(item.Mark(), indexed(f.field("choices"), j), "must be a non-empty text");
                if (std::find(p.choices.begin(), p.choices.end(), item.Scalar()) != p.choices.end())
                    fail(item.Mark(), indexed(f.field("choices"), j),
                         "'" + shown(item.Scalar()) + "' is given twice");
                p.choices.push_back(item.Scalar());
                ++j;
            }
        } else if (p.type == "choice") {
            f.required("choices");
        }
        const auto& d = f.required("default");
        if (!d.value.IsScalar())
            fail(d.value.IsNull() ? d.key.Mark() : d.value.Mark(), f.field("default"),
                 "must be a single value");
        p.default_value =
            parameter_value(p, d.value.Scalar(), position_of(d.value.Mark()), f.field("default"));
        p.text = localized(f, "text", true, no_scope, budget);
        if (f.has("vary")) {
            const auto& v = f.at("vary");
            const Field spec{"vary", Type::boolean, false};
            p.vary = convert(spec, v.value.IsScalar() ? v.value.Scalar() : std::string(),
                             position_of(v.value.Mark()), f.field("vary"))
                         .boolean;
            if (p.vary && p.type != "choice" && !(numeric && p.min && p.max))
                fail(v.key.Mark(), f.field("vary"),
                     "a varying parameter needs a range to draw from: an int or size with min and max, or a "
                     "choice",
                     "type int or size with min and max, or type choice", p.type);
        }
        parameters.push_back(std::move(p));
    }
    return parameters;
}

/// A step's `when`: a compare, as the expectation of that name takes it.
const Field& when_field() {
    static const Field field = [] {
        const auto* compare = schema::find_expectation("compare");
        return Field{
            "when", Type::map, true, {}, {}, compare->fields, 0, 0, "run the step only when this holds"};
    }();
    return field;
}

/// A condition as the parser compares and shows it: "caps.atomic_write == 1".
std::string condition_text(const Value& when) {
    std::string out;
    for (const char* key : {"left", "op", "factor", "right", "plus"}) {
        const Value* v = when.find(key);
        if (!v) continue;
        if (!out.empty()) out += ' ';
        if (std::string_view(key) == "factor") {
            out += value_text(*v) + " x";
            continue;
        }
        if (std::string_view(key) == "plus") out += "+ ";
        out += value_text(*v);
    }
    return out;
}

/// `text` with every run of white space made one space, so that a quote matches across a folded line.
std::string with_single_spaces(const std::string& text) {
    std::string out;
    bool space = false;
    for (const char c : text) {
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

/// A `says` item's words must be in the text the student reads next to the value, in both languages, on
/// every class of device the item is checked on: a statement and its check cannot drift apart.
void check_says_words(const Fields::Entry& entry, const std::string& field, const Expectation& x,
                      const DeviceText& text) {
    const bool has_right = x.value.find("right") != nullptr;
    const bool has_is = x.value.find("is") != nullptr;
    if (has_right == has_is ||
        (has_is && (x.value.find("op") || x.value.find("factor") || x.value.find("plus"))))
        fail(entry.value.Mark(), field, "states one relation: 'op' and 'right' (a compare), or 'is' (a word)",
             "op and right, or is", has_is ? "is with op, right, factor or plus" : "neither");
    if (has_right && !x.value.find("op"))
        fail(entry.value.Mark(), field, "'right' needs its 'op'", "op: one of <, <=, ==, !=, >=, >");
    std::vector<DeviceClass> classes;
    if (x.device != DeviceClass::hardware) classes.push_back(DeviceClass::software);
    if (x.device != DeviceClass::software) classes.push_back(DeviceClass::hardware);
    for (const char* language : {"en", "zh"}) {
        const Value* words = x.value.find(language);
        if (!words) continue;
        const std::string quote = with_single_spaces(words->text);
        for (const DeviceClass c : classes) {
            const LocalizedText* read = text.variant(c);
            if (!read) read = &text.common;
            const std::string& body = std::string_view(language) == "en" ? read->en : read->zh;
            if (with_single_spaces(body).find(quote) != std::string::npos) continue;
            fail(entry.value[language].Mark(), field + "." + language,
                 "these words are not in the step's " + std::string(language) + " text" +
                     (text.varies() ? " for " + std::string(device_class_name(c)) + " devices"
                                    : std::string()) +
                     " (give the item 'device' when only one variant states it)",
                 "words copied from the text", shown(quote));
        }
    }
}

std::vector<Expectation> parse_expectations(const Fields& f, const schema::Action& action,
                                            const DeviceText& text, LabParser& parser) {
    std::vector<Expectation> out;
    if (!f.has("expect")) return out;
    const auto& e = f.at("expect");
    if (e.value.IsNull()) return out;
    if (!e.value.IsSequence())
        fail(e.value.Mark(), f.field("expect"), "must be a list of expectations ('- KIND: ...')");
    std::vector<sv> keys;
    for (const auto& kind : schema::expectations())
        keys.push_back(kind.name);
    std::vector<sv> kinds = keys;
    keys.push_back("why");
    keys.push_back("device");
    keys.push_back("when");
    std::size_t i = 0;
    for (const auto& node : e.value) {
        const std::string path = indexed(f.field("expect"), i++);
        const Fields item(node, node.Mark(), path, keys, parser.budget(), "(not an expectation kind)");
        Expectation x;
        x.position = position_of(node.Mark());
        const schema::ExpectationKind* kind = nullptr;
        for (const auto& k : schema::expectations()) {
            if (!item.has(std::string(k.name))) continue;
            if (kind)
                fail(item.at(std::string(k.name)).key.Mark(), item.field(k.name),
                     "one expectation per item: '" + std::string(kind->name) + "' and '" +
                         std::string(k.name) + "' are both here (write two items)");
            kind = &k;
        }
        if (!kind) fail(node.Mark(), path, "the item names no expectation kind", one_of(kinds));
        const auto& entry = item.at(std::string(kind->name));
        if (!kind->actions.empty() &&
            std::find(kind->actions.begin(), kind->actions.end(), action.name) == kind->actions.end())
            fail(entry.key.Mark(), item.field(kind->name),
                 "expectation '" + std::string(kind->name) + "' does not apply to action '" +
                     std::string(action.name) + "'",
                 "a step doing " + one_of(kind->actions), std::string(action.name));
        x.kind = std::string(kind->name);
        const Field spec{kind->name, kind->type, true, {}, kind->choices, kind->fields};
        x.value = parser.value(spec, entry.value, entry.key.Mark(), item.field(kind->name));
        x.why = localized(item, "why", false, parser.scope(), parser.budget());
        if (item.has("device")) {
            const auto& d = item.at("device");
            if (x.kind == "fails")
                fail(d.key.Mark(), item.field("device"),
                     "a step's failure decides what the lab does next, on every device: 'fails' takes no "
                     "'device' (give the step device variants of its text instead)");
            const std::string name = d.value.IsScalar() ? d.value.Scalar() : std::string();
            for (const DeviceClass c : {DeviceClass::software, DeviceClass::hardware})
                if (name == device_class_name(c)) x.device = c;
            if (x.device == DeviceClass::unknown)
                fail(d.value.Mark(), item.field("device"),
                     "names the class of device the expectation is checked on", "software or hardware",
                     d.value.IsScalar()     ? name
                     : d.value.IsSequence() ? "a list"
                                            : "a mapping");
        }
        if (item.has("when")) {
            const auto& w = item.at("when");
            if (x.kind == "fails")
                fail(
                    w.key.Mark(), item.field("when"),
                    "a step's failure decides what the lab does next: 'fails' takes no 'when' (give the step "
                    "a 'when' instead)");
            x.when = parser.value(when_field(), w.value, w.key.Mark(), item.field("when"));
        }
        if (x.kind == "says") check_says_words(entry, item.field(kind->name), x, text);
        out.push_back(std::move(x));
    }
    return out;
}

/// The list `key` of `f` as a sequence of 2 to kMaxChoices items.
const Fields::Entry& choice_list(const Fields& f, const std::string& key) {
    const auto& e = f.required(key);
    if (!e.value.IsSequence() || e.value.size() < 2 || e.value.size() > kMaxChoices)
        fail(e.value.IsNull() ? e.key.Mark() : e.value.Mark(), f.field(key),
             "must be a list of 2 to " + std::to_string(kMaxChoices) + " choices",
             "2 to " + std::to_string(kMaxChoices) + " items",
             e.value.IsSequence() ? std::to_string(e.value.size()) + " items" : std::string());
    return e;
}

/// A step's `predict`, in two parts: the question and its choices name only what is known before the step
/// runs (read before the step's results enter the scope); `answer` and `why` may name the step's results.
Fields prediction_fields(const Fields& f, LabParser& parser) {
    const auto& e = f.at("predict");
    return Fields(e.value, e.key.Mark(), f.field("predict"), {"question", "answer", "choices", "why"},
                  parser.budget());
}

Prediction parse_prediction_question(const Fields& f, const Fields& p, LabParser& parser) {
    Prediction prediction;
    prediction.position = position_of(f.at("predict").value.Mark());
    prediction.question = localized(p, "question", true, parser.scope(), parser.budget());
    const auto& list = choice_list(p, "choices");
    std::size_t i = 0;
    for (const auto& item : list.value) {
        const std::string path = indexed(p.field("choices"), i++);
        const Fields c(item, item.Mark(), path, {"value", "text"}, parser.budget());
        Prediction::Choice choice;
        choice.value = c.string("value", true);
        for (const auto& earlier : prediction.choices)
            if (earlier.value == choice.value)
                fail(c.at("value").value.Mark(), c.field("value"),
                     "the value '" + shown(choice.value) + "' is given twice");
        choice.text = localized(c, "text", true, parser.scope(), parser.budget());
        prediction.choices.push_back(std::move(choice));
    }
    return prediction;
}

void parse_prediction_answer(const Fields& p, LabParser& parser, Prediction& prediction) {
    prediction.answer = p.string("answer", true);
    const auto mark = p.at("answer").value.Mark();
    const sv answer = prediction.answer;
    if (!std::all_of(answer.begin(), answer.end(), path_char) || answer.find('.') == sv::npos)
        fail(mark, p.field("answer"),
             "the answer is a value the step shows: a value path such as 'poll_a.status' or 'B.qp.state' "
             "(without braces)",
             "a value path (STEP.RESULT or E.name.field)", shown(prediction.answer));
    if (const std::string problem = path_problem(answer, parser.scope()); !problem.empty())
        fail(mark, p.field("answer"), problem, "a value path", shown(prediction.answer));
    prediction.why = localized(p, "why", false, parser.scope(), parser.budget());
}

std::vector<Question> parse_questions(const Fields& top, LabParser& parser) {
    std::vector<Question> out;
    if (!top.has("questions") || top.at("questions").value.IsNull()) return out;
    const auto& e = top.at("questions");
    if (!e.value.IsSequence())
        fail(e.value.Mark(), "questions", "must be a list of questions ('- kind: single ...')");
    constexpr sv kKinds[] = {"single", "multiple"};
    std::size_t i = 0;
    for (const auto& node : e.value) {
        const std::string path = indexed("questions", i++);
        const Fields q(node, node.Mark(), path, {"kind", "text", "choices", "explanation"}, parser.budget());
        Question question;
        question.position = position_of(node.Mark());
        const std::string kind = q.string("kind", true);
        const Field spec{"question kind", Type::choice, true, {}, kKinds};
        question.multiple =
            convert(spec, kind, position_of(q.at("kind").value.Mark()), q.field("kind")).text == "multiple";
        question.text = localized(q, "text", true, parser.scope(), parser.budget());
        const auto& list = choice_list(q, "choices");
        std::size_t j = 0, right = 0;
        for (const auto& item : list.value) {
            const std::string choice_path = indexed(q.field("choices"), j++);
            const Fields c(item, item.Mark(), choice_path, {"text", "correct"}, parser.budget());
            Question::Choice choice;
            choice.text = localized(c, "text", true, parser.scope(), parser.budget());
            if (c.has("correct")) {
                const auto& v = c.at("correct");
                const Field flag{"correct", Type::boolean, false};
                choice.correct = convert(flag, v.value.IsScalar() ? v.value.Scalar() : std::string(),
                                         position_of(v.value.Mark()), c.field("correct"))
                                     .boolean;
            }
            right += choice.correct ? 1 : 0;
            question.choices.push_back(std::move(choice));
        }
        if (right == 0)
            fail(list.key.Mark(), q.field("choices"), "no choice is marked 'correct: true'",
                 question.multiple ? "at least one right choice" : "exactly one right choice", "none");
        if (!question.multiple && right > 1)
            fail(list.key.Mark(), q.field("choices"),
                 std::to_string(right) + " choices are marked right in a single-choice question (use "
                                         "'kind: multiple')",
                 "exactly one right choice", std::to_string(right));
        question.explanation = localized(q, "explanation", false, parser.scope(), parser.budget());
        out.push_back(std::move(question));
    }
    return out;
}

Step parse_step(const YAML::Node& node, const std::string& path, LabParser& parser,
                std::map<std::string, int>& seen_ids) {
    Scope& scope = parser.scope();
    // The action first: it decides which keys the step may have.
    if (!node.IsMap()) fail(node.Mark(), path, "must be a mapping (id: ..., do: ..., text: ...)");
    const schema::Action* action = schema::find_action("note");
    if (const YAML::Node do_node = node["do"]) {
        if (!do_node.IsScalar())
            fail(do_node.IsNull() ? node.Mark() : do_node.Mark(), join(path, "do"),
                 "must be the name of an action");
        action = schema::find_action(do_node.Scalar());
        if (!action) {
            std::vector<sv> names;
            for (const auto& a : schema::actions())
                names.push_back(a.name);
            fail(do_node.Mark(), join(path, "do"), "unknown action '" + shown(do_node.Scalar()) + "'",
                 one_of(names), shown(do_node.Scalar()));
        }
    }
    std::vector<sv> allowed(std::begin(kStepKeys), std::end(kStepKeys));
    for (const auto& field : action->fields)
        allowed.push_back(field.name);
    const Fields f(node, node.Mark(), path, allowed, parser.budget(),
                   "for action '" + std::string(action->name) + "'");

    Step step;
    step.position = position_of(node.Mark());
    step.action = std::string(action->name);
    step.id = f.string("id", true);
    const auto id_mark = f.at("id").value.Mark();
    if (!is_step_id(step.id))
        fail(id_mark, f.field("id"), "'" + shown(step.id) + "' is not a step id", "letters, digits and '_'",
             shown(step.id));
    if (const auto it = seen_ids.find(step.id); it != seen_ids.end())
        fail(id_mark, f.field("id"),
             "duplicate step id '" + step.id + "' (first on line " + std::to_string(it->second) + ")");
    seen_ids.emplace(step.id, id_mark.line + 1);
    scope.later_steps.erase(step.id);

    // The condition first: it names only earlier steps' results, and decides what this step may name.
    scope.condition.clear();
    if (f.has("when")) {
        const auto& w = f.at("when");
        step.when = parser.value(when_field(), w.value, w.key.Mark(), f.field("when"));
        scope.condition = condition_text(*step.when);
    }
    parser.created.clear();
    for (const auto& field : action->fields) {
        const std::string key(field.name);
        if (!f.has(key)) {
            if (field.required) f.required(key);
            continue;
        }
        const auto& e = f.at(key);
        step.args.emplace(key, parser.value(field, e.value, e.key.Mark(), f.field(key)));
    }
    if (action->name == "open_device") {
        if (scope.objects.count("device"))
            fail(node.Mark(), path, "the device is opened twice (open_device once per lab)");
        parser.created.emplace_back("device", "device");
    }
    if (f.has("solution")) {
        if (action->name != "note")
            fail(f.at("solution").key.Mark(), f.field("solution"),
                 "only the student's turn has a solution: a step without 'do' (a note)", "a note step",
                 std::string(action->name));
        step.your_turn = true;
    }
    std::optional<Fields> predict;
    if (f.has("predict")) {
        predict.emplace(prediction_fields(f, parser));
        scope.predicting = step.id;
        step.predict = parse_prediction_question(f, *predict, parser);
        scope.predicting.clear();
    }
    for (const auto& [name, kind] : parser.created) {
        scope.objects.emplace(name, kind);
        scope.later_objects.erase(name);
        if (!scope.condition.empty()) scope.object_conditions.emplace(name, scope.condition);
    }
    scope.steps.emplace(step.id, action);
    if (!scope.condition.empty()) scope.step_conditions.emplace(step.id, scope.condition);

    step.title = localized(f, "title", false, scope, parser.budget());
    step.text = device_text(f, "text", true, scope, parser.budget());
    step.expect = parse_expectations(f, *action, step.text, parser);
    if (step.predict) parse_prediction_answer(*predict, parser, *step.predict);
    scope.condition.clear();
    return step;
}

Lab parse(const YAML::Node& root) {
    if (!root.IsDefined() || root.IsNull()) fail(Position{}, "", "the file is empty");
    Budget top_budget;
    const Fields top(root, root.Mark(), "",
                     {"lab", "id", "chapter", "order", "title", "level", "minutes", "objectives",
                      "references", "parameters", "summary", "steps", "questions"},
                     top_budget);
    Lab lab;
    {
        const auto& e = top.required("lab");
        std::int64_t version = 0;
        if (!e.value.IsScalar() || !parse_integer(e.value.Scalar(), version) || version != 1)
            fail(e.value.IsNull() ? e.key.Mark() : e.value.Mark(), "lab", "unsupported lab format version",
                 "1", e.value.IsScalar() ? shown(e.value.Scalar()) : std::string());
        lab.format = 1;
    }
    lab.id = top.string("id", true);
    if (!is_lab_id(lab.id))
        fail(top.at("id").value.Mark(), "id", "'" + shown(lab.id) + "' is not a lab id",
             "[a-z0-9][a-z0-9_-]*", shown(lab.id));
    lab.chapter = small_integer(top, "chapter", true, 1, 99, 0);
    lab.order = small_integer(top, "order", false, 0, 1000, 0);
    {
        const auto& e = top.required("level");
        if (!e.value.IsScalar()) fail(e.value.Mark(), "level", "must be a level", one_of(kLevels));
        const Field spec{"level", Type::choice, true, {}, kLevels};
        lab.level = convert(spec, e.value.Scalar(), position_of(e.value.Mark()), "level").text;
    }
    lab.minutes = small_integer(top, "minutes", true, 1, 600, 0);

    lab.parameters = parse_parameters(top, top_budget);
    LabParser parser(lab.parameters);
    Scope& scope = parser.scope();

    lab.title = localized(top, "title", true, scope, parser.budget());
    {
        const auto& e = top.required("objectives");
        if (!e.value.IsSequence() || e.value.size() == 0)
            fail(e.value.IsNull() ? e.key.Mark() : e.value.Mark(), "objectives",
                 "must be a non-empty list of texts ('- {en: ..., zh: ...}')");
        std::size_t i = 0;
        for (const auto& item : e.value) {
            lab.objectives.push_back(
                localized(item, item.Mark(), indexed("objectives", i), scope, parser.budget()));
            ++i;
        }
    }
    if (top.has("references") && !top.at("references").value.IsNull()) {
        const auto& e = top.at("references");
        if (!e.value.IsSequence())
            fail(e.value.Mark(), "references", "must be a list of references ('- {title: ..., where: ...}')");
        std::size_t i = 0;
        for (const auto& item : e.value) {
            const Fields f(item, item.Mark(), indexed("references", i++), {"title", "where"},
                           parser.budget());
            lab.references.push_back({f.string("title", true), f.string("where", false)});
        }
    }

    const auto& steps = top.required("steps");
    if (!steps.value.IsSequence() || steps.value.size() == 0)
        fail(steps.value.IsNull() ? steps.key.Mark() : steps.value.Mark(), "steps",
             "must be a non-empty list of steps ('- id: ...')");
    // What later steps create and name, for errors that say "later" rather than "nowhere".
    for (const auto& node : steps.value) {
        parser.budget().spend(node);
        if (!node.IsMap()) continue;
        const YAML::Node id = node["id"];
        if (!id || !id.IsScalar()) continue;
        const int line = node.Mark().line + 1;
        scope.later_steps.emplace(id.Scalar(), line);
        const YAML::Node as = node["as"];
        if (as && as.IsScalar()) scope.later_objects.emplace(as.Scalar(), std::make_pair(id.Scalar(), line));
    }
    std::map<std::string, int> seen_ids;
    std::size_t i = 0;
    for (const auto& node : steps.value) {
        const std::string path = indexed("steps", i++);
        lab.steps.push_back(parse_step(node, path, parser, seen_ids));
        if (!lab.steps.back().your_turn) continue;
        // The reference fix runs where the student's work would be, so later steps may name what it makes.
        const YAML::Node solution = node["solution"];
        if (std::count_if(lab.steps.begin(), lab.steps.end(), [](const Step& s) { return s.your_turn; }) > 1)
            fail(solution.Mark(), join(path, "solution"),
                 "a lab has one student's turn (one step with 'solution')");
        if (!solution.IsSequence() || solution.size() == 0)
            fail(solution.Mark(), join(path, "solution"),
                 "must be a non-empty list of steps (the reference fix)");
        std::size_t j = 0;
        for (const auto& item : solution) {
            parser.budget().spend(item);
            const std::string item_path = indexed(join(path, "solution"), j++);
            if (item.IsMap() && item["solution"])
                fail(item["solution"].Mark(), join(item_path, "solution"),
                     "a solution has no solution of its own");
            Step fix = parse_step(item, item_path, parser, seen_ids);
            fix.solution = true;
            lab.steps.push_back(std::move(fix));
        }
    }
    lab.summary = device_text(top, "summary", false, scope, parser.budget());
    lab.questions = parse_questions(top, parser);
    return lab;
}

/// Runs `body`, turning every failure into `error` (whose file is set); never throws.
template <typename Body> auto guarded(Body body, LabError& error) -> decltype(std::optional(body())) {
    try {
        return body();
    } catch (const Failure& f) {
        error.line = f.position.line;
        error.column = f.position.column;
        error.field = f.field;
        error.message = f.message;
        error.expected = f.expected;
        error.found = f.found;
    } catch (const YAML::DeepRecursion& e) {
        error.line = e.mark.line >= 0 ? e.mark.line + 1 : 0;
        error.column = e.mark.column >= 0 ? e.mark.column + 1 : 0;
        error.message = "the file nests too deeply (more than " + std::to_string(e.depth() - 1) + " levels)";
    } catch (const YAML::ParserException& e) {
        error.line = e.mark.line >= 0 ? e.mark.line + 1 : 0;
        error.column = e.mark.column >= 0 ? e.mark.column + 1 : 0;
        error.message = "YAML syntax error: " + e.msg;
    } catch (const YAML::Exception& e) {
        error.line = e.mark.line >= 0 ? e.mark.line + 1 : 0;
        error.column = e.mark.column >= 0 ? e.mark.column + 1 : 0;
        error.message = "YAML error: " + e.msg;
    } catch (const std::bad_alloc&) {
        error.message = "out of memory while reading the file";
    } catch (const std::exception& e) {
        error.message = std::string("internal error: ") + e.what();
    } catch (...) {
        error.message = "internal error";
    }
    return std::nullopt;
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

// ---- instantiate -----------------------------------------------------------------------------------------

std::string substitute_parameters(const std::string& text, const Lab& lab) {
    std::map<std::string, std::string> values;
    for (const auto& p : lab.parameters)
        values.emplace(p.name, value_text(p.default_value));
    return render(text, values);
}

void substitute(LocalizedText& text, const Lab& lab) {
    text.en = substitute_parameters(text.en, lab);
    text.zh = substitute_parameters(text.zh, lab);
}

void substitute(DeviceText& text, const Lab& lab) {
    substitute(text.common, lab);
    substitute(text.software, lab);
    substitute(text.hardware, lab);
}

/// Replaces "{param}" values in `v` (of `field`'s type) by the parameter's value, checked against the field.
void substitute(Value& v, const Field& field, const std::string& path, const Lab& lab) {
    switch (field.type) {
    case Type::map:
        for (auto& [key, item] : v.map) {
            const auto it = std::find_if(field.fields.begin(), field.fields.end(),
                                         [&key = key](const Field& f) { return f.name == key; });
            if (it != field.fields.end()) substitute(item, *it, join(path, key), lab);
        }
        return;
    case Type::list:
        if (field.fields.empty()) return;
        for (std::size_t i = 0; i < v.list.size(); ++i)
            substitute(v.list[i], field.fields[0], indexed(path, i), lab);
        return;
    case Type::flags:
    case Type::object:
    case Type::new_object:
        return;
    default:
        break;
    }
    if (v.kind != Value::Kind::text) return;
    const sv name = placeholder_name(v.text);
    if (name.empty()) return;
    const Parameter* p = lab.parameter(name);
    if (!p) fail(v.position, path, "unknown parameter '{" + std::string(name) + "}'");
    const std::string text = value_text(p->default_value);
    try {
        const Position where = v.position;
        v = convert(field, text, where, path);
    } catch (Failure& f) {
        f.message = "parameter '" + p->name + "' = " + shown(text) + " does not fit: " + f.message;
        throw;
    }
}

Lab instantiate_or_throw(const Lab& lab, const ParameterValues& values) {
    Lab out = lab;
    for (const auto& [name, text] : values) {
        const auto it = std::find_if(out.parameters.begin(), out.parameters.end(),
                                     [&name = name](const Parameter& p) { return p.name == name; });
        if (it == out.parameters.end()) {
            std::vector<std::string> names;
            for (const auto& p : out.parameters)
                names.push_back(p.name);
            fail(Position{}, "parameters", "unknown parameter '" + shown(name) + "'",
                 names.empty() ? "none (this lab has no parameters)" : one_of(names), shown(name));
        }
        const std::string path = indexed("parameters", static_cast<std::size_t>(it - out.parameters.begin()));
        try {
            it->default_value = parameter_value(*it, text, it->position, path);
        } catch (Failure& f) {
            f.message = "parameter '" + name + "': " + f.message;
            throw;
        }
    }
    for (std::size_t i = 0; i < out.steps.size(); ++i) {
        Step& step = out.steps[i];
        const std::string path = indexed("steps", i);
        const auto* action = schema::find_action(step.action);
        if (!action) fail(step.position, join(path, "do"), "unknown action '" + shown(step.action) + "'");
        for (auto& [key, value] : step.args) {
            const auto field = std::find_if(action->fields.begin(), action->fields.end(),
                                            [&key = key](const Field& f) { return f.name == key; });
            if (field != action->fields.end()) substitute(value, *field, join(path, key), out);
        }
        if (step.when) substitute(*step.when, when_field(), join(path, "when"), out);
        for (std::size_t j = 0; j < step.expect.size(); ++j) {
            auto& x = step.expect[j];
            const auto* kind = schema::find_expectation(x.kind);
            if (!kind) continue;
            const Field spec{kind->name, kind->type, true, {}, kind->choices, kind->fields};
            substitute(x.value, spec, join(indexed(join(path, "expect"), j), x.kind), out);
            if (x.when)
                substitute(*x.when, when_field(), join(indexed(join(path, "expect"), j), "when"), out);
            substitute(x.why, out);
        }
        substitute(step.title, out);
        substitute(step.text, out);
    }
    substitute(out.title, out);
    for (auto& o : out.objectives)
        substitute(o, out);
    substitute(out.summary, out);
    return out;
}

// ---- chapters --------------------------------------------------------------------------------------------

std::vector<Chapter> parse_chapters(const YAML::Node& root) {
    if (!root.IsDefined() || root.IsNull()) fail(Position{}, "", "the file is empty");
    Budget budget;
    const Fields top(root, root.Mark(), "", {"chapters"}, budget);
    const auto& list = top.required("chapters");
    if (!list.value.IsSequence()) fail(list.value.Mark(), "chapters", "must be a list of chapters");
    std::vector<Parameter> none;
    Scope scope;
    scope.parameters = &none;
    std::vector<Chapter> chapters;
    std::size_t i = 0;
    for (const auto& node : list.value) {
        const std::string path = indexed("chapters", i++);
        const Fields f(node, node.Mark(), path, {"number", "slug", "title"}, budget);
        Chapter c;
        c.number = small_integer(f, "number", true, 1, 99, 0);
        c.slug = f.string("slug", true);
        if (!is_lab_id(c.slug))
            fail(f.at("slug").value.Mark(), f.field("slug"), "'" + shown(c.slug) + "' is not a slug",
                 "[a-z0-9][a-z0-9_-]*", shown(c.slug));
        c.title = localized(f, "title", true, scope, budget);
        for (const auto& other : chapters)
            if (other.number == c.number)
                fail(f.at("number").value.Mark(), f.field("number"),
                     "chapter " + std::to_string(c.number) + " is listed twice");
        chapters.push_back(std::move(c));
    }
    std::sort(chapters.begin(), chapters.end(),
              [](const Chapter& a, const Chapter& b) { return a.number < b.number; });
    return chapters;
}

void missing(const LocalizedText& text, const std::string& path, std::vector<std::string>& out) {
    if (!text.en.empty() && text.zh.empty()) out.push_back(path + ".zh");
}

void missing(const DeviceText& text, const std::string& path, std::vector<std::string>& out) {
    missing(text.common, path, out);
    missing(text.software, path + ".software", out);
    missing(text.hardware, path + ".hardware", out);
}

} // namespace

const Value* Value::find(std::string_view key) const {
    const auto it = map.find(std::string(key));
    return it == map.end() ? nullptr : &it->second;
}

std::string Step::creates() const {
    if (action == "open_device") return "device";
    const auto* a = schema::find_action(action);
    if (!a) return {};
    for (const auto& field : a->fields)
        if (field.type == Type::new_object)
            if (const auto it = args.find(std::string(field.name)); it != args.end()) return it->second.text;
    return {};
}

bool Lab::troubleshooting() const {
    return std::any_of(steps.begin(), steps.end(), [](const Step& s) { return s.your_turn; });
}

const Step* Lab::step(std::string_view step_id) const {
    for (const auto& s : steps)
        if (s.id == step_id) return &s;
    return nullptr;
}

const Parameter* Lab::parameter(std::string_view parameter_name) const {
    for (const auto& p : parameters)
        if (p.name == parameter_name) return &p;
    return nullptr;
}

std::string LabError::to_string() const {
    std::string out = file;
    if (line > 0) out += ":" + std::to_string(line) + ":" + std::to_string(column);
    out += ": ";
    if (!field.empty()) out += "field '" + field + "': ";
    out += message;
    if (!expected.empty() || !found.empty()) {
        out += " (";
        if (!expected.empty()) out += "expected " + expected;
        if (!expected.empty() && !found.empty()) out += ", ";
        if (!found.empty()) out += "found " + found;
        out += ")";
    }
    return out;
}

/// A lab is UTF-8 text: a byte that starts no valid sequence is refused at its line and column (a student
/// would otherwise read replacement characters, and a text compare would fail on bytes no one can see).
void refuse_invalid_utf8(sv text) {
    int line = 1, column = 1;
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        std::size_t n = c < 0x80 ? 1 : utf8_length(text, i);
        if (n == 0) {
            static constexpr char kHex[] = "0123456789abcdef";
            fail(Position{line, column}, "",
                 std::string("the file is not UTF-8 text: byte 0x") + kHex[c >> 4] + kHex[c & 15] +
                     " starts no UTF-8 character (save the lab as UTF-8)");
        }
        if (c == '\n') {
            ++line;
            column = 0;
        }
        ++column;
        i += n;
    }
}

std::optional<Lab> parse_lab(const std::string& text, const std::string& name, LabError& error) {
    error = LabError{};
    error.file = name;
    return guarded(
        [&] {
            if (text.size() > kMaxFileBytes)
                fail(Position{}, "",
                     "the lab is too large (" + std::to_string(text.size()) +
                         " bytes; a lab is at most 1 MiB)");
            refuse_invalid_utf8(text);
            Lab lab = parse(YAML::Load(text));
            lab.file = name;
            return lab;
        },
        error);
}

bool is_hex_bytes(std::string_view text) {
    return !text.empty() && text.size() % 2 == 0 &&
           std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isxdigit(c) != 0; });
}

std::optional<std::string> parameter_text(const Parameter& parameter, const std::string& typed) {
    try {
        return value_text(parameter_value(parameter, typed, Position{}, parameter.name));
    } catch (const Failure&) {
        return std::nullopt;
    }
}

bool names_a_lab_file(const std::string& id_or_file) {
    return id_or_file.find('/') != std::string::npos ||
           (id_or_file.size() > 5 && id_or_file.ends_with(".yaml"));
}

std::optional<Lab> load_lab(const std::string& path, LabError& error) {
    std::string text;
    error = LabError{};
    error.file = path;
    if (!read_file(path, text, error)) return std::nullopt;
    return parse_lab(text, path, error);
}

std::vector<Lab> load_labs(const std::string& directory, std::vector<LabError>& errors) {
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    std::error_code ec;
    fs::recursive_directory_iterator it(directory, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
        LabError e;
        e.file = directory;
        e.message = "cannot read the lab directory: " + ec.message();
        errors.push_back(std::move(e));
        return {};
    }
    // Nothing is skipped silently: a folder that cannot be read and a .yaml that is not a regular file
    // (a FIFO, a socket, a link to nothing) are listed with the reason.
    const auto refuse = [&](const fs::path& path, const std::string& message) {
        LabError e;
        e.file = path.string();
        e.message = message;
        errors.push_back(std::move(e));
    };
    for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec) {
            refuse(directory, "the lab folder could not be read to its end: " + ec.message());
            break;
        }
        const auto& path = it->path();
        std::error_code type_ec;
        const auto status = it->symlink_status(type_ec);
        if (fs::is_directory(status) && ::access(path.c_str(), R_OK | X_OK) != 0) {
            refuse(path, std::string("cannot read the folder: ") + std::strerror(errno));
            it.disable_recursion_pending();
            continue;
        }
        if (path.extension() != ".yaml" || path.filename() == "chapters.yaml") continue;
        if (it->is_regular_file(type_ec)) {
            files.push_back(path.string());
        } else if (fs::is_symlink(status) && !fs::exists(path, type_ec)) {
            refuse(path,
                   "not a lab file: a link to nothing (" + fs::read_symlink(path, type_ec).string() + ")");
        } else if (!it->is_directory(type_ec)) {
            refuse(path, fs::is_fifo(it->status(type_ec))     ? "not a lab file: a FIFO"
                         : fs::is_socket(it->status(type_ec)) ? "not a lab file: a socket"
                                                              : "not a lab file: not a regular file");
        }
    }
    std::sort(files.begin(), files.end());
    // Bounded work whatever the folder holds: the first kMaxLabFiles by name are read.
    if (files.size() > kMaxLabFiles) {
        refuse(directory, "the folder holds " + std::to_string(files.size()) + " lab files; the first " +
                              std::to_string(kMaxLabFiles) + " (by name) were read");
        files.resize(kMaxLabFiles);
    }

    std::vector<Lab> labs;
    for (const auto& file : files) {
        LabError error;
        auto lab = load_lab(file, error);
        if (!lab) {
            errors.push_back(std::move(error));
            continue;
        }
        const auto same =
            std::find_if(labs.begin(), labs.end(), [&](const Lab& other) { return other.id == lab->id; });
        if (same != labs.end()) {
            LabError e;
            e.file = file;
            e.field = "id";
            e.message = "lab id '" + lab->id + "' is already used by " + same->file;
            e.found = lab->id;
            errors.push_back(std::move(e));
            continue;
        }
        labs.push_back(std::move(*lab));
    }
    std::sort(labs.begin(), labs.end(), [](const Lab& a, const Lab& b) {
        if (a.chapter != b.chapter) return a.chapter < b.chapter;
        if (a.order != b.order) return a.order < b.order;
        return a.id < b.id;
    });
    return labs;
}

std::vector<Chapter> load_chapters(const std::string& path, std::vector<LabError>& errors) {
    LabError error;
    error.file = path;
    std::string text;
    if (!read_file(path, text, error)) {
        errors.push_back(std::move(error));
        return {};
    }
    auto chapters = guarded([&] { return parse_chapters(YAML::Load(text)); }, error);
    if (!chapters) {
        errors.push_back(std::move(error));
        return {};
    }
    return std::move(*chapters);
}

std::optional<Lab> instantiate(const Lab& lab, const ParameterValues& values, LabError& error) {
    error = LabError{};
    error.file = lab.file;
    return guarded([&] { return instantiate_or_throw(lab, values); }, error);
}

ParameterValues seeded_values(const Lab& lab, const std::string& seed) {
    ParameterValues out;
    if (seed.empty()) return out;
    for (const auto& p : lab.parameters) {
        if (!p.vary) continue;
        // FNV-1a over seed, lab id and parameter name: the same on every machine and every run.
        std::uint64_t h = 14695981039346656037ULL;
        for (const std::string* part : {&seed, &lab.id, &p.name}) {
            for (const unsigned char c : *part) {
                h ^= c;
                h *= 1099511628211ULL;
            }
            h ^= 0xff;
            h *= 1099511628211ULL;
        }
        if (p.type == "choice") {
            out[p.name] = p.choices[h % p.choices.size()];
        } else if (p.type == "int") {
            // In unsigned arithmetic: max - min overflows int64 for a wide range, and the full 64-bit range
            // has 2^64 values, one more than a uint64_t counts (then every h is a value of its own).
            const std::uint64_t width =
                static_cast<std::uint64_t>(*p.max) - static_cast<std::uint64_t>(*p.min);
            const std::uint64_t offset =
                width == std::numeric_limits<std::uint64_t>::max() ? h : h % (width + 1);
            out[p.name] =
                std::to_string(static_cast<std::int64_t>(static_cast<std::uint64_t>(*p.min) + offset));
        } else { // size: a power of two in [min, max], or min when there is none
            std::vector<std::int64_t> powers;
            for (std::int64_t v = 1;; v *= 2) { // stops before doubling past max, so never overflows
                if (v >= *p.min && v <= *p.max) powers.push_back(v);
                if (v > *p.max / 2) break;
            }
            out[p.name] = std::to_string(powers.empty() ? *p.min : powers[h % powers.size()]);
        }
    }
    return out;
}

std::vector<std::string> missing_translations(const Lab& lab) {
    std::vector<std::string> out;
    missing(lab.title, "title", out);
    for (std::size_t i = 0; i < lab.objectives.size(); ++i)
        missing(lab.objectives[i], indexed("objectives", i), out);
    for (std::size_t i = 0; i < lab.parameters.size(); ++i)
        missing(lab.parameters[i].text, indexed("parameters", i) + ".text", out);
    missing(lab.summary, "summary", out);
    for (std::size_t i = 0; i < lab.steps.size(); ++i) {
        const auto& step = lab.steps[i];
        const std::string path = indexed("steps", i);
        missing(step.title, path + ".title", out);
        missing(step.text, path + ".text", out);
        for (std::size_t j = 0; j < step.expect.size(); ++j)
            missing(step.expect[j].why, indexed(path + ".expect", j) + ".why", out);
        if (step.predict) {
            missing(step.predict->question, path + ".predict.question", out);
            for (std::size_t j = 0; j < step.predict->choices.size(); ++j)
                missing(step.predict->choices[j].text, indexed(path + ".predict.choices", j) + ".text", out);
            missing(step.predict->why, path + ".predict.why", out);
        }
    }
    for (std::size_t i = 0; i < lab.questions.size(); ++i) {
        const auto& q = lab.questions[i];
        const std::string path = indexed("questions", i);
        missing(q.text, path + ".text", out);
        for (std::size_t j = 0; j < q.choices.size(); ++j)
            missing(q.choices[j].text, indexed(path + ".choices", j) + ".text", out);
        missing(q.explanation, path + ".explanation", out);
    }
    return out;
}

/// Where the curriculum is: $RDMALAB_LABS_DIR, else share/rdmalab/labs beside an installed rdmalab-cli
/// (bin/../share/rdmalab/labs), else the source tree's labs/ this program was built from.
std::string default_labs_directory() {
    if (const char* env = std::getenv("RDMALAB_LABS_DIR"); env && *env) return env;
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const auto beside = exe.parent_path() / ".." / "share" / "rdmalab" / "labs";
        if (std::filesystem::is_directory(beside, ec)) return beside.lexically_normal().string();
    }
    return build::labs_dir();
}

namespace {

/// A YAML node as JSON, scalars as text with every {param} replaced by its value.
nlohmann::json to_json(const YAML::Node& node, const std::map<std::string, std::string>& values) {
    if (node.IsMap()) {
        nlohmann::json out = nlohmann::json::object();
        for (auto it = node.begin(); it != node.end(); ++it)
            out[it->first.Scalar()] = to_json(it->second, values);
        return out;
    }
    if (node.IsSequence()) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& item : node)
            out.push_back(to_json(item, values));
        return out;
    }
    if (!node.IsScalar()) return nullptr;
    std::string text = node.Scalar();
    for (const auto& [name, value] : values) {
        const std::string placeholder = "{" + name + "}";
        for (auto at = text.find(placeholder); at != std::string::npos;
             at = text.find(placeholder, at + value.size()))
            text.replace(at, placeholder.size(), value);
    }
    return text;
}

} // namespace

std::optional<TroubleshootingSteps> troubleshooting_steps(const Lab& lab, const ParameterValues& values,
                                                          LabError& error) {
    error = LabError{};
    error.file = lab.file;
    return guarded(
        [&]() -> TroubleshootingSteps {
            const Lab ready = instantiate_or_throw(lab, values);
            std::map<std::string, std::string> texts;
            for (const auto& p : ready.parameters)
                texts[p.name] = value_text(p.default_value);
            std::string text;
            if (!read_file(lab.file, text, error)) throw Failure{Position{}, "", error.message, "", ""};
            const YAML::Node root = YAML::Load(text);
            TroubleshootingSteps out;
            bool after = false;
            for (const auto& node : root["steps"]) {
                nlohmann::json step = to_json(node, texts);
                if (step.contains("solution")) {
                    for (auto& fix : step["solution"])
                        out.solution.push_back(std::move(fix));
                    step.erase("solution");
                    out.turn = std::move(step);
                    after = true;
                    continue;
                }
                (after ? out.checks : out.setup).push_back(std::move(step));
            }
            if (!after) fail(Position{}, "steps", "the lab has no student's turn (a step with 'solution')");
            return out;
        },
        error);
}

namespace {

bool is_name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// `text` with every `id.x` (x a lower-case letter or '_', the id not preceded by a name character) written as
// `id<suffix>.x`.
std::string rename_results(std::string text, const std::string& id, const std::string& suffix) {
    std::size_t at = 0;
    while ((at = text.find(id, at)) != std::string::npos) {
        const std::size_t end = at + id.size();
        const bool starts = at == 0 || !is_name_char(text[at - 1]);
        const bool names_result =
            end + 1 < text.size() && text[end] == '.' &&
            (std::islower(static_cast<unsigned char>(text[end + 1])) != 0 || text[end + 1] == '_');
        if (starts && names_result) {
            text.insert(end, suffix);
            at = end + suffix.size();
        } else {
            at = end;
        }
    }
    return text;
}

void rename_in(nlohmann::json& value, const std::vector<std::string>& ids, const std::string& suffix) {
    if (value.is_string()) {
        std::string text = value.get<std::string>();
        for (const auto& id : ids)
            text = rename_results(std::move(text), id, suffix);
        value = std::move(text);
    } else if (value.is_structured()) {
        for (auto& item : value)
            rename_in(item, ids, suffix);
    }
}

} // namespace

namespace {

std::vector<nlohmann::json> renamed_for_attempt(std::vector<nlohmann::json> out, int attempt) {
    if (attempt <= 1) return out;
    const std::string suffix = "_try" + std::to_string(attempt);
    std::vector<std::string> ids;
    for (const auto& step : out)
        if (const std::string id = step.value("id", std::string()); !id.empty()) ids.push_back(id);
    for (auto& step : out) {
        for (auto& [key, value] : step.items())
            if (key != "id") rename_in(value, ids, suffix);
        if (step.contains("id")) step["id"] = step["id"].get<std::string>() + suffix;
    }
    return out;
}

} // namespace

std::vector<nlohmann::json> TroubleshootingSteps::checks_for_attempt(int attempt) const {
    return renamed_for_attempt(checks, attempt);
}

std::vector<nlohmann::json> TroubleshootingSteps::solution_for_attempt(int attempt) const {
    return renamed_for_attempt(solution, attempt);
}

} // namespace rdmalab::labs
