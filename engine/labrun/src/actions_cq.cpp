// The actions of completion channels and queues and of completion events: create_channel, create_cq,
// req_notify_cq, wait_cq_event (polling is in actions_post.cpp).
#include "actions.hpp"

#include <chrono>

namespace rdmalab::labs::run {

void do_create_channel(State& s, const Step& step, StepResult&) {
    const std::string name = text(step, "as");
    auto channel = CompletionChannel::create(device(s).context, endpoint_of(name));
    s.channels[name] = channel;
    remember(s, name);
    s.values[name + ".fd"] = std::to_string(channel->get()->fd);
}

void do_create_cq(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "as");
    std::shared_ptr<CompletionChannel> channel;
    if (arg(step, "channel")) channel = s.object(s.channels, step, "channel");
    auto cq = CompletionQueue::create(device(s).context, endpoint_of(name),
                                      static_cast<int>(integer(step, "depth", 16)), channel);
    s.cqs[name] = cq;
    remember(s, name);
    s.values[name + ".cqe"] = std::to_string(cq->get()->cqe);
    r.results["cqe"] = std::to_string(cq->get()->cqe);
}

void do_req_notify_cq(State& s, const Step& step, StepResult&) {
    s.object(s.cqs, step, "cq")->request_notify(boolean(step, "solicited_only", false));
}

void do_wait_cq_event(State& s, const Step& step, StepResult& r) {
    auto& cq = s.object(s.cqs, step, "cq");
    r.timeout_ms = static_cast<int>(integer(step, "timeout", kDefaultTimeoutMs));
    const bool arrived = cq->wait_event(std::chrono::milliseconds(r.timeout_ms));
    r.event_arrived = arrived;
    r.results["arrived"] = arrived ? "yes" : "no";
}

} // namespace rdmalab::labs::run
