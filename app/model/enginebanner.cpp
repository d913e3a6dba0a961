#include "enginebanner.h"

#include "rdmalab/format/fields.hpp"

#include <QCoreApplication>

namespace rdmalab::app {

QString lessonBannerText(const EngineBannerFacts& f) {
    QString label =
        f.replay ? (f.recovered
                        ? QCoreApplication::translate(
                              "rdmalab::app::MainWindow",
                              "REPLAY of a recording of a live session that ended without being "
                              "closed — device %1 on %2, recorded %3")
                        : QCoreApplication::translate("rdmalab::app::MainWindow",
                                                      "REPLAY of a recording — device %1 on %2, recorded %3"))
                       .arg(f.device, f.host, f.date)
                 : QCoreApplication::translate("rdmalab::app::MainWindow", "Live on %1").arg(f.device);
    if (f.softwareDevice)
        label += QCoreApplication::translate(
            "rdmalab::app::MainWindow", "  (SoftRoCE: software RDMA — timings are not hardware timings)");
    if (!f.note.isEmpty())
        label +=
            QLatin1Char('\n') +
            (f.replay ? QCoreApplication::translate("rdmalab::app::MainWindow", "The recording's note: %1")
                      : QCoreApplication::translate("rdmalab::app::MainWindow", "The session's note: %1"))
                .arg(f.note);
    return label;
}

QString measurementBannerText(const EngineBannerFacts& f, bool anyRuns) {
    QString text;
    if (f.replay)
        text = QCoreApplication::translate(
                   "rdmalab::app::BenchWindow",
                   "<b>REPLAY</b> of %1 — figures recorded earlier, nothing is measured now. ")
                   .arg(f.source.toHtmlEscaped());
    if (!f.device.isEmpty()) {
        text += QCoreApplication::translate("rdmalab::app::BenchWindow", "RDMA measured on <b>%1</b>")
                    .arg(f.device.toHtmlEscaped());
        if (f.softwareDevice)
            text += QCoreApplication::translate(
                "rdmalab::app::BenchWindow",
                " — <span style='color:#a15c00'><b>SoftRoCE: RDMA done in software by the Linux "
                "kernel (rdma_rxe); these are not hardware numbers.</b></span>");
        text += QCoreApplication::translate(
            "rdmalab::app::BenchWindow",
            " TCP runs over the loopback interface (lo) through the kernel stack of the same machine.");
    } else if (anyRuns) {
        text += QCoreApplication::translate(
            "rdmalab::app::BenchWindow",
            "TCP runs over the loopback interface (lo) through the kernel stack of this machine.");
    } else {
        text += QCoreApplication::translate("rdmalab::app::BenchWindow", "Nothing measured yet.");
    }
    return text;
}

QString engineReadyText(const nlohmann::json& hello) {
    const Fields fields(hello, "data");
    return QCoreApplication::translate("rdmalab::app::MainWindow", "Engine %1 ready (trace format %2)")
        .arg(QString::fromStdString(fields.text("version", "?")),
             QString::fromStdString(fields.text("format", "?")));
}

QString deviceKindText(const QString& driver, bool softwareDevice) {
    return softwareDevice ? QCoreApplication::translate("rdmalab::app::MainWindow", "SoftRoCE (software)")
                          : driver;
}

} // namespace rdmalab::app
