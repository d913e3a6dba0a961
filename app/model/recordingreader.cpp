#include "recordingreader.h"

#include <QThread>

namespace rdmalab::app {

RecordingReader::RecordingReader(QObject* parent) : QObject(parent) {}

RecordingReader::~RecordingReader() {
    if (!thread_) return;
    thread_->wait();
    delete thread_;
}

bool RecordingReader::read(const QString& path, Done done) {
    if (thread_) return false;
    auto result = std::make_shared<Result>();
    result->path = path;
    thread_ = QThread::create(
        [result] { result->events = readTraceFile(result->path, result->error, &result->note); });
    // QThread::finished is emitted on the reading thread; with this object as context, the handler runs on
    // this object's thread.
    connect(thread_, &QThread::finished, this, [this, result, done = std::move(done)] {
        thread_->deleteLater();
        thread_ = nullptr;
        done(*result);
    });
    thread_->start();
    return true;
}

} // namespace rdmalab::app
