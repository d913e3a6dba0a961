// The engine process's lab and workbench commands (lab.*, work.*; server_impl.hpp): a lab prepared from
// the engine's own lab folder or from its text and performed step by step by the lab runner, and a
// workbench session that performs one lab step per command.
#include "server_impl.hpp"

#include "cli.hpp"

#include "rdmalab/format/protocol.hpp"

#include <fmt/format.h>

#include <utility>

namespace rdmalab::cli {

// ---- a lab (lab.*) ----------------------------------------------------------------------------------------

/// lab.start: {"lab": ID} or {"text": YAML, "name": FILE NAME}, "params": {NAME: VALUE}, "seed",
/// "lang": "en"|"zh", "device". An id is looked up in the engine's own lab folder only; the engine opens
/// no file a command names (docs/security.md), so a lab of the user's own comes as its text.
void Server::Impl::start_lab(const nlohmann::json& id, const CommandFields& f) {
    auto fail = [&](const std::string& message) {
        reply(id, protocol::kLabStart, false, {{"error", message}});
    };
    const bool byText = f.has("text");
    const std::string name =
        byText ? f.string("name", std::string(protocol::kLabStart) + " text") : f.string("lab", "");
    const std::string text = byText ? f.string("text", "") : std::string();
    if (byText && f.has("lab")) return fail("give either field 'lab' (an id) or field 'text', not both");
    if (!byText && name.empty())
        return fail("field 'lab' must name a lab by its id (rdmalab-cli lab list), or field 'text' must "
                    "hold the lab's YAML");
    if (!byText && labs::names_a_lab_file(name))
        return fail(fmt::format("field 'lab' must be a lab id, not a file (got \"{}\"): the engine opens no "
                                "file a command names; send the lab's YAML in field 'text' instead",
                                name.substr(0, 80)));
    if (f.has("dir"))
        return fail("field 'dir' is not accepted: the engine looks lab ids up only in its own lab folder "
                    "(RDMALAB_LABS_DIR, else the installed curriculum)");
    labs::ParameterValues parameters;
    if (f.has("params")) {
        const auto& p = f.raw("params");
        if (!p.is_object())
            return fail(fmt::format("field 'params' must be an object of NAME: VALUE (got {})",
                                    CommandFields::brief(p)));
        for (const auto& [key, value] : p.items()) {
            if (value.is_string())
                parameters[key] = value.get<std::string>();
            else if (value.is_number_integer() || value.is_boolean())
                parameters[key] = value.dump();
            else
                return fail(
                    fmt::format("field 'params.{}' must be a string, an integer or a boolean (got {})", key,
                                CommandFields::brief(value)));
        }
    }
    labs::LabRunOptions options;
    options.language = f.string("lang", "en");
    if (options.language != "en" && options.language != "zh")
        return fail(fmt::format("field 'lang' must be en or zh (got \"{}\")", options.language));
    options.device = f.string("device", "");
    options.parameters = parameters;
    labs::LabError error;
    const std::string seed = f.string("seed", "");
    auto lab = byText ? labs::prepare_lab_text(text, name, parameters, error, seed)
                      : labs::prepare_lab(name, parameters, labs::default_labs_directory(), error, seed);
    if (!lab) return fail(error.to_string());
    lab_.reset();
    tracer_->record(session_event(options.device, "serve lab " + lab->id));
    lab_ = std::make_unique<labs::LabRun>(std::move(*lab), tracer_, options);
    nlohmann::json steps = nlohmann::json::array();
    for (std::size_t i = 0; i < lab_->steps().size(); ++i) {
        const auto& s = lab_->steps()[i];
        steps.push_back({{"id", s.id},
                         {"title", lab_->step_title(i)},
                         {"action", s.action.empty() ? "note" : s.action},
                         {"creates", s.creates()},
                         {"expectations", s.expect.size()},
                         {"predict", s.predict.has_value()}});
    }
    const auto& l = lab_->lab();
    reply(
        id, protocol::kLabStart, true,
        {{"lab",
          {{"id", l.id}, {"chapter", l.chapter}, {"title", l.title.get(options.language)}, {"file", l.file}}},
         {"steps", steps},
         {"seed", seed},
         {"values", labs::seeded_values(lab_->lab(), seed)},
         {"ask", lab_->prediction_json(0)},
         {"questions", lab_->questions_json()}});
}

/// lab.step: exactly the next step; ok unless it failed unexpectedly (a broken expectation is a
/// verdict, not a failed command: its `state` says broken).
void Server::Impl::step_lab(const nlohmann::json& id, const CommandFields&) {
    if (lab_->done()) {
        reply(id, protocol::kLabStep, false,
              {{"error", fmt::format("the lab has no step left to run ({}, or {} to run it again)",
                                     protocol::kLabReset, protocol::kLabStart)},
               {"done", true}});
        return;
    }
    const std::size_t index = lab_->next_step();
    lab_->run_next();
    const auto& outcome = lab_->outcome(index);
    nlohmann::json data = {
        {"step_index", index},
        {"next_step", lab_->next_step()},
        {"done", lab_->done()},
        {"title", lab_->step_title(index)},
        {"text", lab_->step_text(index)},
        {"texts", {{"en", lab_->step_text(index, "en")}, {"zh", lab_->step_text(index, "zh")}}},
        {"state", to_string(outcome.state)},
        {"outcome", lab_->outcome_json(index)}};
    if (lab_->done())
        data["summary"] = lab_->summary_json();
    else
        data["ask"] = lab_->prediction_json(lab_->next_step()); // rendered with what is known now
    const bool ok = !outcome.failed_unexpectedly;
    if (!ok && outcome.error) {
        data["error"] = outcome.error->to_string(lab_->language());
        data["error_info"] = outcome.error->to_json();
    }
    reply(id, protocol::kLabStep, ok, data);
}

/// lab.run: every remaining step; ok when every expectation of the lab held.
void Server::Impl::run_lab(const nlohmann::json& id, const CommandFields&) {
    const std::size_t first = lab_->next_step();
    lab_->run_all();
    nlohmann::json outcomes = nlohmann::json::array();
    for (std::size_t i = first; i < lab_->next_step(); ++i)
        outcomes.push_back(lab_->outcome_json(i));
    nlohmann::json data = {{"first_step", first},
                           {"next_step", lab_->next_step()},
                           {"done", lab_->done()},
                           {"outcomes", outcomes},
                           {"summary", lab_->summary_json()}};
    const bool ok = lab_->all_held();
    if (!ok) {
        const auto summary = lab_->summary_json();
        data["error"] =
            fmt::format("lab {}: {} expectation(s) broken, {} step(s) not run", lab_->lab().id,
                        summary["broken"].get<std::size_t>(), summary["not_run"].get<std::size_t>());
    }
    reply(id, protocol::kLabRun, ok, data);
}

void Server::Impl::reset_lab(const nlohmann::json& id, const CommandFields&) {
    const bool had = lab_ != nullptr;
    lab_.reset(); // tears down children before parents, traced
    reply(id, protocol::kLabReset, true, {{"had_lab", had}});
}

// ---- a workbench session (work.*) ----------------------------------------------------------------------

/// work.start: {"lang": "en"|"zh", "device"}: an empty workbench session (the last one torn down).
void Server::Impl::start_workbench(const nlohmann::json& id, const CommandFields& f) {
    labs::LabRunOptions options;
    options.language = f.string("lang", "en");
    if (options.language != "en" && options.language != "zh") {
        reply(id, protocol::kWorkStart, false,
              {{"error", fmt::format("field 'lang' must be en or zh (got \"{}\")", options.language)}});
        return;
    }
    options.device = f.string("device", "");
    workbench_.reset();
    tracer_->record(session_event(options.device, "serve workbench"));
    workbench_ = std::make_unique<labs::Workbench>(tracer_, options);
    reply(id, protocol::kWorkStart, true, {});
}

/// work.do: {"step": {"do": ACTION, ...}}: one lab step, checked against the session's steps and
/// performed. ok unless it was refused or its verb failed (the outcome says how; the session goes on).
void Server::Impl::do_workbench(const nlohmann::json& id, const CommandFields& f) {
    if (!f.has("step") || !f.raw("step").is_object()) {
        reply(id, protocol::kWorkDo, false,
              {{"error", "field 'step' must be a lab step: {\"do\": ACTION, FIELD: VALUE, ...} "
                         "(docs/lab-format.md)"}});
        return;
    }
    const auto done = workbench_->perform(f.raw("step"));
    if (!done.accepted) {
        reply(id, protocol::kWorkDo, false,
              {{"error", done.error.to_string()}, {"field", done.error.field}, {"refused", true}});
        return;
    }
    nlohmann::json data = {{"step_index", done.index}, {"step", done.id},
                           {"performed", done.step},   {"text", done.text},
                           {"outcome", done.outcome},  {"snapshot", done.snapshot}};
    const bool ok = !done.outcome.contains("error");
    if (!ok) {
        data["error"] = done.outcome["error"];
        data["error_info"] = done.outcome["error_info"];
    }
    reply(id, protocol::kWorkDo, ok, data);
}

void Server::Impl::reset_workbench(const nlohmann::json& id, const CommandFields&) {
    workbench_->reset(); // tears down children before parents, traced
    reply(id, protocol::kWorkReset, true, {});
}

/// work.save: {"lab_id", "title", "chapter"}: the session as a lab file's text ("yaml").
void Server::Impl::save_workbench(const nlohmann::json& id, const CommandFields& f) {
    labs::LabError error;
    const std::string text = workbench_->to_lab(f.string("lab_id", "my-lab"), f.string("title", "My lab"),
                                                static_cast<int>(f.integer("chapter", 1, 99, 1)), error);
    if (text.empty()) {
        reply(id, protocol::kWorkSave, false, {{"error", error.to_string()}, {"field", error.field}});
        return;
    }
    reply(id, protocol::kWorkSave, true, {{"yaml", text}, {"steps", workbench_->size()}});
}
} // namespace rdmalab::cli
