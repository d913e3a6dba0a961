// The lab language's tables (lab_schema.hpp). Every row is documented in docs/lab-format.md.
#include "rdmalab/labs/lab_schema.hpp"

#include <algorithm>
#include <array>

namespace rdmalab::labs::schema {

namespace {

using sv = std::string_view;

constexpr std::int64_t kGiB = std::int64_t(1) << 30;

// ---- vocabularies ---------------------------------------------------------------------------------------

constexpr std::array<sv, 8> kAccessFlags = {"local_write", "remote_write", "remote_read", "remote_atomic",
                                            "mw_bind",     "zero_based",   "on_demand",   "relaxed_order"};
constexpr std::array<sv, 10> kOpcodes = {"send", "send_imm", "write",     "write_imm",     "read",
                                         "cas",  "faa",      "local_inv", "send_with_inv", "bind_mw"};
constexpr std::array<sv, 22> kWcStatuses = {
    "success",          "loc_len_err",       "loc_qp_op_err",     "loc_eec_op_err",
    "loc_prot_err",     "wr_flush_err",      "mw_bind_err",       "bad_resp_err",
    "loc_access_err",   "rem_inv_req_err",   "rem_access_err",    "rem_op_err",
    "retry_exc_err",    "rnr_retry_exc_err", "loc_rdd_viol_err",  "rem_inv_rd_req_err",
    "rem_abort_err",    "inv_eecn_err",      "inv_eec_state_err", "fatal_err",
    "resp_timeout_err", "general_err"};
constexpr std::array<sv, 11> kWcOpcodes = {"send",      "rdma_write", "rdma_read",          "comp_swap",
                                           "fetch_add", "recv",       "recv_rdma_with_imm", "bind_mw",
                                           "local_inv", "tso",        "atomic_write"};
constexpr std::array<sv, 4> kWcFlags = {"with_imm", "grh", "with_inv", "ip_csum_ok"};
constexpr std::array<sv, 7> kQpStates = {"reset", "init", "rtr", "rts", "sqd", "sqe", "err"};
constexpr std::array<sv, 3> kQpTypes = {"rc", "uc", "ud"};
constexpr std::array<sv, 6> kMtus = {"port", "256", "512", "1024", "2048", "4096"};
constexpr std::array<sv, 20> kErrnos = {"any",          "EINVAL",     "ENOMEM",          "EPERM",
                                        "EFAULT",       "EOPNOTSUPP", "ENOSYS",          "EACCES",
                                        "ENODEV",       "ENOENT",     "ETIMEDOUT",       "EAGAIN",
                                        "EBUSY",        "ENOTSUP",    "EPROTONOSUPPORT", "EIO",
                                        "ECONNREFUSED", "EADDRINUSE", "EADDRNOTAVAIL",   "EEXIST"};
constexpr std::array<sv, 16> kQpAttrMasks = {
    "state",     "access_flags",    "pkey_index",         "port",          "qkey",   "av",      "path_mtu",
    "dest_qpn",  "rq_psn",          "max_dest_rd_atomic", "min_rnr_timer", "sq_psn", "timeout", "retry_cnt",
    "rnr_retry", "max_qp_rd_atomic"};
constexpr std::array<sv, 2> kMappings = {"read_write", "read_only"};
constexpr std::array<sv, 9> kBenchKinds = {"send_lat", "write_lat", "read_lat", "atomic_lat", "tcp_lat",
                                           "write_bw", "read_bw",   "send_bw",  "tcp_bw"};
constexpr std::array<sv, 2> kBenchCompletions = {"busy_poll", "events"};
constexpr std::array<sv, 6> kCompareOps = {"<", "<=", "==", "!=", ">=", ">"};
constexpr std::array<sv, 1> kAll = {"all"};
constexpr std::array<sv, 2> kMwTypes = {"1", "2"};
/// ibv_event_type without IBV_EVENT_, lower case; "none": no event arrived.
constexpr std::array<sv, 21> kAsyncEvents = {"cq_err",
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

// ---- reusable fields ------------------------------------------------------------------------------------

constexpr Field kTimeout{"timeout",
                         Type::duration,
                         false,
                         {},
                         {},
                         {},
                         0,
                         600000,
                         "how long to wait (default 10s; emulation is slow)"};

/// One scatter/gather element: a part of a registered region.
constexpr std::array<Field, 4> kSgeFields = {{
    {"mr", Type::object, true, "mr", {}, {}, 0, 0, "the region the bytes are in (its lkey is used)"},
    {"offset", Type::size, false, {}, {}, {}, 0, 16 * kGiB, "from the region's start (default 0)"},
    {"length", Type::size, false, {}, {}, {}, 0, 16 * kGiB, "bytes (default: the rest of the region)"},
    {"lkey", Type::u64, false, {}, {}, {}, 0, 0, "use this lkey instead of the region's (a bad key)"},
}};
constexpr std::array<Field, 1> kSgeItem = {{{"item", Type::map, false, {}, {}, kSgeFields, 0, 0, {}}}};
constexpr Field kSges{
    "sge", Type::list, false,
    {},    {},         kSgeItem,
    0,     0,          "the scatter/gather list, in order (default: none, a zero-length request)"};

/// The remote side of a WRITE, READ or atomic: a peer's region by name, or a raw address and key.
constexpr std::array<Field, 6> kRemoteFields = {{
    {"mr", Type::object, false, "mr", {}, {}, 0, 0, "the peer's region: its address and rkey"},
    {"offset",
     Type::size,
     false,
     {},
     {},
     {},
     0,
     16 * kGiB,
     "added to the region's address (may run past its end)"},
    {"rkey",
     Type::u64,
     false,
     {},
     {},
     {},
     0,
     0xffffffff,
     "use this rkey instead of the region's (a wrong key)"},
    {"addr", Type::u64, false, {}, {}, {}, 0, 0, "use this address instead of the region's"},
    {"mw", Type::object, false, "mw", {}, {}, 0, 0, "the peer's memory window: its address and current rkey"},
    {"key_xor",
     Type::u64,
     false,
     {},
     {},
     {},
     1,
     255,
     "flips these bits of the rkey's low byte: the region's index with a key byte that is surely wrong"},
}};

// ---- actions --------------------------------------------------------------------------------------------

constexpr std::array<Field, 4> kOpenDevice = {{
    {"device", Type::text, false, {}, {}, {}, 0, 0, "device name, e.g. rxe0 (default: the first device)"},
    {"port", Type::integer, false, {}, {}, {}, 1, 255, "port number (default 1)"},
    {"gid_index",
     Type::integer,
     false,
     {},
     {},
     {},
     0,
     255,
     "GID index (default: the port's RoCE v2 GID, IPv4-mapped preferred)"},
    {"address",
     Type::text,
     false,
     {},
     {},
     {},
     0,
     0,
     "an IPv4 address: open the RDMA device that owns it, as rdma_cm binds to it (the cm_* actions need it)"},
}};
constexpr std::array<sv, 12> kOpenDeviceResults = {"name",      "port",       "gid",      "gid_index",
                                                   "mtu",       "link_layer", "software", "port_state",
                                                   "transport", "net_admin",  "kernel",   "kernel_version"};

constexpr std::array<sv, 14> kQueryDeviceResults = {
    "max_qp",     "max_qp_wr",   "max_sge", "max_cq",         "max_cqe",
    "max_mr",     "max_mr_size", "max_pd",  "max_qp_rd_atom", "max_qp_init_rd_atom",
    "atomic_cap", "max_srq",     "max_mw",  "max_inline_data"};

constexpr std::array<Field, 1> kQueryPort = {{
    {"port", Type::integer, false, {}, {}, {}, 1, 255, "port number (default: the lab's port)"},
}};
constexpr std::array<sv, 6> kQueryPortResults = {"state",   "link_layer",  "active_mtu",
                                                 "max_mtu", "gid_tbl_len", "active_speed"};
constexpr std::array<sv, 4> kGidTableResults = {"count", "rocev2_count", "table", "ipv4_mapped_count"};

constexpr std::array<Field, 1> kAllocPd = {
    {{"as", Type::new_object, true, "pd", {}, {}, 0, 0, "name, e.g. A.pd"}}};
constexpr std::array<Field, 1> kDeallocPd = {{{"pd", Type::object, true, "pd", {}, {}, 0, 0, "the PD"}}};

constexpr std::array<Field, 8> kRegMr = {{
    {"as", Type::new_object, true, "mr", {}, {}, 0, 0, "name, e.g. B.buf"},
    {"pd", Type::object, true, "pd", {}, {}, 0, 0, "the protection domain"},
    {"size", Type::size, true, {}, {}, {}, 1, 16 * kGiB, "bytes"},
    {"access",
     Type::flags,
     false,
     {},
     kAccessFlags,
     {},
     0,
     0,
     "access flags (default: none, local read only)"},
    {"fill", Type::text, false, {}, {}, {}, 0, 0, "text the application writes into the buffer, repeated"},
    {"fill_u64", Type::u64, false, {}, {}, {}, 0, 0, "an 8-byte value written at offset 0 (atomics)"},
    {"mapping",
     Type::choice,
     false,
     {},
     kMappings,
     {},
     0,
     0,
     "read_write (default) or read_only: the buffer's page protection"},
    {"align", Type::size, false, {}, {}, {}, 1, kGiB, "alignment of the buffer (default: a page)"},
}};
constexpr std::array<sv, 8> kRegMrResults = {"addr",   "length", "lkey",       "rkey",
                                             "access", "dur_ns", "rkey_index", "rkey_key"};
constexpr std::array<Field, 1> kDeregMr = {{{"mr", Type::object, true, "mr", {}, {}, 0, 0, "the region"}}};
constexpr std::array<sv, 1> kDurResult = {"dur_ns"};

constexpr std::array<Field, 5> kWriteMemory = {{
    {"mr", Type::object, true, "mr", {}, {}, 0, 0, "the region whose buffer the application writes"},
    {"offset", Type::size, false, {}, {}, {}, 0, 16 * kGiB, "where (default 0)"},
    {"string",
     Type::text,
     false,
     {},
     {},
     {},
     0,
     0,
     "bytes of this text (a step's `text` is its explanation)"},
    {"hex", Type::hex, false, {}, {}, {}, 0, 0, "bytes in hex, e.g. 00ff10"},
    {"u64", Type::u64, false, {}, {}, {}, 0, 0, "an 8-byte value in host order"},
}};

constexpr std::array<Field, 1> kCreateChannel = {
    {{"as", Type::new_object, true, "channel", {}, {}, 0, 0, "name, e.g. A.events"}}};
constexpr std::array<Field, 3> kCreateCq = {{
    {"as", Type::new_object, true, "cq", {}, {}, 0, 0, "name, e.g. A.cq"},
    {"depth", Type::integer, false, {}, {}, {}, 1, 1 << 22, "entries (default 16)"},
    {"channel", Type::object, false, "channel", {}, {}, 0, 0, "completion channel for events (default none)"},
}};
constexpr std::array<sv, 1> kCreateCqResults = {"cqe"};

constexpr std::array<Field, 12> kCreateQp = {{
    {"as", Type::new_object, true, "qp", {}, {}, 0, 0, "name, e.g. A.qp"},
    {"pd", Type::object, true, "pd", {}, {}, 0, 0, "the protection domain"},
    {"type", Type::choice, false, {}, kQpTypes, {}, 0, 0, "rc (default), uc or ud"},
    {"send_cq", Type::object, true, "cq", {}, {}, 0, 0, "completion queue of the send queue"},
    {"recv_cq", Type::object, false, "cq", {}, {}, 0, 0, "of the receive queue (default: send_cq)"},
    {"max_send_wr", Type::integer, false, {}, {}, {}, 0, 1 << 20, "send queue depth (default 16)"},
    {"max_recv_wr", Type::integer, false, {}, {}, {}, 0, 1 << 20, "receive queue depth (default 16)"},
    {"max_send_sge", Type::integer, false, {}, {}, {}, 0, 1024, "SGEs per send WR (default 1)"},
    {"max_recv_sge", Type::integer, false, {}, {}, {}, 0, 1024, "SGEs per receive WR (default 1)"},
    {"max_inline_data", Type::integer, false, {}, {}, {}, 0, 1 << 20, "inline bytes (default 0)"},
    {"psn",
     Type::integer,
     false,
     {},
     {},
     {},
     0,
     0xffffff,
     "its first send PSN (default: a fixed pseudo-random one per QP number)"},
    {"srq",
     Type::object,
     false,
     "srq",
     {},
     {},
     0,
     0,
     "take receives from this SRQ (no receive queue of its own)"},
}};
constexpr std::array<sv, 7> kCreateQpResults = {
    "qpn", "max_send_wr", "max_recv_wr", "max_send_sge", "max_recv_sge", "max_inline_data", "state"};

constexpr std::array<Field, 11> kConnect = {{
    {"a", Type::object, true, "qp", {}, {}, 0, 0, "one RC or UC QP"},
    {"b", Type::object, true, "qp", {}, {}, 0, 0, "the other"},
    {"access",
     Type::flags,
     false,
     {},
     kAccessFlags,
     {},
     0,
     0,
     "qp_access_flags of both (default remote_write, remote_read, remote_atomic)"},
    {"mtu", Type::choice, false, {}, kMtus, {}, 0, 0, "path MTU (default: the port's active MTU)"},
    {"timeout",
     Type::integer,
     false,
     {},
     {},
     {},
     0,
     31,
     "local ACK timeout: 4.096 us * 2^timeout (default 14)"},
    {"retry_cnt", Type::integer, false, {}, {}, {}, 0, 7, "transport retries (default 7)"},
    {"rnr_retry", Type::integer, false, {}, {}, {}, 0, 7, "RNR retries, 7 = no limit (default 7)"},
    {"min_rnr_timer", Type::integer, false, {}, {}, {}, 0, 31, "encoded RNR NAK delay (default 1: 0.01 ms)"},
    {"max_rd_atomic",
     Type::integer,
     false,
     {},
     {},
     {},
     0,
     255,
     "outstanding READ/atomic as requester (default 1)"},
    {"max_dest_rd_atomic", Type::integer, false, {}, {}, {}, 0, 255, "as responder (default 1)"},
    {"remote_qpn",
     Type::integer,
     false,
     {},
     {},
     {},
     0,
     0xffffff,
     "override b's QP number in a's RTR (a wrong QPN)"},
}};

constexpr std::array<Field, 4> kToInit = {{
    {"qp", Type::object, true, "qp", {}, {}, 0, 0, "the QP (RESET)"},
    {"access",
     Type::flags,
     false,
     {},
     kAccessFlags,
     {},
     0,
     0,
     "RC/UC: qp_access_flags (default remote_write, remote_read, remote_atomic)"},
    {"qkey", Type::u64, false, {}, {}, {}, 0, 0xffffffff, "UD: the Q_Key (default 0x11111111)"},
    {"port", Type::integer, false, {}, {}, {}, 1, 255, "port (default: the lab's port)"},
}};
constexpr std::array<Field, 7> kToRtr = {{
    {"qp", Type::object, true, "qp", {}, {}, 0, 0, "the QP (INIT)"},
    {"peer", Type::object, false, "qp", {}, {}, 0, 0, "RC/UC: the remote QP (its number, PSN and GID)"},
    {"mtu", Type::choice, false, {}, kMtus, {}, 0, 0, "path MTU (default: the port's active MTU)"},
    {"min_rnr_timer", Type::integer, false, {}, {}, {}, 0, 31, "encoded RNR NAK delay (default 1)"},
    {"max_dest_rd_atomic", Type::integer, false, {}, {}, {}, 0, 255, "responder resources (default 1)"},
    {"remote_qpn", Type::integer, false, {}, {}, {}, 0, 0xffffff, "override the peer's QP number"},
    {"remote_psn", Type::integer, false, {}, {}, {}, 0, 0xffffff, "override the expected PSN"},
}};
constexpr std::array<Field, 6> kToRts = {{
    {"qp", Type::object, true, "qp", {}, {}, 0, 0, "the QP (RTR)"},
    {"timeout", Type::integer, false, {}, {}, {}, 0, 31, "local ACK timeout (default 14)"},
    {"retry_cnt", Type::integer, false, {}, {}, {}, 0, 7, "transport retries (default 7)"},
    {"rnr_retry", Type::integer, false, {}, {}, {}, 0, 7, "RNR retries, 7 = no limit (default 7)"},
    {"max_rd_atomic", Type::integer, false, {}, {}, {}, 0, 255, "outstanding READ/atomic (default 1)"},
    {"sq_psn", Type::integer, false, {}, {}, {}, 0, 0xffffff, "first send PSN (default: the QP's psn)"},
}};
constexpr std::array<Field, 1> kQpOnly = {{{"qp", Type::object, true, "qp", {}, {}, 0, 0, "the QP"}}};
constexpr std::array<sv, 4> kTransitionResults = {"from", "to", "mask", "dur_ns"};

constexpr std::array<Field, 15> kModifyAttrs = {{
    {"port", Type::integer, false, {}, {}, {}, 1, 255, {}},
    {"access", Type::flags, false, {}, kAccessFlags, {}, 0, 0, {}},
    {"pkey_index", Type::integer, false, {}, {}, {}, 0, 65535, {}},
    {"qkey", Type::u64, false, {}, {}, {}, 0, 0xffffffff, {}},
    {"peer", Type::object, false, "qp", {}, {}, 0, 0, "fills the address vector and dest_qpn from this QP"},
    {"mtu", Type::choice, false, {}, kMtus, {}, 0, 0, {}},
    {"dest_qpn", Type::integer, false, {}, {}, {}, 0, 0xffffff, {}},
    {"rq_psn", Type::integer, false, {}, {}, {}, 0, 0xffffff, {}},
    {"max_dest_rd_atomic", Type::integer, false, {}, {}, {}, 0, 255, {}},
    {"min_rnr_timer", Type::integer, false, {}, {}, {}, 0, 31, {}},
    {"sq_psn", Type::integer, false, {}, {}, {}, 0, 0xffffff, {}},
    {"timeout", Type::integer, false, {}, {}, {}, 0, 31, {}},
    {"retry_cnt", Type::integer, false, {}, {}, {}, 0, 7, {}},
    {"rnr_retry", Type::integer, false, {}, {}, {}, 0, 7, {}},
    {"max_rd_atomic", Type::integer, false, {}, {}, {}, 0, 255, {}},
}};
constexpr std::array<Field, 4> kModifyQp = {{
    {"qp", Type::object, true, "qp", {}, {}, 0, 0, "the QP"},
    {"state", Type::choice, true, {}, kQpStates, {}, 0, 0, "the state to move to"},
    {"attrs", Type::map, false, {}, {}, kModifyAttrs, 0, 0, "attribute values (only those named are set)"},
    {"mask", Type::flags, true, {}, kQpAttrMasks, {}, 0, 0, "ibv_qp_attr_mask bits, exactly as given"},
}};
constexpr std::array<sv, 5> kQueryQpResults = {"state", "sq_psn", "rq_psn", "dest_qpn", "sq_draining"};

constexpr std::array<Field, 4> kCreateAh = {{
    {"as", Type::new_object, true, "ah", {}, {}, 0, 0, "name, e.g. A.ah_b"},
    {"pd", Type::object, true, "pd", {}, {}, 0, 0, "the protection domain"},
    {"peer", Type::object, false, "qp", {}, {}, 0, 0, "whose port and GID the handle addresses"},
    {"group", Type::object, false, "group", {}, {}, 0, 0, "a joined multicast group: its join's ah_attr"},
}};

constexpr std::array<Field, 4> kPostRecv = {{
    {"qp", Type::object, true, "qp", {}, {}, 0, 0, "the QP"},
    kSges,
    {"wr_id", Type::u64, false, {}, {}, {}, 0, 0, "work request id (default: the step's number)"},
    {"count", Type::integer, false, {}, {}, {}, 1, 100000, "post this many receives (default 1)"},
}};
constexpr std::array<sv, 3> kPostResults = {"posted", "calls", "syscalls"};

/// What a memory window is bound to: a part of a region and the remote access it grants.
constexpr std::array<Field, 4> kBindFields = {{
    {"mr", Type::object, true, "mr", {}, {}, 0, 0, "the region (registered with mw_bind)"},
    {"offset", Type::size, false, {}, {}, {}, 0, 16 * kGiB, "the window's start in the region (default 0)"},
    {"length",
     Type::size,
     false,
     {},
     {},
     {},
     0,
     16 * kGiB,
     "bytes (default: the rest of the region; 0 unbinds a type 1 window)"},
    {"access",
     Type::flags,
     false,
     {},
     kAccessFlags,
     {},
     0,
     0,
     "remote access the window grants (default none)"},
}};

constexpr std::array<Field, 23> kPostSend = {{
    {"qp", Type::object, true, "qp", {}, {}, 0, 0, "the QP"},
    {"opcode", Type::choice, true, {}, kOpcodes, {}, 0, 0, "what to do"},
    kSges,
    {"remote", Type::map, false, {}, {}, kRemoteFields, 0, 0, "write, read, atomics: where on the peer"},
    {"imm", Type::u64, false, {}, {}, {}, 0, 0xffffffff, "send_imm, write_imm: immediate data"},
    {"compare", Type::u64, false, {}, {}, {}, 0, 0, "cas: the expected value"},
    {"swap", Type::u64, false, {}, {}, {}, 0, 0, "cas: the new value"},
    {"add", Type::u64, false, {}, {}, {}, 0, 0, "faa: what to add"},
    {"signaled", Type::boolean, false, {}, {}, {}, 0, 0, "IBV_SEND_SIGNALED (default true)"},
    {"inline", Type::boolean, false, {}, {}, {}, 0, 0, "IBV_SEND_INLINE (default false)"},
    {"solicited", Type::boolean, false, {}, {}, {}, 0, 0, "IBV_SEND_SOLICITED (default false)"},
    {"fence", Type::boolean, false, {}, {}, {}, 0, 0, "IBV_SEND_FENCE (default false)"},
    {"ah", Type::object, false, "ah", {}, {}, 0, 0, "UD: the address handle"},
    {"remote_qp", Type::object, false, "qp", {}, {}, 0, 0, "UD: the destination QP (its number)"},
    {"qkey", Type::u64, false, {}, {}, {}, 0, 0xffffffff, "UD: the Q_Key (default 0x11111111)"},
    {"wr_id", Type::u64, false, {}, {}, {}, 0, 0, "work request id (default: the step's number)"},
    {"count", Type::integer, false, {}, {}, {}, 1, 1000000, "post this many requests (default 1)"},
    {"per_call",
     Type::integer,
     false,
     {},
     {},
     {},
     1,
     4096,
     "requests chained into one ibv_post_send call (default 1)"},
    {"signal_every",
     Type::integer,
     false,
     {},
     {},
     {},
     1,
     1000000,
     "only every k-th request is signaled, and the last (default 1: all, as `signaled` says)"},
    {"group",
     Type::object,
     false,
     "group",
     {},
     {},
     0,
     0,
     "UD: send to this multicast group (remote QPN 0xFFFFFF and the group's Q_Key)"},
    {"invalidate_rkey",
     Type::operand,
     false,
     {},
     {},
     {},
     0,
     0,
     "local_inv, send_with_inv: the rkey to invalidate (a number or a value path, e.g. B.win.rkey)"},
    {"mw", Type::object, false, "mw", {}, {}, 0, 0, "bind_mw: the type 2 window to bind"},
    {"bind", Type::map, false, {}, {}, kBindFields, 0, 0, "bind_mw: the part of a region the window grants"},
}};

constexpr std::array<Field, 3> kPollCq = {{
    {"cq", Type::object, true, "cq", {}, {}, 0, 0, "the completion queue"},
    {"count", Type::integer, false, {}, {}, {}, 0, 1000000, "completions to wait for (default 1)"},
    kTimeout,
}};
constexpr std::array<sv, 11> kPollResults = {"count",    "status",   "opcode",          "byte_len",
                                             "imm",      "src_qp",   "wr_id",           "qp_num",
                                             "wc_flags", "syscalls", "invalidated_rkey"};

constexpr std::array<Field, 2> kReqNotify = {{
    {"cq", Type::object, true, "cq", {}, {}, 0, 0, "a CQ created with a channel"},
    {"solicited_only", Type::boolean, false, {}, {}, {}, 0, 0, "wake only for solicited completions"},
}};
constexpr std::array<Field, 2> kWaitCqEvent = {{
    {"cq", Type::object, true, "cq", {}, {}, 0, 0, "a CQ created with a channel, armed"},
    kTimeout,
}};
constexpr std::array<sv, 1> kWaitEventResults = {"arrived"};

constexpr std::array<Field, 5> kBench = {{
    {"kind", Type::choice, true, {}, kBenchKinds, {}, 0, 0, "the measurement (rdmalab-cli bench KIND)"},
    {"size", Type::size, false, {}, {}, {}, 1, kGiB, "message bytes (default 64)"},
    {"iterations", Type::integer, false, {}, {}, {}, 1, 10000000, "measured iterations (default 1000)"},
    {"inline", Type::boolean, false, {}, {}, {}, 0, 0, "send small messages inline (default: as perftest)"},
    {"completion",
     Type::choice,
     false,
     {},
     kBenchCompletions,
     {},
     0,
     0,
     "busy_poll (default) or events: both sides sleep on a completion channel (send_lat only)"},
}};
constexpr std::array<sv, 13> kBenchResults = {"p50_ns",   "p99_ns",     "min_ns",           "mean_ns",
                                              "mb_per_s", "msg_per_s",  "syscalls_per_msg", "cpu_ns_per_msg",
                                              "device",   "completion", "switches_per_msg", "sleeps_per_msg",
                                              "cpus_busy"};

constexpr std::array<Field, 1> kWait = {{{"time", Type::duration, true, {}, {}, {}, 0, 600000, "how long"}}};

// rdma_cm (chapter 8) and UD multicast (chapter 24)
constexpr std::array<sv, 2> kPortSpaces = {"tcp", "udp"};
constexpr std::array<sv, 2> kCmQpTypes = {"rc", "ud"};
constexpr Field kCmTimeout{"timeout", Type::duration, false, {}, {}, {}, 0, 600000, "how long (default 5s)"};
constexpr Field kCmId{"cm_id", Type::object, true, "cm_id", {}, {}, 0, 0, "the rdma_cm id"};
constexpr Field kPrivateData{"private_data",
                             Type::text,
                             false,
                             {},
                             {},
                             {},
                             0,
                             0,
                             "bytes of this text sent with the message (default none)"};
constexpr Field kPortSpace{"port_space",
                           Type::choice,
                           false,
                           {},
                           kPortSpaces,
                           {},
                           0,
                           0,
                           "tcp (default: RDMA_PS_TCP, RC) or udp (UD)"};
constexpr std::array<Field, 4> kCmBind = {{
    {"as", Type::new_object, true, "cm_id", {}, {}, 0, 0, "name, e.g. B.listen"},
    {"address", Type::text, true, {}, {}, {}, 0, 0, "a local IPv4 address"},
    {"port", Type::integer, false, {}, {}, {}, 0, 65535, "port (default 0: one rdma_cm picks)"},
    kPortSpace,
}};
constexpr std::array<sv, 2> kCmBindResults = {"port", "device"};
constexpr std::array<Field, 2> kCmListen = {{
    kCmId,
    {"backlog", Type::integer, false, {}, {}, {}, 1, 1024, "pending connect requests (default 8)"},
}};
constexpr std::array<Field, 5> kCmResolve = {{
    {"as", Type::new_object, true, "cm_id", {}, {}, 0, 0, "name, e.g. A.id"},
    {"address", Type::text, true, {}, {}, {}, 0, 0, "the destination's IPv4 address"},
    {"port", Type::integer, true, {}, {}, {}, 0, 65535, "the destination port"},
    kPortSpace,
    kCmTimeout,
}};
constexpr std::array<Field, 2> kCmResolveRoute = {{kCmId, kCmTimeout}};
constexpr std::array<Field, 3> kCmEvent = {{
    kCmId,
    kCmTimeout,
    {"request_id",
     Type::new_object,
     false,
     "cm_id",
     {},
     {},
     0,
     0,
     "connect_request: the name of the new passive-side id, e.g. B.conn"},
}};
constexpr std::array<sv, 4> kCmEventResults = {"event", "status", "private_data", "private_data_len"};
constexpr std::array<Field, 8> kCmCreateQp = {{
    {"as", Type::new_object, true, "qp", {}, {}, 0, 0, "name, e.g. A.qp"},
    kCmId,
    {"pd", Type::object, true, "pd", {}, {}, 0, 0, "the protection domain (on the id's device)"},
    {"send_cq", Type::object, true, "cq", {}, {}, 0, 0, "completion queue of the send queue"},
    {"recv_cq", Type::object, false, "cq", {}, {}, 0, 0, "of the receive queue (default: send_cq)"},
    {"type", Type::choice, false, {}, kCmQpTypes, {}, 0, 0, "rc (default) or ud (a udp id)"},
    {"max_send_wr", Type::integer, false, {}, {}, {}, 1, 1 << 20, "send queue depth (default 16)"},
    {"max_recv_wr", Type::integer, false, {}, {}, {}, 1, 1 << 20, "receive queue depth (default 16)"},
}};
constexpr std::array<sv, 2> kCmCreateQpResults = {"qpn", "state"};
constexpr std::array<Field, 4> kCmConnect = {{
    kCmId,
    kPrivateData,
    {"retry_count", Type::integer, false, {}, {}, {}, 0, 7, "transport retries (default 7)"},
    {"rnr_retry_count", Type::integer, false, {}, {}, {}, 0, 7, "RNR retries, 7 = no limit (default 7)"},
}};
constexpr std::array<Field, 2> kCmAccept = {{kCmId, kPrivateData}};
constexpr std::array<Field, 1> kCmIdOnly = {{kCmId}};
constexpr std::array<Field, 4> kMcastJoin = {{
    {"as", Type::new_object, true, "group", {}, {}, 0, 0, "name of the membership, e.g. A.group"},
    kCmId,
    {"group", Type::text, true, {}, {}, {}, 0, 0, "the group's IPv4 multicast address, e.g. 239.1.2.3"},
    kCmTimeout,
}};
constexpr std::array<sv, 4> kMcastJoinResults = {"event", "status", "qpn", "qkey"};
constexpr std::array<Field, 1> kMcastLeave = {
    {{"group", Type::object, true, "group", {}, {}, 0, 0, "the membership to end"}}};

constexpr std::array<Field, 4> kCreateSrq = {{
    {"as", Type::new_object, true, "srq", {}, {}, 0, 0, "name, e.g. B.srq"},
    {"pd", Type::object, true, "pd", {}, {}, 0, 0, "the protection domain"},
    {"max_wr",
     Type::integer,
     false,
     {},
     {},
     {},
     1,
     1 << 20,
     "receives it holds (default 16; the device may grant more)"},
    {"max_sge", Type::integer, false, {}, {}, {}, 1, 1024, "SGEs per receive (default 1)"},
}};
constexpr std::array<sv, 3> kCreateSrqResults = {"max_wr", "max_sge", "handle"};
constexpr std::array<Field, 4> kPostSrqRecv = {{
    {"srq", Type::object, true, "srq", {}, {}, 0, 0, "the shared receive queue"},
    kSges,
    {"wr_id",
     Type::u64,
     false,
     {},
     {},
     {},
     0,
     0,
     "work request id of the first (default: the step's number)"},
    {"count",
     Type::integer,
     false,
     {},
     {},
     {},
     1,
     100000,
     "post this many receives, wr_id counting up (default 1)"},
}};
constexpr std::array<sv, 1> kPostedResult = {"posted"};
constexpr std::array<Field, 2> kModifySrq = {{
    {"srq", Type::object, true, "srq", {}, {}, 0, 0, "the shared receive queue"},
    {"limit",
     Type::integer,
     true,
     {},
     {},
     {},
     0,
     1 << 20,
     "srq_limit: the event fires when fewer receives remain"},
}};
constexpr std::array<Field, 1> kSrqOnly = {{{"srq", Type::object, true, "srq", {}, {}, 0, 0, "the SRQ"}}};
constexpr std::array<sv, 3> kQuerySrqResults = {"max_wr", "max_sge", "limit"};
constexpr std::array<Field, 2> kWaitAsync = {{
    kTimeout,
    {"count",
     Type::integer,
     false,
     {},
     {},
     {},
     0,
     1000,
     "events to wait for (default 1); 0: gather every event of the whole timeout"},
}};
constexpr std::array<sv, 4> kWaitAsyncResults = {"count", "type", "object", "types"};
constexpr std::array<Field, 3> kAllocMw = {{
    {"as", Type::new_object, true, "mw", {}, {}, 0, 0, "name, e.g. B.win"},
    {"pd", Type::object, true, "pd", {}, {}, 0, 0, "the protection domain"},
    {"type",
     Type::choice,
     false,
     {},
     kMwTypes,
     {},
     0,
     0,
     "1 (bound with ibv_bind_mw) or 2 (default; bound with a bind_mw post)"},
}};
constexpr std::array<sv, 2> kAllocMwResults = {"rkey", "type"};
constexpr std::array<Field, 8> kBindMw = {{
    {"mw", Type::object, true, "mw", {}, {}, 0, 0, "a type 1 window"},
    {"qp",
     Type::object,
     true,
     "qp",
     {},
     {},
     0,
     0,
     "a QP of the window's PD in RTS: the bind is posted on it"},
    {"mr", Type::object, true, "mr", {}, {}, 0, 0, "the region (registered with mw_bind)"},
    {"offset", Type::size, false, {}, {}, {}, 0, 16 * kGiB, "the window's start in the region (default 0)"},
    {"length",
     Type::size,
     false,
     {},
     {},
     {},
     0,
     16 * kGiB,
     "bytes (default: the rest of the region; 0 unbinds)"},
    {"access",
     Type::flags,
     false,
     {},
     kAccessFlags,
     {},
     0,
     0,
     "remote access the window grants (default none)"},
    {"wr_id", Type::u64, false, {}, {}, {}, 0, 0, "work request id (default: the step's number)"},
    {"signaled", Type::boolean, false, {}, {}, {}, 0, 0, "IBV_SEND_SIGNALED (default true)"},
}};
constexpr std::array<sv, 2> kBindMwResults = {"rkey", "old_rkey"};
constexpr std::array<Field, 1> kMwOnly = {{{"mw", Type::object, true, "mw", {}, {}, 0, 0, "the window"}}};

// ---- the locked-memory limit, extended queries and QPs, Atomic Write, XRC (actions_more_a.cpp) ----------

constexpr std::array<Field, 2> kSetMemlock = {{
    {"limit",
     Type::size,
     true,
     {},
     {},
     {},
     0,
     16 * kGiB,
     "the new soft RLIMIT_MEMLOCK (restored when the lab ends)"},
    {"drop_ipc_lock",
     Type::boolean,
     false,
     {},
     {},
     {},
     0,
     0,
     "clear CAP_IPC_LOCK from this thread's effective set, so the limit binds root too (default true)"},
}};
constexpr std::array<sv, 3> kSetMemlockResults = {"limit", "previous_limit", "cap_ipc_lock"};

constexpr std::array<sv, 5> kQueryDeviceExResults = {"cap_flags_ex", "atomic_write", "flush_global",
                                                     "flush_persistent", "xrc"};

constexpr std::array<sv, 5> kQpExTypes = {"rc", "uc", "ud", "xrc_send", "xrc_recv"};
constexpr std::array<sv, 13> kSendOps = {"write", "write_imm", "send",        "send_imm", "read",
                                         "cas",   "faa",       "local_inv",   "bind_mw",  "send_inv",
                                         "tso",   "flush",     "atomic_write"};
constexpr std::array<Field, 13> kCreateQpEx = {{
    {"as", Type::new_object, true, "qp", {}, {}, 0, 0, "name, e.g. A.qp"},
    {"pd", Type::object, true, "pd", {}, {}, 0, 0, "the protection domain"},
    {"type", Type::choice, false, {}, kQpExTypes, {}, 0, 0, "rc (default), uc, ud, xrc_send or xrc_recv"},
    {"send_cq", Type::object, true, "cq", {}, {}, 0, 0, "completion queue of the send queue"},
    {"recv_cq", Type::object, false, "cq", {}, {}, 0, 0, "of the receive queue (default: send_cq)"},
    {"send_ops",
     Type::flags,
     false,
     {},
     kSendOps,
     {},
     0,
     0,
     "send_ops_flags: the operations ibv_wr_* may post (default: none, the classic ibv_post_send only)"},
    {"xrcd", Type::object, false, "xrcd", {}, {}, 0, 0, "xrc_recv: its XRC domain"},
    {"max_send_wr", Type::integer, false, {}, {}, {}, 0, 1 << 20, "send queue depth (default 16)"},
    {"max_recv_wr", Type::integer, false, {}, {}, {}, 0, 1 << 20, "receive queue depth (default 16)"},
    {"max_send_sge", Type::integer, false, {}, {}, {}, 0, 1024, "SGEs per send WR (default 1)"},
    {"max_recv_sge", Type::integer, false, {}, {}, {}, 0, 1024, "SGEs per receive WR (default 1)"},
    {"max_inline_data", Type::integer, false, {}, {}, {}, 0, 1 << 20, "inline bytes (default 0)"},
    {"psn",
     Type::integer,
     false,
     {},
     {},
     {},
     0,
     0xffffff,
     "its first send PSN (default: a fixed pseudo-random one per QP number)"},
}};
constexpr std::array<sv, 8> kCreateQpExResults = {"qpn",          "max_send_wr",  "max_recv_wr",
                                                  "max_send_sge", "max_recv_sge", "max_inline_data",
                                                  "state",        "send_ops"};

/// post_atomic_write's `remote`: a region, its offset, or a key or address given outright (no window).
constexpr std::array<Field, 4> kRegionRemoteFields = {
    {kRemoteFields[0], kRemoteFields[1], kRemoteFields[2], kRemoteFields[3]}};
constexpr std::array<Field, 5> kPostAtomicWrite = {{
    {"qp", Type::object, true, "qp", {}, {}, 0, 0, "a QP from create_qp_ex with send_ops [atomic_write]"},
    {"remote",
     Type::map,
     true,
     {},
     {},
     kRegionRemoteFields,
     0,
     0,
     "where on the peer (8 bytes, 8-byte aligned)"},
    {"value", Type::u64, true, {}, {}, {}, 0, 0, "the 8 bytes written, as a value in host order"},
    {"signaled", Type::boolean, false, {}, {}, {}, 0, 0, "IBV_SEND_SIGNALED (default true)"},
    {"wr_id", Type::u64, false, {}, {}, {}, 0, 0, "work request id (default: the step's number)"},
}};
constexpr std::array<sv, 2> kPostAtomicWriteResults = {"posted", "syscalls"};

constexpr std::array<Field, 1> kOpenXrcd = {
    {{"as", Type::new_object, true, "xrcd", {}, {}, 0, 0, "name, e.g. A.xrcd"}}};

// ---- addresses of the device's interface (chapter 1) ------------------------------------------------------

constexpr std::array<Field, 4> kAddAddress = {{
    {"as", Type::new_object, true, "address", {}, {}, 0, 0, "name, e.g. A.addr"},
    {"address", Type::text, true, {}, {}, {}, 0, 0, "an IPv4 address the interface does not have"},
    {"prefix", Type::integer, false, {}, {}, {}, 1, 32, "prefix length (default 32: no route to a subnet)"},
    {"timeout", Type::duration, false, {}, {}, {}, 0, 600000, "how long to wait for the GID (default 5s)"},
}};
constexpr std::array<sv, 4> kAddAddressResults = {"netdev", "gid", "gid_index", "appeared_ms"};
constexpr std::array<Field, 2> kRemoveAddress = {{
    {"address", Type::object, true, "address", {}, {}, 0, 0, "the address an add_address step added"},
    {"timeout",
     Type::duration,
     false,
     {},
     {},
     {},
     0,
     600000,
     "how long to wait for the GID to go (default 5s)"},
}};
constexpr std::array<sv, 1> kRemoveAddressResults = {"gone_ms"};

constexpr std::array<Action, 57> kActions = {{
    {"note", "", {}, {}, "text only: no engine call"},
    {"open_device", "ibv_get_device_list, ibv_open_device, ibv_query_port, ibv_query_gid", kOpenDevice,
     kOpenDeviceResults, "opens the device (object `device`), checks the port is ACTIVE, picks a GID"},
    {"query_device", "ibv_query_device", {}, kQueryDeviceResults, "the device's limits and capabilities"},
    {"query_port", "ibv_query_port", kQueryPort, kQueryPortResults, "the port's state, MTU, link layer"},
    {"query_gid_table", "ibv_query_gid, ibv_query_gid_type", kQueryPort, kGidTableResults,
     "every GID of the port with its type"},
    {"alloc_pd", "ibv_alloc_pd", kAllocPd, kDurResult, "a protection domain"},
    {"dealloc_pd", "ibv_dealloc_pd", kDeallocPd, kDurResult, "frees a PD (fails while objects use it)"},
    {"reg_mr", "ibv_reg_mr", kRegMr, kRegMrResults, "allocates a buffer and registers it"},
    {"dereg_mr", "ibv_dereg_mr", kDeregMr, kDurResult, "deregisters a region and frees its buffer"},
    {"write_memory", "", kWriteMemory, {}, "the application writes bytes into its own buffer (no verb)"},
    {"create_channel", "ibv_create_comp_channel", kCreateChannel, {}, "a completion channel"},
    {"create_cq", "ibv_create_cq", kCreateCq, kCreateCqResults, "a completion queue"},
    {"create_qp", "ibv_create_qp", kCreateQp, kCreateQpResults, "a queue pair, in RESET"},
    {"connect", "ibv_modify_qp", kConnect, {}, "RESET->INIT->RTR->RTS on two QPs, each transition traced"},
    {"to_init", "ibv_modify_qp", kToInit, kTransitionResults, "RESET->INIT with the attributes it requires"},
    {"to_rtr", "ibv_modify_qp", kToRtr, kTransitionResults, "INIT->RTR"},
    {"to_rts", "ibv_modify_qp", kToRts, kTransitionResults, "RTR->RTS"},
    {"to_sqd", "ibv_modify_qp", kQpOnly, kTransitionResults, "RTS->SQD"},
    {"to_err", "ibv_modify_qp", kQpOnly, kTransitionResults, "any state->ERR (flushes outstanding requests)"},
    {"to_reset", "ibv_modify_qp", kQpOnly, kTransitionResults, "any state->RESET"},
    {"modify_qp", "ibv_modify_qp", kModifyQp, kTransitionResults, "an explicit attribute set and mask"},
    {"query_qp", "ibv_query_qp", kQpOnly, kQueryQpResults, "the QP's state and attributes"},
    {"create_ah", "ibv_create_ah", kCreateAh, {}, "an address handle (UD)"},
    {"post_recv", "ibv_post_recv", kPostRecv, kPostResults, "receive work requests"},
    {"post_send", "ibv_post_send", kPostSend, kPostResults, "send work requests"},
    {"poll_cq", "ibv_poll_cq", kPollCq, kPollResults, "busy-polls until `count` completions or the timeout"},
    {"req_notify_cq", "ibv_req_notify_cq", kReqNotify, {}, "arms a CQ for one completion event"},
    {"wait_cq_event", "ibv_get_cq_event, ibv_ack_cq_events", kWaitCqEvent, kWaitEventResults,
     "waits for the armed CQ's event"},
    {"bench", "(a measurement)", kBench, kBenchResults,
     "a measurement on a loopback pair, as rdmalab-cli bench"},
    {"wait", "", kWait, {}, "sleeps (lets a timer run out, e.g. before an RNR retry)"},
    {"cm_bind", "rdma_create_event_channel, rdma_create_id, rdma_bind_addr", kCmBind, kCmBindResults,
     "an rdma_cm id with its own event channel, bound to a local address"},
    {"cm_listen", "rdma_listen", kCmListen, {}, "the bound id listens for connect requests"},
    {"cm_resolve",
     "rdma_create_event_channel, rdma_create_id, rdma_resolve_addr",
     kCmResolve,
     {},
     "an rdma_cm id that starts resolving a destination address (addr_resolved follows)"},
    {"cm_resolve_route",
     "rdma_resolve_route",
     kCmResolveRoute,
     {},
     "starts resolving the route (route_resolved follows)"},
    {"cm_event", "rdma_get_cm_event, rdma_ack_cm_event", kCmEvent, kCmEventResults,
     "waits for the id's next rdma_cm event"},
    {"cm_create_qp", "rdma_create_qp", kCmCreateQp, kCmCreateQpResults,
     "a QP on the id's device that rdma_cm moves through its states"},
    {"cm_connect", "rdma_connect", kCmConnect, {}, "sends the connect request (REQ) with private data"},
    {"cm_accept", "rdma_accept", kCmAccept, {}, "accepts a connect request (REP) with private data"},
    {"cm_reject", "rdma_reject", kCmAccept, {}, "rejects a connect request (REJ) with private data"},
    {"cm_disconnect", "rdma_disconnect", kCmIdOnly, {}, "disconnects (DREQ or DREP); the QP goes to ERR"},
    {"mcast_join", "rdma_join_multicast, rdma_get_cm_event", kMcastJoin, kMcastJoinResults,
     "joins a multicast group and waits for the join's event"},
    {"mcast_leave", "rdma_leave_multicast", kMcastLeave, {}, "leaves the group (the QP is detached)"},
    {"create_srq", "ibv_create_srq", kCreateSrq, kCreateSrqResults, "a shared receive queue"},
    {"post_srq_recv", "ibv_post_srq_recv", kPostSrqRecv, kPostedResult, "receive work requests on an SRQ"},
    {"modify_srq", "ibv_modify_srq", kModifySrq, {}, "arms the SRQ's limit (IBV_SRQ_LIMIT)"},
    {"query_srq", "ibv_query_srq", kSrqOnly, kQuerySrqResults, "the SRQ's size and armed limit"},
    {"wait_async_event", "ibv_get_async_event, ibv_ack_async_event", kWaitAsync, kWaitAsyncResults,
     "waits on the device's async event fd and reads every event"},
    {"alloc_mw", "ibv_alloc_mw", kAllocMw, kAllocMwResults, "a memory window (unbound)"},
    {"bind_mw", "ibv_bind_mw", kBindMw, kBindMwResults, "binds a type 1 window to a part of a region"},
    {"dealloc_mw", "ibv_dealloc_mw", kMwOnly, {}, "frees a memory window"},
    {"set_memlock", "setrlimit, capset", kSetMemlock, kSetMemlockResults,
     "lowers the locked-memory limit for the rest of the run (restored at teardown)"},
    {"query_device_ex",
     "ibv_query_device_ex",
     {},
     kQueryDeviceExResults,
     "the extended capability bits: Atomic Write, Flush, XRC"},
    {"create_qp_ex", "ibv_create_qp_ex", kCreateQpEx, kCreateQpExResults,
     "a queue pair with send_ops_flags (or of an XRC type), in RESET"},
    {"post_atomic_write", "ibv_wr_start, ibv_wr_atomic_write, ibv_wr_complete", kPostAtomicWrite,
     kPostAtomicWriteResults, "an Atomic Write: 8 bytes placed at the peer as one indivisible write"},
    {"open_xrcd", "ibv_open_xrcd", kOpenXrcd, {}, "an XRC domain (closed at teardown)"},
    {"add_address", "RTM_NEWADDR", kAddAddress, kAddAddressResults,
     "adds an IPv4 address to the device's interface and waits for its GID (removed at teardown)"},
    {"remove_address", "RTM_DELADDR", kRemoveAddress, kRemoveAddressResults,
     "removes the address again and waits for its GID to leave the table"},
}};

// ---- expectations ---------------------------------------------------------------------------------------

constexpr std::array<sv, 1> kPollOnly = {"poll_cq"};
constexpr std::array<sv, 1> kWaitOnly = {"wait_cq_event"};

constexpr std::array<Field, 10> kCompletionFields = {{
    {"index",
     Type::operand,
     false,
     {},
     kAll,
     {},
     0,
     0,
     "which completion of the step: 0 (default), 1, ... or all"},
    {"status", Type::choice, false, {}, kWcStatuses, {}, 0, 0, "IBV_WC_* without the prefix, lower case"},
    {"opcode", Type::choice, false, {}, kWcOpcodes, {}, 0, 0, "IBV_WC_* opcode, lower case"},
    {"byte_len", Type::size, false, {}, {}, {}, 0, 16 * kGiB, {}},
    {"imm", Type::u64, false, {}, {}, {}, 0, 0xffffffff, "immediate data (host order)"},
    {"wc_flags", Type::flags, false, {}, kWcFlags, {}, 0, 0, "exactly these flags"},
    {"src_qp", Type::object, false, "qp", {}, {}, 0, 0, "UD: the sender's QP"},
    {"qp", Type::object, false, "qp", {}, {}, 0, 0, "the QP it belongs to"},
    {"wr_id", Type::u64, false, {}, {}, {}, 0, 0, {}},
    {"wc_flags_include",
     Type::flags,
     false,
     {},
     kWcFlags,
     {},
     0,
     0,
     "at least these flags (others may be set)"},
}};
constexpr std::array<Field, 2> kQpStateFields = {{
    {"qp", Type::object, true, "qp", {}, {}, 0, 0, "the QP (read with ibv_query_qp)"},
    {"is", Type::choice, true, {}, kQpStates, {}, 0, 0, "the state"},
}};
constexpr std::array<Field, 2> kSameAsFields = {{
    {"mr", Type::object, true, "mr", {}, {}, 0, 0, {}},
    {"offset", Type::size, false, {}, {}, {}, 0, 16 * kGiB, {}},
}};
constexpr std::array<Field, 8> kBytesFields = {{
    {"mr", Type::object, true, "mr", {}, {}, 0, 0, "the region whose buffer is read"},
    {"offset", Type::size, false, {}, {}, {}, 0, 16 * kGiB, "default 0"},
    {"length", Type::size, false, {}, {}, {}, 0, 16 * kGiB, "default: the length of the value"},
    {"text", Type::text, false, {}, {}, {}, 0, 0, "the bytes of this text (repeated over `length`)"},
    {"hex", Type::hex, false, {}, {}, {}, 0, 0, "these bytes, in hex"},
    {"u64", Type::u64, false, {}, {}, {}, 0, 0, "an 8-byte value in host order"},
    {"zero", Type::boolean, false, {}, {}, {}, 0, 0, "all zero (true) or not all zero (false)"},
    {"same_as", Type::map, false, {}, {}, kSameAsFields, 0, 0, "equal to another region's bytes"},
}};
constexpr std::array<Field, 5> kCompareFields = {{
    {"left", Type::operand, true, {}, {}, {}, 0, 0, "a value path, a {param} or a number"},
    {"op", Type::choice, true, {}, kCompareOps, {}, 0, 0, "<, <=, ==, !=, >=, >"},
    {"right", Type::operand, true, {}, {}, {}, 0, 0, "a value path, a {param} or a number"},
    {"factor", Type::text, false, {}, {}, {}, 0, 0, "multiplies right, e.g. 1.5 (ratios)"},
    {"plus",
     Type::integer,
     false,
     {},
     {},
     {},
     -(std::int64_t(1) << 32),
     std::int64_t(1) << 32,
     "added to right (after factor), e.g. 1: left is right's successor"},
}};

/// `says`: the words of the step's text that state a value (`en`, `zh`, each found in that language's text
/// of every device class the item is checked on), and the relation they state: a `compare`, or `is` for a
/// value shown as a word (a status, an errno, a state).
constexpr std::array<Field, 8> kSaysFields = {{
    {"en", Type::text, true, {}, {}, {}, 0, 0, "the English words of the step's text that state the value"},
    {"zh", Type::text, true, {}, {}, {}, 0, 0, "the same statement in the Chinese text"},
    kCompareFields[0],
    {"op", Type::choice, false, {}, kCompareOps, {}, 0, 0, "<, <=, ==, !=, >=, > (with right)"},
    {"right", Type::operand, false, {}, {}, {}, 0, 0, "a value path, a {param} or a number (or give is)"},
    {"is",
     Type::text,
     false,
     {},
     {},
     {},
     0,
     0,
     "left's value as a text shows it, e.g. loc_qp_op_err, EINVAL, err (instead of op and right)"},
    kCompareFields[3],
    kCompareFields[4],
}};

constexpr std::array<sv, 17> kCmEventNames = {
    "none",           "addr_resolved",   "addr_error",       "route_resolved",
    "route_error",    "connect_request", "connect_response", "connect_error",
    "unreachable",    "rejected",        "established",      "disconnected",
    "device_removal", "multicast_join",  "multicast_error",  "addr_change",
    "timewait_exit"};
constexpr std::array<sv, 2> kCmEventActions = {"cm_event", "mcast_join"};
constexpr std::array<sv, 1> kWaitAsyncOnly = {"wait_async_event"};
constexpr std::array<Field, 3> kAsyncEventFields = {{
    {"type",
     Type::choice,
     true,
     {},
     kAsyncEvents,
     {},
     0,
     0,
     "IBV_EVENT_* without the prefix, lower case; none: no event"},
    {"object",
     Type::text,
     false,
     {},
     {},
     {},
     0,
     0,
     "the object it names: a QP, SRQ or CQ (E.name), or port N"},
    {"count",
     Type::integer,
     false,
     {},
     {},
     {},
     0,
     1000,
     "exactly this many events of this type arrived (default: at least one)"},
}};

constexpr std::array<ExpectationKind, 10> kExpectations = {{
    {"fails", Type::choice, {}, kErrnos, {}, "the step's verb fails with this errno (any: with any errno)"},
    {"completions",
     Type::integer,
     {},
     {},
     kPollOnly,
     "exactly this many completions arrived within the timeout"},
    {"completion", Type::map, kCompletionFields, {}, kPollOnly, "fields of a completion the step polled"},
    {"qp_state", Type::map, kQpStateFields, {}, {}, "a QP's state after the step, read with ibv_query_qp"},
    {"bytes", Type::map, kBytesFields, {}, {}, "bytes of a buffer after the step"},
    {"compare", Type::map, kCompareFields, {}, {}, "a relation between two measured or observed values"},
    {"says",
     Type::map,
     kSaysFields,
     {},
     {},
     "what the step's text states about an observed value holds (the words, then a compare)"},
    {"event",
     Type::boolean,
     {},
     {},
     kWaitOnly,
     "a completion event arrived (true) or the wait timed out (false)"},
    {"cm_event",
     Type::choice,
     {},
     kCmEventNames,
     kCmEventActions,
     "the rdma_cm event that arrived (none: no event within the timeout)"},
    {"async_event",
     Type::map,
     kAsyncEventFields,
     {},
     kWaitAsyncOnly,
     "an asynchronous event of this type arrived in the wait (type none: no event at all)"},
}};

// ---- objects --------------------------------------------------------------------------------------------

constexpr std::array<sv, 12> kDeviceFields = {"name",      "port",       "gid",      "gid_index",
                                              "mtu",       "link_layer", "software", "port_state",
                                              "transport", "net_admin",  "kernel",   "kernel_version"};
constexpr std::array<sv, 1> kPdFields = {"handle"};
constexpr std::array<sv, 5> kMrFields = {"addr", "length", "lkey", "rkey", "access"};
constexpr std::array<sv, 1> kChannelFields = {"fd"};
constexpr std::array<sv, 1> kCqFields = {"cqe"};
constexpr std::array<sv, 5> kQpFields = {"qpn", "psn", "state", "type", "access"};
constexpr std::array<sv, 1> kAhFields = {"gid"};
constexpr std::array<sv, 2> kCmIdFields = {"port", "device"};
constexpr std::array<sv, 3> kGroupFields = {"address", "qpn", "qkey"};
constexpr std::array<sv, 4> kSrqFields = {"handle", "max_wr", "max_sge", "limit"};
constexpr std::array<sv, 4> kMwFields = {"rkey", "type", "addr", "length"};
constexpr std::array<sv, 1> kXrcdFields = {"device"};
constexpr std::array<sv, 3> kAddressFields = {"netdev", "address", "gid"};
constexpr std::array<ObjectKind, 13> kObjectKinds = {{
    {"device", kDeviceFields},
    {"pd", kPdFields},
    {"mr", kMrFields},
    {"channel", kChannelFields},
    {"cq", kCqFields},
    {"qp", kQpFields},
    {"ah", kAhFields},
    {"cm_id", kCmIdFields},
    {"group", kGroupFields},
    {"srq", kSrqFields},
    {"mw", kMwFields},
    {"xrcd", kXrcdFields},
    {"address", kAddressFields},
}};

template <typename Table> auto find_by_name(const Table& table, std::string_view name) {
    const auto it =
        std::find_if(table.begin(), table.end(), [&](const auto& row) { return row.name == name; });
    return it == table.end() ? nullptr : &*it;
}

} // namespace

std::span<const Action> actions() {
    return kActions;
}
std::span<const ExpectationKind> expectations() {
    return kExpectations;
}
std::span<const ObjectKind> object_kinds() {
    return kObjectKinds;
}
const Action* find_action(std::string_view name) {
    return find_by_name(kActions, name);
}
const ExpectationKind* find_expectation(std::string_view name) {
    return find_by_name(kExpectations, name);
}
const ObjectKind* find_object_kind(std::string_view name) {
    return find_by_name(kObjectKinds, name);
}
bool is_endpoint(char letter) {
    return letter >= 'A' && letter <= 'D';
}
std::span<const std::string_view> access_flags() {
    return kAccessFlags;
}
std::span<const std::string_view> opcodes() {
    return kOpcodes;
}
std::span<const std::string_view> wc_statuses() {
    return kWcStatuses;
}
std::span<const std::string_view> wc_opcodes() {
    return kWcOpcodes;
}
std::span<const std::string_view> qp_states() {
    return kQpStates;
}
std::span<const std::string_view> errno_names() {
    return kErrnos;
}
std::span<const std::string_view> qp_attr_masks() {
    return kQpAttrMasks;
}

} // namespace rdmalab::labs::schema
