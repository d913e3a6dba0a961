// Human-readable names for verbs enums and flags, as students see them in ibv_devinfo and man pages.
#pragma once

#include <infiniband/verbs.h>

#include <string>
#include <string_view>
#include <vector>

namespace rdmalab {

/// "IBV_WC_SUCCESS", "IBV_WC_REM_ACCESS_ERR", ...
std::string_view wc_status_name(ibv_wc_status status);
/// One sentence explaining what the completion status means.
std::string_view wc_status_meaning(ibv_wc_status status);
/// wc_status_meaning in Simplified Chinese.
std::string_view wc_status_meaning_zh(ibv_wc_status status);
/// "SEND", "RDMA_WRITE", "RECV", "RECV_RDMA_WITH_IMM", ...
std::string_view wc_opcode_name(ibv_wc_opcode opcode);
/// "SEND", "SEND_WITH_IMM", "RDMA_WRITE", ... (IBV_WR_*)
std::string_view wr_opcode_name(ibv_wr_opcode opcode);
/// "RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR"
std::string_view qp_state_name(ibv_qp_state state);
/// "RC", "UC", "UD"
std::string_view qp_type_name(ibv_qp_type type);
/// Names of the IBV_ACCESS_* bits set in `access` ("LOCAL_WRITE", "REMOTE_WRITE", ...).
std::vector<std::string> access_flag_names(unsigned access);
/// Names of the IBV_QP_* attribute-mask bits set in `mask` ("STATE", "AV", "PATH_MTU", ...).
std::vector<std::string> qp_attr_mask_names(int mask);
/// "PORT_ACTIVE", "PORT_DOWN", ...
std::string_view port_state_name(ibv_port_state state);
/// Physical port state as ibv_devinfo prints it ("LINK_UP", "DISABLED", ...).
std::string_view port_phys_state_name(unsigned phys_state);
/// "InfiniBand", "Ethernet", "Unknown"
std::string_view link_layer_name(unsigned link_layer);
/// MTU enum to bytes (IBV_MTU_1024 -> 1024), 0 if invalid.
int mtu_bytes(ibv_mtu mtu);
/// Speed per lane as ibv_devinfo reports it ("2.5 Gbps", "25.0 Gbps", ...).
std::string port_speed_text(unsigned active_speed, unsigned active_width);
/// "1X", "4X", ...
std::string port_width_text(unsigned active_width);
/// "IBV_EVENT_QP_FATAL", ...
std::string_view async_event_name(ibv_event_type type);
/// One sentence explaining an asynchronous event.
std::string_view async_event_meaning(ibv_event_type type);
/// "IB", "RoCE v1", "RoCE v2"
std::string_view gid_type_name(unsigned gid_type);
/// "ENOMEM", "EINVAL", ... ("E?" + number if unknown).
std::string errno_name(int err);
/// strerror text for errno.
std::string errno_text(int err);
/// What errno `err` means, in Simplified Chinese (the errnos the engine explains; strerror's English else).
std::string errno_text_zh(int err);

} // namespace rdmalab
