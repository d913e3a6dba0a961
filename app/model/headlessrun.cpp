#include "headlessrun.h"

#include "savefile.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QImage>

#include <cstdio>

namespace rdmalab::app {

HeadlessRun::HeadlessRun(int status, QObject* parent) : QObject(parent), status_(status) {
    deadline_.setSingleShot(true);
    connect(&deadline_, &QTimer::timeout, this, [this] {
        if (finished_) return;
        std::fprintf(stderr, "rdmalab: %s\n", qPrintable(deadlineText_));
        emit deadlinePassed();
    });
}

void HeadlessRun::setQuitWhenDone(bool quit, std::function<void(int)> quitter) {
    quitWhenDone_ = quit;
    quitter_ = quitter ? std::move(quitter) : [](int status) {
        // Once the event loop is back: the window's own finishing work (a redraw, a signal) completes.
        QTimer::singleShot(0, qApp, [status] { QCoreApplication::exit(status); });
    };
}

bool HeadlessRun::finish(bool ok, const std::function<bool()>& writeOutputs) {
    if (finished_) return false;
    finished_ = true;
    deadline_.stop();
    const bool written = writeOutputs ? writeOutputs() : true;
    status_ = ok && written ? 0 : 1;
    if (quitWhenDone_ && quitter_) quitter_(status_);
    return true;
}

void HeadlessRun::armDeadline(int ms, const QString& what) {
    deadlineText_ = what;
    deadline_.start(ms);
}

bool saveScreenshot(const QImage& image, const QString& path) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QString error = image.save(&buffer, "PNG") ? writeFileAtomically(path, bytes)
                                               : QStringLiteral("Could not encode '%1' as PNG").arg(path);
    if (error.isEmpty()) return true;
    std::fprintf(stderr, "rdmalab: %s\n", qPrintable(error));
    return false;
}

} // namespace rdmalab::app
