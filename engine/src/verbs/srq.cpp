// SharedReceiveQueue: ibv_create_srq, ibv_post_srq_recv, ibv_modify_srq (the limit), ibv_query_srq and
// ibv_destroy_srq, each traced, with the explanation of a refused call.
#include "rdmalab/engine/verbs.hpp"
#include "verbs/traced_call.hpp"
#include "verbs/work_request.hpp"

#include <fmt/format.h>

#include <cerrno>

namespace rdmalab {

using namespace detail;

SharedReceiveQueue::SharedReceiveQueue(std::shared_ptr<ProtectionDomain> pd, ibv_srq* srq,
                                       std::uint32_t max_wr, std::uint32_t max_sge, TraceScope trace)
    : pd_(std::move(pd)), srq_(srq), max_wr_(max_wr), max_sge_(max_sge), trace_(std::move(trace)) {}

std::shared_ptr<SharedReceiveQueue> SharedReceiveQueue::create(std::shared_ptr<ProtectionDomain> pd,
                                                               std::uint32_t max_wr, std::uint32_t max_sge) {
    ibv_srq_init_attr init{};
    init.attr.max_wr = max_wr;
    init.attr.max_sge = max_sge;
    ibv_srq* srq = traced_call(
        VerbCall{.scope = pd->trace(), .verb = "ibv_create_srq", .timed = true},
        [&] { return ibv_create_srq(pd->get(), &init); },
        [&](const auto& call, nlohmann::json& ids, nlohmann::json& data) {
            ids["pd"] = pd->handle();
            if (call.ok()) ids["srq"] = call.value->handle;
            data["args"] = {{"max_wr", max_wr}, {"max_sge", max_sge}};
            if (call.ok()) data["granted"] = {{"max_wr", init.attr.max_wr}, {"max_sge", init.attr.max_sge}};
        },
        [&](const auto& call) {
            ErrorInfo info =
                explain_errno("ibv_create_srq", call.err,
                              fmt::format("an SRQ of {} receives with {} SGEs", max_wr, max_sge),
                              fmt::format("容纳 {} 个接收请求、每个 {} 个 SGE 的 SRQ", max_wr, max_sge));
            ibv_device_attr attr{};
            if (call.err == EINVAL && ibv_query_device(pd->context()->get(), &attr) == 0) {
                if (attr.max_srq == 0) {
                    info.cause = "The device has no shared receive queues (max_srq is 0).";
                    info.fix = "Give every QP its own receive queue.";
                    info.zh.cause = "该设备没有共享接收队列（SRQ）（max_srq 为 0）。";
                    info.zh.fix = "让每个 QP 使用自己的接收队列。";
                    info.seal();
                } else if (max_wr > static_cast<std::uint32_t>(attr.max_srq_wr) ||
                           max_sge > static_cast<std::uint32_t>(attr.max_srq_sge)) {
                    info.cause = fmt::format("max_wr {} or max_sge {} is above the device's max_srq_wr {} / "
                                             "max_srq_sge {} (ibv_query_device).",
                                             max_wr, max_sge, attr.max_srq_wr, attr.max_srq_sge);
                    info.fix = "Ask for at most max_srq_wr receives and max_srq_sge entries.";
                    info.zh.cause = fmt::format("max_wr {} 或 max_sge {} 超过了设备的 max_srq_wr {} / "
                                                "max_srq_sge {}（ibv_query_device）。",
                                                max_wr, max_sge, attr.max_srq_wr, attr.max_srq_sge);
                    info.zh.fix = "申请的接收请求数不超过 max_srq_wr，条目数不超过 max_srq_sge。";
                    info.seal();
                }
            }
            return info;
        });
    // ibv_create_srq(3): the device writes the sizes it granted (at least those asked) back into attr.
    return std::shared_ptr<SharedReceiveQueue>(
        new SharedReceiveQueue(pd, srq, init.attr.max_wr, init.attr.max_sge, pd->trace()));
}

SharedReceiveQueue::~SharedReceiveQueue() {
    const std::uint32_t handle = srq_->handle;
    traced_release(
        trace_, "ibv_destroy_srq", [&] { return ibv_destroy_srq(srq_); },
        [&](nlohmann::json& ids, nlohmann::json&) { ids["srq"] = handle; });
}

void SharedReceiveQueue::post_recv(const RecvRequest& request) {
    std::vector<ibv_sge> sges;
    ibv_recv_wr wr = to_ibv_recv_wr(request, sges);
    ibv_recv_wr* bad = nullptr;
    traced_call(
        VerbCall{.scope = trace_, .verb = "ibv_post_srq_recv", .kind = EventKind::PostWr, .event = "RECV"},
        [&] { return ibv_post_srq_recv(srq_, &wr, &bad); },
        [&](const auto&, nlohmann::json& ids, nlohmann::json& data) {
            ids = {{"srq", srq_->handle}, {"wr_id", request.wr_id}};
            data["queue"] = "srq";
            sg_fields(request.sges, ids, data);
        },
        [&](const auto& call) {
            const std::string detail = fmt::format("posting a receive on SRQ {}", srq_->handle);
            const std::string detail_zh = fmt::format("在 SRQ {} 上投递接收请求", srq_->handle);
            ErrorInfo info = explain_errno("ibv_post_srq_recv", call.value, detail, detail_zh);
            if (call.value == ENOMEM) {
                info.cause = fmt::format("{}: the SRQ is full ({} receives outstanding, its max_wr).", detail,
                                         max_wr_);
                info.fix =
                    "Let the QPs that share it consume receives first, or create the SRQ with a larger "
                    "max_wr.";
                info.zh.cause =
                    fmt::format("{}：SRQ 已满（{} 个接收请求尚未完成，即它的 max_wr）。", detail_zh, max_wr_);
                info.zh.fix = "先让共享它的那些 QP 消耗掉一些接收请求，或者以更大的 max_wr 创建 SRQ。";
            } else if (call.value == EINVAL && request.sges.size() > max_sge_) {
                info.cause = fmt::format("{}: num_sge {} is above the SRQ's max_sge {}.", detail,
                                         request.sges.size(), max_sge_);
                info.fix = "Use fewer scatter/gather entries, or create the SRQ with a larger max_sge.";
                info.zh.cause = fmt::format("{}：num_sge {} 超过了 SRQ 的 max_sge {}。", detail_zh,
                                            request.sges.size(), max_sge_);
                info.zh.fix = "减少分散/聚集条目，或者以更大的 max_sge 创建 SRQ。";
            }
            return info.seal();
        });
}

void SharedReceiveQueue::arm_limit(std::uint32_t limit) {
    ibv_srq_attr attr{};
    attr.srq_limit = limit;
    traced_call(
        VerbCall{.scope = trace_, .verb = "ibv_modify_srq"},
        [&] { return ibv_modify_srq(srq_, &attr, IBV_SRQ_LIMIT); },
        [&](const auto&, nlohmann::json& ids, nlohmann::json& data) {
            ids["srq"] = srq_->handle;
            data["args"] = {{"attr_mask", {"LIMIT"}}, {"srq_limit", limit}};
        },
        [&](const auto& call) {
            ErrorInfo info =
                explain_errno("ibv_modify_srq", call.value,
                              fmt::format("arming SRQ {} with srq_limit {}", srq_->handle, limit),
                              fmt::format("为 SRQ {} 设置 srq_limit {}", srq_->handle, limit));
            if (call.value == EINVAL) {
                info.cause =
                    fmt::format("srq_limit {} is not valid for SRQ {} of {} receives: the limit must be "
                                "below the SRQ's size (and some devices cannot arm it at all).",
                                limit, srq_->handle, max_wr_);
                info.fix = "Arm a limit smaller than max_wr.";
                info.zh.cause =
                    fmt::format("srq_limit {0} 对容纳 {2} 个接收请求的 SRQ {1} 无效：限值必须小于 SRQ 的大小"
                                "（有些设备根本无法设置它）。",
                                limit, srq_->handle, max_wr_);
                info.zh.fix = "设置一个小于 max_wr 的限值。";
                info.seal();
            }
            return info;
        });
}

ibv_srq_attr SharedReceiveQueue::query() const {
    ibv_srq_attr attr{};
    traced_call(
        VerbCall{.scope = trace_, .verb = "ibv_query_srq"}, [&] { return ibv_query_srq(srq_, &attr); },
        [&](const auto& call, nlohmann::json& ids, nlohmann::json& data) {
            ids["srq"] = srq_->handle;
            if (!call.ok()) return;
            data["max_wr"] = attr.max_wr;
            data["max_sge"] = attr.max_sge;
            data["srq_limit"] = attr.srq_limit;
        },
        [&](const auto& call) {
            return explain_errno("ibv_query_srq", call.value, fmt::format("SRQ {}", srq_->handle));
        });
    return attr;
}

} // namespace rdmalab
