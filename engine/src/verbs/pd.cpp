// ProtectionDomain: ibv_alloc_pd / ibv_dealloc_pd.
#include "rdmalab/verbs.hpp"
#include "verbs/traced_call.hpp"

namespace rdmalab {

using namespace detail;

ProtectionDomain::ProtectionDomain(std::shared_ptr<Context> context, ibv_pd* pd, TraceScope trace)
    : context_(std::move(context)), pd_(pd), trace_(std::move(trace)) {}

std::shared_ptr<ProtectionDomain> ProtectionDomain::alloc(std::shared_ptr<Context> context,
                                                          Endpoint endpoint) {
    TraceScope scope{context->tracer(), endpoint};
    ibv_pd* pd = traced_call(
        VerbCall{.scope = scope, .verb = "ibv_alloc_pd", .timed = true},
        [&] { return ibv_alloc_pd(context->get()); },
        [&](const auto& call, nlohmann::json& ids, nlohmann::json& data) {
            if (call.ok()) ids["pd"] = call.value->handle;
            data["args"] = {{"device", context->device_name()}};
        },
        [](const auto& call) { return explain_errno("ibv_alloc_pd", call.err); });
    return std::shared_ptr<ProtectionDomain>(new ProtectionDomain(std::move(context), pd, scope));
}

ProtectionDomain::~ProtectionDomain() {
    const std::uint32_t handle = pd_->handle;
    traced_release(
        trace_, "ibv_dealloc_pd", [&] { return ibv_dealloc_pd(pd_); },
        [&](nlohmann::json& ids, nlohmann::json&) { ids["pd"] = handle; });
}

} // namespace rdmalab
