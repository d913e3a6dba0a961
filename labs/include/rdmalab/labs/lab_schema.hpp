// The lab language as data: every action a lab step can perform, every field it takes, every expectation,
// and the values each object and step exposes to {placeholders}. The parser validates against these tables,
// the runner implements one function per action, and docs/lab-format.md documents each row (a test checks
// that the document names every action, field and expectation). Adding an action = a row here, a function in
// the runner, a paragraph in the document.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace rdmalab::labs::schema {

/// What a field's YAML value must be.
enum class Type {
    integer,    ///< a whole number within [min, max]
    size,       ///< bytes: 4096, "4KiB", "1MiB", "2GiB"; within [min, max]
    u64,        ///< 0 .. 2^64-1, decimal or 0x-hex
    boolean,    ///< true / false
    text,       ///< any string
    hex,        ///< bytes as an even number of hex digits: "00ff10"
    duration,   ///< milliseconds: 250, "250ms", "2s"
    choice,     ///< one of `choices`
    flags,      ///< a list of distinct `choices` (may be empty)
    object,     ///< a reference "E.name" to an object of kind `object_kind` created by an earlier step
    new_object, ///< the name "E.name" of the object this step creates (kind `object_kind`); unique in the lab
    map,        ///< a mapping with the keys of `fields`
    list,       ///< a list whose items are `fields[0]` (a map or scalar spec named "item")
    operand,    ///< a number, a {param}, or a value path ("step.result", "E.obj.field", "device.field")
};

/// One field of an action, of an expectation, or of a nested map.
struct Field {
    std::string_view name;
    Type type;
    bool required = false;
    std::string_view object_kind = {};              ///< object / new_object
    std::span<const std::string_view> choices = {}; ///< choice / flags
    std::span<const Field> fields = {};             ///< map / list
    std::int64_t min = 0;                           ///< integer / size (when min < max)
    std::int64_t max = 0;
    std::string_view doc = {}; ///< one line for docs and `lab check --explain`
};

/// One action a step can perform (`do:`).
struct Action {
    std::string_view name;
    std::string_view verbs = {}; ///< the verbs it calls, e.g. "ibv_reg_mr"; empty for no verb
    std::span<const Field> fields = {};
    std::span<const std::string_view> results = {}; ///< values the step exposes as {step_id.result}
    std::string_view doc;
};

/// One expectation kind (`expect: - KIND: ...`).
struct ExpectationKind {
    std::string_view name;
    Type type; ///< the operand's type (map: `fields`)
    std::span<const Field> fields = {};
    std::span<const std::string_view> choices = {}; ///< choice operands
    std::span<const std::string_view> actions = {}; ///< actions it applies to; empty: any action
    std::string_view doc;
};

/// What an object kind exposes as {E.name.field}.
struct ObjectKind {
    std::string_view name; ///< "device", "pd", "mr", "channel", "cq", "qp", "ah"
    std::span<const std::string_view> fields;
};

std::span<const Action> actions();
std::span<const ExpectationKind> expectations();
std::span<const ObjectKind> object_kinds();

const Action* find_action(std::string_view name);
const ExpectationKind* find_expectation(std::string_view name);
const ObjectKind* find_object_kind(std::string_view name);

/// Endpoints an object may belong to: "A".."D" (trace events of C and D are attributed to their own
/// endpoint letter). The device is the object named "device", without an endpoint.
bool is_endpoint(char letter);

/// Common value vocabularies (lower-case canonical names).
std::span<const std::string_view> access_flags();  ///< local_write, remote_write, remote_read, ...
std::span<const std::string_view> opcodes();       ///< send, send_imm, write, write_imm, read, cas, faa
std::span<const std::string_view> wc_statuses();   ///< success, loc_len_err, ..., rem_access_err, ...
std::span<const std::string_view> wc_opcodes();    ///< send, rdma_write, rdma_read, comp_swap, ...
std::span<const std::string_view> qp_states();     ///< reset, init, rtr, rts, sqd, sqe, err
std::span<const std::string_view> errno_names();   ///< EINVAL, ENOMEM, EPERM, ..., any
std::span<const std::string_view> qp_attr_masks(); ///< state, access_flags, pkey_index, port, ...

} // namespace rdmalab::labs::schema
