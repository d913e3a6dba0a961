// LabRun: steps performed one at a time, their verdicts, the values texts show, and the teardown.
#include "rdmalab/labrun/lab_run.hpp"

#include "rdmalab/engine/names.hpp"
#include "run_state.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <functional>
#include <limits>
#include <mutex>
#include <thread>

namespace rdmalab::labs {

using namespace run;

namespace run {

const Value* arg(const Step& step, const std::string& name) {
    const auto it = step.args.find(name);
    return it == step.args.end() || it->second.kind == Value::Kind::null ? nullptr : &it->second;
}

std::int64_t integer(const Step& step, const std::string& name, std::int64_t fallback) {
    const Value* v = arg(step, name);
    return v && v->kind == Value::Kind::integer ? v->integer : fallback;
}

std::uint64_t u64(const Value* value, std::uint64_t fallback) {
    return value && value->kind == Value::Kind::integer ? value->as_u64() : fallback;
}

bool boolean(const Step& step, const std::string& name, bool fallback) {
    const Value* v = arg(step, name);
    return v && v->kind == Value::Kind::boolean ? v->boolean : fallback;
}

std::string text(const Step& step, const std::string& name, const std::string& fallback) {
    const Value* v = arg(step, name);
    return v && v->kind == Value::Kind::text ? v->text : fallback;
}

std::vector<std::string> flag_list(const Value* value) {
    std::vector<std::string> out;
    if (!value) return out;
    if (value->kind == Value::Kind::text && !value->text.empty()) out.push_back(value->text);
    for (const auto& item : value->list)
        out.push_back(item.text);
    return out;
}

Endpoint endpoint_of(const std::string& object_name) {
    if (object_name.size() < 2 || object_name[1] != '.') return Endpoint::None;
    switch (object_name[0]) {
    case 'A':
        return Endpoint::A;
    case 'B':
        return Endpoint::B;
    case 'C':
        return Endpoint::C;
    case 'D':
        return Endpoint::D;
    default:
        return Endpoint::None;
    }
}

std::string hex(std::uint64_t value) {
    return fmt::format("0x{:x}", value);
}

std::vector<std::uint8_t> hex_bytes(const std::string& text) {
    if (!is_hex_bytes(text))
        throw LabRunError(fmt::format("'{}' is not bytes in hex (an even number of hex digits)", text));
    std::vector<std::uint8_t> bytes;
    for (std::size_t i = 0; i < text.size(); i += 2) {
        unsigned byte = 0;
        (void)std::from_chars(text.data() + i, text.data() + i + 2, byte, 16); // checked above
        bytes.push_back(static_cast<std::uint8_t>(byte));
    }
    return bytes;
}

std::size_t index_number(const std::string& text) {
    std::size_t n = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (error != std::errc{} || end != text.data() + text.size() || text.empty())
        throw LabRunError(fmt::format("completion index '{}' is not a whole number", text));
    return n;
}

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

std::string status_name(ibv_wc_status status) {
    std::string_view name = wc_status_name(status);
    if (name.rfind("IBV_WC_", 0) == 0) name.remove_prefix(7);
    return lower(name);
}

std::string opcode_name(ibv_wc_opcode opcode) {
    return lower(wc_opcode_name(opcode));
}

std::string state_name(ibv_qp_state state) {
    return lower(qp_state_name(state));
}

std::string access_names(unsigned access) {
    std::string out;
    for (const auto& name : access_flag_names(access))
        out += (out.empty() ? "" : ",") + lower(name);
    return out.empty() ? "none" : out;
}

unsigned access_bits(const std::vector<std::string>& names) {
    unsigned bits = 0;
    for (const auto& n : names) {
        if (n == "local_write") bits |= IBV_ACCESS_LOCAL_WRITE;
        if (n == "remote_write") bits |= IBV_ACCESS_REMOTE_WRITE;
        if (n == "remote_read") bits |= IBV_ACCESS_REMOTE_READ;
        if (n == "remote_atomic") bits |= IBV_ACCESS_REMOTE_ATOMIC;
        if (n == "mw_bind") bits |= IBV_ACCESS_MW_BIND;
        if (n == "zero_based") bits |= IBV_ACCESS_ZERO_BASED;
        if (n == "on_demand") bits |= IBV_ACCESS_ON_DEMAND;
        if (n == "relaxed_order") bits |= IBV_ACCESS_RELAXED_ORDERING;
    }
    return bits;
}

std::string value_text(const Value& value) {
    switch (value.kind) {
    case Value::Kind::null:
        return "";
    case Value::Kind::boolean:
        return value.boolean ? "true" : "false";
    case Value::Kind::integer:
        return value.unsigned_value ? std::to_string(value.as_u64()) : std::to_string(value.integer);
    case Value::Kind::text:
        return value.text;
    case Value::Kind::list: {
        std::string out;
        for (const auto& item : value.list)
            out += (out.empty() ? "" : ",") + value_text(item);
        return out;
    }
    case Value::Kind::map: {
        std::string out;
        for (const auto& [key, item] : value.map)
            out += (out.empty() ? "" : " ") + key + "=" + value_text(item);
        return out;
    }
    }
    return "";
}

bool implements_every_action();

} // namespace run

namespace {

/// The objects a step names (its `as` and every object field), for its `step` event.
std::vector<std::string> objects_of(const Step& step) {
    std::vector<std::string> out;
    for (const auto& [key, value] : step.args) {
        auto take = [&](const Value& v) {
            if (v.kind == Value::Kind::text && (v.text == "device" || endpoint_of(v.text) != Endpoint::None))
                out.push_back(v.text);
        };
        if (key == "sge") {
            for (const auto& item : value.list)
                if (const Value* mr = item.find("mr")) take(*mr);
        } else if (key == "remote" || key == "attrs") {
            for (const auto& [sub, v] : value.map)
                take(v);
        } else {
            take(value);
        }
    }
    return out;
}

Endpoint step_endpoint(const std::vector<std::string>& objects) {
    for (const auto& o : objects)
        if (endpoint_of(o) != Endpoint::None) return endpoint_of(o);
    return Endpoint::None;
}

/// A parsed lab instantiated with what `seed` draws, overridden by `parameters`.
std::optional<Lab> seeded_instance(const Lab& lab, const ParameterValues& parameters, LabError& error,
                                   const std::string& seed) {
    // A seed draws the varying parameters; values given explicitly win.
    auto values = seeded_values(lab, seed);
    for (const auto& [name, value] : parameters)
        values[name] = value;
    return instantiate(lab, values, error);
}

} // namespace

std::optional<Lab> prepare_lab_text(const std::string& text, const std::string& name,
                                    const ParameterValues& parameters, LabError& error,
                                    const std::string& seed) {
    if (text.size() > kMaxLabBytes) {
        error = LabError{};
        error.file = name;
        error.message =
            fmt::format("the lab is {} bytes; a lab is at most {} bytes", text.size(), kMaxLabBytes);
        error.expected = "a lab of at most 1 MiB";
        error.found = fmt::format("{} bytes", text.size());
        return std::nullopt;
    }
    const auto lab = parse_lab(text, name, error);
    if (!lab) return std::nullopt;
    return seeded_instance(*lab, parameters, error, seed);
}

std::optional<Lab> prepare_lab(const std::string& id_or_file, const ParameterValues& parameters,
                               const std::string& labs_dir, LabError& error, const std::string& seed) {
    std::string path = id_or_file;
    const bool is_path = names_a_lab_file(id_or_file);
    if (!is_path) {
        path.clear();
        std::error_code ec;
        if (std::filesystem::is_directory(labs_dir, ec))
            for (auto it = std::filesystem::recursive_directory_iterator(labs_dir, ec);
                 !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
                if (it->is_regular_file(ec) && it->path().filename() == id_or_file + ".yaml") {
                    path = it->path().string();
                    break;
                }
        if (path.empty()) {
            error = LabError{};
            error.file = id_or_file;
            error.message =
                fmt::format("no lab '{}' in {} (looked for {}.yaml)", id_or_file, labs_dir, id_or_file);
            error.expected = "a lab id (rdmalab-cli lab list) or a lab file";
            error.found = id_or_file;
            return std::nullopt;
        }
    }
    // Only a regular file of sensible size: a path from the engine process's input could name /dev/zero.
    std::error_code ec;
    if (std::filesystem::exists(path, ec) && (!std::filesystem::is_regular_file(path, ec) ||
                                              std::filesystem::file_size(path, ec) > kMaxLabBytes)) {
        error = LabError{};
        error.file = path;
        error.message =
            fmt::format("not a lab file: a lab is a regular file of at most {} bytes", kMaxLabBytes);
        error.expected = "a YAML lab file";
        error.found = path;
        return std::nullopt;
    }
    const auto lab = load_lab(path, error);
    if (!lab) return std::nullopt;
    if (!is_path && lab->id != id_or_file) {
        error = LabError{};
        error.file = path;
        error.field = "id";
        error.message = fmt::format("the file {}.yaml holds the lab '{}'", id_or_file, lab->id);
        error.expected = id_or_file;
        error.found = lab->id;
        return std::nullopt;
    }
    return seeded_instance(*lab, parameters, error, seed);
}

bool runner_implements_every_action() {
    return implements_every_action();
}

const char* to_string(StepOutcome::State state) {
    switch (state) {
    case StepOutcome::State::held:
        return "held";
    case StepOutcome::State::broken:
        return "broken";
    case StepOutcome::State::not_run:
        return "not_run";
    case StepOutcome::State::skipped:
        return "skipped";
    }
    return "not_run";
}

/// One thread that performs every step and the teardown of one run, one call at a time; the caller waits.
/// Why: a step may change the credentials of the thread that runs it (set_memlock's capset), and the
/// kernel refuses write()-based verbs (ib_uverbs_write: EACCES) on any uverbs file opened under other
/// credentials than the caller's. Confined to the run's own thread, the change ends with the run, and the
/// caller's thread, and every device file it or another run opened (librdmacm's, the engine's), keeps
/// working.
class RunThread {
  public:
    RunThread() : thread_([this] { loop(); }) {}
    ~RunThread() {
        {
            std::lock_guard lock(mutex_);
            quit_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }
    RunThread(const RunThread&) = delete;
    RunThread& operator=(const RunThread&) = delete;

    /// Runs `work` on the run's thread and returns when it is done; rethrows what it threw.
    void run(const std::function<void()>& work) {
        if (std::this_thread::get_id() == thread_.get_id()) return work();
        std::unique_lock lock(mutex_);
        work_ = &work;
        failure_ = nullptr;
        wake_.notify_all();
        done_.wait(lock, [this] { return work_ == nullptr; });
        if (failure_) std::rethrow_exception(failure_);
    }

  private:
    void loop() {
        std::unique_lock lock(mutex_);
        for (;;) {
            wake_.wait(lock, [this] { return quit_ || work_ != nullptr; });
            if (work_ == nullptr) return; // quit, nothing pending
            try {
                (*work_)();
            } catch (...) {
                failure_ = std::current_exception();
            }
            work_ = nullptr;
            done_.notify_all();
        }
    }

    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void()>* work_ = nullptr;
    std::exception_ptr failure_;
    bool quit_ = false;
    std::thread thread_; ///< last: started once the members it uses exist
};

struct LabRun::Impl : State {
    RunThread thread;
};

LabRun::LabRun(Lab lab, std::shared_ptr<Tracer> tracer, LabRunOptions options)
    : impl_(std::make_unique<Impl>()) {
    auto& s = *impl_;
    s.lab = std::move(lab);
    s.tracer = std::move(tracer);
    s.options = std::move(options);
    s.outcomes.resize(s.lab.steps.size());
    for (std::size_t i = 0; i < s.lab.steps.size(); ++i)
        s.outcomes[i].id = s.lab.steps[i].id;
    for (const auto& p : s.lab.parameters) {
        const auto given = s.options.parameters.find(p.name);
        s.values[p.name] = given != s.options.parameters.end()
                               ? parameter_text(p, given->second).value_or(given->second)
                               : value_text(p.default_value);
    }
}

LabRun::~LabRun() {
    teardown();
}

const Lab& LabRun::lab() const {
    return impl_->lab;
}
const std::vector<Step>& LabRun::steps() const {
    return impl_->lab.steps;
}
bool LabRun::done() const {
    return impl_->stopped || impl_->next >= impl_->lab.steps.size();
}
std::size_t LabRun::next_step() const {
    return impl_->next;
}
const StepOutcome& LabRun::outcome(std::size_t index) const {
    return impl_->outcomes.at(index);
}

bool LabRun::run_next() {
    bool ran = false;
    impl_->thread.run([&] { ran = run_next_here(); });
    return ran;
}

bool LabRun::run_next_here() {
    auto& s = *impl_;
    if (done()) return false;
    const std::size_t index = s.next;
    const Step& step = s.lab.steps[index];
    StepOutcome& outcome = s.outcomes[index];
    const auto objects = objects_of(step);
    if (s.tracer && s.tracer->enabled())
        s.tracer->record(step_endpoint(objects), EventKind::Step, step.id, {},
                         {{"index", index},
                          {"count", s.lab.steps.size()},
                          {"title", step_title(index)},
                          {"action", step.action.empty() ? "note" : step.action},
                          {"lab", s.lab.id},
                          {"objects", objects}});
    const auto start = monotonic_ns();
    if (s.lab.hosts == 2 && !s.options.peer) {
        // What the room lacks is not the student's failure: the steps are skipped, not broken.
        const std::string because = run::say(s.options.language,
                                             "this lab needs two hosts on one wire and runs on one: run `lab "
                                             "run LAB --listen ADDR` on B's host, "
                                             "then `lab run LAB --connect HOST` on A's",
                                             "本实验需要连在同一条线路上的两台主机，而现在只在一台主机上运行"
                                             "：先在 B 的主机上运行 `lab run LAB --listen ADDR`，"
                                             "再在 A 的主机上运行 `lab run LAB --connect HOST`");
        skip(index,
             ExpectationOutcome{.kind = "hosts",
                                .description = "hosts: 2",
                                .held = false,
                                .observed = "one host",
                                .why = {},
                                .applies = true},
             because);
        return true;
    }
    if (s.options.peer) {
        try {
            start_wire(s);
        } catch (const std::exception& e) {
            link_failed(s, index, e.what());
            return finish_step(index);
        }
        if (!performed_here(s, step)) {
            take_peer_step(s, index);
            return finish_step(index);
        }
        if (step.action == "read_wire" && !s.capture) {
            // No capture here (no CAP_NET_RAW, no such interface): what the room lacks, not the student's
            // failure. The lab runs on without this step's packets.
            skip(index,
                 ExpectationOutcome{.kind = "capture",
                                    .description = "the capture of the wire",
                                    .held = false,
                                    .observed = s.capture_failed,
                                    .why = {},
                                    .applies = true},
                 run::say(s.options.language,
                          "the capture of the wire did not start on this host (" + s.capture_failed +
                              "); the lab runs on without these packets",
                          "本机没能开始抓取线路上的报文（" + s.capture_failed +
                              "）；实验继续进行，只是没有这些报文"));
            return true;
        }
    }
    if (step.when) {
        const auto condition = check_when(s, *step.when, s.options.language);
        if (!condition.held) {
            skip(index, condition);
            return true;
        }
    }
    StepResult result;
    std::optional<ErrorInfo> error;
    bool runner_error = false;
    try {
        perform(s, index, result);
    } catch (const RdmaError& e) {
        error = e.info();
    } catch (const LabRunError& e) {
        runner_error = true;
        error =
            ErrorInfo{.verb = step.action,
                      .err = 0,
                      .code = "LAB_ERROR",
                      .meaning = e.what(),
                      .cause = "the lab asked for something the runner cannot do on this device",
                      .fix = "Correct the lab file (rdmalab-cli lab check FILE finds what it can).",
                      .zh = {.meaning = {},
                             .cause = "实验要求运行器做它在这个设备上做不到的事",
                             .fix = "修改实验文件（`rdmalab-cli lab check FILE` 能找出它所能发现的问题）。"}};
        error->seal();
        if (s.tracer && s.tracer->enabled())
            s.tracer->record(step_endpoint(objects), EventKind::Error, step.action, {}, error->to_json());
    } catch (const std::exception& e) {
        runner_error = true;
        error = ErrorInfo{.verb = step.action,
                          .err = 0,
                          .code = "LAB_ERROR",
                          .meaning = e.what(),
                          .cause = "the runner stopped on an unexpected error",
                          .fix = "Report it with the lab file and the trace (--trace FILE).",
                          .zh = {.meaning = {},
                                 .cause = "运行器因意外错误而停止",
                                 .fix = "请附上实验文件和轨迹（`--trace FILE`）报告这个问题。"}};
        error->seal();
    }
    // Every step's results: its own, and dur_ns (the action's time when it has none), errno and error.
    const auto end = monotonic_ns();
    if (!result.results.contains("dur_ns")) result.results["dur_ns"] = std::to_string(end - start);
    // When the action ended (CLOCK_MONOTONIC): time between steps, whatever the pace of the person stepping.
    result.results["end_ns"] = std::to_string(end);
    result.results["errno"] = error && error->err != 0 ? errno_name(error->err) : "none";
    result.results["error"] = error ? error->code + ": " + error->meaning : "none";
    for (const auto& [key, value] : result.results)
        s.values[step.id + "." + key] = value;
    outcome.results = result.results;
    outcome.error = error;
    const bool expected_failure =
        error && !runner_error &&
        std::any_of(step.expect.begin(), step.expect.end(), [](const auto& e) { return e.kind == "fails"; });
    outcome.failed_unexpectedly = error && !expected_failure;
    outcome.expectations = check_expectations(s, step, result, error, runner_error);
    if (step.predict) outcome.expectations.push_back(check_prediction(s, *step.predict, outcome));
    const bool all_held = std::all_of(outcome.expectations.begin(), outcome.expectations.end(),
                                      [](const auto& e) { return e.held; });
    outcome.state = all_held ? StepOutcome::State::held : StepOutcome::State::broken;
    outcome.seconds = double(monotonic_ns() - start) / 1e9;
    if (s.options.peer) exchange_step(s, index, outcome_json(index), performed_by_both(step));
    return finish_step(index);
}

bool LabRun::finish_step(std::size_t index) {
    auto& s = *impl_;
    const Step& step = s.lab.steps[index];
    const StepOutcome& outcome = s.outcomes[index];
    const auto objects = objects_of(step);
    const bool all_held = outcome.state != StepOutcome::State::broken;
    const bool skipped = outcome.state == StepOutcome::State::skipped;
    if (s.tracer && s.tracer->enabled()) {
        for (std::size_t i = 0; !skipped && i < outcome.expectations.size(); ++i) {
            const auto& e = outcome.expectations[i];
            const std::string line = fmt::format("{} {}: {}; observed {}",
                                                 !e.applies ? "n/a"
                                                 : e.held   ? "ok"
                                                            : "FAIL",
                                                 e.kind, e.description, e.observed);
            s.tracer->record(step_endpoint(objects), EventKind::Check, std::string(e.verdict()), {},
                             {{"lab", s.lab.id},
                              {"step", step.id},
                              {"index", i},
                              {"kind", e.kind},
                              {"description", e.description},
                              {"observed", e.observed},
                              {"why", e.why},
                              {"ok", e.held},
                              {"applies", e.applies},
                              {"summary", line},
                              {"checks", {line}}});
        }
        s.tracer->record(step_endpoint(objects), EventKind::Check,
                         skipped    ? "step_skipped"
                         : all_held ? "step_held"
                                    : "step_broken",
                         {}, outcome_json(index));
    }
    ++s.next;
    if (s.options.open_ended) return !outcome.failed_unexpectedly;
    if (outcome.failed_unexpectedly) {
        s.stopped = true;
        teardown();
        return false;
    }
    if (s.next >= s.lab.steps.size()) teardown();
    return true;
}

void LabRun::append(Step step) {
    auto& s = *impl_;
    if (!s.options.open_ended) throw LabRunError("a step can be appended to an open-ended run only");
    StepOutcome outcome;
    outcome.id = step.id;
    s.lab.steps.push_back(std::move(step));
    s.outcomes.push_back(std::move(outcome));
}

nlohmann::json LabRun::snapshot(const std::string& when) {
    nlohmann::json out;
    impl_->thread.run([&] { out = snapshot_here(when); });
    return out;
}

nlohmann::json LabRun::snapshot_here(const std::string& when) {
    auto& s = *impl_;
    nlohmann::json qps = nlohmann::json::object();
    nlohmann::json mrs = nlohmann::json::object();
    if (s.torn_down) return {{"qps", qps}, {"mrs", mrs}};
    for (const auto& [name, qp] : s.qps) {
        try {
            const std::string state = state_name(qp.qp->query_state());
            s.values[name + ".state"] = state;
            qps[name] = state;
        } catch (const RdmaError& e) {
            qps[name] = "unknown (" + e.info().code + ")";
        }
    }
    for (const auto& [name, mr] : s.mrs) {
        const auto bytes = mr->bytes();
        const std::size_t n = std::min<std::size_t>(bytes.size(), kSnapshotBytes);
        std::string hex_text;
        for (std::size_t i = 0; i < n; ++i)
            hex_text += fmt::format("{:02x}", bytes[i]);
        mrs[name] = {{"length", mr->length()}, {"hex", hex_text}};
        record_memory(s, *mr, name, when);
    }
    return {{"qps", qps}, {"mrs", mrs}};
}

void LabRun::skip(std::size_t index, const ExpectationOutcome& condition, const std::string& because) {
    auto& s = *impl_;
    const Step& step = s.lab.steps[index];
    StepOutcome& outcome = s.outcomes[index];
    outcome.state = StepOutcome::State::skipped;
    outcome.skipped_because =
        !because.empty()
            ? because
            : run::say(s.options.language,
                       fmt::format("when {} did not hold ({})", condition.description, condition.observed),
                       fmt::format("条件 {} 不成立（{}）", condition.description, condition.observed));
    for (const auto& x : step.expect)
        outcome.expectations.push_back(
            ExpectationOutcome{.kind = x.kind,
                               .description = x.kind,
                               .held = true,
                               .observed = run::say(s.options.language, "step skipped: ", "步骤已跳过：") +
                                           outcome.skipped_because,
                               .why = {},
                               .applies = false});
    if (s.tracer && s.tracer->enabled())
        s.tracer->record(step_endpoint(objects_of(step)), EventKind::Check, "step_skipped", {},
                         outcome_json(index));
    if (s.options.peer) exchange_step(s, index, outcome_json(index), performed_by_both(step));
    ++s.next;
    if (s.next >= s.lab.steps.size()) teardown();
}

void LabRun::run_all() {
    while (!done())
        run_next();
    teardown();
}

bool LabRun::all_held() const {
    const auto& s = *impl_;
    for (std::size_t i = 0; i < s.outcomes.size(); ++i) {
        if (s.outcomes[i].state == StepOutcome::State::broken) return false;
        if (s.outcomes[i].state == StepOutcome::State::not_run && i < s.next) return false;
    }
    return !s.stopped;
}

std::size_t LabRun::held_count() const {
    std::size_t n = 0;
    for (const auto& o : impl_->outcomes)
        n += static_cast<std::size_t>(std::count_if(o.expectations.begin(), o.expectations.end(),
                                                    [](const auto& e) { return e.held && e.applies; }));
    return n;
}

std::size_t LabRun::broken_count() const {
    std::size_t n = 0;
    for (const auto& o : impl_->outcomes)
        n += static_cast<std::size_t>(std::count_if(o.expectations.begin(), o.expectations.end(),
                                                    [](const auto& e) { return !e.held; }));
    return n;
}

std::map<std::string, std::string> LabRun::values() const {
    return impl_->values;
}

std::string LabRun::render(const std::string& text) const {
    return labs::render(text, impl_->values);
}

std::string LabRun::step_title(std::size_t index) const {
    return render(impl_->lab.steps.at(index).title.get(impl_->options.language));
}

std::string LabRun::step_text(std::size_t index) const {
    return step_text(index, impl_->options.language);
}

std::string LabRun::step_text(std::size_t index, const std::string& language) const {
    const auto& s = *impl_;
    return render(s.lab.steps.at(index).text.get(s.device_class(), language));
}

void LabRun::teardown() {
    impl_->thread.run([&] { teardown_here(); });
}

void LabRun::teardown_here() {
    auto& s = *impl_;
    if (s.torn_down) return;
    s.torn_down = true;
    // Children before parents, each kind newest first; the engine's destructors trace every destroy.
    auto release = [&](auto& map) {
        for (auto it = s.created.rbegin(); it != s.created.rend(); ++it)
            if (auto found = map.find(*it); found != map.end()) map.erase(found);
        map.clear();
    };
    // A window before the QP it may be bound through and the region it grants; an SRQ after its QPs.
    s.droppers.clear(); // the wire loses nothing once the lab is over
    release(s.mws);
    release(s.groups); // rdma_leave_multicast detaches each group from its QP before the QP goes
    release(s.qps);
    release(s.srqs);
    release(s.ahs);
    release(s.cqs);
    release(s.channels);
    release(s.mrs);
    release(s.pds);
    release(s.xrcds);
    release(s.cm_ids); // after their QPs (rdma_destroy_qp); a channel goes with its last id
    release(s.addresses);
    s.device.reset();
    s.meter.reset();
    stop_wire(s);
    // Last, on the thread that ran the steps: the process's limit and the thread's capability come back.
    s.memlock.reset();
}

nlohmann::json LabRun::prediction_json(std::size_t index) const {
    const auto& step = impl_->lab.steps.at(index);
    if (!step.predict) return nullptr;
    const std::string& language = impl_->options.language;
    nlohmann::json choices = nlohmann::json::array();
    for (const auto& c : step.predict->choices)
        choices.push_back({{"value", c.value}, {"text", render(c.text.get(language))}});
    return {{"question", render(step.predict->question.get(language))}, {"choices", choices}};
}

nlohmann::json LabRun::questions_json() const {
    const std::string& language = impl_->options.language;
    nlohmann::json out = nlohmann::json::array();
    for (const auto& q : impl_->lab.questions) {
        nlohmann::json choices = nlohmann::json::array();
        for (const auto& c : q.choices)
            choices.push_back({{"text", render(c.text.get(language))}, {"correct", c.correct}});
        out.push_back({{"kind", q.multiple ? "multiple" : "single"},
                       {"text", render(q.text.get(language))},
                       {"choices", choices},
                       {"explanation", render(q.explanation.get(language))}});
    }
    return out;
}

const std::string& LabRun::language() const {
    return impl_->options.language;
}

nlohmann::json LabRun::outcome_json(std::size_t index) const {
    const auto& o = impl_->outcomes.at(index);
    nlohmann::json expectations = nlohmann::json::array();
    for (const auto& e : o.expectations)
        expectations.push_back({{"kind", e.kind},
                                {"description", e.description},
                                {"held", e.held},
                                {"applies", e.applies},
                                {"observed", e.observed},
                                {"why", e.why}});
    nlohmann::json j = {{"lab", impl_->lab.id},
                        {"step", o.id},
                        {"index", index},
                        {"state", to_string(o.state)},
                        {"expectations", expectations},
                        {"results", o.results},
                        {"seconds", o.seconds}};
    if (o.state == StepOutcome::State::skipped) j["skipped_because"] = o.skipped_because;
    if (o.predicted_answer)
        j["predicted"] = {
            {"answer", *o.predicted_answer},
            {"why", render(impl_->lab.steps.at(index).predict->why.get(impl_->options.language))}};
    if (o.error) {
        j["error"] = o.error->to_string(impl_->options.language);
        j["error_info"] = o.error->to_json();
        j["failed_unexpectedly"] = o.failed_unexpectedly;
    }
    return j;
}

nlohmann::json LabRun::summary_json() const {
    std::size_t not_run = 0;
    for (const auto& o : impl_->outcomes)
        not_run += o.state == StepOutcome::State::not_run ? 1 : 0;
    return {{"lab", impl_->lab.id},      {"chapter", impl_->lab.chapter}, {"steps", impl_->lab.steps.size()},
            {"held", held_count()},      {"broken", broken_count()},      {"not_run", not_run},
            {"ok", all_held() && done()}};
}

} // namespace rdmalab::labs
