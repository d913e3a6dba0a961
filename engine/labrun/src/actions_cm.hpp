// The rdma_cm and UD multicast actions (actions_cm.cpp), registered in actions.cpp's action_table().
// Internal.
#pragma once

#include "run_state.hpp"

namespace rdmalab::labs::run {

/// open_device with `address`: binds an rdma_cm id to the address and borrows the context of the device
/// it bound to, so the lab's PDs and CQs are on the device rdma_cm uses.
std::shared_ptr<Context> open_device_by_address(State& s, const std::string& address, DeviceState& d);

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

} // namespace rdmalab::labs::run
