#include "workbenchsession.h"

#include "qtstrings.h"
#include "rdmalab/format/fields.hpp"

#include <QTimer>

namespace rdmalab::app {

namespace {

QString jsonText(const nlohmann::json& value) {
    return value.is_string() ? qs(value.get<std::string>()) : qs(value.dump());
}

} // namespace

WorkbenchSession::WorkbenchSession(EngineClient* engine, QObject* parent)
    : QAbstractListModel(parent), engine_(engine) {
    if (!engine_) return;
    connect(engine_, &EngineClient::eventsArrived, this, &WorkbenchSession::onEvents);
    connect(engine_, &EngineClient::engineDied, this, [this](const QString& message) {
        pendingId_ = -1;
        queue_.clear();
        started_ = false;
        error_ = message;
        emit failed(message);
        emit idle();
    });
}

void WorkbenchSession::send(std::string_view cmd, const nlohmann::json& fields) {
    if (!engine_ || !engine_->isRunning()) {
        queue_.clear();
        error_ = tr("The engine process is not running: use Engine > Restart engine.");
        emit failed(error_);
        emit idle();
        return;
    }
    pendingCmd_ = cmd;
    pendingId_ = engine_->send(protocolName(cmd), fields);
}

void WorkbenchSession::clearSession() {
    beginResetModel();
    rows_.clear();
    endResetModel();
    state_.reset();
    qpStates_.clear();
    regionBytes_.clear();
}

void WorkbenchSession::start(const QString& language) {
    if (pendingId_ >= 0) return;
    queue_.clear();
    clearSession();
    started_ = false;
    language_ = language;
    send(protocol::kWorkStart, {{"lang", language.toStdString()}});
}

void WorkbenchSession::perform(std::vector<nlohmann::json> steps) {
    for (auto& s : steps)
        queue_.push_back(std::move(s));
    if (pendingId_ < 0) sendNext();
}

void WorkbenchSession::sendNext() {
    if (pendingId_ >= 0) return; // one command at a time: its result sends the next
    if (queue_.empty()) {
        emit idle();
        return;
    }
    pendingStep_ = std::move(queue_.front());
    queue_.pop_front();
    pendingEvents_.clear();
    send(protocol::kWorkDo, {{"step", pendingStep_}});
}

void WorkbenchSession::reset() {
    if (pendingId_ >= 0) return;
    queue_.clear();
    send(protocol::kWorkReset, nlohmann::json::object());
}

void WorkbenchSession::save(const QString& id, const QString& title, int chapter) {
    if (busy()) return;
    send(protocol::kWorkSave,
         {{"lab_id", id.toStdString()}, {"title", title.toStdString()}, {"chapter", chapter}});
}

QStringList WorkbenchSession::objects() const {
    QStringList out;
    for (const auto& r : rows_)
        if (r.state == QLatin1String("done") && r.step.contains("as") && r.step["as"].is_string())
            out << qs(r.step["as"].get<std::string>());
    return out;
}

void WorkbenchSession::onEvents(const std::vector<TraceEvent>& events) {
    if (started_ || (pendingId_ >= 0 && pendingCmd_ == protocol::kWorkStart)) emit eventsRecorded(events);
    std::vector<TraceEvent> applied;
    for (const auto& e : events) {
        if (e.kind == EventKind::Result) {
            if (pendingId_ < 0) continue;
            try {
                const auto id = commandId(e);
                if (id && *id == pendingId_) onResult(e);
            } catch (const FieldError& error) {
                pendingId_ = -1;
                queue_.clear();
                error_ = tr("The engine's answer to %1 is malformed: %2")
                             .arg(protocolName(pendingCmd_), qs(error.what()));
                emit failed(error_);
                emit idle();
            }
            continue;
        }
        // The session event comes before work.start's answer; events of an earlier engine use do not count.
        if (!started_ && !(pendingId_ >= 0 && pendingCmd_ == protocol::kWorkStart)) continue;
        if (pendingId_ >= 0 && pendingCmd_ == protocol::kWorkDo && pendingEvents_.size() < 10000)
            pendingEvents_.push_back(e);
        try {
            state_.apply(e);
            applied.push_back(e);
        } catch (const FieldError&) {
            // EngineClient reports events with mistyped fields (protocolError); the pictures skip them.
        }
    }
    if (!applied.empty()) emit eventsApplied(applied);
}

void WorkbenchSession::onResult(const TraceEvent& result) {
    pendingId_ = -1;
    const Fields data(result.data, "data");
    const bool ok = data.get<bool>("ok", false);
    const std::string_view cmd = pendingCmd_;
    if (cmd == protocol::kWorkStart) {
        if (!ok) {
            error_ = qs(data.text("error", std::string(protocol::kWorkStart) + " failed"));
            emit failed(error_);
            emit idle();
            return;
        }
        started_ = true;
        emit sessionStarted();
        sendNext();
        return;
    }
    if (cmd == protocol::kWorkReset) {
        clearSession();
        emit sessionReset();
        sendNext(); // steps queued after the reset (Build the pair on an existing pair), else idle
        return;
    }
    if (cmd == protocol::kWorkSave) {
        if (ok)
            emit saved(qs(data.text("yaml")));
        else
            emit failed(qs(data.text("error", std::string(protocol::kWorkSave) + " failed")));
        emit idle();
        return;
    }
    // work.do
    StepRow row;
    row.step = pendingStep_;
    row.events = std::move(pendingEvents_);
    pendingEvents_.clear();
    row.action = qs(pendingStep_.value("do", std::string("note")));
    if (data.get<bool>("refused", false)) {
        row.state = QStringLiteral("refused");
        row.error = qs(data.text("error"));
        row.description = row.action;
    } else {
        if (const auto* performed = data.raw("performed"); performed && performed->is_object()) {
            row.step = *performed;
            const auto text = performed->find("text");
            if (text != performed->end() && text->is_object())
                row.description = qs(text->value(language_.toStdString(), text->value("en", std::string())));
        }
        // The engine's rendering: placeholders filled with the values the step saw.
        if (const QString text = qs(data.text("text")); !text.isEmpty()) row.description = text;
        row.id = qs(data.text("step"));
        row.state = ok ? QStringLiteral("done") : QStringLiteral("failed");
        row.error = qs(data.text("error"));
        const Fields outcome = data.object("outcome");
        if (const auto* results = outcome.raw("results"); results && results->is_object())
            for (const auto& [key, value] : results->items())
                row.results[qs(key)] = jsonText(value);
        for (const auto& x : outcome.objects("expectations")) {
            if (!x.get<bool>("applies", true)) continue;
            if (x.get<bool>("held", false))
                ++row.held;
            else
                row.broken << tr("%1: expected %2, observed %3")
                                  .arg(qs(x.text("kind")), qs(x.text("description")), qs(x.text("observed")));
        }
        if (const auto* snapshot = data.raw("snapshot"); snapshot && snapshot->is_object()) {
            qpStates_.clear();
            regionBytes_.clear();
            if (const auto qps = snapshot->find("qps"); qps != snapshot->end() && qps->is_object())
                for (const auto& [name, s] : qps->items())
                    qpStates_[qs(name)] = jsonText(s);
            if (const auto mrs = snapshot->find("mrs"); mrs != snapshot->end() && mrs->is_object())
                for (const auto& [name, m] : mrs->items())
                    if (m.is_object() && m.contains("hex") && m["hex"].is_string())
                        regionBytes_[qs(name)] =
                            QByteArray::fromHex(QByteArray::fromStdString(m["hex"].get<std::string>()));
        }
    }
    const int index = static_cast<int>(rows_.size());
    beginInsertRows({}, index, index);
    rows_.push_back(row);
    endInsertRows();
    if (row.state != QLatin1String("done")) queue_.clear();
    emit stepFinished(index);
    QTimer::singleShot(0, this, [this] {
        if (pendingId_ < 0) sendNext();
    });
}

int WorkbenchSession::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

QVariant WorkbenchSession::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(rows_.size())) return {};
    const auto& r = rows_[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole: {
        const QString mark = r.state == QLatin1String("done")     ? QStringLiteral("✓")
                             : r.state == QLatin1String("failed") ? QStringLiteral("✗")
                                                                  : QStringLiteral("⊘");
        return QStringLiteral("%1 %2. %3").arg(mark).arg(index.row() + 1).arg(r.description);
    }
    case StateRole:
        return r.state;
    case Qt::ToolTipRole:
        return r.error.isEmpty() ? r.description : r.error;
    default:
        return {};
    }
}

} // namespace rdmalab::app
