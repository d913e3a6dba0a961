// The lab language's actions on the locked-memory limit, extended queries and QPs, Atomic Write, XRC
// (engine/labrun/src/actions_extended.cpp) and the addresses of the device's interface (chapter 1)
// (lab_schema.hpp): their fields and their rows.
#include "lab_schema_tables.hpp"

namespace rdmalab::labs::schema::detail {

namespace {

// ---- the locked-memory limit, extended queries and QPs, Atomic Write, XRC ---------------------------------

constexpr std::array<Field, 2> kSetMemlock = {{
    {.name = "limit",
     .type = Type::size,
     .required = true,
     .max = 16 * kGiB,
     .doc = "the new soft RLIMIT_MEMLOCK (restored when the lab ends)"},
    {.name = "drop_ipc_lock",
     .type = Type::boolean,
     .doc =
         "clear CAP_IPC_LOCK from this thread's effective set, so the limit binds root too (default true)"},
}};
constexpr std::array<sv, 3> kSetMemlockResults = {"limit", "previous_limit", "cap_ipc_lock"};

constexpr std::array<sv, 5> kQueryDeviceExResults = {"cap_flags_ex", "atomic_write", "flush_global",
                                                     "flush_persistent", "xrc"};

constexpr std::array<sv, 5> kQpExTypes = {"rc", "uc", "ud", "xrc_send", "xrc_recv"};
constexpr std::array<sv, 13> kSendOps = {"write", "write_imm", "send",        "send_imm", "read",
                                         "cas",   "faa",       "local_inv",   "bind_mw",  "send_inv",
                                         "tso",   "flush",     "atomic_write"};
constexpr auto kCreateQpEx = join_fields(
    std::array<Field, 7>{{
        kNewQpField,
        kPdField,
        {.name = "type",
         .type = Type::choice,
         .choices = kQpExTypes,
         .doc = "rc (default), uc, ud, xrc_send or xrc_recv"},
        kSendCqField,
        kRecvCqField,
        {.name = "send_ops",
         .type = Type::flags,
         .choices = kSendOps,
         .doc = "send_ops_flags: the operations ibv_wr_* may post (default: none, the classic ibv_post_send "
                "only)"},
        {.name = "xrcd", .type = Type::object, .object_kind = "xrcd", .doc = "xrc_recv: its XRC domain"},
    }},
    kQpCapacityFields);
constexpr std::array<sv, 8> kCreateQpExResults = {"qpn",          "max_send_wr",  "max_recv_wr",
                                                  "max_send_sge", "max_recv_sge", "max_inline_data",
                                                  "state",        "send_ops"};

/// post_atomic_write's `remote`: a region, its offset, or a key or address given outright (no window).
constexpr std::array<Field, 4> kRegionRemoteFields = {{
    kRemoteFields[0],
    kRemoteFields[1],
    kRemoteFields[2],
    kRemoteFields[3],
}};
constexpr std::array<Field, 5> kPostAtomicWrite = {{
    {.name = "qp",
     .type = Type::object,
     .required = true,
     .object_kind = "qp",
     .doc = "a QP from create_qp_ex with send_ops [atomic_write]"},
    {.name = "remote",
     .type = Type::map,
     .required = true,
     .fields = kRegionRemoteFields,
     .doc = "where on the peer (8 bytes, 8-byte aligned)"},
    {.name = "value",
     .type = Type::u64,
     .required = true,
     .doc = "the 8 bytes written, as a value in host order"},
    kSignaledField,
    kWrIdField,
}};
constexpr std::array<sv, 2> kPostAtomicWriteResults = {"posted", "syscalls"};

constexpr std::array<Field, 1> kOpenXrcd = {{
    {.name = "as",
     .type = Type::new_object,
     .required = true,
     .object_kind = "xrcd",
     .doc = "name, e.g. A.xrcd"},
}};

// ---- addresses of the device's interface (chapter 1) ----------------------------------------------------

constexpr std::array<Field, 4> kAddAddress = {{
    {.name = "as",
     .type = Type::new_object,
     .required = true,
     .object_kind = "address",
     .doc = "name, e.g. A.addr"},
    {.name = "address",
     .type = Type::text,
     .required = true,
     .doc = "an IPv4 address the interface does not have"},
    {.name = "prefix",
     .type = Type::integer,
     .min = 1,
     .max = 32,
     .doc = "prefix length (default 32: no route to a subnet)"},
    {.name = "timeout",
     .type = Type::duration,
     .max = 600000,
     .doc = "how long to wait for the GID (default 5s)"},
}};
constexpr std::array<sv, 4> kAddAddressResults = {"netdev", "gid", "gid_index", "appeared_ms"};
constexpr std::array<Field, 2> kRemoveAddress = {{
    {.name = "address",
     .type = Type::object,
     .required = true,
     .object_kind = "address",
     .doc = "the address an add_address step added"},
    {.name = "timeout",
     .type = Type::duration,
     .max = 600000,
     .doc = "how long to wait for the GID to go (default 5s)"},
}};
constexpr std::array<sv, 1> kRemoveAddressResults = {"gone_ms"};

constexpr std::array<Field, 1> kReadWire = {{
    {.name = "settle",
     .type = Type::duration,
     .max = 10000,
     .doc = "how long the wire must stay quiet before the packets are read (default 300ms)"},
}};
constexpr std::array<sv, 31> kReadWireResults = {"packets",
                                                 "from_a",
                                                 "from_b",
                                                 "write_first",
                                                 "write_middle",
                                                 "write_last",
                                                 "write_only",
                                                 "read_request",
                                                 "read_response_first",
                                                 "read_response_middle",
                                                 "read_response_last",
                                                 "read_response_only",
                                                 "send_first",
                                                 "send_middle",
                                                 "send_last",
                                                 "send_only",
                                                 "atomic",
                                                 "atomic_ack",
                                                 "acks",
                                                 "rnr_naks",
                                                 "naks",
                                                 "seq_naks",
                                                 "access_naks",
                                                 "nak_code",
                                                 "first_psn",
                                                 "last_psn",
                                                 "psns_in_order",
                                                 "retransmitted",
                                                 "retransmitted_psns",
                                                 "reth_rkey",
                                                 "icrc_bad"};
constexpr std::array<Field, 1> kDropPackets = {{
    {.name = "every",
     .type = Type::integer,
     .required = true,
     .min = 2,
     .max = 1000,
     .doc = "drop every Nth RoCE v2 packet this host sends to the connection's QP (the Nth, the 2Nth...)"},
}};
constexpr std::array<sv, 1> kDropPacketsResults = {"netdev"};

constexpr std::array<Action, 9> kExtendedActions = {{
    {.name = "set_memlock",
     .verbs = "setrlimit, capset",
     .fields = kSetMemlock,
     .results = kSetMemlockResults,
     .doc = "lowers the locked-memory limit for the rest of the run (restored at teardown)"},
    {.name = "query_device_ex",
     .verbs = "ibv_query_device_ex",
     .results = kQueryDeviceExResults,
     .doc = "the extended capability bits: Atomic Write, Flush, XRC"},
    {.name = "create_qp_ex",
     .verbs = "ibv_create_qp_ex",
     .fields = kCreateQpEx,
     .results = kCreateQpExResults,
     .doc = "a queue pair with send_ops_flags (or of an XRC type), in RESET"},
    {.name = "post_atomic_write",
     .verbs = "ibv_wr_start, ibv_wr_atomic_write, ibv_wr_complete",
     .fields = kPostAtomicWrite,
     .results = kPostAtomicWriteResults,
     .doc = "an Atomic Write: 8 bytes placed at the peer as one indivisible write"},
    {.name = "open_xrcd",
     .verbs = "ibv_open_xrcd",
     .fields = kOpenXrcd,
     .doc = "an XRC domain (closed at teardown)"},
    {.name = "add_address",
     .verbs = "RTM_NEWADDR",
     .fields = kAddAddress,
     .results = kAddAddressResults,
     .doc = "adds an IPv4 address to the device's interface and waits for its GID (removed at teardown)"},
    {.name = "remove_address",
     .verbs = "RTM_DELADDR",
     .fields = kRemoveAddress,
     .results = kRemoveAddressResults,
     .doc = "removes the address again and waits for its GID to leave the table"},
    {.name = "read_wire",
     .verbs = "libpcap (pcap_dispatch)",
     .fields = kReadWire,
     .results = kReadWireResults,
     .doc = "two hosts: the RoCE v2 packets of the connection captured since the last read_wire, counted"},
    {.name = "drop_packets",
     .verbs = "tc (prio qdisc, u32 filter, gact)",
     .fields = kDropPackets,
     .results = kDropPacketsResults,
     .doc = "two hosts: this host's interface drops every Nth RoCE v2 packet it sends (removed at teardown)"},
}};

} // namespace

std::span<const Action> extended_actions() {
    return kExtendedActions;
}

} // namespace rdmalab::labs::schema::detail
