// The extended verbs the basic ones cannot express: ibv_query_device_ex (capability bits above 32),
// ibv_create_qp_ex with send_ops_flags, the extended posting API for an Atomic Write (ibv_wr_*), and XRC
// domains (ibv_open_xrcd / ibv_close_xrcd).
#include "rdmalab/engine/names.hpp"
#include "rdmalab/engine/verbs.hpp"
#include "verbs/qp_capacity.hpp"
#include "verbs/traced_call.hpp"
#include "verbs/work_request.hpp"

#include <fmt/format.h>

#include <fcntl.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace rdmalab {

using namespace detail;

namespace {

/// The IBV_QP_EX_WITH_* names of a send_ops_flags value, for the trace and the explanations.
std::vector<std::string> send_ops_names(std::uint64_t ops) {
    static const std::pair<std::uint64_t, const char*> names[] = {
        {IBV_QP_EX_WITH_RDMA_WRITE, "RDMA_WRITE"},
        {IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM, "RDMA_WRITE_WITH_IMM"},
        {IBV_QP_EX_WITH_SEND, "SEND"},
        {IBV_QP_EX_WITH_SEND_WITH_IMM, "SEND_WITH_IMM"},
        {IBV_QP_EX_WITH_RDMA_READ, "RDMA_READ"},
        {IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP, "ATOMIC_CMP_AND_SWP"},
        {IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD, "ATOMIC_FETCH_AND_ADD"},
        {IBV_QP_EX_WITH_LOCAL_INV, "LOCAL_INV"},
        {IBV_QP_EX_WITH_BIND_MW, "BIND_MW"},
        {IBV_QP_EX_WITH_SEND_WITH_INV, "SEND_WITH_INV"},
        {IBV_QP_EX_WITH_TSO, "TSO"},
        {kQpExWithFlush, "FLUSH"},
        {kQpExWithAtomicWrite, "ATOMIC_WRITE"},
    };
    std::vector<std::string> out;
    for (const auto& [bit, name] : names)
        if (ops & bit) out.emplace_back(name);
    return out;
}

ErrorInfo explain_create_qp_ex_error(int err, ibv_qp_type type, std::uint64_t send_ops) {
    const std::string ops = fmt::format("{}", fmt::join(send_ops_names(send_ops), "|"));
    ErrorInfo info = explain_errno(
        "ibv_create_qp_ex", err,
        fmt::format("{} QP with send_ops_flags {}", qp_type_name(type), ops.empty() ? "none" : ops),
        fmt::format("{} QP，send_ops_flags 为 {}", qp_type_name(type), ops.empty() ? "空" : ops));
    if (err != EOPNOTSUPP) return info;
    if (type == IBV_QPT_XRC_SEND || type == IBV_QPT_XRC_RECV) {
        info.cause = fmt::format("The device does not implement the XRC transport (IBTA Vol. 1, annex A14): "
                                 "ibv_query_device reports no IBV_DEVICE_XRC, and it creates no {} QP.",
                                 qp_type_name(type));
        info.fix = "Use RC QPs (one per pair of processes), or an SRQ to share receive buffers within one "
                   "process; XRC needs a device that has it (IBV_DEVICE_XRC).";
        info.zh.cause =
            fmt::format("设备没有实现 XRC 传输（IBTA Vol. 1，附录 A14）：ibv_query_device 没有报告 "
                        "IBV_DEVICE_XRC，它也不会创建 {} QP。",
                        qp_type_name(type));
        info.zh.fix =
            "使用 RC QP（每对进程一个），或者在一个进程内用 SRQ 共享接收缓冲区；XRC 需要具备它的设备"
            "（IBV_DEVICE_XRC）。";
    } else if (send_ops & (kQpExWithFlush | kQpExWithAtomicWrite)) {
        info.cause = fmt::format("send_ops_flags asks for {}, and the provider library refuses an operation "
                                 "it does not implement for this QP type (rdma-core checks send_ops_flags "
                                 "in user space, before the kernel is asked). FLUSH and ATOMIC_WRITE are the "
                                 "IBTA 1.5 Memory Placement Extensions.",
                                 ops);
        info.fix = "Read the capability bits first (ibv_query_device_ex: device_cap_flags_ex "
                   "IB_UVERBS_DEVICE_FLUSH_GLOBAL, _FLUSH_PERSISTENT, _ATOMIC_WRITE) and ask only for what "
                   "the device and the library offer; otherwise write and read back with the classic "
                   "operations.";
        info.zh.cause = fmt::format("send_ops_flags 要求 {}，而提供者库（provider）拒绝了它没有为这种 QP 类型"
                                    "实现的操作（rdma-core 在用户态检查 send_ops_flags，还没有交给内核）。"
                                    "FLUSH 和 ATOMIC_WRITE 属于 IBTA 1.5 的内存放置扩展。",
                                    ops);
        info.zh.fix =
            "先读取能力位（ibv_query_device_ex：device_cap_flags_ex 中的 "
            "IB_UVERBS_DEVICE_FLUSH_GLOBAL、_FLUSH_PERSISTENT、_ATOMIC_WRITE），只申请设备和库提供的"
            "操作；否则就用传统操作写入再读回。";
    }
    return info.seal();
}

} // namespace

ibv_device_attr_ex Context::query_device_ex() const {
    ibv_device_attr_ex attr{};
    const TraceScope scope{tracer_, Endpoint::None};
    traced_call(
        VerbCall{.scope = scope, .verb = "ibv_query_device_ex"},
        [&] { return ibv_query_device_ex(context_, nullptr, &attr); },
        [&](const auto& call, nlohmann::json&, nlohmann::json& data) {
            data["args"] = {{"device", device_name_}};
            if (!call.ok()) return;
            data["device_cap_flags"] = hex(attr.orig_attr.device_cap_flags);
            data["device_cap_flags_ex"] = hex(attr.device_cap_flags_ex);
            data["odp_caps"] = hex(attr.odp_caps.general_caps);
        },
        [&](const auto& call) { return explain_errno("ibv_query_device_ex", call.value, device_name_); });
    return attr;
}

std::shared_ptr<QueuePair> QueuePair::create_ex(std::shared_ptr<ProtectionDomain> pd,
                                                std::shared_ptr<CompletionQueue> send_cq,
                                                std::shared_ptr<CompletionQueue> recv_cq, ibv_qp_type type,
                                                const QpCapacity& capacity, std::uint64_t send_ops,
                                                std::shared_ptr<XrcDomain> xrcd, Endpoint endpoint) {
    ibv_qp_init_attr_ex init{};
    init.send_cq = send_cq->get();
    init.recv_cq = recv_cq->get();
    init.qp_type = type;
    init.sq_sig_all = 0;
    init.cap.max_send_wr = capacity.max_send_wr;
    init.cap.max_recv_wr = capacity.max_recv_wr;
    init.cap.max_send_sge = capacity.max_send_sge;
    init.cap.max_recv_sge = capacity.max_recv_sge;
    init.cap.max_inline_data = capacity.max_inline_data;
    init.comp_mask = IBV_QP_INIT_ATTR_PD;
    init.pd = pd->get();
    if (send_ops != 0) {
        init.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
        init.send_ops_flags = send_ops;
    }
    if (xrcd) {
        init.comp_mask |= IBV_QP_INIT_ATTR_XRCD;
        init.xrcd = xrcd->get();
    }
    const TraceScope scope =
        endpoint == Endpoint::None ? pd->trace() : TraceScope{pd->trace().tracer, endpoint};
    ibv_context* context = pd->context()->get();
    ibv_qp* qp = traced_call(
        VerbCall{.scope = scope, .verb = "ibv_create_qp_ex", .timed = true},
        [&] { return ibv_create_qp_ex(context, &init); },
        [&](const auto& call, nlohmann::json& ids, nlohmann::json& data) {
            ids = {{"pd", pd->handle()}, {"send_cq", send_cq->id()}, {"recv_cq", recv_cq->id()}};
            if (call.ok()) ids["qpn"] = call.value->qp_num;
            data["args"] = {{"qp_type", qp_type_name(type)},
                            {"max_send_wr", capacity.max_send_wr},
                            {"max_recv_wr", capacity.max_recv_wr},
                            {"max_send_sge", capacity.max_send_sge},
                            {"max_recv_sge", capacity.max_recv_sge},
                            {"max_inline_data", capacity.max_inline_data},
                            {"send_ops_flags", send_ops_names(send_ops)},
                            {"xrcd", xrcd != nullptr}};
            data["state"] = "RESET";
        },
        [&](const auto& call) { return explain_create_qp_ex_error(call.err, type, send_ops); });
    const QpCapacity actual = granted_capacity(init.cap);
    pd->context()->register_qp(qp->qp_num, scope.endpoint);
    auto made = std::shared_ptr<QueuePair>(new QueuePair(
        std::move(pd), std::move(send_cq), std::move(recv_cq), nullptr, qp, type, actual, scope));
    made->send_ops_ = send_ops;
    made->xrcd_ = std::move(xrcd);
    return made;
}

void QueuePair::post_atomic_write(std::uint64_t wr_id, std::uint32_t rkey, std::uint64_t remote_addr,
                                  std::uint64_t value, bool signaled) {
    // ibv_qp_to_qp_ex answers only for a QP created with ibv_create_qp_ex, and the provider fills
    // wr_atomic_write only when send_ops_flags asked for it: calling a null function pointer would crash.
    ibv_qp_ex* qpx = (send_ops_ & kQpExWithAtomicWrite) ? ibv_qp_to_qp_ex(qp_) : nullptr;
    std::uint8_t payload[8];
    std::memcpy(payload, &value, sizeof payload); // the 8 bytes as they lie in memory (host order)
    traced_call(
        post_call(trace_, "ibv_wr_atomic_write", "ATOMIC_WRITE", syscalls_.get(), last_post_syscalls_),
        [&] {
            if (qpx == nullptr || qpx->wr_atomic_write == nullptr) {
                errno = EOPNOTSUPP;
                return EOPNOTSUPP;
            }
            ibv_wr_start(qpx);
            qpx->wr_id = wr_id;
            qpx->wr_flags = signaled ? IBV_SEND_SIGNALED : 0;
            ibv_wr_atomic_write(qpx, rkey, remote_addr, payload);
            return ibv_wr_complete(qpx);
        },
        [&](const auto&, nlohmann::json& ids, nlohmann::json& data) {
            ids = {{"qpn", qp_->qp_num}, {"wr_id", wr_id}, {"rkey", rkey}};
            data["queue"] = "send";
            data["opcode"] = "ATOMIC_WRITE";
            data["signaled"] = signaled;
            data["inline"] = false;
            data["remote_addr"] = hex(remote_addr);
            data["value"] = hex(value);
            data["length"] = 8;
        },
        [&](const auto& call) {
            ErrorInfo info =
                explain_errno("ibv_wr_atomic_write", call.value, fmt::format("QP {}", qp_->qp_num));
            if (call.value == EOPNOTSUPP && qpx == nullptr) {
                info.cause = fmt::format("QP {} was not created with IBV_QP_EX_WITH_ATOMIC_WRITE in "
                                         "ibv_create_qp_ex's send_ops_flags, so it has no Atomic Write.",
                                         qp_->qp_num);
                info.fix = "Create the QP with ibv_create_qp_ex and IBV_QP_EX_WITH_ATOMIC_WRITE (a lab's "
                           "create_qp_ex with send_ops: [atomic_write]).";
                info.zh.cause =
                    fmt::format("QP {} 创建时，ibv_create_qp_ex 的 send_ops_flags 中没有 "
                                "IBV_QP_EX_WITH_ATOMIC_WRITE，因此它没有原子写（ATOMIC_WRITE）操作。",
                                qp_->qp_num);
                info.zh.fix = "用 ibv_create_qp_ex 并带上 IBV_QP_EX_WITH_ATOMIC_WRITE 创建 QP（在实验中即 "
                              "create_qp_ex 加上 send_ops: [atomic_write]）。";
                info.seal();
            }
            return info;
        });
}

XrcDomain::XrcDomain(std::shared_ptr<Context> context, ibv_xrcd* xrcd, TraceScope trace)
    : context_(std::move(context)), xrcd_(xrcd), trace_(std::move(trace)) {}

std::shared_ptr<XrcDomain> XrcDomain::open(std::shared_ptr<Context> context, Endpoint endpoint, int fd,
                                           int oflags) {
    TraceScope scope{context->tracer(), endpoint};
    ibv_xrcd_init_attr attr{};
    attr.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS;
    attr.fd = fd;
    // A domain without a file (fd -1) is always a new one; ibv_open_xrcd(3)'s example passes O_CREAT.
    attr.oflags = fd == -1 ? (oflags | O_CREAT) : oflags;
    ibv_xrcd* xrcd = traced_call(
        VerbCall{.scope = scope, .verb = "ibv_open_xrcd"},
        [&] { return ibv_open_xrcd(context->get(), &attr); },
        [&](const auto&, nlohmann::json&, nlohmann::json& data) {
            data["args"] = {{"device", context->device_name()}, {"fd", fd}, {"oflags", attr.oflags}};
        },
        [&](const auto& call) {
            ErrorInfo info = explain_errno("ibv_open_xrcd", call.err, context->device_name());
            if (call.err == EOPNOTSUPP || call.err == ENOSYS) {
                info.cause = fmt::format(
                    "{} does not implement XRC (IBTA Vol. 1, annex A14): ibv_query_device reports no "
                    "IBV_DEVICE_XRC, and its provider has no XRC domain to open.",
                    context->device_name());
                info.fix = "Share receive resources another way: one SRQ per process serving all its RC "
                           "QPs, or UD; XRC needs a device with IBV_DEVICE_XRC (e.g. mlx5).";
                info.zh.cause = fmt::format(
                    "{} 没有实现 XRC（IBTA Vol. 1，附录 A14）：ibv_query_device 没有报告 IBV_DEVICE_XRC，"
                    "它的提供者库（provider）也没有可以打开的 XRC 域。",
                    context->device_name());
                info.zh.fix =
                    "换一种方式共享接收资源：每个进程一个 SRQ，服务该进程的全部 RC QP，或者使用 UD；"
                    "XRC 需要带 IBV_DEVICE_XRC 的设备（例如 mlx5）。";
                info.seal();
            }
            return info;
        });
    return std::shared_ptr<XrcDomain>(new XrcDomain(std::move(context), xrcd, scope));
}

XrcDomain::~XrcDomain() {
    traced_release(
        trace_, "ibv_close_xrcd", [&] { return ibv_close_xrcd(xrcd_); }, no_fields);
}

} // namespace rdmalab
