// How the main window opens recordings: File ▸ Open recording…'s dialog (starting at the example
// recordings), the reading on a thread of its own (Open refused meanwhile; a long one shows its progress
// and can be cancelled in the status bar), a recording that cannot be opened, and the unfinished sessions
// the recovery banner offers, reopened as replays.
#pragma once

#include "recordingreader.h"
#include "tracefile.h"

#include <QObject>
#include <QTimer>

#include <functional>
#include <vector>

class QMainWindow;
class QProgressBar;
class QToolButton;

namespace rdmalab::app {

class RecoveryBanner;

class RecordingOpener : public QObject {
    Q_OBJECT
  public:
    /// Shows the events read as a replay titled `title`; `recovered`: an unfinished session reopened.
    using ShowReplay =
        std::function<void(std::vector<TraceEvent>&& events, const QString& title, bool recovered)>;

    /// Messages go to `window`'s status line (a headless run also writes them on stderr, and never opens
    /// a dialog); `recovery` offers the unfinished sessions.
    RecordingOpener(QMainWindow* window, RecoveryBanner* recovery, bool headless, ShowReplay showReplay);

    /// The file dialog, then open().
    void choose();
    /// Reads `path`, then shows it and calls `then` with whether it opened.
    void open(const QString& path, bool recovered = false, const std::function<void(bool)>& then = {});
    /// Opens the offered unfinished session as a replay and stops offering it.
    void reopenFirstUnfinished(const std::function<void(bool)>& then = {});
    /// Stops offering the unfinished session (its file stays); offers the next one, if any.
    void dismissFirstUnfinished();
    const std::vector<UnfinishedSession>& unfinishedSessions() const;
    /// Stops the reading under way (the Cancel button beside its progress).
    void cancel();

  signals:
    /// Open is refused while a recording is read (false), and offered again once it is shown (true).
    void openEnabled(bool enabled);
    /// A headless run could not open its recording; why is written on stderr.
    void headlessFailed();

  private:
    bool show(RecordingReader::Result& result, bool recovered);
    /// The progress bar and Cancel in the status bar, once a reading has lasted kShowProgressAfterMs.
    void showProgress();
    void hideProgress();
    static constexpr int kShowProgressAfterMs = 250;

    QMainWindow* window_;
    RecoveryBanner* recovery_;
    bool headless_;
    ShowReplay showReplay_;
    RecordingReader* reader_ = new RecordingReader(this); ///< opens recordings off the GUI thread
    std::size_t shownEvents_ = 0;                         ///< the events of the replay shown last
    QTimer progressTimer_;
    int progressTicks_ = 0;
    QProgressBar* progressBar_ = nullptr;
    QToolButton* cancelButton_ = nullptr;
};

} // namespace rdmalab::app
