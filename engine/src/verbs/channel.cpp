// CompletionChannel: ibv_create_comp_channel / ibv_destroy_comp_channel, for CQs in event mode.
#include "rdmalab/engine/verbs.hpp"
#include "verbs/traced_call.hpp"

namespace rdmalab {

using namespace detail;

CompletionChannel::CompletionChannel(std::shared_ptr<Context> context, ibv_comp_channel* channel,
                                     TraceScope trace)
    : context_(std::move(context)), channel_(channel), trace_(std::move(trace)) {}

std::shared_ptr<CompletionChannel> CompletionChannel::create(std::shared_ptr<Context> context,
                                                             Endpoint endpoint) {
    TraceScope scope{context->tracer(), endpoint};
    ibv_comp_channel* channel = traced_call(
        VerbCall{.scope = scope, .verb = "ibv_create_comp_channel"},
        [&] { return ibv_create_comp_channel(context->get()); }, no_fields,
        [](const auto& call) { return explain_errno("ibv_create_comp_channel", call.err); });
    return std::shared_ptr<CompletionChannel>(new CompletionChannel(std::move(context), channel, scope));
}

CompletionChannel::~CompletionChannel() {
    traced_release(
        trace_, "ibv_destroy_comp_channel", [&] { return ibv_destroy_comp_channel(channel_); }, no_fields);
}

} // namespace rdmalab
