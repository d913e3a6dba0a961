// The lab language's rdma_cm actions (chapter 8) and UD multicast (chapter 24) (lab_schema.hpp): their fields
// and their rows.
#include "lab_schema_tables.hpp"

namespace rdmalab::labs::schema::detail {

namespace {

constexpr std::array<sv, 2> kPortSpaces = {"tcp", "udp"};
constexpr std::array<sv, 2> kCmQpTypes = {"rc", "ud"};
constexpr Field kCmTimeout{
    .name = "timeout", .type = Type::duration, .max = 600000, .doc = "how long (default 5s)"};
constexpr Field kCmId{
    .name = "cm_id", .type = Type::object, .required = true, .object_kind = "cm_id", .doc = "the rdma_cm id"};
constexpr Field kPrivateData{.name = "private_data",
                             .type = Type::text,
                             .doc = "bytes of this text sent with the message (default none)"};
constexpr Field kPortSpace{.name = "port_space",
                           .type = Type::choice,
                           .choices = kPortSpaces,
                           .doc = "tcp (default: RDMA_PS_TCP, RC) or udp (UD)"};
constexpr std::array<Field, 4> kCmBind = {{
    {.name = "as",
     .type = Type::new_object,
     .required = true,
     .object_kind = "cm_id",
     .doc = "name, e.g. B.listen"},
    {.name = "address", .type = Type::text, .required = true, .doc = "a local IPv4 address"},
    {.name = "port", .type = Type::integer, .max = 65535, .doc = "port (default 0: one rdma_cm picks)"},
    kPortSpace,
}};
constexpr std::array<sv, 2> kCmBindResults = {"port", "device"};
constexpr std::array<Field, 2> kCmListen = {{
    kCmId,
    {.name = "backlog",
     .type = Type::integer,
     .min = 1,
     .max = 1024,
     .doc = "pending connect requests (default 8)"},
}};
constexpr std::array<Field, 5> kCmResolve = {{
    {.name = "as",
     .type = Type::new_object,
     .required = true,
     .object_kind = "cm_id",
     .doc = "name, e.g. A.id"},
    {.name = "address", .type = Type::text, .required = true, .doc = "the destination's IPv4 address"},
    {.name = "port", .type = Type::integer, .required = true, .max = 65535, .doc = "the destination port"},
    kPortSpace,
    kCmTimeout,
}};
constexpr std::array<Field, 2> kCmResolveRoute = {{
    kCmId,
    kCmTimeout,
}};
constexpr std::array<Field, 3> kCmEvent = {{
    kCmId,
    kCmTimeout,
    {.name = "request_id",
     .type = Type::new_object,
     .object_kind = "cm_id",
     .doc = "connect_request: the name of the new passive-side id, e.g. B.conn"},
}};
constexpr std::array<sv, 4> kCmEventResults = {"event", "status", "private_data", "private_data_len"};
constexpr std::array<Field, 8> kCmCreateQp = {{
    kNewQpField,
    kCmId,
    {.name = "pd",
     .type = Type::object,
     .required = true,
     .object_kind = "pd",
     .doc = "the protection domain (on the id's device)"},
    kSendCqField,
    kRecvCqField,
    {.name = "type", .type = Type::choice, .choices = kCmQpTypes, .doc = "rc (default) or ud (a udp id)"},
    {.name = "max_send_wr",
     .type = Type::integer,
     .min = 1,
     .max = 1 << 20,
     .doc = "send queue depth (default 16)"},
    {.name = "max_recv_wr",
     .type = Type::integer,
     .min = 1,
     .max = 1 << 20,
     .doc = "receive queue depth (default 16)"},
}};
constexpr std::array<sv, 2> kCmCreateQpResults = {"qpn", "state"};
constexpr std::array<Field, 4> kCmConnect = {{
    kCmId,
    kPrivateData,
    {.name = "retry_count", .type = Type::integer, .max = 7, .doc = "transport retries (default 7)"},
    {.name = "rnr_retry_count",
     .type = Type::integer,
     .max = 7,
     .doc = "RNR retries, 7 = no limit (default 7)"},
}};
constexpr std::array<Field, 2> kCmAccept = {{
    kCmId,
    kPrivateData,
}};
constexpr std::array<Field, 1> kCmIdOnly = {{
    kCmId,
}};
constexpr std::array<Field, 4> kMcastJoin = {{
    {.name = "as",
     .type = Type::new_object,
     .required = true,
     .object_kind = "group",
     .doc = "name of the membership, e.g. A.group"},
    kCmId,
    {.name = "group",
     .type = Type::text,
     .required = true,
     .doc = "the group's IPv4 multicast address, e.g. 239.1.2.3"},
    kCmTimeout,
}};
constexpr std::array<sv, 4> kMcastJoinResults = {"event", "status", "qpn", "qkey"};
constexpr std::array<Field, 1> kMcastLeave = {{
    {.name = "group",
     .type = Type::object,
     .required = true,
     .object_kind = "group",
     .doc = "the membership to end"},
}};

constexpr std::array<Action, 12> kCmActions = {{
    {.name = "cm_bind",
     .verbs = "rdma_create_event_channel, rdma_create_id, rdma_bind_addr",
     .fields = kCmBind,
     .results = kCmBindResults,
     .doc = "an rdma_cm id with its own event channel, bound to a local address"},
    {.name = "cm_listen",
     .verbs = "rdma_listen",
     .fields = kCmListen,
     .doc = "the bound id listens for connect requests"},
    {.name = "cm_resolve",
     .verbs = "rdma_create_event_channel, rdma_create_id, rdma_resolve_addr",
     .fields = kCmResolve,
     .doc = "an rdma_cm id that starts resolving a destination address (addr_resolved follows)"},
    {.name = "cm_resolve_route",
     .verbs = "rdma_resolve_route",
     .fields = kCmResolveRoute,
     .doc = "starts resolving the route (route_resolved follows)"},
    {.name = "cm_event",
     .verbs = "rdma_get_cm_event, rdma_ack_cm_event",
     .fields = kCmEvent,
     .results = kCmEventResults,
     .doc = "waits for the id's next rdma_cm event"},
    {.name = "cm_create_qp",
     .verbs = "rdma_create_qp",
     .fields = kCmCreateQp,
     .results = kCmCreateQpResults,
     .doc = "a QP on the id's device that rdma_cm moves through its states"},
    {.name = "cm_connect",
     .verbs = "rdma_connect",
     .fields = kCmConnect,
     .doc = "sends the connect request (REQ) with private data"},
    {.name = "cm_accept",
     .verbs = "rdma_accept",
     .fields = kCmAccept,
     .doc = "accepts a connect request (REP) with private data"},
    {.name = "cm_reject",
     .verbs = "rdma_reject",
     .fields = kCmAccept,
     .doc = "rejects a connect request (REJ) with private data"},
    {.name = "cm_disconnect",
     .verbs = "rdma_disconnect",
     .fields = kCmIdOnly,
     .doc = "disconnects (DREQ or DREP); the QP goes to ERR"},
    {.name = "mcast_join",
     .verbs = "rdma_join_multicast, rdma_get_cm_event",
     .fields = kMcastJoin,
     .results = kMcastJoinResults,
     .doc = "joins a multicast group and waits for the join's event"},
    {.name = "mcast_leave",
     .verbs = "rdma_leave_multicast",
     .fields = kMcastLeave,
     .doc = "leaves the group (the QP is detached)"},
}};

} // namespace

std::span<const Action> cm_actions() {
    return kCmActions;
}

} // namespace rdmalab::labs::schema::detail
