// How a headless run ends (the lesson window's --autoplay, the measurement window's --autoplay, with
// --screenshot, --export and --quit): once, with exit status 0 only when the run succeeded and every
// output it was asked for was written, and within a deadline.
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>

class QImage;

namespace rdmalab::app {

class HeadlessRun : public QObject {
    Q_OBJECT
  public:
    /// `status` is what status() reports until the run finishes.
    explicit HeadlessRun(int status, QObject* parent = nullptr);

    bool finished() const { return finished_; }
    /// 0: the run succeeded and its outputs were written; 1: it did not; before the end, the start value.
    int status() const { return status_; }

    /// Exit the application with the status once the run has finished (--quit). `quit` does it
    /// (default: QCoreApplication::exit once the event loop is back).
    void setQuitWhenDone(bool quit, std::function<void(int)> quitter = {});

    /// Unless the run has already finished: writes the outputs (`writeOutputs` returns false when one
    /// could not be written), sets the status and quits when asked to. Returns false, writing nothing,
    /// when the run had already finished.
    bool finish(bool ok, const std::function<bool()>& writeOutputs = {});

    /// If the run has not finished `ms` from now: says so on stderr ("rdmalab: <what>") and emits
    /// deadlinePassed().
    void armDeadline(int ms, const QString& what);

  signals:
    void deadlinePassed();

  private:
    bool finished_ = false;
    int status_;
    bool quitWhenDone_ = false;
    std::function<void(int)> quitter_;
    QTimer deadline_;
    QString deadlineText_;
};

/// Saves the image as PNG at `path`; when it cannot, says so on stderr ("rdmalab: could not write
/// <path>") and returns false.
bool saveScreenshot(const QImage& image, const QString& path);

} // namespace rdmalab::app
