// The action table: each action of the lab language (the labs/src/lab_schema_*.cpp tables) by name, mapped to
// the function that performs it (actions.hpp: one file per object family), and the helpers every action file
// uses. Each action goes through the engine's verbs classes, so every call is traced and every failure
// explained as the engine explains it.
#include "actions.hpp"
#include "rdmalab/labs/lab_schema.hpp"

#include <functional>
#include <map>
#include <string_view>

namespace rdmalab::labs::run {

DeviceState& device(State& s) {
    if (!s.device) throw LabRunError("no device is open: the lab must begin with an open_device step");
    return *s.device;
}

std::uint64_t timed(const std::function<void()>& call) {
    const auto start = monotonic_ns();
    call();
    return monotonic_ns() - start;
}

void remember(State& s, const std::string& name) {
    s.created.push_back(name);
}

void do_note(State&, const Step&, StepResult&) {}

namespace {

using ActionFunction = void (*)(State&, const Step&, StepResult&);

const std::map<std::string, ActionFunction, std::less<>>& action_table() {
    static const std::map<std::string, ActionFunction, std::less<>> table = {
        {"note", do_note},
        {"open_device", do_open_device},
        {"query_device", do_query_device},
        {"query_port", do_query_port},
        {"query_gid_table", do_query_gid_table},
        {"alloc_pd", do_alloc_pd},
        {"dealloc_pd", do_dealloc_pd},
        {"reg_mr", do_reg_mr},
        {"dereg_mr", do_dereg_mr},
        {"write_memory", do_write_memory},
        {"create_channel", do_create_channel},
        {"create_cq", do_create_cq},
        {"create_qp", do_create_qp},
        {"connect", do_connect},
        {"to_init", do_to_init},
        {"to_rtr", do_to_rtr},
        {"to_rts", do_to_rts},
        {"to_sqd", do_to_sqd},
        {"to_err", do_to_err},
        {"to_reset", do_to_reset},
        {"modify_qp", do_modify_qp},
        {"query_qp", do_query_qp},
        {"create_ah", do_create_ah},
        {"post_recv", do_post_recv},
        {"post_send", do_post_send},
        {"poll_cq", do_poll_cq},
        {"req_notify_cq", do_req_notify_cq},
        {"wait_cq_event", do_wait_cq_event},
        {"bench", do_bench},
        {"wait", do_wait},
        {"cm_bind", do_cm_bind},
        {"cm_listen", do_cm_listen},
        {"cm_resolve", do_cm_resolve},
        {"cm_resolve_route", do_cm_resolve_route},
        {"cm_event", do_cm_event},
        {"cm_create_qp", do_cm_create_qp},
        {"cm_connect", do_cm_connect},
        {"cm_accept", do_cm_accept},
        {"cm_reject", do_cm_reject},
        {"cm_disconnect", do_cm_disconnect},
        {"mcast_join", do_mcast_join},
        {"mcast_leave", do_mcast_leave},
        {"create_srq", do_create_srq},
        {"post_srq_recv", do_post_srq_recv},
        {"modify_srq", do_modify_srq},
        {"query_srq", do_query_srq},
        {"wait_async_event", do_wait_async_event},
        {"alloc_mw", do_alloc_mw},
        {"bind_mw", do_bind_mw},
        {"dealloc_mw", do_dealloc_mw},
        {"set_memlock", do_set_memlock},
        {"query_device_ex", do_query_device_ex},
        {"create_qp_ex", do_create_qp_ex},
        {"post_atomic_write", do_post_atomic_write},
        {"open_xrcd", do_open_xrcd},
        {"add_address", do_add_address},
        {"remove_address", do_remove_address},
        {"read_wire", do_read_wire},
        {"drop_packets", do_drop_packets},
    };
    return table;
}

} // namespace

bool implements_every_action() {
    for (const auto& action : schema::actions())
        if (!action_table().contains(action.name)) return false;
    return action_table().size() == schema::actions().size();
}

void perform(State& state, std::size_t index, StepResult& result) {
    const Step& step = state.lab.steps[index];
    const auto it = action_table().find(step.action.empty() ? std::string_view("note") : step.action);
    if (it == action_table().end()) throw LabRunError("the runner has no action '" + step.action + "'");
    it->second(state, step, result);
}

} // namespace rdmalab::labs::run
