// The workbench session: free exploration on the device through the engine process (work.start, one
// work.do per action, work.reset, work.save). Each action is a lab step the engine validates and performs
// with one real verbs call; this model keeps the list of what was done with each outcome, the QP states
// and region bytes the engine read after each step, and the LabState the pictures are drawn from.
#pragma once

#include "engineclient.h"
#include "labstate.h"

#include <QAbstractListModel>
#include <QMap>
#include <QString>

#include <deque>
#include <string_view>
#include <vector>

namespace rdmalab::app {

class WorkbenchSession : public QAbstractListModel {
    Q_OBJECT
  public:
    struct StepRow {
        QString id;
        QString action;      ///< "post_send", ...
        QString description; ///< "post_send (qp A.qp, opcode write)"
        QString state;       ///< "done", "failed" (its verb failed: `error`) or "refused" (never ran)
        QString error;       ///< the engine's explanation: verb, errno or status and meaning, cause, fix
        QMap<QString, QString> results;
        int held = 0;        ///< expectations of the step (a troubleshooting lab's checks) that held
        QStringList broken;  ///< "KIND: expected DESCRIPTION, observed OBSERVED" per broken expectation
        nlohmann::json step; ///< the step as sent
        std::vector<TraceEvent> events; ///< the engine's events during the step (its verbs calls, ...)
    };
    enum Role { StateRole = Qt::UserRole + 1 };

    explicit WorkbenchSession(EngineClient* engine, QObject* parent = nullptr);

    /// An empty session on the engine (work.start); any earlier one is torn down.
    void start(const QString& language);
    /// Queues lab steps (docs/lab-format.md, as JSON) to perform one after the other; a step that is refused
    /// or whose verb fails drops the rest of the queue.
    void perform(std::vector<nlohmann::json> steps);
    /// Tears everything down (work.reset) and forgets the steps.
    void reset();
    /// Asks for the session as a lab file (work.save); `saved` or `failed` follows.
    void save(const QString& id, const QString& title, int chapter);

    bool started() const { return started_; }
    bool busy() const { return pendingId_ >= 0 || !queue_.empty(); }
    const StepRow& row(int index) const { return rows_.at(static_cast<std::size_t>(index)); }
    int size() const { return static_cast<int>(rows_.size()); }
    /// What the engine read after the last step: QP name -> state ("A.qp" -> "err").
    QMap<QString, QString> qpStates() const { return qpStates_; }
    /// Region name -> its first bytes as the engine read them after the last step.
    QMap<QString, QByteArray> regionBytes() const { return regionBytes_; }
    /// Objects made so far (a step's `as`), in order.
    QStringList objects() const;
    const LabState& state() const { return state_; }
    QString error() const { return error_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

  signals:
    void sessionStarted();
    void stepFinished(int index);
    /// Trace events of the session, already folded into state() (for the pictures).
    void eventsApplied(const std::vector<rdmalab::TraceEvent>& events);
    /// Every event of the session (its trace, command results included), as it arrives.
    void eventsRecorded(const std::vector<rdmalab::TraceEvent>& events);
    void sessionReset();
    /// The queue is empty and no command is pending.
    void idle();
    void saved(const QString& yaml);
    void failed(const QString& message);

  private:
    void onEvents(const std::vector<TraceEvent>& events);
    void onResult(const TraceEvent& result);
    /// Sends `cmd` (a protocol:: name) and waits for its answer (pendingCmd_, pendingId_).
    void send(std::string_view cmd, const nlohmann::json& fields);
    void sendNext();
    /// Forgets the session's steps, state, QP states and region bytes (a new session, or work.reset).
    void clearSession();

    EngineClient* engine_;
    std::vector<StepRow> rows_;
    std::deque<nlohmann::json> queue_;
    LabState state_;
    QMap<QString, QString> qpStates_;
    QMap<QString, QByteArray> regionBytes_;
    std::string_view pendingCmd_; ///< a protocol:: name
    QString error_;
    nlohmann::json pendingStep_;
    std::vector<TraceEvent> pendingEvents_; ///< events of the step being performed
    QString language_ = QStringLiteral("en");
    int pendingId_ = -1;
    bool started_ = false;
};

} // namespace rdmalab::app
