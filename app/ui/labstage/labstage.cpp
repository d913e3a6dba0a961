// The stage: the three views of a run, laid out for the window that shows them, and fed together.
#include "labstage.h"

#include "datapath/datapathview.h"
#include "memoryview.h"
#include "qpstateview.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace rdmalab::app {

LabStage::LabStage(Arrangement arrangement, QWidget* parent)
    : QWidget(parent), dataPath_(new DataPathView), qpState_(new QpStateView), memory_(new MemoryView) {
    setObjectName(QStringLiteral("labStage"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    switch (arrangement) {
    case Arrangement::PictureBesideState:
        layout->addWidget(buildPictureBesideState());
        break;
    case Arrangement::Tabs:
        layout->addWidget(buildTabs());
        break;
    case Arrangement::PictureAboveState:
        layout->addWidget(buildPictureAboveState());
        break;
    }
    connect(dataPath_, &DataPathView::idle, this, &LabStage::idle);
    retranslateUi();
}

QWidget* LabStage::buildPictureBesideState() {
    auto* state = new QSplitter(Qt::Vertical);
    state->setObjectName(QStringLiteral("stateSplitter"));
    state->addWidget(qpState_);
    state->addWidget(memory_);
    splitter_ = new QSplitter(Qt::Horizontal);
    splitter_->setObjectName(QStringLiteral("stageSplitter"));
    splitter_->addWidget(dataPath_);
    splitter_->addWidget(state);
    splitter_->setStretchFactor(0, 3);
    splitter_->setStretchFactor(1, 1);
    splitter_->setCollapsible(0, false);
    splitter_->setSizes({1000, 330}); // proportions: most of the width to the picture
    return splitter_;
}

QWidget* LabStage::buildTabs() {
    tabs_ = new QTabWidget;
    tabs_->setObjectName(QStringLiteral("labPictures"));
    tabs_->addTab(dataPath_, QString());
    tabs_->addTab(qpBesideMemory(), QString());
    return tabs_;
}

QWidget* LabStage::buildPictureAboveState() {
    splitter_ = new QSplitter(Qt::Vertical);
    splitter_->setObjectName(QStringLiteral("stageSplitter"));
    splitter_->addWidget(dataPath_);
    splitter_->addWidget(qpBesideMemory());
    splitter_->setStretchFactor(0, 3);
    splitter_->setStretchFactor(1, 2);
    return splitter_;
}

QWidget* LabStage::qpBesideMemory() {
    auto* both = new QWidget;
    auto* row = new QHBoxLayout(both);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(qpState_, 1);
    row->addWidget(memory_, 1);
    return both;
}

void LabStage::showEvents(std::span<const TraceEvent> events, const LabState& state) {
    dataPath_->showEvents(events, state);
    qpState_->setState(state);
    memory_->setState(state);
}

void LabStage::showAt(std::span<const TraceEvent> events, const LabState& state) {
    dataPath_->showAt(events, state);
    qpState_->setState(state);
    memory_->setState(state);
}

void LabStage::clearPicture() {
    dataPath_->resetScene();
}

void LabStage::clear(const LabState& state) {
    clearPicture();
    qpState_->setState(state);
    memory_->setState(state);
}

void LabStage::highlightSeq(std::uint64_t seq) {
    dataPath_->highlightSeq(seq);
}

void LabStage::setStepTitles(const QHash<QString, QString>& titles) {
    dataPath_->setStepTitles(titles);
}

void LabStage::setPresentationMode(bool on) {
    dataPath_->setPresentationMode(on);
    qpState_->setPresentationMode(on);
    memory_->setPresentationMode(on);
}

void LabStage::setAnimationSpeed(double factor) {
    dataPath_->setAnimationSpeed(factor);
}

bool LabStage::isIdle() const {
    return dataPath_->isIdle();
}

void LabStage::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void LabStage::retranslateUi() {
    if (!tabs_) return;
    tabs_->setTabText(0, tr("Data path"));
    tabs_->setTabText(1, tr("QP states · memory"));
}

} // namespace rdmalab::app
