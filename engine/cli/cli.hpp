// Shared pieces of rdmalab-cli's sub-commands.
#pragma once

#include "rdmalab/engine/operation.hpp"
#include "rdmalab/format/trace.hpp"

#include <string>
#include <vector>

namespace rdmalab::cli {

/// The exit status of a sub-command that ran and failed (1), and of a command line it refused (2).
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

/// Session header event: format version, tool version, host, device (with software flag) and date.
TraceEvent session_event(const std::string& device_hint, const std::string& mode);

/// JSON result of an operation (used by `op --json` and `serve`).
nlohmann::json outcome_json(const LoopbackOperation& operation);

/// `rdmalab-cli serve --stdio`.
int serve_stdio();

} // namespace rdmalab::cli
