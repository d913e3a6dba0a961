// A manual page as data, and its roff (man(7)) text. Standard library only: no verbs, no Qt, so both
// rdmalab-cli and the desktop app print their pages (`--man`) from the option tables they parse with.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rdmalab::man {

// Text fields are plain text, not roff: render() escapes them. In prose (help, paragraphs, entry
// texts) `backquoted code` and words that start with "-" followed by a letter or "-" (options such as
// --size) are set in bold with their hyphens as "\-", so they can be copied from the rendered page; a
// newline starts a new output line.

/// One option or positional argument: a ".TP" paragraph tagged with its names in bold and its value
/// placeholder in italics.
struct Option {
    std::vector<std::string> names{};  ///< as typed: "-h", "--help"; empty for a positional argument
    std::string value{};               ///< placeholder ("N", "FILE"); empty: a flag
    bool value_optional = false;       ///< the value may be left out: "--listen [ADDR]"
    std::string help{};                ///< one paragraph
    std::vector<std::string> values{}; ///< the allowed values, listed after the help ("One of: ...")
    std::string default_value{};       ///< a "Default: X" line after the help when not empty
};

/// A term and its explanation: an exit status, an environment variable, a file.
struct Entry {
    std::string term{}; ///< set in bold, literally
    std::string text{}; ///< prose
};

/// A ".SS" subsection: one command of a program with subcommands, or a group of options.
struct Subsection {
    std::string title{};
    std::vector<std::string> synopsis{}; ///< forms, each after the program name ("op OPCODE [--size N]")
    std::vector<std::string> paragraphs{};
    std::vector<Option> options{};
};

/// A ".SH" section between DESCRIPTION and EXIT STATUS, such as COMMANDS or OPTIONS.
struct Section {
    std::string title{}; ///< upper case by convention
    std::vector<std::string> paragraphs{};
    std::vector<Option> options{};
    std::vector<Subsection> subsections{};
};

/// A whole page. render() writes NAME, SYNOPSIS, DESCRIPTION, the sections, EXIT STATUS, ENVIRONMENT,
/// FILES and SEE ALSO in that order, leaving out the empty ones.
struct ManPage {
    std::string name{};   ///< program name: "rdmalab-cli"
    int section = 1;      ///< manual section
    std::string date{};   ///< footer date; empty keeps the generated page reproducible
    std::string source{}; ///< footer source: "rdmalab 0.1.0"
    std::string manual = "User Commands";
    std::string summary{};                  ///< the NAME line after "name \-"
    std::string generator{};                ///< written as a roff comment at the top ("rdmalab-cli --man")
    std::vector<std::string> synopsis{};    ///< forms, each after the program name
    std::vector<std::string> description{}; ///< paragraphs
    std::vector<Section> sections{};
    std::vector<Entry> exit_status{};
    std::vector<Entry> environment{};
    std::vector<Entry> files{};
    std::vector<std::string> see_also{}; ///< "rdmalab(1)", "rdma(8)"
};

/// The page as roff source for man(7) (groff, mandoc).
std::string render(const ManPage& page);

/// Prose as roff text: backslashes escaped, `code` and options in bold (see above), and a line that
/// would start with "." or "'" (a roff request) protected with "\&".
std::string escape_text(std::string_view text);

/// Literal text (option names, values, commands) as roff: like escape_text without the markup, and
/// every "-" written "\-" and "'" written "\(aq", so that they render as the ASCII characters a shell
/// needs.
std::string escape_literal(std::string_view text);

} // namespace rdmalab::man
