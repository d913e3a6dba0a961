// `rdmalab-cli lab run`: a lab performed on the device (engine/labrun).
#pragma once

#include <string>
#include <vector>

namespace rdmalab::cli {

/// `rdmalab-cli lab run ID|FILE [--param k=v]... [--lang en|zh] [--json] [--trace F] [--device D]` and
/// `lab run --all [--dir DIR]` (`args` follow "run"); returns the exit status: 0 only when every
/// expectation held.
int cmd_lab_run(const std::vector<std::string>& args);

} // namespace rdmalab::cli
