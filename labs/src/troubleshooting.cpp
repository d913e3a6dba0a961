// Troubleshooting labs (troubleshooting.hpp): a lab's steps as the workbench takes them, read again from its
// file with the parameters' values written in, and renamed for each new attempt.
#include "rdmalab/labs/troubleshooting.hpp"

#include "lab_parser.hpp"

#include <cctype>

namespace rdmalab::labs {

namespace detail {

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

/// The steps of the lab file `file`, split at the student's turn, with every {param} written as `texts` has
/// it.
TroubleshootingSteps steps_of_file(const std::string& file, const std::map<std::string, std::string>& texts,
                                   LabError& error) {
    std::string text;
    if (!read_file(file, text, error)) throw Failure{Position{}, "", error.message, "", ""};
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
}

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

} // namespace detail

std::optional<TroubleshootingSteps> troubleshooting_steps(const Lab& lab, const ParameterValues& values,
                                                          LabError& error) {
    // Checks the values (the error says which parameter does not fit) and resets `error` for this lab.
    const std::optional<Lab> ready = instantiate(lab, values, error);
    if (!ready) return std::nullopt;
    return detail::guarded(
        [&] {
            std::map<std::string, std::string> texts;
            for (const auto& p : ready->parameters)
                texts[p.name] = detail::value_text(p.default_value);
            return detail::steps_of_file(lab.file, texts, error);
        },
        error);
}

std::vector<nlohmann::json> TroubleshootingSteps::checks_for_attempt(int attempt) const {
    return detail::renamed_for_attempt(checks, attempt);
}

std::vector<nlohmann::json> TroubleshootingSteps::solution_for_attempt(int attempt) const {
    return detail::renamed_for_attempt(solution, attempt);
}

} // namespace rdmalab::labs
