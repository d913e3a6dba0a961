// InterfaceAddress: an IPv4 address added and removed with rtnetlink (RTM_NEWADDR, RTM_DELADDR) on a raw
// NETLINK_ROUTE socket: one request, one acknowledgement, no library needed.
#include "rdmalab/engine/netaddr.hpp"

#include "verbs/traced_call.hpp"

#include <arpa/inet.h>
#include <linux/capability.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

namespace rdmalab {

using namespace detail;

namespace {

/// One rtnetlink address request: the header, the address message and its two attributes (IFA_LOCAL and
/// IFA_ADDRESS, both the address: on a point-to-point link they differ, here they do not).
struct AddressRequest {
    nlmsghdr header;
    ifaddrmsg message;
    char attributes[2 * RTA_SPACE(sizeof(in_addr))];
};

void add_attribute(AddressRequest& request, unsigned short type, const in_addr& value) {
    auto* attribute =
        reinterpret_cast<rtattr*>(reinterpret_cast<char*>(&request) + NLMSG_ALIGN(request.header.nlmsg_len));
    attribute->rta_type = type;
    attribute->rta_len = static_cast<unsigned short>(RTA_LENGTH(sizeof(value)));
    std::memcpy(RTA_DATA(attribute), &value, sizeof(value));
    request.header.nlmsg_len = NLMSG_ALIGN(request.header.nlmsg_len) + RTA_ALIGN(attribute->rta_len);
}

/// Sends one RTM_NEWADDR or RTM_DELADDR request and reads its acknowledgement: 0, or -1 with errno set
/// (the kernel's answer, e.g. EPERM without CAP_NET_ADMIN, EEXIST for an address already there).
int address_request(int type, unsigned interface_index, const in_addr& address, int prefix) {
    const int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
    if (fd < 0) return -1;
    AddressRequest request{};
    request.header.nlmsg_len = NLMSG_LENGTH(sizeof(ifaddrmsg));
    request.header.nlmsg_type = static_cast<unsigned short>(type);
    request.header.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
    if (type == RTM_NEWADDR) request.header.nlmsg_flags |= NLM_F_CREATE | NLM_F_EXCL;
    request.header.nlmsg_seq = 1;
    request.message.ifa_family = AF_INET;
    request.message.ifa_prefixlen = static_cast<unsigned char>(prefix);
    request.message.ifa_scope = RT_SCOPE_UNIVERSE;
    request.message.ifa_index = interface_index;
    add_attribute(request, IFA_LOCAL, address);
    add_attribute(request, IFA_ADDRESS, address);
    sockaddr_nl kernel{};
    kernel.nl_family = AF_NETLINK;
    int result = -1;
    int err = 0;
    if (sendto(fd, &request, request.header.nlmsg_len, 0, reinterpret_cast<sockaddr*>(&kernel),
               sizeof(kernel)) < 0) {
        err = errno;
    } else {
        alignas(nlmsghdr) char answer[4096];
        const ssize_t n = recv(fd, answer, sizeof(answer), 0);
        if (n < 0) {
            err = errno;
        } else {
            const auto* reply = reinterpret_cast<const nlmsghdr*>(answer);
            if (!NLMSG_OK(reply, static_cast<unsigned>(n)) || reply->nlmsg_type != NLMSG_ERROR) {
                err = EPROTO;
            } else {
                const auto* ack = static_cast<const nlmsgerr*>(NLMSG_DATA(reply));
                err = -ack->error;
                if (err == 0) result = 0;
            }
        }
    }
    close(fd);
    errno = err;
    return result;
}

nlohmann::json address_args(const std::string& netdev, const std::string& address, int prefix) {
    return {{"interface", netdev}, {"address", address}, {"prefix", prefix}, {"family", "AF_INET"}};
}

ErrorInfo explain_address_error(const char* verb, int err, const std::string& netdev,
                                const std::string& address) {
    ErrorInfo info = explain_errno(verb, err, fmt::format("{} on {}", address, netdev),
                                   fmt::format("{1} 上的 {0}", address, netdev));
    switch (err) {
    case EPERM:
        info.cause = "Changing an interface's addresses needs CAP_NET_ADMIN, and this process does not have "
                     "it.";
        info.fix = "Run the lab as root on a test machine (the SoftRoCE test bed does), or leave the steps "
                   "that change addresses out.";
        info.zh.cause = "更改网络接口的地址需要 CAP_NET_ADMIN，而本进程没有这个能力。";
        info.zh.fix =
            "在测试机上以 root 身份运行实验（SoftRoCE 测试环境就是这样做的），或者去掉更改地址的步骤。";
        break;
    case EEXIST:
        info.cause = fmt::format("{} already has the address {}.", netdev, address);
        info.fix = "Choose an address the interface does not have (`ip -4 addr show dev IFACE`).";
        info.zh.cause = fmt::format("{} 已经有地址 {}。", netdev, address);
        info.zh.fix = "选一个该接口还没有的地址（`ip -4 addr show dev IFACE`）。";
        break;
    case ENODEV:
        info.cause = fmt::format("There is no network interface named {}.", netdev);
        info.fix = "Check `rdma link show`: the netdev column names the interface under the RDMA device.";
        info.zh.cause = fmt::format("没有名为 {} 的网络接口。", netdev);
        info.zh.fix = "查看 `rdma link show`：netdev 一列给出的是 RDMA 设备所在的网络接口。";
        break;
    case EADDRNOTAVAIL:
        info.cause = fmt::format("{} does not have the address {} (any more).", netdev, address);
        info.fix = "Nothing to remove; `ip -4 addr show dev IFACE` lists what it has.";
        info.zh.cause = fmt::format("{} 没有（或者已经不再有）地址 {}。", netdev, address);
        info.zh.fix = "没有可删除的地址；`ip -4 addr show dev IFACE` 会列出它现有的地址。";
        break;
    default:
        break;
    }
    return info.seal();
}

in_addr parse_ipv4(const TraceScope& scope, const char* verb, const std::string& address) {
    in_addr parsed{};
    if (inet_pton(AF_INET, address.c_str(), &parsed) != 1) {
        ErrorInfo info = explain_errno(verb, EINVAL, address);
        info.cause = fmt::format("'{}' is not an IPv4 address in dotted-quad form.", address);
        info.fix = "Write it as a.b.c.d, e.g. 192.0.2.10 (a documentation address, RFC 5737).";
        info.zh.cause = fmt::format("“{}”不是点分十进制形式的 IPv4 地址。", address);
        info.zh.fix = "写成 a.b.c.d 的形式，例如 192.0.2.10（RFC 5737 规定的文档专用地址）。";
        info.seal();
        fail(scope, info);
    }
    return parsed;
}

unsigned interface_index(const TraceScope& scope, const char* verb, const std::string& netdev,
                         const std::string& address) {
    const unsigned index = if_nametoindex(netdev.c_str());
    if (index == 0) fail(scope, explain_address_error(verb, ENODEV, netdev, address));
    return index;
}

} // namespace

InterfaceAddress::InterfaceAddress(std::string netdev, std::string address, int prefix,
                                   std::shared_ptr<Tracer> tracer)
    : tracer_(std::move(tracer)), netdev_(std::move(netdev)), address_(std::move(address)), prefix_(prefix) {
    request(RTM_NEWADDR, "RTM_NEWADDR");
    present_ = true;
}

void InterfaceAddress::remove() {
    if (!present_) return;
    request(RTM_DELADDR, "RTM_DELADDR");
    present_ = false;
}

void InterfaceAddress::request(int type, const char* verb) const {
    const TraceScope scope{tracer_, Endpoint::None};
    const in_addr parsed = parse_ipv4(scope, verb, address_);
    const unsigned index = interface_index(scope, verb, netdev_, address_);
    traced_call(
        VerbCall{.scope = scope, .verb = verb}, [&] { return address_request(type, index, parsed, prefix_); },
        [&](const auto&, nlohmann::json&, nlohmann::json& data) {
            data["args"] = address_args(netdev_, address_, prefix_);
        },
        [&](const auto& call) { return explain_address_error(verb, call.err, netdev_, address_); });
}

InterfaceAddress::~InterfaceAddress() {
    try {
        remove();
    } catch (...) {
        // Traced and explained by remove(); a destructor cannot report further.
    }
}

bool thread_has_net_admin() {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3]{};
    if (syscall(SYS_capget, &header, data) != 0) return false;
    return (data[CAP_NET_ADMIN / 32].effective & (1U << (CAP_NET_ADMIN % 32))) != 0;
}

std::string ipv4_mapped_gid(const std::string& address) {
    in_addr parsed{};
    if (inet_pton(AF_INET, address.c_str(), &parsed) != 1) return {};
    return "::ffff:" + address;
}

} // namespace rdmalab
