// The lab parser (lab.hpp): a lab file's text read into a Lab, from its header (format, id, chapter, level,
// parameters, texts) through its steps (lab_steps.cpp) to its questions; and the Lab's own lookups. Every
// check walks the tables of lab_schema.hpp: a new action, field or expectation kind there needs no change
// here.
#include "lab_parser.hpp"

#include <algorithm>
#include <iterator>

namespace rdmalab::labs {

namespace detail {

namespace {

constexpr sv kLevels[] = {"intro", "basic", "intermediate", "advanced"};
constexpr sv kParameterTypes[] = {"int", "size", "choice", "bool", "text"};

// ---- parameters ------------------------------------------------------------------------------------------

/// `min` and `max` of an int or size parameter.
void parse_parameter_bounds(const Fields& f, Parameter& p) {
    const bool numeric = p.type == "int" || p.type == "size";
    for (const char* bound : {"min", "max"}) {
        if (!f.has(bound)) continue;
        const auto& e = f.at(bound);
        if (!numeric)
            fail(e.key.Mark(), f.field(bound), "'" + std::string(bound) + "' applies to int and size only");
        if (!e.value.IsScalar()) fail(e.value.Mark(), f.field(bound), "must be a number", "a number");
        const Field spec{.name = bound, .type = p.type == "int" ? Type::integer : Type::size};
        const auto n = convert(spec, e.value.Scalar(), position_of(e.value.Mark()), f.field(bound)).integer;
        (std::string(bound) == "min" ? p.min : p.max) = n;
    }
    if (p.min && p.max && *p.min > *p.max)
        fail(f.at("max").value.Mark(), f.field("max"), "max is below min",
             "at least " + std::to_string(*p.min), std::to_string(*p.max));
}

/// The `choices` of a choice parameter: distinct, non-empty texts.
void parse_parameter_choices(const Fields& f, Parameter& p, Budget& budget) {
    if (!f.has("choices")) {
        if (p.type == "choice") f.required("choices");
        return;
    }
    const auto& e = f.at("choices");
    if (p.type != "choice") fail(e.key.Mark(), f.field("choices"), "'choices' applies to type choice only");
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
}

/// `vary: true` needs a range to draw from.
void parse_parameter_vary(const Fields& f, Parameter& p) {
    if (!f.has("vary")) return;
    const auto& v = f.at("vary");
    const Field spec{.name = "vary", .type = Type::boolean};
    p.vary = convert(spec, v.value.IsScalar() ? v.value.Scalar() : std::string(), position_of(v.value.Mark()),
                     f.field("vary"))
                 .boolean;
    const bool numeric = p.type == "int" || p.type == "size";
    if (p.vary && p.type != "choice" && !(numeric && p.min && p.max))
        fail(v.key.Mark(), f.field("vary"),
             "a varying parameter needs a range to draw from: an int or size with min and max, or a "
             "choice",
             "type int or size with min and max, or type choice", p.type);
}

Parameter parse_parameter(const YAML::Node& node, const std::string& path,
                          const std::vector<Parameter>& earlier, const Scope& no_scope, Budget& budget) {
    const Fields f(node, node.Mark(), path,
                   {"name", "type", "default", "min", "max", "choices", "text", "vary"}, budget);
    Parameter p;
    p.position = position_of(node.Mark());
    p.name = f.string("name", true);
    if (!is_name(p.name))
        fail(f.at("name").value.Mark(), f.field("name"), "'" + shown(p.name) + "' is not a parameter name",
             "[a-z][a-z0-9_]*", shown(p.name));
    for (const auto& other : earlier)
        if (other.name == p.name)
            fail(f.at("name").value.Mark(), f.field("name"), "parameter '" + p.name + "' is declared twice");
    p.type = f.string("type", true);
    const Field type_field{
        .name = "parameter type", .type = Type::choice, .required = true, .choices = kParameterTypes};
    p.type = convert(type_field, p.type, position_of(f.at("type").value.Mark()), f.field("type")).text;
    parse_parameter_bounds(f, p);
    parse_parameter_choices(f, p, budget);
    const auto& d = f.required("default");
    if (!d.value.IsScalar())
        fail(d.value.IsNull() ? d.key.Mark() : d.value.Mark(), f.field("default"), "must be a single value");
    p.default_value = parameter_value(p, d.value.Scalar(), position_of(d.value.Mark()), f.field("default"));
    p.text = localized(f, "text", true, no_scope, budget);
    parse_parameter_vary(f, p);
    return p;
}

std::vector<Parameter> parse_parameters(const Fields& top, Budget& budget) {
    std::vector<Parameter> parameters;
    if (!top.has("parameters")) return parameters;
    const auto& list = top.at("parameters");
    if (list.value.IsNull()) return parameters;
    if (!list.value.IsSequence())
        fail(list.value.Mark(), "parameters", "must be a list of parameters ('- name: ...')");
    // A parameter's text names no parameter, object or step.
    Scope no_scope;
    std::vector<Parameter> none;
    no_scope.parameters = &none;
    std::size_t i = 0;
    for (const auto& node : list.value)
        parameters.push_back(parse_parameter(node, indexed("parameters", i++), parameters, no_scope, budget));
    return parameters;
}

// ---- questions -------------------------------------------------------------------------------------------

Question parse_question(const YAML::Node& node, const std::string& path, LabParser& parser) {
    constexpr sv kKinds[] = {"single", "multiple"};
    const Fields q(node, node.Mark(), path, {"kind", "text", "choices", "explanation"}, parser.budget());
    Question question;
    question.position = position_of(node.Mark());
    const std::string kind = q.string("kind", true);
    const Field spec{.name = "question kind", .type = Type::choice, .required = true, .choices = kKinds};
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
            const Field flag{.name = "correct", .type = Type::boolean};
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
    return question;
}

std::vector<Question> parse_questions(const Fields& top, LabParser& parser) {
    std::vector<Question> out;
    if (!top.has("questions") || top.at("questions").value.IsNull()) return out;
    const auto& e = top.at("questions");
    if (!e.value.IsSequence())
        fail(e.value.Mark(), "questions", "must be a list of questions ('- kind: single ...')");
    std::size_t i = 0;
    for (const auto& node : e.value)
        out.push_back(parse_question(node, indexed("questions", i++), parser));
    return out;
}

// ---- the lab ---------------------------------------------------------------------------------------------

/// `lab`, `id`, `chapter`, `order`, `level` and `minutes`.
void parse_header(const Fields& top, Lab& lab) {
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
        const Field spec{.name = "level", .type = Type::choice, .required = true, .choices = kLevels};
        lab.level = convert(spec, e.value.Scalar(), position_of(e.value.Mark()), "level").text;
    }
    lab.minutes = small_integer(top, "minutes", true, 1, 600, 0);
    lab.hosts = small_integer(top, "hosts", false, 1, 2, 1);
}

/// `objectives` (required) and `references`.
void parse_objectives_and_references(const Fields& top, LabParser& parser, Lab& lab) {
    {
        const auto& e = top.required("objectives");
        if (!e.value.IsSequence() || e.value.size() == 0)
            fail(e.value.IsNull() ? e.key.Mark() : e.value.Mark(), "objectives",
                 "must be a non-empty list of texts ('- {en: ..., zh: ...}')");
        std::size_t i = 0;
        for (const auto& item : e.value) {
            lab.objectives.push_back(
                localized(item, item.Mark(), indexed("objectives", i), parser.scope(), parser.budget()));
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
}

/// What later steps create and name, for errors that say "later" rather than "nowhere".
void note_later_names(const YAML::Node& steps, LabParser& parser) {
    Scope& scope = parser.scope();
    for (const auto& node : steps) {
        parser.budget().spend(node);
        if (!node.IsMap()) continue;
        const YAML::Node id = node["id"];
        if (!id || !id.IsScalar()) continue;
        const int line = node.Mark().line + 1;
        scope.later_steps.emplace(id.Scalar(), line);
        const YAML::Node as = node["as"];
        if (as && as.IsScalar()) scope.later_objects.emplace(as.Scalar(), std::make_pair(id.Scalar(), line));
    }
}

/// The reference fix of the student's turn `path`: its steps run where the student's work would be, so later
/// steps may name what it makes.
void parse_solution(const YAML::Node& node, const std::string& path, LabParser& parser,
                    std::map<std::string, int>& seen_ids, Lab& lab) {
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

void parse_steps(const Fields& top, LabParser& parser, Lab& lab) {
    const auto& steps = top.required("steps");
    if (!steps.value.IsSequence() || steps.value.size() == 0)
        fail(steps.value.IsNull() ? steps.key.Mark() : steps.value.Mark(), "steps",
             "must be a non-empty list of steps ('- id: ...')");
    note_later_names(steps.value, parser);
    std::map<std::string, int> seen_ids;
    std::size_t i = 0;
    for (const auto& node : steps.value) {
        const std::string path = indexed("steps", i++);
        lab.steps.push_back(parse_step(node, path, parser, seen_ids));
        if (lab.steps.back().your_turn) parse_solution(node, path, parser, seen_ids, lab);
    }
}

Lab parse(const YAML::Node& root) {
    if (!root.IsDefined() || root.IsNull()) fail(Position{}, "", "the file is empty");
    Budget top_budget;
    const Fields top(root, root.Mark(), "",
                     {"lab", "id", "chapter", "order", "title", "level", "minutes", "hosts", "objectives",
                      "references", "parameters", "summary", "steps", "questions"},
                     top_budget);
    Lab lab;
    parse_header(top, lab);
    lab.parameters = parse_parameters(top, top_budget);
    LabParser parser(lab.parameters);
    lab.title = localized(top, "title", true, parser.scope(), parser.budget());
    parse_objectives_and_references(top, parser, lab);
    parse_steps(top, parser, lab);
    lab.summary = device_text(top, "summary", false, parser.scope(), parser.budget());
    lab.questions = parse_questions(top, parser);
    return lab;
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

Lab parse_text(const std::string& text, const std::string& name) {
    if (text.size() > kMaxFileBytes)
        fail(Position{}, "",
             "the lab is too large (" + std::to_string(text.size()) + " bytes; a lab is at most 1 MiB)");
    refuse_invalid_utf8(text);
    Lab lab = parse(YAML::Load(text));
    lab.file = name;
    return lab;
}

} // namespace

} // namespace detail

std::optional<Lab> parse_lab(const std::string& text, const std::string& name, LabError& error) {
    error = LabError{};
    error.file = name;
    return detail::guarded([&] { return detail::parse_text(text, name); }, error);
}

const Value* Value::find(std::string_view key) const {
    const auto it = map.find(std::string(key));
    return it == map.end() ? nullptr : &it->second;
}

std::string Step::creates() const {
    if (action == "open_device") return "device";
    const auto* a = schema::find_action(action);
    if (!a) return {};
    for (const auto& field : a->fields)
        if (field.type == schema::Type::new_object)
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

} // namespace rdmalab::labs
