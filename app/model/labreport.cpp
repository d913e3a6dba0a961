#include "labreport.h"

#include "savefile.h"

#include "rdmalab/format/trace.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace rdmalab::app {

namespace {

// The report's own words are in the app's language (context LabReport); the lab's texts, the steps' and
// the verdicts', in the run's (the engine wrote them). The grade's JSON keys are the same in both.

QString esc(const QString& s) {
    return s.toHtmlEscaped();
}

QString verdictCell(const QString& verdict) {
    if (verdict == QLatin1String("held"))
        return QStringLiteral("<td class=held>%1</td>")
            .arg(QCoreApplication::translate("LabReport", "✓ held"));
    if (verdict == QLatin1String("broken"))
        return QStringLiteral("<td class=broken>%1</td>")
            .arg(QCoreApplication::translate("LabReport", "✗ BROKEN"));
    return QStringLiteral("<td class=na>%1</td>")
        .arg(QCoreApplication::translate("LabReport", "– not applicable"));
}

/// The device as the report names it: its name, whether it is software, and its kernel.
QString deviceText(const LabSession& session) {
    const auto device = session.device();
    const bool software = device.value(QStringLiteral("software")) == QLatin1String("yes");
    QString text = device.isEmpty() ? QStringLiteral("—") : device.value(QStringLiteral("name"));
    if (software)
        text += QCoreApplication::translate("LabReport",
                                            " (SoftRoCE: software RDMA, timings are not hardware timings)");
    if (device.contains(QStringLiteral("kernel")))
        text += QCoreApplication::translate("LabReport", ", Linux %1")
                    .arg(device.value(QStringLiteral("kernel")));
    return text;
}

/// The document's head (language, title, style) and the lab's title.
QString headHtml(const LabSession& session) {
    const bool zh = session.language() == QLatin1String("zh");
    QString html =
        QStringLiteral("<!DOCTYPE html>\n<html lang=\"%1\"><head><meta charset=\"utf-8\">"
                       "<title>%2</title><style>"
                       "body{font-family:sans-serif;max-width:60em;margin:2em auto;line-height:1.4}"
                       "table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:4px;"
                       "vertical-align:top;text-align:left}.held{color:#1b6e20}.broken{color:#b00020;"
                       "font-weight:bold}.na{color:#666}.text{white-space:pre-wrap}</style></head><body>\n")
            .arg(zh ? QStringLiteral("zh-CN") : QStringLiteral("en"), esc(session.labTitle()));
    html += QStringLiteral("<h1>%1</h1>\n").arg(esc(session.labTitle()));
    return html;
}

/// The table of the run: lab, device, date, result, predictions and questions, seed, every parameter with
/// where its value came from.
QString metaTableHtml(const LabSession& session, const QMap<QString, QString>& parameterDefaults,
                      const QDateTime& when) {
    auto row = [](const QString& heading, const QString& cell) {
        return QStringLiteral("<tr><th>%1</th><td>%2</td></tr>").arg(heading, cell);
    };
    QString html = QStringLiteral("<table class=meta>");
    html += row(QCoreApplication::translate("LabReport", "Lab"), esc(session.labId()));
    html += row(QCoreApplication::translate("LabReport", "Device"), esc(deviceText(session)));
    html += row(QCoreApplication::translate("LabReport", "Date"), esc(when.toString(Qt::ISODate)));
    html += row(QCoreApplication::translate("LabReport", "Result"),
                QCoreApplication::translate("LabReport", "%1 held, %2 broken, %3 of %4 steps run")
                    .arg(session.heldCount())
                    .arg(session.brokenCount())
                    .arg(std::min(session.nextStep(), session.rowCount()))
                    .arg(session.rowCount()));
    if (session.predictionsMade() + session.questionsAnswered() > 0) {
        html += row(QCoreApplication::translate("LabReport", "Predictions"),
                    QCoreApplication::translate("LabReport", "%1 of %2 right")
                        .arg(session.predictionsRight())
                        .arg(session.predictionsMade()));
        html += row(QCoreApplication::translate("LabReport", "Questions"),
                    QCoreApplication::translate("LabReport", "%1 of %2 right")
                        .arg(session.questionsRight())
                        .arg(session.questions().size()));
    }
    auto parameters = parameterDefaults;
    const auto given = session.parameters();
    const auto seeded = session.seededValues();
    for (auto it = seeded.begin(); it != seeded.end(); ++it)
        parameters[it.key()] = it.value();
    for (auto it = given.begin(); it != given.end(); ++it)
        parameters[it.key()] = it.value();
    if (!session.seed().isEmpty())
        html += row(QCoreApplication::translate("LabReport", "Seed"), esc(session.seed()));
    for (auto it = parameters.begin(); it != parameters.end(); ++it) {
        const QString origin = given.contains(it.key()) ? QString()
                               : seeded.contains(it.key())
                                   ? QCoreApplication::translate("LabReport", " (drawn with the seed)")
                                   : QCoreApplication::translate("LabReport", " (default)");
        html += row(QCoreApplication::translate("LabReport", "Parameter %1").arg(esc(it.key())),
                    esc(it.value()) + origin);
    }
    html += QStringLiteral("</table>\n");
    return html;
}

/// A step's prediction: the question, what the student chose and what the device did; empty when the step
/// asks for none.
QString predictionHtml(const LabSession::StepRow& row) {
    const auto& p = row.prediction;
    if (!row.predicts || p.question.isEmpty()) return {};
    QString answer;
    if (p.marked())
        answer = QStringLiteral("<span class=%1>%2</span> ")
                     .arg(p.right() ? QStringLiteral("held") : QStringLiteral("broken"),
                          p.right() ? QCoreApplication::translate("LabReport", "✓ right")
                                    : QCoreApplication::translate("LabReport", "✗ wrong")) +
                 QCoreApplication::translate("LabReport", "predicted: %1 · the device: %2")
                     .arg(esc(p.choiceText(p.chosen)), esc(p.choiceText(p.answer)));
    else
        answer = QCoreApplication::translate("LabReport", "no prediction made") +
                 (p.answer.isEmpty()
                      ? QString()
                      : QCoreApplication::translate("LabReport", " · the device: %1").arg(esc(p.answer)));
    return QStringLiteral("<p class=predict>%1<br>%2%3</p>\n")
        .arg(QCoreApplication::translate("LabReport", "Prediction: %1").arg(esc(p.question)), answer,
             p.why.isEmpty() ? QString()
                             : QStringLiteral("<br><small>") + esc(p.why) + QStringLiteral("</small>"));
}

/// Step `i` (from 0): its title, action and state, its text or why it was skipped, its error, its
/// prediction and the verdict on each expectation.
QString stepHtml(const LabSession::StepRow& row, int i) {
    QString html =
        QStringLiteral("<h2>%1. %2</h2>\n").arg(i + 1).arg(esc(row.title.isEmpty() ? row.id : row.title));
    html += QStringLiteral("<p><code>%1</code> · %2</p>\n")
                .arg(esc(row.action), esc(LabSession::stateName(row.state)));
    if (row.state == QLatin1String("skipped"))
        html +=
            QStringLiteral("<p>%1</p>\n")
                .arg(QCoreApplication::translate("LabReport", "Skipped: %1").arg(esc(row.skippedBecause)));
    else if (!row.text.isEmpty())
        html += QStringLiteral("<p class=text>%1</p>\n").arg(esc(row.text));
    if (!row.error.isEmpty()) html += QStringLiteral("<pre>%1</pre>\n").arg(esc(row.error));
    html += predictionHtml(row);
    if (row.verdicts.empty()) return html;
    html += QStringLiteral("<table><tr><th>%1</th><th>%2</th><th>%3</th></tr>\n")
                .arg(QCoreApplication::translate("LabReport", "Verdict"),
                     QCoreApplication::translate("LabReport", "Expectation"),
                     QCoreApplication::translate("LabReport", "Observed"));
    for (const auto& v : row.verdicts)
        html += QStringLiteral("<tr>%1<td>%2%3</td><td>%4</td></tr>\n")
                    .arg(verdictCell(v.verdict),
                         esc(QCoreApplication::translate("LabReport", "%1: %2")
                                 .arg(LabSession::kindName(v.kind), v.description)),
                         v.why.isEmpty()
                             ? QString()
                             : QStringLiteral("<br><small>") + esc(v.why) + QStringLiteral("</small>"),
                         esc(v.observed));
    html += QStringLiteral("</table>\n");
    return html;
}

/// The lab's questions with the choices ticked, and for those answered the right ones and the
/// explanation; empty without any.
QString questionsHtml(const LabSession& session) {
    if (session.questions().empty()) return {};
    QString html = QStringLiteral("<h2>%1</h2>\n<p>%2</p>\n")
                       .arg(QCoreApplication::translate("LabReport", "Questions"),
                            QCoreApplication::translate("LabReport", "%1 of %2 answered right.")
                                .arg(session.questionsRight())
                                .arg(session.questions().size()));
    int n = 0;
    for (const auto& q : session.questions()) {
        html += QStringLiteral("<h3>%1. %2</h3>\n<ul>").arg(++n).arg(esc(q.text));
        for (int c = 0; c < q.choices.size(); ++c) {
            const bool ticked = q.given.contains(c), correct = q.correct.contains(c);
            // The right choices only once the student has answered: a report handed in before is no key.
            html +=
                QStringLiteral("<li>%1 %2%3</li>")
                    .arg(ticked ? QStringLiteral("☒") : QStringLiteral("☐"), esc(q.choices.at(c)),
                         correct && q.answered ? QStringLiteral(" <span class=held>%1</span>")
                                                     .arg(QCoreApplication::translate("LabReport", "(right)"))
                                               : QString());
        }
        html +=
            QStringLiteral("</ul>\n<p>%1</p>\n")
                .arg(!q.answered ? QCoreApplication::translate("LabReport", "Not answered.")
                     : q.right() ? QStringLiteral("<span class=held>%1</span>")
                                       .arg(QCoreApplication::translate("LabReport", "✓ Answered right."))
                                 : QStringLiteral("<span class=broken>%1</span>")
                                       .arg(QCoreApplication::translate("LabReport", "✗ Answered wrong.")));
        if (q.answered && !q.explanation.isEmpty())
            html += QStringLiteral("<p><small>%1</small></p>\n").arg(esc(q.explanation));
    }
    return html;
}

constexpr auto kGradeId = "rdmalab-grade"; ///< the id of the report's script element holding its grade

nlohmann::json gradeJson(const ReportGrade& g) {
    auto text = [](const QString& s) { return s.toStdString(); };
    nlohmann::json wrong = nlohmann::json::array();
    for (const auto& w : g.wrong)
        wrong.push_back(text(w));
    return {{"format", 1},
            {"student", text(g.student)},
            {"lab", text(g.labId)},
            {"title", text(g.labTitle)},
            {"date", text(g.date)},
            {"device", text(g.device)},
            {"held", g.held},
            {"broken", g.broken},
            {"steps_run", g.stepsRun},
            {"steps", g.steps},
            {"predictions_asked", g.predictionsAsked},
            {"predictions_made", g.predictionsMade},
            {"predictions_right", g.predictionsRight},
            {"questions", g.questions},
            {"questions_answered", g.questionsAnswered},
            {"questions_right", g.questionsRight},
            {"wrong", wrong}};
}

/// The grade a report's JSON states; nullopt with `why` when a field is missing or of the wrong type.
std::optional<ReportGrade> gradeFromJson(const nlohmann::json& j, QString& why) {
    try {
        if (j.at("format").get<int>() != 1) {
            why = QStringLiteral("a grade of format %1, not 1").arg(j.at("format").get<int>());
            return std::nullopt;
        }
        auto text = [&](const char* key) { return QString::fromStdString(j.at(key).get<std::string>()); };
        auto number = [&](const char* key) { return j.at(key).get<int>(); };
        ReportGrade g;
        g.student = text("student");
        g.labId = text("lab");
        g.labTitle = text("title");
        g.date = text("date");
        g.device = text("device");
        g.held = number("held");
        g.broken = number("broken");
        g.stepsRun = number("steps_run");
        g.steps = number("steps");
        g.predictionsAsked = number("predictions_asked");
        g.predictionsMade = number("predictions_made");
        g.predictionsRight = number("predictions_right");
        g.questions = number("questions");
        g.questionsAnswered = number("questions_answered");
        g.questionsRight = number("questions_right");
        for (const auto& w : j.at("wrong"))
            g.wrong << QString::fromStdString(w.get<std::string>());
        return g;
    } catch (const nlohmann::json::exception& e) {
        why = QStringLiteral("its grade does not read: %1").arg(QString::fromUtf8(e.what()));
        return std::nullopt;
    }
}

/// The grading summary the report opens with, and its grade as JSON for a class summary.
QString gradeHtml(const ReportGrade& g) {
    const auto score = g.score();
    QString html =
        QStringLiteral("<h2>%1</h2>\n<table class=grade>"
                       "<tr><th>%2</th><td>%3</td></tr>"
                       "<tr><th>%4</th><td>%5</td></tr>"
                       "<tr><th>%6</th><td>%7 <span class=%8>%9</span></td></tr>")
            .arg(QCoreApplication::translate("LabReport", "Grading summary"),
                 QCoreApplication::translate("LabReport", "Student"),
                 g.student.isEmpty() ? QCoreApplication::translate("LabReport", "(not given: no seed)")
                                     : esc(g.student),
                 QCoreApplication::translate("LabReport", "Score"),
                 score ? QCoreApplication::translate("LabReport",
                                                     "%1% (%2 of %3 predictions and answers right)")
                             .arg(*score)
                             .arg(g.predictionsRight + g.questionsRight)
                             .arg(g.predictionsAsked + g.questions)
                       : QCoreApplication::translate("LabReport",
                                                     "— (the lab asks no prediction and no question)"),
                 QCoreApplication::translate("LabReport", "Expectations"),
                 QCoreApplication::translate("LabReport", "%1 held,").arg(g.held),
                 g.broken > 0 ? QStringLiteral("broken") : QStringLiteral("na"),
                 QCoreApplication::translate("LabReport", "%1 broken").arg(g.broken));
    if (!g.wrong.isEmpty()) {
        html +=
            QStringLiteral("<tr><th>%1</th><td><ul>").arg(QCoreApplication::translate("LabReport", "Wrong"));
        for (const auto& w : g.wrong)
            html += QStringLiteral("<li>%1</li>").arg(esc(w));
        html += QStringLiteral("</ul></td></tr>");
    }
    html += QStringLiteral("</table>\n");
    // Inside a script element the JSON is data; "</" would end the element, so it is escaped.
    QString json = QString::fromStdString(gradeJson(g).dump());
    json.replace(QStringLiteral("</"), QStringLiteral("<\\/"));
    html += QStringLiteral("<script type=\"application/json\" id=\"%1\">%2</script>\n")
                .arg(QLatin1String(kGradeId), json);
    return html;
}

/// The run's trace, attached as a JSON Lines download.
QString traceHtml(const LabSession& session) {
    QByteArray trace;
    for (const auto& e : session.events())
        trace += QByteArray::fromStdString(to_json_line(e)) + '\n';
    return QStringLiteral("<h2>%1</h2>\n<p>%2 "
                          "<a id=trace download=\"%3.jsonl\" href=\"data:application/x-ndjson;base64,%4\">"
                          "%5</a></p>\n")
        .arg(QCoreApplication::translate("LabReport", "Trace"),
             QCoreApplication::translate("LabReport", "%1 events recorded on the device during this run:")
                 .arg(session.events().size()),
             esc(session.labId()), QString::fromLatin1(trace.toBase64()),
             QCoreApplication::translate("LabReport", "download the trace (JSON Lines)"));
}

} // namespace

std::optional<int> ReportGrade::score() const {
    const int asked = predictionsAsked + questions;
    if (asked == 0) return std::nullopt;
    return (100 * (predictionsRight + questionsRight) + asked / 2) / asked;
}

ReportGrade reportGrade(const LabSession& session, const QDateTime& when) {
    ReportGrade g;
    g.student = session.seed();
    g.labId = session.labId();
    g.labTitle = session.labTitle();
    g.date = when.toString(Qt::ISODate);
    g.device = deviceText(session);
    g.held = session.heldCount();
    g.broken = session.brokenCount();
    g.stepsRun = std::min(session.nextStep(), session.rowCount());
    g.steps = session.rowCount();
    for (int i = 0; i < session.rowCount(); ++i) {
        const auto& row = session.row(i);
        if (!row.predicts || row.prediction.question.isEmpty()) continue;
        ++g.predictionsAsked;
        if (row.prediction.marked() && !row.prediction.right())
            g.wrong << QCoreApplication::translate("LabReport", "Prediction, step %1: %2")
                           .arg(i + 1)
                           .arg(row.prediction.question);
    }
    g.predictionsMade = session.predictionsMade();
    g.predictionsRight = session.predictionsRight();
    int n = 0;
    for (const auto& q : session.questions()) {
        ++n;
        if (q.answered && !q.right())
            g.wrong << QCoreApplication::translate("LabReport", "Question %1: %2").arg(n).arg(q.text);
    }
    g.questions = static_cast<int>(session.questions().size());
    g.questionsAnswered = session.questionsAnswered();
    g.questionsRight = session.questionsRight();
    return g;
}

QString labReportHtml(const LabSession& session, const QMap<QString, QString>& parameterDefaults,
                      const QDateTime& when) {
    QString html = headHtml(session);
    html += gradeHtml(reportGrade(session, when));
    html += metaTableHtml(session, parameterDefaults, when);
    for (int i = 0; i < session.rowCount(); ++i)
        html += stepHtml(session.row(i), i);
    html += questionsHtml(session);
    html += traceHtml(session);
    html += QStringLiteral("</body></html>\n");
    return html;
}

QString writeLabReport(const QString& path, const LabSession& session,
                       const QMap<QString, QString>& parameterDefaults) {
    return writeFileAtomically(
        path, labReportHtml(session, parameterDefaults, QDateTime::currentDateTime()).toUtf8());
}

ClassSummary readClassSummary(const QString& folder) {
    ClassSummary summary;
    const QDir dir(folder);
    if (!dir.exists()) {
        summary.problems << QStringLiteral("%1: no such folder").arg(folder);
        return summary;
    }
    constexpr qint64 kMaxReportBytes = 64LL << 20;
    const QString start =
        QStringLiteral("<script type=\"application/json\" id=\"%1\">").arg(QLatin1String(kGradeId));
    for (const QFileInfo& info : dir.entryInfoList({QStringLiteral("*.html")}, QDir::Files, QDir::Name)) {
        auto problem = [&](const QString& why) {
            summary.problems << info.fileName() + QStringLiteral(": ") + why;
        };
        if (info.size() > kMaxReportBytes) {
            problem(QStringLiteral("larger than 64 MiB: not a report of rdmalab"));
            continue;
        }
        QFile file(info.filePath());
        if (!file.open(QIODevice::ReadOnly)) {
            problem(file.errorString());
            continue;
        }
        const QString html = QString::fromUtf8(file.readAll());
        const qsizetype at = html.indexOf(start);
        const qsizetype end = at < 0 ? -1 : html.indexOf(QStringLiteral("</script>"), at);
        if (end < 0) {
            problem(QStringLiteral("no grade inside: not a report of rdmalab, or one written before reports "
                                   "carried their grade"));
            continue;
        }
        const QString json = html.mid(at + start.size(), end - at - start.size());
        const auto parsed = nlohmann::json::parse(json.toStdString(), nullptr, false);
        QString why = QStringLiteral("its grade is not JSON");
        const auto grade = parsed.is_discarded() ? std::nullopt : gradeFromJson(parsed, why);
        if (!grade) {
            problem(why);
            continue;
        }
        summary.rows.push_back({info.fileName(), *grade});
    }
    std::stable_sort(summary.rows.begin(), summary.rows.end(), [](const auto& a, const auto& b) {
        return std::tie(a.grade.student, a.grade.labId) < std::tie(b.grade.student, b.grade.labId);
    });
    return summary;
}

} // namespace rdmalab::app
