#include "tracefile.h"

#include <QFile>
#include <QSaveFile>

namespace rdmalab::app {

QString TraceFileError::toString() const {
    if (line == 0) return QStringLiteral("%1: %2").arg(file, message);
    return QStringLiteral("%1: line %2: field '%3': %4").arg(file).arg(line).arg(field, message);
}

std::optional<std::vector<TraceEvent>> readTraceFile(const QString& path, TraceFileError& error) {
    error = {};
    error.file = path;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        error.message = QStringLiteral("cannot open: %1").arg(file.errorString());
        return std::nullopt;
    }
    std::vector<TraceEvent> events;
    std::size_t line_number = 0;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine();
        ++line_number;
        if (line.trimmed().isEmpty()) continue;
        TraceParseError parse_error;
        auto event = parse_json_line(
            std::string_view(line.constData(), static_cast<std::size_t>(line.size())), parse_error);
        if (!event) {
            error.line = line_number;
            error.field = QString::fromStdString(parse_error.field);
            error.message = QString::fromStdString(parse_error.message);
            return std::nullopt;
        }
        events.push_back(std::move(*event));
    }
    if (events.empty()) {
        error.message = QStringLiteral("the file holds no trace events");
        return std::nullopt;
    }
    return events;
}

QString writeTraceFile(const QString& path, const std::vector<TraceEvent>& events) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    for (const auto& event : events) {
        std::string line = to_json_line(event);
        line.push_back('\n');
        if (file.write(line.data(), static_cast<qint64>(line.size())) < 0)
            return QStringLiteral("writing %1 failed: %2").arg(path, file.errorString());
    }
    if (!file.commit()) return QStringLiteral("saving %1 failed: %2").arg(path, file.errorString());
    return {};
}

} // namespace rdmalab::app
