// `rdmalab-cli lab run`: performs a lab on the device (engine/labrun, rdmalab_labrun) and prints each step,
// its explanation and every expectation held or broken with what the device did; `--all` runs every lab.
#include "lab_run_cli.hpp"
#include "lab_cli.hpp"

#include "cli.hpp"
#include "options.hpp"

#include "rdmalab/labrun/lab_run.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace rdmalab::cli {

namespace {

struct RunArgs {
    std::string lab; ///< id or file
    labs::ParameterValues parameters;
    std::string seed; ///< --seed: values for the lab's `vary` parameters
    std::string language = "en";
    bool json = false;
    bool all = false;
    std::string trace_file;
    std::string device;
    std::string dir = labs::default_labs_directory();
    /// A two-host lab: --listen ADDR (this host is B) or --connect HOST (A), and the link's TCP port.
    std::string listen, connect;
    std::uint16_t lab_port = labs::kDefaultLabPort;
};

/// Indents every line of `text` by `indent` spaces.
std::string indented(const std::string& text, int indent) {
    std::string out(static_cast<std::size_t>(indent), ' ');
    for (char c : text) {
        out += c;
        if (c == '\n') out.append(static_cast<std::size_t>(indent), ' ');
    }
    while (!out.empty() && (out.back() == ' ' || out.back() == '\n'))
        out.pop_back();
    return out;
}

void print_step(const labs::LabRun& run, std::size_t index, bool details) {
    const auto& o = run.outcome(index);
    const std::size_t count = run.steps().size();
    if (details) {
        const std::string title = run.step_title(index);
        std::printf("[%zu/%zu] %s%s%s\n", index + 1, count, o.id.c_str(), title.empty() ? "" : ": ",
                    title.c_str());
        if (o.state == labs::StepOutcome::State::skipped) {
            // Its text explains an outcome that did not happen here: the reason instead.
            std::printf("      skipped: %s\n", o.skipped_because.c_str());
            return;
        }
        const std::string text = run.step_text(index);
        if (!text.empty()) std::printf("%s\n", indented(text, 6).c_str());
    }
    if (o.state == labs::StepOutcome::State::skipped) return;
    if (o.error && (details || o.failed_unexpectedly))
        std::printf("%s\n", indented(o.error->to_string(run.language()), 6).c_str());
    for (const auto& e : o.expectations) {
        if (!details && e.held) continue;
        if (!details) std::printf("  step %s:", o.id.c_str());
        const std::string_view verdict = e.verdict();
        std::printf("  %-7s %s: %s\n          observed: %s\n",
                    verdict == "held"     ? "held"
                    : verdict == "broken" ? "BROKEN"
                                          : "n/a",
                    e.kind.c_str(), e.description.c_str(), e.observed.c_str());
        if (!e.why.empty() && details) std::printf("%s\n", indented("why: " + e.why, 10).c_str());
    }
}

/// Runs one prepared lab; prints it (details) or only what broke; returns the run's verdict.
struct LabVerdict {
    std::string id;
    int chapter = 0;
    std::size_t steps = 0, held = 0, broken = 0, not_run = 0, skipped = 0;
    double seconds = 0;
    bool ok = false;
    bool two_hosts = false; ///< a `hosts: 2` lab (on one host every step is skipped)
};

/// The verdict of a lab none of whose steps ran.
LabVerdict verdict_not_run(const labs::Lab& lab) {
    LabVerdict v;
    v.id = lab.id;
    v.chapter = lab.chapter;
    v.two_hosts = lab.hosts == 2;
    v.steps = lab.steps.size();
    v.not_run = lab.steps.size();
    return v;
}

LabVerdict run_one(const labs::Lab& lab, const RunArgs& args, const std::shared_ptr<Tracer>& tracer,
                   bool details) {
    labs::LabRunOptions options;
    options.device = args.device;
    options.language = args.language;
    options.parameters = args.parameters;
    if ((!args.listen.empty() || !args.connect.empty()) && lab.hosts != 2) {
        // Its texts and expectations are written for one host (a loopback pair): across two they would
        // not be true.
        std::fprintf(
            stderr,
            "rdmalab-cli: lab run: lab '%s' runs on one host; --listen and --connect run a two-host lab "
            "(`hosts: 2`, chapter 29)\n  fix: run it without --listen and --connect\n",
            lab.id.c_str());
        return verdict_not_run(lab);
    }
    if (!args.listen.empty() || !args.connect.empty()) {
        // The other host's run may start later: B waits ten minutes for A, A tries for two.
        try {
            if (!args.listen.empty()) {
                std::printf("lab %s: endpoint B, waiting on %s:%u for endpoint A's host\n", lab.id.c_str(),
                            args.listen.c_str(), args.lab_port);
                std::fflush(stdout);
                options.peer = labs::PeerLink::listen(args.listen, args.lab_port, 600000);
                options.side = Endpoint::B;
            } else {
                options.peer = labs::PeerLink::connect(args.connect, args.lab_port, 120000);
                options.side = Endpoint::A;
            }
        } catch (const std::exception& e) {
            std::fprintf(stderr, "rdmalab-cli: lab run: %s\n", e.what());
            return verdict_not_run(lab);
        }
        if (!args.json)
            std::printf("lab %s: endpoint %c on %s, the other host is %s\n", lab.id.c_str(),
                        static_cast<char>(options.side), options.peer->local_address().c_str(),
                        options.peer->peer_address().c_str());
    }
    const auto start = std::chrono::steady_clock::now();
    if (tracer->enabled()) tracer->record(session_event(args.device, "lab run " + lab.id));
    labs::LabRun run(lab, tracer, options);
    if (details && !args.json) {
        std::printf("lab %s: %s\n", lab.id.c_str(), lab.title.get(args.language).c_str());
        if (!args.seed.empty()) {
            // What the seed drew, as the lab now has it (an explicit --param wins over the draw).
            std::string drawn;
            for (const auto& p : lab.parameters)
                if (p.vary)
                    drawn += fmt::format(" {}={}", p.name,
                                         p.default_value.kind == labs::Value::Kind::integer
                                             ? std::to_string(p.default_value.integer)
                                             : p.default_value.text);
            std::printf("seed %s:%s\n", args.seed.c_str(),
                        drawn.empty() ? " (no varying parameters)" : drawn.c_str());
        }
    }
    while (!run.done()) {
        const std::size_t index = run.next_step();
        run.run_next();
        if (!args.json) print_step(run, index, details);
        std::fflush(stdout);
    }
    run.teardown();
    LabVerdict v;
    v.id = lab.id;
    v.chapter = lab.chapter;
    v.two_hosts = lab.hosts == 2;
    v.steps = lab.steps.size();
    v.held = run.held_count();
    v.broken = run.broken_count();
    for (std::size_t i = 0; i < lab.steps.size(); ++i) {
        v.not_run += run.outcome(i).state == labs::StepOutcome::State::not_run ? 1 : 0;
        v.skipped += run.outcome(i).state == labs::StepOutcome::State::skipped ? 1 : 0;
    }
    v.ok = run.all_held();
    v.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (tracer->enabled())
        tracer->record(Endpoint::None, EventKind::Check, v.ok ? "lab_held" : "lab_broken", {},
                       run.summary_json());
    if (!args.json) {
        if (v.not_run > 0)
            std::printf("  %zu step%s not run: the run stopped at an unexpected failure\n", v.not_run,
                        v.not_run == 1 ? "" : "s");
        std::printf("%s %s: %zu expectation%s held, %zu broken (%.1f s)\n", v.ok ? "ok" : "FAILED",
                    lab.id.c_str(), v.held, v.held == 1 ? "" : "s", v.broken, v.seconds);
    }
    std::fflush(stdout);
    return v;
}

std::optional<RunArgs> parse(const std::vector<std::string>& args, int& status) {
    RunArgs r;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](const char* name) -> std::optional<std::string> {
            if (i + 1 >= args.size()) {
                status = lab_usage(fmt::format("run: {} needs a value", name));
                return std::nullopt;
            }
            return args[++i];
        };
        if (a == "--json") {
            r.json = true;
        } else if (a == "--all") {
            r.all = true;
        } else if (a == "--param") {
            const auto v = value("--param");
            if (!v) return std::nullopt;
            const auto eq = v->find('=');
            if (eq == std::string::npos || eq == 0) {
                status = lab_usage(fmt::format("run: --param wants NAME=VALUE (got '{}')", *v));
                return std::nullopt;
            }
            r.parameters[v->substr(0, eq)] = v->substr(eq + 1);
        } else if (a == "--seed") {
            const auto v = value("--seed");
            if (!v) return std::nullopt;
            r.seed = *v;
        } else if (a == "--lang") {
            const auto v = value("--lang");
            if (!v) return std::nullopt;
            if (*v != "en" && *v != "zh") {
                status = lab_usage(fmt::format("run: --lang must be en or zh (got '{}')", *v));
                return std::nullopt;
            }
            r.language = *v;
        } else if (a == "--listen" || a == "--connect") {
            const auto v = value(a.c_str());
            if (!v) return std::nullopt;
            (a == "--listen" ? r.listen : r.connect) = *v;
        } else if (a == "--lab-port") {
            const auto v = value("--lab-port");
            if (!v) return std::nullopt;
            const int port = std::atoi(v->c_str());
            if (port < 1 || port > 65535) {
                status = lab_usage(fmt::format("run: --lab-port must be 1 to 65535 (got '{}')", *v));
                return std::nullopt;
            }
            r.lab_port = static_cast<std::uint16_t>(port);
        } else if (a == "--trace" || a == "--device" || a == "--dir") {
            const auto v = value(a.c_str());
            if (!v) return std::nullopt;
            (a == "--trace" ? r.trace_file : a == "--device" ? r.device : r.dir) = *v;
        } else if (a.rfind("--", 0) == 0) {
            status = lab_usage(fmt::format("unknown argument '{}'", a));
            return std::nullopt;
        } else if (r.all) {
            status = lab_usage(fmt::format("unknown argument '{}' (run --all runs every lab: name none)", a));
            return std::nullopt;
        } else if (r.lab.empty()) {
            r.lab = a;
        } else {
            status = lab_usage(fmt::format("run: one lab at a time (got '{}' and '{}')", r.lab, a));
            return std::nullopt;
        }
    }
    if (r.all == !r.lab.empty()) {
        status = lab_usage(r.all ? "run: --all runs every lab: name none"
                                 : "run: name a lab (an id or a file), or --all");
        return std::nullopt;
    }
    if (!r.listen.empty() && !r.connect.empty()) {
        status = lab_usage("run: --listen (endpoint B) or --connect (endpoint A), not both");
        return std::nullopt;
    }
    if (r.all && (!r.listen.empty() || !r.connect.empty())) {
        status = lab_usage("run: --listen and --connect run one two-host lab, not --all");
        return std::nullopt;
    }
    if (r.all && !r.parameters.empty()) {
        status = lab_usage("run: --param applies to one lab, not to --all");
        return std::nullopt;
    }
    return r;
}

} // namespace

int cmd_lab_run(const std::vector<std::string>& arguments) {
    int status = kExitUsage;
    const auto args = parse(arguments, status);
    if (!args) return status;
    auto tracer = std::make_shared<Tracer>();
    std::shared_ptr<JsonLinesSink> stdout_sink, file_sink;
    if (args->json) {
        stdout_sink = std::make_shared<JsonLinesSink>(stdout, true);
        tracer->add_sink(stdout_sink);
    }
    if (!args->trace_file.empty()) {
        try {
            file_sink = std::make_shared<JsonLinesSink>(args->trace_file);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "rdmalab-cli: lab run: %s\n", e.what());
            return kExitFailure;
        }
        tracer->add_sink(file_sink);
    }
    bool ok = true;
    if (!args->all) {
        labs::LabError error;
        const auto lab = labs::prepare_lab(args->lab, args->parameters, args->dir, error, args->seed);
        if (!lab) {
            std::fprintf(stderr, "rdmalab-cli: lab run: %s\n", error.to_string().c_str());
            return kExitFailure;
        }
        ok = run_one(*lab, *args, tracer, true).ok;
    } else {
        std::vector<labs::LabError> errors;
        const auto all = labs::load_labs(args->dir, errors);
        for (const auto& e : errors)
            std::fprintf(stderr, "%s\n", e.to_string().c_str());
        ok = errors.empty() && !all.empty();
        if (all.empty()) std::fprintf(stderr, "rdmalab-cli: lab run: no labs in %s\n", args->dir.c_str());
        std::vector<LabVerdict> verdicts;
        for (const auto& lab : all) {
            labs::LabError error;
            const auto ready = labs::instantiate(lab, labs::seeded_values(lab, args->seed), error);
            if (!ready) {
                std::fprintf(stderr, "%s\n", error.to_string().c_str());
                ok = false;
                continue;
            }
            verdicts.push_back(run_one(*ready, *args, tracer, false));
            ok = ok && verdicts.back().ok;
        }
        if (!args->json) {
            std::size_t held = 0, broken = 0, passed = 0, not_here = 0;
            double seconds = 0;
            std::printf("\n%-34s %7s %5s %6s %6s %7s %7s %8s\n", "lab", "chapter", "steps", "held", "broken",
                        "not run", "skipped", "seconds");
            for (const auto& v : verdicts) {
                std::printf("%-34s %7d %5zu %6zu %6zu %7zu %7zu %8.1f%s\n", v.id.c_str(), v.chapter, v.steps,
                            v.held, v.broken, v.not_run, v.skipped, v.seconds, v.ok ? "" : "  FAILED");
                held += v.held;
                broken += v.broken;
                // A two-host lab run on one host skips every step: it neither held nor broke anything here.
                const bool skipped_here = v.two_hosts && v.steps > 0 && v.skipped == v.steps;
                not_here += skipped_here ? 1 : 0;
                passed += v.ok && !skipped_here ? 1 : 0;
                seconds += v.seconds;
            }
            std::printf("%zu of %zu labs held every expectation", passed, verdicts.size() - not_here);
            if (not_here > 0)
                std::printf(
                    "; %zu two-host lab%s skipped every step (%s two hosts: `lab run LAB --listen ADDR` "
                    "on one, `--connect HOST` on the other)",
                    not_here, not_here == 1 ? "" : "s", not_here == 1 ? "it needs" : "they need");
            std::printf("; %zu expectations held, %zu broken; %.1f s\n", held, broken, seconds);
        }
    }
    tracer->flush();
    if (file_sink && file_sink->finish() != 0) {
        std::fprintf(stderr,
                     "rdmalab-cli: lab run: writing the trace to %s failed; the trace is incomplete\n",
                     args->trace_file.c_str());
        return kExitFailure;
    }
    std::fflush(stdout);
    return ok ? 0 : kExitFailure;
}

} // namespace rdmalab::cli
