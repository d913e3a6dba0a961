// The lab language's work requests, completions and measurements, shared receive queues, async events and
// memory windows (lab_schema.hpp): their fields and their rows.
#include "lab_schema_tables.hpp"

namespace rdmalab::labs::schema::detail {

namespace {

// ---- work requests, completions, measurements ------------------------------------------------------------

constexpr Field kTimeout{.name = "timeout",
                         .type = Type::duration,
                         .max = 600000,
                         .doc = "how long to wait (default 10s; emulation is slow)"};

/// One scatter/gather element: a part of a registered region.
constexpr std::array<Field, 4> kSgeFields = {{
    {.name = "mr",
     .type = Type::object,
     .required = true,
     .object_kind = "mr",
     .doc = "the region the bytes are in (its lkey is used)"},
    {.name = "offset", .type = Type::size, .max = 16 * kGiB, .doc = "from the region's start (default 0)"},
    {.name = "length",
     .type = Type::size,
     .max = 16 * kGiB,
     .doc = "bytes (default: the rest of the region)"},
    {.name = "lkey", .type = Type::u64, .doc = "use this lkey instead of the region's (a bad key)"},
}};
constexpr std::array<Field, 1> kSgeItem = {{
    {.name = "item", .type = Type::map, .fields = kSgeFields},
}};
constexpr Field kSges{.name = "sge",
                      .type = Type::list,
                      .fields = kSgeItem,
                      .doc = "the scatter/gather list, in order (default: none, a zero-length request)"};

constexpr std::array<Field, 4> kPostRecv = {{
    kQpField,
    kSges,
    kWrIdField,
    {.name = "count",
     .type = Type::integer,
     .min = 1,
     .max = 100000,
     .doc = "post this many receives (default 1)"},
}};
constexpr std::array<sv, 3> kPostResults = {"posted", "calls", "syscalls"};

// What bind_mw (a type 1 window) and a bind_mw post (type 2) take alike.
constexpr Field kBindRegionField = {.name = "mr",
                                    .type = Type::object,
                                    .required = true,
                                    .object_kind = "mr",
                                    .doc = "the region (registered with mw_bind)"};
constexpr Field kBindOffsetField = {.name = "offset",
                                    .type = Type::size,
                                    .max = 16 * kGiB,
                                    .doc = "the window's start in the region (default 0)"};
constexpr Field kBindAccessField = {.name = "access",
                                    .type = Type::flags,
                                    .choices = kAccessFlags,
                                    .doc = "remote access the window grants (default none)"};

/// What a memory window is bound to: a part of a region and the remote access it grants.
constexpr std::array<Field, 4> kBindFields = {{
    kBindRegionField,
    kBindOffsetField,
    {.name = "length",
     .type = Type::size,
     .max = 16 * kGiB,
     .doc = "bytes (default: the rest of the region; 0 unbinds a type 1 window)"},
    kBindAccessField,
}};

constexpr std::array<Field, 23> kPostSend = {{
    kQpField,
    {.name = "opcode", .type = Type::choice, .required = true, .choices = kOpcodes, .doc = "what to do"},
    kSges,
    {.name = "remote",
     .type = Type::map,
     .fields = kRemoteFields,
     .doc = "write, read, atomics: where on the peer"},
    {.name = "imm", .type = Type::u64, .max = 0xffffffff, .doc = "send_imm, write_imm: immediate data"},
    {.name = "compare", .type = Type::u64, .doc = "cas: the expected value"},
    {.name = "swap", .type = Type::u64, .doc = "cas: the new value"},
    {.name = "add", .type = Type::u64, .doc = "faa: what to add"},
    kSignaledField,
    {.name = "inline", .type = Type::boolean, .doc = "IBV_SEND_INLINE (default false)"},
    {.name = "solicited", .type = Type::boolean, .doc = "IBV_SEND_SOLICITED (default false)"},
    {.name = "fence", .type = Type::boolean, .doc = "IBV_SEND_FENCE (default false)"},
    {.name = "ah", .type = Type::object, .object_kind = "ah", .doc = "UD: the address handle"},
    {.name = "remote_qp",
     .type = Type::object,
     .object_kind = "qp",
     .doc = "UD: the destination QP (its number)"},
    kQkeyField,
    kWrIdField,
    {.name = "count",
     .type = Type::integer,
     .min = 1,
     .max = 1000000,
     .doc = "post this many requests (default 1)"},
    {.name = "per_call",
     .type = Type::integer,
     .min = 1,
     .max = 4096,
     .doc = "requests chained into one ibv_post_send call (default 1)"},
    {.name = "signal_every",
     .type = Type::integer,
     .min = 1,
     .max = 1000000,
     .doc = "only every k-th request is signaled, and the last (default 1: all, as `signaled` says)"},
    {.name = "group",
     .type = Type::object,
     .object_kind = "group",
     .doc = "UD: send to this multicast group (remote QPN 0xFFFFFF and the group's Q_Key)"},
    {.name = "invalidate_rkey",
     .type = Type::operand,
     .doc = "local_inv, send_with_inv: the rkey to invalidate (a number or a value path, e.g. B.win.rkey)"},
    {.name = "mw", .type = Type::object, .object_kind = "mw", .doc = "bind_mw: the type 2 window to bind"},
    {.name = "bind",
     .type = Type::map,
     .fields = kBindFields,
     .doc = "bind_mw: the part of a region the window grants"},
}};

constexpr std::array<Field, 3> kPollCq = {{
    {.name = "cq",
     .type = Type::object,
     .required = true,
     .object_kind = "cq",
     .doc = "the completion queue"},
    {.name = "count", .type = Type::integer, .max = 1000000, .doc = "completions to wait for (default 1)"},
    kTimeout,
}};
constexpr std::array<sv, 11> kPollResults = {"count",    "status",   "opcode",          "byte_len",
                                             "imm",      "src_qp",   "wr_id",           "qp_num",
                                             "wc_flags", "syscalls", "invalidated_rkey"};

constexpr std::array<Field, 2> kReqNotify = {{
    {.name = "cq",
     .type = Type::object,
     .required = true,
     .object_kind = "cq",
     .doc = "a CQ created with a channel"},
    {.name = "solicited_only", .type = Type::boolean, .doc = "wake only for solicited completions"},
}};
constexpr std::array<Field, 2> kWaitCqEvent = {{
    {.name = "cq",
     .type = Type::object,
     .required = true,
     .object_kind = "cq",
     .doc = "a CQ created with a channel, armed"},
    kTimeout,
}};
constexpr std::array<sv, 1> kWaitEventResults = {"arrived"};

constexpr std::array<Field, 5> kBench = {{
    {.name = "kind",
     .type = Type::choice,
     .required = true,
     .choices = kMeasurementKindNames,
     .doc = "the measurement (rdmalab-cli bench KIND)"},
    {.name = "size", .type = Type::size, .min = 1, .max = kGiB, .doc = "message bytes (default 64)"},
    {.name = "iterations",
     .type = Type::integer,
     .min = 1,
     .max = 10000000,
     .doc = "measured iterations (default 1000)"},
    {.name = "inline", .type = Type::boolean, .doc = "send small messages inline (default: as perftest)"},
    {.name = "completion",
     .type = Type::choice,
     .choices = kBenchCompletions,
     .doc = "busy_poll (default) or events: both sides sleep on a completion channel (send_lat only)"},
}};
constexpr std::array<sv, 13> kBenchResults = {"p50_ns",   "p99_ns",     "min_ns",           "mean_ns",
                                              "mb_per_s", "msg_per_s",  "syscalls_per_msg", "cpu_ns_per_msg",
                                              "device",   "completion", "switches_per_msg", "sleeps_per_msg",
                                              "cpus_busy"};

constexpr std::array<Field, 1> kWait = {{
    {.name = "time", .type = Type::duration, .required = true, .max = 600000, .doc = "how long"},
}};

// ---- shared receive queues, async events, memory windows ------------------------------------------------

constexpr Field kSrqField = {.name = "srq",
                             .type = Type::object,
                             .required = true,
                             .object_kind = "srq",
                             .doc = "the shared receive queue"};
constexpr std::array<Field, 4> kCreateSrq = {{
    {.name = "as",
     .type = Type::new_object,
     .required = true,
     .object_kind = "srq",
     .doc = "name, e.g. B.srq"},
    kPdField,
    {.name = "max_wr",
     .type = Type::integer,
     .min = 1,
     .max = 1 << 20,
     .doc = "receives it holds (default 16; the device may grant more)"},
    {.name = "max_sge", .type = Type::integer, .min = 1, .max = 1024, .doc = "SGEs per receive (default 1)"},
}};
constexpr std::array<sv, 3> kCreateSrqResults = {"max_wr", "max_sge", "handle"};
constexpr std::array<Field, 4> kPostSrqRecv = {{
    kSrqField,
    kSges,
    {.name = "wr_id", .type = Type::u64, .doc = "work request id of the first (default: the step's number)"},
    {.name = "count",
     .type = Type::integer,
     .min = 1,
     .max = 100000,
     .doc = "post this many receives, wr_id counting up (default 1)"},
}};
constexpr std::array<sv, 1> kPostedResult = {"posted"};
constexpr std::array<Field, 2> kModifySrq = {{
    kSrqField,
    {.name = "limit",
     .type = Type::integer,
     .required = true,
     .max = 1 << 20,
     .doc = "srq_limit: the event fires when fewer receives remain"},
}};
constexpr std::array<Field, 1> kSrqOnly = {{
    {.name = "srq", .type = Type::object, .required = true, .object_kind = "srq", .doc = "the SRQ"},
}};
constexpr std::array<sv, 3> kQuerySrqResults = {"max_wr", "max_sge", "limit"};
constexpr std::array<Field, 2> kWaitAsync = {{
    kTimeout,
    {.name = "count",
     .type = Type::integer,
     .max = 1000,
     .doc = "events to wait for (default 1); 0: gather every event of the whole timeout"},
}};
constexpr std::array<sv, 4> kWaitAsyncResults = {"count", "type", "object", "types"};
constexpr std::array<Field, 3> kAllocMw = {{
    {.name = "as",
     .type = Type::new_object,
     .required = true,
     .object_kind = "mw",
     .doc = "name, e.g. B.win"},
    kPdField,
    {.name = "type",
     .type = Type::choice,
     .choices = kMwTypes,
     .doc = "1 (bound with ibv_bind_mw) or 2 (default; bound with a bind_mw post)"},
}};
constexpr std::array<sv, 2> kAllocMwResults = {"rkey", "type"};
constexpr std::array<Field, 8> kBindMw = {{
    {.name = "mw", .type = Type::object, .required = true, .object_kind = "mw", .doc = "a type 1 window"},
    {.name = "qp",
     .type = Type::object,
     .required = true,
     .object_kind = "qp",
     .doc = "a QP of the window's PD in RTS: the bind is posted on it"},
    kBindRegionField,
    kBindOffsetField,
    {.name = "length",
     .type = Type::size,
     .max = 16 * kGiB,
     .doc = "bytes (default: the rest of the region; 0 unbinds)"},
    kBindAccessField,
    kWrIdField,
    kSignaledField,
}};
constexpr std::array<sv, 2> kBindMwResults = {"rkey", "old_rkey"};
constexpr std::array<Field, 1> kMwOnly = {{
    {.name = "mw", .type = Type::object, .required = true, .object_kind = "mw", .doc = "the window"},
}};

constexpr std::array<Action, 7> kWorkRequestActions = {{
    {.name = "post_recv",
     .verbs = "ibv_post_recv",
     .fields = kPostRecv,
     .results = kPostResults,
     .doc = "receive work requests"},
    {.name = "post_send",
     .verbs = "ibv_post_send",
     .fields = kPostSend,
     .results = kPostResults,
     .doc = "send work requests"},
    {.name = "poll_cq",
     .verbs = "ibv_poll_cq",
     .fields = kPollCq,
     .results = kPollResults,
     .doc = "busy-polls until `count` completions or the timeout"},
    {.name = "req_notify_cq",
     .verbs = "ibv_req_notify_cq",
     .fields = kReqNotify,
     .doc = "arms a CQ for one completion event"},
    {.name = "wait_cq_event",
     .verbs = "ibv_get_cq_event, ibv_ack_cq_events",
     .fields = kWaitCqEvent,
     .results = kWaitEventResults,
     .doc = "waits for the armed CQ's event"},
    {.name = "bench",
     .verbs = "(a measurement)",
     .fields = kBench,
     .results = kBenchResults,
     .doc = "a measurement on a loopback pair, as rdmalab-cli bench"},
    {.name = "wait", .fields = kWait, .doc = "sleeps (lets a timer run out, e.g. before an RNR retry)"},
}};

constexpr std::array<Action, 8> kSrqAndWindowActions = {{
    {.name = "create_srq",
     .verbs = "ibv_create_srq",
     .fields = kCreateSrq,
     .results = kCreateSrqResults,
     .doc = "a shared receive queue"},
    {.name = "post_srq_recv",
     .verbs = "ibv_post_srq_recv",
     .fields = kPostSrqRecv,
     .results = kPostedResult,
     .doc = "receive work requests on an SRQ"},
    {.name = "modify_srq",
     .verbs = "ibv_modify_srq",
     .fields = kModifySrq,
     .doc = "arms the SRQ's limit (IBV_SRQ_LIMIT)"},
    {.name = "query_srq",
     .verbs = "ibv_query_srq",
     .fields = kSrqOnly,
     .results = kQuerySrqResults,
     .doc = "the SRQ's size and armed limit"},
    {.name = "wait_async_event",
     .verbs = "ibv_get_async_event, ibv_ack_async_event",
     .fields = kWaitAsync,
     .results = kWaitAsyncResults,
     .doc = "waits on the device's async event fd and reads every event"},
    {.name = "alloc_mw",
     .verbs = "ibv_alloc_mw",
     .fields = kAllocMw,
     .results = kAllocMwResults,
     .doc = "a memory window (unbound)"},
    {.name = "bind_mw",
     .verbs = "ibv_bind_mw",
     .fields = kBindMw,
     .results = kBindMwResults,
     .doc = "binds a type 1 window to a part of a region"},
    {.name = "dealloc_mw", .verbs = "ibv_dealloc_mw", .fields = kMwOnly, .doc = "frees a memory window"},
}};

} // namespace

std::span<const Action> work_request_actions() {
    return kWorkRequestActions;
}

std::span<const Action> srq_and_window_actions() {
    return kSrqAndWindowActions;
}

} // namespace rdmalab::labs::schema::detail
