#include "tracefile.h"

#include "benchsession.h"
#include "labstate.h"
#include "lessoncontroller.h"
#include "verbscode.h"

#include "rdmalab/describe.hpp"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

#include <filesystem>

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
            (void)readOpReply(event);
            if (event.name == "devices") (void)readDevicesResult(event.data);
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

std::optional<std::vector<TraceEvent>> readTraceFile(const QString& path, TraceFileError& error) {
    error = {};
    error.file = path;
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
    std::vector<TraceEvent> events;
    std::size_t line_number = 0;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine();
        ++line_number;
        if (line.trimmed().isEmpty()) continue;
        if (events.size() == kMaxRecordingEvents) {
            error.line = line_number;
            return refuse(QStringLiteral("more than %1 events; rdmalab opens recordings of up to %1 events")
                              .arg(kMaxRecordingEvents));
        }
        TraceParseError parse_error;
        auto event = parseTraceLine(std::string_view(line.constData(), static_cast<std::size_t>(line.size())),
                                    parse_error);
        if (!event) {
            error.line = line_number;
            error.field = QString::fromStdString(parse_error.field);
            error.message = QString::fromStdString(parse_error.message);
            return std::nullopt;
        }
        events.push_back(std::move(*event));
    }
    if (events.empty()) return refuse(QStringLiteral("the file holds no trace events"));
    return events;
}

QString writeTraceFile(const QString& path, const std::vector<TraceEvent>& events) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    for (const auto& event : events) {
        std::string line = to_json_line(event);
        line.push_back('\n');
        if (file.write(line.data(), static_cast<qint64>(line.size())) != static_cast<qint64>(line.size())) {
            const QString reason = file.errorString();
            file.cancelWriting(); // the earlier file stays as it was
            return QStringLiteral("writing %1 failed: %2").arg(path, reason);
        }
    }
    if (!file.commit()) return QStringLiteral("saving %1 failed: %2").arg(path, file.errorString());
    return {};
}

QString SessionAutosave::defaultDirectory() {
    const QString configured = qEnvironmentVariable("RDMALAB_SESSIONS_DIR");
    if (!configured.isEmpty()) return configured;
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/sessions";
}

SessionAutosave::SessionAutosave(QString directory, QString prefix)
    : directory_(std::move(directory)), prefix_(std::move(prefix)) {}

void SessionAutosave::setFile(const QString& path) {
    restart();
    fixedPath_ = path;
}

bool SessionAutosave::append(const std::vector<TraceEvent>& events) {
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
            return true;
        }
        if (!file_.exists() || attempt == 1000)
            return fail(QStringLiteral("cannot create %1: %2").arg(file_.fileName(), file_.errorString()));
    }
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
