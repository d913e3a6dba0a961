#include "rdmalab/engine/names.hpp"

#include <fmt/format.h>

namespace rdmalab {

std::string_view wc_status_name(ibv_wc_status status) {
    switch (status) {
    case IBV_WC_SUCCESS:
        return "IBV_WC_SUCCESS";
    case IBV_WC_LOC_LEN_ERR:
        return "IBV_WC_LOC_LEN_ERR";
    case IBV_WC_LOC_QP_OP_ERR:
        return "IBV_WC_LOC_QP_OP_ERR";
    case IBV_WC_LOC_EEC_OP_ERR:
        return "IBV_WC_LOC_EEC_OP_ERR";
    case IBV_WC_LOC_PROT_ERR:
        return "IBV_WC_LOC_PROT_ERR";
    case IBV_WC_WR_FLUSH_ERR:
        return "IBV_WC_WR_FLUSH_ERR";
    case IBV_WC_MW_BIND_ERR:
        return "IBV_WC_MW_BIND_ERR";
    case IBV_WC_BAD_RESP_ERR:
        return "IBV_WC_BAD_RESP_ERR";
    case IBV_WC_LOC_ACCESS_ERR:
        return "IBV_WC_LOC_ACCESS_ERR";
    case IBV_WC_REM_INV_REQ_ERR:
        return "IBV_WC_REM_INV_REQ_ERR";
    case IBV_WC_REM_ACCESS_ERR:
        return "IBV_WC_REM_ACCESS_ERR";
    case IBV_WC_REM_OP_ERR:
        return "IBV_WC_REM_OP_ERR";
    case IBV_WC_RETRY_EXC_ERR:
        return "IBV_WC_RETRY_EXC_ERR";
    case IBV_WC_RNR_RETRY_EXC_ERR:
        return "IBV_WC_RNR_RETRY_EXC_ERR";
    case IBV_WC_LOC_RDD_VIOL_ERR:
        return "IBV_WC_LOC_RDD_VIOL_ERR";
    case IBV_WC_REM_INV_RD_REQ_ERR:
        return "IBV_WC_REM_INV_RD_REQ_ERR";
    case IBV_WC_REM_ABORT_ERR:
        return "IBV_WC_REM_ABORT_ERR";
    case IBV_WC_INV_EECN_ERR:
        return "IBV_WC_INV_EECN_ERR";
    case IBV_WC_INV_EEC_STATE_ERR:
        return "IBV_WC_INV_EEC_STATE_ERR";
    case IBV_WC_FATAL_ERR:
        return "IBV_WC_FATAL_ERR";
    case IBV_WC_RESP_TIMEOUT_ERR:
        return "IBV_WC_RESP_TIMEOUT_ERR";
    case IBV_WC_GENERAL_ERR:
        return "IBV_WC_GENERAL_ERR";
    case IBV_WC_TM_ERR:
        return "IBV_WC_TM_ERR";
    case IBV_WC_TM_RNDV_INCOMPLETE:
        return "IBV_WC_TM_RNDV_INCOMPLETE";
    }
    return "IBV_WC_UNKNOWN";
}

// Meanings follow the IBTA specification (vol. 1, 10.7 and 11.4.2). Where SoftRoCE (rxe, Linux 6.1)
// reports a case under another status, the text names both; tests/device/tst_failures.cpp asserts each
// of those rxe answers on the device.
std::string_view wc_status_meaning(ibv_wc_status status) {
    switch (status) {
    case IBV_WC_SUCCESS:
        return "The operation completed successfully.";
    case IBV_WC_LOC_LEN_ERR:
        return "Local length error: a receive buffer is shorter than the message that arrived for it, a "
               "message is longer than the port's max_msg_sz, or an RDMA READ response carried more or less "
               "data than requested. SoftRoCE (rxe, Linux 6.1) reports a receive too short for the arriving "
               "SEND as LOC_QP_OP_ERR instead.";
    case IBV_WC_LOC_QP_OP_ERR:
        return "Local QP operation error: the QP found an internal inconsistency while processing this work "
               "request, for example a malformed receive request when a SEND arrived for it (the sender "
               "then gets REM_OP_ERR). SoftRoCE (rxe, Linux 6.1) reports three more cases this way: a bad "
               "lkey in a SEND or RDMA WRITE on the requester (IBTA: LOC_PROT_ERR; Linux 6.12 reports it as "
               "WR_FLUSH_ERR), and on the responder a "
               "receive too short for the arriving SEND (IBTA: LOC_LEN_ERR) or a receive into a region "
               "registered without LOCAL_WRITE (IBTA: LOC_PROT_ERR), both answered with REM_OP_ERR.";
    case IBV_WC_LOC_EEC_OP_ERR:
        return "Local EE context operation error (Reliable Datagram transport, which no Linux device "
               "implements).";
    case IBV_WC_LOC_PROT_ERR:
        return "Local protection error: a scatter/gather entry of this work request does not refer to a "
               "memory region valid for the operation: the lkey is wrong or of another protection domain, "
               "the range lies outside the region, or the region lacks LOCAL_WRITE where the NIC writes "
               "into it (the target of an RDMA READ or of an atomic's original value, a receive buffer).";
    case IBV_WC_WR_FLUSH_ERR:
        return "Work request flushed: the QP is in the Error state. Entering ERR flushes every work request "
               "still outstanding on both queues, and every request posted afterwards completes with this "
               "status too. A request posted after the error was never executed; one outstanding when it "
               "happened may have been carried out before its completion was flushed. SoftRoCE in Linux "
               "6.12 also reports the request that failed at the requester (a bad lkey) this way; Linux 6.1 "
               "reports it as LOC_QP_OP_ERR.";
    case IBV_WC_MW_BIND_ERR:
        return "Memory window bind error: binding a memory window to a memory region failed.";
    case IBV_WC_BAD_RESP_ERR:
        return "Bad response: the responder returned an unexpected transport opcode.";
    case IBV_WC_LOC_ACCESS_ERR:
        return "Local access error (responder side): a protection error on this side's memory while "
               "processing an RDMA WRITE with immediate from the peer, reported on the receive it consumed. "
               "SoftRoCE (rxe, Linux 6.1) completes that receive with REM_ACCESS_ERR instead, the status "
               "the sender gets.";
    case IBV_WC_REM_INV_REQ_ERR:
        return "Remote invalid request: the responder found the request invalid: an operation its QP does "
               "not support or allow (qp_access_flags), a SEND longer than the receive posted for it, an "
               "RDMA length above 2^31 bytes, or a misaligned atomic. SoftRoCE (rxe, Linux 6.1) answers a "
               "SEND longer than the receive with REM_OP_ERR instead.";
    case IBV_WC_REM_ACCESS_ERR:
        return "Remote access error: the responder refused the memory access of an RDMA READ, RDMA WRITE or "
               "atomic: the rkey names no region of the responder's protection domain, the range lies "
               "outside the region, or the region lacks the REMOTE_READ, REMOTE_WRITE or REMOTE_ATOMIC "
               "access the operation needs. SoftRoCE (rxe, Linux 6.1) also gives this status to the "
               "responder's receive consumed by a refused RDMA WRITE with immediate (IBTA: LOC_ACCESS_ERR).";
    case IBV_WC_REM_OP_ERR:
        return "Remote operation error: the responder could not complete the request for a reason on its "
               "side, such as a malformed receive request (its receive then completes with "
               "LOC_QP_OP_ERR). SoftRoCE (rxe, Linux 6.1) also answers this way a SEND longer than the "
               "posted receive (IBTA: REM_INV_REQ_ERR) and a SEND into a receive whose region lacks "
               "LOCAL_WRITE.";
    case IBV_WC_RETRY_EXC_ERR:
        return "Transport retry counter exceeded: the request was retransmitted retry_cnt times, each time "
               "after a local ACK timeout with no ACK or NAK, or after a NAK for a PSN sequence error (a "
               "lost "
               "packet): the peer QP is gone or not in RTR/RTS, the destination QP number or GID is wrong, "
               "or the path is down or drops packets. It is not an rkey refusal (REM_ACCESS_ERR).";
    case IBV_WC_RNR_RETRY_EXC_ERR:
        return "Receiver-not-ready retry counter exceeded: a message that consumes a receive (SEND, SEND "
               "with immediate, RDMA WRITE with immediate) found none posted, and the responder answered "
               "with RNR NAKs until rnr_retry ran out: with rnr_retry n (0 to 6) the requester retries n "
               "times and fails at the (n+1)th RNR NAK; rnr_retry 7 retries without limit.";
    case IBV_WC_LOC_RDD_VIOL_ERR:
        return "Local RDD violation (Reliable Datagram transport, which no Linux device implements).";
    case IBV_WC_REM_INV_RD_REQ_ERR:
        return "Remote invalid RD request (Reliable Datagram transport, which no Linux device implements).";
    case IBV_WC_REM_ABORT_ERR:
        return "Remote aborted: the responder aborted the operation.";
    case IBV_WC_INV_EECN_ERR:
        return "Invalid EE context number (Reliable Datagram transport, which no Linux device implements).";
    case IBV_WC_INV_EEC_STATE_ERR:
        return "Invalid EE context state (Reliable Datagram transport, which no Linux device implements).";
    case IBV_WC_FATAL_ERR:
        return "Fatal error: the device hit an unrecoverable error.";
    case IBV_WC_RESP_TIMEOUT_ERR:
        return "Response timeout error.";
    case IBV_WC_GENERAL_ERR:
        return "General error: a transport error the device cannot classify further.";
    case IBV_WC_TM_ERR:
        return "Tag-matching error.";
    case IBV_WC_TM_RNDV_INCOMPLETE:
        return "Tag-matching rendezvous incomplete.";
    }
    return "Unknown completion status.";
}

std::string_view wc_status_meaning_zh(ibv_wc_status status) {
    switch (status) {
    case IBV_WC_SUCCESS:
        return "操作成功完成。";
    case IBV_WC_LOC_LEN_ERR:
        return "本地长度错误：接收缓冲区比为它到达的消息短，消息长度超过端口的 max_msg_sz，或 RDMA READ "
               "响应携带的数据比请求的多或少。SoftRoCE（rxe，Linux 6.1）把容纳不下到达的 SEND 的接收请求"
               "报告为 LOC_QP_OP_ERR。";
    case IBV_WC_LOC_QP_OP_ERR:
        return "本地 QP 操作错误：QP 在处理该工作请求时发现内部不一致，例如 SEND 到达时为它准备的接收请求"
               "格式有误（发送方随后得到 REM_OP_ERR）。SoftRoCE（rxe，Linux 6.1）还用这一状态报告另外三种"
               "情况：请求方 SEND 或 RDMA WRITE 中的 lkey 错误（IBTA：LOC_PROT_ERR；Linux 6.12 将其报告为 "
               "WR_FLUSH_ERR）；以及响应方的接收请求容纳不下到达的 SEND（IBTA：LOC_LEN_ERR），或接收请求的"
               "区域注册时未带 LOCAL_WRITE（IBTA：LOC_PROT_ERR），这两种情况都以 REM_OP_ERR 应答发送方。";
    case IBV_WC_LOC_EEC_OP_ERR:
        return "本地 EE 上下文操作错误（属于可靠数据报传输 RD，Linux 上没有任何设备实现它）。";
    case IBV_WC_LOC_PROT_ERR:
        return "本地保护错误：该工作请求的某个分散/聚集（scatter/gather）条目没有指向对此操作有效的内存"
               "区域：lkey 错误或属于另一个保护域，范围超出该区域，或者网卡要写入该区域而它缺少 LOCAL_WRITE"
               "（RDMA READ 的目标、存放原子操作所返回原值的缓冲区、接收缓冲区）。";
    case IBV_WC_WR_FLUSH_ERR:
        return "工作请求被冲刷（flush）：QP 处于错误状态（ERR）。进入 ERR 会冲刷两个队列上所有仍未完成的"
               "工作请求，此后投递的每个请求也以这一状态完成。出错之后投递的请求从未执行；出错时尚未完成的"
               "请求可能在其完成被冲刷之前已经执行。Linux 6.12 中的 SoftRoCE 也用这一状态报告在请求方失败的"
               "那个请求（lkey 错误）；Linux 6.1 则将其报告为 LOC_QP_OP_ERR。";
    case IBV_WC_MW_BIND_ERR:
        return "内存窗口绑定错误：将内存窗口（MW）绑定到内存区域失败。";
    case IBV_WC_BAD_RESP_ERR:
        return "错误响应：响应方返回了意料之外的传输操作码。";
    case IBV_WC_LOC_ACCESS_ERR:
        return "本地访问错误（响应方）：处理对端发来的带立即数的 RDMA WRITE 时，本端内存发生保护错误，"
               "报告在它消耗的接收请求上。SoftRoCE（rxe，Linux 6.1）则以 REM_ACCESS_ERR（即发送方得到的"
               "状态）完成该接收请求。";
    case IBV_WC_REM_INV_REQ_ERR:
        return "远端无效请求：响应方认定请求无效：其 QP 不支持或不允许该操作（qp_access_flags），SEND "
               "比为它投递的接收请求长，RDMA 长度超过 2^31 字节，或原子操作未对齐。SoftRoCE（rxe，Linux "
               "6.1）对比接收请求长的 SEND 则以 REM_OP_ERR 应答。";
    case IBV_WC_REM_ACCESS_ERR:
        return "远端访问错误：响应方拒绝了 RDMA READ、RDMA WRITE 或原子操作的内存访问：rkey 不对应响应方"
               "保护域中的任何区域，范围超出该区域，或该区域缺少操作所需的 REMOTE_READ、REMOTE_WRITE 或 "
               "REMOTE_ATOMIC 权限。SoftRoCE（rxe，Linux 6.1）还把这一状态给予被拒绝的带立即数 RDMA WRITE "
               "所消耗的响应方接收请求（IBTA：LOC_ACCESS_ERR）。";
    case IBV_WC_REM_OP_ERR:
        return "远端操作错误：响应方因自身一侧的原因无法完成请求，例如接收请求格式有误（该接收请求随后以 "
               "LOC_QP_OP_ERR 完成）。SoftRoCE（rxe，Linux 6.1）对比已投递接收请求长的 SEND（IBTA："
               "REM_INV_REQ_ERR），以及所用接收请求的区域缺少 LOCAL_WRITE 的 SEND，也这样应答。";
    case IBV_WC_RETRY_EXC_ERR:
        return "传输重试计数超限：请求已重传 retry_cnt 次，每次都是在本地 ACK 超时（没有收到 ACK 或 NAK）"
               "之后，或在收到表示 PSN 序列错误（丢包）的 NAK 之后：对端 QP 已不存在或不处于 RTR/RTS，"
               "目的 QP 号或 GID 错误，或路径中断或丢包。这不是 rkey 被拒绝（那是 REM_ACCESS_ERR）。";
    case IBV_WC_RNR_RETRY_EXC_ERR:
        return "接收方未就绪（RNR）重试计数超限：一条要消耗接收请求的消息（SEND、带立即数的 SEND、带立即数"
               "的 RDMA WRITE）到达时没有已投递的接收请求，响应方一再以 RNR NAK 应答，直到 rnr_retry 用尽："
               "rnr_retry 为 n（0 到 6）时，请求方重试 n 次，在第 n+1 个 RNR NAK 时失败；rnr_retry 为 7 "
               "表示无限重试。";
    case IBV_WC_LOC_RDD_VIOL_ERR:
        return "本地 RDD 违规（属于可靠数据报传输 RD，Linux 上没有任何设备实现它）。";
    case IBV_WC_REM_INV_RD_REQ_ERR:
        return "远端无效 RD 请求（属于可靠数据报传输 RD，Linux 上没有任何设备实现它）。";
    case IBV_WC_REM_ABORT_ERR:
        return "远端中止：响应方中止了该操作。";
    case IBV_WC_INV_EECN_ERR:
        return "无效的 EE 上下文编号（属于可靠数据报传输 RD，Linux 上没有任何设备实现它）。";
    case IBV_WC_INV_EEC_STATE_ERR:
        return "无效的 EE 上下文状态（属于可靠数据报传输 RD，Linux 上没有任何设备实现它）。";
    case IBV_WC_FATAL_ERR:
        return "致命错误：设备遇到了无法恢复的错误。";
    case IBV_WC_RESP_TIMEOUT_ERR:
        return "响应超时错误。";
    case IBV_WC_GENERAL_ERR:
        return "一般错误：设备无法进一步归类的传输错误。";
    case IBV_WC_TM_ERR:
        return "标签匹配错误。";
    case IBV_WC_TM_RNDV_INCOMPLETE:
        return "标签匹配的会合（rendezvous）未完成。";
    }
    return "未知的完成状态。";
}

std::string_view wc_opcode_name(ibv_wc_opcode opcode) {
    switch (opcode) {
    case IBV_WC_SEND:
        return "SEND";
    case IBV_WC_RDMA_WRITE:
        return "RDMA_WRITE";
    case IBV_WC_RDMA_READ:
        return "RDMA_READ";
    case IBV_WC_COMP_SWAP:
        return "COMP_SWAP";
    case IBV_WC_FETCH_ADD:
        return "FETCH_ADD";
    case IBV_WC_BIND_MW:
        return "BIND_MW";
    case IBV_WC_LOCAL_INV:
        return "LOCAL_INV";
    case IBV_WC_TSO:
        return "TSO";
    case IBV_WC_RECV:
        return "RECV";
    case IBV_WC_RECV_RDMA_WITH_IMM:
        return "RECV_RDMA_WITH_IMM";
    case IBV_WC_ATOMIC_WRITE:
        return "ATOMIC_WRITE";
    default:
        break;
    }
    return "OTHER";
}

std::string_view wr_opcode_name(ibv_wr_opcode opcode) {
    switch (opcode) {
    case IBV_WR_RDMA_WRITE:
        return "RDMA_WRITE";
    case IBV_WR_RDMA_WRITE_WITH_IMM:
        return "RDMA_WRITE_WITH_IMM";
    case IBV_WR_SEND:
        return "SEND";
    case IBV_WR_SEND_WITH_IMM:
        return "SEND_WITH_IMM";
    case IBV_WR_RDMA_READ:
        return "RDMA_READ";
    case IBV_WR_ATOMIC_CMP_AND_SWP:
        return "ATOMIC_CMP_AND_SWP";
    case IBV_WR_ATOMIC_FETCH_AND_ADD:
        return "ATOMIC_FETCH_AND_ADD";
    case IBV_WR_LOCAL_INV:
        return "LOCAL_INV";
    case IBV_WR_SEND_WITH_INV:
        return "SEND_WITH_INV";
    case IBV_WR_BIND_MW:
        return "BIND_MW";
    default:
        break;
    }
    return "OTHER";
}

std::string_view qp_state_name(ibv_qp_state state) {
    switch (state) {
    case IBV_QPS_RESET:
        return "RESET";
    case IBV_QPS_INIT:
        return "INIT";
    case IBV_QPS_RTR:
        return "RTR";
    case IBV_QPS_RTS:
        return "RTS";
    case IBV_QPS_SQD:
        return "SQD";
    case IBV_QPS_SQE:
        return "SQE";
    case IBV_QPS_ERR:
        return "ERR";
    default:
        break;
    }
    return "UNKNOWN";
}

std::string_view qp_type_name(ibv_qp_type type) {
    switch (type) {
    case IBV_QPT_RC:
        return "RC";
    case IBV_QPT_UC:
        return "UC";
    case IBV_QPT_UD:
        return "UD";
    case IBV_QPT_XRC_SEND:
        return "XRC_SEND";
    case IBV_QPT_XRC_RECV:
        return "XRC_RECV";
    default:
        break;
    }
    return "OTHER";
}

std::vector<std::string> access_flag_names(unsigned access) {
    std::vector<std::string> names;
    if (access & IBV_ACCESS_LOCAL_WRITE) names.emplace_back("LOCAL_WRITE");
    if (access & IBV_ACCESS_REMOTE_WRITE) names.emplace_back("REMOTE_WRITE");
    if (access & IBV_ACCESS_REMOTE_READ) names.emplace_back("REMOTE_READ");
    if (access & IBV_ACCESS_REMOTE_ATOMIC) names.emplace_back("REMOTE_ATOMIC");
    if (access & IBV_ACCESS_MW_BIND) names.emplace_back("MW_BIND");
    if (access & IBV_ACCESS_ZERO_BASED) names.emplace_back("ZERO_BASED");
    if (access & IBV_ACCESS_ON_DEMAND) names.emplace_back("ON_DEMAND");
    return names;
}

std::vector<std::string> qp_attr_mask_names(int mask) {
    static constexpr std::pair<int, const char*> kBits[] = {
        {IBV_QP_STATE, "STATE"},
        {IBV_QP_CUR_STATE, "CUR_STATE"},
        {IBV_QP_EN_SQD_ASYNC_NOTIFY, "EN_SQD_ASYNC_NOTIFY"},
        {IBV_QP_ACCESS_FLAGS, "ACCESS_FLAGS"},
        {IBV_QP_PKEY_INDEX, "PKEY_INDEX"},
        {IBV_QP_PORT, "PORT"},
        {IBV_QP_QKEY, "QKEY"},
        {IBV_QP_AV, "AV"},
        {IBV_QP_PATH_MTU, "PATH_MTU"},
        {IBV_QP_TIMEOUT, "TIMEOUT"},
        {IBV_QP_RETRY_CNT, "RETRY_CNT"},
        {IBV_QP_RNR_RETRY, "RNR_RETRY"},
        {IBV_QP_RQ_PSN, "RQ_PSN"},
        {IBV_QP_MAX_QP_RD_ATOMIC, "MAX_QP_RD_ATOMIC"},
        {IBV_QP_ALT_PATH, "ALT_PATH"},
        {IBV_QP_MIN_RNR_TIMER, "MIN_RNR_TIMER"},
        {IBV_QP_SQ_PSN, "SQ_PSN"},
        {IBV_QP_MAX_DEST_RD_ATOMIC, "MAX_DEST_RD_ATOMIC"},
        {IBV_QP_PATH_MIG_STATE, "PATH_MIG_STATE"},
        {IBV_QP_CAP, "CAP"},
        {IBV_QP_DEST_QPN, "DEST_QPN"},
    };
    std::vector<std::string> names;
    for (const auto& [bit, name] : kBits)
        if (mask & bit) names.emplace_back(name);
    return names;
}

std::string_view port_state_name(ibv_port_state state) {
    switch (state) {
    case IBV_PORT_NOP:
        return "PORT_NOP";
    case IBV_PORT_DOWN:
        return "PORT_DOWN";
    case IBV_PORT_INIT:
        return "PORT_INIT";
    case IBV_PORT_ARMED:
        return "PORT_ARMED";
    case IBV_PORT_ACTIVE:
        return "PORT_ACTIVE";
    case IBV_PORT_ACTIVE_DEFER:
        return "PORT_ACTIVE_DEFER";
    }
    return "PORT_UNKNOWN";
}

std::string_view port_phys_state_name(unsigned phys_state) {
    switch (phys_state) {
    case 1:
        return "SLEEP";
    case 2:
        return "POLLING";
    case 3:
        return "DISABLED";
    case 4:
        return "PORT_CONFIGURATION_TRAINING";
    case 5:
        return "LINK_UP";
    case 6:
        return "LINK_ERROR_RECOVERY";
    case 7:
        return "PHY_TEST";
    default:
        break;
    }
    return "UNKNOWN";
}

std::string_view link_layer_name(unsigned link_layer) {
    switch (link_layer) {
    case IBV_LINK_LAYER_INFINIBAND:
        return "InfiniBand";
    case IBV_LINK_LAYER_ETHERNET:
        return "Ethernet";
    case IBV_LINK_LAYER_UNSPECIFIED:
        return "InfiniBand"; // unspecified means IB for old drivers
    default:
        break;
    }
    return "Unknown";
}

int mtu_bytes(ibv_mtu mtu) {
    switch (mtu) {
    case IBV_MTU_256:
        return 256;
    case IBV_MTU_512:
        return 512;
    case IBV_MTU_1024:
        return 1024;
    case IBV_MTU_2048:
        return 2048;
    case IBV_MTU_4096:
        return 4096;
    }
    return 0;
}

std::string port_width_text(unsigned active_width) {
    switch (active_width) {
    case 1:
        return "1X";
    case 2:
        return "4X";
    case 4:
        return "8X";
    case 8:
        return "12X";
    case 16:
        return "2X";
    default:
        break;
    }
    return fmt::format("width code {}", active_width);
}

std::string port_speed_text(unsigned active_speed, unsigned /*active_width*/) {
    switch (active_speed) {
    case 1:
        return "2.5 Gbps";
    case 2:
        return "5.0 Gbps";
    case 4:
    case 8:
        return "10.0 Gbps";
    case 16:
        return "14.0 Gbps";
    case 32:
        return "25.0 Gbps";
    case 64:
        return "50.0 Gbps";
    case 128:
        return "100.0 Gbps";
    default:
        break;
    }
    return fmt::format("speed code {}", active_speed);
}

std::string_view async_event_name(ibv_event_type type) {
    switch (type) {
    case IBV_EVENT_CQ_ERR:
        return "IBV_EVENT_CQ_ERR";
    case IBV_EVENT_QP_FATAL:
        return "IBV_EVENT_QP_FATAL";
    case IBV_EVENT_QP_REQ_ERR:
        return "IBV_EVENT_QP_REQ_ERR";
    case IBV_EVENT_QP_ACCESS_ERR:
        return "IBV_EVENT_QP_ACCESS_ERR";
    case IBV_EVENT_COMM_EST:
        return "IBV_EVENT_COMM_EST";
    case IBV_EVENT_SQ_DRAINED:
        return "IBV_EVENT_SQ_DRAINED";
    case IBV_EVENT_PATH_MIG:
        return "IBV_EVENT_PATH_MIG";
    case IBV_EVENT_PATH_MIG_ERR:
        return "IBV_EVENT_PATH_MIG_ERR";
    case IBV_EVENT_DEVICE_FATAL:
        return "IBV_EVENT_DEVICE_FATAL";
    case IBV_EVENT_PORT_ACTIVE:
        return "IBV_EVENT_PORT_ACTIVE";
    case IBV_EVENT_PORT_ERR:
        return "IBV_EVENT_PORT_ERR";
    case IBV_EVENT_LID_CHANGE:
        return "IBV_EVENT_LID_CHANGE";
    case IBV_EVENT_PKEY_CHANGE:
        return "IBV_EVENT_PKEY_CHANGE";
    case IBV_EVENT_SM_CHANGE:
        return "IBV_EVENT_SM_CHANGE";
    case IBV_EVENT_SRQ_ERR:
        return "IBV_EVENT_SRQ_ERR";
    case IBV_EVENT_SRQ_LIMIT_REACHED:
        return "IBV_EVENT_SRQ_LIMIT_REACHED";
    case IBV_EVENT_QP_LAST_WQE_REACHED:
        return "IBV_EVENT_QP_LAST_WQE_REACHED";
    case IBV_EVENT_CLIENT_REREGISTER:
        return "IBV_EVENT_CLIENT_REREGISTER";
    case IBV_EVENT_GID_CHANGE:
        return "IBV_EVENT_GID_CHANGE";
    case IBV_EVENT_WQ_FATAL:
        return "IBV_EVENT_WQ_FATAL";
    }
    return "IBV_EVENT_UNKNOWN";
}

std::string_view async_event_meaning(ibv_event_type type) {
    switch (type) {
    case IBV_EVENT_CQ_ERR:
        return "CQ error: the completion queue overran; completions were lost.";
    case IBV_EVENT_QP_FATAL:
        return "QP fatal: the QP hit an error it cannot report through a completion and is now in ERR.";
    case IBV_EVENT_QP_REQ_ERR:
        return "Invalid request on the QP: the responder saw a transport error and moved the QP to ERR.";
    case IBV_EVENT_QP_ACCESS_ERR:
        return "Local access violation on the QP: a remote request broke the memory protection of this "
               "side's "
               "region (bad rkey, range or rights); the QP moved to ERR.";
    case IBV_EVENT_COMM_EST:
        return "Communication established: the first packet arrived while the QP was in RTR.";
    case IBV_EVENT_SQ_DRAINED:
        return "Send queue drained: the QP reached SQD with no outstanding messages.";
    case IBV_EVENT_PATH_MIG:
        return "Path migrated to the alternate path.";
    case IBV_EVENT_PATH_MIG_ERR:
        return "Path migration failed.";
    case IBV_EVENT_DEVICE_FATAL:
        return "Device fatal: the device stopped working; every resource must be released.";
    case IBV_EVENT_PORT_ACTIVE:
        return "Port became ACTIVE.";
    case IBV_EVENT_PORT_ERR:
        return "Port error: the port left the ACTIVE state (link down).";
    case IBV_EVENT_LID_CHANGE:
        return "The port's LID changed.";
    case IBV_EVENT_PKEY_CHANGE:
        return "The port's P_Key table changed.";
    case IBV_EVENT_SM_CHANGE:
        return "The subnet manager changed.";
    case IBV_EVENT_SRQ_ERR:
        return "Shared receive queue error.";
    case IBV_EVENT_SRQ_LIMIT_REACHED:
        return "Shared receive queue fell below its limit.";
    case IBV_EVENT_QP_LAST_WQE_REACHED:
        return "Last WQE reached on a QP attached to an SRQ.";
    case IBV_EVENT_CLIENT_REREGISTER:
        return "The subnet manager asked clients to re-register.";
    case IBV_EVENT_GID_CHANGE:
        return "The port's GID table changed.";
    case IBV_EVENT_WQ_FATAL:
        return "Work queue fatal error.";
    }
    return "Unknown asynchronous event.";
}

std::string_view gid_type_name(unsigned gid_type) {
    switch (gid_type) {
    case IBV_GID_TYPE_IB:
        return "IB";
    case IBV_GID_TYPE_ROCE_V1:
        return "RoCE v1";
    case IBV_GID_TYPE_ROCE_V2:
        return "RoCE v2";
    default:
        break;
    }
    return "unknown";
}

} // namespace rdmalab
