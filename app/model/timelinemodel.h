// Every trace event as a table row (time, endpoint, kind, summary), appended in batches; plus a filter by
// kind and endpoint.
#pragma once

#include "rdmalab/format/trace.hpp"

#include <QAbstractTableModel>
#include <QSet>
#include <QSortFilterProxyModel>

#include <vector>

namespace rdmalab::app {

class TimelineModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { TimeColumn, EndpointColumn, KindColumn, SummaryColumn, ColumnCount };
    enum Role { SeqRole = Qt::UserRole + 1, KindRole, EndpointRole, EventIndexRole };

    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void append(const std::vector<TraceEvent>& events);
    void clear();
    const TraceEvent& event(int row) const { return events_.at(static_cast<std::size_t>(row)); }
    const std::vector<TraceEvent>& events() const { return events_; }
    /// Row of the event with this sequence number, or -1.
    int rowOfSeq(std::uint64_t seq) const;

  private:
    std::vector<TraceEvent> events_;
    std::vector<QString> summaries_;
    std::uint64_t firstNs_ = 0;
};

class TimelineFilter : public QSortFilterProxyModel {
    Q_OBJECT
  public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    /// Empty: all kinds.
    void setKinds(const QSet<QString>& kinds);
    /// "A", "B", "-" or empty for all.
    void setEndpoint(const QString& endpoint);

  protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

  private:
    QSet<QString> kinds_;
    QString endpoint_;
};

} // namespace rdmalab::app
