#include "classsummary.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace rdmalab::app {

ClassSummaryDialog::ClassSummaryDialog(QWidget* parent)
    : QDialog(parent), folderLabel_(new QLabel), table_(new QTableWidget), problems_(new QLabel) {
    setObjectName(QStringLiteral("classSummaryDialog"));
    setWindowTitle(tr("Class summary"));
    auto* layout = new QVBoxLayout(this);
    folderLabel_->setWordWrap(true);
    layout->addWidget(folderLabel_);
    table_->setObjectName(QStringLiteral("classSummaryTable"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(table_, 1);
    problems_->setObjectName(QStringLiteral("classSummaryProblems"));
    problems_->setWordWrap(true);
    problems_->setTextFormat(Qt::PlainText);
    layout->addWidget(problems_);
    resize(1000, 520);
}

void ClassSummaryDialog::showFolder(const QString& folder) {
    summary_ = readClassSummary(folder);
    folderLabel_->setText(tr("%n report(s) in %1", "", static_cast<int>(summary_.rows.size())).arg(folder));
    const QStringList headers{tr("Student"),      tr("Lab"),         tr("Date"),
                              tr("Score"),        tr("Predictions"), tr("Questions"),
                              tr("Expectations"), tr("Wrong"),       tr("File")};
    table_->clear();
    table_->setColumnCount(static_cast<int>(headers.size()));
    table_->setHorizontalHeaderLabels(headers);
    table_->setRowCount(static_cast<int>(summary_.rows.size()));
    int r = 0;
    for (const auto& [file, g] : summary_.rows) {
        const auto score = g.score();
        const QStringList cells{g.student.isEmpty() ? tr("(no name)") : g.student,
                                g.labTitle.isEmpty() ? g.labId : g.labTitle,
                                g.date.left(10),
                                score ? QStringLiteral("%1%").arg(*score) : QStringLiteral("—"),
                                tr("%1 of %2 right (%3 made)")
                                    .arg(g.predictionsRight)
                                    .arg(g.predictionsAsked)
                                    .arg(g.predictionsMade),
                                tr("%1 of %2 right (%3 answered)")
                                    .arg(g.questionsRight)
                                    .arg(g.questions)
                                    .arg(g.questionsAnswered),
                                tr("%1 held, %2 broken").arg(g.held).arg(g.broken),
                                g.wrong.join(QStringLiteral("; ")),
                                file};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells.at(c));
            item->setToolTip(cells.at(c));
            table_->setItem(r, c, item);
        }
        ++r;
    }
    table_->resizeColumnsToContents();
    problems_->setText(summary_.problems.isEmpty()
                           ? QString()
                           : tr("Not read:\n%1").arg(summary_.problems.join(QLatin1Char('\n'))));
    problems_->setVisible(!summary_.problems.isEmpty());
}

} // namespace rdmalab::app
