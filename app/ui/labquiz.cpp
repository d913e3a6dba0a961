// The prediction box and the questions page of the lab window.
#include "labquiz.h"

#include "labsession.h"

#include <QAbstractButton>
#include <QButtonGroup>
#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace rdmalab::app {

PredictionBox::PredictionBox(LabSession* session, QWidget* parent)
    : QGroupBox(parent), session_(session), question_(new QLabel), choices_(new QWidget),
      group_(new QButtonGroup(this)), lockIn_(new QPushButton), skip_(new QPushButton), result_(new QLabel) {
    setObjectName(QStringLiteral("labPredict"));
    auto* layout = new QVBoxLayout(this);
    question_->setObjectName(QStringLiteral("labPredictQuestion"));
    question_->setWordWrap(true);
    layout->addWidget(question_);
    auto* choicesLayout = new QVBoxLayout(choices_);
    choicesLayout->setContentsMargins(12, 0, 0, 0);
    layout->addWidget(choices_);
    auto* buttons = new QHBoxLayout;
    lockIn_->setObjectName(QStringLiteral("labLockIn"));
    skip_->setObjectName(QStringLiteral("labSkipPrediction"));
    buttons->addWidget(lockIn_);
    buttons->addWidget(skip_);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    result_->setObjectName(QStringLiteral("labPredictResult"));
    result_->setWordWrap(true);
    result_->setTextFormat(Qt::RichText);
    layout->addWidget(result_);
    hide();
    retranslateUi();
    connect(group_, &QButtonGroup::buttonClicked, this, &PredictionBox::updateButtons);
    connect(lockIn_, &QPushButton::clicked, this, [this] {
        const auto* chosen = group_->checkedButton();
        if (!chosen || !session_->needsPrediction()) return;
        session_->lockPrediction(chosen->property("value").toString());
        session_->step(); // the answer is locked in: the real step runs
        emit stepSent();
    });
    connect(skip_, &QPushButton::clicked, this, [this] {
        session_->skipPrediction();
        session_->step();
        emit stepSent();
    });
}

void PredictionBox::refresh(int lastPredicted) {
    const bool open = session_->needsPrediction();
    const int next = session_->nextStep();
    if (open && shown_ != next) {
        // A new question: fresh choices.
        const auto& p = session_->row(next).prediction;
        for (auto* b : group_->buttons()) {
            group_->removeButton(b);
            delete b;
        }
        for (const auto& c : p.choices) {
            auto* radio = new QRadioButton(c.text);
            radio->setObjectName(QStringLiteral("labPredictChoice_") + c.value);
            radio->setProperty("value", c.value);
            group_->addButton(radio);
            choices_->layout()->addWidget(radio);
        }
        question_->setText(tr("Step %1 · %2").arg(next + 1).arg(p.question));
        shown_ = next;
    }
    question_->setVisible(open);
    choices_->setVisible(open);
    lockIn_->setVisible(open);
    skip_->setVisible(open);
    // The verdict on the last prediction, until the next step runs.
    const QString text = lastPredicted >= 0 && lastPredicted == next - 1 ? verdict(lastPredicted) : QString();
    result_->setText(text);
    result_->setVisible(!text.isEmpty());
    setVisible(open || !text.isEmpty());
}

QString PredictionBox::verdict(int index) const {
    const auto& p = session_->row(index).prediction;
    QString text;
    if (p.marked())
        text = (p.right() ? tr("<b style='color:#1b6e20'>✓ Right.</b> You predicted “%1”; the device did "
                               "exactly that.")
                                .arg(p.choiceText(p.chosen).toHtmlEscaped())
                          : tr("<b style='color:#b00020'>✗ Not what happened.</b> You predicted “%1”; "
                               "the device did “%2”.")
                                .arg(p.choiceText(p.chosen).toHtmlEscaped(),
                                     p.choiceText(p.answer).toHtmlEscaped()));
    else if (!p.answer.isEmpty())
        text = tr("No prediction made. The device did “%1”.").arg(p.choiceText(p.answer).toHtmlEscaped());
    if (text.isEmpty()) return text;
    if (!p.why.isEmpty()) text += QStringLiteral("<br>") + p.why.toHtmlEscaped();
    return tr("Step %1 · %2").arg(index + 1).arg(p.question.toHtmlEscaped()) + QStringLiteral("<br>") + text;
}

void PredictionBox::updateButtons() {
    const bool waiting = session_->needsPrediction() && !session_->busy();
    lockIn_->setEnabled(waiting && group_->checkedButton());
    skip_->setEnabled(waiting);
}

void PredictionBox::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QGroupBox::changeEvent(event);
}

void PredictionBox::retranslateUi() {
    setTitle(tr("Predict first"));
    lockIn_->setText(tr("Lock in and run ▷"));
    skip_->setText(tr("Skip"));
    skip_->setToolTip(tr("Run the step without a prediction (it counts as not made)"));
}

QuestionsPage::QuestionsPage(LabSession* session, QWidget* parent) : QScrollArea(parent), session_(session) {
    setObjectName(QStringLiteral("labQuestions"));
    setWidgetResizable(true);
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    const auto& questions = session_->questions();
    for (int i = 0; i < static_cast<int>(questions.size()); ++i) {
        const auto& q = questions[static_cast<std::size_t>(i)];
        auto* box = new QGroupBox(tr("Question %1").arg(i + 1));
        auto* boxLayout = new QVBoxLayout(box);
        auto* text = new QLabel(q.text + (q.multiple ? tr(" (tick every right answer)") : QString()));
        text->setWordWrap(true);
        boxLayout->addWidget(text);
        auto* group = new QButtonGroup(box);
        group->setExclusive(!q.multiple);
        for (int c = 0; c < q.choices.size(); ++c) {
            QAbstractButton* choice = q.multiple
                                          ? static_cast<QAbstractButton*>(new QCheckBox(q.choices.at(c)))
                                          : new QRadioButton(q.choices.at(c));
            choice->setObjectName(QStringLiteral("labQuestion%1Choice%2").arg(i + 1).arg(c + 1));
            group->addButton(choice, c);
            boxLayout->addWidget(choice);
        }
        auto* check = new QPushButton(tr("Check my answer"));
        check->setObjectName(QStringLiteral("labQuestion%1Check").arg(i + 1));
        check->setEnabled(false); // open() after the last step
        boxLayout->addWidget(check, 0, Qt::AlignLeft);
        auto* result = new QLabel;
        result->setObjectName(QStringLiteral("labQuestion%1Result").arg(i + 1));
        result->setWordWrap(true);
        result->setTextFormat(Qt::RichText);
        result->hide();
        boxLayout->addWidget(result);
        connect(check, &QPushButton::clicked, this, [this, i] { this->check(i); });
        layout->addWidget(box);
        asked_.push_back({group, check, result});
    }
    layout->addStretch(1);
    setWidget(page);
}

QString QuestionsPage::title() const {
    return tr("Questions (%1)").arg(session_->questions().size());
}

void QuestionsPage::open() {
    for (const auto& a : asked_)
        a.check->setEnabled(true);
}

void QuestionsPage::check(int index) {
    const Asked& asked = asked_.at(static_cast<std::size_t>(index));
    const auto& q = session_->questions().at(static_cast<std::size_t>(index));
    QList<int> chosen;
    for (int c = 0; c < q.choices.size(); ++c)
        if (asked.choices->button(c)->isChecked()) chosen << c;
    if (chosen.isEmpty()) {
        asked.result->setText(tr("Choose an answer first."));
        asked.result->show();
        return;
    }
    const bool right = session_->answerQuestion(index, chosen);
    QStringList rightChoices;
    for (const int c : q.correct)
        rightChoices << q.choices.at(c).toHtmlEscaped();
    QString text = right ? tr("<b style='color:#1b6e20'>✓ Right.</b>")
                         : tr("<b style='color:#b00020'>✗ Not quite.</b> The right answer: %1.")
                               .arg(rightChoices.join(QStringLiteral("; ")));
    if (!q.explanation.isEmpty()) text += QStringLiteral("<br>") + q.explanation.toHtmlEscaped();
    asked.result->setText(text);
    asked.result->show();
    asked.check->setEnabled(false);
    for (auto* b : asked.choices->buttons())
        b->setEnabled(false);
    emit answered();
}

} // namespace rdmalab::app
