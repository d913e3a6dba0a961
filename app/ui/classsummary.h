// A teacher's class summary: the lab reports students handed in, read from one folder, as one table
// (student × lab × score), with the files that are not reports listed and why.
#pragma once

#include "labreport.h"

#include <QDialog>

class QLabel;
class QTableWidget;

namespace rdmalab::app {

/// "classSummaryDialog": the table ("classSummaryTable": student, lab, date, score, predictions, questions,
/// expectations, wrong, file) and the problems ("classSummaryProblems").
class ClassSummaryDialog : public QDialog {
    Q_OBJECT
  public:
    explicit ClassSummaryDialog(QWidget* parent = nullptr);
    /// Reads the reports of `folder` (readClassSummary) and shows them.
    void showFolder(const QString& folder);
    const ClassSummary& summary() const { return summary_; }

  private:
    ClassSummary summary_;
    QLabel* folderLabel_;
    QTableWidget* table_;
    QLabel* problems_;
};

} // namespace rdmalab::app
