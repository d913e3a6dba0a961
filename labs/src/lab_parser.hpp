// Private to the lab parser (lab_*.cpp, troubleshooting.cpp): values converted to a field's type, the reader
// of one field's value (LabParser), and the parts of the parser that more than one of its files uses.
#pragma once

#include "lab_yaml.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace rdmalab::labs::detail {

// ---- values (lab_values.cpp) -----------------------------------------------------------------------------

/// "4 KiB": bytes in the largest unit that divides them.
std::string size_text(std::int64_t bytes);
/// "1 to 255", "0 to 16 GiB", "0 to 600000 ms".
std::string range_text(const Field& field);
/// What a value of `field` must be, as an error's "expected" says it.
std::string type_text(const Field& field);

/// Converts the scalar `text` to a value of `field`'s type (not object, new_object, map, list, flags).
Value convert(const Field& field, const std::string& text, Position where, const std::string& path);
/// The text a parameter's value is substituted as (into "{param}" values and texts).
std::string value_text(const Value& v);
/// A parameter's value, typed as written ("4KiB"), checked against its type, range and choices.
Value parameter_value(const Parameter& p, const std::string& text, Position where, const std::string& path);

/// The whole number `key` of `fields`, within [min, max]; `fallback` when it is absent and not required.
int small_integer(const Fields& fields, const std::string& key, bool required, std::int64_t min,
                  std::int64_t max, int fallback);

/// A step's `when`: a compare, as the expectation of that name takes it.
const Field& when_field();

/// Reads the values of a lab's fields in the scope of the steps read so far, within the lab's budget.
class LabParser {
  public:
    explicit LabParser(const std::vector<Parameter>& parameters) { scope_.parameters = &parameters; }

    Scope& scope() { return scope_; }
    Budget& budget() { return budget_; }

    /// One field's value per `field`; object references are checked against the scope.
    Value value(const Field& field, const YAML::Node& node, const YAML::Mark& key_mark,
                const std::string& path);

    std::vector<std::string> parameter_names() const;

    /// Objects created by this step (added to the scope after its fields are read).
    std::vector<std::pair<std::string, std::string>> created;

  private:
    Value map_value(const Field& field, const YAML::Node& node, const std::string& path);
    Value list_value(const Field& field, const YAML::Node& node, const std::string& path);
    Value flags_value(const Field& field, const YAML::Node& node, const std::string& path);
    /// A value written as "{param}": kept as text, checked with the parameter's default.
    Value placeholder(const Field& field, const std::string& text, sv name, Position where,
                      const std::string& path) const;
    /// A number, a choice, a decimal fraction or a value path that names something in the scope.
    Value operand(const Field& field, const std::string& text, Position where, const std::string& path) const;
    Value object(const Field& field, const std::string& text, Position where, const std::string& path);

    Scope scope_;
    Budget budget_;
};

// ---- steps (lab_steps.cpp) -------------------------------------------------------------------------------

/// The list `key` of `f` (a prediction's or a question's choices) as a sequence of 2 to 8 items.
const Fields::Entry& choice_list(const Fields& f, const std::string& key);

/// One step at `path` (or a step of the reference fix), read in the scope of the steps before it, which it
/// then joins. `seen_ids`: the ids of the steps so far, with their lines.
Step parse_step(const YAML::Node& node, const std::string& path, LabParser& parser,
                std::map<std::string, int>& seen_ids);

} // namespace rdmalab::labs::detail
