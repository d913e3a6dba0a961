// `rdmalab-cli lab ...`: the lab files (labs/, docs/lab-format.md).
#pragma once

#include <string>
#include <vector>

namespace rdmalab::cli {

/// `rdmalab-cli lab check|list ...` (`args` follow "lab"); returns the exit status.
int cmd_lab(const std::vector<std::string>& args);

} // namespace rdmalab::cli
