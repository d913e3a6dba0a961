// The timeline and the inspector of the main window.
#include "timelinepanel.h"

#include "timelinemodel.h"

#include <QComboBox>
#include <QEvent>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QStyle>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>

namespace rdmalab::app {

TimelinePanel::TimelinePanel(TimelineFilter* filter, QWidget* parent)
    : QSplitter(Qt::Horizontal, parent), filter_(filter), inspector_(new QTextBrowser),
      timelineBox_(new QWidget), timelineLabel_(nullptr), kindFilter_(new QComboBox),
      endpointFilter_(new QComboBox), timelineView_(nullptr) {
    setObjectName("bottomSplitter");
    inspector_->setObjectName("inspector");
    inspector_->setOpenExternalLinks(false);
    auto* timelineLayout = new QVBoxLayout(timelineBox_);
    timelineLayout->setContentsMargins(0, 0, 0, 0);
    auto* filters = new QHBoxLayout;
    kindFilter_->setObjectName("kindFilter");
    kindFilter_->addItem(QString(), QString()); // All kinds
    for (const char* k : {"step", "verb", "qp_state", "post_wr", "wc", "async", "data", "check", "error"})
        kindFilter_->addItem(k, QString(k));
    endpointFilter_->setObjectName("endpointFilter");
    endpointFilter_->addItem(QString(), QString()); // texts: retranslateUi()
    endpointFilter_->addItem(QString(), "A");
    endpointFilter_->addItem(QString(), "B");
    endpointFilter_->addItem(QString(), "-");
    timelineLabel_ = new QLabel;
    timelineLabel_->setObjectName("timelineLabel");
    filters->addWidget(timelineLabel_);
    filters->addStretch();
    filters->addWidget(kindFilter_);
    filters->addWidget(endpointFilter_);
    timelineLayout->addLayout(filters);
    timelineView_ = new QTableView;
    timelineView_->setObjectName("timelineView");
    timelineView_->setModel(filter_);
    timelineView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    timelineView_->setSelectionMode(QAbstractItemView::SingleSelection);
    timelineView_->verticalHeader()->hide();
    timelineView_->horizontalHeader()->setStretchLastSection(true);
    fitColumns();
    timelineView_->setWordWrap(false);
    timelineLayout->addWidget(timelineView_);
    timelineBox_->setObjectName("timelinePanel");
    addWidget(timelineBox_);
    addWidget(inspector_);
    setStretchFactor(0, 3);
    setStretchFactor(1, 2);

    connect(kindFilter_, &QComboBox::currentIndexChanged, this, [this] {
        const QString kind = kindFilter_->currentData().toString();
        filter_->setKinds(kind.isEmpty() ? QSet<QString>{} : QSet<QString>{kind});
    });
    connect(endpointFilter_, &QComboBox::currentIndexChanged, this,
            [this] { filter_->setEndpoint(endpointFilter_->currentData().toString()); });
    connect(timelineView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid()) emit eventSelected(current.data(TimelineModel::SeqRole).toULongLong());
            });
    retranslateUi();
}

void TimelinePanel::scrollToBottom() {
    timelineView_->scrollToBottom();
}

void TimelinePanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::FontChange) fitColumns();
    QSplitter::changeEvent(event);
}

void TimelinePanel::retranslateUi() {
    timelineLabel_->setText(tr("Timeline"));
    kindFilter_->setItemText(0, tr("All kinds"));
    endpointFilter_->setItemText(0, tr("Both sides"));
    endpointFilter_->setItemText(1, tr("A (requester)"));
    endpointFilter_->setItemText(2, tr("B (responder)"));
    endpointFilter_->setItemText(3, tr("Device-wide"));
}

void TimelinePanel::fitColumns() {
    const auto* header = timelineView_->horizontalHeader();
    const QFontMetrics headerFont = header->fontMetrics();
    const QFontMetrics cellFont = timelineView_->fontMetrics();
    const int padding = 2 * style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header) +
                        2 * headerFont.averageCharWidth();
    // The widest cell each column usually holds: a time of several seconds, a side, the longest kind.
    const std::pair<int, const char*> columns[] = {{TimelineModel::TimeColumn, "00000.000"},
                                                   {TimelineModel::EndpointColumn, "B"},
                                                   {TimelineModel::KindColumn, "qp_state"}};
    for (const auto& [column, widest] : columns) {
        const QString title = filter_->headerData(column, Qt::Horizontal).toString();
        timelineView_->setColumnWidth(column, std::max(headerFont.horizontalAdvance(title),
                                                       cellFont.horizontalAdvance(QLatin1String(widest))) +
                                                  padding);
    }
}

} // namespace rdmalab::app
