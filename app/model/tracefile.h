// Recordings: JSON Lines trace files, read with file/line/field errors and written atomically, and the
// autosave that keeps every live session on disk as it happens.
#pragma once

#include "rdmalab/fields.hpp"
#include "rdmalab/trace.hpp"

#include <QFile>
#include <QString>

#include <optional>
#include <string_view>
#include <vector>

namespace rdmalab::app {

/// Limits of what readTraceFile opens: far above any real recording (a lesson is ~60 events and 16 KB, a
/// measurement sweep a few MB), well below what would exhaust memory or freeze the window.
inline constexpr qint64 kMaxRecordingBytes = 64LL << 20;
inline constexpr std::size_t kMaxRecordingEvents = 200000;

struct TraceFileError {
    QString file;
    std::size_t line = 0;
    QString field;
    QString message;
    QString toString() const; ///< "FILE: line N: field 'F': message"
};

/// Reads `event` as the models and views will (LabState, BenchSession, LessonController, describe,
/// verbsCode), each on scratch state, and returns the first field holding the wrong type. Recordings and
/// the engine's output are checked where they arrive, so a bad field is reported there with its line and
/// never reaches a view.
std::optional<FieldError> checkEventFields(const TraceEvent& event);

/// parse_json_line, then checkEventFields: an event the app can show, or nothing with `error` naming the
/// field (the caller sets error.line).
std::optional<TraceEvent> parseTraceLine(std::string_view line, TraceParseError& error);

/// Reads a whole recording; stops at the first bad line and reports it.
std::optional<std::vector<TraceEvent>> readTraceFile(const QString& path, TraceFileError& error);

/// Writes events as JSON Lines to a temporary file, then renames it over `path`, so a failed save never
/// destroys an earlier recording. Returns an error message or an empty string.
QString writeTraceFile(const QString& path, const std::vector<TraceEvent>& events);

/// Keeps a live session on disk as it happens. The first append creates a file of the session's own in
/// the folder (named by the time to the millisecond and the process id, created exclusively, so two
/// instances never share one); every write is checked and the file only ever holds whole lines. After a
/// failure (no folder, a full disk) it stops writing for this session and error() names the path and the
/// system's reason; the caller shows it and still holds the events, to save them elsewhere.
class SessionAutosave {
  public:
    /// Where sessions are kept: $RDMALAB_SESSIONS_DIR if set, else <app data>/sessions.
    static QString defaultDirectory();

    /// Files go to `directory` as PREFIXyyyyMMdd-HHmmss-zzz-PID.jsonl.
    explicit SessionAutosave(QString directory = defaultDirectory(), QString prefix = {});
    /// Appends to exactly `path` instead (tests point it at /dev/full).
    void setFile(const QString& path);

    /// Appends the events as whole lines; false when this or an earlier write of the session failed.
    bool append(const std::vector<TraceEvent>& events);
    /// Ends the session: the next append starts a new file, and an earlier failure is forgotten.
    void restart();

    QString path() const { return file_.fileName(); } ///< this session's file; empty before the first append
    bool failed() const { return !error_.isEmpty(); }
    QString error() const { return error_; } ///< "writing PATH failed: No space left on device", ...

  private:
    bool open();
    bool failWriting();
    bool fail(const QString& message);

    QString directory_;
    QString prefix_;
    QString fixedPath_;
    QFile file_;
    qint64 whole_ = 0; ///< bytes of the file that are whole lines
    QString error_;
};

} // namespace rdmalab::app
