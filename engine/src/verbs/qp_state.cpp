// QueuePair state transitions: the IBTA's required attributes per transition, ibv_modify_qp and the
// RESET->INIT->RTR->RTS helpers, with the values a failing modify got wrong.
#include "rdmalab/engine/names.hpp"
#include "rdmalab/engine/verbs.hpp"
#include "verbs/traced_call.hpp"

#include <fmt/format.h>

#include <cerrno>

namespace rdmalab {

using namespace detail;

namespace {

/// A problem found in a modify_qp call's values, in English and in Chinese.
struct ValueProblem {
    std::string en;
    std::string zh;
};

/// Attribute values of a modify_qp call the IBTA or the port cannot accept, in English (`en`) and in Chinese
/// (`zh`), or empty.
ValueProblem modify_qp_value_problems(const Context& context, const ibv_qp_attr& a, int mask) {
    std::vector<ValueProblem> problems;
    if ((mask & IBV_QP_TIMEOUT) && a.timeout > 31)
        problems.push_back(
            {fmt::format("timeout {} is above 31 (a 5-bit field: 4.096 us * 2^timeout)", a.timeout),
             fmt::format("timeout {} 大于 31（这是一个 5 位字段：4.096 us * 2^timeout）", a.timeout)});
    if ((mask & IBV_QP_RETRY_CNT) && a.retry_cnt > 7)
        problems.push_back({fmt::format("retry_cnt {} is above 7 (a 3-bit field)", a.retry_cnt),
                            fmt::format("retry_cnt {} 大于 7（这是一个 3 位字段）", a.retry_cnt)});
    if ((mask & IBV_QP_RNR_RETRY) && a.rnr_retry > 7)
        problems.push_back(
            {fmt::format("rnr_retry {} is above 7 (a 3-bit field; 7 means retry forever)", a.rnr_retry),
             fmt::format("rnr_retry {} 大于 7（这是一个 3 位字段；7 表示无限重试）", a.rnr_retry)});
    if ((mask & IBV_QP_MIN_RNR_TIMER) && a.min_rnr_timer > 31)
        problems.push_back({fmt::format("min_rnr_timer {} is above 31 (a 5-bit code)", a.min_rnr_timer),
                            fmt::format("min_rnr_timer {} 大于 31（这是一个 5 位编码）", a.min_rnr_timer)});
    ibv_device_attr device{};
    const bool have_device = ibv_query_device(context.get(), &device) == 0;
    const std::uint8_t port = (mask & IBV_QP_PORT) ? a.port_num : std::uint8_t(1);
    if ((mask & IBV_QP_PORT) && have_device && (a.port_num < 1 || a.port_num > device.phys_port_cnt)) {
        const std::string range = device.phys_port_cnt > 1 ? fmt::format("..{}", device.phys_port_cnt) : "";
        problems.push_back({fmt::format("port_num {} does not exist (the device has port{} 1{})", a.port_num,
                                        device.phys_port_cnt > 1 ? "s" : "", range),
                            fmt::format("port_num {} 不存在（设备的端口为 1{}）", a.port_num, range)});
    }
    if (mask & IBV_QP_PATH_MTU) {
        ibv_port_attr port_attr{};
        if (a.path_mtu < IBV_MTU_256 || a.path_mtu > IBV_MTU_4096)
            problems.push_back(
                {fmt::format("path_mtu code {} is not one of 1..5 (256..4096 bytes)", int(a.path_mtu)),
                 fmt::format("path_mtu 编码 {} 不在 1..5 之内（256..4096 字节）", int(a.path_mtu))});
        else if (ibv_query_port(context.get(), port, &port_attr) == 0 && a.path_mtu > port_attr.active_mtu)
            problems.push_back({fmt::format("path_mtu {} is above the port's active MTU {}",
                                            mtu_bytes(a.path_mtu), mtu_bytes(port_attr.active_mtu)),
                                fmt::format("path_mtu {} 大于端口当前的 MTU（active_mtu）{}",
                                            mtu_bytes(a.path_mtu), mtu_bytes(port_attr.active_mtu))});
    }
    if ((mask & IBV_QP_MAX_QP_RD_ATOMIC) && have_device && a.max_rd_atomic > device.max_qp_init_rd_atom)
        problems.push_back({fmt::format("max_rd_atomic {} is above the device's max_qp_init_rd_atom {}",
                                        a.max_rd_atomic, device.max_qp_init_rd_atom),
                            fmt::format("max_rd_atomic {} 大于设备的 max_qp_init_rd_atom {}", a.max_rd_atomic,
                                        device.max_qp_init_rd_atom)});
    if ((mask & IBV_QP_MAX_DEST_RD_ATOMIC) && have_device && a.max_dest_rd_atomic > device.max_qp_rd_atom)
        problems.push_back({fmt::format("max_dest_rd_atomic {} is above the device's max_qp_rd_atom {}",
                                        a.max_dest_rd_atomic, device.max_qp_rd_atom),
                            fmt::format("max_dest_rd_atomic {} 大于设备的 max_qp_rd_atom {}",
                                        a.max_dest_rd_atomic, device.max_qp_rd_atom)});
    if ((mask & IBV_QP_AV) && a.ah_attr.is_global) {
        ibv_port_attr port_attr{};
        if (ibv_query_port(context.get(), a.ah_attr.port_num ? a.ah_attr.port_num : port, &port_attr) == 0 &&
            a.ah_attr.grh.sgid_index >= port_attr.gid_tbl_len)
            problems.push_back({fmt::format("sgid_index {} is beyond the port's GID table ({} entries)",
                                            a.ah_attr.grh.sgid_index, port_attr.gid_tbl_len),
                                fmt::format("sgid_index {} 超出了端口的 GID 表（{} 个条目）",
                                            a.ah_attr.grh.sgid_index, port_attr.gid_tbl_len)});
    }
    ValueProblem text;
    for (std::size_t i = 0; i < problems.size(); ++i) {
        text.en += (i ? "; " : "") + problems[i].en;
        text.zh += (i ? "；" : "") + problems[i].zh;
    }
    return text;
}

nlohmann::json attributes_json(const ibv_qp_attr& a, int mask) {
    nlohmann::json j = nlohmann::json::object();
    if (mask & IBV_QP_STATE) j["qp_state"] = qp_state_name(a.qp_state);
    if (mask & IBV_QP_PKEY_INDEX) j["pkey_index"] = a.pkey_index;
    if (mask & IBV_QP_PORT) j["port_num"] = a.port_num;
    if (mask & IBV_QP_ACCESS_FLAGS) j["qp_access_flags"] = access_flag_names(a.qp_access_flags);
    if (mask & IBV_QP_QKEY) j["qkey"] = fmt::format("0x{:x}", a.qkey);
    if (mask & IBV_QP_AV) {
        j["ah_attr"] = {{"is_global", a.ah_attr.is_global},
                        {"dgid", gid_to_string(a.ah_attr.grh.dgid)},
                        {"sgid_index", a.ah_attr.grh.sgid_index},
                        {"hop_limit", a.ah_attr.grh.hop_limit},
                        {"dlid", a.ah_attr.dlid},
                        {"port_num", a.ah_attr.port_num}};
    }
    if (mask & IBV_QP_PATH_MTU) j["path_mtu"] = mtu_bytes(a.path_mtu);
    if (mask & IBV_QP_DEST_QPN) j["dest_qp_num"] = a.dest_qp_num;
    if (mask & IBV_QP_RQ_PSN) j["rq_psn"] = a.rq_psn;
    if (mask & IBV_QP_MAX_DEST_RD_ATOMIC) j["max_dest_rd_atomic"] = a.max_dest_rd_atomic;
    if (mask & IBV_QP_MIN_RNR_TIMER) j["min_rnr_timer"] = a.min_rnr_timer;
    if (mask & IBV_QP_SQ_PSN) j["sq_psn"] = a.sq_psn;
    if (mask & IBV_QP_TIMEOUT) j["timeout"] = a.timeout;
    if (mask & IBV_QP_RETRY_CNT) j["retry_cnt"] = a.retry_cnt;
    if (mask & IBV_QP_RNR_RETRY) j["rnr_retry"] = a.rnr_retry;
    if (mask & IBV_QP_MAX_QP_RD_ATOMIC) j["max_rd_atomic"] = a.max_rd_atomic;
    if (mask & IBV_QP_EN_SQD_ASYNC_NOTIFY) j["en_sqd_async_notify"] = a.en_sqd_async_notify;
    return j;
}

} // namespace

TransitionMasks transition_masks(ibv_qp_type type, ibv_qp_state from, ibv_qp_state to) {
    // The IBTA QP state table (vol. 1, 11.2.5.2), as the Linux kernel enforces it (ib_modify_qp_is_ok).
    TransitionMasks m;
    const bool ud = type == IBV_QPT_UD;
    const bool rc = type == IBV_QPT_RC;
    if (to == IBV_QPS_RESET || to == IBV_QPS_ERR) return m;
    if (from == IBV_QPS_RESET && to == IBV_QPS_INIT) {
        m.required = IBV_QP_PKEY_INDEX | IBV_QP_PORT | (ud ? IBV_QP_QKEY : IBV_QP_ACCESS_FLAGS);
    } else if (from == IBV_QPS_INIT && to == IBV_QPS_RTR) {
        if (rc)
            m.required = IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                         IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
        else if (!ud)
            m.required = IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
        m.optional = ud ? (IBV_QP_PKEY_INDEX | IBV_QP_QKEY)
                        : (IBV_QP_ALT_PATH | IBV_QP_ACCESS_FLAGS | IBV_QP_PKEY_INDEX);
    } else if (from == IBV_QPS_RTR && to == IBV_QPS_RTS) {
        m.required = rc ? (IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
                           IBV_QP_MAX_QP_RD_ATOMIC)
                        : IBV_QP_SQ_PSN;
        m.optional = ud ? (IBV_QP_CUR_STATE | IBV_QP_QKEY)
                        : (IBV_QP_CUR_STATE | IBV_QP_ALT_PATH | IBV_QP_ACCESS_FLAGS | IBV_QP_PATH_MIG_STATE |
                           (rc ? IBV_QP_MIN_RNR_TIMER : 0));
    } else if (from == IBV_QPS_RTS && to == IBV_QPS_SQD) {
        m.optional = IBV_QP_EN_SQD_ASYNC_NOTIFY;
    }
    return m;
}

TransitionReport QueuePair::modify(ibv_qp_attr attr, int mask, const std::string& transition_name) {
    const ibv_qp_state from = state_;
    const ibv_qp_state to = attr.qp_state;
    TransitionReport report;
    report.from = from;
    report.to = to;
    report.mask = mask;
    report.mask_names = qp_attr_mask_names(mask);
    report.attributes = attributes_json(attr, mask);
    const auto masks = transition_masks(type_, from, to);
    traced_call(
        VerbCall{.scope = trace_,
                 .verb = "ibv_modify_qp",
                 .timed = true,
                 .kind = EventKind::QpState,
                 .event = transition_name},
        [&] { return ibv_modify_qp(qp_, &attr, mask); },
        [&](const auto&, nlohmann::json& ids, nlohmann::json& data) {
            ids["qpn"] = qp_->qp_num;
            data["from"] = qp_state_name(from);
            data["to"] = qp_state_name(to);
            data["qp_type"] = qp_type_name(type_);
            data["attr_mask"] = report.mask_names;
            data["required_mask"] = qp_attr_mask_names(masks.required | IBV_QP_STATE);
            data["attrs"] = report.attributes;
        },
        [&](const auto& call) {
            const int ret = call.value;
            ErrorInfo info = explain_modify_qp_error(ret, type_, from, to, mask,
                                                     masks.required | IBV_QP_STATE, masks.optional);
            const ValueProblem values =
                ret == EINVAL ? modify_qp_value_problems(*pd_->context(), attr, mask) : ValueProblem{};
            if (!values.en.empty() && info.cause.find("attribute mask") == std::string::npos) {
                info.cause = fmt::format("{} {}->{}: {}.", qp_type_name(type_), qp_state_name(from),
                                         qp_state_name(to), values.en);
                info.fix =
                    "Use values within those ranges (see `rdmalab-cli devices` for the device's limits).";
                info.zh.cause = fmt::format("{} {}->{}：{}。", qp_type_name(type_), qp_state_name(from),
                                            qp_state_name(to), values.zh);
                info.zh.fix = "使用这些范围之内的值（设备的限制见 `rdmalab-cli devices`）。";
                info.seal();
            }
            return info;
        });
    state_ = to;
    return report;
}

TransitionReport QueuePair::to_init(std::uint8_t port, unsigned access_flags, std::uint16_t pkey_index,
                                    std::uint32_t qkey) {
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_INIT;
    attr.pkey_index = pkey_index;
    attr.port_num = port;
    int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;
    if (type_ == IBV_QPT_UD) {
        attr.qkey = qkey;
        mask |= IBV_QP_QKEY;
    } else {
        attr.qp_access_flags = access_flags;
        mask |= IBV_QP_ACCESS_FLAGS;
    }
    return modify(attr, mask, "RESET->INIT");
}

TransitionReport QueuePair::to_rtr(const PathInfo& path) {
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_RTR;
    int mask = IBV_QP_STATE;
    if (type_ != IBV_QPT_UD) {
        attr.path_mtu = path.path_mtu;
        attr.dest_qp_num = path.remote_qpn;
        attr.rq_psn = path.remote_psn;
        attr.ah_attr.is_global = path.use_grh ? 1 : 0;
        attr.ah_attr.dlid = path.remote_lid;
        attr.ah_attr.sl = 0;
        attr.ah_attr.src_path_bits = 0;
        attr.ah_attr.port_num = path.port;
        if (path.use_grh) {
            attr.ah_attr.grh.dgid = path.remote_gid;
            attr.ah_attr.grh.sgid_index = static_cast<std::uint8_t>(path.sgid_index);
            attr.ah_attr.grh.hop_limit = 1;
        }
        mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
        if (type_ == IBV_QPT_RC) {
            attr.max_dest_rd_atomic = path.max_dest_rd_atomic;
            attr.min_rnr_timer = path.min_rnr_timer;
            mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
        }
    }
    return modify(attr, mask, "INIT->RTR");
}

TransitionReport QueuePair::to_rts(const RtsParams& params) {
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_RTS;
    attr.sq_psn = params.sq_psn;
    int mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
    if (type_ == IBV_QPT_RC) {
        attr.timeout = params.timeout;
        attr.retry_cnt = params.retry_cnt;
        attr.rnr_retry = params.rnr_retry;
        attr.max_rd_atomic = params.max_rd_atomic;
        mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;
    }
    return modify(attr, mask, "RTR->RTS");
}

TransitionReport QueuePair::to_sqd() {
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_SQD;
    attr.en_sqd_async_notify = 1;
    return modify(attr, IBV_QP_STATE | IBV_QP_EN_SQD_ASYNC_NOTIFY, "RTS->SQD");
}

TransitionReport QueuePair::to_err() {
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_ERR;
    return modify(attr, IBV_QP_STATE, fmt::format("{}->ERR", qp_state_name(state_)));
}

TransitionReport QueuePair::to_reset() {
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_RESET;
    return modify(attr, IBV_QP_STATE, fmt::format("{}->RESET", qp_state_name(state_)));
}

void connect_pair(QueuePair& a, QueuePair& b, std::uint8_t port, unsigned access, PathInfo path,
                  const RtsParams& rts) {
    a.to_init(port, access);
    b.to_init(port, access);
    path.port = port;
    path.remote_psn = rts.sq_psn; // both sides start at the same PSN
    path.remote_qpn = b.qp_num();
    a.to_rtr(path);
    path.remote_qpn = a.qp_num();
    b.to_rtr(path);
    a.to_rts(rts);
    b.to_rts(rts);
}

} // namespace rdmalab
