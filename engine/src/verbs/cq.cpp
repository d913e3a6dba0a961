// CompletionQueue: creating one, polling it (busy or through its channel's events), and the
// completions it returns.
#include "rdmalab/engine/names.hpp"
#include "rdmalab/engine/verbs.hpp"
#include "verbs/traced_call.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <poll.h>

#include <cerrno>

namespace rdmalab {

using namespace detail;

nlohmann::json Completion::to_json() const {
    nlohmann::json j = {{"wr_id", wr_id},
                        {"status", wc_status_name(status)},
                        {"status_meaning", wc_status_meaning(status)},
                        {"opcode", ok() ? wc_opcode_name(opcode) : "(undefined: status is not success)"},
                        {"byte_len", byte_len},
                        {"qp_num", qp_num},
                        {"src_qp", src_qp},
                        {"vendor_err", vendor_err}};
    if (imm_data) j["imm_data"] = *imm_data;
    if (invalidated_rkey) j["invalidated_rkey"] = *invalidated_rkey;
    return j;
}

CompletionQueue::CompletionQueue(std::shared_ptr<Context> context, std::shared_ptr<CompletionChannel> channel,
                                 ibv_cq* cq, TraceScope trace)
    : context_(std::move(context)), channel_(std::move(channel)), cq_(cq), trace_(std::move(trace)) {}

std::shared_ptr<CompletionQueue> CompletionQueue::create(std::shared_ptr<Context> context, Endpoint endpoint,
                                                         int cqe,
                                                         std::shared_ptr<CompletionChannel> channel) {
    TraceScope scope{context->tracer(), endpoint};
    ibv_cq* cq = traced_call(
        VerbCall{.scope = scope, .verb = "ibv_create_cq", .timed = true},
        [&] { return ibv_create_cq(context->get(), cqe, nullptr, channel ? channel->get() : nullptr, 0); },
        [&](const auto& call, nlohmann::json& ids, nlohmann::json& data) {
            if (call.ok()) ids["cq"] = call.value->handle;
            data["args"] = {{"cqe", cqe}, {"event_mode", channel != nullptr}};
            data["actual_cqe"] = call.ok() ? call.value->cqe : 0;
        },
        [&](const auto& call) {
            std::string detail = fmt::format("cqe={}", cqe);
            std::string detail_zh = detail;
            if (call.err == EINVAL) {
                ibv_device_attr attr{};
                if (cqe < 1) {
                    detail += ": a completion queue needs at least one entry";
                    detail_zh += "：完成队列（CQ）至少需要一个条目";
                } else if (ibv_query_device(context->get(), &attr) == 0 && cqe > attr.max_cqe) {
                    detail += fmt::format(" is above the device's max_cqe ({})", attr.max_cqe);
                    detail_zh += fmt::format("，超过了设备的 max_cqe（{}）", attr.max_cqe);
                }
            }
            return explain_errno("ibv_create_cq", call.err, detail, detail_zh);
        });
    return std::shared_ptr<CompletionQueue>(
        new CompletionQueue(std::move(context), std::move(channel), cq, scope));
}

CompletionQueue::~CompletionQueue() {
    if (unacked_events_ > 0) ibv_ack_cq_events(cq_, unacked_events_);
    const std::uint32_t handle = cq_->handle;
    traced_release(
        trace_, "ibv_destroy_cq", [&] { return ibv_destroy_cq(cq_); },
        [&](nlohmann::json& ids, nlohmann::json&) { ids["cq"] = handle; });
}

std::vector<Completion> CompletionQueue::poll(int max) {
    std::vector<ibv_wc> wcs(static_cast<std::size_t>(max));
    // Not a traced_call: an empty poll records nothing (the next event counts them), and a poll that
    // finds completions records one event for the poll and one per completion. So the system calls of
    // the polls (with a meter attached) add up until the event that shows them.
    const auto call = [&] { return ibv_poll_cq(cq_, max, wcs.data()); };
    SyscallTally this_poll;
    const int n = syscalls_ ? syscalls_->count(call, this_poll) : call();
    if (!syscalls_) ++this_poll.uncounted;
    for (SyscallTally* tally : {&poll_syscalls_, &polled_syscalls_}) {
        tally->count += this_poll.count;
        tally->counted += this_poll.counted;
        tally->uncounted += this_poll.uncounted;
        if (!this_poll.why.empty()) tally->why = this_poll.why;
    }
    if (n < 0) fail(trace_, explain_errno("ibv_poll_cq", -n == 0 ? EINVAL : -n, "polling the CQ", "轮询 CQ"));
    if (n == 0) {
        ++empty_polls_;
        return {};
    }
    std::vector<Completion> result;
    result.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        const ibv_wc& wc = wcs[static_cast<std::size_t>(i)];
        Completion c;
        c.wr_id = wc.wr_id;
        c.status = wc.status;
        c.opcode = wc.opcode;
        c.byte_len = wc.byte_len;
        if (wc.status == IBV_WC_SUCCESS && (wc.wc_flags & IBV_WC_WITH_IMM)) c.imm_data = ntohl(wc.imm_data);
        // ibv_poll_cq(3): invalidated_rkey shares imm_data's place and is valid only with IBV_WC_WITH_INV.
        if (wc.status == IBV_WC_SUCCESS && (wc.wc_flags & IBV_WC_WITH_INV))
            c.invalidated_rkey = wc.invalidated_rkey;
        c.qp_num = wc.qp_num;
        c.src_qp = wc.src_qp;
        c.vendor_err = wc.vendor_err;
        c.wc_flags = wc.wc_flags;
        result.push_back(c);
    }
    if (trace_.on()) {
        nlohmann::json data = {
            {"args", {{"num_entries", max}}}, {"ret", n}, {"empty_polls_before", empty_polls_}};
        if (poll_syscalls_.counted > 0 || !poll_syscalls_.why.empty()) syscall_fields(poll_syscalls_, data);
        trace_.record(EventKind::Verb, "ibv_poll_cq", {{"cq", cq_->handle}}, std::move(data));
        for (const auto& c : result)
            trace_.record(EventKind::Wc, std::string(wc_status_name(c.status)),
                          {{"cq", cq_->handle}, {"qpn", c.qp_num}, {"wr_id", c.wr_id}}, c.to_json());
    }
    empty_polls_ = 0;
    poll_syscalls_ = {};
    return result;
}

std::vector<Completion> CompletionQueue::poll_until(std::size_t count, std::chrono::milliseconds timeout) {
    std::vector<Completion> result;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (result.size() < count) {
        auto batch = poll(static_cast<int>(count - result.size()));
        result.insert(result.end(), batch.begin(), batch.end());
        if (batch.empty() && std::chrono::steady_clock::now() > deadline) break;
    }
    return result;
}

void CompletionQueue::request_notify(bool solicited_only) {
    traced_call(
        VerbCall{.scope = trace_, .verb = "ibv_req_notify_cq"},
        [&] { return ibv_req_notify_cq(cq_, solicited_only ? 1 : 0); },
        [&](const auto&, nlohmann::json& ids, nlohmann::json& data) {
            ids["cq"] = cq_->handle;
            data["args"] = {{"solicited_only", solicited_only}};
        },
        [](const auto& call) { return explain_errno("ibv_req_notify_cq", call.value); });
}

bool CompletionQueue::wait_event(std::chrono::milliseconds timeout) {
    if (!channel_)
        fail(trace_, ErrorInfo{.verb = "ibv_get_cq_event",
                               .err = EINVAL,
                               .code = "EINVAL",
                               .meaning = "the CQ has no completion channel",
                               .cause = "wait_event() was called on a CQ created for busy polling",
                               .fix = "Create the CQ with a CompletionChannel to use event mode.",
                               .zh = {.meaning = "该 CQ 没有完成通道",
                                      .cause = "在为忙轮询创建的 CQ 上调用了 wait_event()",
                                      .fix = "创建 CQ 时带上 CompletionChannel，才能使用事件模式。"}}
                         .seal());
    pollfd pfd{channel_->get()->fd, POLLIN, 0};
    const int ready = ::poll(&pfd, 1, static_cast<int>(timeout.count()));
    if (ready <= 0) return false;
    ibv_cq* event_cq = nullptr;
    void* cq_context = nullptr;
    traced_call(
        VerbCall{.scope = trace_, .verb = "ibv_get_cq_event"},
        [&] { return ibv_get_cq_event(channel_->get(), &event_cq, &cq_context); },
        [&](const auto&, nlohmann::json& ids, nlohmann::json&) { ids["cq"] = cq_->handle; },
        // It returns -1 and sets errno.
        [](const auto& call) { return explain_errno("ibv_get_cq_event", call.err); });
    ++unacked_events_;
    // Acknowledge in batches as ibv_get_cq_event(3) recommends; destroy acks the rest.
    if (unacked_events_ >= 16) {
        ibv_ack_cq_events(cq_, unacked_events_);
        unacked_events_ = 0;
    }
    // Not re-armed here: arming is one-shot (ibv_req_notify_cq(3)), and a lab shows exactly that.
    return true;
}

} // namespace rdmalab
