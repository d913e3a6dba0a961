#include "labstate.h"

#include "lessons.h"

#include "rdmalab/format/fields.hpp"
#include "rdmalab/format/protocol.hpp"

#include <algorithm>
#include <climits>

namespace rdmalab::app {

namespace {
QString text(const Fields& fields, std::string_view key) {
    return QString::fromStdString(fields.text(key));
}

QStringList texts(const Fields& fields, std::string_view key) {
    QStringList out;
    for (const auto& item : fields.texts(key))
        out << QString::fromStdString(item);
    return out;
}

quint64 parseHex(const QString& text) {
    bool ok = false;
    const quint64 value = text.startsWith("0x") ? text.mid(2).toULongLong(&ok, 16) : text.toULongLong(&ok);
    return ok ? value : 0;
}

/// The wr_id a completion event names (in its data, else in its ids).
quint64 completionWrId(const TraceEvent& e) {
    return static_cast<quint64>(lenientInt(e.data, "wr_id", lenientInt(e.ids, "wr_id", 0)));
}

/// The part of [offset, offset + length) inside the first `size` bytes, as (offset, length) with both in
/// [0, size]; nothing when it lies outside. Computed without overflow, however large the input.
std::optional<std::pair<int, int>> clip(quint64 offset, quint64 length, qsizetype size) {
    const auto limit = static_cast<quint64>(std::clamp<qsizetype>(size, 0, INT_MAX));
    if (offset >= limit || length == 0) return std::nullopt;
    return std::pair{static_cast<int>(offset), static_cast<int>(std::min(length, limit - offset))};
}
} // namespace

QString lenientText(const nlohmann::json& j, const char* key) {
    if (!j.is_object()) return {};
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return {};
    if (it->is_string()) return QString::fromStdString(it->get<std::string>());
    return QString::fromStdString(it->dump());
}

qint64 lenientInt(const nlohmann::json& j, const char* key, qint64 fallback) {
    if (!j.is_object()) return fallback;
    auto it = j.find(key);
    if (it == j.end()) return fallback;
    if (it->is_number_integer() || it->is_number_unsigned()) return it->get<qint64>();
    if (it->is_boolean()) return it->get<bool>() ? 1 : 0;
    return fallback;
}

QString sideLetter(Side side) {
    return sideLetter(index(side));
}

QString sideLetter(int side) {
    return QString(QChar(QLatin1Char(static_cast<char>('A' + std::clamp(side, 0, 3)))));
}

std::optional<Side> sideOf(const TraceEvent& event) {
    switch (event.endpoint) {
    case Endpoint::A:
        return Side::A;
    case Endpoint::B:
        return Side::B;
    case Endpoint::C:
        return Side::C;
    case Endpoint::D:
        return Side::D;
    case Endpoint::None:
        break;
    }
    return std::nullopt;
}

void LabState::reset() {
    const bool keepReplay = replay;
    *this = LabState{};
    replay = keepReplay;
}

QString LabState::pairDevice() const {
    const auto& a = objects[0];
    const auto& b = objects[1];
    return !a.device.isEmpty() && a.device == b.device ? a.device : QString();
}

QString LabState::peerQpnText(Side side) const {
    const auto& qp = qps[index(side)];
    return qp.destQpn ? QString::number(qp.destQpn) : QStringLiteral("-");
}

std::optional<PendingSend> LabState::pendingSendFor(const TraceEvent& e) const {
    const auto side = sideOf(e);
    if (e.kind != EventKind::Wc || !side) return std::nullopt;
    const auto& pending = objects[index(*side)].pending;
    const quint64 wr = completionWrId(e);
    auto it =
        std::find_if(pending.begin(), pending.end(), [wr](const PendingSend& w) { return w.wrId == wr; });
    if (it == pending.end()) return std::nullopt;
    return *it;
}

// PD, CQ, port and sends in flight. Lenient (the data-path view drew them from any event it was given),
// so it runs first and a wrong-typed field later in apply() does not undo it.
void LabState::applyObjects(const TraceEvent& e) {
    const auto side = sideOf(e);
    const auto& d = e.data;
    const bool ok = lenientInt(d, "ret", 0) == 0;
    if (e.kind == EventKind::Verb) {
        const std::string& n = e.name;
        if (n == "ibv_open_device" && ok) port.deviceOpen = true;
        if (n == "ibv_close_device") {
            port.deviceOpen = false;
            port.state.clear();
            port.gid.clear();
            port.gidType.clear();
            port.mtu = 0;
        }
        if (n == "ibv_query_port" && ok) {
            port.state = lenientText(d, "state");
            port.mtu = lenientInt(d, "active_mtu", port.mtu);
            port.linkLayer = lenientText(d, "link_layer");
            if (d.contains("args")) port.port = static_cast<int>(lenientInt(d["args"], "port", port.port));
        }
        if (n == "ibv_query_gid_ex" && ok) {
            port.gid = lenientText(d, "gid");
            port.gidType = lenientText(d, "type");
        }
        if (!side) return;
        auto& x = objects[index(*side)];
        if (n == "ibv_alloc_pd" && ok) {
            x.pd = true;
            x.pdId = lenientInt(e.ids, "pd", -1);
            x.device = d.contains("args") ? lenientText(d["args"], "device") : QString();
        } else if (n == "ibv_dealloc_pd") {
            x.pd = false;
        } else if (n == "ibv_create_cq" && ok) {
            x.cq = true;
            x.cqId = lenientInt(e.ids, "cq", -1);
            x.cqe = lenientInt(d, "actual_cqe", 0);
            x.polled = 0;
        } else if (n == "ibv_destroy_cq") {
            x.cq = false;
        } else if (n == "ibv_destroy_qp") {
            x.pending.clear();
        }
    } else if (e.kind == EventKind::PostWr && side && ok &&
               lenientText(d, "queue") != QLatin1String("recv")) {
        PendingSend w;
        w.opcode = QString::fromStdString(e.name);
        w.wrId = static_cast<quint64>(lenientInt(e.ids, "wr_id", 0));
        w.length = static_cast<quint64>(lenientInt(d, "length", 0));
        w.rkey = static_cast<quint32>(lenientInt(e.ids, "rkey", 0));
        w.inlineData = lenientInt(d, "inline", 0) != 0;
        objects[index(*side)].pending.push_back(w);
    } else if (e.kind == EventKind::Wc && side) {
        auto& x = objects[index(*side)];
        const quint64 wr = completionWrId(e);
        auto it = std::find_if(x.pending.begin(), x.pending.end(),
                               [wr](const PendingSend& w) { return w.wrId == wr; });
        if (it != x.pending.end()) x.pending.erase(it);
        ++x.polled;
        const QString status = QString::fromStdString(e.name);
        x.lastWcError = status != QLatin1String("IBV_WC_SUCCESS");
        // The status that refused the work, not the flushes that follow it.
        if (x.lastWcError && status != QLatin1String("IBV_WC_WR_FLUSH_ERR")) lastErrorCode = status;
        // A failed completion has only wr_id, status and qp_num valid (ibv_poll_cq(3)): no opcode, no bytes.
        QString detail;
        if (!x.lastWcError) {
            QString op = lenientText(d, "opcode");
            if (op.startsWith(QLatin1Char('('))) op.clear();
            if (!op.isEmpty()) detail += QStringLiteral(" · ") + op;
            detail += QStringLiteral(" · %1 B").arg(lenientInt(d, "byte_len", 0));
        }
        x.lastWc = QStringLiteral("%1%2 · wr_id %3")
                       .arg(status, detail)
                       .arg(lenientInt(d, "wr_id", lenientInt(e.ids, "wr_id", 0)));
    }
}

namespace {
// The steps of LabState::apply, one per kind of event; each returns true if something visible changed.

/// An object a lab names ("C.qp", "D.buf"): its endpoint is in the cast.
void noteCast(LabState& s, const QString& object) {
    if (object.size() >= 2 && object[1] == QLatin1Char('.') && object[0] >= QLatin1Char('A') &&
        object[0] <= QLatin1Char('D'))
        s.cast[static_cast<std::size_t>(object[0].unicode() - 'A')] = true;
}

/// The system calls of the step's post or poll, when its event counted them (or said why not).
void noteStepSyscalls(LabState& s, const TraceEvent& e, const Fields& d) {
    if (e.kind == EventKind::Step) s.stepSyscalls = {};
    const std::string verb = e.kind == EventKind::PostWr ? d.text("verb") : e.name;
    if ((e.kind == EventKind::Verb || e.kind == EventKind::PostWr) &&
        (verb == "ibv_post_send" || verb == "ibv_post_recv" || verb == "ibv_poll_cq")) {
        const auto count = d.find<qint64>("syscalls");
        const auto why = d.find<std::string>("syscalls_why");
        if (count || why) s.stepSyscalls = {count, why ? QString::fromStdString(*why) : QString()};
    }
}

bool applySession(LabState& s, const Fields& d) {
    s.device = text(d, "device");
    s.host = text(d, "host");
    s.date = text(d, "date");
    s.mode = text(d, "mode");
    s.softwareDevice = d.object("device_info").get<bool>("software", s.softwareDevice);
    s.sessionNote = text(d, "note");
    s.deviceClassKnown = s.deviceClassKnown || d.object("device_info").has("software");
    return true;
}

bool applyStep(LabState& s, const TraceEvent& e, const Fields& d, std::optional<Side> side) {
    for (const QString& object : texts(d, "objects"))
        noteCast(s, object);
    auto& step = s.step;
    step.id = QString::fromStdString(e.name);
    step.title = text(d, "title");
    step.index = d.get<int>("index", -1);
    step.count = d.get<int>("count", 0);
    step.sideless = !side.has_value();
    if (side) step.side = *side;
    step.texts.clear();
    return true;
}

bool applyVerb(LabState& s, const TraceEvent& e, const Fields& d, const Fields& ids,
               std::optional<Side> side) {
    const bool ok = d.get<std::int64_t>("ret", -1) == 0;
    if (!side) {
        if (e.name == "ibv_query_port" && ok) s.portMtu = d.get<int>("active_mtu", 0);
        if (e.name == "ibv_query_gid_ex" && ok) s.gid = text(d, "gid");
        return false;
    }
    if (e.name == "ibv_reg_mr" && ok) {
        auto& r = s.regions[index(*side)];
        r.registered = true;
        r.label = text(d, "label");
        r.lkey = ids.get<quint32>("lkey", 0);
        r.rkey = ids.get<quint32>("rkey", 0);
        const Fields args = d.object("args");
        r.addr = parseHex(text(args, "addr"));
        r.length = args.get<quint64>("length", 0);
        r.access = texts(args, "access");
        r.seq = e.seq;
        return true;
    }
    if (e.name == "ibv_dereg_mr") {
        s.regions[index(*side)] = RegionState{};
        return true;
    }
    if (e.name == "ibv_create_qp" && ok) {
        auto& q = s.qps[index(*side)];
        q = QpState{};
        q.created = true;
        q.qpn = ids.get<quint32>("qpn", 0);
        q.type = text(d.object("args"), "qp_type");
        q.state = QStringLiteral("RESET");
        q.seq = e.seq;
        return true;
    }
    if (e.name == "ibv_destroy_qp") {
        s.qps[index(*side)] = QpState{};
        return true;
    }
    if (e.name == "ibv_query_qp" && ok) {
        const auto qpn = ids.get<quint32>("qpn", 0);
        auto& q = s.qps[index(*side)];
        if (q.created && q.qpn == qpn) q.state = text(d, "state");
        return true;
    }
    return false;
}

bool applyQpState(LabState& s, const TraceEvent& e, const Fields& d, std::optional<Side> side) {
    if (!side) return false;
    if (d.get<std::int64_t>("ret", -1) != 0) return true;
    const Fields a = d.object("attrs");
    auto& q = s.qps[index(*side)];
    q.state = text(d, "to");
    q.lastTransition = QString::fromStdString(e.name);
    q.lastMask = texts(d, "attr_mask");
    q.lastAttributes = a.json();
    q.lastAccessFlags = texts(a, "qp_access_flags");
    q.destQpn = a.get<quint32>("dest_qp_num", q.destQpn);
    q.sqPsn = a.get<quint32>("sq_psn", q.sqPsn);
    q.rqPsn = a.get<quint32>("rq_psn", q.rqPsn);
    q.pathMtu = a.get<int>("path_mtu", q.pathMtu);
    if (a.has("qkey")) q.qkey = text(a, "qkey");
    if (const auto v = a.find<int>("retry_cnt")) q.retryCnt = *v;
    if (const auto v = a.find<int>("rnr_retry")) q.rnrRetry = *v;
    q.seq = e.seq;
    return true;
}

bool applyPostWr(LabState& s, const TraceEvent& e, const Fields& d, const Fields& ids,
                 std::optional<Side> side) {
    if (!side || d.get<std::int64_t>("ret", -1) != 0) return true;
    WorkRequestState w;
    w.side = *side;
    w.queue = text(d, "queue");
    w.opcode = QString::fromStdString(e.name);
    w.wrId = ids.get<quint64>("wr_id", 0);
    w.length = d.get<quint64>("length", 0);
    w.seq = e.seq;
    s.workRequests.push_back(w);
    return true;
}

bool applyWc(LabState& s, const TraceEvent& e, const Fields& d, std::optional<Side> side) {
    if (!side) return false;
    CompletionState c;
    c.side = *side;
    c.status = QString::fromStdString(e.name);
    c.statusMeaning = text(d, "status_meaning");
    c.opcode = text(d, "opcode");
    c.byteLen = d.get<quint32>("byte_len", 0);
    c.wrId = d.get<quint64>("wr_id", 0);
    c.immData = d.find<quint32>("imm_data");
    c.seq = e.seq;
    s.completions.push_back(c);
    for (auto& w : s.workRequests)
        if (w.side == c.side && w.wrId == c.wrId && !w.completed) {
            w.completed = true;
            break;
        }
    return true;
}

bool applyData(LabState& s, const TraceEvent& e, const Fields& d, std::optional<Side> side) {
    if (!side || e.name != "memory") return false;
    auto& m = s.memory[index(*side)];
    m.bytes = QByteArray::fromHex(QByteArray::fromStdString(d.get<std::string>("hex", {})));
    m.length = d.get<quint64>("length", 0);
    m.when = text(d, "when");
    // Ranges are relative to the whole buffer; the views show only the bytes the event carries.
    m.changed.clear();
    for (const auto& range : d.objects("changed"))
        if (auto part =
                clip(range.get<quint64>("offset", 0), range.get<quint64>("length", 0), m.bytes.size()))
            m.changed.push_back(*part);
    m.seq = e.seq;
    return true;
}

bool applyCheck(LabState& s, const TraceEvent& e, const Fields& d) {
    // A lab step's summary (step_held, step_broken, step_skipped) carries no verdict of its own: its
    // expectations' events, which do, set the picture's banner.
    if (!d.has("ok")) return false;
    s.expectationsHeld += e.name == "held" ? 1 : 0;
    s.expectationsBroken += e.name == "broken" ? 1 : 0;
    s.verified = d.get<bool>("ok", false);
    s.faultObserved = e.name == "fault_observed";
    s.checkSummary = text(d, "summary");
    s.checkLines = texts(d, "checks");
    return true;
}

bool applyError(LabState& s, const Fields& d) {
    s.lastErrorCode = text(d, "code");
    s.lastError =
        QStringLiteral("%1 failed: %2 (%3)\ncause: %4\nfix: %5")
            .arg(text(d, "verb"), text(d, "code"), text(d, "meaning"), text(d, "cause"), text(d, "fix"));
    // The engine writes the explanation in Chinese too (data.zh); a text it has not written stands in
    // English.
    const auto zh = [&](const char* key) {
        const auto it = d.json().find("zh");
        const QString chinese =
            it != d.json().end() && it->is_object() && it->contains(key) && it->at(key).is_string()
                ? QString::fromStdString(it->at(key).get<std::string>())
                : QString();
        return chinese.isEmpty() ? text(d, key) : chinese;
    };
    s.lastErrorZh = QStringLiteral("%1 失败：%2（%3）\n原因：%4\n解决：%5")
                        .arg(text(d, "verb"), text(d, "code"), zh("meaning"), zh("cause"), zh("fix"));
    return true;
}

bool applyResult(LabState& s, const TraceEvent& e, const Fields& d) {
    // A lesson's last word: what failed, if anything (a fault lesson's refusal).
    if (e.name == "op") {
        const auto& data = e.data;
        if (data.is_object() && data.contains("error") && data.at("error").is_object() &&
            data.at("error").contains("code") && data.at("error").at("code").is_string())
            s.lastErrorCode = QString::fromStdString(data.at("error").at("code").get<std::string>());
        return false;
    }
    if (e.name == protocol::kLabStep) {
        // The runner's explanation of the step that ran, in both languages (a lesson's recording keeps
        // it).
        std::map<QString, QString> ran;
        const Fields texts = d.object("texts");
        for (const char* language : {"en", "zh"})
            if (texts.has(language)) ran[QString::fromLatin1(language)] = text(texts, language);
        if (d.get<int>("step_index", -1) != s.step.index || ran.empty()) return false;
        s.step.texts = std::move(ran);
        return true;
    }
    if ((e.name != protocol::kLabStart && e.name != protocol::kOpStart) || !d.get<bool>("ok", false) ||
        !d.has("steps"))
        return false;
    s.plannedSteps.clear();
    for (const auto& step : d.objects("steps")) {
        s.plannedSteps.push_back(text(step, "title"));
        noteCast(s, text(step, "creates"));
    }
    return true;
}
} // namespace

LabState LabState::foldedFrom(std::span<const TraceEvent> events, bool replay) {
    LabState state;
    state.replay = replay;
    for (const auto& e : events) {
        try {
            state.apply(e);
        } catch (const FieldError&) {
            // Checked where it arrived; a field of the wrong type changes nothing here.
        }
    }
    return state;
}

bool LabState::apply(const TraceEvent& e) {
    const bool changed = applyKind(e);
    // Only a recording of the loopback operation renders its texts from the values (its session event,
    // folded above, says so); a lab's steps carry their rendered texts.
    if (recordsLoopbackOperation(mode)) recordedValues.apply(e);
    return changed;
}

bool LabState::applyKind(const TraceEvent& e) {
    applyObjects(e);
    const auto side = sideOf(e);
    if (side) cast[static_cast<std::size_t>(index(*side))] = true;
    const Fields d(e.data, "data");
    const Fields ids(e.ids, "ids");
    noteStepSyscalls(*this, e, d);
    switch (e.kind) {
    case EventKind::Session:
        return applySession(*this, d);
    case EventKind::Step:
        return applyStep(*this, e, d, side);
    case EventKind::Verb:
        return applyVerb(*this, e, d, ids, side);
    case EventKind::QpState:
        return applyQpState(*this, e, d, side);
    case EventKind::PostWr:
        return applyPostWr(*this, e, d, ids, side);
    case EventKind::Wc:
        return applyWc(*this, e, d, side);
    case EventKind::Data:
        return applyData(*this, e, d, side);
    case EventKind::Check:
        return applyCheck(*this, e, d);
    case EventKind::Error:
        return applyError(*this, d);
    case EventKind::Result:
        return applyResult(*this, e, d);
    case EventKind::Measure:
    case EventKind::Packet: // the wire lane will draw these (issue 33); the picture does not change yet
        return false;
    case EventKind::Async:
        return true;
    }
    return false;
}

bool inRanges(const std::vector<std::pair<int, int>>& ranges, qsizetype at) {
    return std::any_of(ranges.begin(), ranges.end(), [at](const auto& range) {
        return at >= range.first && at < qint64{range.first} + range.second;
    });
}

DevicesResult readDevicesResult(const nlohmann::json& data) {
    const Fields result(data, "data");
    DevicesResult out;
    for (const auto& d : result.objects("devices")) {
        for (const auto& p : d.objects("ports")) {
            PortSummary s;
            s.device = text(d, "name");
            s.driver = text(d, "driver");
            s.software = d.get<bool>("software", false);
            s.port = p.get<int>("port", 1);
            s.state = text(p, "state");
            s.linkLayer = text(p, "link_layer");
            s.activeMtu = p.get<int>("active_mtu", 0);
            for (const auto& g : p.objects("gids"))
                s.gids << QStringLiteral("%1  %2  %3  %4")
                              .arg(g.get<int>("index", 0))
                              .arg(text(g, "gid"), text(g, "type"), text(g, "netdev"));
            out.ports.push_back(s);
        }
    }
    out.noDeviceFix = text(result.object("no_device"), "fix");
    return out;
}

} // namespace rdmalab::app
