// `rdmalab-cli serve --stdio`: the engine as a process. One JSON command per line on stdin; trace events
// and command results as JSON Lines on stdout (docs/trace-format.md, "Engine process protocol"). The
// commands are handled by Server (server.hpp).
#include "cli.hpp"
#include "server.hpp"

#include <sys/prctl.h>
#include <unistd.h>

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
    // The engine ends with the program that started it, even when that one is killed and its end of the
    // pipe stays open elsewhere, or a step is waiting: the kernel then releases the engine's verbs objects
    // (issue 32). A parent that died before this line is seen by its pid having changed to a reaper's.
    const pid_t parent = getppid();
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) return 0;
    {
        Server server(std::make_shared<JsonLinesSink>(stdout, true));
        serve_lines(std::cin, server);
    }
    return 0;
}

} // namespace rdmalab::cli
