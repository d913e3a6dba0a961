// `rdmalab-cli serve --stdio`: the engine as a process. One JSON command per line on stdin; trace events
// and command results as JSON Lines on stdout (docs/trace-format.md, "Engine process protocol"). The
// commands are handled by Server (server.hpp).
#include "cli.hpp"
#include "server.hpp"

#include <cstdio>
#include <iostream>
#include <memory>

namespace rdmalab::cli {

int serve_stdio() {
    {
        Server server(std::make_shared<JsonLinesSink>(stdout, true));
        serve_lines(std::cin, server);
    }
    return 0;
}

} // namespace rdmalab::cli
