// Where this build and the checkout it was configured from are. The paths are fixed at configure time and
// live in one generated translation unit only (engine/format/src/buildpaths.cpp.in), never in a compile
// definition: a checkout cloned or moved elsewhere then recompiles that one small file, and a compiler
// cache reuses every other object (an absolute path in a -D reaches every file that sees it).
#pragma once

namespace rdmalab::build {

/// The checkout this build was configured from.
const char* source_dir();
/// Its labs/ (the curriculum), for a program run from the build tree.
const char* labs_dir();
/// The build tree.
const char* binary_dir();
/// This build's rdmalab-cli.
const char* cli_path();
/// This build's rdmalab; empty in a build without the app.
const char* app_path();
/// Qt's lupdate as the build found it; empty in a build without the app.
const char* lupdate_path();

} // namespace rdmalab::build
