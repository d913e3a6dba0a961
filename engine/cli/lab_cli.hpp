// `rdmalab-cli lab ...`: the lab files (labs/, docs/lab-format.md).
#pragma once

#include <string>
#include <vector>

namespace rdmalab::cli {

/// `rdmalab-cli lab check|list ...` (`args` follow "lab"); returns the exit status.
int cmd_lab(const std::vector<std::string>& args);

/// A usage error of `lab`, in the form of every command's: "rdmalab-cli: lab: MESSAGE", then the usage;
/// returns the usage exit status (2).
int lab_usage(const std::string& message);

} // namespace rdmalab::cli
