#include "options.hpp"

#include "rdmalab/engine/bench.hpp"
#include "rdmalab/engine/bench_remote.hpp"
#include "rdmalab/engine/cm.hpp"
#include "rdmalab/engine/operation.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace rdmalab::cli {

namespace {

constexpr std::size_t kWidth = 100;     ///< --help wraps to this many columns
constexpr std::size_t kHelpColumn = 24; ///< where option help starts in --help

std::vector<std::string> strings(const std::vector<std::string_view>& views) {
    return {views.begin(), views.end()};
}

/// "2 B", "64 KiB", "8 MiB" for a power-of-two size.
std::string byte_size(std::size_t bytes) {
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
    if (bytes >= (1u << 10) && bytes % (1u << 10) == 0) return fmt::format("{} KiB", bytes >> 10);
    return fmt::format("{} B", bytes);
}

/// What the help of a size option says of its suffixes.
constexpr std::string_view kSizeSuffixes = "k and M multiply by 1024 and 1048576 (4k, 1M)";

// The table, a function for each command and for a long list of options so that none grows long. The
// defaults and the lists of values come from the engine, so the help cannot drift from what it does.

CommandSpec devices_command() {
    CommandSpec devices;
    devices.name = "devices";
    devices.summary = "List the RDMA devices, their ports and GIDs.";
    devices.synopsis = {"devices [--json]"};
    devices.description = {
        "Lists every RDMA device with its ports and GID tables, like a compact `ibv_devinfo -v`. With no "
        "device it explains how to add a SoftRoCE one (`rdma link add`) and exits with status 1."};
    devices.options = {
        {.name = "--json", .help = "Print {\"devices\": [...]} as JSON instead of text."},
    };
    return devices;
}

/// The --fault kinds that inject something (all but "none").
std::vector<std::string> injected_faults() {
    std::vector<std::string> faults;
    for (const auto name : fault_kind_names())
        if (fault_kind_from_string(name) != FaultKind::None) faults.emplace_back(name);
    return faults;
}

/// The options of `op`.
std::vector<OptionSpec> op_options() {
    const OperationOptions defaults;
    return {
        {.name = "--size",
         .value = "N",
         .help = fmt::format("Message size in bytes, 1 B to 1 GiB; {}. cas and faa always move 8 bytes.",
                             kSizeSuffixes),
         .default_value = std::to_string(defaults.size)},
        {.name = "--message",
         .value = "TEXT",
         .help = "Text written to the message buffer, repeated to fill --size.",
         .default_value = defaults.message},
        {.name = "--device",
         .value = "NAME",
         .help = "RDMA device to use, as `rdmalab-cli devices` names it (default: the first)."},
        {.name = "--ib-port",
         .value = "N",
         .help = "Port of the device, 1 to 255.",
         .default_value = std::to_string(defaults.port)},
        {.name = "--inline", .help = "Post the payload inline (IBV_SEND_INLINE): SEND and RDMA WRITE only."},
        {.name = "--fault",
         .value = "KIND",
         .help = "Inject a real fault and check that the device reports it: bad-rkey, no-remote-access and "
                 "out-of-bounds need a one-sided operation (write, write_imm, read, cas, faa), no-recv a "
                 "two-sided one (send, send_imm). The expected fault counts as success.",
         .values = injected_faults()},
        {.name = "--json",
         .help = "Print the trace as JSON Lines, one event per line (trace-format.md), ending with the "
                 "result, instead of text."},
        {.name = "--trace",
         .value = "FILE",
         .help = "Also record the trace to FILE as JSON Lines; `rdmalab --replay FILE` plays it back."},
        {.name = "--listen",
         .value = "ADDR",
         .value_optional = true,
         .help = "Be endpoint B: wait on ADDR (default: every address) for endpoint A through rdma_cm, serve "
                 "the operation it asks for and check what arrived."},
        {.name = "--connect",
         .value = "HOST",
         .help = "Be endpoint A: connect to the listener on HOST through rdma_cm and perform the operation."},
        {.name = "--cm-port",
         .value = "N",
         .help = "rdma_cm port of the listener, 1 to 65535.",
         .default_value = std::to_string(kDefaultCmPort)},
        {.name = "--wire",
         .help = "Capture the RoCE v2 packets of the operation on the network interface towards the other "
                 "host (libpcap, UDP port 4791; needs CAP_NET_RAW) and print each one decoded, its ICRC "
                 "checked. Only two hosts put packets on a wire (with --listen ADDR or --connect HOST): a "
                 "loopback pair stays inside the device, and says so."},
        {.name = "--pcapng",
         .value = "FILE",
         .help = "With --wire: also save the packets as pcapng, each with a comment naming the operation "
                 "(Wireshark opens it as RoCE)."},
    };
}

CommandSpec op_command() {
    CommandSpec op;
    op.name = "op";
    op.summary = "Perform one RDMA operation and print every verbs call.";
    op.synopsis = {"op OPCODE [--size N] [--message TEXT] [--device NAME] [--ib-port N] [--inline] "
                   "[--fault KIND] [--json] [--trace FILE] [--listen [ADDR] | --connect HOST] [--cm-port N] "
                   "[--wire] [--pcapng FILE]"};
    op.description = {fmt::format(
        "`op` sets up a loopback pair (endpoints A and B on one device, RC-connected through the port's "
        "RoCE v2 GID), performs the operation once, checks that the data really moved and prints every "
        "verbs call. With --listen (B) and --connect HOST (A) the operation runs between two processes or "
        "two hosts through rdma_cm instead (start the listener first; default --cm-port {}).",
        kDefaultCmPort)};
    op.argument = OptionSpec{.value = "OPCODE", .help = "The operation.", .values = strings(op_kind_names())};
    op.options = op_options();
    return op;
}

/// The --sweep help: the sizes it measures come from the engine.
std::string sweep_help() {
    const auto sweep = sweep_sizes();
    return fmt::format("Measure every size from {} to {} (powers of two) instead of one; large sizes "
                       "take fewer iterations (at least 100).",
                       byte_size(sweep.front()), byte_size(sweep.back()));
}

/// The options of `bench`.
std::vector<OptionSpec> bench_options() {
    const BenchOptions defaults;
    const RemoteBenchOptions remote_defaults;
    return {
        {.name = "--size",
         .value = "N",
         .help = fmt::format("Message size in bytes, 1 B to 1 GiB; {}. atomic_lat always moves 8 bytes.",
                             kSizeSuffixes),
         .default_value = std::to_string(defaults.size)},
        {.name = "--sweep", .help = sweep_help()},
        {.name = "--iters",
         .value = "N",
         .help = "Measured iterations per size, 1 to 100000000.",
         .default_value = std::to_string(defaults.iterations)},
        {.name = "--seconds",
         .value = "S",
         .help = "Measure each size for S seconds (0 < S <= 3600) instead of a number of iterations."},
        {.name = "--warmup",
         .value = "N",
         .help = "Iterations before measuring, not counted, 0 to 1000000.",
         .default_value = std::to_string(defaults.warmup)},
        {.name = "--window",
         .value = "N",
         .help = "Bandwidth kinds: work requests kept outstanding (perftest's tx depth), 1 to 1024.",
         .default_value = std::to_string(defaults.window)},
        {.name = "--device",
         .value = "NAME",
         .help =
             "RDMA device to measure on (default: the first). Not with --connect: rdma_cm uses the device "
             "of the interface that routes to HOST."},
        {.name = "--cpus",
         .value = "A[,B]",
         .help = "Pin endpoint A (the measuring thread) and B to these CPUs. With --listen or --connect this "
                 "process is one endpoint and takes one CPU."},
        {.name = "--events",
         .help = "send_lat in a loopback pair: both sides sleep on completion events (ibv_req_notify_cq, "
                 "ibv_get_cq_event) instead of busy polling, as perftest's --events."},
        {.name = "--json",
         .help = "Print the result as JSON (bench-format.md); with --sweep an array, one result per size."},
        {.name = "--samples", .help = "With --json, include every latency sample (samples_us)."},
        {.name = "--trace-wr",
         .help = "RDMA kinds, one size: measure untraced and with every post, poll and completion of the "
                 "measuring loop recorded in the binary trace tier, alternately, and report what tracing "
                 "cost per work request and the run's pipeline: work requests outstanding against the "
                 "window, posts per doorbell, completions per poll, empty polls (wr_trace in --json)."},
        {.name = "--trace-wr-rounds",
         .value = "N",
         .help = "With --trace-wr: how many untraced and how many traced runs, 1 to 20.",
         .default_value = std::to_string(kDefaultTraceWrRounds)},
        {.name = "--wire",
         .help = "With --connect: capture a window of the measurement's RoCE v2 packets on the network "
                 "interface towards the listener (libpcap; needs CAP_NET_RAW): from the connection's first "
                 "data packet, at most --wire-packets packets for at most --wire-ms, then the capture closes "
                 "and the rest of the run pays nothing for it. Says what it kept and what libpcap dropped."},
        {.name = "--wire-packets",
         .value = "N",
         .help = "With --wire: the most packets the window keeps, 1 to 300000.",
         .default_value = "2000"},
        {.name = "--wire-ms",
         .value = "MS",
         .help = "With --wire: the window's length in milliseconds from the first data packet, 1 to 60000.",
         .default_value = "200"},
        {.name = "--pcapng",
         .value = "FILE",
         .help = "With --wire: save the window's packets as pcapng (Wireshark opens it as RoCE)."},
        {.name = "--listen",
         .value = "ADDR",
         .value_optional = true,
         .help = "Be endpoint B: serve one peer on ADDR (default: every address), then exit. The listener "
                 "takes only ADDR, --cm-port and --cpus: the measuring side chooses sizes and counts."},
        {.name = "--connect",
         .value = "HOST",
         .help = "Be endpoint A: measure against the listener on HOST and print the result."},
        {.name = "--cm-port",
         .value = "N",
         .help =
             "Port of the listener, 1 to 65535: the rdma_cm port for RDMA kinds, the TCP port for tcp_lat "
             "and tcp_bw.",
         .default_value = std::to_string(remote_defaults.port)},
    };
}

CommandSpec bench_command() {
    CommandSpec bench;
    bench.name = "bench";
    bench.summary = "Measure RDMA or TCP latency or bandwidth, with perftest's methodology.";
    bench.synopsis = {
        "bench KIND [--size N | --sweep] [--iters N | --seconds S] [--warmup N] [--window N] [--device NAME] "
        "[--cpus A[,B]] [--events] [--json] [--samples] [--trace-wr [--trace-wr-rounds N]]",
        "bench KIND --listen [ADDR] [--cm-port N] [--cpus B]",
        "bench KIND --connect HOST [--cm-port N] [--size N | --sweep] [--iters N | --seconds S] [--warmup N] "
        "[--window N] [--cpus A] [--json] [--samples] [--wire [--wire-packets N] [--wire-ms MS] [--pcapng "
        "FILE]] [--trace-wr [--trace-wr-rounds N]]",
    };
    bench.description = {
        "`bench` measures on a loopback pair in one process; with --listen (B, serves one peer and exits) "
        "and "
        "--connect HOST (A, measures and prints) it measures between two processes or hosts: RDMA kinds "
        "through rdma_cm, tcp_* over TCP to HOST on --cm-port. --cpus pins endpoint A (the measuring thread) "
        "and B to CPUs, as taskset does for perftest, sockperf and iperf3: compare tools only with the same "
        "placement."};
    bench.argument = OptionSpec{.value = "KIND",
                                .help = "What to measure: *_lat kinds measure latency, *_bw kinds bandwidth.",
                                .values = strings(bench_kind_names())};
    bench.options = bench_options();
    return bench;
}

CommandSpec serve_command() {
    CommandSpec serve;
    serve.name = "serve";
    serve.summary = "Run as the engine process that the desktop app drives.";
    serve.synopsis = {"serve --stdio"};
    serve.description = {
        "The app never calls verbs itself: it starts `rdmalab-cli serve --stdio` and sends it "
        "commands. Lesson operations run one step per command; measurements stream live "
        "samples. The protocol is described in trace-format.md."};
    serve.options = {
        {.name = "--stdio",
         .help = "Read one JSON command per line on standard input and write JSON Lines events on standard "
                 "output."},
    };
    return serve;
}

/// The options of `lab`.
std::vector<OptionSpec> lab_options() {
    return {
        {.name = "--json",
         .help = "list: print {\"labs\": [...]} as JSON instead of text. run: print the trace as JSON Lines "
                 "(with a check event per expectation, per step and per lab) instead of text."},
        {.name = "--dir",
         .value = "DIR",
         .help = "list, run: the directory to search (recursively) for lab files."},
        {.name = "--param",
         .value = "NAME=VALUE",
         .help = "run: give a parameter of the lab a value (repeatable), e.g. `--param size=4KiB`; it is "
                 "checked against the parameter's type and range before anything runs."},
        {.name = "--seed",
         .value = "TEXT",
         .help = "run: draw the lab's varying parameters (`vary: true`) from their ranges with this seed, "
                 "e.g. a student's name or number: the same seed gives the same values, a neighbour's "
                 "others; `--param` still overrides."},
        {.name = "--lang",
         .value = "LANG",
         .help = "run: the language of titles, explanations and reasons.",
         .values = {"en", "zh"},
         .default_value = "en"},
        {.name = "--trace",
         .value = "FILE",
         .help = "run: write every trace event (the verbs calls, the steps, the verdicts) to FILE as JSON "
                 "Lines."},
        {.name = "--device",
         .value = "NAME",
         .help = "run: the device to open, whatever the lab's open_device step names."},
        {.name = "--all", .help = "run: run every lab under --dir and print a summary table."},
        {.name = "--listen",
         .value = "ADDR",
         .help = "run: a two-host lab (`hosts: 2`): be endpoint B, wait on this host's address on the wire "
                 "for endpoint A's host, and perform B's steps; start it first."},
        {.name = "--connect",
         .value = "HOST",
         .help = "run: a two-host lab: be endpoint A, connect to B's host and perform A's steps; both hosts "
                 "print the whole lab."},
        {.name = "--lab-port",
         .value = "PORT",
         .help = "run: the TCP port of a two-host lab's link, 1 to 65535.",
         .default_value = "7473"},
    };
}

CommandSpec lab_command() {
    CommandSpec lab;
    lab.name = "lab";
    lab.summary = "Check, list and run labs: YAML files that script real verbs calls (lab-format.md).";
    lab.synopsis = {
        "lab check FILE...", "lab list [--json] [--dir DIR]",
        "lab run ID|FILE [--param NAME=VALUE]... [--seed TEXT] [--lang LANG] [--json] [--trace FILE] "
        "[--device NAME] [--listen ADDR | --connect HOST] [--lab-port PORT]",
        "lab run --all [--dir DIR] [--seed TEXT] [--lang LANG] [--json] [--trace FILE] [--device NAME]"};
    lab.description = {
        "`lab check` parses and validates each lab file without a device: syntax, unknown or duplicate keys, "
        "types and ranges of every field, actions, flags, statuses and errno names, objects used before they "
        "are created or of the wrong kind, placeholders that name nothing, parameter defaults, texts without "
        "English. It prints `FILE: ok (N steps)` or one line `FILE:LINE:COLUMN: field 'F': message` per bad "
        "file, and exits with status 1 when any file is bad.",
        "`lab list` lists the labs under DIR, sorted by chapter: id, chapter, level, minutes, title in "
        "English and Chinese, and each parameter with its type, default and range; a bad file is reported on "
        "standard error and makes the status 1. DIR is by default $RDMALAB_LABS_DIR, else share/rdmalab/labs "
        "of the installation, else the labs/ of the source tree rdmalab-cli was built from.",
        "`lab run` performs a lab on the device, one step at a time, and prints each step's title, its "
        "explanation (in --lang) and every expectation as held or BROKEN with the value the device showed. "
        "A lab is named by its id (looked up under --dir, by default as for `lab list`) or by its file. When "
        "a step's action fails unexpectedly, the later steps are not run and the lab's objects are "
        "destroyed, "
        "children before parents. The status is 0 only when every expectation held. `lab run --all` runs "
        "every lab under --dir, prints only what broke, and ends with a table: lab, chapter, steps, "
        "expectations held and broken, steps not run, seconds. A two-host lab (`hosts: 2`) runs between two "
        "hosts on one wire: `lab run LAB --listen ADDR` on B's host, then `lab run LAB --connect HOST` on "
        "A's; each performs its endpoint's steps, and both capture the wire. Run on one host, its steps are "
        "skipped."};
    lab.argument =
        OptionSpec{.value = "SUBCOMMAND", .help = "What to do.", .values = {"list", "check", "run"}};
    lab.options = lab_options();
    return lab;
}

CliSpec build() {
    CliSpec spec;
    spec.summary = "the headless front end of rdmalab, and the engine process of its desktop app";
    spec.description = {
        "rdmalab is a teaching lab for RDMA data paths. Its engine makes real verbs calls on a real RDMA "
        "device (a SoftRoCE rdma_rxe device or an RDMA NIC); `rdmalab-cli` is its command-line front end: "
        "it lists devices, performs single operations while printing every verbs call, and measures "
        "latency and bandwidth of RDMA next to TCP. The desktop app, rdmalab(1), runs it as its engine "
        "process.",
        "Sizes and counts take k and M suffixes (1024 and 1048576): 4k, 1M.",
    };
    spec.commands = {devices_command(), op_command(), bench_command(), serve_command(), lab_command()};
    spec.global_options = {
        {.name = "--help",
         .short_name = "-h",
         .help = "Print the usage, every command and option, and exit."},
        {.name = "--version", .help = "Print the version and the trace format version, and exit."},
        {.name = "--man",
         .help = "Print this manual page (roff) on standard output, and exit. The build generates "
                 "`rdmalab-cli.1` with it, from the table the option parser checks arguments against."},
    };
    spec.exit_status = {
        {0, "success (or, with `op --fault`, the expected fault observed)"},
        {1,
         "failure: no device, a verbs or rdma_cm error, an operation that did not verify, or a bad lab file"},
        {2, "usage error: an unknown command, option or value"},
    };
    spec.see_also = {"rdmalab(1)",     "ibv_devices(1)", "ibv_devinfo(1)", "ib_write_lat(1)",
                     "ib_write_bw(1)", "taskset(1)",     "rdma_cm(7)",     "rdma(8)"};
    return spec;
}

/// `text` filled into lines of at most `width` columns, starting at `column` (the caller has written
/// what comes before), the following lines indented by `rest`. Breaks only at spaces outside brackets,
/// so "[--size N | --sweep]" stays together.
std::string wrap_from(std::string_view text, std::size_t width, std::size_t column, std::size_t rest) {
    std::vector<std::string> words;
    std::string word;
    int depth = 0;
    for (const char c : text) {
        if (c == '[') ++depth;
        if (c == ']') --depth;
        if (c == ' ' && depth == 0) {
            if (!word.empty()) words.push_back(word);
            word.clear();
        } else {
            word += c;
        }
    }
    if (!word.empty()) words.push_back(word);
    std::string out;
    bool line_empty = true;
    for (const auto& w : words) {
        if (!line_empty && column + 1 + w.size() > width) {
            out += '\n' + std::string(rest, ' ');
            column = rest;
            line_empty = true;
        }
        if (!line_empty) {
            out += ' ';
            ++column;
        }
        out += w;
        column += w.size();
        line_empty = false;
    }
    return out + '\n';
}

/// wrap_from() on a line of its own, the first line indented by `first`.
std::string wrap(std::string_view text, std::size_t width, std::size_t first, std::size_t rest) {
    return std::string(first, ' ') + wrap_from(text, width, first, rest);
}

std::string option_tag(const OptionSpec& o) {
    std::string tag = o.short_name.empty() ? o.name : o.short_name + ", " + o.name;
    if (!o.value.empty()) {
        if (!tag.empty()) tag += ' ';
        tag += o.value_optional ? "[" + o.value + "]" : o.value;
    }
    return tag;
}

std::string help_entry(const OptionSpec& o) {
    const std::string tag = "  " + option_tag(o);
    std::string help = o.help;
    if (!o.default_value.empty()) help += " Default: " + o.default_value + ".";
    std::string out;
    if (tag.size() + 2 <= kHelpColumn) {
        out = tag + std::string(kHelpColumn - tag.size(), ' ') +
              wrap_from(help, kWidth, kHelpColumn, kHelpColumn);
    } else {
        out = tag + '\n' + wrap(help, kWidth, kHelpColumn, kHelpColumn);
    }
    if (!o.values.empty()) {
        std::string list;
        for (const auto& v : o.values)
            list += (list.empty() ? "" : ", ") + v;
        out += wrap("One of: " + list + ".", kWidth, kHelpColumn, kHelpColumn);
    }
    return out;
}

man::Option man_option(const OptionSpec& o) {
    std::vector<std::string> names;
    if (!o.short_name.empty()) names.push_back(o.short_name);
    if (!o.name.empty()) names.push_back(o.name);
    return {.names = std::move(names),
            .value = o.value,
            .value_optional = o.value_optional,
            .help = o.help,
            .values = o.values,
            .default_value = o.default_value};
}

} // namespace

const CliSpec& cli_spec() {
    static const CliSpec spec = build();
    return spec;
}

const CommandSpec* find_command(std::string_view name) {
    for (const auto& c : cli_spec().commands)
        if (c.name == name) return &c;
    return nullptr;
}

const OptionSpec* find_option(const CommandSpec& command, std::string_view name) {
    for (const auto& o : command.options)
        if (o.name == name || (!o.short_name.empty() && o.short_name == name)) return &o;
    return nullptr;
}

std::optional<std::string> first_unknown_option(const CommandSpec& command,
                                                const std::vector<std::string>& args) {
    const auto is_option = [](const std::string& a) { return a.rfind("--", 0) == 0; };
    for (std::size_t i = command.argument ? 1 : 0; i < args.size(); ++i) {
        if (!is_option(args[i])) continue; // a stray word: the command's parser names it
        const auto* option = find_option(command, args[i]);
        if (!option) return args[i];
        if (option->value.empty()) continue;
        if (!option->value_optional || (i + 1 < args.size() && !is_option(args[i + 1]))) ++i;
    }
    return std::nullopt;
}

std::string usage_text() {
    std::string out = "usage:\n";
    for (const auto& c : cli_spec().commands)
        for (const auto& form : c.synopsis) {
            const std::string prefix = "  rdmalab-cli ";
            out += prefix + wrap_from(form, kWidth, prefix.size(), prefix.size() + c.name.size() + 1);
        }
    for (const auto& o : cli_spec().global_options)
        out += "  rdmalab-cli " + o.name + "\n";
    return out;
}

namespace {

// One command's section of the help: its name, summary, description, argument and options.
std::string command_section(const CommandSpec& c) {
    std::string out = "\n" + c.name + ": " + c.summary + "\n";
    for (const auto& p : c.description)
        out += wrap(p, kWidth, 2, 2);
    if (c.argument) out += help_entry(*c.argument);
    for (const auto& o : c.options)
        out += help_entry(o);
    return out;
}

} // namespace

std::string command_help_text(const CommandSpec& c) {
    std::string out = "usage:\n";
    for (const auto& form : c.synopsis)
        out += "  rdmalab-cli " + form + "\n";
    return out + command_section(c);
}

std::string help_text() {
    const auto& spec = cli_spec();
    std::string out = usage_text();
    for (const auto& c : spec.commands)
        out += command_section(c);
    out += "\ninstead of a command:\n";
    for (const auto& o : spec.global_options)
        out += help_entry(o);
    out += "\n";
    for (const auto& p : spec.description)
        out += wrap(p, kWidth, 0, 0);
    out += "\nExit status:\n";
    for (const auto& e : spec.exit_status)
        out += wrap(fmt::format("{} {}", e.code, e.meaning), kWidth, 2, 4);
    return out;
}

man::ManPage man_page() {
    const auto& spec = cli_spec();
    man::ManPage page;
    page.name = "rdmalab-cli";
    page.section = 1;
    page.source = std::string("rdmalab ") + RDMALAB_VERSION;
    page.summary = spec.summary;
    page.generator = "rdmalab-cli --man";
    for (const auto& c : spec.commands)
        page.synopsis.insert(page.synopsis.end(), c.synopsis.begin(), c.synopsis.end());
    for (const auto& o : spec.global_options)
        page.synopsis.push_back(o.name);
    page.description = spec.description;

    man::Section commands{.title = "COMMANDS"};
    for (const auto& c : spec.commands) {
        man::Subsection sub{.title = c.name, .synopsis = c.synopsis};
        sub.paragraphs.push_back(c.summary);
        sub.paragraphs.insert(sub.paragraphs.end(), c.description.begin(), c.description.end());
        if (c.argument) sub.options.push_back(man_option(*c.argument));
        for (const auto& o : c.options)
            sub.options.push_back(man_option(o));
        commands.subsections.push_back(std::move(sub));
    }
    page.sections.push_back(std::move(commands));

    man::Section options{.title = "OPTIONS"};
    options.paragraphs = {"Used instead of a command:"};
    for (const auto& o : spec.global_options)
        options.options.push_back(man_option(o));
    page.sections.push_back(std::move(options));

    for (const auto& e : spec.exit_status)
        page.exit_status.push_back({std::to_string(e.code), e.meaning});
    page.see_also = spec.see_also;
    return page;
}

} // namespace rdmalab::cli
