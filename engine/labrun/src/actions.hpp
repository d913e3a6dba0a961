// Every action of the lab language (the labs/src/lab_schema_*.cpp tables), declared by the file that performs
// it, and the helpers the action files share. actions.cpp maps each action's name to its function. Internal.
#pragma once

#include "run_state.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace rdmalab::labs::run {

/// What a step reports ({E.step.FIELD}): result name -> value.
using Results = std::map<std::string, std::string>;

// ---- helpers the action files share ------------------------------------------------------------------

/// A UD QP's Q_Key when a step gives none (to_init, modify_qp, post_send).
inline constexpr std::uint32_t kDefaultQkey = 0x11111111;

/// How long a step that waits (a completion, a receive, an SRQ limit event) waits when its `timeout:` is
/// unset, in ms.
inline constexpr int kDefaultTimeoutMs = 10000;

/// How long `call` took, in ns (a step's `dur_ns`). actions.cpp, as remember.
std::uint64_t timed(const std::function<void()>& call);
/// Records `name` as created (teardown destroys in reverse order).
void remember(State& s, const std::string& name);
/// Sets the {E.qp.*} values of QP `name` from its current state. actions_qp.cpp.
void set_qp_values(State& s, const std::string& name);
/// The capacities a create_qp or create_qp_ex step asks for (max_send_wr 16, max_recv_wr 16, max_send_sge 1,
/// max_recv_sge 1, max_inline_data 0 unless it says otherwise). actions_qp.cpp, as the one below.
QpCapacity requested_capacity(const Step& step);
/// Keeps QP `qp` that a create step made as `name`: its first send PSN (the step's `psn`, else a fixed
/// pseudo-random one per QP number), destroyed at teardown, its {E.qp.*} values, and the step's results
/// (qpn, the granted capacities, state).
void keep_created_qp(State& s, const Step& step, const std::string& name,
                     const std::shared_ptr<QueuePair>& qp, Results& out);
/// open_device with `address`: binds an rdma_cm id to the address and borrows the context of the device
/// it bound to, so the lab's PDs and CQs are on the device rdma_cm uses. actions_cm.cpp.
std::shared_ptr<Context> open_device_by_address(State& s, const std::string& address, DeviceState& d);
/// post_send's opcodes local_inv, send_with_inv and bind_mw: fills what `base` needs for them.
/// actions_srq.cpp, as the two below.
void window_request(State& s, const Step& step, SendRequest& base);
/// After a bind_mw post: the window's values ({E.win.rkey}) are those of the new binding.
void window_posted(State& s, const Step& step);
/// post_send's remote.mw: the window's bound address and its current rkey.
void remote_window(State& s, const Step& step, const Value& remote, SendRequest& base);

// ---- the actions, by file -------------------------------------------------------------------------------

// actions.cpp: a step without an action.
void do_note(State& s, const Step& step, StepResult& r);

// actions_device.cpp: the device, its port and GID table, protection domains.
void do_open_device(State& s, const Step& step, StepResult& r);
void do_query_device(State& s, const Step& step, StepResult& r);
void do_query_port(State& s, const Step& step, StepResult& r);
void do_query_gid_table(State& s, const Step& step, StepResult& r);
void do_alloc_pd(State& s, const Step& step, StepResult& r);
void do_dealloc_pd(State& s, const Step& step, StepResult& r);

// actions_memory.cpp: memory regions, the application's writes, the locked-memory limit.
void do_reg_mr(State& s, const Step& step, StepResult& r);
void do_dereg_mr(State& s, const Step& step, StepResult& r);
void do_write_memory(State& s, const Step& step, StepResult& r);
void do_set_memlock(State& s, const Step& step, StepResult& r);

// actions_cq.cpp: completion channels and queues, completion events.
void do_create_channel(State& s, const Step& step, StepResult& r);
void do_create_cq(State& s, const Step& step, StepResult& r);
void do_req_notify_cq(State& s, const Step& step, StepResult& r);
void do_wait_cq_event(State& s, const Step& step, StepResult& r);

// actions_qp.cpp: queue pairs, their transitions and queries, address handles.
void do_create_qp(State& s, const Step& step, StepResult& r);
void do_connect(State& s, const Step& step, StepResult& r);
void do_to_init(State& s, const Step& step, StepResult& r);
void do_to_rtr(State& s, const Step& step, StepResult& r);
void do_to_rts(State& s, const Step& step, StepResult& r);
void do_to_sqd(State& s, const Step& step, StepResult& r);
void do_to_err(State& s, const Step& step, StepResult& r);
void do_to_reset(State& s, const Step& step, StepResult& r);
void do_modify_qp(State& s, const Step& step, StepResult& r);
void do_query_qp(State& s, const Step& step, StepResult& r);
void do_create_ah(State& s, const Step& step, StepResult& r);

// actions_post.cpp: work requests posted and completions polled.
void do_post_recv(State& s, const Step& step, StepResult& r);
void do_post_send(State& s, const Step& step, StepResult& r);
void do_poll_cq(State& s, const Step& step, StepResult& r);

// actions_bench.cpp: a measurement and a pause.
void do_bench(State& s, const Step& step, StepResult& r);
void do_wait(State& s, const Step& step, StepResult& r);

// actions_cm.cpp: rdma_cm (chapter 8) and UD multicast (chapter 24).
void do_cm_bind(State& s, const Step& step, StepResult& r);
void do_cm_listen(State& s, const Step& step, StepResult& r);
void do_cm_resolve(State& s, const Step& step, StepResult& r);
void do_cm_resolve_route(State& s, const Step& step, StepResult& r);
void do_cm_event(State& s, const Step& step, StepResult& r);
void do_cm_create_qp(State& s, const Step& step, StepResult& r);
void do_cm_connect(State& s, const Step& step, StepResult& r);
void do_cm_accept(State& s, const Step& step, StepResult& r);
void do_cm_reject(State& s, const Step& step, StepResult& r);
void do_cm_disconnect(State& s, const Step& step, StepResult& r);
void do_mcast_join(State& s, const Step& step, StepResult& r);
void do_mcast_leave(State& s, const Step& step, StepResult& r);

// actions_srq.cpp: shared receive queues, asynchronous events, memory windows.
void do_create_srq(State& s, const Step& step, StepResult& r);
void do_post_srq_recv(State& s, const Step& step, StepResult& r);
void do_modify_srq(State& s, const Step& step, StepResult& r);
void do_query_srq(State& s, const Step& step, StepResult& r);
void do_wait_async_event(State& s, const Step& step, StepResult& r);
void do_alloc_mw(State& s, const Step& step, StepResult& r);
void do_bind_mw(State& s, const Step& step, StepResult& r);
void do_dealloc_mw(State& s, const Step& step, StepResult& r);

// actions_extended.cpp: the extended verbs: the extended device query, QP creation with its send
// operations and the Atomic Write (chapter 14), XRC domains (chapter 7).
void do_query_device_ex(State& s, const Step& step, StepResult& r);
void do_create_qp_ex(State& s, const Step& step, StepResult& r);
void do_post_atomic_write(State& s, const Step& step, StepResult& r);
void do_open_xrcd(State& s, const Step& step, StepResult& r);

// actions_address.cpp: the addresses of the device's network interface (chapter 1).
void do_add_address(State& s, const Step& step, StepResult& r);
void do_remove_address(State& s, const Step& step, StepResult& r);

// actions_wire.cpp: two hosts on a wire.
void do_read_wire(State& s, const Step& step, StepResult& r);
void do_drop_packets(State& s, const Step& step, StepResult& r);

} // namespace rdmalab::labs::run
