// rdmalab-cli's commands and options as one table: `--help`, the man page (`--man`) and the check that
// refuses unknown options all come from it, so none of them can drift from what the parser accepts.
#pragma once

#include "rdmalab/format/manpage.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdmalab::cli {

/// An option of a command, or a command's positional argument (then `name` is empty).
struct OptionSpec {
    std::string name{};          ///< "--size"
    std::string short_name{};    ///< "-h", or empty
    std::string value{};         ///< placeholder ("N", "FILE"); empty: a flag
    bool value_optional = false; ///< "--listen [ADDR]": the next argument is its value unless it is an option
    std::string help{};          ///< one paragraph; `code` is set in bold in the man page
    std::vector<std::string> values{}; ///< the allowed values, from the engine's name tables
    std::string default_value{};       ///< empty: none worth stating
};

/// A command: `rdmalab-cli NAME ...`.
struct CommandSpec {
    std::string name{};                     ///< "op"
    std::string summary{};                  ///< one line
    std::vector<std::string> synopsis{};    ///< forms, each after "rdmalab-cli "
    std::vector<std::string> description{}; ///< paragraphs
    std::optional<OptionSpec> argument{}; ///< the positional argument right after the command (OPCODE, KIND)
    std::vector<OptionSpec> options{};
};

/// An exit status and what it means.
struct ExitStatus {
    int code = 0;
    std::string meaning{};
};

/// The whole command line of rdmalab-cli.
struct CliSpec {
    std::string summary{};                  ///< the man page's NAME line
    std::vector<std::string> description{}; ///< paragraphs about the program as a whole
    std::vector<CommandSpec> commands{};
    std::vector<OptionSpec> global_options{}; ///< used instead of a command: --help, --version, --man
    std::vector<ExitStatus> exit_status{};
    std::vector<std::string> see_also{};
};

/// The table (built once).
const CliSpec& cli_spec();

/// The command called `name`, or nullptr.
const CommandSpec* find_command(std::string_view name);

/// The option of `command` called `name` (its long or short name), or nullptr.
const OptionSpec* find_option(const CommandSpec& command, std::string_view name);

/// The first argument in an option's place that starts with "--" but is no option of `command`, or
/// nothing. `args` follow the command name; the positional argument and the values of options are
/// skipped the way the parser consumes them, so `--message --json` is a message, not an option.
std::optional<std::string> first_unknown_option(const CommandSpec& command,
                                                const std::vector<std::string>& args);

/// The usage block: every synopsis form, wrapped to 100 columns.
std::string usage_text();

/// The help of one command (`rdmalab-cli COMMAND --help`): its forms, description and options.
std::string command_help_text(const CommandSpec& command);

/// `rdmalab-cli --help`: the usage block, then each command with its description, argument and
/// options, the options used instead of a command, and the exit status.
std::string help_text();

/// `rdmalab-cli --man`: the section 1 man page, roff.
man::ManPage man_page();

} // namespace rdmalab::cli
