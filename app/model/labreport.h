// The report of a lab run, for a student to hand in: one self-contained HTML file that opens with a grading
// summary (the student, the score, the wrong predictions and answers, the broken expectations), then the
// device, the date, the parameters, every step with its explanation and the verdict on each expectation with
// what the device showed, and the run's trace attached (a JSON Lines download inside the file). The grade
// is also inside as JSON, so that a teacher's class summary reads a folder of reports (readClassSummary).
#pragma once

#include "labsession.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace rdmalab::app {

/// A run's grade, as its report states it.
struct ReportGrade {
    QString student; ///< the seed the run was given (the student's name or number); empty: none
    QString labId, labTitle, date, device;
    int held = 0, broken = 0;    ///< the expectations' verdicts
    int stepsRun = 0, steps = 0; ///< how far the run came
    int predictionsAsked = 0, predictionsMade = 0, predictionsRight = 0;
    int questions = 0, questionsAnswered = 0, questionsRight = 0;
    QStringList wrong; ///< the predictions and answers that were wrong, by their question
    /// Right predictions and answers out of those the lab asks, in percent; nullopt when it asks none.
    std::optional<int> score() const;
};
/// The grade of `session`'s run at `when`.
ReportGrade reportGrade(const LabSession& session, const QDateTime& when);

/// The report as HTML. `parameterDefaults` completes the values the run was given; `when` is the date shown.
QString labReportHtml(const LabSession& session, const QMap<QString, QString>& parameterDefaults,
                      const QDateTime& when);

/// Writes labReportHtml to `path`; returns an error text, or empty on success.
QString writeLabReport(const QString& path, const LabSession& session,
                       const QMap<QString, QString>& parameterDefaults);

/// The reports in a folder, graded: one row per report, and for each file that is not a readable report
/// of rdmalab, "FILE: why".
struct ClassSummary {
    struct Row {
        QString file;
        ReportGrade grade;
    };
    std::vector<Row> rows; ///< by student, then lab
    QStringList problems;
};
/// Reads every *.html file of `folder` (each at most 64 MiB) for the grade its report holds.
ClassSummary readClassSummary(const QString& folder);

} // namespace rdmalab::app
