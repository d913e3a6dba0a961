#include "rdmalab/engine/errors.hpp"

#include "rdmalab/engine/names.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <iterator>
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
                     "The device or the kernel could not allocate the resource: the device's number of "
                     "objects of this kind (max_qp, max_cq, max_mr, max_pd) is used up, or memory ran out "
                     "(for pinned memory, the locked-memory limit RLIMIT_MEMLOCK).";
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
        info.cause = prefix + "The process lacks permission for the device or operation.";
        info.fix = "Check the permissions of /dev/infiniband/uverbs* and the process's capabilities.";
        break;
    case EACCES:
        // ib_uverbs_write() refuses a command written by a thread whose credentials are not those the
        // device file was opened with (ib_safe_file_access), whatever the permissions say.
        info.cause = prefix +
                     "The process lacks permission for the device or operation, or the calling thread's "
                     "credentials changed (setuid, capset) after the device was opened: the kernel refuses "
                     "write()-based commands on a device file opened under other credentials.";
        info.fix = "Open the device again on the thread that now uses it (or open it after changing the "
                   "credentials), and check the permissions of /dev/infiniband/uverbs*.";
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
                       "before parents: QP, CQ, MR, PD, device, as rc_pingpong does).";
        } else if (verb == "ibv_destroy_cq") {
            info.cause = prefix +
                         "The completion queue is still used by a queue pair (as its send or receive CQ) or "
                         "by an XRC or tag-matching shared receive queue (a plain SRQ has no CQ).";
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
        info.cause = "IBV_ACCESS_ON_DEMAND asks for on-demand paging (pages are not pinned: the device "
                     "faults them in when it touches them, and the kernel invalidates its mappings when they "
                     "move), and this device offers none (ibv_query_device_ex reports no IBV_ODP_SUPPORT). "
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
            "kernel module) implements RoCE v2 in software on an ordinary network interface (Ethernet, or "
            "even the loopback interface).",
        .fix = fmt::format(
            "Create a SoftRoCE device: `sudo modprobe rdma_rxe`, then {}; check it with "
            "`rdma link show` and `ibv_devinfo`. If the kernel lacks rdma_rxe (CONFIG_RDMA_RXE), let "
            "the app run the engine in a SoftRoCE VM it boots: `rdmalab --engine vm`.",
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
        .cause = "On a RoCE port the kernel installs a default GID made from the interface's MAC address "
                 "(fe80::...) for each GID type the device supports as soon as the device is bound to the "
                 "interface, with or without an IP address (drivers/infiniband/core/roce_gid_mgmt.c); "
                 "the IP-based GIDs (::ffff:a.b.c.d for an IPv4 address) come with the addresses. So a "
                 "port without any RoCE v2 entry is an InfiniBand port, or a RoCE device (or firmware "
                 "setting) that offers RoCE v1 GIDs only.",
        .fix = "Check the port's link layer and GID table with `rdmalab-cli devices`. Use a device with "
               "RoCE v2: SoftRoCE (`rdma link add rxe0 type rxe netdev IFACE`) implements only RoCE v2. "
               "For rdma_cm between hosts also give the interface an IP address (`ip addr add ADDR/LEN dev "
               "IFACE`), which adds the IP-based RoCE v2 GID that rdma_cm resolves."};
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
        info.cause =
            fmt::format("The attribute mask for {} is wrong: {}. The transition requires at least {} "
                        "and accepts a few optional attributes besides (IBTA vol. 1, 11.2.5 / "
                        "ibv_modify_qp(3)).",
                        transition, detail, fmt::join(qp_attr_mask_names(required_mask), "|"));
        info.fix = "Use the named transition (to_init/to_rtr/to_rts ...) or pass the required mask bits and "
                   "nothing the transition does not accept.";
    } else if (err == EINVAL) {
        info.cause =
            fmt::format("The device rejected an attribute value for {} (for example a path_mtu code "
                        "above the port's max_mtu, a GID index outside the port's GID table, a timeout "
                        "above 31, or a transition not allowed from the QP's current state).",
                        transition);
        info.fix = "Check the attribute values against `rdmalab-cli devices` and the QP's current state.";
    } else {
        info = explain_errno("ibv_modify_qp", err, transition);
    }
    return info;
}

namespace {

/// What a failed completion status most likely means in practice and what to do about it: the cause names
/// the usual culprits (and what SoftRoCE reports instead of the IBTA status), the fix the remedy.
struct WcStatusAdvice {
    ibv_wc_status status;
    const char* cause;
    const char* fix;
};

constexpr WcStatusAdvice kWcStatusAdvice[] = {
    {IBV_WC_REM_ACCESS_ERR,
     "The responder refused the access: the rkey does not name a region of the responder QP's "
     "protection domain, the remote range [remote_addr, remote_addr+length) lies outside that "
     "region, or the region was registered without the IBV_ACCESS_REMOTE_WRITE, REMOTE_READ or "
     "REMOTE_ATOMIC flag the operation needs (a region registered with LOCAL_WRITE only refuses "
     "them all).",
     "Use the rkey and address the peer actually registered and sent you, stay within its length, "
     "and register the peer's region with the access the operation needs."},
    {IBV_WC_RNR_RETRY_EXC_ERR,
     "A message that consumes a receive work request (SEND, SEND with immediate, RDMA WRITE with "
     "immediate) arrived while the responder had none posted, so it answered with an RNR NAK "
     "(receiver not ready). With rnr_retry n (0 to 6) the requester retries n times and fails at the "
     "(n+1)th "
     "RNR NAK: rnr_retry 0 fails at the first one. rnr_retry 7 retries without limit and never "
     "fails this way.",
     "Post receives (ibv_post_recv) on the responder before the peer sends, one per incoming "
     "message, or raise rnr_retry in the RTR->RTS transition (7 = retry without limit)."},
    {IBV_WC_WR_FLUSH_ERR,
     "The QP is in the Error state, moved there by an error on it or by a transition to ERR. "
     "Entering ERR flushes every work request still outstanding on the send and the receive queue, "
     "and every request posted afterwards is flushed too. A request posted after the error was never "
     "executed; one that was outstanding when it happened may already have been sent, and carried "
     "out by the responder, before its completion was flushed.",
     "Find the cause: the first completion with another status, or an asynchronous event. On "
     "SoftRoCE in Linux 6.12 a request that failed at the requester (a bad lkey, a READ on a UC "
     "QP) is itself reported as flushed, so check the first flushed request's lkeys, lengths and "
     "opcode (Linux 6.1 reports it as LOC_QP_OP_ERR). Then move the QP to RESET, connect it "
     "again (INIT, RTR, RTS) and post the receives anew."},
    {IBV_WC_RETRY_EXC_ERR,
     "The requester used up its retry_cnt retransmissions: each one followed either a local ACK "
     "timeout (4.096 µs · 2^timeout with no ACK or NAK) or a NAK for a PSN sequence error (a lost "
     "packet). The peer QP is gone or not in RTR/RTS, the QP number or GID in this QP's path is "
     "wrong, "
     "or the link is down or drops packets. (A refused rkey is answered with a NAK: REM_ACCESS_ERR, "
     "not this status.)",
     "Check the remote QP number, GID and state, and the link (`rdma link show`). In the IBTA "
     "retry_cnt 7 means 7 retransmissions; SoftRoCE (rxe) treats 7 as retrying without limit, "
     "so there this status needs retry_cnt 0 to 6."},
    {IBV_WC_LOC_PROT_ERR,
     "A local scatter/gather entry of this work request does not refer to a region valid for it: "
     "its lkey is wrong or of another protection domain, its range lies outside the region, or the "
     "region lacks LOCAL_WRITE where the NIC writes into it. For an RDMA READ or an atomic this is "
     "the requester's own buffer, checked when the response arrives: the responder's rkey was "
     "accepted (a refused rkey gives REM_ACCESS_ERR). SoftRoCE reports a bad lkey in a SEND or RDMA "
     "WRITE otherwise: Linux 6.1 as LOC_QP_OP_ERR, Linux 6.12 as WR_FLUSH_ERR.",
     "Use the lkey and an address range of a region of the QP's protection domain, registered "
     "with LOCAL_WRITE when the NIC writes into it (RDMA READ and atomic targets, receives)."},
    {IBV_WC_LOC_ACCESS_ERR,
     "On the responder: an RDMA WRITE with immediate from the peer hit a protection error on this "
     "side's memory (the rkey, the range or the region's REMOTE_WRITE access), reported on the "
     "receive it consumed; the peer's request completes with REM_ACCESS_ERR. (SoftRoCE, rxe in "
     "Linux 6.1, reports that receive as REM_ACCESS_ERR too.)",
     "Give the peer the rkey, address and length of a region registered with "
     "IBV_ACCESS_REMOTE_WRITE (and LOCAL_WRITE) for its RDMA WRITE with immediate."},
    {IBV_WC_LOC_LEN_ERR,
     "The receive buffer is shorter than the message that arrived for it, the message is longer "
     "than the port's max_msg_sz, or an RDMA READ response carried another length than requested. "
     "(SoftRoCE, rxe in Linux 6.1, reports a receive too short for a SEND as LOC_QP_OP_ERR.)",
     "Post receive buffers at least as large as the largest message the peer sends, and keep "
     "messages within max_msg_sz."},
    {IBV_WC_LOC_QP_OP_ERR,
     "The QP found this work request, or the receive it used, inconsistent. On SoftRoCE (rxe, Linux "
     "6.1): on the requester, a bad lkey in a SEND or RDMA WRITE (IBTA: LOC_PROT_ERR; Linux 6.12 "
     "reports that request as WR_FLUSH_ERR); on the responder, a receive too short for the arriving "
     "SEND (IBTA: LOC_LEN_ERR) or a receive into a "
     "region registered without LOCAL_WRITE (IBTA: LOC_PROT_ERR); the sender then gets REM_OP_ERR.",
     "Check the lkeys and lengths of the work request, and on a responder the size of the "
     "posted receives and that their regions have LOCAL_WRITE."},
    {IBV_WC_REM_INV_REQ_ERR,
     "The responder found the request invalid (not an rkey failure, which is REM_ACCESS_ERR): its QP "
     "does not allow the operation (the qp_access_flags set in RESET->INIT lack REMOTE_WRITE, "
     "REMOTE_READ or REMOTE_ATOMIC), the SEND is longer than the receive posted for it (SoftRoCE, "
     "rxe in Linux 6.1, answers that with REM_OP_ERR), an RDMA length is above 2^31 bytes, or an "
     "atomic's remote address is not 8-byte aligned.",
     "Set the responder QP's qp_access_flags in RESET->INIT for the operations it serves, post "
     "receives at least as long as the messages, and keep atomics 8-byte aligned."},
    {IBV_WC_REM_OP_ERR,
     "The responder could not complete the request for a reason on its side: the receive it used was "
     "malformed (that receive completes with LOC_QP_OP_ERR on the responder), or its QP failed. "
     "SoftRoCE (rxe, Linux 6.1) answers this way when the SEND is longer than the posted receive "
     "(IBTA: REM_INV_REQ_ERR) or the receive's region lacks LOCAL_WRITE.",
     "Look at the responder's receive completion: post receives large enough for the message, "
     "in regions registered with LOCAL_WRITE."},
};

} // namespace

ErrorInfo explain_wc_status(ibv_wc_status status, const std::string& opcode) {
    // A completion status is not an errno; the cause and the fix depend on the status (kWcStatusAdvice).
    ErrorInfo info{.verb = fmt::format("completion of {}", opcode),
                   .err = 0,
                   .code = std::string(wc_status_name(status)),
                   .meaning = std::string(wc_status_meaning(status)),
                   .cause =
                       "The meaning above is what the specification says of this status; the completion's "
                       "vendor_err (in the trace) is the device's own code for it.",
                   .fix = "Check the work request fields and the peer QP state."};
    const auto* row =
        std::find_if(std::begin(kWcStatusAdvice), std::end(kWcStatusAdvice),
                     [status](const WcStatusAdvice& advice) { return advice.status == status; });
    if (row != std::end(kWcStatusAdvice)) {
        info.cause = row->cause;
        info.fix = row->fix;
    }
    return info;
}

} // namespace rdmalab
