#include "labstate.h"

namespace rdmalab::app {

namespace {
QString str(const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end()) return {};
    if (it->is_string()) return QString::fromStdString(it->get<std::string>());
    return QString::fromStdString(it->dump());
}

template <typename T> T num(const nlohmann::json& j, const char* key, T fallback = 0) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number()) return fallback;
    return it->get<T>();
}

quint64 parseHex(const QString& text) {
    bool ok = false;
    const quint64 value = text.startsWith("0x") ? text.mid(2).toULongLong(&ok, 16) : text.toULongLong(&ok);
    return ok ? value : 0;
}

QStringList list(const nlohmann::json& j, const char* key) {
    QStringList out;
    auto it = j.find(key);
    if (it == j.end() || !it->is_array()) return out;
    for (const auto& v : *it)
        out << QString::fromStdString(v.is_string() ? v.get<std::string>() : v.dump());
    return out;
}
} // namespace

std::optional<Side> sideOf(const TraceEvent& event) {
    if (event.endpoint == Endpoint::A) return Side::A;
    if (event.endpoint == Endpoint::B) return Side::B;
    return std::nullopt;
}

void LabState::reset() {
    const bool keepReplay = replay;
    *this = LabState{};
    replay = keepReplay;
}

QString LabState::peerQpnText(Side side) const {
    const auto& qp = qps[index(side)];
    return qp.destQpn ? QString::number(qp.destQpn) : QStringLiteral("-");
}

bool LabState::apply(const TraceEvent& e) {
    const auto side = sideOf(e);
    const auto& d = e.data;
    switch (e.kind) {
    case EventKind::Session:
        device = str(d, "device");
        host = str(d, "host");
        date = str(d, "date");
        mode = str(d, "mode");
        if (d.contains("device_info") && d["device_info"].is_object())
            softwareDevice = d["device_info"].value("software", false);
        return true;
    case EventKind::Step:
        step.id = QString::fromStdString(e.name);
        step.title = str(d, "title");
        step.index = num<int>(d, "index", -1);
        step.count = num<int>(d, "count", 0);
        step.sideless = !side.has_value();
        if (side) step.side = *side;
        return true;
    case EventKind::Verb: {
        if (!side) {
            if (e.name == "ibv_query_port" && num<int>(d, "ret", -1) == 0)
                portMtu = num<int>(d, "active_mtu");
            if (e.name == "ibv_query_gid_ex" && num<int>(d, "ret", -1) == 0) gid = str(d, "gid");
            return false;
        }
        if (e.name == "ibv_reg_mr" && num<int>(d, "ret", -1) == 0) {
            auto& r = regions[index(*side)];
            r.registered = true;
            r.label = str(d, "label");
            r.lkey = num<quint32>(e.ids, "lkey");
            r.rkey = num<quint32>(e.ids, "rkey");
            const auto& args = d.value("args", nlohmann::json::object());
            r.addr = parseHex(str(args, "addr"));
            r.length = num<quint64>(args, "length");
            r.access = list(args, "access");
            r.seq = e.seq;
            return true;
        }
        if (e.name == "ibv_dereg_mr") {
            regions[index(*side)] = RegionState{};
            return true;
        }
        if (e.name == "ibv_create_qp" && num<int>(d, "ret", -1) == 0) {
            auto& q = qps[index(*side)];
            q = QpState{};
            q.created = true;
            q.qpn = num<quint32>(e.ids, "qpn");
            q.type = str(d.value("args", nlohmann::json::object()), "qp_type");
            q.state = QStringLiteral("RESET");
            q.seq = e.seq;
            return true;
        }
        if (e.name == "ibv_destroy_qp") {
            qps[index(*side)] = QpState{};
            return true;
        }
        if (e.name == "ibv_query_qp" && num<int>(d, "ret", -1) == 0) {
            auto& q = qps[index(*side)];
            if (q.created && q.qpn == num<quint32>(e.ids, "qpn")) q.state = str(d, "state");
            return true;
        }
        return false;
    }
    case EventKind::QpState: {
        if (!side) return false;
        auto& q = qps[index(*side)];
        if (num<int>(d, "ret", -1) != 0) return true;
        q.state = str(d, "to");
        q.lastTransition = QString::fromStdString(e.name);
        q.lastMask = list(d, "attr_mask");
        q.lastAttributes = d.value("attrs", nlohmann::json::object());
        const auto& a = q.lastAttributes;
        if (a.contains("dest_qp_num")) q.destQpn = a["dest_qp_num"].get<quint32>();
        if (a.contains("sq_psn")) q.sqPsn = a["sq_psn"].get<quint32>();
        if (a.contains("rq_psn")) q.rqPsn = a["rq_psn"].get<quint32>();
        if (a.contains("path_mtu")) q.pathMtu = a["path_mtu"].get<int>();
        q.seq = e.seq;
        return true;
    }
    case EventKind::PostWr: {
        if (!side || num<int>(d, "ret", -1) != 0) return true;
        WorkRequestState w;
        w.side = *side;
        w.queue = str(d, "queue");
        w.opcode = QString::fromStdString(e.name);
        w.wrId = num<quint64>(e.ids, "wr_id");
        w.length = num<quint64>(d, "length");
        w.seq = e.seq;
        workRequests.push_back(w);
        return true;
    }
    case EventKind::Wc: {
        if (!side) return false;
        CompletionState c;
        c.side = *side;
        c.status = QString::fromStdString(e.name);
        c.statusMeaning = str(d, "status_meaning");
        c.opcode = str(d, "opcode");
        c.byteLen = num<quint32>(d, "byte_len");
        c.wrId = num<quint64>(d, "wr_id");
        if (d.contains("imm_data")) c.immData = d["imm_data"].get<quint32>();
        c.seq = e.seq;
        completions.push_back(c);
        for (auto& w : workRequests)
            if (w.side == c.side && w.wrId == c.wrId && !w.completed) {
                w.completed = true;
                break;
            }
        return true;
    }
    case EventKind::Data: {
        if (!side || e.name != "memory") return false;
        auto& m = memory[index(*side)];
        m.bytes = QByteArray::fromHex(QByteArray::fromStdString(d.value("hex", std::string())));
        m.length = num<quint64>(d, "length");
        m.when = str(d, "when");
        m.changed.clear();
        if (d.contains("changed"))
            for (const auto& c : d["changed"])
                m.changed.emplace_back(c.value("offset", 0), c.value("length", 0));
        m.seq = e.seq;
        return true;
    }
    case EventKind::Check:
        verified = d.value("ok", false);
        checkSummary = str(d, "summary");
        checkLines = list(d, "checks");
        return true;
    case EventKind::Error:
        lastError =
            QStringLiteral("%1 failed: %2 (%3)\ncause: %4\nfix: %5")
                .arg(str(d, "verb"), str(d, "code"), str(d, "meaning"), str(d, "cause"), str(d, "fix"));
        return true;
    case EventKind::Result:
        if (e.name == "op.start" && d.value("ok", false) && d.contains("steps")) {
            plannedSteps.clear();
            for (const auto& s : d["steps"])
                plannedSteps.push_back(QString::fromStdString(s.value("title", "")));
            return true;
        }
        return false;
    case EventKind::Measure:
        return false;
    case EventKind::Async:
        return true;
    }
    return false;
}

std::vector<PortSummary> portsFromDevicesResult(const nlohmann::json& data) {
    std::vector<PortSummary> out;
    if (!data.contains("devices")) return out;
    for (const auto& d : data["devices"]) {
        for (const auto& p : d.value("ports", nlohmann::json::array())) {
            PortSummary s;
            s.device = QString::fromStdString(d.value("name", ""));
            s.driver = QString::fromStdString(d.value("driver", ""));
            s.software = d.value("software", false);
            s.port = p.value("port", 1);
            s.state = QString::fromStdString(p.value("state", ""));
            s.linkLayer = QString::fromStdString(p.value("link_layer", ""));
            s.activeMtu = p.value("active_mtu", 0);
            for (const auto& g : p.value("gids", nlohmann::json::array()))
                s.gids << QStringLiteral("%1  %2  %3  %4")
                              .arg(g.value("index", 0))
                              .arg(QString::fromStdString(g.value("gid", "")),
                                   QString::fromStdString(g.value("type", "")),
                                   QString::fromStdString(g.value("netdev", "")));
            out.push_back(s);
        }
    }
    return out;
}

} // namespace rdmalab::app
