#include "savefile.h"

#include <QFile>
#include <QSaveFile>

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace rdmalab::app {

namespace {

/// What kind of thing `mode` is, for a message.
QString kindOf(mode_t mode) {
    if (S_ISDIR(mode)) return QStringLiteral("a folder");
    if (S_ISCHR(mode) || S_ISBLK(mode)) return QStringLiteral("a device");
    if (S_ISFIFO(mode)) return QStringLiteral("a FIFO");
    if (S_ISSOCK(mode)) return QStringLiteral("a socket");
    return QStringLiteral("not a regular file");
}

} // namespace

QString writeFileAtomically(const QString& path, const QByteArray& bytes) {
    // stat() follows a symbolic link: a link to /dev/null is a device too.
    struct stat target {};
    if (::stat(QFile::encodeName(path).constData(), &target) == 0 && !S_ISREG(target.st_mode))
        return QStringLiteral("Did not save '%1': it is %2, not a file; choose a file name.")
            .arg(path, kindOf(target.st_mode));
    QSaveFile file(path);
    file.setDirectWriteFallback(false); // never write into the target itself, even where no temporary fits
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("Could not open '%1' for writing: %2").arg(path, file.errorString());
    if (file.write(bytes) != bytes.size()) {
        const QString error = file.errorString();
        file.cancelWriting();
        return QStringLiteral("Could not write '%1': %2; the earlier file is unchanged").arg(path, error);
    }
    if (!file.commit())
        return QStringLiteral("Could not save '%1': %2; the earlier file is unchanged")
            .arg(path, file.errorString());
    return {};
}

} // namespace rdmalab::app
