// The app's command-line options as one table: the parser, `--help` and the man page (`--man`) are all
// built from it, so they cannot drift apart.
#pragma once

#include "rdmalab/format/manpage.hpp"

#include <QCommandLineParser>
#include <QList>
#include <QString>
#include <QStringList>

namespace rdmalab::app {

/// One option of `rdmalab`.
struct CommandLineEntry {
    /// Qt's own options, which QCommandLineParser adds itself (addHelpOption, addVersionOption).
    enum class Builtin { None, Help, HelpAll, Version };

    QStringList names{};    ///< as QCommandLineOption takes them: "lesson", "h" (typed --lesson, -h)
    QString description{};  ///< the --help text
    QString valueName{};    ///< placeholder ("file"); empty: a flag
    QString defaultValue{}; ///< empty: none
    QString group{};        ///< the man page's subsection: "Lessons", "Measurement", "Display", ...
    Builtin builtin = Builtin::None;
};

/// Every option, grouped; the parser and --help list them in this order.
QList<CommandLineEntry> commandLineTable();

/// The one-paragraph description --help shows above the options.
QString applicationDescription();

/// Sets the description and adds every option of the table (Qt's help and version options for the
/// builtin entries).
void addCommandLineOptions(QCommandLineParser& parser);

/// True when the arguments ask for the man page (`--man`): checked before QApplication exists, so the
/// build can generate the page without a display.
bool wantsManPage(int argc, const char* const* argv);

/// `rdmalab --man`: the section 1 man page, from the table.
rdmalab::man::ManPage manPage();

} // namespace rdmalab::app
