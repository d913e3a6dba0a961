// What the windows say about where their figures come from: which engine answered, which device the
// verbs ran on or the measurement used, whether it is a replay, and that SoftRoCE is RDMA done in
// software (its timings are not a NIC's). One implementation for the lesson and the measurement window.
#pragma once

#include <nlohmann/json.hpp>

#include <QString>

namespace rdmalab::app {

/// The facts a banner states.
struct EngineBannerFacts {
    QString device{};            ///< "rxe0"; empty while no device is known
    bool softwareDevice = false; ///< SoftRoCE (rdma_rxe), or another software device
    bool replay = false;         ///< the figures were recorded earlier, nothing runs now
    QString host{};              ///< where the recording was made (lesson replays)
    QString date{};              ///< when (lesson replays)
    QString source{};            ///< the recording's file (measurement replays)
    bool recovered = false;      ///< the replay is a live session that ended without being closed
    QString note{};              ///< the session's note (a recording's, e.g. how it was edited); empty: none
};

/// The lesson window's session line, plain text: "Live on rxe0", or "REPLAY of a recording — device rxe0
/// on host, recorded date", followed by the SoftRoCE note for a software device, and on a line of its own the
/// recording's note when it has one.
QString lessonBannerText(const EngineBannerFacts& facts);

/// The measurement window's header, rich text (values escaped): the replay note, the RDMA device (with
/// the SoftRoCE warning) and where TCP runs; `anyRuns` tells "nothing measured yet" from a TCP-only
/// session.
QString measurementBannerText(const EngineBannerFacts& facts, bool anyRuns);

/// The answer to `hello` (its data): "Engine 0.1.0 ready (trace format 1)".
QString engineReadyText(const nlohmann::json& hello);

/// A device as tables and the device tree name its kind: "SoftRoCE (software)" for a software device,
/// else its driver.
QString deviceKindText(const QString& driver, bool softwareDevice);

} // namespace rdmalab::app
