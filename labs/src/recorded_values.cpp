// The lesson values of a recording of the engine's loopback operation (recorded_values.hpp).
#include "rdmalab/labs/recorded_values.hpp"

#include "rdmalab/format/fields.hpp"

#include <array>
#include <charconv>
#include <cstdint>
#include <optional>

namespace rdmalab::labs {

namespace {

std::string hex(std::uint64_t value) {
    std::array<char, 16> digits{};
    const auto end = std::to_chars(digits.data(), digits.data() + digits.size(), value, 16).ptr;
    return "0x" + std::string(digits.data(), end);
}

std::string joined(const std::vector<std::string>& flags) {
    std::string out;
    for (const auto& flag : flags)
        out += (out.empty() ? "" : "|") + flag;
    return out;
}

bool starts_with(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

} // namespace

std::map<std::string, std::string> recorded_values(const std::vector<TraceEvent>& events,
                                                   const ParameterValues& parameters,
                                                   std::string_view language) {
    RecordedValues fold;
    for (const auto& e : events)
        fold.apply(e);
    return fold.values(parameters, language);
}

void RecordedValues::apply(const TraceEvent& event) {
    try {
        applyFields(event);
    } catch (const FieldError&) {
        // A field of the wrong type: the app's reader refused such an event already; pass over it.
    } catch (const std::logic_error&) {
        // An address that is no number (std::stoull): the region keeps no address.
    }
}

void RecordedValues::applyFields(const TraceEvent& e) {
    const Fields d(e.data, "data");
    const Fields ids(e.ids, "ids");
    const bool ok = d.get<std::int64_t>("ret", 0) == 0;
    const int side = e.endpoint == Endpoint::A ? 0 : e.endpoint == Endpoint::B ? 1 : -1;
    const std::string verb = e.kind == EventKind::PostWr ? d.text("verb") : e.name;
    if (e.kind == EventKind::Step) {
        step_ = e.name;
        syscalls_.reset();
        syscallsWhy_.clear();
    } else if (e.kind == EventKind::Session) {
        device_["device.name"] = d.text("device");
    } else if ((e.kind == EventKind::Verb || e.kind == EventKind::PostWr) &&
               (verb == "ibv_post_send" || verb == "ibv_post_recv" || verb == "ibv_poll_cq") &&
               (d.has("syscalls") || d.has("syscalls_why"))) {
        syscalls_ = d.find<std::int64_t>("syscalls");
        syscallsWhy_ = d.text("syscalls_why");
    }
    if (e.kind == EventKind::Verb && ok && side < 0) {
        if (e.name == "ibv_query_port") device_["device.mtu"] = std::to_string(d.get<int>("active_mtu", 0));
        if (e.name == "ibv_query_gid_ex") device_["device.gid"] = d.text("gid");
    } else if (e.kind == EventKind::Verb && side >= 0) {
        auto& s = sides_[static_cast<std::size_t>(side)];
        if (e.name == "ibv_reg_mr" && ok) {
            const Fields args = d.object("args");
            const std::string addr = args.text("addr");
            s.buf = {{"lkey", hex(ids.get<std::uint32_t>("lkey", 0))},
                     {"rkey", hex(ids.get<std::uint32_t>("rkey", 0))},
                     {"addr", addr.empty() ? "0x0" : hex(std::stoull(addr, nullptr, 0))},
                     {"access", joined(args.texts("access"))}};
        } else if (e.name == "ibv_dereg_mr") {
            s.buf.clear();
        } else if (e.name == "ibv_create_qp" && ok) {
            s.qp = QpValues{.qpn = ids.get<std::uint32_t>("qpn", 0)};
        } else if (e.name == "ibv_destroy_qp") {
            s.qp.reset();
        }
    } else if (e.kind == EventKind::QpState && side >= 0 && ok) {
        const Fields attrs = d.object("attrs");
        if (auto& qp = sides_[static_cast<std::size_t>(side)].qp) {
            if (const auto flags = attrs.texts("qp_access_flags"); !flags.empty()) qp->access = joined(flags);
            qp->sq_psn = attrs.get<std::uint32_t>("sq_psn", qp->sq_psn);
            qp->rq_psn = attrs.get<std::uint32_t>("rq_psn", qp->rq_psn);
        }
    } else if (e.kind == EventKind::Wc && side >= 0) {
        completion_ = {e.name, std::to_string(d.get<std::uint32_t>("byte_len", 0))};
    }
}

std::map<std::string, std::string> RecordedValues::values(const ParameterValues& parameters,
                                                          std::string_view language) const {
    std::map<std::string, std::string> v(parameters.begin(), parameters.end());
    for (const auto& [key, value] : device_)
        v[key] = value;
    for (const int i : {0, 1}) {
        const std::string e = i == 0 ? "A" : "B";
        const auto& s = sides_[static_cast<std::size_t>(i)];
        const std::string buf = e + ".buf.";
        for (const auto& [field, value] : s.buf)
            v[buf + field] = value;
        if (!s.qp) continue;
        v[e + ".qp.qpn"] = std::to_string(s.qp->qpn);
        if (!s.qp->access.empty()) v[e + ".qp.access"] = s.qp->access;
        // Its first send PSN: set at its RTS, and known before that as the PSN its peer expects (RTR).
        const auto& peer = sides_[static_cast<std::size_t>(1 - i)].qp;
        if (s.qp->sq_psn)
            v[e + ".qp.psn"] = hex(s.qp->sq_psn);
        else if (peer && peer->rq_psn)
            v[e + ".qp.psn"] = hex(peer->rq_psn);
    }
    if (starts_with(step_, "post_send") || starts_with(step_, "post_recv") || starts_with(step_, "poll_cq")) {
        const bool zh = starts_with(language, "zh");
        v[step_ + ".syscalls"] = syscalls_               ? std::to_string(*syscalls_)
                                 : !syscallsWhy_.empty() ? (zh ? "未计数：" : "not counted: ") + syscallsWhy_
                                 : zh                    ? "未记录"
                                                         : "not recorded";
    }
    if (starts_with(step_, "poll_cq") && completion_) {
        v[step_ + ".status"] = completion_->first;
        v[step_ + ".byte_len"] = completion_->second;
    }
    return v;
}

} // namespace rdmalab::labs
