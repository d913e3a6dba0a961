// Reads a recording on a thread of its own, so that opening a large one (up to kMaxRecordingEvents events,
// seconds of parsing) never freezes the window that asked for it; says how far it has come, and stops
// when asked to.
#pragma once

#include "tracefile.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QThread;

namespace rdmalab::app {

class RecordingReader : public QObject {
    Q_OBJECT
  public:
    /// What readTraceFile returned for `path`.
    struct Result {
        QString path;
        std::optional<std::vector<TraceEvent>> events;
        TraceFileError error;
        QString note;
    };
    using Done = std::function<void(Result&)>;

    explicit RecordingReader(QObject* parent = nullptr);
    /// Stops a read under way and waits for it (its result is dropped).
    ~RecordingReader() override;

    /// Reads `path` with readTraceFile on a thread of its own, then calls `done` on this object's thread.
    /// Returns false, and does nothing, while another read is under way.
    bool read(const QString& path, Done done);
    bool busy() const { return thread_ != nullptr; }
    /// The share of the file read so far, 0 to 1 (0 when no read is under way).
    double fractionRead() const;
    /// Stops the read under way at its next line: `done` gets error.cancelled.
    void cancel();

  private:
    QThread* thread_ = nullptr;
    std::shared_ptr<ReadProgress> progress_;
};

} // namespace rdmalab::app
