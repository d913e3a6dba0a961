// The session and step lines above the main window's views (see sessionlines.h).
#include "sessionlines.h"

#include "enginebanner.h"
#include "labstate.h"

#include <QLabel>
#include <QVBoxLayout>

namespace rdmalab::app {

SessionLines::SessionLines(QVBoxLayout* layout, QObject* parent)
    : QObject(parent), session_(new QLabel), step_(new QLabel) {
    session_->setObjectName("sessionLabel");
    QFont big = session_->font();
    big.setBold(true);
    session_->setFont(big);
    step_->setObjectName("stepLabel");
    session_->setTextFormat(Qt::PlainText);
    step_->setTextFormat(Qt::PlainText);
    step_->setWordWrap(true);
    session_->setWordWrap(true); // a recording's note can be long: it must not widen the window
    layout->addWidget(session_);
    layout->addWidget(step_);
}

void SessionLines::setSessionText(const QString& text) {
    session_->setText(text);
}

void SessionLines::showState(const LabState& s, bool replay, bool recovered) {
    if (!s.device.isEmpty()) {
        session_->setText(lessonBannerText({.device = s.device,
                                            .softwareDevice = s.softwareDevice,
                                            .replay = replay,
                                            .host = s.host,
                                            .date = s.date,
                                            .recovered = recovered,
                                            .note = s.sessionNote}));
    }
    const QString title = stepTitles_.value(s.step.id, s.step.title);
    if (s.step.index >= 0)
        step_->setText(tr("Step %1 of %2: %3").arg(s.step.index + 1).arg(s.step.count).arg(title));
    else if (s.step.count == 0 && !title.isEmpty())
        step_->setText(title);
    else if (!s.plannedSteps.empty())
        step_->setText(tr("Ready: %1 steps planned. Press Step or Play.").arg(s.plannedSteps.size()));
}

} // namespace rdmalab::app
