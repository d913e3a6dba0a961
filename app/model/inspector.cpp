#include "inspector.h"

#include "lessons.h"
#include "verbscode.h"

#include "rdmalab/format/fields.hpp"

#include <QCoreApplication>

#include <algorithm>

namespace rdmalab::app {

namespace {

bool describable(const TraceEvent& e) {
    return e.kind == EventKind::Verb || e.kind == EventKind::QpState || e.kind == EventKind::PostWr ||
           e.kind == EventKind::Wc || e.kind == EventKind::Error;
}

} // namespace

QString htmlText(const QString& text) {
    return text.toHtmlEscaped().replace('\n', "<br>");
}

const TraceEvent* inspectedEvent(std::span<const TraceEvent> events) {
    const TraceEvent* shown = nullptr;
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
        if (it->kind == EventKind::Step) break;
        if (!describable(*it)) continue;
        shown = &*it;
        if (it->kind != EventKind::Verb || it->name.rfind("ibv_query", 0) != 0) break;
    }
    return shown;
}

labs::DeviceClass deviceClassOf(const LabState& s) {
    if (!s.deviceClassKnown) return labs::DeviceClass::unknown;
    return s.softwareDevice ? labs::DeviceClass::software : labs::DeviceClass::hardware;
}

namespace {
labs::ParameterValues lessonParameters(int size, const QString& message) {
    return {{"size", std::to_string(size)}, {"message", message.toStdString()}};
}
} // namespace

std::string lessonSummaryText(const labs::Lab& lab, const LabState& s, int size, const QString& message,
                              std::string_view language) {
    return labs::render(lab.summary.get(deviceClassOf(s), language), lessonParameters(size, message));
}

std::string lessonStepText(const labs::Step& step, const LabState& s, int size, const QString& message,
                           std::string_view language) {
    const QString lang = QString::fromUtf8(language.substr(0, 2));
    if (const auto ran = s.step.texts.find(lang); ran != s.step.texts.end()) return ran->second.toStdString();
    if (!s.step.texts.empty() || !recordsLoopbackOperation(s.mode)) return {};
    return labs::render(step.text.get(deviceClassOf(s), language),
                        s.recordedValues.values(lessonParameters(size, message), language));
}

QString eventHtml(const TraceEvent& event) {
    QString out =
        "<h4>" + htmlText(QString::fromStdString(event.name)) + " <small>(" +
        QString::fromStdString(std::string(to_string(event.kind))) +
        QCoreApplication::translate("rdmalab::app::MainWindow", ", observed, event #%1)").arg(event.seq) +
        "</small></h4>";
    const QString code = verbsCode(event);
    if (!code.isEmpty())
        out += "<pre style='background:#f4f4f4;color:#111;padding:6px'>" + code.toHtmlEscaped() + "</pre>";
    out += "<table cellspacing=0 cellpadding=2>";
    auto row = [&](const QString& k, const QString& v) {
        out += "<tr><td><b>" + htmlText(k) + "</b></td><td>" + htmlText(v) + "</td></tr>";
    };
    for (auto it = event.ids.begin(); it != event.ids.end(); ++it)
        row(QString::fromStdString(it.key()),
            (it.key() == "lkey" || it.key() == "rkey") && it->is_number_unsigned()
                ? QStringLiteral("0x%1").arg(it->get<quint64>(), 0, 16)
                : QString::fromStdString(to_text(*it)));
    for (auto it = event.data.begin(); it != event.data.end(); ++it) {
        if (it.key() == "hex") continue;
        row(QString::fromStdString(it.key()), QString::fromStdString(to_text(*it)));
    }
    return out + "</table>";
}

QString outcomeHtml(const LabState& s, std::string_view language) {
    QString out;
    if (const auto& error = s.lastErrorIn(language))
        out += "<h4 style='color:#c01c28'>" +
               QCoreApplication::translate("rdmalab::app::MainWindow", "Error") + "</h4><p>" +
               htmlText(*error) + "</p>";
    if (s.verified) {
        out += QStringLiteral("<h4 style='color:%1'>%2</h4>")
                   .arg(*s.verified ? "#26a269" : "#c01c28", htmlText(s.checkSummary));
        for (const auto& line : s.checkLines)
            out += htmlText(line) + "<br>";
    }
    return out;
}

QString failedRunNoteHtml(const LabState& s, std::string_view language) {
    const auto failed =
        std::find_if(s.completions.begin(), s.completions.end(),
                     [](const CompletionState& c) { return c.status != QLatin1String("IBV_WC_SUCCESS"); });
    if (failed == s.completions.end()) return {};
    const QString side = sideLetter(failed->side);
    const bool zh = language.substr(0, 2) == "zh";
    const QString text =
        zh ? QStringLiteral("本次运行中 %1 的一个完成项以 %2 失败。下面的课文讲的是没有出错时这一步的过程；"
                            "失败的原因和含义见状态行、时间线和下方的完成项。")
                 .arg(side, failed->status)
           : QStringLiteral(
                 "In this run a completion on %1 failed with %2. The text below tells this step as it "
                 "goes when nothing fails; what failed and why is in the status line, the timeline "
                 "and the completion below.")
                 .arg(side, failed->status);
    return "<p style='background:#fde2e1;color:#000;padding:4px'>" + htmlText(text) + "</p>";
}

QString replayNoteHtml(const LabState& s) {
    return "<p style='background:#fff3b0;color:#000;padding:4px'><b>" +
           QCoreApplication::translate("rdmalab::app::MainWindow", "REPLAY") + "</b> " +
           QCoreApplication::translate(
               "rdmalab::app::MainWindow",
               "of a recording made on %1 (%2) at %3: these events were observed then, not now.")
               .arg(htmlText(s.device), htmlText(s.host), htmlText(s.date)) +
           (s.sessionNote.isEmpty()
                ? QString()
                : "<br><b>" +
                      QCoreApplication::translate("rdmalab::app::MainWindow", "The recording's note:") +
                      "</b> " + htmlText(s.sessionNote)) +
           "</p>";
}

QString inspectorHtml(const LabState& state, const InspectedLesson& lesson, const TraceEvent* shown,
                      bool live, bool replay, std::string_view language) {
    QString out;
    const auto* lab = lesson.lesson;
    if (lab && live) {
        out += "<h3>" + htmlText(QString::fromStdString(lab->lab.title.get(language))) + "</h3>";
        if (state.step.index < 0)
            out += "<p>" +
                   htmlText(QString::fromStdString(
                       lessonSummaryText(lab->lab, state, lesson.size, lesson.message, language))) +
                   "</p>";
    }
    if (lab && !state.step.id.isEmpty()) {
        if (const auto* step = lab->step(state.step.id.toStdString())) {
            out += "<h4>" + htmlText(QString::fromStdString(step->title.get(language))) + "</h4>";
            out += failedRunNoteHtml(state, language);
            out += "<p>" +
                   htmlText(QString::fromStdString(
                       lessonStepText(*step, state, lesson.size, lesson.message, language))) +
                   "</p>";
        }
    }
    if (shown) out += eventHtml(*shown);
    out += outcomeHtml(state, language);
    if (replay) out = replayNoteHtml(state) + out;
    return out;
}

} // namespace rdmalab::app
