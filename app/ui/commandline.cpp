#include "commandline.h"

#include <cstring>

namespace rdmalab::app {

namespace {

using Builtin = CommandLineEntry::Builtin;

std::string text(const QString& s) {
    return s.toStdString();
}

/// "--lesson" or "-h", as typed.
std::string typed(const QString& name) {
    return text((name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name);
}

} // namespace

QList<CommandLineEntry> commandLineTable() {
    const QString lessons = QStringLiteral("Lessons");
    const QString measurement = QStringLiteral("Measurement");
    const QString unattended = QStringLiteral("Unattended runs");
    const QString display = QStringLiteral("Display");
    const QString general = QStringLiteral("General");
    return {
        {.names = {"lesson"},
         .description = "Lesson to open: send, write or read.",
         .valueName = "id",
         .defaultValue = "write",
         .group = lessons},
        {.names = {"lab"},
         .description =
             "Open the lab window on lab ID (any lab of the curriculum or of the user's lab folder); "
             "with --autoplay run it to the end on the device.",
         .valueName = "id",
         .group = lessons},
        {.names = {"labs"},
         .description = "Open the lab window: every lab, by chapter, run step by step on the device.",
         .group = lessons},
        {.names = {"workbench"},
         .description = "Open the workbench: build a queue pair, compose work requests and post them on the "
                        "device, one real call at a time; save what you did as a lab.",
         .group = lessons},
        {.names = {"replay"},
         .description = "Replay a recorded trace (JSON Lines) instead of running live.",
         .valueName = "file",
         .group = lessons},
        {.names = {"reopen-unfinished"},
         .description = "Reopen the newest session that ended without being closed (the app was killed or "
                        "crashed) as a replay, instead of running live. With --quit: exit 1 when there is "
                        "none.",
         .group = lessons},
        {.names = {"step-delay"},
         .description = "Pause between steps while playing, in ms.",
         .valueName = "ms",
         .group = lessons},
        {.names = {"bench"},
         .description = "Open the measurement window for KIND: send_lat, write_lat, read_lat, atomic_lat, "
                        "tcp_lat, write_bw, read_bw, send_bw, tcp_bw, or 'compare' (TCP next to RDMA).",
         .valueName = "kind",
         .group = measurement},
        {.names = {"sweep"},
         .description = "Measure every message size from 2 B to 8 MiB (powers of two).",
         .group = measurement},
        {.names = {"size"},
         .description = "Message size in bytes (measurement; may repeat).",
         .valueName = "bytes",
         .group = measurement},
        {.names = {"max-size"},
         .description = "Largest size of a sweep, in bytes.",
         .valueName = "bytes",
         .group = measurement},
        {.names = {"iters"},
         .description = "Measured iterations per size (default 1000).",
         .valueName = "n",
         .group = measurement},
        {.names = {"seconds"},
         .description = "Measure each size for this long instead of --iters.",
         .valueName = "s",
         .group = measurement},
        {.names = {"device"},
         .description = "RDMA device to measure on (default: the first).",
         .valueName = "name",
         .group = measurement},
        {.names = {"cpus"},
         .description = "Pin endpoint A (the measuring thread) and B to these CPUs, e.g. 0,1 "
                        "(as taskset does for perftest, sockperf and iperf3).",
         .valueName = "A[,B]",
         .group = measurement},
        {.names = {"trace-wr"},
         .description = "Measure each RDMA run once untraced and once with every work request traced; the "
                        "pipeline page draws the traced run and what tracing cost.",
         .group = measurement},
        {.names = {"tab"},
         .description = "Measurement page to show: live, cpu, compare or pipeline.",
         .valueName = "page",
         .group = measurement},
        {.names = {"export"},
         .description = "Write the results to FILE (.csv or .json) when done.",
         .valueName = "file",
         .group = measurement},
        {.names = {"autoplay"},
         .description = "Play the lesson (or run the measurement) to the end without waiting for input.",
         .group = unattended},
        {.names = {"screenshot"},
         .description =
             "Save a PNG of the window when the lesson, lab or measurement ends (the workbench: once its "
             "session has started).",
         .valueName = "file",
         .group = unattended},
        {.names = {"seed"},
         .description =
             "With --lab: the student's name or number; the lab's varying parameters are drawn from "
             "it (the same seed, the same values).",
         .valueName = "text",
         .group = lessons},
        {.names = {"report"},
         .description =
             "Write the HTML report of the lab run (--lab) when it ends: device, date, parameters, every "
             "step and expectation, and the trace.",
         .valueName = "file",
         .group = unattended},
        {.names = {"quit"},
         .description = "Quit when the lesson or measurement ends (exit 0 if it succeeded).",
         .group = unattended},
        {.names = {"present"},
         .description = "Start in the projector layout (F5): the picture full screen, its text 18 px at "
                        "least, high contrast; with --lab and --workbench too.",
         .group = display},
        {.names = {"window-size"},
         .description = "Open the window at this size in pixels, e.g. 1280x720 (a classroom projector), "
                        "instead of fitting it to the screen.",
         .valueName = "WxH",
         .group = display},
        {.names = {"lang", "language"},
         .description = "Language of the interface and of the lesson and lab texts: en or zh (default: the "
                        "language chosen last in View > Language, else the system locale's).",
         .valueName = "lang",
         .group = display},
        {.names = {"engine"},
         .description =
             "Where the engine runs: local (rdmalab-cli as a child process on this machine), vm (a "
             "SoftRoCE VM the app boots under qemu, for machines without RDMA; its kernel comes "
             "from tests/softroce/prepare.sh), ssh://[USER@]HOST[:PORT] (rdmalab-cli on another "
             "host, over ssh with your own keys and ~/.ssh/config; nothing is installed there), or the "
             "path of the rdmalab-cli to run locally.",
         .valueName = "local|vm|ssh://host|path",
         .defaultValue = "local",
         .group = general},
        {.names = {"engine-program"},
         .description = "Path of rdmalab-cli (the engine process), locally, in the VM or on the SSH host.",
         .valueName = "path",
         .group = general},
        {.names = {"man"},
         .description = "Print the manual page (roff) on standard output and exit; the build generates "
                        "`rdmalab.1` with it.",
         .group = general},
        {.names = {"h", "help"},
         .description = "Display the options and exit.",
         .group = general,
         .builtin = Builtin::Help},
        {.names = {"help-all"},
         .description = "Display the options, including Qt's generic ones, and exit.",
         .group = general,
         .builtin = Builtin::HelpAll},
        {.names = {"v", "version"},
         .description = "Display the version and exit.",
         .group = general,
         .builtin = Builtin::Version},
    };
}

QString applicationDescription() {
    return QStringLiteral("Watch real RDMA operations one verbs call at a time, and measure TCP against RDMA "
                          "side by side.");
}

void addCommandLineOptions(QCommandLineParser& parser) {
    parser.setApplicationDescription(applicationDescription());
    const auto table = commandLineTable();
    // Qt's own options first, as --help has always listed them.
    for (const auto& entry : table) {
        if (entry.builtin == Builtin::Help) parser.addHelpOption(); // adds --help-all too
        if (entry.builtin == Builtin::Version) parser.addVersionOption();
    }
    for (const auto& entry : table)
        if (entry.builtin == Builtin::None)
            parser.addOption(
                QCommandLineOption(entry.names, entry.description, entry.valueName, entry.defaultValue));
}

bool wantsManPage(int argc, const char* const* argv) {
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--") == 0) return false; // the rest are positional arguments
        if (std::strcmp(argv[i], "--man") == 0) return true;
    }
    return false;
}

rdmalab::man::ManPage manPage() {
    rdmalab::man::ManPage page;
    page.name = "rdmalab";
    page.section = 1;
    page.source = "rdmalab " RDMALAB_VERSION;
    page.summary = "watch real RDMA operations one verbs call at a time, and measure TCP against RDMA";
    page.generator = "rdmalab --man";
    page.synopsis = {"[--lesson ID | --replay FILE] [OPTION]...", "--bench KIND [OPTION]..."};
    page.description = {
        text(applicationDescription()),
        "Without --bench the lesson window opens: it performs one RDMA operation step by step on a real "
        "device (a SoftRoCE rdma_rxe device or an RDMA NIC), draws what each verbs call changed (memory "
        "regions and keys, queue-pair states, work requests, completions) and shows the C call behind it. "
        "--replay plays a recording instead, so no device is needed. With --bench, or --replay of a "
        "recorded measurement, the measurement window opens instead.",
        "The app never calls verbs itself: it runs `rdmalab-cli serve --stdio` as its engine process (see "
        "rdmalab-cli(1)), the one given by --engine-program, else the one beside the app, else one on PATH. "
        "With --engine vm that engine runs inside a SoftRoCE VM (Debian's kernel with rdma_rxe under qemu's "
        "software CPU emulation, prepared by tests/softroce/prepare.sh), on the VM's rxe0, and the app "
        "speaks "
        "to it over a virtio-serial port. With --engine ssh://HOST it runs on HOST: the app runs `ssh HOST "
        "rdmalab-cli serve --stdio` without a password prompt (BatchMode), so the login must work with a "
        "key.",
        "For unattended runs (tests, screenshots for slides) combine --autoplay, --quit and --screenshot "
        "or --export; with QT_QPA_PLATFORM=offscreen no display is needed.",
    };
    rdmalab::man::Section options{.title = "OPTIONS"};
    for (const auto& entry : commandLineTable()) {
        if (options.subsections.empty() || options.subsections.back().title != text(entry.group))
            options.subsections.push_back({.title = text(entry.group)});
        rdmalab::man::Option option;
        for (const auto& name : entry.names)
            option.names.push_back(typed(name));
        option.value = text(entry.valueName.toUpper());
        option.help = text(entry.description);
        option.default_value = text(entry.defaultValue);
        options.subsections.back().options.push_back(std::move(option));
    }
    page.sections.push_back(std::move(options));
    page.exit_status = {
        {"0", "The window was closed; with --quit, the lesson verified or the measurement completed (with "
              "--reopen-unfinished: the session was reopened, and with --autoplay replayed to its end), and "
              "the screenshot and export were written."},
        {"1", "With --quit, the lesson did not verify, the measurement failed, there was no unfinished "
              "session to reopen, or a file could not be written; or an option is unknown or lacks its "
              "value."},
        {"2",
         "A --size or --cpus value is not a number the measurement can use, --window-size is not WxH, or "
         "--engine is not local, vm or a path."},
    };
    page.environment = {
        {"RDMALAB_LABS_DIR", "Directory of the lab files (*.yaml, searched recursively) to use instead of "
                             "the installed ones; the "
                             "lessons are the labs in it that script the engine's loopback operations."},
        {"QT_QPA_PLATFORM", "offscreen runs the app without a display (with --autoplay --quit)."},
        {"RDMALAB_SESSIONS_DIR", "Directory of the autosaved sessions, instead of "
                                 "~/.local/share/rdmalab/sessions."},
    };
    page.files = {
        {"share/rdmalab/labs/",
         "The labs, the lessons among them, found at ../share/rdmalab/labs from the "
         "directory of the rdmalab program (/usr/share/rdmalab/labs for /usr/bin/rdmalab)."},
        {"share/rdmalab/recordings/", "Example recordings for --replay and File > Open recording, found the "
                                      "same way."},
    };
    page.files.push_back(
        {"~/.local/share/rdmalab/sessions/",
         "Every live session, autosaved as it happens (yyyyMMdd-HHmmss-zzz-PID.jsonl). While a session is "
         "open, FILE.open names the process writing it; a FILE.open left by a process that is gone marks a "
         "session that ended without being closed, and the next start offers to reopen it."});
    page.see_also = {"rdmalab-cli(1)", "ibv_devices(1)", "ibv_devinfo(1)", "rdma(8)"};
    return page;
}

} // namespace rdmalab::app
