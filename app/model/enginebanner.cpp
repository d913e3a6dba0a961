#include "enginebanner.h"

#include "rdmalab/fields.hpp"

#include <QCoreApplication>

namespace rdmalab::app {

namespace {

QString lessonTr(const char* text) {
    return QCoreApplication::translate("rdmalab::app::MainWindow", text);
}

QString benchTr(const char* text) {
    return QCoreApplication::translate("rdmalab::app::BenchWindow", text);
}

} // namespace

QString lessonBannerText(const EngineBannerFacts& f) {
    QString label =
        f.replay ? (f.recovered ? lessonTr("REPLAY of a recording of a live session that ended without being "
                                           "closed — device %1 on %2, recorded %3")
                                : lessonTr("REPLAY of a recording — device %1 on %2, recorded %3"))
                       .arg(f.device, f.host, f.date)
                 : lessonTr("Live on %1").arg(f.device);
    if (f.softwareDevice) label += lessonTr("  (SoftRoCE: software RDMA — timings are not hardware timings)");
    if (!f.note.isEmpty())
        label += QLatin1Char('\n') +
                 (f.replay ? lessonTr("The recording's note: %1") : lessonTr("The session's note: %1"))
                     .arg(f.note);
    return label;
}

QString measurementBannerText(const EngineBannerFacts& f, bool anyRuns) {
    QString text;
    if (f.replay)
        text = benchTr("<b>REPLAY</b> of %1 — figures recorded earlier, nothing is measured now. ")
                   .arg(f.source.toHtmlEscaped());
    if (!f.device.isEmpty()) {
        text += benchTr("RDMA measured on <b>%1</b>").arg(f.device.toHtmlEscaped());
        if (f.softwareDevice)
            text += benchTr(" — <span style='color:#a15c00'><b>SoftRoCE: RDMA done in software by the Linux "
                            "kernel (rdma_rxe); these are not hardware numbers.</b></span>");
        text += benchTr(
            " TCP runs over the loopback interface (lo) through the kernel stack of the same machine.");
    } else if (anyRuns) {
        text +=
            benchTr("TCP runs over the loopback interface (lo) through the kernel stack of this machine.");
    } else {
        text += benchTr("Nothing measured yet.");
    }
    return text;
}

QString engineReadyText(const nlohmann::json& hello) {
    const Fields fields(hello, "data");
    return lessonTr("Engine %1 ready (trace format %2)")
        .arg(QString::fromStdString(fields.text("version", "?")),
             QString::fromStdString(fields.text("format", "?")));
}

QString deviceKindText(const QString& driver, bool softwareDevice) {
    return softwareDevice ? lessonTr("SoftRoCE (software)") : driver;
}

} // namespace rdmalab::app
