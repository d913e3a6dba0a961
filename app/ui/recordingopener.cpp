// How the main window opens recordings and reopens unfinished sessions (see recordingopener.h).
#include "recordingopener.h"

#include "recoverybanner.h"

#include "rdmalab/format/buildpaths.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMessageBox>
#include <QProgressBar>
#include <QStatusBar>
#include <QToolButton>

#include <cstdio>

namespace rdmalab::app {

namespace {

/// Where File ▸ Open recording starts: the installed example recordings, else the source tree's.
QString recordingsDirectory() {
    const QString beside = QCoreApplication::applicationDirPath() + "/../share/rdmalab/recordings";
    if (QDir(beside).exists()) return QDir(beside).canonicalPath();
    return QString::fromUtf8(build::source_dir()) + QStringLiteral("/tests/data");
}

} // namespace

RecordingOpener::RecordingOpener(QMainWindow* window, RecoveryBanner* recovery, bool headless,
                                 ShowReplay showReplay)
    : QObject(window), window_(window), recovery_(recovery), headless_(headless),
      showReplay_(std::move(showReplay)) {
    progressTimer_.setInterval(50);
    connect(&progressTimer_, &QTimer::timeout, this, &RecordingOpener::showProgress);
}

void RecordingOpener::choose() {
    const QString path = QFileDialog::getOpenFileName(window_, tr("Open recording"), recordingsDirectory(),
                                                      tr("Traces (*.jsonl)"));
    if (!path.isEmpty()) open(path);
}

void RecordingOpener::open(const QString& path, bool recovered, const std::function<void(bool)>& then) {
    // Read on a thread of its own: a recording of a million events takes seconds to parse, and the window
    // stays responsive meanwhile (Open is refused until it is done).
    const bool started = reader_->read(path, [this, recovered, then](RecordingReader::Result& result) {
        hideProgress();
        emit openEnabled(true);
        const bool opened = show(result, recovered);
        if (then) then(opened);
    });
    if (!started) {
        window_->statusBar()->showMessage(tr("Still opening the previous recording: wait until it is shown."),
                                          10000);
        if (then) then(false);
        return;
    }
    emit openEnabled(false);
    window_->statusBar()->showMessage(tr("Reading %1…").arg(QFileInfo(path).fileName()));
    progressTicks_ = 0;
    progressTimer_.start();
}

void RecordingOpener::cancel() {
    reader_->cancel();
}

void RecordingOpener::showProgress() {
    if (++progressTicks_ * progressTimer_.interval() < kShowProgressAfterMs) return;
    if (!progressBar_) {
        progressBar_ = new QProgressBar;
        progressBar_->setObjectName(QStringLiteral("openProgress"));
        progressBar_->setRange(0, 1000);
        progressBar_->setMaximumWidth(240);
        cancelButton_ = new QToolButton;
        cancelButton_->setObjectName(QStringLiteral("cancelOpenButton"));
        connect(cancelButton_, &QToolButton::clicked, this, &RecordingOpener::cancel);
        window_->statusBar()->addPermanentWidget(progressBar_);
        window_->statusBar()->addPermanentWidget(cancelButton_);
    }
    cancelButton_->setText(tr("Cancel"));
    progressBar_->setValue(static_cast<int>(reader_->fractionRead() * 1000));
    progressBar_->show();
    cancelButton_->show();
}

void RecordingOpener::hideProgress() {
    progressTimer_.stop();
    if (!progressBar_) return;
    progressBar_->hide();
    cancelButton_->hide();
}

bool RecordingOpener::show(RecordingReader::Result& result, bool recovered) {
    const QString& path = result.path;
    if (!result.events && result.error.cancelled) {
        const QString text = tr("Opening %1 was cancelled.").arg(QFileInfo(path).fileName());
        window_->statusBar()->showMessage(text, 10000);
        if (headless_) std::fprintf(stderr, "rdmalab: %s\n", qPrintable(text));
        return false;
    }
    if (!result.events) {
        const QString text = tr("Cannot open the recording:\n%1").arg(result.error.toString());
        window_->statusBar()->showMessage(text, 15000);
        if (headless_) {
            std::fprintf(stderr, "rdmalab: %s\n", qPrintable(text));
            emit headlessFailed();
        } else {
            QMessageBox box(QMessageBox::Warning, tr("Bad recording"), text, QMessageBox::Ok, window_);
            box.setTextFormat(Qt::PlainText); // the error quotes the file
            box.exec();
        }
        return false;
    }
    window_->statusBar()->clearMessage();
    shownEvents_ = result.events->size();
    showReplay_(
        std::move(*result.events),
        recovered ? tr("%1 (a live session that ended without being closed)").arg(QFileInfo(path).fileName())
                  : QFileInfo(path).fileName(),
        recovered);
    if (!result.note.isEmpty()) {
        window_->statusBar()->showMessage(tr("%1: %2").arg(QFileInfo(path).fileName(), result.note), 15000);
        std::fprintf(stderr, "rdmalab: %s: %s\n", qPrintable(path), qPrintable(result.note));
    }
    return true;
}

const std::vector<UnfinishedSession>& RecordingOpener::unfinishedSessions() const {
    return recovery_->sessions();
}

void RecordingOpener::reopenFirstUnfinished(const std::function<void(bool)>& then) {
    if (unfinishedSessions().empty()) {
        if (then) then(false);
        return;
    }
    const QString path = unfinishedSessions().front().path;
    open(path, true, [this, path, then](bool opened) {
        if (opened) {
            std::fprintf(stderr, "rdmalab: reopened %s as a replay: %zu events\n", qPrintable(path),
                         shownEvents_);
            // The offer may have moved on while the file was read: the session reopened is the one forgotten.
            if (!unfinishedSessions().empty() && unfinishedSessions().front().path == path)
                dismissFirstUnfinished();
        }
        if (then) then(opened);
    });
}

void RecordingOpener::dismissFirstUnfinished() {
    const QString error = recovery_->dismissFirst();
    if (error.isEmpty()) return;
    window_->statusBar()->showMessage(error, 15000);
    std::fprintf(stderr, "rdmalab: %s\n", qPrintable(error));
}

} // namespace rdmalab::app
