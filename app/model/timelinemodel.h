// Every trace event as a table row (time, endpoint, kind, summary), appended in batches; plus a filter by
// kind and endpoint. A row's summary is written when a view first asks for it: a million rows cost their
// events, not a million descriptions.
#pragma once

#include "rdmalab/format/trace.hpp"

#include <QAbstractTableModel>
#include <QSet>
#include <QSortFilterProxyModel>

#include <functional>
#include <span>
#include <vector>

namespace rdmalab::app {

class TimelineModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { TimeColumn, EndpointColumn, KindColumn, SummaryColumn, ColumnCount };
    enum Role { SeqRole = Qt::UserRole + 1, KindRole, EndpointRole, EventIndexRole };

    /// Where the rows' events are kept: a session's events, of which the first rowCount() are shown.
    using EventSource = std::function<std::span<const TraceEvent>()>;

    /// Keeps a copy of the events appended.
    explicit TimelineModel(QObject* parent = nullptr);
    /// Shows the events `source` keeps (append() then only says how many more there are), so that a long
    /// session is held once in memory.
    explicit TimelineModel(EventSource source, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// New rows for `events`, which follow the rows shown (with a source: the source's next events).
    void append(std::span<const TraceEvent> events);
    void clear();
    const TraceEvent& event(int row) const { return events()[static_cast<std::size_t>(row)]; }
    /// The events of the rows, in order.
    std::span<const TraceEvent> events() const;
    /// Row of the event with this sequence number, or -1.
    int rowOfSeq(std::uint64_t seq) const;

  private:
    QString summary(std::size_t row) const;

    EventSource source_;
    std::vector<TraceEvent> own_; ///< without a source: the events appended
    std::size_t rows_ = 0;
    mutable std::vector<QString> summaries_; ///< written on first use; a null string: not yet
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
