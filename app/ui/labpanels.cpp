// The lab window's browser and the selected lab's form.
#include "labpanels.h"

#include "labcatalog.h"
#include "qtstrings.h"

#include <QEvent>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QTreeView>
#include <QVBoxLayout>

namespace rdmalab::app {

QString parameterDefaultText(const labs::Value& value) {
    switch (value.kind) {
    case labs::Value::Kind::integer:
        return value.unsigned_value ? QString::number(value.as_u64()) : QString::number(value.integer);
    case labs::Value::Kind::boolean:
        return value.boolean ? QStringLiteral("true") : QStringLiteral("false");
    default:
        return qs(value.text);
    }
}

LabBrowser::LabBrowser(LabCatalog* catalog, QWidget* parent)
    : QWidget(parent), catalog_(catalog), tree_(new QTreeView), errors_(new QLabel),
      errorList_(new QListWidget) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    tree_->setObjectName(QStringLiteral("labTree"));
    tree_->setModel(catalog_);
    tree_->setUniformRowHeights(true);
    tree_->header()->setSectionResizeMode(LabCatalog::TitleColumn, QHeaderView::Stretch);
    tree_->header()->setStretchLastSection(false);
    for (int row = 0; row < catalog_->rowCount(); ++row)
        tree_->setFirstColumnSpanned(row, QModelIndex(), true); // a chapter's title uses the whole row
    tree_->expandAll();
    tree_->resizeColumnToContents(LabCatalog::LevelColumn);
    tree_->resizeColumnToContents(LabCatalog::MinutesColumn);
    tree_->resizeColumnToContents(LabCatalog::ProgressColumn);
    layout->addWidget(tree_);
    errors_->setObjectName(QStringLiteral("labErrors"));
    errors_->setWordWrap(true);
    errors_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    errors_->setStyleSheet(QStringLiteral("background: #fff3b0; color: #000; padding: 4px;"));
    layout->addWidget(errors_);
    // One row per file that did not load, each with its reason, in a list of bounded height: a folder of
    // thousands of bad files scrolls instead of making the window thousands of pixels tall.
    errorList_->setObjectName(QStringLiteral("labErrorList"));
    errorList_->setMaximumHeight(errorList_->fontMetrics().height() * 6 + 8);
    errorList_->setWordWrap(false);
    errorList_->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    layout->addWidget(errorList_);
    showLoadErrors();
}

void LabBrowser::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) showLoadErrors();
    QWidget::changeEvent(event);
}

void LabBrowser::showLoadErrors() {
    const QStringList& errors = catalog_->errors();
    errors_->setVisible(!errors.isEmpty());
    errorList_->setVisible(!errors.isEmpty());
    errors_->setText(tr("These lab files did not load (%1):").arg(errors.size()));
    constexpr int kShown = 500; // enough to find one's own; the rest are counted
    errorList_->clear();
    for (int i = 0; i < std::min<int>(kShown, static_cast<int>(errors.size())); ++i)
        errorList_->addItem(errors.at(i));
    if (errors.size() > kShown) errorList_->addItem(tr("… and %1 more").arg(errors.size() - kShown));
}

LabForm::LabForm(const QString& seed, QWidget* parent)
    : QWidget(parent), header_(new QLabel), seed_(new QLineEdit), studentLabel_(new QLabel) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    header_->setObjectName(QStringLiteral("labHeader"));
    header_->setWordWrap(true);
    header_->setTextFormat(Qt::RichText);
    layout->addWidget(header_);
    auto* parameters = new QWidget;
    parameters->setObjectName(QStringLiteral("labParameters"));
    parameterForm_ = new QFormLayout(parameters);
    layout->addWidget(parameters);
    auto* seedRow = new QFormLayout;
    seed_->setObjectName(QStringLiteral("labSeed"));
    seed_->setText(seed);
    studentLabel_->setObjectName(QStringLiteral("labStudentLabel"));
    seedRow->addRow(studentLabel_, seed_);
    layout->addLayout(seedRow);
    retranslateUi();
}

void LabForm::showLab(const labs::Lab* lab, const std::string& language) {
    while (parameterForm_->rowCount() > 0)
        parameterForm_->removeRow(0);
    parameterEdits_.clear();
    if (!lab) return;
    labShown_ = true;
    QStringList objectives;
    for (const auto& o : lab->objectives)
        objectives << QStringLiteral("<li>%1</li>").arg(qs(o.get(language)).toHtmlEscaped());
    // A two-host lab runs between two hosts on one wire, which this window's one engine is not: say so
    // before anyone starts it (its steps would all be skipped here).
    const QString hosts =
        lab->hosts == 2
            ? QStringLiteral("<p><b>%1</b></p>")
                  .arg(tr("Two hosts: this lab runs between two hosts on one wire, with `rdmalab-cli lab run "
                          "%1 "
                          "--listen ADDR` on B's host and `rdmalab-cli lab run %1 --connect HOST` on A's. "
                          "Started here, on one host, its steps are skipped.")
                           .arg(qs(lab->id))
                           .toHtmlEscaped())
            : QString();
    header_->setText(QStringLiteral("<h3>%1</h3><p>%2 · %3 · %4</p>%6<ul>%5</ul>")
                         .arg(qs(lab->title.get(language)).toHtmlEscaped(),
                              tr("chapter %1").arg(lab->chapter), LabCatalog::levelName(qs(lab->level)),
                              tr("%1 minutes").arg(lab->minutes), objectives.join(QString()), hosts));
    for (const auto& p : lab->parameters) {
        auto* edit = new QLineEdit;
        edit->setObjectName(QStringLiteral("labParameter_") + qs(p.name));
        edit->setProperty("parameter", qs(p.name));
        edit->setPlaceholderText(parameterDefaultText(p.default_value));
        QString range;
        if (p.min && p.max) range = tr(" (%1 to %2)").arg(*p.min).arg(*p.max);
        if (!p.choices.empty()) {
            QStringList choices;
            for (const auto& c : p.choices)
                choices << qs(c);
            range = tr(" (one of %1)").arg(choices.join(QStringLiteral(", ")));
        }
        edit->setToolTip(qs(p.text.get(language)) + range);
        // What the parameter changes, in the lab's words, with the name the lab and `lab list` use.
        const QString what = qs(p.text.get(language));
        auto* label = new QLabel(what.isEmpty() ? qs(p.name) : tr("%1 (%2)").arg(what, qs(p.name)));
        label->setObjectName(QStringLiteral("labParameterLabel_") + qs(p.name));
        label->setWordWrap(true);
        label->setBuddy(edit);
        parameterForm_->addRow(label, edit);
        parameterEdits_ << edit;
    }
}

QMap<QString, QString> LabForm::values() const {
    QMap<QString, QString> values;
    for (auto* edit : parameterEdits_)
        if (!edit->text().trimmed().isEmpty())
            values[edit->property("parameter").toString()] = edit->text().trimmed();
    return values;
}

QString LabForm::seed() const {
    return seed_->text().trimmed();
}

void LabForm::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void LabForm::retranslateUi() {
    if (!labShown_) header_->setText(tr("Choose a lab on the left."));
    seed_->setPlaceholderText(tr("a name or number: varying parameters are drawn from it"));
    seed_->setToolTip(tr("Per-student variation: the same seed always gives the same values, a neighbour's "
                         "seed others. Values typed above still win."));
    studentLabel_->setText(tr("Student"));
}

} // namespace rdmalab::app
