// Recordings: JSON Lines trace files, read with file/line/field errors and written atomically, and the
// autosave that keeps every live session on disk as it happens.
#pragma once

#include "rdmalab/format/fields.hpp"
#include "rdmalab/format/trace.hpp"

#include <QDateTime>
#include <QFile>
#include <QString>

#include <atomic>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace rdmalab::app {

/// Limits of what readTraceFile opens: far above any real recording (a lesson is ~60 events and 16 KB, a
/// measurement sweep a few MB, a million events about 250 MB), below what would exhaust memory.
inline constexpr qint64 kMaxRecordingBytes = 512LL << 20;
inline constexpr std::size_t kMaxRecordingEvents = 2000000;

struct TraceFileError {
    QString file;
    std::size_t line = 0;
    QString field;
    QString message;
    bool cancelled = false;   ///< the reading was stopped (ReadProgress::cancelled), nothing is wrong
    QString toString() const; ///< "FILE: line N: field 'F': message"
};

/// How far readTraceFile has come, and a way to stop it: shared by the reading thread and the window.
struct ReadProgress {
    std::atomic<qint64> bytesRead{0};
    std::atomic<qint64> bytesTotal{0};  ///< the file's size, once it is open
    std::atomic<bool> cancelled{false}; ///< set by the window: the reading stops at the next line
};

/// Reads `event` as the models and views will (LabState, BenchSession, LessonController, describe,
/// verbsCode), each on scratch state, and returns the first field holding the wrong type. Recordings and
/// the engine's output are checked where they arrive, so a bad field is reported there with its line and
/// never reaches a view.
std::optional<FieldError> checkEventFields(const TraceEvent& event);

/// parse_json_line, then checkEventFields: an event the app can show, or nothing with `error` naming the
/// field (the caller sets error.line).
std::optional<TraceEvent> parseTraceLine(std::string_view line, TraceParseError& error);

/// Reads a whole recording; stops at the first bad line and reports it. One exception: a last line that
/// has no newline and does not parse is what a writer that stopped mid-line (a killed app) leaves behind.
/// It is dropped, the complete events before it are returned, and `note` (if given) says so ("line N
/// was incomplete (no newline at the end of the file) and was dropped"); otherwise `note` is cleared.
/// With `progress`, it says how far it has read, and stops (error.cancelled) once asked to.
std::optional<std::vector<TraceEvent>> readTraceFile(const QString& path, TraceFileError& error,
                                                     QString* note = nullptr,
                                                     ReadProgress* progress = nullptr);

/// True when the recording at `path` holds a "measure" event (a measurement, for the measurement window),
/// found without reading the whole file as events: only lines that mention "measure" are parsed. False
/// for a file that cannot be read (opening it reports why).
bool recordingHoldsMeasurements(const QString& path);

/// Writes events as JSON Lines to a temporary file, then renames it over `path`, so a failed save never
/// destroys an earlier recording. Returns an error message or an empty string.
QString writeTraceFile(const QString& path, std::span<const TraceEvent> events);

/// Which process an autosave marker belongs to: the process id, when it started (clock ticks after boot,
/// field 22 of /proc/PID/stat) and the boot it ran in (/proc/sys/kernel/random/boot_id), so neither a
/// reused process id nor a reboot makes a dead instance look alive.
struct ProcessIdentity {
    qint64 pid = 0;
    quint64 startTicks = 0; ///< 0: unknown
    QString bootId;         ///< empty: unknown
    static ProcessIdentity current();
    /// True while that very process runs (a zombie counts as ended).
    bool isRunning() const;
};

/// A live session whose app ended without closing it (killed, crashed, the machine went down): its
/// marker is still there and the process that wrote it is gone.
struct UnfinishedSession {
    QString path;   ///< the session file
    QString marker; ///< its marker, PATH.open
    ProcessIdentity owner;
    QDateTime started;
    std::size_t events = 0; ///< complete events in the file
    QString note;           ///< readTraceFile's note: the last line was incomplete and is dropped
    QString problem;        ///< why it cannot be reopened (unreadable file); empty when it can
};

/// The unfinished sessions in `directory`, newest first. Sessions of instances that still run are never
/// listed. Reads each listed session file (at most kMaxRecordingBytes) to count its events.
std::vector<UnfinishedSession> findUnfinishedSessions(const QString& directory);
/// Stops offering a session: removes its marker; the session file stays. Returns false when the marker
/// could not be removed (and says why in `error`).
bool forgetUnfinishedSession(const UnfinishedSession& session, QString* error = nullptr);

/// Keeps a live session on disk as it happens. The first append creates a file of the session's own in
/// the folder (named by the time to the millisecond and the process id, created exclusively, so two
/// instances never share one); every write is checked and the file only ever holds whole lines. After a
/// failure (no folder, a full disk) it stops writing for this session and error() names the path and the
/// system's reason; the caller shows it and still holds the events, to save them elsewhere.
///
/// Next to the file it keeps a marker, FILE.open, holding this process's identity (ProcessIdentity, as
/// JSON: pid, start_ticks, boot_id, started). The marker is removed when the session ends normally
/// (restart(), or the object is destroyed); a marker whose process is gone therefore marks a session whose
/// app died, which findUnfinishedSessions finds and the main window offers to reopen.
class SessionAutosave {
  public:
    /// Where sessions are kept: $RDMALAB_SESSIONS_DIR if set, else <app data>/sessions.
    static QString defaultDirectory();

    /// Files go to `directory` as PREFIXyyyyMMdd-HHmmss-zzz-PID.jsonl.
    explicit SessionAutosave(QString directory = defaultDirectory(), QString prefix = {});
    ~SessionAutosave(); ///< ends the session normally: closes the file, removes its marker
    SessionAutosave(const SessionAutosave&) = delete;
    SessionAutosave& operator=(const SessionAutosave&) = delete;
    /// Appends to exactly `path` instead (tests point it at /dev/full).
    void setFile(const QString& path);

    /// Appends the events as whole lines; false when this or an earlier write of the session failed.
    bool append(std::span<const TraceEvent> events);
    /// Ends the session normally (the marker goes): the next append starts a new file, and an earlier
    /// failure is forgotten.
    void restart();

    QString path() const { return file_.fileName(); } ///< this session's file; empty before the first append
    QString markerPath() const { return marker_; }    ///< its marker while the session is open; else empty
    bool failed() const { return !error_.isEmpty(); }
    QString error() const { return error_; } ///< "writing PATH failed: No space left on device", ...

  private:
    bool open();
    void writeMarker();
    bool failWriting();
    bool fail(const QString& message);

    QString directory_;
    QString prefix_;
    QString fixedPath_;
    QFile file_;
    QString marker_;
    qint64 whole_ = 0; ///< bytes of the file that are whole lines
    QString error_;
};

} // namespace rdmalab::app
