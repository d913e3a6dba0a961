// Measurements out of the app: CSV for spreadsheets, JSON in the engine's own format, written safely.
#pragma once

#include "savefile.h" // writeFileAtomically, for the exports

#include "benchdata.h"

#include <nlohmann/json.hpp>

#include <QByteArray>
#include <QString>

#include <vector>

namespace rdmalab::app {

/// The CSV header of runsToCsv(); every column name carries its unit.
QString runsCsvHeader();

/// One row per finished run (runs still in progress have no result yet and are left out), RFC 4180:
/// comma-separated, fields with a comma, quote or line break quoted, CRLF line ends, '.' as decimal
/// point whatever the locale. Cells where a figure does not apply (latency of a bandwidth run, ...) are
/// empty. MB/s is 10^6 bytes per second, Gb/s 10^9 bits per second.
QString runsToCsv(const std::vector<BenchRun>& runs);

/// Every latency sample of a run, in measured order: "iteration,latency_us", iteration from 1.
QString samplesToCsv(const BenchRun& run);

/// The finished runs as a JSON array in the field names of `rdmalab-cli bench --json`
/// (docs/bench-format.md), plus "samples_us" when the run holds samples and "wr_trace" when every work
/// request was traced; BenchRun::applyResult reads each element back.
nlohmann::json runsToJson(const std::vector<BenchRun>& runs);

} // namespace rdmalab::app
