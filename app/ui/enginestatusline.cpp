// The engine's part of the main window's status line (see enginestatusline.h).
#include "enginestatusline.h"

#include "engineclient.h"

#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>

#include <cstdio>

namespace rdmalab::app {

EngineStatusLine::EngineStatusLine(EngineClient* engine, QStatusBar* bar, bool headless)
    : QObject(bar), engine_(engine), headless_(headless), hostLabel_(new QLabel),
      downloadBar_(new QProgressBar) {
    hostLabel_->setObjectName("engineHostLabel");
    hostLabel_->setTextFormat(Qt::PlainText);
    downloadBar_->setObjectName("engineDownloadBar");
    downloadBar_->setMaximumWidth(160);
    downloadBar_->setFormat(QStringLiteral("%v / %m MB"));
    downloadBar_->hide();
    bar->addPermanentWidget(downloadBar_);
    bar->addPermanentWidget(hostLabel_);

    connect(engine_, &EngineClient::startDownload, this, [this](qint64 done, qint64 total) {
        // Shown in MB (an int range), hidden once the download is complete.
        downloadBar_->setRange(0, static_cast<int>(total / 1000000) + 1);
        downloadBar_->setValue(static_cast<int>(done / 1000000));
        downloadBar_->setVisible(done < total);
    });
    connect(engine_, &EngineClient::startProgress, this, [this](const QString& text) {
        hostLabel_->setText(text);
        if (!headless_) return;
        // One line, rewritten in place while the VM boots; ended before anything else is written.
        std::fprintf(stderr, "\rrdmalab: %s", qPrintable(text));
        progressLineOpen_ = true;
    });
}

void EngineStatusLine::refresh(bool replay, bool stopped, const QString& device, bool helloSeen) {
    if (replay) {
        hostLabel_->clear();
    } else if (stopped) {
        hostLabel_->setText(tr("engine stopped · %1").arg(engine_->where()));
    } else if (!device.isEmpty()) {
        hostLabel_->setText(QStringLiteral("%1 · %2").arg(device, engine_->where()));
    } else if (helloSeen) {
        hostLabel_->setText(tr("no RDMA device · %1").arg(engine_->where()));
    }
}

void EngineStatusLine::engineDied() {
    endProgressLine();
    downloadBar_->hide();
}

void EngineStatusLine::endProgressLine() {
    if (!progressLineOpen_) return;
    std::fputc('\n', stderr);
    progressLineOpen_ = false;
}

} // namespace rdmalab::app
