#pragma once

#include <QRegularExpression>
#include <QString>

#include <string>

namespace rdmalab::app {

/// A UTF-8 std::string (the engine's and the lab library's text) as a QString.
inline QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

/// `value` as one word for a POSIX shell: left as it is when it is plain, else single-quoted.
inline QString shellQuoted(const QString& value) {
    // \A…\z, not ^…$: '$' also matches before a final line break, which would leave "x\n" unquoted.
    static const QRegularExpression plain(
        QRegularExpression::anchoredPattern(QStringLiteral("[A-Za-z0-9_./:=+-]+")));
    if (plain.match(value).hasMatch()) return value;
    QString quoted = value;
    quoted.replace(QLatin1Char('\''), QLatin1String("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

} // namespace rdmalab::app
