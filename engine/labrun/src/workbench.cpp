// The workbench (workbench.hpp): a lab written one step at a time while it runs.
#include "rdmalab/labrun/workbench.hpp"

#include "rdmalab/labs/lab_schema.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <utility>

namespace rdmalab::labs {

namespace {

/// The header every workbench document carries, so that its steps are checked like a lab file's.
nlohmann::json document(const nlohmann::json& steps) {
    return {{"lab", 1},
            {"id", "workbench"},
            {"chapter", 1},
            {"title", {{"en", "Workbench"}, {"zh", "工作台"}}},
            {"level", "basic"},
            {"minutes", 10},
            {"objectives", {{{"en", "Explore the device freely"}, {"zh", "自由地探索设备"}}}},
            {"steps", steps}};
}

/// "post_send (qp A.qp, opcode write)": what a step does, for the texts the student did not write.
std::string describe(const nlohmann::json& step, const char* open, const char* separator, const char* close) {
    std::string out = step.value("do", std::string("note"));
    std::string args;
    for (const char* key : {"as", "qp", "cq", "mr", "opcode", "a", "b", "peer", "type", "size", "access"}) {
        const auto it = step.find(key);
        if (it == step.end()) continue;
        std::string value;
        if (it->is_string())
            value = it->get<std::string>();
        else if (it->is_array()) {
            for (const auto& item : *it)
                value +=
                    (value.empty() ? "" : "+") + (item.is_string() ? item.get<std::string>() : item.dump());
            if (value.empty()) value = "none";
        } else
            value = it->dump();
        args += (args.empty() ? "" : separator) + std::string(key) + " " + value;
    }
    if (!args.empty()) out += open + args + close;
    return out;
}

/// Actions after which the device may still be working on what the step started: their effects (bytes
/// placed, a QP falling to ERR) are checked at the next settled step, never right after them.
bool settled_after(const std::string& action) {
    return action != "post_send" && action != "post_recv" && action != "post_srq_recv";
}

/// Strings the lab parser reads as text are quoted when YAML could read them as something else.
bool needs_quotes(const std::string& text) {
    if (text.empty()) return true;
    const bool all_hex = std::all_of(text.begin(), text.end(), [](char c) { return std::isxdigit(c) != 0; });
    return all_hex || text.find_first_of(" :{}[],#&*!|>'\"%@`?\\") != std::string::npos;
}

/// Keys in the order a person writes a lab (the JSON object sorts them); others alphabetically between.
int key_rank(const std::string& key) {
    static const std::vector<std::string> first = {
        "lab", "id", "chapter", "order", "title", "level", "minutes", "objectives", "summary", "do", "as"};
    static const std::vector<std::string> last = {"text", "expect", "steps"};
    if (const auto it = std::find(first.begin(), first.end(), key); it != first.end())
        return static_cast<int>(it - first.begin());
    if (const auto it = std::find(last.begin(), last.end(), key); it != last.end())
        return 1000 + static_cast<int>(it - last.begin());
    return 100;
}

void emit(YAML::Emitter& out, const nlohmann::json& value) {
    if (value.is_object()) {
        std::vector<std::string> keys;
        for (const auto& [key, item] : value.items())
            keys.push_back(key);
        std::stable_sort(keys.begin(), keys.end(),
                         [](const auto& a, const auto& b) { return key_rank(a) < key_rank(b); });
        out << YAML::BeginMap;
        for (const auto& key : keys) {
            out << YAML::Key << key << YAML::Value;
            emit(out, value.at(key));
        }
        out << YAML::EndMap;
    } else if (value.is_array()) {
        out << YAML::BeginSeq;
        for (const auto& item : value)
            emit(out, item);
        out << YAML::EndSeq;
    } else if (value.is_string()) {
        const auto text = value.get<std::string>();
        if (needs_quotes(text))
            out << YAML::DoubleQuoted << text;
        else
            out << text;
    } else if (value.is_boolean()) {
        out << (value.get<bool>() ? "true" : "false");
    } else if (value.is_number_unsigned()) {
        out << value.get<std::uint64_t>();
    } else if (value.is_number_integer()) {
        out << value.get<std::int64_t>();
    } else {
        out << value.dump();
    }
}

} // namespace

struct Workbench::Impl {
    std::shared_ptr<Tracer> tracer;
    LabRunOptions options;
    std::unique_ptr<LabRun> run;
    nlohmann::json steps = nlohmann::json::array(); ///< accepted steps, as performed
    std::vector<nlohmann::json> outcomes;           ///< LabRun::outcome_json of each
    std::vector<nlohmann::json> snapshots;          ///< LabRun::snapshot after each
    std::size_t made_up_ids = 0;

    void start() {
        Lab empty;
        empty.id = "workbench";
        empty.title.en = "Workbench";
        empty.title.zh = "工作台";
        run = std::make_unique<LabRun>(std::move(empty), tracer, options);
        steps = nlohmann::json::array();
        outcomes.clear();
        snapshots.clear();
        made_up_ids = 0;
    }

    std::string fresh_id() {
        std::set<std::string> used;
        for (const auto& s : steps)
            used.insert(s.value("id", std::string()));
        std::string id;
        do
            id = fmt::format("s{}", ++made_up_ids);
        while (used.contains(id));
        return id;
    }
};

Workbench::Workbench(std::shared_ptr<Tracer> tracer, LabRunOptions options)
    : impl_(std::make_unique<Impl>()) {
    impl_->tracer = std::move(tracer);
    impl_->options = std::move(options);
    impl_->options.open_ended = true;
    impl_->start();
}

Workbench::~Workbench() = default;

std::size_t Workbench::size() const {
    return impl_->steps.size();
}

void Workbench::reset() {
    impl_->run.reset(); // tears down, traced
    impl_->start();
}

Workbench::Reply Workbench::perform(nlohmann::json step) {
    auto& s = *impl_;
    Reply reply;
    reply.index = s.steps.size();
    if (!step.is_object()) {
        reply.error.file = "workbench";
        reply.error.field = fmt::format("steps[{}]", reply.index);
        reply.error.message = "a step must be a mapping: {do: ACTION, FIELD: VALUE, ...}";
        reply.error.found = step.dump();
        return reply;
    }
    if (!step.contains("id")) step["id"] = s.fresh_id();
    if (!step.contains("text"))
        step["text"] = {{"en", "Workbench: " + describe(step, " (", ", ", ")") + "."},
                        {"zh", "工作台：" + describe(step, "（", "，", "）") + "。"}};
    auto candidate = s.steps;
    candidate.push_back(step);
    LabError error;
    auto lab = parse_lab(document(candidate).dump(2), "workbench", error);
    if (lab) lab = instantiate(*lab, {}, error);
    if (!lab) {
        // Lines of the generated document mean nothing to the student; the field names the step and key.
        error.line = 0;
        error.column = 0;
        reply.error = error;
        return reply;
    }
    reply.accepted = true;
    reply.id = step.value("id", std::string());
    s.run->append(lab->steps.back());
    s.run->run_next();
    reply.outcome = s.run->outcome_json(reply.index);
    reply.text = s.run->step_text(reply.index);
    reply.snapshot = s.run->snapshot("after " + reply.id);
    reply.step = step;
    s.steps.push_back(std::move(step));
    s.outcomes.push_back(reply.outcome);
    s.snapshots.push_back(reply.snapshot);
    return reply;
}

std::string Workbench::to_lab(const std::string& id, const std::string& title, int chapter,
                              LabError& error) const {
    const auto& s = *impl_;
    const auto values = s.run->values();
    const auto value = [&](const std::string& key) {
        const auto it = values.find(key);
        return it == values.end() ? std::string("?") : it->second;
    };
    nlohmann::json steps = nlohmann::json::array();
    nlohmann::json settled_qps = nlohmann::json::object();
    nlohmann::json settled_mrs = nlohmann::json::object();
    const auto allowed = schema::errno_names();
    for (std::size_t i = 0; i < s.steps.size(); ++i) {
        const auto& outcome = s.outcomes[i];
        const auto info = outcome.find("error_info");
        // The runner refused it without calling a verb (e.g. an SGE past the region's end): not a device
        // fact.
        if (info != outcome.end() && info->value("code", std::string()) == "LAB_ERROR") continue;
        nlohmann::json step = s.steps[i];
        nlohmann::json expect = nlohmann::json::array();
        const auto& results = outcome.at("results");
        const std::string action = step.value("do", std::string("note"));
        if (info != outcome.end()) {
            const std::string name = results.value("errno", std::string("any"));
            const bool known = std::find(allowed.begin(), allowed.end(), name) != allowed.end();
            expect.push_back({{"fails", known ? name : std::string("any")}});
        } else if (action == "poll_cq") {
            const auto count = std::stoll(results.value("count", std::string("0")));
            expect.push_back({{"completions", count}});
            if (count > 0) {
                nlohmann::json completion = {{"status", results.value("status", std::string())}};
                if (completion["status"] == "success")
                    completion["opcode"] = results.value("opcode", std::string());
                completion["wr_id"] = std::stoull(results.value("wr_id", std::string("0")), nullptr, 0);
                expect.push_back({{"completion", completion}});
            }
        }
        if (settled_after(action)) {
            const auto& snapshot = s.snapshots[i];
            for (const auto& [qp, state] : snapshot.at("qps").items()) {
                if (settled_qps.contains(qp) && settled_qps[qp] != state &&
                    state.get<std::string>().find(' ') == std::string::npos)
                    expect.push_back({{"qp_state", {{"qp", qp}, {"is", state}}}});
                settled_qps[qp] = state;
            }
            for (const auto& [mr, memory] : snapshot.at("mrs").items()) {
                if (settled_mrs.contains(mr) && settled_mrs[mr] != memory.at("hex"))
                    expect.push_back({{"bytes", {{"mr", mr}, {"hex", memory.at("hex")}}}});
                settled_mrs[mr] = memory.at("hex");
            }
            // Objects destroyed by this step are no longer compared.
            for (auto it = settled_qps.begin(); it != settled_qps.end();)
                it = snapshot.at("qps").contains(it.key()) ? std::next(it) : settled_qps.erase(it);
            for (auto it = settled_mrs.begin(); it != settled_mrs.end();)
                it = snapshot.at("mrs").contains(it.key()) ? std::next(it) : settled_mrs.erase(it);
        }
        if (!expect.empty()) step["expect"] = expect;
        steps.push_back(step);
    }
    const std::string device = value("device.name");
    const bool software = value("device.software") == "yes";
    nlohmann::json lab = document(steps);
    lab["id"] = id;
    lab["chapter"] = chapter;
    lab["title"] = {{"en", title}, {"zh", title}};
    lab["minutes"] = 15;
    lab["objectives"] = {{{"en", "Repeat each step and predict what the device will do before it does it"},
                          {"zh", "重做每一步，并在设备执行之前预测它会怎么做"}}};
    lab["summary"] = {
        {"en", fmt::format("Recorded on the rdmalab workbench on {}{}: each step is what was done there, and "
                           "each expectation is what the device did.",
                           device, software ? " (SoftRoCE, a software device)" : "")},
        {"zh", fmt::format(
                   "在 rdmalab 工作台上于 {}{} 录制：每一步都是当时做过的操作，每条预期都是设备当时的表现。",
                   device, software ? "（SoftRoCE，软件设备）" : "")}};
    YAML::Emitter out;
    out << YAML::Comment(
               fmt::format("Saved from the rdmalab workbench ({} steps on {}). Format: docs/lab-format.md.",
                           steps.size(), device))
        << YAML::Newline;
    emit(out, lab);
    std::string text = std::string(out.c_str()) + "\n";
    if (!parse_lab(text, id + ".yaml", error)) return {};
    return text;
}

} // namespace rdmalab::labs
