// Troubleshooting labs (docs/lab-format.md, "Troubleshooting labs"): a broken set-up, the student's turn to
// find and fix it in the workbench, then the lab's checks. The workbench performs these steps as JSON, one
// work.do each, exactly as written in the file (parameters substituted), so the checks judge whatever the
// student built, not the path to it.
#pragma once

#include "rdmalab/labs/lab.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

namespace rdmalab::labs {

struct TroubleshootingSteps {
    std::vector<nlohmann::json> setup;    ///< the broken set-up: the steps before the student's turn
    nlohmann::json turn;                  ///< the student's turn (its id, title and text: the task)
    std::vector<nlohmann::json> solution; ///< the reference fix
    std::vector<nlohmann::json> checks;   ///< the steps after the turn: they judge the fix

    /// The checks for the student's `attempt`-th try (1 = the first). Step ids must be unique in a workbench
    /// session, so from the second try on each check step's id gets the suffix `_tryN`, and so does every
    /// `id.result` reference to it in the steps' other fields (an `as:` name such as `B.mr` is left alone).
    std::vector<nlohmann::json> checks_for_attempt(int attempt) const;
    /// The reference fix for its `attempt`-th application, renamed the same way.
    std::vector<nlohmann::json> solution_for_attempt(int attempt) const;
};

/// The steps of troubleshooting lab `lab` (loaded from its file) as the workbench takes them, with the
/// parameter values `values` (defaults for the others) written into every `{param}`. nullopt with `error`
/// when the file cannot be read again or the lab has no student's turn.
std::optional<TroubleshootingSteps> troubleshooting_steps(const Lab& lab, const ParameterValues& values,
                                                          LabError& error);

} // namespace rdmalab::labs
