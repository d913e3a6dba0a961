// `rdmalab-cli serve --stdio`: the engine as a process. One JSON command per line on stdin; trace events
// and command results as JSON Lines on stdout (docs/trace-format.md, "Engine process protocol"). The
// commands are handled by Server (server.hpp).
#include "cli.hpp"
#include "server.hpp"

#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>

namespace rdmalab::cli {

int serve_stdio() {
    // A reader that went away (the app closed the pipe or died) must not kill the engine with SIGPIPE
    // before it has stopped a measurement and released the device's objects: the write fails instead,
    // and end of input then ends the engine as `quit` does.
    std::signal(SIGPIPE, SIG_IGN);
    {
        Server server(std::make_shared<JsonLinesSink>(stdout, true));
        serve_lines(std::cin, server);
    }
    return 0;
}

} // namespace rdmalab::cli
