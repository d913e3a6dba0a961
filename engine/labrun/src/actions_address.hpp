// Actions that change the addresses of the device's network interface (chapter 1: the GID table follows
// them). Internal; registered in actions.cpp's table.
#pragma once

#include "run_state.hpp"

namespace rdmalab::labs::run {

void do_add_address(State& s, const Step& step, StepResult& r);
void do_remove_address(State& s, const Step& step, StepResult& r);

} // namespace rdmalab::labs::run
