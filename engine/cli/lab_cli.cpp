// `rdmalab-cli lab check` and `lab list`: the lab files without a device (labs/include/rdmalab/labs/lab.hpp).
#include "lab_cli.hpp"

#include "cli.hpp"
#include "lab_run_cli.hpp"
#include "options.hpp"

#include "rdmalab/labs/lab.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace rdmalab::cli {

int lab_usage(const std::string& message) {
    std::fprintf(stderr, "rdmalab-cli: lab: %s\n\n%s\n`rdmalab-cli --help` lists every option and value.\n",
                 message.c_str(), usage_text().c_str());
    return 2;
}

namespace {

/// `lab check FILE...`: each file parsed and validated; its error lines, or "FILE: ok (N steps)".
int lab_check(const std::vector<std::string>& files) {
    if (files.empty()) return lab_usage("check: name at least one lab file");
    int status = 0;
    for (const auto& file : files) {
        if (file.rfind("--", 0) == 0) return lab_usage(fmt::format("unknown argument '{}'", file));
        labs::LabError error;
        const auto lab = labs::load_lab(file, error);
        if (!lab) {
            std::printf("%s\n", error.to_string().c_str());
            status = kExitFailure;
            continue;
        }
        // The defaults must also survive instantiation (a "{param}" value re-checked against its field).
        labs::LabError instantiate_error;
        if (!labs::instantiate(*lab, {}, instantiate_error)) {
            std::printf("%s\n", instantiate_error.to_string().c_str());
            status = kExitFailure;
            continue;
        }
        std::printf("%s: ok (%zu step%s)\n", file.c_str(), lab->steps.size(),
                    lab->steps.size() == 1 ? "" : "s");
    }
    std::fflush(stdout);
    return status;
}

std::string value_text(const labs::Value& v) {
    switch (v.kind) {
    case labs::Value::Kind::boolean:
        return v.boolean ? "true" : "false";
    case labs::Value::Kind::integer:
        return v.unsigned_value ? std::to_string(v.as_u64()) : std::to_string(v.integer);
    case labs::Value::Kind::text:
        return v.text;
    default:
        return {};
    }
}

nlohmann::json value_json(const labs::Value& v) {
    switch (v.kind) {
    case labs::Value::Kind::boolean:
        return v.boolean;
    case labs::Value::Kind::integer:
        if (v.unsigned_value) return v.as_u64();
        return v.integer;
    case labs::Value::Kind::text:
        return v.text;
    default:
        return nullptr;
    }
}

nlohmann::json lab_json(const labs::Lab& lab) {
    nlohmann::json parameters = nlohmann::json::array();
    for (const auto& p : lab.parameters) {
        nlohmann::json j = {{"name", p.name},
                            {"type", p.type},
                            {"default", value_json(p.default_value)},
                            {"text", {{"en", p.text.en}, {"zh", p.text.zh}}}};
        if (p.min) j["min"] = *p.min;
        if (p.max) j["max"] = *p.max;
        if (!p.choices.empty()) j["choices"] = p.choices;
        parameters.push_back(std::move(j));
    }
    return {{"id", lab.id},
            {"chapter", lab.chapter},
            {"order", lab.order},
            {"title", {{"en", lab.title.en}, {"zh", lab.title.zh}}},
            {"level", lab.level},
            {"minutes", lab.minutes},
            {"steps", lab.steps.size()},
            {"parameters", std::move(parameters)},
            {"file", lab.file}};
}

/// `lab list [--json] [--dir DIR]`: every lab under DIR (default: the labs directory of the source tree).
int lab_list(const std::vector<std::string>& args) {
    bool json = false;
    std::string dir = labs::default_labs_directory();
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--json") {
            json = true;
        } else if (args[i] == "--dir") {
            if (i + 1 >= args.size()) return lab_usage("list: --dir needs a directory");
            dir = args[++i];
        } else {
            return lab_usage(fmt::format("unknown argument '{}'", args[i]));
        }
    }
    std::vector<labs::LabError> errors;
    const auto labs = labs::load_labs(dir, errors);
    for (const auto& e : errors)
        std::fprintf(stderr, "%s\n", e.to_string().c_str());
    if (json) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& lab : labs)
            out.push_back(lab_json(lab));
        std::printf("%s\n", nlohmann::json{{"labs", std::move(out)}}.dump(2).c_str());
    } else {
        for (const auto& lab : labs) {
            std::printf("%02d  %-32s %-12s %3d min  %s\n", lab.chapter, lab.id.c_str(), lab.level.c_str(),
                        lab.minutes, lab.title.en.c_str());
            if (!lab.title.zh.empty())
                std::printf("    %-32s %-12s %7s  %s\n", "", "", "", lab.title.zh.c_str());
            for (const auto& p : lab.parameters) {
                std::string range;
                if (p.min || p.max)
                    range = fmt::format(" [{}..{}]", p.min ? std::to_string(*p.min) : "",
                                        p.max ? std::to_string(*p.max) : "");
                if (!p.choices.empty()) range = " {" + fmt::format("{}", fmt::join(p.choices, ", ")) + "}";
                std::printf("    --param %s=%s  (%s%s) %s\n", p.name.c_str(),
                            value_text(p.default_value).c_str(), p.type.c_str(), range.c_str(),
                            p.text.en.c_str());
            }
        }
        if (labs.empty() && errors.empty()) std::printf("no labs in %s\n", dir.c_str());
    }
    std::fflush(stdout);
    return errors.empty() ? 0 : kExitFailure;
}

} // namespace

int cmd_lab(const std::vector<std::string>& args) {
    if (args.empty()) return lab_usage("name a sub-command: check, list or run");
    const std::string& sub = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (sub == "check") return lab_check(rest);
    if (sub == "list") return lab_list(rest);
    if (sub == "run") return cmd_lab_run(rest);
    return lab_usage(fmt::format("unknown sub-command '{}' (check, list or run)", sub));
}

} // namespace rdmalab::cli
