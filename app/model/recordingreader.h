// Reads a recording on a thread of its own, so that opening a large one (up to kMaxRecordingEvents events,
// several seconds of parsing) never freezes the window that asked for it.
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
    /// Waits for a read under way (its result is dropped).
    ~RecordingReader() override;

    /// Reads `path` with readTraceFile on a thread of its own, then calls `done` on this object's thread.
    /// Returns false, and does nothing, while another read is under way.
    bool read(const QString& path, Done done);
    bool busy() const { return thread_ != nullptr; }

  private:
    QThread* thread_ = nullptr;
};

} // namespace rdmalab::app
