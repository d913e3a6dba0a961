// ProtectionDomain: ibv_alloc_pd / ibv_dealloc_pd.
#include "rdmalab/engine/verbs.hpp"
#include "verbs/traced_call.hpp"

#include <fmt/format.h>

#include <cerrno>

namespace rdmalab {

using namespace detail;

ProtectionDomain::ProtectionDomain(std::shared_ptr<Context> context, ibv_pd* pd, TraceScope trace)
    : context_(std::move(context)), pd_(pd), handle_(pd->handle), trace_(std::move(trace)) {}

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

std::uint64_t ProtectionDomain::dealloc() {
    if (pd_ == nullptr) return 0;
    std::uint64_t dur_ns = 0;
    traced_call(
        VerbCall{.scope = trace_, .verb = "ibv_dealloc_pd", .timed = true, .duration = &dur_ns},
        [&] { return ibv_dealloc_pd(pd_); },
        [&](const auto&, nlohmann::json& ids, nlohmann::json&) { ids["pd"] = handle_; },
        [&](const auto& call) {
            ErrorInfo info = explain_errno("ibv_dealloc_pd", call.value, fmt::format("PD {}", handle_));
            if (call.value == EBUSY) {
                info.cause = fmt::format("PD {} is still in use: a QP, shared receive queue, memory region, "
                                         "memory window or address handle created in it still exists.",
                                         handle_);
                info.fix = "Destroy the PD's QPs, SRQs and AHs, deallocate its memory windows and deregister "
                           "its regions first, then deallocate it.";
                info.zh.cause =
                    fmt::format("PD {} 仍在使用中：在它上面创建的 QP、共享接收队列（SRQ）、内存区域、"
                                "内存窗口或地址句柄仍然存在。",
                                handle_);
                info.zh.fix = "先销毁这个 PD 上的 QP、SRQ 和 AH，释放它的内存窗口，并注销它的内存区域，"
                              "然后再释放 PD。";
                info.seal();
            }
            return info;
        });
    pd_ = nullptr;
    return dur_ns;
}

ProtectionDomain::~ProtectionDomain() {
    if (pd_ == nullptr) return; // deallocated by dealloc()
    const std::uint32_t handle = handle_;
    traced_release(
        trace_, "ibv_dealloc_pd", [&] { return ibv_dealloc_pd(pd_); },
        [&](nlohmann::json& ids, nlohmann::json&) { ids["pd"] = handle; });
}

} // namespace rdmalab
