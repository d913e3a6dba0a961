// Values of a lab's fields (lab_parser.hpp): a scalar converted to a field's type, a parameter's value, and
// LabParser, which reads one field's value of any type in the scope of the steps read so far.
#include "lab_parser.hpp"

#include <algorithm>
#include <cctype>

namespace rdmalab::labs::detail {

// ---- conversion ------------------------------------------------------------------------------------------

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

Value parameter_value(const Parameter& p, const std::string& text, Position where, const std::string& path) {
    Field field{.name = p.name, .type = Type::text};
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
    const Field spec{.name = key, .type = Type::integer, .required = required, .min = min, .max = max};
    return static_cast<int>(
        convert(spec, e.value.Scalar(), position_of(e.value.Mark()), fields.field(key)).integer);
}

const Field& when_field() {
    static const Field field = [] {
        const auto* compare = schema::find_expectation("compare");
        return Field{.name = "when",
                     .type = Type::map,
                     .required = true,
                     .fields = compare->fields,
                     .doc = "run the step only when this holds"};
    }();
    return field;
}

// ---- LabParser -------------------------------------------------------------------------------------------

Value LabParser::value(const Field& field, const YAML::Node& node, const YAML::Mark& key_mark,
                       const std::string& path) {
    budget_.spend(node);
    if (node.IsNull() || !node.IsDefined()) fail(key_mark, path, "has no value", type_text(field), {});
    switch (field.type) {
    case Type::map:
        return map_value(field, node, path);
    case Type::list:
        return list_value(field, node, path);
    case Type::flags:
        return flags_value(field, node, path);
    default:
        break;
    }
    if (!node.IsScalar())
        fail(node.Mark(), path, "must be " + type_text(field), type_text(field),
             node.IsSequence() ? "a list" : "a mapping");
    const std::string& text = node.Scalar();
    const Position where = position_of(node.Mark());
    if (field.type == Type::object || field.type == Type::new_object) return object(field, text, where, path);
    if (const sv name = placeholder_name(text); !name.empty())
        return placeholder(field, text, name, where, path);
    if (field.type == Type::operand) return operand(field, text, where, path);
    return convert(field, text, where, path);
}

std::vector<std::string> LabParser::parameter_names() const {
    std::vector<std::string> names;
    for (const auto& p : *scope_.parameters)
        names.push_back(p.name);
    return names;
}

Value LabParser::map_value(const Field& field, const YAML::Node& node, const std::string& path) {
    Value v;
    v.position = position_of(node.Mark());
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

Value LabParser::list_value(const Field& field, const YAML::Node& node, const std::string& path) {
    Value v;
    v.position = position_of(node.Mark());
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

Value LabParser::flags_value(const Field& field, const YAML::Node& node, const std::string& path) {
    Value v;
    v.position = position_of(node.Mark());
    if (!node.IsSequence())
        fail(node.Mark(), path, "must be a list of flags, e.g. [" + std::string(field.choices.front()) + "]",
             type_text(field), node.IsScalar() ? shown(node.Scalar()) : std::string());
    v.kind = Value::Kind::list;
    std::size_t i = 0;
    for (const auto& item : node) {
        budget_.spend(item);
        const std::string item_path = indexed(path, i++);
        if (!item.IsScalar()) fail(item.Mark(), item_path, "must be a flag name", one_of(field.choices));
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

Value LabParser::placeholder(const Field& field, const std::string& text, sv name, Position where,
                             const std::string& path) const {
    const Parameter* p = scope_.parameter(name);
    if (!p)
        fail(where, path, "unknown parameter '{" + std::string(name) + "}'",
             parameter_names().empty() ? "a value (this lab has no parameters)" : one_of(parameter_names()),
             shown(text));
    try {
        (void)convert(field, value_text(p->default_value), where, path);
    } catch (Failure& f) {
        f.message = "parameter '" + p->name + "' (default " + value_text(p->default_value) +
                    ") does not fit: " + f.message;
        throw;
    }
    Value v;
    v.kind = Value::Kind::text;
    v.text = text;
    v.position = where;
    return v;
}

Value LabParser::operand(const Field& field, const std::string& text, Position where,
                         const std::string& path) const {
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

Value LabParser::object(const Field& field, const std::string& text, Position where,
                        const std::string& path) {
    Value v;
    v.kind = Value::Kind::text;
    v.text = text;
    v.position = where;
    if (!placeholder_name(text).empty())
        fail(where, path, "an object cannot be a parameter: name it (E.name)", type_text(field), shown(text));
    const std::string kind(field.object_kind);
    if (field.type == Type::new_object) {
        if (!is_object_name(text))
            fail(where, path, "'" + shown(text) + "' is not an object name", type_text(field), shown(text));
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
    if (auto problem = scope_.condition_problem(scope_.object_conditions, text, "object"); !problem.empty())
        fail(where, path, problem);
    return v;
}

} // namespace rdmalab::labs::detail

namespace rdmalab::labs {

bool is_hex_bytes(std::string_view text) {
    return !text.empty() && text.size() % 2 == 0 &&
           std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isxdigit(c) != 0; });
}

std::optional<std::string> parameter_text(const Parameter& parameter, const std::string& typed) {
    try {
        return detail::value_text(detail::parameter_value(parameter, typed, Position{}, parameter.name));
    } catch (const detail::Failure&) {
        return std::nullopt;
    }
}

} // namespace rdmalab::labs
