// QueuePair: creating and destroying one, its state query, and posting send and receive work requests
// with the explanation of a refused post.
#include "rdmalab/engine/names.hpp"
#include "rdmalab/engine/verbs.hpp"
#include "verbs/qp_capacity.hpp"
#include "verbs/traced_call.hpp"
#include "verbs/work_request.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>

namespace rdmalab {

using namespace detail;

namespace {

/// A detail of an explanation in English and in Chinese.
struct Detail {
    std::string en;
    std::string zh;
};

/// What in a QP's requested capacity exceeds the device's limits, for an ibv_create_qp failure.
Detail create_qp_problem(const Context& context, ibv_qp_type type, const QpCapacity& capacity, int err) {
    std::string detail = fmt::format("{} QP with {} send / {} recv WRs, {} / {} SGEs, inline {}",
                                     qp_type_name(type), capacity.max_send_wr, capacity.max_recv_wr,
                                     capacity.max_send_sge, capacity.max_recv_sge, capacity.max_inline_data);
    std::string detail_zh =
        fmt::format("{} QP：{} 个发送 / {} 个接收 WR，{} / {} 个 SGE，内联数据 {}", qp_type_name(type),
                    capacity.max_send_wr, capacity.max_recv_wr, capacity.max_send_sge, capacity.max_recv_sge,
                    capacity.max_inline_data);
    ibv_device_attr attr{};
    if (err != EINVAL || ibv_query_device(context.get(), &attr) != 0) return {detail, detail_zh};
    std::vector<std::string> over;
    const auto max_wr = static_cast<std::uint32_t>(attr.max_qp_wr);
    const auto max_sge = static_cast<std::uint32_t>(attr.max_sge);
    if (capacity.max_send_wr > max_wr)
        over.push_back(fmt::format("max_send_wr {} > max_qp_wr {}", capacity.max_send_wr, max_wr));
    if (capacity.max_recv_wr > max_wr)
        over.push_back(fmt::format("max_recv_wr {} > max_qp_wr {}", capacity.max_recv_wr, max_wr));
    if (capacity.max_send_sge > max_sge)
        over.push_back(fmt::format("max_send_sge {} > max_sge {}", capacity.max_send_sge, max_sge));
    if (capacity.max_recv_sge > max_sge)
        over.push_back(fmt::format("max_recv_sge {} > max_sge {}", capacity.max_recv_sge, max_sge));
    if (over.empty())
        return {detail +
                    ": no limit of ibv_query_device is exceeded, so the likely culprit is max_inline_data (" +
                    std::to_string(capacity.max_inline_data) +
                    " bytes), whose limit the device does not report: try a smaller one",
                detail_zh +
                    "：没有超出 ibv_query_device 报告的任何限制，因此最可能的原因是 max_inline_data（" +
                    std::to_string(capacity.max_inline_data) + " 字节），设备并不报告它的上限：试试更小的值"};
    std::string text = detail + ": above the device's limits: ";
    std::string text_zh = detail_zh + "：超出了设备的限制：";
    for (std::size_t i = 0; i < over.size(); ++i) {
        text += (i ? ", " : "") + over[i];
        text_zh += (i ? "，" : "") + over[i];
    }
    return {text, text_zh};
}

/// The remote side of a request as its event shows it: the address and rkey of a Write, Read or atomic,
/// the key a LOCAL_INV or SEND_WITH_INV invalidates, what a BIND_MW binds.
void window_fields(const SendRequest& request, nlohmann::json& ids, nlohmann::json& data) {
    switch (request.opcode) {
    case IBV_WR_SEND:
    case IBV_WR_SEND_WITH_IMM:
        break;
    case IBV_WR_LOCAL_INV:
    case IBV_WR_SEND_WITH_INV:
        data["invalidate_rkey"] = request.invalidate_rkey;
        break;
    case IBV_WR_BIND_MW:
        if (request.bind) {
            if (request.bind->window) ids["rkey"] = request.bind->window->rkey();
            data["new_rkey"] = request.bind_rkey;
            data["mw_type"] = "TYPE_2";
            data["addr"] = hex(request.bind->addr);
            data["bind_length"] = request.bind->length;
            data["access"] = access_flag_names(request.bind->access);
        }
        break;
    default:
        data["remote_addr"] = hex(request.remote_addr);
        ids["rkey"] = request.rkey;
        break;
    }
}

} // namespace

QueuePair::QueuePair(std::shared_ptr<ProtectionDomain> pd, std::shared_ptr<CompletionQueue> send_cq,
                     std::shared_ptr<CompletionQueue> recv_cq, std::shared_ptr<SharedReceiveQueue> srq,
                     ibv_qp* qp, ibv_qp_type type, QpCapacity capacity, TraceScope trace)
    : pd_(std::move(pd)), send_cq_(std::move(send_cq)), recv_cq_(std::move(recv_cq)), srq_(std::move(srq)),
      qp_(qp), type_(type), capacity_(capacity), trace_(std::move(trace)) {}

std::shared_ptr<QueuePair> QueuePair::create(std::shared_ptr<ProtectionDomain> pd,
                                             std::shared_ptr<CompletionQueue> send_cq,
                                             std::shared_ptr<CompletionQueue> recv_cq, ibv_qp_type type,
                                             const QpCapacity& capacity, Endpoint endpoint,
                                             std::shared_ptr<SharedReceiveQueue> srq) {
    ibv_qp_init_attr init{};
    init.srq = srq ? srq->get() : nullptr;
    init.send_cq = send_cq->get();
    init.recv_cq = recv_cq->get();
    init.qp_type = type;
    init.sq_sig_all = 0;
    init.cap.max_send_wr = capacity.max_send_wr;
    // ibv_create_qp(3): with an SRQ the receive capacities are ignored; 0 says so in the trace too.
    init.cap.max_recv_wr = srq ? 0 : capacity.max_recv_wr;
    init.cap.max_send_sge = capacity.max_send_sge;
    init.cap.max_recv_sge = srq ? 0 : capacity.max_recv_sge;
    init.cap.max_inline_data = capacity.max_inline_data;
    // A QP is attributed to its PD's endpoint unless it names its own (a lab's C.qp in A's PD).
    const TraceScope scope =
        endpoint == Endpoint::None ? pd->trace() : TraceScope{pd->trace().tracer, endpoint};
    ibv_qp* qp = traced_call(
        VerbCall{.scope = scope, .verb = "ibv_create_qp", .timed = true},
        [&] { return ibv_create_qp(pd->get(), &init); },
        [&](const auto& call, nlohmann::json& ids, nlohmann::json& data) {
            ids = {{"pd", pd->handle()}, {"send_cq", send_cq->id()}, {"recv_cq", recv_cq->id()}};
            if (call.ok()) ids["qpn"] = call.value->qp_num;
            data["args"] = {
                {"qp_type", qp_type_name(type)},         {"max_send_wr", capacity.max_send_wr},
                {"max_recv_wr", capacity.max_recv_wr},   {"max_send_sge", capacity.max_send_sge},
                {"max_recv_sge", capacity.max_recv_sge}, {"max_inline_data", capacity.max_inline_data}};
            if (srq) {
                ids["srq"] = srq->handle();
                data["args"]["max_recv_wr"] = 0;
                data["args"]["max_recv_sge"] = 0;
            }
            data["state"] = "RESET";
        },
        [&](const auto& call) {
            const Detail problem = create_qp_problem(*pd->context(), type, capacity, call.err);
            return explain_errno("ibv_create_qp", call.err, problem.en, problem.zh);
        });
    // The device may round every capacity up: keep what it granted, which is what post_send checks against.
    const QpCapacity actual = granted_capacity(init.cap);
    pd->context()->register_qp(qp->qp_num, scope.endpoint);
    return std::shared_ptr<QueuePair>(new QueuePair(std::move(pd), std::move(send_cq), std::move(recv_cq),
                                                    std::move(srq), qp, type, actual, scope));
}

std::shared_ptr<QueuePair> QueuePair::adopt(std::shared_ptr<ProtectionDomain> pd,
                                            std::shared_ptr<CompletionQueue> send_cq,
                                            std::shared_ptr<CompletionQueue> recv_cq, ibv_qp* qp,
                                            const QpCapacity& granted, Endpoint endpoint,
                                            std::function<void()> release, const char* release_verb) {
    const TraceScope scope =
        endpoint == Endpoint::None ? pd->trace() : TraceScope{pd->trace().tracer, endpoint};
    pd->context()->register_qp(qp->qp_num, scope.endpoint);
    std::shared_ptr<QueuePair> adopted(new QueuePair(std::move(pd), std::move(send_cq), std::move(recv_cq),
                                                     nullptr, qp, qp->qp_type, granted, scope));
    adopted->release_ = std::move(release);
    adopted->release_verb_ = release_verb;
    adopted->state_ = adopted->current_state_quietly();
    return adopted;
}

QueuePair::~QueuePair() {
    const std::uint32_t qpn = qp_->qp_num;
    traced_release(
        trace_, release_verb_,
        [&] {
            if (!release_) return ibv_destroy_qp(qp_);
            release_(); // rdma_destroy_qp returns nothing
            return 0;
        },
        [&](nlohmann::json& ids, nlohmann::json&) { ids["qpn"] = qpn; });
}

ibv_qp_state QueuePair::query_state() const {
    ibv_qp_attr attr{};
    ibv_qp_init_attr init{};
    traced_call(
        VerbCall{.scope = trace_, .verb = "ibv_query_qp"},
        [&] { return ibv_query_qp(qp_, &attr, IBV_QP_STATE, &init); },
        [&](const auto& call, nlohmann::json& ids, nlohmann::json& data) {
            ids["qpn"] = qp_->qp_num;
            data["args"] = {{"attr_mask", {"STATE"}}};
            data["state"] = call.ok() ? qp_state_name(attr.qp_state) : "";
        },
        [](const auto& call) { return explain_errno("ibv_query_qp", call.value); });
    return attr.qp_state;
}

ibv_send_wr QueuePair::to_ibv_send_wr(const SendRequest& request, std::vector<ibv_sge>& sges) const {
    sges = to_ibv_sges(request.sges);
    ibv_send_wr wr{};
    wr.wr_id = request.wr_id;
    wr.sg_list = sges.empty() ? nullptr : sges.data();
    wr.num_sge = static_cast<int>(sges.size());
    wr.opcode = request.opcode;
    unsigned flags = 0;
    if (request.signaled) flags |= IBV_SEND_SIGNALED;
    if (request.inline_data) flags |= IBV_SEND_INLINE;
    if (request.solicited) flags |= IBV_SEND_SOLICITED;
    if (request.fence) flags |= IBV_SEND_FENCE;
    wr.send_flags = flags;
    if (request.imm_data) wr.imm_data = htonl(*request.imm_data);
    switch (request.opcode) {
    case IBV_WR_RDMA_WRITE:
    case IBV_WR_RDMA_WRITE_WITH_IMM:
    case IBV_WR_RDMA_READ:
        wr.wr.rdma.remote_addr = request.remote_addr;
        wr.wr.rdma.rkey = request.rkey;
        break;
    case IBV_WR_ATOMIC_CMP_AND_SWP:
    case IBV_WR_ATOMIC_FETCH_AND_ADD:
        wr.wr.atomic.remote_addr = request.remote_addr;
        wr.wr.atomic.rkey = request.rkey;
        wr.wr.atomic.compare_add = request.compare_add;
        wr.wr.atomic.swap = request.swap;
        break;
    case IBV_WR_LOCAL_INV:
    case IBV_WR_SEND_WITH_INV:
        wr.invalidate_rkey = request.invalidate_rkey;
        break;
    case IBV_WR_BIND_MW:
        if (request.bind) {
            wr.bind_mw.mw = request.bind->window ? request.bind->window->get() : nullptr;
            wr.bind_mw.rkey = request.bind_rkey;
            wr.bind_mw.bind_info.mr = request.bind->region ? request.bind->region->get() : nullptr;
            wr.bind_mw.bind_info.addr = request.bind->addr;
            wr.bind_mw.bind_info.length = request.bind->length;
            wr.bind_mw.bind_info.mw_access_flags = request.bind->access;
        }
        break;
    default:
        break;
    }
    if (type_ == IBV_QPT_UD && request.ah) {
        wr.wr.ud.ah = request.ah->get();
        wr.wr.ud.remote_qpn = request.remote_qpn;
        wr.wr.ud.remote_qkey = request.remote_qkey;
    }
    return wr;
}

void QueuePair::post_send(const SendRequest& request) {
    std::vector<ibv_sge> sges;
    ibv_send_wr wr = to_ibv_send_wr(request, sges);
    ibv_send_wr* bad = nullptr;
    traced_call(
        post_call(trace_, "ibv_post_send", wr_opcode_name(request.opcode), syscalls_.get(),
                  last_post_syscalls_),
        [&] { return ibv_post_send(qp_, &wr, &bad); },
        [&](const auto&, nlohmann::json& ids, nlohmann::json& data) {
            ids = {{"qpn", qp_->qp_num}, {"wr_id", request.wr_id}};
            data["queue"] = "send";
            data["opcode"] = wr_opcode_name(request.opcode);
            data["signaled"] = request.signaled;
            data["inline"] = request.inline_data;
            if (request.fence) data["fence"] = true;
            if (request.solicited) data["solicited"] = true;
            sg_fields(request.sges, ids, data);
            if (request.imm_data) data["imm_data"] = *request.imm_data;
            window_fields(request, ids, data);
            if (request.opcode == IBV_WR_ATOMIC_CMP_AND_SWP) {
                data["compare"] = request.compare_add;
                data["swap"] = request.swap;
            } else if (request.opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) {
                data["add"] = request.compare_add;
            }
        },
        [&](const auto& call) { return explain_post_send_error(call.value, request); });
    record_bind(request);
}

void QueuePair::record_bind(const SendRequest& request) {
    // A posted type 2 bind gives the window its new key now: the next request on this QP already sees it.
    if (request.opcode != IBV_WR_BIND_MW || !request.bind || !request.bind->window) return;
    request.bind->window->bound(request.bind_rkey, request.bind->addr, request.bind->length);
    request.bind->window->region_ = request.bind->region;
}

void QueuePair::post_send_list(std::span<const SendRequest> requests) {
    if (requests.empty()) return;
    if (requests.size() == 1) return post_send(requests.front());
    std::vector<std::vector<ibv_sge>> sges(requests.size());
    std::vector<ibv_send_wr> wrs(requests.size());
    for (std::size_t i = 0; i < requests.size(); ++i) {
        wrs[i] = to_ibv_send_wr(requests[i], sges[i]);
        if (i > 0) wrs[i - 1].next = &wrs[i];
    }
    ibv_send_wr* bad = nullptr;
    const SendRequest& first = requests.front();
    traced_call(
        post_call(trace_, "ibv_post_send", wr_opcode_name(first.opcode), syscalls_.get(),
                  last_post_syscalls_),
        [&] { return ibv_post_send(qp_, wrs.data(), &bad); },
        [&](const auto& call, nlohmann::json& ids, nlohmann::json& data) {
            ids = {{"qpn", qp_->qp_num}, {"wr_id", first.wr_id}};
            data["queue"] = "send";
            data["opcode"] = wr_opcode_name(first.opcode);
            data["chain"] = requests.size();
            nlohmann::json wr_ids = nlohmann::json::array();
            std::size_t signaled = 0;
            for (const auto& r : requests) {
                wr_ids.push_back(r.wr_id);
                signaled += r.signaled ? 1 : 0;
            }
            data["wr_ids"] = wr_ids;
            data["signaled_count"] = signaled;
            data["signaled"] = first.signaled;
            data["inline"] = first.inline_data;
            sg_fields(first.sges, ids, data);
            window_fields(first, ids, data);
            if (!call.ok() && bad != nullptr) data["bad_index"] = bad - wrs.data();
        },
        [&](const auto& call) {
            const std::size_t index = bad ? static_cast<std::size_t>(bad - wrs.data()) : 0;
            ErrorInfo info =
                explain_post_send_error(call.value, requests[std::min(index, requests.size() - 1)]);
            info.cause = fmt::format("request {} of a chain of {} was refused ({} before it were posted): {}",
                                     index, requests.size(), index, info.cause);
            info.zh.cause =
                fmt::format("由 {1} 个请求组成的链中，请求 {0} 被拒绝（它之前的 {2} 个已经投递）：{3}", index,
                            requests.size(), index, info.zh.cause);
            return info.seal();
        });
    for (const auto& r : requests)
        record_bind(r);
}

void QueuePair::post_recv(const RecvRequest& request) {
    std::vector<ibv_sge> sges;
    ibv_recv_wr wr = to_ibv_recv_wr(request, sges);
    ibv_recv_wr* bad = nullptr;
    traced_call(
        post_call(trace_, "ibv_post_recv", "RECV", syscalls_.get(), last_post_syscalls_),
        [&] { return ibv_post_recv(qp_, &wr, &bad); },
        [&](const auto&, nlohmann::json& ids, nlohmann::json& data) {
            ids = {{"qpn", qp_->qp_num}, {"wr_id", request.wr_id}};
            data["queue"] = "recv";
            sg_fields(request.sges, ids, data);
        },
        [&](const auto& call) {
            const int ret = call.value;
            const ibv_qp_state state = current_state_quietly();
            const std::string detail =
                fmt::format("posting a receive on QP {} in state {}", qp_->qp_num, qp_state_name(state));
            const std::string detail_zh =
                fmt::format("在状态为 {1} 的 QP {0} 上投递接收请求", qp_->qp_num, qp_state_name(state));
            ErrorInfo info = explain_errno("ibv_post_recv", ret, detail, detail_zh);
            if (srq_) {
                info.cause =
                    fmt::format("{}: the QP was created with SRQ {}, so it has no receive queue of its "
                                "own (ibv_create_qp(3): with srq set, the receive capacities are "
                                "ignored).",
                                detail, srq_->handle());
                info.fix = "Post receives to the shared receive queue (ibv_post_srq_recv).";
                info.zh.cause = fmt::format("{}：该 QP 创建时指定了 SRQ {}，因此它没有自己的接收队列"
                                            "（ibv_create_qp(3)：设置了 srq 时，接收方面的容量会被忽略）。",
                                            detail_zh, srq_->handle());
                info.zh.fix = "把接收请求投递到共享接收队列（ibv_post_srq_recv）。";
            } else if (ret == EINVAL && state == IBV_QPS_RESET) {
                info.cause = detail +
                             ": a QP takes receive work requests from INIT on (and in RTR, RTS, SQD, "
                             "SQE; in ERR they are flushed), never in RESET.";
                info.fix = "Move the QP to INIT (ibv_modify_qp) before posting receives.";
                info.zh.cause = detail_zh +
                                "：QP 从 INIT 起才接受接收工作请求（在 RTR、RTS、SQD、SQE 中也接受；"
                                "在 ERR 中它们会被冲刷），在 RESET 中从不接受。";
                info.zh.fix = "投递接收请求之前，先把 QP 转到 INIT（ibv_modify_qp）。";
            } else if (ret == EINVAL && request.sges.size() > capacity_.max_recv_sge) {
                info.cause = fmt::format("{}: num_sge {} is above the QP's max_recv_sge {}.", detail,
                                         request.sges.size(), capacity_.max_recv_sge);
                info.fix = "Use fewer scatter/gather entries, or create the QP with a larger max_recv_sge.";
                info.zh.cause = fmt::format("{}：num_sge {} 超过了 QP 的 max_recv_sge {}。", detail_zh,
                                            request.sges.size(), capacity_.max_recv_sge);
                info.zh.fix = "减少分散/聚集条目，或者以更大的 max_recv_sge 创建 QP。";
            } else if (ret == ENOMEM) {
                info.cause =
                    fmt::format("{}: the receive queue is full ({} receives outstanding, max_recv_wr).",
                                detail, capacity_.max_recv_wr);
                info.fix = "Let receives complete (poll the CQ) before posting more, or create the QP with a "
                           "larger max_recv_wr.";
                info.zh.cause = fmt::format("{}：接收队列已满（{} 个接收请求尚未完成，即 max_recv_wr）。",
                                            detail_zh, capacity_.max_recv_wr);
                info.zh.fix = "先让接收请求完成（轮询 CQ）再投递更多，或者以更大的 max_recv_wr 创建 QP。";
            }
            return info.seal();
        });
}

ibv_qp_attr QueuePair::query_attributes() const {
    ibv_qp_attr attr{};
    ibv_qp_init_attr init{};
    const int mask = IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_RQ_PSN | IBV_QP_DEST_QPN;
    traced_call(
        VerbCall{.scope = trace_, .verb = "ibv_query_qp"},
        [&] { return ibv_query_qp(qp_, &attr, mask, &init); },
        [&](const auto& call, nlohmann::json& ids, nlohmann::json& data) {
            ids["qpn"] = qp_->qp_num;
            data["args"] = {{"attr_mask", qp_attr_mask_names(mask)}};
            if (!call.ok()) return;
            data["state"] = qp_state_name(attr.qp_state);
            data["sq_psn"] = attr.sq_psn;
            data["rq_psn"] = attr.rq_psn;
            data["dest_qp_num"] = attr.dest_qp_num;
            data["sq_draining"] = attr.sq_draining;
        },
        [](const auto& call) { return explain_errno("ibv_query_qp", call.value); });
    return attr;
}

ibv_qp_state QueuePair::current_state_quietly() const {
    ibv_qp_attr attr{};
    ibv_qp_init_attr init{};
    return ibv_query_qp(qp_, &attr, IBV_QP_STATE, &init) == 0 ? attr.qp_state : state_;
}

ErrorInfo QueuePair::explain_post_send_error(int ret, const SendRequest& request) const {
    const ibv_qp_state state = current_state_quietly();
    const std::string detail = fmt::format("posting {} on QP {} in state {}", wr_opcode_name(request.opcode),
                                           qp_->qp_num, qp_state_name(state));
    const std::string detail_zh =
        fmt::format("在状态为 {2} 的 QP {1} 上投递 {0}", wr_opcode_name(request.opcode), qp_->qp_num,
                    qp_state_name(state));
    ErrorInfo info = explain_errno("ibv_post_send", ret, detail, detail_zh);
    std::uint64_t total = 0;
    for (const auto& sge : request.sges)
        total += sge.length;
    const bool atomic =
        request.opcode == IBV_WR_ATOMIC_CMP_AND_SWP || request.opcode == IBV_WR_ATOMIC_FETCH_AND_ADD;
    if (ret == EINVAL && (state == IBV_QPS_RESET || state == IBV_QPS_INIT || state == IBV_QPS_RTR)) {
        info.cause = detail + ": a QP takes send work requests in RTS and SQD (and in SQE and ERR, where "
                              "they complete with WR_FLUSH_ERR), never in RESET, INIT or RTR.";
        info.fix = "Finish the RESET->INIT->RTR->RTS transitions before posting sends. On SoftRoCE (rxe) "
                   "the refused request is not gone: the library had already queued it, and it runs once "
                   "the QP reaches RTS and the next send is posted; reset or destroy the QP to drop it.";
        info.zh.cause = detail_zh + "：QP 在 RTS 和 SQD 中接受发送工作请求（在 SQE 和 ERR 中也接受，但它们以 "
                                    "WR_FLUSH_ERR 完成），在 RESET、INIT 或 RTR 中从不接受。";
        info.zh.fix = "先完成 RESET->INIT->RTR->RTS 转换，再投递发送请求。在 SoftRoCE（rxe）上，被拒绝的请求"
                      "并没有消失：库已经把它放进了队列，一旦 QP 到达 RTS 并投递下一个发送请求，它就会执行；"
                      "要丢弃它，就重置或销毁 QP。";
    } else if ((ret == EINVAL || ret == ENOMEM) && request.sges.size() > capacity_.max_send_sge) {
        info.cause = fmt::format("{}: num_sge {} is above the QP's max_send_sge {}.", detail,
                                 request.sges.size(), capacity_.max_send_sge);
        info.fix = "Use fewer scatter/gather entries, or create the QP with a larger max_send_sge.";
        info.zh.cause = fmt::format("{}：num_sge {} 超过了 QP 的 max_send_sge {}。", detail_zh,
                                    request.sges.size(), capacity_.max_send_sge);
        info.zh.fix = "减少分散/聚集条目，或者以更大的 max_send_sge 创建 QP。";
    } else if ((ret == EINVAL || ret == ENOMEM) && request.inline_data && total > capacity_.max_inline_data) {
        info.cause = fmt::format("{}: the inline payload of {} bytes is above the QP's max_inline_data {}.",
                                 detail, total, capacity_.max_inline_data);
        info.fix =
            "Send it without IBV_SEND_INLINE (the device then reads it from the registered buffer: a NIC "
            "by DMA, SoftRoCE with a CPU copy in the kernel), or "
            "create the QP with a larger max_inline_data.";
        info.zh.cause = fmt::format("{}：{} 字节的内联（inline）数据超过了 QP 的 max_inline_data {}。",
                                    detail_zh, total, capacity_.max_inline_data);
        info.zh.fix = "不带 IBV_SEND_INLINE 发送（这时设备从已注册的缓冲区读取数据：网卡通过 DMA，SoftRoCE "
                      "在内核中由 CPU 复制），或者以更大的 max_inline_data 创建 QP。";
    } else if (ret == EINVAL && atomic && request.remote_addr % 8 != 0) {
        info.cause =
            fmt::format("{}: the remote address 0x{:x} is not 8-byte aligned; atomic operations work "
                        "on one aligned 64-bit word.",
                        detail, request.remote_addr);
        info.fix = "Use a remote address that is a multiple of 8.";
        info.zh.cause =
            fmt::format("{}：远端地址 0x{:x} 没有按 8 字节对齐；原子操作作用于一个对齐的 64 位字。",
                        detail_zh, request.remote_addr);
        info.zh.fix = "使用 8 的倍数作为远端地址。";
    } else if (ret == EINVAL && atomic && total != 8) {
        info.cause = fmt::format("{}: an atomic operation needs exactly one 8-byte local buffer for the "
                                 "original value, not {} bytes.",
                                 detail, total);
        info.fix = "Give the atomic one scatter/gather entry of length 8.";
        info.zh.cause = fmt::format("{}：原子操作需要恰好一个 8 字节的本地缓冲区来存放原值，而不是 {} 字节。",
                                    detail_zh, total);
        info.zh.fix = "给原子操作一个长度为 8 的分散/聚集条目。";
    } else if (ret == ENOMEM) {
        info.cause = fmt::format("{}: the send queue is full ({} requests outstanding, max_send_wr).", detail,
                                 capacity_.max_send_wr);
        info.fix = "Poll completions before posting more (a request leaves the queue when it completes), or "
                   "create the QP with a larger max_send_wr.";
        info.zh.cause = fmt::format("{}：发送队列已满（{} 个请求尚未完成，即 max_send_wr）。", detail_zh,
                                    capacity_.max_send_wr);
        info.zh.fix = "先轮询完成再投递更多（请求完成后才离开队列），或者以更大的 max_send_wr 创建 QP。";
    }
    return info.seal();
}

} // namespace rdmalab
