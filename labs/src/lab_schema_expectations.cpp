// The lab language's expectations (lab_schema.hpp): what a step's `expect` items may state, and their fields.
#include "lab_schema_tables.hpp"

namespace rdmalab::labs::schema {

namespace {

using namespace detail;

constexpr std::array<sv, 1> kPollOnly = {"poll_cq"};
constexpr std::array<sv, 1> kWaitOnly = {"wait_cq_event"};

constexpr std::array<Field, 10> kCompletionFields = {{
    {.name = "index",
     .type = Type::operand,
     .choices = kAll,
     .doc = "which completion of the step: 0 (default), 1, ... or all"},
    {.name = "status",
     .type = Type::choice,
     .choices = kWcStatuses,
     .doc = "IBV_WC_* without the prefix, lower case"},
    {.name = "opcode", .type = Type::choice, .choices = kWcOpcodes, .doc = "IBV_WC_* opcode, lower case"},
    {.name = "byte_len", .type = Type::size, .max = 16 * kGiB},
    {.name = "imm", .type = Type::u64, .max = 0xffffffff, .doc = "immediate data (host order)"},
    {.name = "wc_flags", .type = Type::flags, .choices = kWcFlags, .doc = "exactly these flags"},
    {.name = "src_qp", .type = Type::object, .object_kind = "qp", .doc = "UD: the sender's QP"},
    {.name = "qp", .type = Type::object, .object_kind = "qp", .doc = "the QP it belongs to"},
    {.name = "wr_id", .type = Type::u64},
    {.name = "wc_flags_include",
     .type = Type::flags,
     .choices = kWcFlags,
     .doc = "at least these flags (others may be set)"},
}};
constexpr std::array<Field, 2> kQpStateFields = {{
    {.name = "qp",
     .type = Type::object,
     .required = true,
     .object_kind = "qp",
     .doc = "the QP (read with ibv_query_qp)"},
    {.name = "is", .type = Type::choice, .required = true, .choices = kQpStates, .doc = "the state"},
}};
constexpr std::array<Field, 2> kSameAsFields = {{
    {.name = "mr", .type = Type::object, .required = true, .object_kind = "mr"},
    {.name = "offset", .type = Type::size, .max = 16 * kGiB},
}};
constexpr std::array<Field, 8> kBytesFields = {{
    {.name = "mr",
     .type = Type::object,
     .required = true,
     .object_kind = "mr",
     .doc = "the region whose buffer is read"},
    {.name = "offset", .type = Type::size, .max = 16 * kGiB, .doc = "default 0"},
    {.name = "length", .type = Type::size, .max = 16 * kGiB, .doc = "default: the length of the value"},
    {.name = "text", .type = Type::text, .doc = "the bytes of this text (repeated over `length`)"},
    {.name = "hex", .type = Type::hex, .doc = "these bytes, in hex"},
    kU64Field,
    {.name = "zero", .type = Type::boolean, .doc = "all zero (true) or not all zero (false)"},
    {.name = "same_as", .type = Type::map, .fields = kSameAsFields, .doc = "equal to another region's bytes"},
}};
constexpr std::array<Field, 5> kCompareFields = {{
    {.name = "left", .type = Type::operand, .required = true, .doc = "a value path, a {param} or a number"},
    {.name = "op",
     .type = Type::choice,
     .required = true,
     .choices = kCompareOps,
     .doc = "<, <=, ==, !=, >=, >"},
    {.name = "right", .type = Type::operand, .required = true, .doc = "a value path, a {param} or a number"},
    {.name = "factor", .type = Type::text, .doc = "multiplies right, e.g. 1.5 (ratios)"},
    {.name = "plus",
     .type = Type::integer,
     .min = -(std::int64_t(1) << 32),
     .max = std::int64_t(1) << 32,
     .doc = "added to right (after factor), e.g. 1: left is right's successor"},
}};

/// `says`: the words of the step's text that state a value (`en`, `zh`, each found in that language's text
/// of every device class the item is checked on), and the relation they state: a `compare`, or `is` for a
/// value shown as a word (a status, an errno, a state).
constexpr std::array<Field, 8> kSaysFields = {{
    {.name = "en",
     .type = Type::text,
     .required = true,
     .doc = "the English words of the step's text that state the value"},
    {.name = "zh", .type = Type::text, .required = true, .doc = "the same statement in the Chinese text"},
    kCompareFields[0],
    {.name = "op", .type = Type::choice, .choices = kCompareOps, .doc = "<, <=, ==, !=, >=, > (with right)"},
    {.name = "right", .type = Type::operand, .doc = "a value path, a {param} or a number (or give is)"},
    {.name = "is",
     .type = Type::text,
     .doc = "left's value as a text shows it, e.g. loc_qp_op_err, EINVAL, err (instead of op and right)"},
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
    {.name = "type",
     .type = Type::choice,
     .required = true,
     .choices = kAsyncEvents,
     .doc = "IBV_EVENT_* without the prefix, lower case; none: no event"},
    {.name = "object", .type = Type::text, .doc = "the object it names: a QP, SRQ or CQ (E.name), or port N"},
    {.name = "count",
     .type = Type::integer,
     .max = 1000,
     .doc = "exactly this many events of this type arrived (default: at least one)"},
}};

constexpr std::array<ExpectationKind, 10> kExpectations = {{
    {.name = "fails",
     .type = Type::choice,
     .choices = kErrnos,
     .doc = "the step's verb fails with this errno (any: with any errno)"},
    {.name = "completions",
     .type = Type::integer,
     .actions = kPollOnly,
     .doc = "exactly this many completions arrived within the timeout"},
    {.name = "completion",
     .type = Type::map,
     .fields = kCompletionFields,
     .actions = kPollOnly,
     .doc = "fields of a completion the step polled"},
    {.name = "qp_state",
     .type = Type::map,
     .fields = kQpStateFields,
     .doc = "a QP's state after the step, read with ibv_query_qp"},
    {.name = "bytes", .type = Type::map, .fields = kBytesFields, .doc = "bytes of a buffer after the step"},
    {.name = "compare",
     .type = Type::map,
     .fields = kCompareFields,
     .doc = "a relation between two measured or observed values"},
    {.name = "says",
     .type = Type::map,
     .fields = kSaysFields,
     .doc = "what the step's text states about an observed value holds (the words, then a compare)"},
    {.name = "event",
     .type = Type::boolean,
     .actions = kWaitOnly,
     .doc = "a completion event arrived (true) or the wait timed out (false)"},
    {.name = "cm_event",
     .type = Type::choice,
     .choices = kCmEventNames,
     .actions = kCmEventActions,
     .doc = "the rdma_cm event that arrived (none: no event within the timeout)"},
    {.name = "async_event",
     .type = Type::map,
     .fields = kAsyncEventFields,
     .actions = kWaitAsyncOnly,
     .doc = "an asynchronous event of this type arrived in the wait (type none: no event at all)"},
}};

} // namespace

std::span<const ExpectationKind> expectations() {
    return kExpectations;
}

const ExpectationKind* find_expectation(std::string_view name) {
    return find_by_name(kExpectations, name);
}

} // namespace rdmalab::labs::schema
