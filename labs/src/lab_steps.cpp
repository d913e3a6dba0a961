// The steps of a lab (lab_parser.hpp): a step's action and fields, its `when`, its expectations (with the
// words a `says` item quotes), its "predict first" question, and the scope the steps after it see.
#include "lab_parser.hpp"

#include <algorithm>
#include <iterator>

namespace rdmalab::labs::detail {

namespace {

constexpr sv kStepKeys[] = {"id", "do", "title", "text", "expect", "when", "predict", "solution"};
constexpr std::size_t kMaxChoices = 8;

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

// ---- expectations ----------------------------------------------------------------------------------------

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
        const Field spec{.name = kind->name,
                         .type = kind->type,
                         .required = true,
                         .choices = kind->choices,
                         .fields = kind->fields};
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

// ---- predictions -----------------------------------------------------------------------------------------

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

// ---- the step --------------------------------------------------------------------------------------------

/// The step's action (`do`; a note when there is none): it decides which keys the step may have.
const schema::Action& step_action(const YAML::Node& node, const std::string& path) {
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
    return *action;
}

/// The step's id: unique in the lab; from here on it is no longer a step that comes later.
std::string step_id(const Fields& f, Scope& scope, std::map<std::string, int>& seen_ids) {
    std::string id = f.string("id", true);
    const auto id_mark = f.at("id").value.Mark();
    if (!is_step_id(id))
        fail(id_mark, f.field("id"), "'" + shown(id) + "' is not a step id", "letters, digits and '_'",
             shown(id));
    if (const auto it = seen_ids.find(id); it != seen_ids.end())
        fail(id_mark, f.field("id"),
             "duplicate step id '" + id + "' (first on line " + std::to_string(it->second) + ")");
    seen_ids.emplace(id, id_mark.line + 1);
    scope.later_steps.erase(id);
    return id;
}

/// The action's fields, in the table's order; what the step creates goes to `parser.created`.
void parse_step_fields(const Fields& f, const YAML::Node& node, const std::string& path,
                       const schema::Action& action, LabParser& parser, Step& step) {
    parser.created.clear();
    for (const auto& field : action.fields) {
        const std::string key(field.name);
        if (!f.has(key)) {
            if (field.required) f.required(key);
            continue;
        }
        const auto& e = f.at(key);
        step.args.emplace(key, parser.value(field, e.value, e.key.Mark(), f.field(key)));
    }
    if (action.name == "open_device") {
        if (parser.scope().objects.count("device"))
            fail(node.Mark(), path, "the device is opened twice (open_device once per lab)");
        parser.created.emplace_back("device", "device");
    }
}

/// What the step creates, and the step itself, join the scope (under the step's condition).
void enter_scope(const Step& step, const schema::Action& action, LabParser& parser) {
    Scope& scope = parser.scope();
    for (const auto& [name, kind] : parser.created) {
        scope.objects.emplace(name, kind);
        scope.later_objects.erase(name);
        if (!scope.condition.empty()) scope.object_conditions.emplace(name, scope.condition);
    }
    scope.steps.emplace(step.id, &action);
    if (!scope.condition.empty()) scope.step_conditions.emplace(step.id, scope.condition);
}

} // namespace

const Fields::Entry& choice_list(const Fields& f, const std::string& key) {
    const auto& e = f.required(key);
    if (!e.value.IsSequence() || e.value.size() < 2 || e.value.size() > kMaxChoices)
        fail(e.value.IsNull() ? e.key.Mark() : e.value.Mark(), f.field(key),
             "must be a list of 2 to " + std::to_string(kMaxChoices) + " choices",
             "2 to " + std::to_string(kMaxChoices) + " items",
             e.value.IsSequence() ? std::to_string(e.value.size()) + " items" : std::string());
    return e;
}

Step parse_step(const YAML::Node& node, const std::string& path, LabParser& parser,
                std::map<std::string, int>& seen_ids) {
    Scope& scope = parser.scope();
    const schema::Action& action = step_action(node, path);
    std::vector<sv> allowed(std::begin(kStepKeys), std::end(kStepKeys));
    for (const auto& field : action.fields)
        allowed.push_back(field.name);
    const Fields f(node, node.Mark(), path, allowed, parser.budget(),
                   "for action '" + std::string(action.name) + "'");

    Step step;
    step.position = position_of(node.Mark());
    step.action = std::string(action.name);
    step.id = step_id(f, scope, seen_ids);

    // The condition first: it names only earlier steps' results, and decides what this step may name.
    scope.condition.clear();
    if (f.has("when")) {
        const auto& w = f.at("when");
        step.when = parser.value(when_field(), w.value, w.key.Mark(), f.field("when"));
        scope.condition = condition_text(*step.when);
    }
    parse_step_fields(f, node, path, action, parser, step);
    if (f.has("solution")) {
        if (action.name != "note")
            fail(f.at("solution").key.Mark(), f.field("solution"),
                 "only the student's turn has a solution: a step without 'do' (a note)", "a note step",
                 std::string(action.name));
        step.your_turn = true;
    }
    std::optional<Fields> predict;
    if (f.has("predict")) {
        predict.emplace(prediction_fields(f, parser));
        scope.predicting = step.id;
        step.predict = parse_prediction_question(f, *predict, parser);
        scope.predicting.clear();
    }
    enter_scope(step, action, parser);

    step.title = localized(f, "title", false, scope, parser.budget());
    step.text = device_text(f, "text", true, scope, parser.budget());
    step.expect = parse_expectations(f, action, step.text, parser);
    if (step.predict) parse_prediction_answer(*predict, parser, *step.predict);
    scope.condition.clear();
    return step;
}

} // namespace rdmalab::labs::detail
