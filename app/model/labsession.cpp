#include "labsession.h"

#include "qtstrings.h"
#include "rdmalab/format/fields.hpp"
#include "rdmalab/labs/lab.hpp"

#include <QFile>
#include <QFileInfo>
#include <QTimer>

#include <algorithm>

namespace rdmalab::app {

namespace {

/// The first sentence of `text` (up to ". " or "。" or a line end), at most `max` characters (then "…").
QString firstSentence(const QString& text, int max) {
    QString out = text.simplified();
    for (const QString& end : {QStringLiteral(". "), QStringLiteral("。"), QStringLiteral(": ")}) {
        const qsizetype at = out.indexOf(end);
        if (at > 0) out = out.left(at + (end == QStringLiteral(": ") ? 0 : 1));
    }
    if (out.size() > max) out = out.left(max - 1).trimmed() + QStringLiteral("…");
    return out;
}

/// A step's prediction as the engine asks it ({"question", "choices": [{"value", "text"}]}).
void readAsk(const nlohmann::json& ask, LabSession::Prediction& prediction) {
    const Fields f(ask, "ask");
    prediction.question = qs(f.text("question"));
    prediction.choices.clear();
    for (const auto& c : f.objects("choices"))
        prediction.choices.push_back({qs(c.text("value")), qs(c.text("text"))});
}

/// Adds each member of `object` (when it is one) to `into`, a string as its text, anything else as JSON.
void addTexts(const nlohmann::json* object, QMap<QString, QString>& into) {
    if (object == nullptr || !object->is_object()) return;
    for (const auto& [key, value] : object->items())
        into[qs(key)] = value.is_string() ? qs(value.get<std::string>()) : qs(value.dump());
}

/// A step as lab.start lists it: before it ran.
LabSession::StepRow readPlannedStep(const Fields& s) {
    LabSession::StepRow row;
    row.id = qs(s.text("id"));
    row.title = qs(s.text("title"));
    row.action = qs(s.text("action"));
    row.predicts = s.get<bool>("predict", false);
    return row;
}

/// An end-of-lab question as lab.start lists it.
LabSession::Question readQuestion(const Fields& q) {
    LabSession::Question question;
    question.multiple = q.text("kind") == "multiple";
    question.text = qs(q.text("text"));
    int i = 0;
    for (const auto& c : q.objects("choices")) {
        question.choices << qs(c.text("text"));
        if (c.get<bool>("correct", false)) question.correct << i;
        ++i;
    }
    question.explanation = qs(q.text("explanation"));
    return question;
}

/// One expectation's verdict as lab.step's outcome reports it.
LabSession::Verdict readVerdict(const Fields& x) {
    LabSession::Verdict v;
    v.kind = qs(x.text("kind"));
    v.description = qs(x.text("description"));
    v.observed = qs(x.text("observed"));
    v.why = qs(x.text("why"));
    const bool applies = x.get<bool>("applies", true);
    v.verdict = !applies ? QStringLiteral("not_applicable")
                         : (x.get<bool>("held", false) ? QStringLiteral("held") : QStringLiteral("broken"));
    return v;
}

/// Folds lab.step's answer (`data`, `ok` as it says) into the row of the step that ran: its state, text,
/// error, results, verdicts and the answer to its prediction.
void readStepAnswer(const Fields& data, bool ok, LabSession::StepRow& row) {
    row.state = qs(data.text("state", "broken"));
    row.text = qs(data.text("text"));
    if (!data.text("title").empty()) row.title = qs(data.text("title"));
    row.error = qs(data.text("error"));
    const Fields outcome = data.object("outcome");
    row.skippedBecause = qs(outcome.text("skipped_because"));
    row.results.clear();
    addTexts(outcome.raw("results"), row.results);
    row.verdicts.clear();
    for (const auto& x : outcome.objects("expectations"))
        row.verdicts.push_back(readVerdict(x));
    if (const auto* predicted = outcome.raw("predicted"); predicted && predicted->is_object()) {
        const Fields p(*predicted, "predicted");
        row.prediction.answer = qs(p.text("answer"));
        row.prediction.why = qs(p.text("why"));
    }
    if (!ok && row.error.isEmpty()) row.error = qs(data.text("error"));
}

} // namespace

QString LabSession::Prediction::choiceText(const QString& value) const {
    for (const auto& c : choices)
        if (c.value == value) return c.text;
    return value;
}

bool LabSession::Question::right() const {
    QList<int> a = given, b = correct;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    return answered && a == b;
}

QString LabSession::kindName(const QString& kind) {
    // The kinds of docs/lab-format.md and the runner's implicit ones; the English names are the kinds.
    static const QMap<QString, const char*> names = {
        {QStringLiteral("succeeds"), QT_TR_NOOP("succeeds")},
        {QStringLiteral("fails"), QT_TR_NOOP("fails")},
        {QStringLiteral("completions"), QT_TR_NOOP("completions")},
        {QStringLiteral("completion"), QT_TR_NOOP("completion")},
        {QStringLiteral("qp_state"), QT_TR_NOOP("qp_state")},
        {QStringLiteral("bytes"), QT_TR_NOOP("bytes")},
        {QStringLiteral("compare"), QT_TR_NOOP("compare")},
        {QStringLiteral("says"), QT_TR_NOOP("says")},
        {QStringLiteral("cm_event"), QT_TR_NOOP("cm_event")},
        {QStringLiteral("event"), QT_TR_NOOP("event")},
        {QStringLiteral("async_event"), QT_TR_NOOP("async_event")},
        {QStringLiteral("prediction"), QT_TR_NOOP("prediction")}};
    const auto it = names.constFind(kind);
    return it == names.constEnd() ? kind : tr(it.value());
}

QString LabSession::stateName(const QString& state) {
    if (state == QLatin1String("held")) return tr("held", "a step's state");
    if (state == QLatin1String("broken")) return tr("broken", "a step's state");
    if (state == QLatin1String("skipped")) return tr("skipped", "a step's state");
    if (state == QLatin1String("not_run")) return tr("not run", "a step's state");
    if (state == QLatin1String("pending")) return tr("pending", "a step's state");
    return state;
}

LabSession::LabSession(EngineClient* engine, QObject* parent) : QAbstractListModel(parent), engine_(engine) {
    if (engine_) connect(engine_, &EngineClient::eventsArrived, this, &LabSession::onEvents);
    if (engine_)
        connect(engine_, &EngineClient::engineDied, this, [this](const QString& message) {
            pendingId_ = -1;
            playing_ = false;
            error_ = message;
            emit failed(message);
        });
}

void LabSession::send(std::string_view cmd, const nlohmann::json& fields) {
    if (!engine_ || !engine_->isRunning()) {
        error_ = tr("The engine process is not running: use Engine > Restart engine.");
        playing_ = false;
        emit failed(error_);
        return;
    }
    pendingCmd_ = cmd;
    pendingId_ = engine_->send(protocolName(cmd), fields);
}

namespace {

/// The text of the lab file at `path`, read only when it is a regular file of at most kMaxLabBytes; else
/// empty with `error` saying why.
QByteArray readLabFile(const QString& path, QString& error) {
    const QFileInfo info(path);
    if (!info.exists()) {
        error = LabSession::tr("The lab file %1 does not exist.").arg(path);
        return {};
    }
    if (!info.isFile() || info.size() > static_cast<qint64>(labs::kMaxLabBytes)) {
        error = LabSession::tr("%1 is not a lab file: a lab is a regular file of at most 1 MiB.").arg(path);
        return {};
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        error = LabSession::tr("Could not read the lab file %1: %2").arg(path, file.errorString());
        return {};
    }
    QByteArray text = file.read(static_cast<qint64>(labs::kMaxLabBytes) + 1);
    if (text.size() > static_cast<qint64>(labs::kMaxLabBytes)) {
        error = LabSession::tr("%1 is not a lab file: a lab is a regular file of at most 1 MiB.").arg(path);
        return {};
    }
    return text;
}

} // namespace

void LabSession::start(const QString& lab, const QMap<QString, QString>& parameters, const QString& language,
                       const QString& seed) {
    if (busy()) return;
    lab_ = lab;
    parameters_ = parameters;
    seed_ = seed;
    seededValues_.clear();
    language_ = language;
    beginResetModel();
    rows_.clear();
    questions_.clear();
    events_.clear();
    state_.reset();
    nextStep_ = 0;
    started_ = false;
    done_ = false;
    playing_ = false;
    allHeld_ = false;
    error_.clear();
    endResetModel();
    nlohmann::json params = nlohmann::json::object();
    for (auto it = parameters.begin(); it != parameters.end(); ++it)
        params[it.key().toStdString()] = it.value().toStdString();
    nlohmann::json command = {
        {"params", params}, {"lang", language.toStdString()}, {"seed", seed.toStdString()}};
    if (labs::names_a_lab_file(lab.toStdString())) {
        // A lab of the user's own goes as its text: the engine opens no file a command names, and over SSH
        // or in the VM the file is not there anyway.
        QString error;
        const QByteArray text = readLabFile(lab, error);
        if (!error.isEmpty()) {
            error_ = error;
            emit failed(error_);
            return;
        }
        command["text"] = text.toStdString();
        command["name"] = lab.toStdString();
    } else {
        command["lab"] = lab.toStdString();
    }
    send(protocol::kLabStart, command);
}

void LabSession::step() {
    if (busy() || !started_ || done_) return;
    if (stoppedBefore()) {
        playing_ = false;
        return;
    }
    if (needsPrediction()) {
        if (!playing_) return;
        if (!skipPredictions_) {
            playing_ = false;
            emit predictionNeeded(nextStep_);
            return;
        }
        skipPrediction();
    }
    send(protocol::kLabStep, nlohmann::json::object());
}

void LabSession::play() {
    playing_ = true;
    step();
}

bool LabSession::needsPrediction() const {
    if (!started_ || done_ || nextStep_ < 0 || nextStep_ >= static_cast<int>(rows_.size())) return false;
    const auto& row = rows_[static_cast<std::size_t>(nextStep_)];
    return row.predicts && !row.prediction.question.isEmpty() && !row.prediction.locked() &&
           !row.prediction.skipped;
}

void LabSession::lockPrediction(const QString& value) {
    if (!needsPrediction()) return;
    auto& p = rows_[static_cast<std::size_t>(nextStep_)].prediction;
    const bool offered =
        std::any_of(p.choices.begin(), p.choices.end(), [&](const auto& c) { return c.value == value; });
    if (!offered) return;
    p.chosen = value;
    emit dataChanged(index(nextStep_), index(nextStep_));
}

void LabSession::skipPrediction() {
    if (!needsPrediction()) return;
    rows_[static_cast<std::size_t>(nextStep_)].prediction.skipped = true;
}

int LabSession::predictionsMade() const {
    return static_cast<int>(
        std::count_if(rows_.begin(), rows_.end(), [](const auto& r) { return r.prediction.marked(); }));
}

int LabSession::predictionsRight() const {
    return static_cast<int>(
        std::count_if(rows_.begin(), rows_.end(), [](const auto& r) { return r.prediction.right(); }));
}

bool LabSession::answerQuestion(int index, const QList<int>& chosen) {
    if (index < 0 || index >= static_cast<int>(questions_.size())) return false;
    auto& q = questions_[static_cast<std::size_t>(index)];
    q.given = chosen;
    q.answered = !chosen.isEmpty();
    return q.right();
}

int LabSession::questionsAnswered() const {
    return static_cast<int>(
        std::count_if(questions_.begin(), questions_.end(), [](const auto& q) { return q.answered; }));
}

int LabSession::questionsRight() const {
    return static_cast<int>(
        std::count_if(questions_.begin(), questions_.end(), [](const auto& q) { return q.right(); }));
}

void LabSession::pause() {
    playing_ = false;
}

void LabSession::reset() {
    if (busy() || lab_.isEmpty()) return;
    start(lab_, parameters_, language_, seed_);
}

int LabSession::heldCount() const {
    int n = 0;
    for (const auto& r : rows_)
        for (const auto& v : r.verdicts)
            n += v.verdict == QLatin1String("held") ? 1 : 0;
    return n;
}

int LabSession::brokenCount() const {
    int n = 0;
    for (const auto& r : rows_)
        for (const auto& v : r.verdicts)
            n += v.verdict == QLatin1String("broken") ? 1 : 0;
    return n;
}

QMap<QString, QString> LabSession::device() const {
    for (const auto& r : rows_)
        if (r.action == QLatin1String("open_device") && r.results.contains(QStringLiteral("name")))
            return r.results;
    return {};
}

void LabSession::onEvents(const std::vector<TraceEvent>& events) {
    if (started_ || pendingId_ >= 0) {
        events_.insert(events_.end(), events.begin(), events.end());
        emit eventsRecorded(events);
        std::vector<TraceEvent> applied;
        for (const auto& e : events) {
            if (e.kind == EventKind::Result) continue;
            try {
                state_.apply(e);
                applied.push_back(e);
            } catch (const FieldError&) {
                // EngineClient reports events with mistyped fields (protocolError); the pictures skip them.
            }
        }
        if (!applied.empty()) emit eventsApplied(applied);
    }
    for (const auto& e : events) {
        if (e.kind != EventKind::Result || pendingId_ < 0) continue;
        try {
            const auto id = commandId(e);
            if (!id || *id != pendingId_) continue;
            onResult(e);
        } catch (const FieldError& error) {
            pendingId_ = -1;
            playing_ = false;
            error_ = tr("The engine's answer to %1 is malformed: %2")
                         .arg(protocolName(pendingCmd_), qs(error.what()));
            emit failed(error_);
        }
    }
}

void LabSession::onResult(const TraceEvent& result) {
    pendingId_ = -1;
    const Fields data(result.data, "data");
    const bool ok = data.get<bool>("ok", false);
    if (pendingCmd_ == protocol::kLabStart)
        onStartResult(data, ok);
    else
        onStepResult(data, ok);
}

void LabSession::onStartResult(const Fields& data, bool ok) {
    if (!ok) {
        error_ = qs(data.text("error", std::string(protocol::kLabStart) + " failed"));
        emit failed(error_);
        return;
    }
    const Fields lab = data.object("lab");
    labId_ = qs(lab.text("id"));
    labTitle_ = qs(lab.text("title"));
    addTexts(data.raw("values"), seededValues_);
    beginResetModel();
    rows_.clear();
    for (const auto& s : data.objects("steps"))
        rows_.push_back(readPlannedStep(s));
    if (const auto* ask = data.raw("ask"); ask && ask->is_object() && !rows_.empty())
        readAsk(*ask, rows_.front().prediction);
    for (const auto& q : data.objects("questions"))
        questions_.push_back(readQuestion(q));
    endResetModel();
    started_ = true;
    emit labStarted();
}

void LabSession::onStepResult(const Fields& data, bool ok) {
    // An answer about no step (the engine refused the command itself, e.g. the run it belongs to is gone)
    // ends the session with the engine's reason; a step it names must be one of the lab's.
    const auto* stepIndex = data.raw("step_index");
    if (!stepIndex) {
        playing_ = false;
        error_ = ok ? tr("The engine's answer to lab.step names no step.")
                    : tr("The engine refused lab.step: %1").arg(qs(data.text("error", "no reason given")));
        emit failed(error_);
        return;
    }
    const int index = data.get<int>("step_index", -1);
    if (index < 0 || index >= static_cast<int>(rows_.size())) {
        playing_ = false;
        error_ = tr("The engine's answer to lab.step names step %1, and the lab has %2 steps.")
                     .arg(index + 1)
                     .arg(rows_.size());
        emit failed(error_);
        return;
    }
    nextStep_ = data.get<int>("next_step", index + 1);
    done_ = data.get<bool>("done", false);
    readStepAnswer(data, ok, rows_[static_cast<std::size_t>(index)]);
    const QModelIndex changed = this->index(index);
    emit dataChanged(changed, changed);
    if (const auto* ask = data.raw("ask");
        ask && ask->is_object() && nextStep_ >= 0 && nextStep_ < static_cast<int>(rows_.size()))
        readAsk(*ask, rows_[static_cast<std::size_t>(nextStep_)].prediction);
    if (done_) {
        // Steps after an unexpected failure never ran.
        for (int i = nextStep_; i < static_cast<int>(rows_.size()); ++i)
            if (rows_[static_cast<std::size_t>(i)].state == QLatin1String("pending"))
                rows_[static_cast<std::size_t>(i)].state = QStringLiteral("not_run");
        if (nextStep_ < static_cast<int>(rows_.size()))
            emit dataChanged(this->index(nextStep_), this->index(static_cast<int>(rows_.size()) - 1));
        const Fields summary = data.object("summary");
        allHeld_ = summary.get<bool>("ok", false);
    }
    if (stoppedBefore()) playing_ = false; // the run waits for the student's fix (setStopBefore)
    emit stepFinished(index);
    if (done_) {
        playing_ = false;
        emit finished(allHeld_);
    } else if (playing_) {
        QTimer::singleShot(0, this, &LabSession::step);
    }
}

int LabSession::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

QVariant LabSession::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(rows_.size())) return {};
    const auto& r = rows_[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole: {
        static const QMap<QString, QString> marks = {{QStringLiteral("pending"), QStringLiteral("○")},
                                                     {QStringLiteral("held"), QStringLiteral("✓")},
                                                     {QStringLiteral("broken"), QStringLiteral("✗")},
                                                     {QStringLiteral("skipped"), QStringLiteral("–")},
                                                     {QStringLiteral("not_run"), QStringLiteral("·")}};
        // A step without a title: its explanation's first sentence once it ran (what a student reads),
        // else its id and action ("pd_a · alloc_pd").
        QString label = r.title;
        if (label.isEmpty() && !r.text.isEmpty()) label = firstSentence(r.text, 72);
        if (label.isEmpty()) label = r.action.isEmpty() ? r.id : r.id + QStringLiteral(" · ") + r.action;
        return QStringLiteral("%1 %2. %3")
            .arg(marks.value(r.state, QStringLiteral("?")))
            .arg(index.row() + 1)
            .arg(label);
    }
    case StateRole:
        return r.state;
    case StepIdRole:
        return r.id;
    case Qt::ToolTipRole:
        return r.action;
    default:
        return {};
    }
}

} // namespace rdmalab::app
