// The workbench: free exploration on the device outside any lab. Each action the student takes is one lab
// step (docs/lab-format.md, written as JSON), validated against the steps before it exactly as a lab file
// is, then performed by an open-ended LabRun: one real engine call per step, a failure is an outcome and
// not the end. The session can be saved as a lab file whose expectations are what the device did, so a
// teacher builds a lab by doing it (`rdmalab-cli lab run` passes it on the same kind of device).
#pragma once

#include "rdmalab/format/trace.hpp"
#include "rdmalab/labrun/lab_run.hpp"
#include "rdmalab/labs/lab.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace rdmalab::labs {

class Workbench {
  public:
    /// Events go to `tracer` (may be null); `options.open_ended` is set here.
    Workbench(std::shared_ptr<Tracer> tracer, LabRunOptions options);
    ~Workbench();
    Workbench(const Workbench&) = delete;
    Workbench& operator=(const Workbench&) = delete;

    /// What one step did.
    struct Reply {
        bool accepted = false;   ///< false: refused before it touched the device (`error` says where)
        LabError error;          ///< field "steps[N].FIELD" of the session's steps
        std::size_t index = 0;   ///< the step's position in the session
        std::string id;          ///< the step's id
        nlohmann::json step;     ///< the step as performed (with its id and text)
        std::string text;        ///< its explanation rendered with the values known after it, in the language
        nlohmann::json outcome;  ///< LabRun::outcome_json (state, error, results, ...)
        nlohmann::json snapshot; ///< LabRun::snapshot after the step: QP states, regions' first bytes
    };

    /// Validates `step` (a lab step as JSON: {"do": "post_send", "qp": "A.qp", "opcode": "write", ...};
    /// `id`, `title` and `text` are made up when absent) against the session's earlier steps and performs it.
    Reply perform(nlohmann::json step);
    /// Tears every object down (children before parents, traced) and starts an empty session.
    void reset();
    /// Steps performed in this session (refused ones are not counted).
    std::size_t size() const;

    /// The session as the text of a lab file (YAML): the steps performed, in order, except those the runner
    /// refused without calling a verb; each with the expectations the device's behaviour gives it: `fails`
    /// with the errno for a failed verb; for poll_cq the number of completions and the first one's status,
    /// wr_id and (when successful) opcode; at each step where the state has settled (not right after a
    /// post, whose effects land asynchronously) every QP state and region contents (first bytes) that
    /// changed since the last such step. The lab is checked (parse_lab) before it is returned; on failure
    /// the text is empty and `error` says why.
    std::string to_lab(const std::string& id, const std::string& title, int chapter, LabError& error) const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace rdmalab::labs
