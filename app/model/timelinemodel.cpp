#include "timelinemodel.h"

#include "rdmalab/format/describe.hpp"

#include <QBrush>
#include <QColor>

namespace rdmalab::app {

TimelineModel::TimelineModel(QObject* parent) : QAbstractTableModel(parent) {}

TimelineModel::TimelineModel(EventSource source, QObject* parent)
    : QAbstractTableModel(parent), source_(std::move(source)) {}

std::span<const TraceEvent> TimelineModel::events() const {
    const std::span<const TraceEvent> all = source_ ? source_() : std::span<const TraceEvent>(own_);
    return all.first(std::min(rows_, all.size()));
}

int TimelineModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_);
}

int TimelineModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TimelineModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() < 0 || index.row() >= rowCount()) return {};
    const auto& e = event(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return QString::number(double(e.t_ns - firstNs_) / 1e6, 'f', 3);
        case EndpointColumn:
            return QString(QChar(static_cast<char>(e.endpoint)));
        case KindColumn:
            return QString::fromStdString(std::string(to_string(e.kind)));
        case SummaryColumn:
            return summary(static_cast<std::size_t>(index.row()));
        }
        return {};
    case Qt::ToolTipRole:
        return QString::fromStdString(to_json(e).dump(2));
    case Qt::ForegroundRole:
        if (e.kind == EventKind::Error) return QBrush(QColor(0xc0, 0x1c, 0x28));
        if (e.kind == EventKind::Wc && e.name != "IBV_WC_SUCCESS") return QBrush(QColor(0xc0, 0x1c, 0x28));
        return {};
    case SeqRole:
        return QVariant::fromValue<qulonglong>(e.seq);
    case KindRole:
        return QString::fromStdString(std::string(to_string(e.kind)));
    case EndpointRole:
        return QString(QChar(static_cast<char>(e.endpoint)));
    case EventIndexRole:
        return index.row();
    }
    return {};
}

QVariant TimelineModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case TimeColumn:
        return tr("Time (ms)");
    case EndpointColumn:
        return tr("Side");
    case KindColumn:
        return tr("Kind");
    case SummaryColumn:
        return tr("Event");
    }
    return {};
}

QString TimelineModel::summary(std::size_t row) const {
    if (summaries_.size() <= row) summaries_.resize(rows_);
    QString& text = summaries_[row];
    if (text.isNull()) {
        std::string line = describe(events()[row]);
        // The timeline shows one line per event; details are in the tooltip and the inspector.
        if (auto nl = line.find('\n'); nl != std::string::npos) line.resize(nl);
        text = QString::fromStdString(line);
        if (text.isNull()) text = QLatin1String(""); // described as nothing: empty, and not asked again
    }
    return text;
}

void TimelineModel::append(std::span<const TraceEvent> events) {
    if (events.empty()) return;
    if (rows_ == 0) firstNs_ = events.front().t_ns;
    const int first = rowCount();
    beginInsertRows({}, first, first + static_cast<int>(events.size()) - 1);
    if (!source_) own_.insert(own_.end(), events.begin(), events.end());
    rows_ += events.size();
    endInsertRows();
}

void TimelineModel::clear() {
    beginResetModel();
    own_.clear();
    rows_ = 0;
    summaries_.clear();
    firstNs_ = 0;
    endResetModel();
}

int TimelineModel::rowOfSeq(std::uint64_t seq) const {
    const auto all = events();
    for (std::size_t i = all.size(); i-- > 0;)
        if (all[i].seq == seq) return static_cast<int>(i);
    return -1;
}

void TimelineFilter::setKinds(const QSet<QString>& kinds) {
    kinds_ = kinds;
    invalidateFilter();
}

void TimelineFilter::setEndpoint(const QString& endpoint) {
    endpoint_ = endpoint;
    invalidateFilter();
}

bool TimelineFilter::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const auto index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (!kinds_.isEmpty() && !kinds_.contains(index.data(TimelineModel::KindRole).toString())) return false;
    if (!endpoint_.isEmpty() && index.data(TimelineModel::EndpointRole).toString() != endpoint_) return false;
    return true;
}

} // namespace rdmalab::app
