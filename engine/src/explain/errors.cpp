#include "rdmalab/errors.hpp"

#include "rdmalab/names.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <string_view>
#include <sys/resource.h>

namespace rdmalab {

std::string ErrorInfo::to_string() const {
    std::string text = fmt::format("{} failed: {}", verb, code);
    if (!meaning.empty()) text += fmt::format(" ({})", meaning);
    if (!cause.empty()) text += fmt::format("\n  cause: {}", cause);
    if (!fix.empty()) text += fmt::format("\n  fix:   {}", fix);
    return text;
}

nlohmann::json ErrorInfo::to_json() const {
    return {{"verb", verb},       {"errno", err},   {"code", code},
            {"meaning", meaning}, {"cause", cause}, {"fix", fix}};
}

RdmaError::RdmaError(ErrorInfo info) : std::runtime_error(info.to_string()), info_(std::move(info)) {}

namespace {
ErrorInfo base(const std::string& verb, int err) {
    // The cause and the fix are the caller's: they depend on the verb and the situation.
    return ErrorInfo{.verb = verb,
                     .err = err,
                     .code = errno_name(err),
                     .meaning = errno_text(err),
                     .cause = {},
                     .fix = {}};
}

std::string kib(std::uint64_t bytes) {
    return fmt::format("{} KiB", (bytes + 1023) / 1024);
}
} // namespace

std::optional<std::uint64_t> memlock_limit_bytes() {
    rlimit limit{};
    if (getrlimit(RLIMIT_MEMLOCK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::nullopt;
    return static_cast<std::uint64_t>(limit.rlim_cur);
}

std::vector<std::string> network_interfaces() {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/sys/class/net", ec)) {
        auto name = entry.path().filename().string();
        if (name.rfind("ifb", 0) == 0)
            continue; // intermediate functional blocks carry no traffic of their own
        names.push_back(std::move(name));
    }
    std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
        if ((a == "lo") != (b == "lo")) return b == "lo"; // loopback last: a real NIC is the better choice
        return a < b;
    });
    return names;
}

ErrorInfo explain_errno(const std::string& verb, int err, const std::string& detail) {
    ErrorInfo info = base(verb, err);
    const std::string prefix = detail.empty() ? std::string() : detail + ". ";
    switch (err) {
    case ENOMEM:
        info.cause = prefix +
                     "The device or the kernel could not allocate the resource: a device limit "
                     "(max_qp, max_cq, max_mr, max_qp_wr, max_sge) was exceeded, or locked memory ran out.";
        info.fix =
            "Ask for fewer or smaller objects (compare with `rdmalab-cli devices`), release unused ones, or "
            "raise `ulimit -l` (RLIMIT_MEMLOCK).";
        break;
    case EINVAL:
        info.cause = prefix + "An argument is out of range or not valid for this object or device.";
        info.fix =
            "Check the arguments against the device limits (`rdmalab-cli devices`) and the man page of " +
            verb + ".";
        break;
    case EPERM:
    case EACCES:
        info.cause = prefix + "The process lacks permission for the device or operation.";
        info.fix = "Check the permissions of /dev/infiniband/uverbs* and the process's capabilities.";
        break;
    case ENODEV:
    case ENXIO:
        info.cause = prefix + "The device is gone or was never usable (driver unloaded, link deleted).";
        info.fix = "Run `rdma link show` and re-create the device if needed.";
        break;
    case EOPNOTSUPP:
    case ENOSYS:
        info.cause = prefix + "The device or its provider library does not support this operation.";
        info.fix = "Use an operation the device supports (see `rdmalab-cli devices`).";
        break;
    case EBUSY:
        if (verb == "ibv_dealloc_pd") {
            info.cause = prefix +
                         "The protection domain still has objects allocated on it: memory regions, memory "
                         "windows, queue pairs, shared receive queues or address handles.";
            info.fix = "Destroy the QPs, SRQs and AHs and deregister the MRs of this PD first (children "
                       "before parents: QP, MR, CQ, PD, device, as rc_pingpong does).";
        } else if (verb == "ibv_destroy_cq") {
            info.cause = prefix +
                         "The completion queue is still used by a queue pair (as its send or receive CQ) or "
                         "by a shared receive queue.";
            info.fix = "Destroy the queue pairs that use this CQ first, then the CQ.";
        } else if (verb == "ibv_destroy_comp_channel") {
            info.cause = prefix + "Completion queues created with this channel still exist.";
            info.fix = "Destroy those completion queues first, then the channel.";
        } else {
            info.cause = prefix + "The object is still in use by other objects.";
            info.fix = "Destroy the objects that use it first.";
        }
        break;
    default:
        info.cause = prefix.empty() ? "See the man page of " + verb + "." : detail;
        info.fix = "Check the arguments and the device state.";
        break;
    }
    return info;
}

ErrorInfo explain_reg_mr_error(int err, std::size_t length, unsigned access) {
    ErrorInfo info = base("ibv_reg_mr", err);
    const bool remote_write_or_atomic = (access & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)) != 0;
    if (err == EINVAL && remote_write_or_atomic && !(access & IBV_ACCESS_LOCAL_WRITE)) {
        info.cause =
            fmt::format("The access flags {} ask for REMOTE_WRITE or REMOTE_ATOMIC without LOCAL_WRITE; "
                        "ibv_reg_mr(3) requires LOCAL_WRITE whenever remote writes or atomics are "
                        "allowed, because the NIC writes into the region on the peer's behalf.",
                        fmt::join(access_flag_names(access), "|"));
        info.fix = "Add IBV_ACCESS_LOCAL_WRITE to the access flags.";
        return info;
    }
    if (err == ENOMEM || err == EPERM || err == EAGAIN) {
        const auto limit = memlock_limit_bytes();
        if (limit) {
            info.cause = fmt::format(
                "Registering pins the region's pages in RAM, and pinned pages count against the "
                "locked-memory "
                "limit. `ulimit -l` (RLIMIT_MEMLOCK) is {} while this region needs {} ({} bytes) on top of "
                "what the process has already pinned.",
                kib(*limit), kib(length), length);
            info.fix =
                "Raise the limit: `ulimit -l unlimited` in the shell that starts the program (as root, "
                "or after allowing it with a `memlock` line in /etc/security/limits.conf, or "
                "LimitMEMLOCK=infinity for a systemd service), or register a smaller region.";
        } else {
            info.cause = fmt::format("The kernel could not pin {} of memory for the region although "
                                     "RLIMIT_MEMLOCK is unlimited: the machine is short of memory.",
                                     kib(length));
            info.fix = "Register a smaller region or free memory.";
        }
        return info;
    }
    if ((err == EINVAL || err == EOPNOTSUPP) && (access & IBV_ACCESS_ON_DEMAND)) {
        info.cause = "IBV_ACCESS_ON_DEMAND asks for on-demand paging (pages pinned only while the NIC uses "
                     "them), and this device offers none (ibv_query_device_ex reports no IBV_ODP_SUPPORT). "
                     "Linux 6.1 refuses it with EINVAL, later kernels with EOPNOTSUPP.";
        info.fix = "Register without IBV_ACCESS_ON_DEMAND (the region is then pinned as a whole), or use a "
                   "device with ODP.";
        return info;
    }
    if (err == EFAULT) {
        const bool writable =
            (access & (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)) != 0;
        info.cause = writable ? "The address range is not mapped in this process, or part of it is mapped "
                                "read-only (PROT_READ) while the access flags let the NIC write into it "
                                "(LOCAL_WRITE, REMOTE_WRITE or REMOTE_ATOMIC): the kernel pins the pages for "
                                "writing and refuses."
                              : "The address range is not mapped in this process.";
        info.fix = "Register memory the process owns (malloc/mmap) with the right length, mapped writable "
                   "when the region may be written.";
        return info;
    }
    if (err == EINVAL) {
        info.cause = fmt::format("The device refused access flags {} or length {}.",
                                 fmt::join(access_flag_names(access), "|"), length);
        info.fix =
            "Use access flags and sizes the device supports (see max_mr_size in `rdmalab-cli devices`).";
        return info;
    }
    return explain_errno("ibv_reg_mr", err);
}

namespace {

std::string mebibytes(std::uint64_t bytes) {
    return fmt::format("{:.0f} MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
}

/// A "Key:   N kB" line of a /proc file, in bytes; nullopt when absent.
std::optional<std::uint64_t> proc_kib_field(const char* path, const std::string& key) {
    std::FILE* f = std::fopen(path, "r");
    if (f == nullptr) return std::nullopt;
    char line[256];
    std::optional<std::uint64_t> value;
    while (std::fgets(line, sizeof line, f) != nullptr) {
        unsigned long long kib = 0;
        if (std::string_view(line).rfind(key + ":", 0) == 0 &&
            std::sscanf(line + key.size() + 1, "%llu", &kib) == 1) {
            value = static_cast<std::uint64_t>(kib) * 1024;
            break;
        }
    }
    std::fclose(f);
    return value;
}

} // namespace

std::optional<ErrorInfo> explain_memory_shortfall(std::uint64_t bytes, const std::string& what) {
    std::string limit, fix;
    const auto available = proc_kib_field("/proc/meminfo", "MemAvailable");
    rlimit as{};
    const auto mapped = proc_kib_field("/proc/self/status", "VmSize");
    if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY && mapped) {
        const std::uint64_t room = as.rlim_cur > *mapped ? as.rlim_cur - *mapped : 0;
        if (bytes > room) {
            limit =
                fmt::format("the address-space limit (`ulimit -v`, RLIMIT_AS) is {} and the process already "
                            "maps {}, which leaves {}",
                            mebibytes(as.rlim_cur), mebibytes(*mapped), mebibytes(room));
            fix = "Use a smaller size, or raise the limit (`ulimit -v unlimited`) in the shell that starts "
                  "the program.";
        }
    }
    if (limit.empty() && available && bytes > *available) {
        limit = fmt::format("the machine has {} available (MemAvailable in /proc/meminfo); allocating more "
                            "would get the process killed by the kernel's out-of-memory killer",
                            mebibytes(*available));
        fix = fmt::format("Use a smaller size (this machine can hold about {} at a time), or free memory.",
                          mebibytes(*available));
    }
    if (limit.empty()) return std::nullopt;
    return ErrorInfo{.verb = "aligned_alloc",
                     .err = ENOMEM,
                     .code = "ENOMEM",
                     .meaning = errno_text(ENOMEM),
                     .cause = fmt::format("{}: {} of memory needed, but {}. Nothing was allocated.", what,
                                          mebibytes(bytes), limit),
                     .fix = fix};
}

ErrorInfo explain_no_device() {
    std::string commands;
    for (const auto& iface : network_interfaces()) {
        if (!commands.empty()) commands += " or ";
        commands += fmt::format("`sudo rdma link add rxe_{0} type rxe netdev {0}`", iface);
    }
    if (commands.empty()) commands = "`sudo rdma link add rxe0 type rxe netdev IFACE`";
    return ErrorInfo{
        .verb = "ibv_get_device_list",
        .err = ENODEV,
        .code = "no RDMA device",
        .meaning = "the kernel exposes no RDMA device: /sys/class/infiniband is empty or missing",
        .cause =
            "There is no RDMA NIC, or its driver is not loaded. Without hardware, SoftRoCE (the rdma_rxe "
            "kernel module) implements RoCE v2 in software on any Ethernet interface.",
        .fix =
            fmt::format("Create a SoftRoCE device: `sudo modprobe rdma_rxe`, then {}; check it with "
                        "`rdma link show` and `ibv_devinfo`. If the kernel lacks rdma_rxe (CONFIG_RDMA_RXE), "
                        "use the project's test bed: tests/softroce/vm-run.sh -- rdmalab-cli devices.",
                        commands)};
}

ErrorInfo explain_device_not_found(const std::string& name, const std::vector<std::string>& available) {
    return ErrorInfo{.verb = "ibv_get_device_list",
                     .err = ENODEV,
                     .code = "device not found",
                     .meaning = fmt::format("no RDMA device named '{}'", name),
                     .cause = fmt::format("The devices present are: {}.", fmt::join(available, ", ")),
                     .fix = "Pass one of those names with --device, or omit --device to use the first one."};
}

ErrorInfo explain_port_not_active(const std::string& device, int port, ibv_port_state state) {
    return ErrorInfo{
        .verb = "ibv_query_port",
        .err = ENETDOWN,
        .code = std::string(port_state_name(state)),
        .meaning = fmt::format("port {} of {} is not ACTIVE, so it cannot carry traffic", port, device),
        .cause =
            "The link is down: cable or netdev down, or (InfiniBand) no subnet manager has configured the "
            "port (state INIT or ARMED).",
        .fix = "For RoCE/SoftRoCE bring the netdev up (`ip link set IFACE up`) and check `rdma link show`; "
               "for InfiniBand start a subnet manager (opensm) and check the cable."};
}

ErrorInfo explain_no_rocev2_gid(const std::string& device, int port) {
    return ErrorInfo{
        .verb = "ibv_query_gid_ex",
        .err = ENOENT,
        .code = "no RoCE v2 GID",
        .meaning = fmt::format("port {} of {} has no RoCE v2 entry in its GID table", port, device),
        .cause = "RoCE GIDs are made from the netdev's IP addresses; the interface has none, or the port is "
                 "InfiniBand.",
        .fix = "Give the interface an IP address (`ip addr add ... dev IFACE`, `ip link set IFACE up`) and "
               "check "
               "the GID table with `rdmalab-cli devices`."};
}

ErrorInfo explain_modify_qp_error(int err, ibv_qp_type type, ibv_qp_state from, ibv_qp_state to,
                                  int given_mask, int required_mask, int optional_mask) {
    ErrorInfo info = base("ibv_modify_qp", err);
    const int missing = required_mask & ~given_mask;
    const int unexpected = given_mask & ~(required_mask | optional_mask);
    std::string transition =
        fmt::format("{} QP {}->{}", qp_type_name(type), qp_state_name(from), qp_state_name(to));
    if (err == EINVAL && (missing != 0 || unexpected != 0)) {
        std::string detail;
        if (missing != 0)
            detail += fmt::format("missing required {}", fmt::join(qp_attr_mask_names(missing), "|"));
        if (unexpected != 0) {
            if (!detail.empty()) detail += "; ";
            detail += fmt::format("not allowed {}", fmt::join(qp_attr_mask_names(unexpected), "|"));
        }
        info.cause = fmt::format("The attribute mask for {} is wrong: {}. The transition requires exactly {} "
                                 "(IBTA vol. 1, 11.2.5 / ibv_modify_qp(3)).",
                                 transition, detail, fmt::join(qp_attr_mask_names(required_mask), "|"));
        info.fix = "Use the named transition (to_init/to_rtr/to_rts ...) or pass the required mask bits and "
                   "nothing the transition does not accept.";
    } else if (err == EINVAL) {
        info.cause =
            fmt::format("The device rejected an attribute value for {} (for example a path MTU above "
                        "the port's active MTU, a GID index that does not exist, a remote QP number of "
                        "0, or a transition not allowed from the QP's current state).",
                        transition);
        info.fix = "Check the attribute values against `rdmalab-cli devices` and the QP's current state.";
    } else {
        info = explain_errno("ibv_modify_qp", err, transition);
    }
    return info;
}

ErrorInfo explain_wc_status(ibv_wc_status status, const std::string& opcode) {
    // A completion status is not an errno; the cause and the fix depend on the status (below).
    ErrorInfo info{.verb = fmt::format("completion of {}", opcode),
                   .err = 0,
                   .code = std::string(wc_status_name(status)),
                   .meaning = std::string(wc_status_meaning(status)),
                   .cause = {},
                   .fix = {}};
    switch (status) {
    case IBV_WC_REM_ACCESS_ERR:
        info.cause =
            "The rkey does not name a region of the responder's protection domain, the remote address "
            "range [remote_addr, remote_addr+length) lies outside that region, or the region was "
            "registered without the needed IBV_ACCESS_REMOTE_WRITE/READ/ATOMIC flag.";
        info.fix =
            "Use the rkey and address the peer actually registered and sent you, stay within its length, "
            "and register the peer's region with the access the operation needs.";
        break;
    case IBV_WC_RNR_RETRY_EXC_ERR:
        info.cause =
            "The responder had no receive work request posted when the SEND arrived, and the requester's "
            "rnr_retry count ran out.";
        info.fix = "Post receives (ibv_post_recv) on the responder before the peer sends, or raise rnr_retry "
                   "(7 = retry forever) in the RTS transition.";
        break;
    case IBV_WC_WR_FLUSH_ERR:
        info.cause =
            "An earlier error moved the QP to the Error state; every outstanding and later work request "
            "is flushed.";
        info.fix = "Find the first failed completion, then move the QP to RESET and connect it again.";
        break;
    case IBV_WC_RETRY_EXC_ERR:
        info.cause =
            "The peer QP did not answer: it is not in RTR/RTS, its QP number or GID is wrong, or the "
            "network drops packets.";
        info.fix = "Check the remote QP number, GID and state; check the link.";
        break;
    case IBV_WC_LOC_PROT_ERR:
    case IBV_WC_LOC_ACCESS_ERR:
        info.cause =
            "A local scatter/gather entry is outside its memory region, uses a wrong lkey, or the region "
            "lacks LOCAL_WRITE for a receive or read target.";
        info.fix = "Use the lkey and address range of a region registered with the needed access flags.";
        break;
    case IBV_WC_LOC_LEN_ERR:
        info.cause =
            "The incoming message is longer than the posted receive buffer, or the send is longer than "
            "the port allows.";
        info.fix = "Post receive buffers at least as large as the largest message.";
        break;
    case IBV_WC_REM_INV_REQ_ERR:
        info.cause = "The responder does not allow this operation on the QP (access flags of the QP), the "
                     "message exceeds its receive buffer, or an atomic's address is not 8-byte aligned.";
        info.fix =
            "Set the QP's qp_access_flags in INIT, use 8-byte aligned atomics and large enough receives.";
        break;
    default:
        info.cause = "See ibv_poll_cq(3) for this status.";
        info.fix = "Check the work request fields and the peer QP state.";
        break;
    }
    return info;
}

} // namespace rdmalab
