// The lab language's actions on the device, memory regions, completion queues and QPs (lab_schema.hpp):
// their fields and their rows.
#include "lab_schema_tables.hpp"

namespace rdmalab::labs::schema::detail {

namespace {

constexpr std::array<Field, 4> kOpenDevice = {{
    {.name = "device", .type = Type::text, .doc = "device name, e.g. rxe0 (default: the first device)"},
    {.name = "port", .type = Type::integer, .min = 1, .max = 255, .doc = "port number (default 1)"},
    {.name = "gid_index",
     .type = Type::integer,
     .max = 255,
     .doc = "GID index (default: the port's RoCE v2 GID, IPv4-mapped preferred)"},
    {.name = "address",
     .type = Type::text,
     .doc = "an IPv4 address: open the RDMA device that owns it, as rdma_cm binds to it (the cm_* actions "
            "need it)"},
}};
constexpr std::array<sv, 12> kOpenDeviceResults = {"name",      "port",       "gid",      "gid_index",
                                                   "mtu",       "link_layer", "software", "port_state",
                                                   "transport", "net_admin",  "kernel",   "kernel_version"};

constexpr std::array<sv, 14> kQueryDeviceResults = {
    "max_qp",     "max_qp_wr",   "max_sge", "max_cq",         "max_cqe",
    "max_mr",     "max_mr_size", "max_pd",  "max_qp_rd_atom", "max_qp_init_rd_atom",
    "atomic_cap", "max_srq",     "max_mw",  "max_inline_data"};

constexpr std::array<Field, 1> kQueryPort = {{
    {.name = "port",
     .type = Type::integer,
     .min = 1,
     .max = 255,
     .doc = "port number (default: the lab's port)"},
}};
constexpr std::array<sv, 6> kQueryPortResults = {"state",   "link_layer",  "active_mtu",
                                                 "max_mtu", "gid_tbl_len", "active_speed"};
constexpr std::array<sv, 4> kGidTableResults = {"count", "rocev2_count", "table", "ipv4_mapped_count"};

constexpr std::array<Field, 1> kAllocPd = {{
    {.name = "as", .type = Type::new_object, .required = true, .object_kind = "pd", .doc = "name, e.g. A.pd"},
}};
constexpr std::array<Field, 1> kDeallocPd = {{
    {.name = "pd", .type = Type::object, .required = true, .object_kind = "pd", .doc = "the PD"},
}};

constexpr std::array<Field, 8> kRegMr = {{
    {.name = "as",
     .type = Type::new_object,
     .required = true,
     .object_kind = "mr",
     .doc = "name, e.g. B.buf"},
    kPdField,
    {.name = "size", .type = Type::size, .required = true, .min = 1, .max = 16 * kGiB, .doc = "bytes"},
    {.name = "access",
     .type = Type::flags,
     .choices = kAccessFlags,
     .doc = "access flags (default: none, local read only)"},
    {.name = "fill", .type = Type::text, .doc = "text the application writes into the buffer, repeated"},
    {.name = "fill_u64", .type = Type::u64, .doc = "an 8-byte value written at offset 0 (atomics)"},
    {.name = "mapping",
     .type = Type::choice,
     .choices = kMappings,
     .doc = "read_write (default) or read_only: the buffer's page protection"},
    {.name = "align",
     .type = Type::size,
     .min = 1,
     .max = kGiB,
     .doc = "alignment of the buffer (default: a page)"},
}};
constexpr std::array<sv, 8> kRegMrResults = {"addr",   "length", "lkey",       "rkey",
                                             "access", "dur_ns", "rkey_index", "rkey_key"};
constexpr std::array<Field, 1> kDeregMr = {{
    {.name = "mr", .type = Type::object, .required = true, .object_kind = "mr", .doc = "the region"},
}};
constexpr std::array<sv, 1> kDurResult = {"dur_ns"};

constexpr std::array<Field, 5> kWriteMemory = {{
    {.name = "mr",
     .type = Type::object,
     .required = true,
     .object_kind = "mr",
     .doc = "the region whose buffer the application writes"},
    {.name = "offset", .type = Type::size, .max = 16 * kGiB, .doc = "where (default 0)"},
    {.name = "string", .type = Type::text, .doc = "bytes of this text (a step's `text` is its explanation)"},
    {.name = "hex", .type = Type::hex, .doc = "bytes in hex, e.g. 00ff10"},
    kU64Field,
}};

constexpr std::array<Field, 1> kCreateChannel = {{
    {.name = "as",
     .type = Type::new_object,
     .required = true,
     .object_kind = "channel",
     .doc = "name, e.g. A.events"},
}};
constexpr std::array<Field, 3> kCreateCq = {{
    {.name = "as", .type = Type::new_object, .required = true, .object_kind = "cq", .doc = "name, e.g. A.cq"},
    {.name = "depth", .type = Type::integer, .min = 1, .max = 1 << 22, .doc = "entries (default 16)"},
    {.name = "channel",
     .type = Type::object,
     .object_kind = "channel",
     .doc = "completion channel for events (default none)"},
}};
constexpr std::array<sv, 1> kCreateCqResults = {"cqe"};

constexpr auto kCreateQp = join_fields(
    std::array<Field, 5>{{
        kNewQpField,
        kPdField,
        {.name = "type", .type = Type::choice, .choices = kQpTypes, .doc = "rc (default), uc or ud"},
        kSendCqField,
        kRecvCqField,
    }},
    kQpCapacityFields,
    std::array<Field, 1>{{
        {.name = "srq",
         .type = Type::object,
         .object_kind = "srq",
         .doc = "take receives from this SRQ (no receive queue of its own)"},
    }});
constexpr std::array<sv, 7> kCreateQpResults = {
    "qpn", "max_send_wr", "max_recv_wr", "max_send_sge", "max_recv_sge", "max_inline_data", "state"};

// What connect sets in one call and to_rtr and to_rts set step by step.
constexpr Field kPathMtuField = {.name = "mtu",
                                 .type = Type::choice,
                                 .choices = kMtus,
                                 .doc = "path MTU (default: the port's active MTU)"};
constexpr Field kRetryCntField = {
    .name = "retry_cnt", .type = Type::integer, .max = 7, .doc = "transport retries (default 7)"};
constexpr Field kRnrRetryField = {
    .name = "rnr_retry", .type = Type::integer, .max = 7, .doc = "RNR retries, 7 = no limit (default 7)"};

constexpr std::array<Field, 11> kConnect = {{
    {.name = "a", .type = Type::object, .required = true, .object_kind = "qp", .doc = "one RC or UC QP"},
    {.name = "b", .type = Type::object, .required = true, .object_kind = "qp", .doc = "the other"},
    {.name = "access",
     .type = Type::flags,
     .choices = kAccessFlags,
     .doc = "qp_access_flags of both (default remote_write, remote_read, remote_atomic)"},
    kPathMtuField,
    {.name = "timeout",
     .type = Type::integer,
     .max = 31,
     .doc = "local ACK timeout: 4.096 us * 2^timeout (default 14)"},
    kRetryCntField,
    kRnrRetryField,
    {.name = "min_rnr_timer",
     .type = Type::integer,
     .max = 31,
     .doc = "encoded RNR NAK delay (default 1: 0.01 ms)"},
    {.name = "max_rd_atomic",
     .type = Type::integer,
     .max = 255,
     .doc = "outstanding READ/atomic as requester (default 1)"},
    {.name = "max_dest_rd_atomic", .type = Type::integer, .max = 255, .doc = "as responder (default 1)"},
    {.name = "remote_qpn",
     .type = Type::integer,
     .max = 0xffffff,
     .doc = "override b's QP number in a's RTR (a wrong QPN)"},
}};

constexpr std::array<Field, 4> kToInit = {{
    {.name = "qp", .type = Type::object, .required = true, .object_kind = "qp", .doc = "the QP (RESET)"},
    {.name = "access",
     .type = Type::flags,
     .choices = kAccessFlags,
     .doc = "RC/UC: qp_access_flags (default remote_write, remote_read, remote_atomic)"},
    kQkeyField,
    {.name = "port", .type = Type::integer, .min = 1, .max = 255, .doc = "port (default: the lab's port)"},
}};
constexpr std::array<Field, 7> kToRtr = {{
    {.name = "qp", .type = Type::object, .required = true, .object_kind = "qp", .doc = "the QP (INIT)"},
    {.name = "peer",
     .type = Type::object,
     .object_kind = "qp",
     .doc = "RC/UC: the remote QP (its number, PSN and GID)"},
    kPathMtuField,
    {.name = "min_rnr_timer", .type = Type::integer, .max = 31, .doc = "encoded RNR NAK delay (default 1)"},
    {.name = "max_dest_rd_atomic",
     .type = Type::integer,
     .max = 255,
     .doc = "responder resources (default 1)"},
    {.name = "remote_qpn", .type = Type::integer, .max = 0xffffff, .doc = "override the peer's QP number"},
    {.name = "remote_psn", .type = Type::integer, .max = 0xffffff, .doc = "override the expected PSN"},
}};
constexpr std::array<Field, 6> kToRts = {{
    {.name = "qp", .type = Type::object, .required = true, .object_kind = "qp", .doc = "the QP (RTR)"},
    {.name = "timeout", .type = Type::integer, .max = 31, .doc = "local ACK timeout (default 14)"},
    kRetryCntField,
    kRnrRetryField,
    {.name = "max_rd_atomic",
     .type = Type::integer,
     .max = 255,
     .doc = "outstanding READ/atomic (default 1)"},
    {.name = "sq_psn",
     .type = Type::integer,
     .max = 0xffffff,
     .doc = "first send PSN (default: the QP's psn)"},
}};
constexpr std::array<Field, 1> kQpOnly = {{
    kQpField,
}};
constexpr std::array<sv, 4> kTransitionResults = {"from", "to", "mask", "dur_ns"};

constexpr std::array<Field, 15> kModifyAttrs = {{
    {.name = "port", .type = Type::integer, .min = 1, .max = 255},
    {.name = "access", .type = Type::flags, .choices = kAccessFlags},
    {.name = "pkey_index", .type = Type::integer, .max = 65535},
    {.name = "qkey", .type = Type::u64, .max = 0xffffffff},
    {.name = "peer",
     .type = Type::object,
     .object_kind = "qp",
     .doc = "fills the address vector and dest_qpn from this QP"},
    {.name = "mtu", .type = Type::choice, .choices = kMtus},
    {.name = "dest_qpn", .type = Type::integer, .max = 0xffffff},
    {.name = "rq_psn", .type = Type::integer, .max = 0xffffff},
    {.name = "max_dest_rd_atomic", .type = Type::integer, .max = 255},
    {.name = "min_rnr_timer", .type = Type::integer, .max = 31},
    {.name = "sq_psn", .type = Type::integer, .max = 0xffffff},
    {.name = "timeout", .type = Type::integer, .max = 31},
    {.name = "retry_cnt", .type = Type::integer, .max = 7},
    {.name = "rnr_retry", .type = Type::integer, .max = 7},
    {.name = "max_rd_atomic", .type = Type::integer, .max = 255},
}};
constexpr std::array<Field, 4> kModifyQp = {{
    kQpField,
    {.name = "state",
     .type = Type::choice,
     .required = true,
     .choices = kQpStates,
     .doc = "the state to move to"},
    {.name = "attrs",
     .type = Type::map,
     .fields = kModifyAttrs,
     .doc = "attribute values (only those named are set)"},
    {.name = "mask",
     .type = Type::flags,
     .required = true,
     .choices = kQpAttrMasks,
     .doc = "ibv_qp_attr_mask bits, exactly as given"},
}};
constexpr std::array<sv, 5> kQueryQpResults = {"state", "sq_psn", "rq_psn", "dest_qpn", "sq_draining"};

constexpr std::array<Field, 4> kCreateAh = {{
    {.name = "as",
     .type = Type::new_object,
     .required = true,
     .object_kind = "ah",
     .doc = "name, e.g. A.ah_b"},
    kPdField,
    {.name = "peer",
     .type = Type::object,
     .object_kind = "qp",
     .doc = "whose port and GID the handle addresses"},
    {.name = "group",
     .type = Type::object,
     .object_kind = "group",
     .doc = "a joined multicast group: its join's ah_attr"},
}};

constexpr std::array<Action, 23> kResourceActions = {{
    {.name = "note", .doc = "text only: no engine call"},
    {.name = "open_device",
     .verbs = "ibv_get_device_list, ibv_open_device, ibv_query_port, ibv_query_gid",
     .fields = kOpenDevice,
     .results = kOpenDeviceResults,
     .doc = "opens the device (object `device`), checks the port is ACTIVE, picks a GID"},
    {.name = "query_device",
     .verbs = "ibv_query_device",
     .results = kQueryDeviceResults,
     .doc = "the device's limits and capabilities"},
    {.name = "query_port",
     .verbs = "ibv_query_port",
     .fields = kQueryPort,
     .results = kQueryPortResults,
     .doc = "the port's state, MTU, link layer"},
    {.name = "query_gid_table",
     .verbs = "ibv_query_gid, ibv_query_gid_type",
     .fields = kQueryPort,
     .results = kGidTableResults,
     .doc = "every GID of the port with its type"},
    {.name = "alloc_pd",
     .verbs = "ibv_alloc_pd",
     .fields = kAllocPd,
     .results = kDurResult,
     .doc = "a protection domain"},
    {.name = "dealloc_pd",
     .verbs = "ibv_dealloc_pd",
     .fields = kDeallocPd,
     .results = kDurResult,
     .doc = "frees a PD (fails while objects use it)"},
    {.name = "reg_mr",
     .verbs = "ibv_reg_mr",
     .fields = kRegMr,
     .results = kRegMrResults,
     .doc = "allocates a buffer and registers it"},
    {.name = "dereg_mr",
     .verbs = "ibv_dereg_mr",
     .fields = kDeregMr,
     .results = kDurResult,
     .doc = "deregisters a region and frees its buffer"},
    {.name = "write_memory",
     .fields = kWriteMemory,
     .doc = "the application writes bytes into its own buffer (no verb)"},
    {.name = "create_channel",
     .verbs = "ibv_create_comp_channel",
     .fields = kCreateChannel,
     .doc = "a completion channel"},
    {.name = "create_cq",
     .verbs = "ibv_create_cq",
     .fields = kCreateCq,
     .results = kCreateCqResults,
     .doc = "a completion queue"},
    {.name = "create_qp",
     .verbs = "ibv_create_qp",
     .fields = kCreateQp,
     .results = kCreateQpResults,
     .doc = "a queue pair, in RESET"},
    {.name = "connect",
     .verbs = "ibv_modify_qp",
     .fields = kConnect,
     .doc = "RESET->INIT->RTR->RTS on two QPs, each transition traced"},
    {.name = "to_init",
     .verbs = "ibv_modify_qp",
     .fields = kToInit,
     .results = kTransitionResults,
     .doc = "RESET->INIT with the attributes it requires"},
    {.name = "to_rtr",
     .verbs = "ibv_modify_qp",
     .fields = kToRtr,
     .results = kTransitionResults,
     .doc = "INIT->RTR"},
    {.name = "to_rts",
     .verbs = "ibv_modify_qp",
     .fields = kToRts,
     .results = kTransitionResults,
     .doc = "RTR->RTS"},
    {.name = "to_sqd",
     .verbs = "ibv_modify_qp",
     .fields = kQpOnly,
     .results = kTransitionResults,
     .doc = "RTS->SQD"},
    {.name = "to_err",
     .verbs = "ibv_modify_qp",
     .fields = kQpOnly,
     .results = kTransitionResults,
     .doc = "any state->ERR (flushes outstanding requests)"},
    {.name = "to_reset",
     .verbs = "ibv_modify_qp",
     .fields = kQpOnly,
     .results = kTransitionResults,
     .doc = "any state->RESET"},
    {.name = "modify_qp",
     .verbs = "ibv_modify_qp",
     .fields = kModifyQp,
     .results = kTransitionResults,
     .doc = "an explicit attribute set and mask"},
    {.name = "query_qp",
     .verbs = "ibv_query_qp",
     .fields = kQpOnly,
     .results = kQueryQpResults,
     .doc = "the QP's state and attributes"},
    {.name = "create_ah", .verbs = "ibv_create_ah", .fields = kCreateAh, .doc = "an address handle (UD)"},
}};

} // namespace

std::span<const Action> resource_actions() {
    return kResourceActions;
}

} // namespace rdmalab::labs::schema::detail
