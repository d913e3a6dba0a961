// The main window's status line, its permanent part: where the engine runs and on which device
// ("rxe0 · SoftRoCE VM (…)"), the VM kernel's download on first use, and how far the engine's start has
// come (a headless run writes that on stderr too, one line rewritten in place).
#pragma once

#include <QObject>

class QLabel;
class QProgressBar;
class QStatusBar;

namespace rdmalab::app {

class EngineClient;

/// "engineHostLabel" and "engineDownloadBar", added to `bar`.
class EngineStatusLine : public QObject {
    Q_OBJECT
  public:
    EngineStatusLine(EngineClient* engine, QStatusBar* bar, bool headless);

    /// Empty for a replay; else the engine stopped, its `device`, or no device once it has said hello.
    void refresh(bool replay, bool stopped, const QString& device, bool helloSeen);
    /// The engine stopped: no download goes on, and the progress line ends.
    void engineDied();
    /// Ends the progress line on stderr (a newline), if one is open.
    void endProgressLine();

  private:
    EngineClient* engine_;
    bool headless_;
    QLabel* hostLabel_;
    QProgressBar* downloadBar_;     ///< the VM's kernel download on first use
    bool progressLineOpen_ = false; ///< headless: a boot progress line on stderr has no newline yet
};

} // namespace rdmalab::app
