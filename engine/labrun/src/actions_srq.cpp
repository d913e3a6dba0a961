// The actions of shared receive queues, memory windows and asynchronous events (chapters 17, 22, 25), and
// the async_event expectation. Each goes through the engine's verbs classes, so every call is traced and
// every failure explained as the engine explains it.
#include "actions.hpp"
#include "rdmalab/engine/names.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace rdmalab::labs::run {

namespace {

void set_srq_values(State& s, const std::string& name, const ibv_srq_attr& attr) {
    const auto& srq = *s.srqs.at(name);
    s.values[name + ".handle"] = std::to_string(srq.handle());
    s.values[name + ".max_wr"] = std::to_string(attr.max_wr);
    s.values[name + ".max_sge"] = std::to_string(attr.max_sge);
    s.values[name + ".limit"] = std::to_string(attr.srq_limit);
}

void set_mw_values(State& s, const std::string& name) {
    const auto& mw = *s.mws.at(name);
    s.values[name + ".rkey"] = hex(mw.rkey());
    s.values[name + ".type"] = mw.type() == IBV_MW_TYPE_1 ? "1" : "2";
    s.values[name + ".addr"] = hex(mw.addr());
    s.values[name + ".length"] = std::to_string(mw.length());
}

/// A part of a region a window is bound to: `mr`, `offset` and `length` (default: the rest of the region).
WindowBind window_bind(State& s, const Step& step, const Value* mr_name, const Value* offset_value,
                       const Value* length_value, const Value* access_value) {
    const std::string name = mr_name ? mr_name->text : "";
    const auto it = s.mrs.find(name);
    if (it == s.mrs.end())
        throw LabRunError(
            fmt::format("step '{}': the bind names region '{}', which does not exist", step.id, name));
    WindowBind bind;
    bind.region = it->second;
    const std::uint64_t offset = u64(offset_value, 0);
    if (offset > bind.region->length())
        throw LabRunError(fmt::format("step '{}': offset {} is past the end of {} ({} bytes)", step.id,
                                      offset, name, bind.region->length()));
    bind.addr = bind.region->address() + offset;
    bind.length = u64(length_value, bind.region->length() - offset);
    bind.access = access_value ? access_bits(flag_list(access_value)) : 0;
    return bind;
}

/// An operand field as a number: a literal, or the value a path names ("B.win.rkey", hex or decimal).
std::uint64_t operand_number(const State& s, const Step& step, const std::string& field) {
    const Value* v = arg(step, field);
    if (!v) return 0;
    if (v->kind == Value::Kind::integer) return v->as_u64();
    std::string path = v->text;
    if (path.size() > 2 && path.front() == '{' && path.back() == '}') path = path.substr(1, path.size() - 2);
    const auto it = s.values.find(path);
    const std::string text = it != s.values.end() ? it->second : path;
    std::uint64_t number = 0;
    const bool hex_text = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const char* begin = text.data() + (hex_text ? 2 : 0);
    const auto [end, ec] = std::from_chars(begin, text.data() + text.size(), number, hex_text ? 16 : 10);
    if (ec != std::errc() || end != text.data() + text.size())
        throw LabRunError(
            fmt::format("step '{}': {} '{}' is not a number (it reads '{}')", step.id, field, v->text, text));
    return number;
}

/// The lab's name of what an event names: a QP, SRQ or CQ of the lab (E.name), "port N" or "device".
std::string event_object(const State& s, const AsyncEvent& e) {
    if (e.qp_num) {
        for (const auto& [name, q] : s.qps)
            if (q.qp->qp_num() == *e.qp_num) return name;
        return fmt::format("QP {}", *e.qp_num);
    }
    if (e.srq_handle) {
        for (const auto& [name, srq] : s.srqs)
            if (srq->handle() == *e.srq_handle) return name;
        return fmt::format("SRQ {}", *e.srq_handle);
    }
    if (e.cq_handle) {
        for (const auto& [name, cq] : s.cqs)
            if (cq->id() == *e.cq_handle) return name;
        return fmt::format("CQ {}", *e.cq_handle);
    }
    if (e.port) return fmt::format("port {}", *e.port);
    return "device";
}

/// "IBV_EVENT_SRQ_LIMIT_REACHED" -> "srq_limit_reached".
std::string event_type(const AsyncEvent& e) {
    std::string name = e.name;
    if (name.rfind("IBV_EVENT_", 0) == 0) name = name.substr(10);
    return lower(name);
}

} // namespace

// ---- shared receive queues -----------------------------------------------------------------------------

void do_create_srq(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "as");
    auto& pd = s.object(s.pds, step, "pd");
    auto srq = SharedReceiveQueue::create(pd, static_cast<std::uint32_t>(integer(step, "max_wr", 16)),
                                          static_cast<std::uint32_t>(integer(step, "max_sge", 1)));
    s.srqs[name] = srq;
    s.created.push_back(name);
    ibv_srq_attr attr{};
    attr.max_wr = srq->max_wr();
    attr.max_sge = srq->max_sge();
    set_srq_values(s, name, attr);
    r.results["max_wr"] = std::to_string(srq->max_wr());
    r.results["max_sge"] = std::to_string(srq->max_sge());
    r.results["handle"] = std::to_string(srq->handle());
}

void do_post_srq_recv(State& s, const Step& step, StepResult& r) {
    auto& srq = s.object(s.srqs, step, "srq");
    RecvRequest request;
    const Value* list = arg(step, "sge");
    if (list)
        for (const auto& item : list->list) {
            const Value* mr_name = item.find("mr");
            const auto it = s.mrs.find(mr_name ? mr_name->text : "");
            if (it == s.mrs.end())
                throw LabRunError(fmt::format("step '{}': sge names region '{}', which does not exist",
                                              step.id, mr_name ? mr_name->text : ""));
            const auto& mr = *it->second;
            const std::uint64_t offset = u64(item.find("offset"), 0);
            if (offset > mr.length())
                throw LabRunError(fmt::format("step '{}': sge offset {} is past the end of {} ({} bytes)",
                                              step.id, offset, it->first, mr.length()));
            request.sges.push_back(
                {mr.address() + offset,
                 static_cast<std::uint32_t>(u64(item.find("length"), mr.length() - offset)),
                 static_cast<std::uint32_t>(u64(item.find("lkey"), mr.lkey()))});
        }
    request.wr_id = u64(arg(step, "wr_id"), s.next + 1);
    const auto count = static_cast<std::size_t>(integer(step, "count", 1));
    std::size_t posted = 0;
    try {
        for (; posted < count; ++posted) {
            srq->post_recv(request);
            ++request.wr_id;
        }
    } catch (...) {
        r.results["posted"] = std::to_string(posted);
        throw;
    }
    r.results["posted"] = std::to_string(posted);
}

void do_modify_srq(State& s, const Step& step, StepResult&) {
    const std::string name = text(step, "srq");
    auto& srq = s.object(s.srqs, step, "srq");
    const auto limit = static_cast<std::uint32_t>(integer(step, "limit", 0));
    srq->arm_limit(limit);
    s.values[name + ".limit"] = std::to_string(limit);
}

void do_query_srq(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "srq");
    const ibv_srq_attr attr = s.object(s.srqs, step, "srq")->query();
    set_srq_values(s, name, attr);
    r.results["max_wr"] = std::to_string(attr.max_wr);
    r.results["max_sge"] = std::to_string(attr.max_sge);
    r.results["limit"] = std::to_string(attr.srq_limit);
}

// ---- asynchronous events -------------------------------------------------------------------------------

void do_wait_async_event(State& s, const Step& step, StepResult& r) {
    auto& context = *device(s).context;
    r.timeout_ms = static_cast<int>(integer(step, "timeout", kDefaultTimeoutMs));
    const auto wanted = static_cast<std::size_t>(integer(step, "count", 1));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(r.timeout_ms);
    std::vector<AsyncEvent> events;
    // count 0: watch the whole timeout (to see that nothing, or nothing more, arrives).
    while (wanted == 0 || events.size() < wanted) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) break;
        auto batch = context.wait_async_events(left);
        events.insert(events.end(), batch.begin(), batch.end());
    }
    Results& out = r.results;
    out["count"] = std::to_string(events.size());
    out["type"] = events.empty() ? "none" : event_type(events.front());
    out["object"] = events.empty() ? "none" : event_object(s, events.front());
    std::string types;
    for (const auto& e : events)
        types += (types.empty() ? "" : ",") + event_type(e);
    out["types"] = types.empty() ? "none" : types;
    r.async_events = std::move(events);
}

ExpectationOutcome check_async_event(const State& s, const Expectation& e, const StepResult& r,
                                     const std::string& language) {
    ExpectationOutcome out;
    out.kind = "async_event";
    out.why = e.why.get(language);
    const Value* type = e.value.find("type");
    const Value* object = e.value.find("object");
    const Value* count = e.value.find("count");
    const std::string wanted = type ? type->text : "none";
    if (wanted == "none")
        out.description = say(language, "no async event arrives", "没有异步事件到达");
    else if (object)
        out.description = say(language, "an async event " + wanted + " on " + object->text,
                              object->text + " 上出现异步事件 " + wanted);
    else
        out.description = say(language, "an async event " + wanted, "出现异步事件 " + wanted);
    if (count)
        out.description += say(language, fmt::format(", exactly {}", count->integer),
                               fmt::format("，恰好 {} 个", count->integer));
    if (!r.async_events) {
        out.observed = say(language, "no wait happened", "没有等待");
        return out;
    }
    const auto& events = *r.async_events;
    std::string seen;
    for (const auto& ev : events)
        seen += (seen.empty() ? "" : say(language, ", ", "，")) +
                say(language, event_type(ev) + " on " + event_object(s, ev),
                    event_object(s, ev) + " 上的 " + event_type(ev));
    out.observed = events.empty() ? say(language, fmt::format("no event within {} ms", r.timeout_ms),
                                        fmt::format("{} 毫秒内没有事件", r.timeout_ms))
                                  : say(language, fmt::format("{} event(s): {}", events.size(), seen),
                                        fmt::format("{} 个事件：{}", events.size(), seen));
    if (wanted == "none") {
        out.held = events.empty();
        return out;
    }
    std::int64_t matching = 0;
    for (const auto& ev : events)
        if (event_type(ev) == wanted && (!object || event_object(s, ev) == object->text)) ++matching;
    out.held = count ? matching == count->integer : matching > 0;
    return out;
}

// ---- memory windows ------------------------------------------------------------------------------------

void do_alloc_mw(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "as");
    auto& pd = s.object(s.pds, step, "pd");
    const ibv_mw_type type = text(step, "type", "2") == "1" ? IBV_MW_TYPE_1 : IBV_MW_TYPE_2;
    auto mw = MemoryWindow::alloc(pd, type);
    s.mws[name] = mw;
    s.created.push_back(name);
    set_mw_values(s, name);
    r.results["rkey"] = hex(mw->rkey());
    r.results["type"] = type == IBV_MW_TYPE_1 ? "1" : "2";
}

void do_bind_mw(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "mw");
    auto& mw = s.object(s.mws, step, "mw");
    auto& q = s.object(s.qps, step, "qp");
    const WindowBind bind =
        window_bind(s, step, arg(step, "mr"), arg(step, "offset"), arg(step, "length"), arg(step, "access"));
    const std::uint32_t old_rkey = mw->rkey();
    const std::uint32_t rkey =
        mw->bind(*q.qp, bind, u64(arg(step, "wr_id"), s.next + 1), boolean(step, "signaled", true));
    set_mw_values(s, name);
    r.results["rkey"] = hex(rkey);
    r.results["old_rkey"] = hex(old_rkey);
}

void do_dealloc_mw(State& s, const Step& step, StepResult&) {
    const std::string name = text(step, "mw");
    s.object(s.mws, step, "mw"); // must exist
    s.mws.erase(name);           // the destructor calls ibv_dealloc_mw (traced)
}

void window_request(State& s, const Step& step, SendRequest& base) {
    if (base.opcode == IBV_WR_LOCAL_INV || base.opcode == IBV_WR_SEND_WITH_INV)
        base.invalidate_rkey = static_cast<std::uint32_t>(operand_number(s, step, "invalidate_rkey"));
    if (base.opcode != IBV_WR_BIND_MW) return;
    if (!arg(step, "mw") || !arg(step, "bind"))
        throw LabRunError(
            fmt::format("step '{}': opcode bind_mw needs `mw` (the window) and `bind`", step.id));
    const Value& bind = *arg(step, "bind");
    WindowBind request =
        window_bind(s, step, bind.find("mr"), bind.find("offset"), bind.find("length"), bind.find("access"));
    request.window = s.object(s.mws, step, "mw");
    base.bind_rkey = request.window->next_rkey();
    base.bind = std::move(request);
}

void window_posted(State& s, const Step& step) {
    if (const Value* mw = arg(step, "mw"); mw && s.mws.contains(mw->text)) set_mw_values(s, mw->text);
}

void remote_window(State& s, const Step& step, const Value& remote, SendRequest& base) {
    const Value* mw_name = remote.find("mw");
    if (!mw_name) return;
    const auto it = s.mws.find(mw_name->text);
    if (it == s.mws.end())
        throw LabRunError(
            fmt::format("step '{}': remote.mw names '{}', which does not exist", step.id, mw_name->text));
    base.remote_addr = it->second->addr();
    base.rkey = it->second->rkey();
}

std::vector<std::string> wc_flag_names(unsigned flags) {
    std::vector<std::string> names;
    if (flags & IBV_WC_WITH_IMM) names.emplace_back("with_imm");
    if (flags & IBV_WC_GRH) names.emplace_back("grh");
    if (flags & IBV_WC_WITH_INV) names.emplace_back("with_inv");
    if (flags & IBV_WC_IP_CSUM_OK) names.emplace_back("ip_csum_ok");
    return names;
}

} // namespace rdmalab::labs::run
