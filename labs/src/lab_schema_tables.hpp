// Private to the schema's tables (lab_schema*.cpp): the words of the lab language, the fields more than one
// family of actions shares, and the families of actions, each defined in its own file.
#pragma once

#include "rdmalab/format/measurement.hpp" // kMeasurementKindNames: the kinds `bench` takes
#include "rdmalab/labs/lab_schema.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace rdmalab::labs::schema::detail {

using sv = std::string_view;

inline constexpr std::int64_t kGiB = std::int64_t(1) << 30;

// ---- vocabularies ---------------------------------------------------------------------------------------

inline constexpr std::array<sv, 8> kAccessFlags = {"local_write",   "remote_write", "remote_read",
                                                   "remote_atomic", "mw_bind",      "zero_based",
                                                   "on_demand",     "relaxed_order"};
inline constexpr std::array<sv, 10> kOpcodes = {"send", "send_imm", "write",     "write_imm",     "read",
                                                "cas",  "faa",      "local_inv", "send_with_inv", "bind_mw"};
inline constexpr std::array<sv, 22> kWcStatuses = {
    "success",          "loc_len_err",       "loc_qp_op_err",     "loc_eec_op_err",
    "loc_prot_err",     "wr_flush_err",      "mw_bind_err",       "bad_resp_err",
    "loc_access_err",   "rem_inv_req_err",   "rem_access_err",    "rem_op_err",
    "retry_exc_err",    "rnr_retry_exc_err", "loc_rdd_viol_err",  "rem_inv_rd_req_err",
    "rem_abort_err",    "inv_eecn_err",      "inv_eec_state_err", "fatal_err",
    "resp_timeout_err", "general_err"};
inline constexpr std::array<sv, 11> kWcOpcodes = {
    "send",    "rdma_write", "rdma_read", "comp_swap",   "fetch_add", "recv", "recv_rdma_with_imm",
    "bind_mw", "local_inv",  "tso",       "atomic_write"};
inline constexpr std::array<sv, 4> kWcFlags = {"with_imm", "grh", "with_inv", "ip_csum_ok"};
inline constexpr std::array<sv, 7> kQpStates = {"reset", "init", "rtr", "rts", "sqd", "sqe", "err"};
inline constexpr std::array<sv, 3> kQpTypes = {"rc", "uc", "ud"};
inline constexpr std::array<sv, 6> kMtus = {"port", "256", "512", "1024", "2048", "4096"};
inline constexpr std::array<sv, 20> kErrnos = {"any",          "EINVAL",     "ENOMEM",          "EPERM",
                                               "EFAULT",       "EOPNOTSUPP", "ENOSYS",          "EACCES",
                                               "ENODEV",       "ENOENT",     "ETIMEDOUT",       "EAGAIN",
                                               "EBUSY",        "ENOTSUP",    "EPROTONOSUPPORT", "EIO",
                                               "ECONNREFUSED", "EADDRINUSE", "EADDRNOTAVAIL",   "EEXIST"};
inline constexpr std::array<sv, 16> kQpAttrMasks = {
    "state",     "access_flags",    "pkey_index",         "port",          "qkey",   "av",      "path_mtu",
    "dest_qpn",  "rq_psn",          "max_dest_rd_atomic", "min_rnr_timer", "sq_psn", "timeout", "retry_cnt",
    "rnr_retry", "max_qp_rd_atomic"};
inline constexpr std::array<sv, 2> kMappings = {"read_write", "read_only"};
inline constexpr std::array<sv, 2> kBenchCompletions = {"busy_poll", "events"};
inline constexpr std::array<sv, 6> kCompareOps = {"<", "<=", "==", "!=", ">=", ">"};
inline constexpr std::array<sv, 1> kAll = {"all"};
inline constexpr std::array<sv, 2> kMwTypes = {"1", "2"};
/// ibv_event_type without IBV_EVENT_, lower case; "none": no event arrived.
inline constexpr std::array<sv, 21> kAsyncEvents = {"cq_err",
                                                    "qp_fatal",
                                                    "qp_req_err",
                                                    "qp_access_err",
                                                    "comm_est",
                                                    "sq_drained",
                                                    "path_mig",
                                                    "path_mig_err",
                                                    "device_fatal",
                                                    "port_active",
                                                    "port_err",
                                                    "lid_change",
                                                    "pkey_change",
                                                    "sm_change",
                                                    "srq_err",
                                                    "srq_limit_reached",
                                                    "qp_last_wqe_reached",
                                                    "client_reregister",
                                                    "gid_change",
                                                    "wq_fatal",
                                                    "none"};

// ---- fields more than one family takes ------------------------------------------------------------------

inline constexpr Field kPdField = {.name = "pd",
                                   .type = Type::object,
                                   .required = true,
                                   .object_kind = "pd",
                                   .doc = "the protection domain"};
inline constexpr Field kQpField = {
    .name = "qp", .type = Type::object, .required = true, .object_kind = "qp", .doc = "the QP"};
inline constexpr Field kWrIdField = {
    .name = "wr_id", .type = Type::u64, .doc = "work request id (default: the step's number)"};
inline constexpr Field kSignaledField = {
    .name = "signaled", .type = Type::boolean, .doc = "IBV_SEND_SIGNALED (default true)"};
inline constexpr Field kQkeyField = {
    .name = "qkey", .type = Type::u64, .max = 0xffffffff, .doc = "UD: the Q_Key (default 0x11111111)"};
/// write_memory's and the `bytes` expectation's value as a number.
inline constexpr Field kU64Field = {.name = "u64", .type = Type::u64, .doc = "an 8-byte value in host order"};

/// The new QP's name and its completion queues (create_qp, create_qp_ex, cm_create_qp).
inline constexpr Field kNewQpField = {
    .name = "as", .type = Type::new_object, .required = true, .object_kind = "qp", .doc = "name, e.g. A.qp"};
inline constexpr Field kSendCqField = {.name = "send_cq",
                                       .type = Type::object,
                                       .required = true,
                                       .object_kind = "cq",
                                       .doc = "completion queue of the send queue"};
inline constexpr Field kRecvCqField = {.name = "recv_cq",
                                       .type = Type::object,
                                       .object_kind = "cq",
                                       .doc = "of the receive queue (default: send_cq)"};
/// The queue sizes and first PSN of create_qp and create_qp_ex, in this order.
inline constexpr std::array<Field, 6> kQpCapacityFields = {{
    {.name = "max_send_wr", .type = Type::integer, .max = 1 << 20, .doc = "send queue depth (default 16)"},
    {.name = "max_recv_wr", .type = Type::integer, .max = 1 << 20, .doc = "receive queue depth (default 16)"},
    {.name = "max_send_sge", .type = Type::integer, .max = 1024, .doc = "SGEs per send WR (default 1)"},
    {.name = "max_recv_sge", .type = Type::integer, .max = 1024, .doc = "SGEs per receive WR (default 1)"},
    {.name = "max_inline_data", .type = Type::integer, .max = 1 << 20, .doc = "inline bytes (default 0)"},
    {.name = "psn",
     .type = Type::integer,
     .max = 0xffffff,
     .doc = "its first send PSN (default: a fixed pseudo-random one per QP number)"},
}};

/// The rows of `parts`, one table after another: a table that shares a run of rows with another.
template <std::size_t... N> constexpr auto join_fields(const std::array<Field, N>&... parts) {
    std::array<Field, (N + ...)> out{};
    auto next = out.begin();
    ((next = std::copy(parts.begin(), parts.end(), next)), ...);
    return out;
}

/// The remote side of a WRITE, READ or atomic: a peer's region by name, or a raw address and key.
inline constexpr std::array<Field, 6> kRemoteFields = {{
    {.name = "mr",
     .type = Type::object,
     .object_kind = "mr",
     .doc = "the peer's region: its address and rkey"},
    {.name = "offset",
     .type = Type::size,
     .max = 16 * kGiB,
     .doc = "added to the region's address (may run past its end)"},
    {.name = "rkey",
     .type = Type::u64,
     .max = 0xffffffff,
     .doc = "use this rkey instead of the region's (a wrong key)"},
    {.name = "addr", .type = Type::u64, .doc = "use this address instead of the region's"},
    {.name = "mw",
     .type = Type::object,
     .object_kind = "mw",
     .doc = "the peer's memory window: its address and current rkey"},
    {.name = "key_xor",
     .type = Type::u64,
     .min = 1,
     .max = 255,
     .doc =
         "flips these bits of the rkey's low byte: the region's index with a key byte that is surely wrong"},
}};

// ---- the families of actions, in the order actions() lists them ----------------------------------------

/// note, then the device, memory regions, completion queues and QPs (open_device ... create_ah).
std::span<const Action> resource_actions();
/// Work requests, completions and measurements (post_recv ... wait).
std::span<const Action> work_request_actions();
/// rdma_cm connections and UD multicast (cm_bind ... mcast_leave).
std::span<const Action> cm_actions();
/// Shared receive queues, async events and memory windows (create_srq ... dealloc_mw).
std::span<const Action> srq_and_window_actions();
/// The locked-memory limit, extended queries and QPs, Atomic Write, XRC, the interface's addresses
/// (set_memlock ... remove_address).
std::span<const Action> extended_actions();

/// The row of `table` named `name`, or nullptr.
template <typename Table> auto find_by_name(const Table& table, std::string_view name) {
    const auto it =
        std::find_if(table.begin(), table.end(), [&](const auto& row) { return row.name == name; });
    return it == table.end() ? nullptr : &*it;
}

} // namespace rdmalab::labs::schema::detail
