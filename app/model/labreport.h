// The report of a lab run, for a student to hand in: one self-contained HTML file with the device, the
// date, the parameters, every step with its explanation and the verdict on each expectation with what the
// device showed, and the run's trace attached (a JSON Lines download inside the file).
#pragma once

#include "labsession.h"

#include <QDateTime>
#include <QString>

namespace rdmalab::app {

/// The report as HTML. `parameterDefaults` completes the values the run was given; `when` is the date shown.
QString labReportHtml(const LabSession& session, const QMap<QString, QString>& parameterDefaults,
                      const QDateTime& when);

/// Writes labReportHtml to `path`; returns an error text, or empty on success.
QString writeLabReport(const QString& path, const LabSession& session,
                       const QMap<QString, QString>& parameterDefaults);

} // namespace rdmalab::app
