// The offer to reopen a session that ended without being closed (the app was killed or crashed): a banner
// above the main window's views naming the newest such session, with Reopen and Dismiss.
#pragma once

#include "tracefile.h"
#include "windowparts.h"

#include <vector>

class QPushButton;

namespace rdmalab::app {

/// "recoveryBanner" ("recoveryMessage", "reopenSessionButton", "dismissSessionButton"); hidden while
/// nothing is offered.
class RecoveryBanner : public Banner {
    Q_OBJECT
  public:
    explicit RecoveryBanner(QWidget* parent = nullptr);

    /// Looks in `directory` for sessions whose app is gone (each is written on stderr) and, when `offer`,
    /// offers the newest (an unattended run leaves the offer for the next start).
    void collect(const QString& directory, bool offer);
    /// The sessions still offered, newest first (the banner shows the first).
    const std::vector<UnfinishedSession>& sessions() const { return sessions_; }
    /// Stops offering the first session (its marker goes, its file stays) and offers the next, if any.
    /// Returns why the marker could not be removed, or empty.
    QString dismissFirst();

  signals:
    void reopenClicked();
    void dismissClicked();

  protected:
    void changeEvent(QEvent* event) override;

  private:
    /// Shows the first session, or hides the banner when there is none.
    void offer();
    void retranslateUi();

    std::vector<UnfinishedSession> sessions_;
    QPushButton* reopen_;
    QPushButton* dismiss_;
};

} // namespace rdmalab::app
