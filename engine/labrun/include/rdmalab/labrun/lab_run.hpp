// The lab runner (library rdmalab_labrun): performs an instantiated lab (lab.hpp) on a real device through
// the engine's verbs classes, one step at a time, checks every expectation on the real outcome and tears
// the lab's objects down. It links the engine (verbs) and the labs library; the app never links it, it asks
// the engine process (`serve --stdio`: lab.start, lab.step, lab.run, lab.reset) instead.
#pragma once

#include "rdmalab/engine/errors.hpp"
#include "rdmalab/format/trace.hpp"
#include "rdmalab/labrun/peer_link.hpp"
#include "rdmalab/labs/lab.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rdmalab::labs {

/// How a lab is run.
struct LabRunOptions {
    std::string device; ///< overrides open_device's `device` (empty: as the lab says, else the first)
    int port = 0;       ///< overrides open_device's `port` (0: as the lab says, else 1)
    std::string language = "en"; ///< "en" or "zh": the language of rendered texts
    ParameterValues parameters;  ///< the values the lab was instantiated with (for {param} in texts)
    /// The workbench (workbench.hpp): steps are appended while the run goes on, a failing action is an
    /// outcome rather than the end of the run, and nothing is torn down until teardown().
    bool open_ended = false;
    /// A two-host lab (`hosts: 2`): the link to the other host's run of the same lab (peer_link.hpp), and
    /// the endpoint this host plays: A (`--connect`) or B (`--listen`). Each host performs the steps of its
    /// own endpoint's objects and both perform open_device and connect; each tells the other what its steps
    /// created and what they showed. Null: the lab runs on one host.
    std::shared_ptr<PeerLink> peer;
    Endpoint side = Endpoint::A;
    /// How long this host waits for the other's step, in ms.
    int peer_timeout_ms = 300000;
};

/// The verdict on one expectation of a step, with what was observed.
struct ExpectationOutcome {
    std::string kind;        ///< "succeeds" (implicit), "fails", "completions", "completion", "qp_state", ...
    std::string description; ///< what was expected, e.g. "status=rem_access_err opcode=rdma_write"
    bool held = false;
    std::string observed; ///< what the device did, e.g. "status=rem_access_err opcode=rdma_write"
    std::string why;      ///< the lab's `why`, in the run's language (may be empty)
    /// False for an expectation given for another class of device (`device: hardware` on SoftRoCE): not
    /// checked, `held` is true and it counts neither as held nor as broken.
    bool applies = true;

    /// "held", "broken" or "not_applicable" (the name of its trace event).
    std::string_view verdict() const { return !applies ? "not_applicable" : held ? "held" : "broken"; }
};

/// What happened to one step.
struct StepOutcome {
    /// skipped: the step's `when` did not hold, so its action did not run and its expectations do not apply.
    enum class State { not_run, held, broken, skipped };
    std::string id;
    State state = State::not_run;
    std::string skipped_because; ///< skipped: the condition and the values it saw
    /// The engine's explanation when the step's action failed (expected or not).
    std::optional<ErrorInfo> error;
    bool failed_unexpectedly = false; ///< the action failed without `fails:`; the run stopped here
    std::vector<ExpectationOutcome> expectations;
    std::map<std::string, std::string> results; ///< the step's results ("status" -> "rem_access_err")
    double seconds = 0;                         ///< wall time of the action and its checks
    /// A step with `predict`: the value its answer path had after the step (the right choice's value).
    std::optional<std::string> predicted_answer;
};

/// "held", "broken", "not_run", "skipped".
const char* to_string(StepOutcome::State state);

/// Finds and prepares a lab to run: `id_or_file` is a path (it contains '/' or ends in .yaml) or a lab id,
/// looked up as ID.yaml under `labs_dir` (recursively). The lab is parsed, checked and instantiated with
/// `parameters`; on failure nullopt with `error` filled (an unknown id names the directory searched).
std::optional<Lab> prepare_lab(const std::string& id_or_file, const ParameterValues& parameters,
                               const std::string& labs_dir, LabError& error, const std::string& seed = {});

/// The same for a lab given as its text (what the engine process receives: it opens no file a command
/// names). `name` stands for the file in errors. A text over kMaxLabBytes is refused unread.
std::optional<Lab> prepare_lab_text(const std::string& text, const std::string& name,
                                    const ParameterValues& parameters, LabError& error,
                                    const std::string& seed = {});

/// True when the runner has a function for every action of the schema (lab_schema.hpp) and no other.
bool runner_implements_every_action();

/// One run of one lab on the device. Nothing touches the device until the first run_next().
class LabRun {
  public:
    /// `lab` must be instantiated (lab.hpp: instantiate()); events go to `tracer` (may be null).
    LabRun(Lab lab, std::shared_ptr<Tracer> tracer, LabRunOptions options = {});
    /// Tears down whatever still exists (traced).
    ~LabRun();
    LabRun(const LabRun&) = delete;
    LabRun& operator=(const LabRun&) = delete;

    const Lab& lab() const;
    const std::vector<Step>& steps() const;
    /// Performs exactly the next step; false when there was none left or the step failed unexpectedly
    /// (then the later steps stay not_run and the lab is torn down).
    bool run_next();
    /// Open-ended runs only: adds a step (validated against the earlier ones by the caller) after the last.
    void append(Step step);
    /// Every live QP's state (ibv_query_qp) and the first bytes of every region, as JSON
    /// {"qps": {NAME: STATE}, "mrs": {NAME: {"length", "hex"}}}; each region is also traced as a `memory`
    /// event, `when` naming the step.
    nlohmann::json snapshot(const std::string& when);
    /// Performs every remaining step (until one fails unexpectedly), then tears down.
    void run_all();
    /// No step is left to run (all ran, or the run stopped at an unexpected failure).
    bool done() const;
    /// Index of the next step to run.
    std::size_t next_step() const;
    const StepOutcome& outcome(std::size_t index) const;
    /// Every expectation of every step that ran held, and no step failed unexpectedly.
    bool all_held() const;
    std::size_t held_count() const;   ///< expectations held so far
    std::size_t broken_count() const; ///< expectations broken so far

    /// Every value path known so far ("size", "device.mtu", "B.buf.rkey", "poll_a.status") -> its text.
    std::map<std::string, std::string> values() const;
    /// labs::render with values().
    std::string render(const std::string& text) const;
    /// A step's title and explanation in the run's language, for the device it runs on, rendered.
    std::string step_title(std::size_t index) const;
    /// The run's language, "en" or "zh" (LabRunOptions::language).
    const std::string& language() const;
    std::string step_text(std::size_t index) const;
    /// The explanation in `language` ("en" or "zh") rather than the run's (lab.step answers with both).
    std::string step_text(std::size_t index, const std::string& language) const;
    /// Step `index`'s `predict` in the run's language, rendered with the values known now (ask it before the
    /// step runs): {"question", "choices": [{"value", "text"}]}; null when the step has none.
    nlohmann::json prediction_json(std::size_t index) const;
    /// The lab's questions in the run's language: [{"kind", "text", "choices": [{"text", "correct"}],
    /// "explanation"}].
    nlohmann::json questions_json() const;

    /// Destroys every object still alive, children before parents (QP, AH, CQ, channel, MR, PD, device),
    /// each destroy traced. Called after the last step or at an unexpected failure; harmless twice.
    void teardown();

    /// The outcome of step `index` as JSON (id, state, error, expectations, results, seconds; for a step with
    /// `predict`, "predicted": {"answer", "why"}).
    nlohmann::json outcome_json(std::size_t index) const;
    /// Summary: lab id, steps, held, broken, not_run, ok.
    nlohmann::json summary_json() const;

  private:
    // run_next() and teardown() perform these on the run's own thread (lab_run.cpp, RunThread).
    bool run_next_here();
    void teardown_here();
    nlohmann::json snapshot_here(const std::string& when);
    /// Marks step `index` skipped: its `when` gave `condition`, which did not hold (`because`, when given,
    /// says why instead).
    void skip(std::size_t index, const ExpectationOutcome& condition, const std::string& because = {});
    /// Traces step `index`'s verdicts and moves on (teardown after the last or an unexpected failure).
    bool finish_step(std::size_t index);
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace rdmalab::labs
