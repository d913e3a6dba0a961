// MemoryWindow: ibv_alloc_mw, ibv_bind_mw (type 1) and ibv_dealloc_mw, each traced, with the explanation of
// a refused call. Type 2 windows are bound by an IBV_WR_BIND_MW work request (QueuePair::post_send).
#include "rdmalab/engine/names.hpp"
#include "rdmalab/engine/verbs.hpp"
#include "verbs/traced_call.hpp"

#include <fmt/format.h>

#include <cerrno>

namespace rdmalab {

using namespace detail;

namespace {

const char* type_name(ibv_mw_type type) {
    return type == IBV_MW_TYPE_1 ? "TYPE_1" : "TYPE_2";
}

} // namespace

MemoryWindow::MemoryWindow(std::shared_ptr<ProtectionDomain> pd, ibv_mw* mw, ibv_mw_type type)
    : pd_(std::move(pd)), mw_(mw), type_(type), rkey_(mw->rkey) {}

std::shared_ptr<MemoryWindow> MemoryWindow::alloc(std::shared_ptr<ProtectionDomain> pd, ibv_mw_type type) {
    ibv_mw* mw = traced_call(
        VerbCall{.scope = pd->trace(), .verb = "ibv_alloc_mw", .timed = true},
        [&] {
            errno = 0;
            return ibv_alloc_mw(pd->get(), type);
        },
        [&](const auto& call, nlohmann::json& ids, nlohmann::json& data) {
            ids["pd"] = pd->handle();
            if (call.ok()) ids["rkey"] = call.value->rkey;
            data["args"] = {{"type", type_name(type)}};
        },
        [&](const auto& call) {
            ErrorInfo info =
                explain_errno("ibv_alloc_mw", call.err, fmt::format("a {} memory window", type_name(type)),
                              fmt::format("{} 内存窗口（MW）", type_name(type)));
            if (call.err == EOPNOTSUPP || call.err == ENOSYS || call.err == EINVAL) {
                info.cause =
                    fmt::format("The device does not offer {} memory windows (ibv_query_device: max_mw "
                                "and the IBV_DEVICE_MEM_WINDOW_TYPE_1 / _TYPE_2A / _TYPE_2B "
                                "capability flags).",
                                type_name(type));
                info.fix = "Use the window type the device supports, or register a separate region instead.";
                info.zh.cause = fmt::format("设备不提供 {} 内存窗口（见 ibv_query_device：max_mw 以及 "
                                            "IBV_DEVICE_MEM_WINDOW_TYPE_1 / _TYPE_2A / _TYPE_2B 能力标志）。",
                                            type_name(type));
                info.zh.fix = "使用设备支持的窗口类型，或者改为单独注册一个区域。";
                info.seal();
            }
            return info;
        });
    return std::shared_ptr<MemoryWindow>(new MemoryWindow(std::move(pd), mw, type));
}

MemoryWindow::~MemoryWindow() {
    const std::uint32_t rkey = rkey_;
    traced_release(
        pd_->trace(), "ibv_dealloc_mw", [&] { return ibv_dealloc_mw(mw_); },
        [&](nlohmann::json& ids, nlohmann::json&) { ids["rkey"] = rkey; });
}

void MemoryWindow::bound(std::uint32_t rkey, std::uint64_t addr, std::uint64_t length) {
    rkey_ = rkey;
    addr_ = addr;
    length_ = length;
}

std::uint32_t MemoryWindow::bind(QueuePair& qp, const WindowBind& bind, std::uint64_t wr_id, bool signaled) {
    ibv_mw_bind request{};
    request.wr_id = wr_id;
    request.send_flags = signaled ? IBV_SEND_SIGNALED : 0;
    request.bind_info.mr = bind.region ? bind.region->get() : nullptr;
    request.bind_info.addr = bind.addr;
    request.bind_info.length = bind.length;
    request.bind_info.mw_access_flags = bind.access;
    const std::uint32_t old_rkey = rkey_;
    traced_call(
        VerbCall{.scope = pd_->trace(), .verb = "ibv_bind_mw", .kind = EventKind::PostWr, .event = "BIND_MW"},
        [&] { return ibv_bind_mw(qp.get(), mw_, &request); },
        [&](const auto& call, nlohmann::json& ids, nlohmann::json& data) {
            ids = {{"qpn", qp.qp_num()}, {"wr_id", wr_id}, {"rkey", old_rkey}};
            if (bind.region) ids["lkey"] = bind.region->lkey();
            data["queue"] = "send";
            data["opcode"] = "BIND_MW";
            data["signaled"] = signaled;
            data["mw_type"] = type_name(type_);
            data["addr"] = hex(bind.addr);
            data["length"] = bind.length;
            data["access"] = access_flag_names(bind.access);
            if (call.ok()) data["new_rkey"] = mw_->rkey;
        },
        [&](const auto& call) {
            const std::string detail =
                fmt::format("binding window {:#x} ({}) to {} bytes at {:#x} through QP {}", old_rkey,
                            type_name(type_), bind.length, bind.addr, qp.qp_num());
            const std::string detail_zh =
                fmt::format("通过 QP {4} 把窗口 {0:#x}（{1}）绑定到 {3:#x} 处的 {2} 字节", old_rkey,
                            type_name(type_), bind.length, bind.addr, qp.qp_num());
            ErrorInfo info = explain_errno("ibv_bind_mw", call.value, detail, detail_zh);
            if (call.value == EINVAL) {
                info.cause = detail +
                             ": ibv_bind_mw(3) binds type 1 windows only, through a QP of the window's PD "
                             "in RTS, to a region registered with IBV_ACCESS_MW_BIND; a window granting "
                             "remote write or atomic access needs a region with local write access.";
                info.fix = "Check the window type, the QP's state and PD, and the region's access flags "
                           "(mw_bind, local_write).";
                info.zh.cause =
                    detail_zh +
                    "：ibv_bind_mw(3) 只绑定类型 1 的窗口，且要通过窗口所在 PD 中处于 RTS 状态的 QP，"
                    "绑定到以 IBV_ACCESS_MW_BIND 注册的区域；授予远端写或原子访问权限的窗口，"
                    "需要一个带本地写权限的区域。";
                info.zh.fix = "检查窗口类型、QP 的状态和 PD，以及区域的访问标志（mw_bind、local_write）。";
                info.seal();
            }
            return info;
        });
    // The provider wrote the window's new key into mw->rkey (ibv_bind_mw(3)).
    bound(mw_->rkey, bind.addr, bind.length);
    region_ = bind.length > 0 ? bind.region : nullptr;
    return rkey_;
}

} // namespace rdmalab
