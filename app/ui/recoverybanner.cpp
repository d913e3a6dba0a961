// The recovery offer of the main window.
#include "recoverybanner.h"

#include <QEvent>
#include <QLocale>
#include <QPushButton>

#include <cstdio>

namespace rdmalab::app {

RecoveryBanner::RecoveryBanner(QWidget* parent)
    : Banner(QStringLiteral("recoveryBanner"), QStringLiteral("recoveryMessage"), Tone::Info, parent),
      reopen_(addButton(QStringLiteral("reopenSessionButton"), QString())),
      dismiss_(addButton(QStringLiteral("dismissSessionButton"), QString())) {
    connect(reopen_, &QPushButton::clicked, this, &RecoveryBanner::reopenClicked);
    connect(dismiss_, &QPushButton::clicked, this, &RecoveryBanner::dismissClicked);
    retranslateUi();
}

void RecoveryBanner::collect(const QString& directory, bool offer) {
    for (auto& session : findUnfinishedSessions(directory)) {
        if (!session.problem.isEmpty()) {
            std::fprintf(stderr,
                         "rdmalab: a session ended without being closed, but cannot be reopened: %s\n",
                         qPrintable(session.problem));
            continue;
        }
        std::fprintf(stderr,
                     "rdmalab: the previous session (started %s, %zu events) ended without being "
                     "closed: %s\n",
                     qPrintable(session.started.toString(Qt::ISODate)), session.events,
                     qPrintable(session.path));
        sessions_.push_back(std::move(session));
    }
    if (offer) this->offer();
}

QString RecoveryBanner::dismissFirst() {
    if (sessions_.empty()) return {};
    QString error;
    if (forgetUnfinishedSession(sessions_.front(), &error)) error.clear();
    sessions_.erase(sessions_.begin());
    offer();
    return error;
}

void RecoveryBanner::offer() {
    if (sessions_.empty()) {
        hide();
        return;
    }
    const auto& session = sessions_.front();
    QString text = tr("The previous session (started %1, %2 events) ended without being closed: the app was "
                      "killed or crashed. Its autosave keeps everything up to the last complete event: %3")
                       .arg(QLocale().toString(session.started, QLocale::ShortFormat))
                       .arg(session.events)
                       .arg(session.path);
    if (!session.note.isEmpty())
        text += tr("\nThe last line was incomplete and is left out (%1).").arg(session.note);
    if (sessions_.size() > 1)
        text += tr("\n%1 more unfinished sessions after this one.").arg(sessions_.size() - 1);
    showMessage(text);
}

void RecoveryBanner::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    Banner::changeEvent(event);
}

void RecoveryBanner::retranslateUi() {
    reopen_->setText(tr("Reopen"));
    reopen_->setToolTip(tr("Open the session as a replay of what was recorded before it ended"));
    dismiss_->setText(tr("Dismiss"));
    dismiss_->setToolTip(tr("Keep the file, but do not offer it again"));
    if (!isHidden()) offer();
}

} // namespace rdmalab::app
