#include "inspector.h"

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

const TraceEvent* inspectedEvent(const std::vector<TraceEvent>& events) {
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

std::string lessonText(const labs::DeviceText& text, const LabState& s, int size, const QString& message,
                       std::string_view language) {
    return labs::render(text.get(deviceClassOf(s), language), placeholderValues(s, size, message, language));
}

std::map<std::string, std::string> placeholderValues(const LabState& s, int size, const QString& message,
                                                     std::string_view language) {
    const QString stepId = s.step.id;
    const int side = s.step.sideless ? 0 : index(s.step.side);
    const auto& r = s.regions[std::size_t(side)];
    const auto& q = s.qps[std::size_t(side)];
    auto hex = [](quint64 v) { return QStringLiteral("0x%1").arg(v, 0, 16).toStdString(); };
    std::map<std::string, std::string> v;
    v["device"] = s.device.toStdString();
    v["size"] = std::to_string(size);
    v["message"] = message.toStdString();
    if (!s.step.sideless) v["endpoint"] = side == 0 ? "A" : "B";
    if (s.portMtu) v["mtu"] = std::to_string(s.portMtu);
    if (!s.gid.isEmpty()) v["gid"] = s.gid.toStdString();
    if (r.registered) {
        v["lkey"] = hex(r.lkey);
        v["rkey"] = hex(r.rkey);
        v["addr"] = hex(r.addr);
        v["access"] = r.access.join("|").toStdString();
    }
    if (stepId.startsWith("post_send") && s.regions[1].registered) {
        v["addr"] = hex(s.regions[1].addr); // the remote address and rkey the work request carries
        v["rkey"] = hex(s.regions[1].rkey);
    }
    if (q.created) {
        v["qpn"] = std::to_string(q.qpn);
        if (q.destQpn) v["peer_qpn"] = std::to_string(q.destQpn);
        if (q.pathMtu) v["mtu"] = std::to_string(q.pathMtu);
        if (stepId.startsWith("rtr_")) v["psn"] = hex(q.rqPsn);
        if (stepId.startsWith("rts_")) v["psn"] = hex(q.sqPsn);
        if (stepId.startsWith("init_") && !q.lastAccessFlags.isEmpty())
            v["access"] = q.lastAccessFlags.join("|").toStdString();
    }
    if (stepId.startsWith("post_send") || stepId.startsWith("post_recv") || stepId.startsWith("poll_cq")) {
        const bool zh = language.substr(0, 2) == "zh";
        const auto& sc = s.stepSyscalls;
        if (sc.count)
            v["syscalls"] = std::to_string(*sc.count);
        else if (!sc.why.isEmpty())
            v["syscalls"] = (zh ? "未计数：" : "not counted: ") + sc.why.toStdString();
        else
            v["syscalls"] = zh ? "未记录" : "not recorded";
    }
    if (!s.completions.empty()) {
        v["status"] = s.completions.back().status.toStdString();
        v["byte_len"] = std::to_string(s.completions.back().byteLen);
    }

    // The lab's value paths (docs/lab-format.md): the device, both sides' objects, the step's results.
    v["device.name"] = v["device"];
    if (s.portMtu) v["device.mtu"] = std::to_string(s.portMtu);
    if (!s.gid.isEmpty()) v["device.gid"] = v["gid"];
    for (const int i : {0, 1}) {
        const std::string e = i == 0 ? "A" : "B";
        const auto& region = s.regions[std::size_t(i)];
        if (region.registered) {
            v[e + ".buf.lkey"] = hex(region.lkey);
            v[e + ".buf.rkey"] = hex(region.rkey);
            v[e + ".buf.addr"] = hex(region.addr);
            v[e + ".buf.access"] = region.access.join("|").toStdString();
        }
        const auto& qp = s.qps[std::size_t(i)];
        if (!qp.created) continue;
        v[e + ".qp.qpn"] = std::to_string(qp.qpn);
        if (!qp.lastAccessFlags.isEmpty()) v[e + ".qp.access"] = qp.lastAccessFlags.join("|").toStdString();
        // Its first send PSN: set at its RTS, and known before that as the PSN its peer expects (RTR).
        const auto& peer = s.qps[std::size_t(1 - i)];
        if (qp.sqPsn)
            v[e + ".qp.psn"] = hex(qp.sqPsn);
        else if (peer.created && peer.rqPsn)
            v[e + ".qp.psn"] = hex(peer.rqPsn);
    }
    const std::string step = stepId.toStdString();
    if (auto syscalls = v.find("syscalls"); syscalls != v.end()) v[step + ".syscalls"] = syscalls->second;
    if (stepId.startsWith("poll_cq") && !s.completions.empty()) {
        v[step + ".status"] = v["status"];
        v[step + ".byte_len"] = v["byte_len"];
    }
    return v;
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

QString outcomeHtml(const LabState& s) {
    QString out;
    if (s.lastError)
        out += "<h4 style='color:#c01c28'>" +
               QCoreApplication::translate("rdmalab::app::MainWindow", "Error") + "</h4><p>" +
               htmlText(*s.lastError) + "</p>";
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
    const QString side = failed->side == Side::A ? QStringLiteral("A") : QStringLiteral("B");
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
                       lessonText(lab->lab.summary, state, lesson.size, lesson.message, language))) +
                   "</p>";
    }
    if (lab && !state.step.id.isEmpty()) {
        if (const auto* step = lab->step(state.step.id.toStdString())) {
            out += "<h4>" + htmlText(QString::fromStdString(step->title.get(language))) + "</h4>";
            out += failedRunNoteHtml(state, language);
            out += "<p>" +
                   htmlText(QString::fromStdString(
                       lessonText(step->text, state, lesson.size, lesson.message, language))) +
                   "</p>";
        }
    }
    if (shown) out += eventHtml(*shown);
    out += outcomeHtml(state);
    if (replay) out = replayNoteHtml(state) + out;
    return out;
}

} // namespace rdmalab::app
