// The operations and faults by name, what a fault makes the device report, and the check of an
// operation's options: shared by the loopback pair and the rdma_cm pair (declared in operation.hpp).
#include "ops/op_common.hpp"
#include "rdmalab/engine/operation.hpp"

#include <fmt/format.h>

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace rdmalab {

using namespace detail;

namespace {

template <typename Kind> using NameTable = std::pair<Kind, std::string_view>;

constexpr NameTable<OpKind> kOpNames[] = {
    {OpKind::Send, "send"},          {OpKind::SendImm, "send_imm"}, {OpKind::Write, "write"},
    {OpKind::WriteImm, "write_imm"}, {OpKind::Read, "read"},        {OpKind::CompareSwap, "cas"},
    {OpKind::FetchAdd, "faa"},
};
constexpr NameTable<FaultKind> kFaultNames[] = {
    {FaultKind::None, "none"},
    {FaultKind::BadRkey, "bad-rkey"},
    {FaultKind::NoRemoteAccess, "no-remote-access"},
    {FaultKind::OutOfBounds, "out-of-bounds"},
    {FaultKind::NoRecv, "no-recv"},
};

template <typename Kind, std::size_t N>
std::string_view name_in(const NameTable<Kind> (&table)[N], Kind kind) {
    for (const auto& [k, n] : table)
        if (k == kind) return n;
    return "?";
}

template <typename Kind, std::size_t N>
std::optional<Kind> kind_in(const NameTable<Kind> (&table)[N], std::string_view text) {
    for (const auto& [k, n] : table)
        if (n == text) return k;
    return std::nullopt;
}

template <typename Kind, std::size_t N>
std::vector<std::string_view> names_in(const NameTable<Kind> (&table)[N]) {
    std::vector<std::string_view> names;
    for (const auto& entry : table)
        names.push_back(entry.second);
    return names;
}

} // namespace

std::string_view to_string(OpKind op) {
    return name_in(kOpNames, op);
}
std::optional<OpKind> op_kind_from_string(std::string_view text) {
    return kind_in(kOpNames, text);
}
std::string_view to_string(FaultKind fault) {
    return name_in(kFaultNames, fault);
}
std::optional<FaultKind> fault_kind_from_string(std::string_view text) {
    return kind_in(kFaultNames, text);
}
std::vector<std::string_view> op_kind_names() {
    return names_in(kOpNames);
}
std::vector<std::string_view> fault_kind_names() {
    return names_in(kFaultNames);
}

ibv_wc_status expected_status(FaultKind fault) {
    switch (fault) {
    case FaultKind::None:
        return IBV_WC_SUCCESS;
    case FaultKind::BadRkey:
    case FaultKind::NoRemoteAccess:
    case FaultKind::OutOfBounds:
        return IBV_WC_REM_ACCESS_ERR;
    case FaultKind::NoRecv:
        return IBV_WC_RNR_RETRY_EXC_ERR;
    }
    return IBV_WC_SUCCESS;
}

std::string validate(const OperationOptions& o) {
    if (o.size == 0) return "--size must be at least 1 byte";
    if (o.size > (1ULL << 30)) return "--size must be at most 1 GiB";
    if (is_atomic(o.op) && o.size != 8)
        return "atomics (cas, faa) always operate on exactly 8 bytes: use --size 8 or leave it out";
    if (o.message.empty()) return "the message must not be empty";
    if (o.fault == FaultKind::NoRecv && !is_send(o.op))
        return "--fault no-recv needs an operation that consumes a receive: send or send_imm (an RDMA WRITE "
               "with immediate consumes one too, but rdmalab does not offer the fault for write_imm; plain "
               "writes, reads and atomics consume none)";
    if ((o.fault == FaultKind::BadRkey || o.fault == FaultKind::NoRemoteAccess ||
         o.fault == FaultKind::OutOfBounds) &&
        is_send(o.op))
        return fmt::format("--fault {} needs a one-sided operation (write, write_imm, read, cas, faa): SEND "
                           "does not use an rkey",
                           to_string(o.fault));
    if (o.inline_data && (o.op == OpKind::Read || is_atomic(o.op)))
        return "--inline applies only to SEND and RDMA WRITE payloads";
    if (o.port == 0) return "port numbers start at 1";
    return {};
}

} // namespace rdmalab
