// Actions of the locked-memory limit (chapter 4), the extended device query and QP creation with the
// Atomic Write (chapter 14), and XRC domains (chapter 7). Internal; registered in actions.cpp's table.
#pragma once

#include "run_state.hpp"

namespace rdmalab::labs::run {

void do_set_memlock(State& s, const Step& step, StepResult& r);
void do_query_device_ex(State& s, const Step& step, StepResult& r);
void do_create_qp_ex(State& s, const Step& step, StepResult& r);
void do_post_atomic_write(State& s, const Step& step, StepResult& r);
void do_open_xrcd(State& s, const Step& step, StepResult& r);

} // namespace rdmalab::labs::run
