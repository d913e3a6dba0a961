// The lab language's tables (lab_schema.hpp): the actions of every family (lab_schema_*.cpp) as one table,
// the object kinds, and the vocabularies (lab_schema_tables.hpp). Every row is documented in
// docs/lab-format.md.
#include "lab_schema_tables.hpp"

#include <vector>

namespace rdmalab::labs::schema {

namespace {

using namespace detail;

// What each kind of object exposes as {E.name.field}.
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
    {.name = "device", .fields = kDeviceFields},
    {.name = "pd", .fields = kPdFields},
    {.name = "mr", .fields = kMrFields},
    {.name = "channel", .fields = kChannelFields},
    {.name = "cq", .fields = kCqFields},
    {.name = "qp", .fields = kQpFields},
    {.name = "ah", .fields = kAhFields},
    {.name = "cm_id", .fields = kCmIdFields},
    {.name = "group", .fields = kGroupFields},
    {.name = "srq", .fields = kSrqFields},
    {.name = "mw", .fields = kMwFields},
    {.name = "xrcd", .fields = kXrcdFields},
    {.name = "address", .fields = kAddressFields},
}};

} // namespace

std::span<const Action> actions() {
    // One table, built once from the families in the order the documentation lists them.
    static const std::vector<Action> table = [] {
        std::vector<Action> all;
        for (const auto family : {resource_actions(), work_request_actions(), cm_actions(),
                                  srq_and_window_actions(), extended_actions()})
            all.insert(all.end(), family.begin(), family.end());
        return all;
    }();
    return table;
}
std::span<const ObjectKind> object_kinds() {
    return kObjectKinds;
}
const Action* find_action(std::string_view name) {
    return find_by_name(actions(), name);
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
