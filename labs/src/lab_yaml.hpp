// Private to the lab parser (lab_*.cpp, troubleshooting.cpp): how a lab file is read. Errors thrown as
// Failure and turned into a LabError, the YAML walker (Budget, Fields, Scope), placeholders, localized texts,
// and the text and number helpers every part of the parser uses.
#pragma once

#include "rdmalab/labs/lab.hpp"
#include "rdmalab/labs/lab_schema.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rdmalab::labs::detail {

using schema::Field;
using schema::Type;
using sv = std::string_view;

inline constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();
inline constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
/// Nodes a file may make the parser visit (aliases can make a small file large); far above any real lab.
inline constexpr long kNodeBudget = 2'000'000;
/// Bytes of text a file may make the parser copy (aliases repeat texts); eight times the largest file.
inline constexpr std::size_t kTextByteBudget = 8u << 20;
inline constexpr std::size_t kMaxFileBytes = kMaxLabBytes; // lab check, lab run and the app: one limit

// ---- errors ----------------------------------------------------------------------------------------------

/// Thrown inside the parser; turned into the LabError of the public functions.
struct Failure {
    Position position;
    std::string field;
    std::string message;
    std::string expected;
    std::string found;
};

Position position_of(const YAML::Mark& mark);

[[noreturn]] void fail(Position where, std::string field, std::string message, std::string expected = {},
                       std::string found = {});
[[noreturn]] void fail(const YAML::Mark& mark, std::string field, std::string message,
                       std::string expected = {}, std::string found = {});

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

/// Reads a lab file of at most kMaxFileBytes into `text`; false with `error.message` set when it cannot.
bool read_file(const std::string& path, std::string& text, LabError& error);

// ---- texts and names -------------------------------------------------------------------------------------

/// Length of the valid UTF-8 sequence starting at `text[i]`, or 0.
std::size_t utf8_length(sv text, std::size_t i);
/// A value as shown in an error: at most 60 characters, control bytes and invalid UTF-8 escaped.
std::string shown(sv text);
/// "path.key" ("key" for an empty path).
std::string join(const std::string& path, sv key);
/// "path[i]".
std::string indexed(const std::string& path, std::size_t i);

/// "one of: a, b, c".
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

inline bool lower_letter(char c) {
    return c >= 'a' && c <= 'z';
}
inline bool digit(char c) {
    return c >= '0' && c <= '9';
}

bool is_lab_id(sv text); ///< [a-z0-9][a-z0-9_-]*
bool is_name(sv text);   ///< [a-z][a-z0-9_]*
/// A decimal fraction such as 1.5 or -0.25 (compare operands; kept as text).
bool is_decimal(sv text);
bool is_step_id(sv text); ///< [A-Za-z0-9_]+
/// "E.name" with E in A-D.
bool is_object_name(sv text);
/// The parameter name of a value written as exactly "{name}", or empty.
sv placeholder_name(sv text);
/// The table's spelling of `text` among `choices` (case-insensitive), or nullptr.
const sv* find_choice(std::span<const sv> choices, sv text);

// ---- numbers ---------------------------------------------------------------------------------------------

/// Decimal or 0x-hex, no sign; false on anything else or overflow.
bool parse_unsigned(sv text, std::uint64_t& out);
/// An optionally signed whole number (decimal or 0x-hex) that fits in int64.
bool parse_integer(sv text, std::int64_t& out);
/// A number with an optional unit suffix from `units` (suffix -> multiplier); an optional space before it.
bool parse_with_unit(sv text, std::span<const std::pair<sv, std::int64_t>> units, std::int64_t& out);

inline constexpr std::pair<sv, std::int64_t> kSizeUnits[] = {
    {"B", 1}, {"KiB", 1LL << 10}, {"MiB", 1LL << 20}, {"GiB", 1LL << 30}, {"TiB", 1LL << 40}};
inline constexpr std::pair<sv, std::int64_t> kDurationUnits[] = {{"ms", 1}, {"s", 1000}};

// ---- the YAML walker -------------------------------------------------------------------------------------

/// Counts visited nodes, and the bytes of the texts they hold, so that an alias bomb ends in an error
/// rather than in minutes of work and gigabytes: aliases repeat a text without copying it in the file, but
/// every visit copies it into the lab.
struct Budget {
    long left = kNodeBudget;
    std::size_t textBytesLeft = kTextByteBudget;
    void spend(const YAML::Node& node);
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
           Budget& budget, const std::string& context = {});

    const std::string& path() const { return path_; }
    const YAML::Mark& where() const { return where_; }
    bool has(const std::string& key) const { return entries_.count(key) != 0; }
    const Entry& at(const std::string& key) const { return entries_.at(key); }
    std::string field(sv key) const { return join(path_, key); }

    const Entry& required(const std::string& key) const;
    /// A scalar text; "" when absent and not required.
    std::string string(const std::string& key, bool required) const;

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
                                  const std::string& name, sv what) const;
    const Parameter* parameter(sv name) const;
};

/// Why `path` (a value path without braces) names nothing in `scope`, or "" when it names a value.
std::string path_problem(sv path, const Scope& scope);
/// A character of a value path: a letter, a digit, '_' or '.'.
bool path_char(char c);
/// Every {placeholder} of a text must name a value; braces around anything else are left alone.
void check_placeholders(const std::string& text, const YAML::Node& node, const std::string& field,
                        const Scope& scope);

// ---- texts -----------------------------------------------------------------------------------------------

/// The mapping `node` ({en, zh}) as a text; `key_mark` is where a missing `en` is reported.
LocalizedText localized(const YAML::Node& node, const YAML::Mark& key_mark, const std::string& path,
                        const Scope& scope, Budget& budget);
/// The text `key` of `parent`; empty when absent and not required.
LocalizedText localized(const Fields& parent, const std::string& key, bool required, const Scope& scope,
                        Budget& budget);
/// A localized text that may have device variants (docs/lab-format.md, Device variants): `en`, `zh`, and the
/// optional mappings `software` and `hardware`; `en` may be left out only when both variants are given.
DeviceText device_text(const Fields& parent, const std::string& key, bool required, const Scope& scope,
                       Budget& budget);

} // namespace rdmalab::labs::detail
