#include "tracefile.h"

#include "benchsession.h"
#include "labstate.h"
#include "lessoncontroller.h"
#include "savefile.h"
#include "verbscode.h"

#include "rdmalab/format/describe.hpp"
#include "rdmalab/format/protocol.hpp"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <future>

namespace rdmalab::app {

QString TraceFileError::toString() const {
    if (line == 0) return QStringLiteral("%1: %2").arg(file, message);
    return QStringLiteral("%1: line %2: field '%3': %4").arg(file).arg(line).arg(field, message);
}

std::optional<FieldError> checkEventFields(const TraceEvent& event) {
    try {
        (void)commandId(event);
        LabState().apply(event);
        BenchSession::checkFields(event);
        if (event.kind == EventKind::Result) {
            (void)readLessonReply(event);
            if (event.name == protocol::kDevices) (void)readDevicesResult(event.data);
        }
        (void)describe(event);
        (void)verbsCode(event);
    } catch (const FieldError& error) {
        return error;
    }
    return std::nullopt;
}

std::optional<TraceEvent> parseTraceLine(std::string_view line, TraceParseError& error) {
    auto event = parse_json_line(line, error);
    if (!event) return std::nullopt;
    if (const auto bad = checkEventFields(*event)) {
        error.field = bad->field();
        error.message = bad->problem();
        return std::nullopt;
    }
    return event;
}

bool recordingHoldsMeasurements(const QString& path) {
    const QFileInfo info(path);
    if (!info.isFile() || info.size() > kMaxRecordingBytes) return false;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return false;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine();
        if (!line.contains("measure")) continue;
        TraceParseError error;
        const auto event =
            parse_json_line(std::string_view(line.constData(), static_cast<std::size_t>(line.size())), error);
        if (event && event->kind == EventKind::Measure) return true;
    }
    return false;
}

namespace {

/// The events of some whole lines of a recording, up to the first that does not parse.
struct ParsedLines {
    std::vector<TraceEvent> events;
    std::vector<std::size_t> lines; ///< each event's line number (1-based)
    struct Failure {
        std::size_t line = 0;
        TraceParseError error;
        bool incomplete_last_line = false; ///< the file's last line, with no newline after it
    };
    std::optional<Failure> failure;
};

/// Parses `text` (lines; the first is line `lines_before` + 1); `ends_file`: its last line is the file's.
ParsedLines parseTraceLines(std::string_view text, std::size_t lines_before, bool ends_file) {
    ParsedLines out;
    std::size_t line_number = lines_before;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        const std::string_view line = text.substr(0, end == std::string_view::npos ? text.size() : end + 1);
        text.remove_prefix(line.size());
        ++line_number;
        if (QByteArray::fromRawData(line.data(), static_cast<qsizetype>(line.size())).trimmed().isEmpty())
            continue;
        TraceParseError parse_error;
        auto event = parseTraceLine(line, parse_error);
        if (!event) {
            out.failure = ParsedLines::Failure{line_number, parse_error,
                                               ends_file && text.empty() && line.back() != '\n'};
            return out;
        }
        out.events.push_back(std::move(*event));
        out.lines.push_back(line_number);
    }
    return out;
}

} // namespace

std::optional<std::vector<TraceEvent>> readTraceFile(const QString& path, TraceFileError& error,
                                                     QString* note, ReadProgress* progress) {
    error = {};
    error.file = path;
    if (note) note->clear();
    // Checked before opening: opening a FIFO blocks until a writer comes, and reading a device or a
    // huge file never ends. Real recordings are kilobytes to a few megabytes.
    const QFileInfo info(path);
    auto refuse = [&](const QString& message) -> std::optional<std::vector<TraceEvent>> {
        error.message = message;
        return std::nullopt;
    };
    if (info.isDir()) return refuse(QStringLiteral("is a folder, not a recording (a .jsonl file)"));
    if (info.exists() && !info.isFile())
        return refuse(QStringLiteral("is not a regular file (a FIFO, socket or device); a recording is a "
                                     ".jsonl file"));
    if (info.size() > kMaxRecordingBytes)
        return refuse(QStringLiteral("is %1 MiB; rdmalab opens recordings of up to %2 MiB")
                          .arg(info.size() >> 20)
                          .arg(kMaxRecordingBytes >> 20));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return refuse(QStringLiteral("cannot open: %1").arg(file.errorString()));
    if (progress) progress->bytesTotal = file.size();
    // The file is read in chunks of whole lines; each chunk is parsed in two halves at once (parsing, not
    // reading, is what takes the time: a million events parse in seconds), then the halves are taken in
    // order and checked as one sequence.
    constexpr qint64 kChunkBytes = 8 << 20;
    std::vector<TraceEvent> events;
    std::size_t line_number = 0; // lines before the chunk
    qint64 bytes_read = 0;
    while (!file.atEnd()) {
        // QIODevice::read(n) allocates n bytes first: a small file gets a buffer of its own size (reading
        // hundreds of small recordings allocated 8 MiB each, which AddressSanitizer makes slow).
        const qint64 left = file.isSequential() ? kChunkBytes : file.size() - file.pos();
        QByteArray chunk = file.read(std::clamp<qint64>(left, 1, kChunkBytes));
        if (!chunk.endsWith('\n') && !file.atEnd()) chunk += file.readLine();
        bytes_read += chunk.size();
        if (progress) {
            progress->bytesRead.store(bytes_read, std::memory_order_relaxed);
            if (progress->cancelled.load(std::memory_order_relaxed)) {
                error.cancelled = true;
                error.line = line_number + 1;
                return refuse(QStringLiteral("opening was cancelled"));
            }
        }
        const bool ends_file = file.atEnd();
        const std::string_view text(chunk.constData(), static_cast<std::size_t>(chunk.size()));
        const std::size_t half = text.size() / 2;
        const std::size_t cut = half == 0 ? 0 : std::min(text.size(), text.find('\n', half) + 1);
        const std::string_view first = text.substr(0, cut), second = text.substr(cut);
        const auto first_lines = static_cast<std::size_t>(std::count(first.begin(), first.end(), '\n'));
        auto later = std::async(std::launch::async, [&] {
            return parseTraceLines(second, line_number + first_lines, ends_file);
        });
        ParsedLines pieces[2] = {parseTraceLines(first, line_number, ends_file && second.empty()),
                                 later.get()};
        line_number += first_lines +
                       static_cast<std::size_t>(std::count(second.begin(), second.end(), '\n')) +
                       (text.empty() || text.back() == '\n' ? 0 : 1);
        for (auto& piece : pieces) {
            for (std::size_t i = 0; i < piece.events.size(); ++i) {
                TraceEvent& event = piece.events[i];
                if (events.size() == kMaxRecordingEvents) {
                    error.line = piece.lines[i];
                    return refuse(
                        QStringLiteral("more than %1 events; rdmalab opens recordings of up to %1 events")
                            .arg(kMaxRecordingEvents));
                }
                // One tracer numbers its events 1, 2, 3…; a session header may start another tracer's
                // numbering (an engine started again). A number that does not increase otherwise means lines
                // were reordered, repeated or spliced in, and a replay would show a sequence that never
                // happened.
                if (!events.empty() && event.kind != EventKind::Session && event.seq <= events.back().seq) {
                    error.line = piece.lines[i];
                    error.field = QStringLiteral("seq");
                    error.message =
                        QStringLiteral("seq %1 comes after seq %2: the events are out of order or repeated "
                                       "(a recording lists each event once, in the order it happened)")
                            .arg(event.seq)
                            .arg(events.back().seq);
                    return std::nullopt;
                }
                events.push_back(std::move(event));
            }
            if (!piece.failure) continue;
            if (piece.failure->incomplete_last_line && !events.empty()) {
                // The writer stopped in the middle of its last line (an app killed while autosaving):
                // everything before it is whole.
                if (note)
                    *note = QStringLiteral("line %1 was incomplete (no newline at the end of the file) and "
                                           "was dropped; the %2 complete events before it were kept")
                                .arg(piece.failure->line)
                                .arg(events.size());
                return events;
            }
            error.line = piece.failure->line;
            error.field = QString::fromStdString(piece.failure->error.field);
            error.message = QString::fromStdString(piece.failure->error.message);
            return std::nullopt;
        }
    }
    if (events.empty()) return refuse(QStringLiteral("the file holds no trace events"));
    return events;
}

QString writeTraceFile(const QString& path, std::span<const TraceEvent> events) {
    QByteArray bytes;
    for (const auto& event : events) {
        const std::string line = to_json_line(event);
        bytes.append(line.data(), static_cast<qsizetype>(line.size()));
        bytes.append('\n');
    }
    return writeFileAtomically(path, bytes);
}

namespace {

const QString kMarkerSuffix = QStringLiteral(".open");
constexpr qint64 kMaxMarkerBytes = 4096;

QByteArray readSmallFile(const QString& path, qint64 limit) {
    const QFileInfo info(path);
    if (!info.isFile() || info.size() > limit) return {}; // never a FIFO or a device: they block or never end
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.read(limit) : QByteArray();
}

QString currentBootId() {
    return QString::fromLatin1(readSmallFile(QStringLiteral("/proc/sys/kernel/random/boot_id"), 256))
        .trimmed();
}

/// State (field 3) and start time (field 22) of /proc/PID/stat; false when there is no such process.
bool readProcStat(qint64 pid, char& state, quint64& startTicks) {
    // /proc files report a size of 0: read them without QFileInfo's size check.
    QFile file(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!file.open(QIODevice::ReadOnly)) return false;
    const QByteArray text = file.read(4096);
    // The command name (field 2) is in parentheses and may hold spaces and parentheses itself.
    const qsizetype close = text.lastIndexOf(')');
    if (close < 0) return false;
    const QList<QByteArray> fields = text.mid(close + 2).split(' '); // fields 3, 4, ...
    if (fields.size() < 20) return false;
    state = fields[0].isEmpty() ? '?' : fields[0][0];
    bool ok = false;
    startTicks = fields[19].toULongLong(&ok);
    return ok;
}

std::optional<ProcessIdentity> readMarker(const QString& path, QDateTime& started) {
    const QByteArray text = readSmallFile(path, kMaxMarkerBytes);
    const auto json = nlohmann::json::parse(text.constData(), text.constData() + text.size(), nullptr, false);
    if (!json.is_object()) return std::nullopt;
    try {
        const Fields fields(json, "marker");
        ProcessIdentity owner;
        const auto pid = fields.find<std::int64_t>("pid");
        if (!pid) return std::nullopt;
        owner.pid = *pid;
        owner.startTicks = fields.get<std::uint64_t>("start_ticks", 0);
        owner.bootId = QString::fromStdString(fields.text("boot_id", ""));
        started =
            QDateTime::fromString(QString::fromStdString(fields.text("started", "")), Qt::ISODateWithMs);
        return owner;
    } catch (const FieldError&) {
        return std::nullopt;
    }
}

} // namespace

ProcessIdentity ProcessIdentity::current() {
    ProcessIdentity identity;
    identity.pid = QCoreApplication::applicationPid();
    char state = 0;
    if (!readProcStat(identity.pid, state, identity.startTicks)) identity.startTicks = 0;
    identity.bootId = currentBootId();
    return identity;
}

bool ProcessIdentity::isRunning() const {
    if (pid <= 0) return false;
    if (!bootId.isEmpty()) {
        const QString now = currentBootId();
        if (!now.isEmpty() && now != bootId) return false; // written before the machine restarted
    }
    char state = 0;
    quint64 ticks = 0;
    if (readProcStat(pid, state, ticks)) {
        if (state == 'Z' || state == 'X') return false; // ended, not yet reaped by its parent
        return startTicks == 0 || ticks == startTicks;  // another start time: the pid was reused
    }
    // No /proc entry to read: ask the kernel whether the pid exists at all.
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

std::vector<UnfinishedSession> findUnfinishedSessions(const QString& directory) {
    std::vector<UnfinishedSession> found;
    const QDir dir(directory);
    const QStringList markers =
        dir.entryList({QStringLiteral("*.jsonl") + kMarkerSuffix}, QDir::Files | QDir::Hidden, QDir::Name);
    for (const QString& name : markers) {
        UnfinishedSession session;
        session.marker = dir.filePath(name);
        session.path = session.marker.chopped(kMarkerSuffix.size());
        auto owner = readMarker(session.marker, session.started);
        if (!owner || owner->isRunning()) continue; // not ours to judge, or another instance's live session
        session.owner = *owner;
        if (!QFileInfo(session.path).isFile()) continue; // nothing to offer
        if (!session.started.isValid()) session.started = QFileInfo(session.path).lastModified();
        TraceFileError error;
        if (const auto events = readTraceFile(session.path, error, &session.note))
            session.events = events->size();
        else
            session.problem = error.toString();
        found.push_back(std::move(session));
    }
    std::stable_sort(found.begin(), found.end(),
                     [](const auto& a, const auto& b) { return a.started > b.started; });
    return found;
}

bool forgetUnfinishedSession(const UnfinishedSession& session, QString* error) {
    QFile marker(session.marker);
    if (!marker.exists() || marker.remove()) return true;
    if (error) *error = QStringLiteral("cannot remove %1: %2").arg(session.marker, marker.errorString());
    return false;
}

QString SessionAutosave::defaultDirectory() {
    QString configured = qEnvironmentVariable("RDMALAB_SESSIONS_DIR");
    if (!configured.isEmpty()) return configured;
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/sessions";
}

SessionAutosave::SessionAutosave(QString directory, QString prefix)
    : directory_(std::move(directory)), prefix_(std::move(prefix)) {}

SessionAutosave::~SessionAutosave() {
    restart();
}

void SessionAutosave::setFile(const QString& path) {
    restart();
    fixedPath_ = path;
}

bool SessionAutosave::append(std::span<const TraceEvent> events) {
    if (failed()) return false;
    if (events.empty()) return true;
    if (!file_.isOpen() && !open()) return false;
    std::string lines;
    for (const auto& event : events) {
        lines += to_json_line(event);
        lines += '\n';
    }
    // The file is unbuffered, so each write reaches the system and its failure shows here. A write that
    // stops part-way (the disk filled) is retried for the rest, which then fails with the reason.
    const auto size = static_cast<qint64>(lines.size());
    for (qint64 done = 0; done < size;) {
        const qint64 written = file_.write(lines.data() + done, size - done);
        if (written <= 0) return failWriting();
        done += written;
    }
    if (!file_.flush()) return failWriting();
    whole_ += size;
    return true;
}

void SessionAutosave::restart() {
    file_.close();
    if (!marker_.isEmpty()) QFile::remove(marker_); // the session ended normally
    marker_.clear();
    file_.setFileName(QString());
    whole_ = 0;
    error_.clear();
}

bool SessionAutosave::open() {
    if (!fixedPath_.isEmpty()) {
        file_.setFileName(fixedPath_);
        if (!file_.open(QIODevice::Append | QIODevice::Unbuffered))
            return fail(QStringLiteral("cannot open %1: %2").arg(fixedPath_, file_.errorString()));
        whole_ = file_.size();
        return true;
    }
    std::error_code error;
    std::filesystem::create_directories(directory_.toStdString(), error);
    if (error)
        return fail(QStringLiteral("cannot create the folder %1: %2")
                        .arg(directory_, QString::fromStdString(error.message())));
    // Milliseconds and the process id keep instances apart; creating exclusively (O_EXCL) with a counter
    // makes sure that even two sessions of one process in one millisecond never share a file.
    const QString stem =
        QStringLiteral("%1/%2%3-%4")
            .arg(directory_, prefix_,
                 QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")))
            .arg(QCoreApplication::applicationPid());
    for (int attempt = 1;; ++attempt) {
        file_.setFileName(attempt == 1 ? stem + ".jsonl"
                                       : QStringLiteral("%1-%2.jsonl").arg(stem).arg(attempt));
        if (file_.open(QIODevice::WriteOnly | QIODevice::NewOnly | QIODevice::Unbuffered)) {
            whole_ = 0;
            writeMarker();
            return true;
        }
        if (!file_.exists() || attempt == 1000)
            return fail(QStringLiteral("cannot create %1: %2").arg(file_.fileName(), file_.errorString()));
    }
}

void SessionAutosave::writeMarker() {
    // Written whole (a temporary file renamed into place), so a reader never sees half a marker. Without
    // it the session is still saved; only the offer to reopen it after a crash is lost.
    const ProcessIdentity self = ProcessIdentity::current();
    const nlohmann::json json = {
        {"pid", self.pid},
        {"start_ticks", self.startTicks},
        {"boot_id", self.bootId.toStdString()},
        {"started", QDateTime::currentDateTime().toString(Qt::ISODateWithMs).toStdString()}};
    const std::string text = json.dump() + "\n";
    QSaveFile marker(file_.fileName() + kMarkerSuffix);
    if (marker.open(QIODevice::WriteOnly) &&
        marker.write(text.data(), static_cast<qint64>(text.size())) == static_cast<qint64>(text.size()) &&
        marker.commit())
        marker_ = marker.fileName();
    else
        std::fprintf(stderr, "rdmalab: cannot write the autosave marker %s: %s\n",
                     qPrintable(marker.fileName()), qPrintable(marker.errorString()));
}

bool SessionAutosave::failWriting() {
    const QString reason = file_.errorString();
    // Cut back to the last whole line (a device such as /dev/full has no length to cut).
    if (!file_.isSequential()) file_.resize(whole_);
    file_.close();
    return fail(QStringLiteral("writing %1 failed: %2").arg(file_.fileName(), reason));
}

bool SessionAutosave::fail(const QString& message) {
    error_ = message;
    return false;
}

} // namespace rdmalab::app
