#include "recordingreader.h"

#include <QThread>

namespace rdmalab::app {

RecordingReader::RecordingReader(QObject* parent) : QObject(parent) {}

RecordingReader::~RecordingReader() {
    if (!thread_) return;
    cancel();
    thread_->wait();
    delete thread_;
}

bool RecordingReader::read(const QString& path, Done done) {
    if (thread_) return false;
    auto result = std::make_shared<Result>();
    result->path = path;
    progress_ = std::make_shared<ReadProgress>();
    thread_ = QThread::create([result, progress = progress_] {
        result->events = readTraceFile(result->path, result->error, &result->note, progress.get());
    });
    // QThread::finished is emitted on the reading thread; with this object as context, the handler runs on
    // this object's thread.
    connect(thread_, &QThread::finished, this, [this, result, done = std::move(done)] {
        thread_->deleteLater();
        thread_ = nullptr;
        progress_.reset();
        done(*result);
    });
    thread_->start();
    return true;
}

double RecordingReader::fractionRead() const {
    if (!progress_) return 0;
    const qint64 total = progress_->bytesTotal.load(std::memory_order_relaxed);
    return total > 0 ? double(progress_->bytesRead.load(std::memory_order_relaxed)) / double(total) : 0;
}

void RecordingReader::cancel() {
    if (progress_) progress_->cancelled = true;
}

} // namespace rdmalab::app
