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

namespace {
const std::string kNone;
} // namespace

ErrorInfo& ErrorInfo::seal() {
    zh.meaning_of = meaning;
    zh.cause_of = cause;
    zh.fix_of = fix;
    return *this;
}

const std::string& ErrorInfo::zh_meaning() const {
    return zh.meaning_of == meaning ? zh.meaning : kNone;
}

const std::string& ErrorInfo::zh_cause() const {
    return zh.cause_of == cause ? zh.cause : kNone;
}

const std::string& ErrorInfo::zh_fix() const {
    return zh.fix_of == fix ? zh.fix : kNone;
}

std::string ErrorInfo::to_string(std::string_view language) const {
    if (language == "zh") {
        // A text not written in Chinese (or no longer translating the English one) stands in English.
        const auto pick = [](const std::string& chinese, const std::string& english) -> const std::string& {
            return chinese.empty() ? english : chinese;
        };
        const std::string& m = pick(zh_meaning(), meaning);
        const std::string& c = pick(zh_cause(), cause);
        const std::string& f = pick(zh_fix(), fix);
        std::string text = fmt::format("{} 失败：{}", verb, code);
        if (!m.empty()) text += fmt::format("（{}）", m);
        if (!c.empty()) text += fmt::format("\n  原因：{}", c);
        if (!f.empty()) text += fmt::format("\n  解决：{}", f);
        return text;
    }
    std::string text = fmt::format("{} failed: {}", verb, code);
    if (!meaning.empty()) text += fmt::format(" ({})", meaning);
    if (!cause.empty()) text += fmt::format("\n  cause: {}", cause);
    if (!fix.empty()) text += fmt::format("\n  fix:   {}", fix);
    return text;
}

nlohmann::json ErrorInfo::to_json() const {
    nlohmann::json j = {{"verb", verb},       {"errno", err},   {"code", code},
                        {"meaning", meaning}, {"cause", cause}, {"fix", fix}};
    if (!zh_meaning().empty() || !zh_cause().empty() || !zh_fix().empty())
        j["zh"] = {{"meaning", zh_meaning()}, {"cause", zh_cause()}, {"fix", zh_fix()}};
    return j;
}

ErrorInfo ErrorInfo::from_json(const nlohmann::json& j) {
    const auto text = [](const nlohmann::json& o, const char* key) {
        const auto it = o.find(key);
        return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    ErrorInfo info{.verb = text(j, "verb"),
                   .err = 0,
                   .code = text(j, "code"),
                   .meaning = text(j, "meaning"),
                   .cause = text(j, "cause"),
                   .fix = text(j, "fix")};
    if (const auto it = j.find("errno"); it != j.end() && it->is_number_integer()) info.err = it->get<int>();
    if (const auto it = j.find("zh"); it != j.end() && it->is_object()) {
        info.zh.meaning = text(*it, "meaning");
        info.zh.cause = text(*it, "cause");
        info.zh.fix = text(*it, "fix");
    }
    return info.seal();
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
                     .fix = {},
                     .zh = {.meaning = errno_text_zh(err), .cause = {}, .fix = {}}};
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

ErrorInfo explain_errno(const std::string& verb, int err, const std::string& detail,
                        const std::string& detail_zh) {
    ErrorInfo info = base(verb, err);
    const std::string prefix = detail.empty() ? std::string() : detail + ". ";
    const std::string& detail_shown_zh = detail_zh.empty() ? detail : detail_zh;
    const std::string prefix_zh = detail.empty() ? std::string() : detail_shown_zh + "。";
    switch (err) {
    case ENOMEM:
        info.cause = prefix +
                     "The device or the kernel could not allocate the resource: the device's number of "
                     "objects of this kind (max_qp, max_cq, max_mr, max_pd) is used up, or memory ran out "
                     "(for pinned memory, the locked-memory limit RLIMIT_MEMLOCK).";
        info.fix =
            "Ask for fewer or smaller objects (compare with `rdmalab-cli devices`), release unused ones, or "
            "raise `ulimit -l` (RLIMIT_MEMLOCK).";
        info.zh.cause =
            prefix_zh +
            "设备或内核无法分配该资源：设备上这类对象的数量（max_qp、max_cq、max_mr、max_pd）"
            "已经用完，或者内存耗尽（对锁定（pin）的内存而言，是达到了锁定内存上限 RLIMIT_MEMLOCK）。";
        info.zh.fix = "申请更少或更小的对象（与 `rdmalab-cli devices` 的输出对照），释放不再使用的对象，"
                      "或调高 `ulimit -l`（RLIMIT_MEMLOCK）。";
        break;
    case EINVAL:
        info.cause = prefix + "An argument is out of range or not valid for this object or device.";
        info.fix =
            "Check the arguments against the device limits (`rdmalab-cli devices`) and the man page of " +
            verb + ".";
        info.zh.cause = prefix_zh + "某个参数超出范围，或对该对象或设备无效。";
        info.zh.fix = "对照设备限制（`rdmalab-cli devices`）和 " + verb + " 的手册页检查各个参数。";
        break;
    case EPERM:
        info.cause = prefix + "The process lacks permission for the device or operation.";
        info.fix = "Check the permissions of /dev/infiniband/uverbs* and the process's capabilities.";
        info.zh.cause = prefix_zh + "进程没有使用该设备或执行该操作的权限。";
        info.zh.fix = "检查 /dev/infiniband/uverbs* 的权限和进程的能力（capabilities）。";
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
        info.zh.cause = prefix_zh +
                        "进程没有使用该设备或执行该操作的权限，或者调用线程的凭据在设备打开之后发生了变化"
                        "（setuid、capset）：对以其他凭据打开的设备文件，内核拒绝通过 write() 下发的命令。";
        info.zh.fix = "在现在使用设备的线程上重新打开设备（或在更改凭据之后再打开），并检查 "
                      "/dev/infiniband/uverbs* 的权限。";
        break;
    case ENODEV:
    case ENXIO:
        info.cause = prefix + "The device is gone or was never usable (driver unloaded, link deleted).";
        info.fix = "Run `rdma link show` and re-create the device if needed.";
        info.zh.cause = prefix_zh + "设备已经不存在，或者从来就不可用（驱动已卸载、链路已删除）。";
        info.zh.fix = "运行 `rdma link show`，必要时重新创建设备。";
        break;
    case EOPNOTSUPP:
    case ENOSYS:
        info.cause = prefix + "The device or its provider library does not support this operation.";
        info.fix = "Use an operation the device supports (see `rdmalab-cli devices`).";
        info.zh.cause = prefix_zh + "设备或其提供者库（provider）不支持这一操作。";
        info.zh.fix = "改用设备支持的操作（见 `rdmalab-cli devices`）。";
        break;
    case EBUSY:
        if (verb == "ibv_dealloc_pd") {
            info.cause = prefix +
                         "The protection domain still has objects allocated on it: memory regions, memory "
                         "windows, queue pairs, shared receive queues or address handles.";
            info.fix = "Destroy the QPs, SRQs and AHs and deregister the MRs of this PD first (children "
                       "before parents: QP, CQ, MR, PD, device, as rc_pingpong does).";
            info.zh.cause = prefix_zh + "该保护域上仍分配着对象：内存区域、内存窗口、队列对、共享接收队列"
                                        "（SRQ）或地址句柄（AH）。";
            info.zh.fix = "先销毁这个 PD 上的 QP、SRQ 和 AH，并注销它的 MR（先子后父：QP、CQ、MR、PD、设备，"
                          "与 rc_pingpong 的顺序相同）。";
        } else if (verb == "ibv_destroy_cq") {
            info.cause = prefix +
                         "The completion queue is still used by a queue pair (as its send or receive CQ) or "
                         "by an XRC or tag-matching shared receive queue (a plain SRQ has no CQ).";
            info.fix = "Destroy the queue pairs that use this CQ first, then the CQ.";
            info.zh.cause = prefix_zh + "该完成队列仍被某个队列对用作发送或接收 CQ，或被 XRC 或标签匹配"
                                        "的共享接收队列使用（普通 SRQ 没有 CQ）。";
            info.zh.fix = "先销毁使用这个 CQ 的队列对，再销毁 CQ。";
        } else if (verb == "ibv_destroy_comp_channel") {
            info.cause = prefix + "Completion queues created with this channel still exist.";
            info.fix = "Destroy those completion queues first, then the channel.";
            info.zh.cause = prefix_zh + "用这个通道创建的完成队列仍然存在。";
            info.zh.fix = "先销毁这些完成队列，再销毁该通道。";
        } else {
            info.cause = prefix + "The object is still in use by other objects.";
            info.fix = "Destroy the objects that use it first.";
            info.zh.cause = prefix_zh + "该对象仍被其他对象使用。";
            info.zh.fix = "先销毁使用它的那些对象。";
        }
        break;
    default:
        info.cause = prefix.empty() ? "See the man page of " + verb + "." : detail;
        info.fix = "Check the arguments and the device state.";
        info.zh.cause = prefix_zh.empty() ? "参见 " + verb + " 的手册页。" : detail_shown_zh;
        info.zh.fix = "检查参数和设备状态。";
        break;
    }
    return info.seal();
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
        info.zh.cause = fmt::format("访问标志 {} 要求 REMOTE_WRITE 或 REMOTE_ATOMIC，却没有 LOCAL_WRITE；"
                                    "ibv_reg_mr(3) 规定，只要允许远端写或远端原子操作，就必须带 LOCAL_WRITE，"
                                    "因为网卡要代表对端写入该区域。",
                                    fmt::join(access_flag_names(access), "|"));
        info.zh.fix = "在访问标志中加上 IBV_ACCESS_LOCAL_WRITE。";
        return info.seal();
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
            info.zh.cause = fmt::format(
                "注册内存区域会把它的页面锁定（pin）在内存中，而锁定的页面计入锁定内存上限。`ulimit -l`"
                "（RLIMIT_MEMLOCK）为 {}，而在进程已锁定的内存之外，这个区域还需要 {}（{} 字节）。",
                kib(*limit), kib(length), length);
            info.zh.fix =
                "调高上限：在启动程序的 shell 中执行 `ulimit -l unlimited`（需要 root 身份，或者先在 "
                "/etc/security/limits.conf 中加一行 `memlock` 予以允许；systemd 服务则设置 "
                "LimitMEMLOCK=infinity），或者注册更小的区域。";
        } else {
            info.cause = fmt::format("The kernel could not pin {} of memory for the region although "
                                     "RLIMIT_MEMLOCK is unlimited: the machine is short of memory.",
                                     kib(length));
            info.fix = "Register a smaller region or free memory.";
            info.zh.cause = fmt::format("RLIMIT_MEMLOCK 虽然不受限制，内核仍无法为该区域锁定 {} 内存："
                                        "本机内存不足。",
                                        kib(length));
            info.zh.fix = "注册更小的区域，或者释放内存。";
        }
        return info.seal();
    }
    if ((err == EINVAL || err == EOPNOTSUPP) && (access & IBV_ACCESS_ON_DEMAND)) {
        info.cause = "IBV_ACCESS_ON_DEMAND asks for on-demand paging (pages are not pinned: the device "
                     "faults them in when it touches them, and the kernel invalidates its mappings when they "
                     "move), and this device offers none (ibv_query_device_ex reports no IBV_ODP_SUPPORT). "
                     "Linux 6.1 refuses it with EINVAL, later kernels with EOPNOTSUPP.";
        info.fix = "Register without IBV_ACCESS_ON_DEMAND (the region is then pinned as a whole), or use a "
                   "device with ODP.";
        info.zh.cause =
            "IBV_ACCESS_ON_DEMAND 要求按需分页（ODP：页面不被锁定，设备访问到页面时才以缺页方式"
            "把它们调入，页面移动时内核使设备的映射失效），而这个设备不提供 ODP（ibv_query_device_ex "
            "没有报告 IBV_ODP_SUPPORT）。Linux 6.1 以 EINVAL 拒绝，更新的内核以 EOPNOTSUPP 拒绝。";
        info.zh.fix = "注册时去掉 IBV_ACCESS_ON_DEMAND（这样整个区域都会被锁定），或者使用支持 ODP 的设备。";
        return info.seal();
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
        info.zh.cause = writable ? "该地址范围没有映射到本进程中，或者其中一部分以只读方式（PROT_READ）映射，"
                                   "而访问标志允许网卡写入（LOCAL_WRITE、REMOTE_WRITE 或 REMOTE_ATOMIC）："
                                   "内核按可写方式锁定页面，因而拒绝。"
                                 : "该地址范围没有映射到本进程中。";
        info.zh.fix = "注册本进程拥有的内存（malloc/mmap），长度要正确；区域可能被写入时，须以可写方式映射。";
        return info.seal();
    }
    if (err == EINVAL) {
        info.cause = fmt::format("The device refused access flags {} or length {}.",
                                 fmt::join(access_flag_names(access), "|"), length);
        info.fix =
            "Use access flags and sizes the device supports (see max_mr_size in `rdmalab-cli devices`).";
        info.zh.cause = fmt::format("设备拒绝了访问标志 {} 或长度 {}。",
                                    fmt::join(access_flag_names(access), "|"), length);
        info.zh.fix = "使用设备支持的访问标志和大小（见 `rdmalab-cli devices` 中的 max_mr_size）。";
        return info.seal();
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

std::optional<ErrorInfo> explain_memory_shortfall(std::uint64_t bytes, const std::string& what,
                                                  const std::string& what_zh) {
    std::string limit, fix, limit_zh, fix_zh;
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
            limit_zh =
                fmt::format("地址空间上限（`ulimit -v`，RLIMIT_AS）为 {}，而进程已经映射了 {}，只剩下 {}",
                            mebibytes(as.rlim_cur), mebibytes(*mapped), mebibytes(room));
            fix_zh = "改用更小的大小，或者在启动程序的 shell 中调高上限（`ulimit -v unlimited`）。";
        }
    }
    if (limit.empty() && available && bytes > *available) {
        limit = fmt::format("the machine has {} available (MemAvailable in /proc/meminfo); allocating more "
                            "would get the process killed by the kernel's out-of-memory killer",
                            mebibytes(*available));
        fix = fmt::format("Use a smaller size (this machine can hold about {} at a time), or free memory.",
                          mebibytes(*available));
        limit_zh =
            fmt::format("本机可用内存为 {}（/proc/meminfo 中的 MemAvailable）；再多分配，进程就会被内核的"
                        "内存耗尽处理机制（OOM killer）杀死",
                        mebibytes(*available));
        fix_zh =
            fmt::format("改用更小的大小（本机一次大约能容纳 {}），或者释放内存。", mebibytes(*available));
    }
    if (limit.empty()) return std::nullopt;
    return ErrorInfo{
        .verb = "aligned_alloc",
        .err = ENOMEM,
        .code = "ENOMEM",
        .meaning = errno_text(ENOMEM),
        .cause = fmt::format("{}: {} of memory needed, but {}. Nothing was allocated.", what,
                             mebibytes(bytes), limit),
        .fix = fix,
        .zh = {.meaning = errno_text_zh(ENOMEM),
               .cause = fmt::format("{}：需要 {} 内存，但{}。尚未分配任何内存。",
                                    what_zh.empty() ? what : what_zh, mebibytes(bytes), limit_zh),
               .fix = fix_zh}}
        .seal();
}

ErrorInfo explain_no_device() {
    std::string commands, commands_zh;
    for (const auto& iface : network_interfaces()) {
        if (!commands.empty()) commands += " or ";
        if (!commands_zh.empty()) commands_zh += " 或 ";
        commands += fmt::format("`sudo rdma link add rxe_{0} type rxe netdev {0}`", iface);
        commands_zh += fmt::format("`sudo rdma link add rxe_{0} type rxe netdev {0}`", iface);
    }
    if (commands.empty()) commands = "`sudo rdma link add rxe0 type rxe netdev IFACE`";
    if (commands_zh.empty()) commands_zh = "`sudo rdma link add rxe0 type rxe netdev IFACE`";
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
            commands),
        .zh = {.meaning = "内核没有提供任何 RDMA 设备：/sys/class/infiniband 为空或不存在",
               .cause = "没有 RDMA 网卡，或者它的驱动没有加载。没有硬件时，SoftRoCE（rdma_rxe 内核模块）在"
                        "普通网络接口（以太网接口，甚至回环接口）上用软件实现 RoCE v2。",
               .fix =
                   fmt::format("创建一个 SoftRoCE 设备：先执行 `sudo modprobe rdma_rxe`，再执行 {}；然后用 "
                               "`rdma link show` 和 `ibv_devinfo` 检查。如果内核没有 rdma_rxe"
                               "（CONFIG_RDMA_RXE），就让应用启动一台 SoftRoCE 虚拟机，在其中运行引擎："
                               "`rdmalab --engine vm`。",
                               commands_zh)}}
        .seal();
}

ErrorInfo explain_device_not_found(const std::string& name, const std::vector<std::string>& available) {
    return ErrorInfo{.verb = "ibv_get_device_list",
                     .err = ENODEV,
                     .code = "device not found",
                     .meaning = fmt::format("no RDMA device named '{}'", name),
                     .cause = fmt::format("The devices present are: {}.", fmt::join(available, ", ")),
                     .fix = "Pass one of those names with --device, or omit --device to use the first one.",
                     .zh = {.meaning = fmt::format("没有名为“{}”的 RDMA 设备", name),
                            .cause = fmt::format("现有的设备是：{}。", fmt::join(available, "、")),
                            .fix = "用 --device 指定其中一个名称，或者省略 --device 以使用第一个设备。"}}
        .seal();
}

ErrorInfo explain_port_not_active(const std::string& device, int port, ibv_port_state state) {
    return ErrorInfo{
        .verb = "ibv_query_port",
        .err = ENETDOWN,
        .code = std::string(port_state_name(state)),
        .meaning = fmt::format("port {} of {} is not ACTIVE, so it cannot carry traffic", port, device),
        .cause = "The link is down (cable or netdev down), or, on InfiniBand, the subnet manager has not "
                 "brought the port up: in INIT no subnet manager has configured it yet; in ARMED one has "
                 "configured it but not yet activated it.",
        .fix = "For RoCE/SoftRoCE bring the netdev up (`ip link set IFACE up`) and check `rdma link show`; "
               "for InfiniBand start a subnet manager (opensm) and check the cable.",
        .zh = {.meaning = fmt::format("{1} 的端口 {0} 不处于 ACTIVE 状态，因此无法承载流量", port, device),
               .cause =
                   "链路未连通（网线断开或 netdev 未启用）；或者在 InfiniBand 上，子网管理器还没有让该端口"
                   "进入工作状态：INIT 表示还没有子网管理器配置它，ARMED 表示已经配置、但尚未激活。",
               .fix = "RoCE/SoftRoCE：启用 netdev（`ip link set IFACE up`），并用 `rdma link show` 检查；"
                      "InfiniBand：启动子网管理器（opensm），并检查网线。"}}
        .seal();
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
               "IFACE`), which adds the IP-based RoCE v2 GID that rdma_cm resolves.",
        .zh = {.meaning = fmt::format("{1} 的端口 {0} 的 GID 表中没有 RoCE v2 条目", port, device),
               .cause =
                   "在 RoCE 端口上，设备一旦绑定到网络接口，不论接口有没有 IP 地址，内核都会为设备支持的"
                   "每种 GID 类型安装一个由接口 MAC 地址生成的默认 GID（fe80::...）"
                   "（drivers/infiniband/core/roce_gid_mgmt.c）；基于 IP 的 GID（IPv4 地址对应 "
                   "::ffff:a.b.c.d）则随地址一起加入。因此，没有任何 RoCE v2 条目的端口要么是 InfiniBand "
                   "端口，要么属于只提供 RoCE v1 GID 的 RoCE 设备（或固件设置）。",
               .fix = "用 `rdmalab-cli devices` 检查端口的链路层和 GID 表。使用支持 RoCE v2 的设备：SoftRoCE"
                      "（`rdma link add rxe0 type rxe netdev IFACE`）只实现 RoCE v2。若要在主机之间使用 "
                      "rdma_cm，还要给接口配置 IP 地址（`ip addr add ADDR/LEN dev IFACE`），这会加入 rdma_cm "
                      "解析时所用的基于 IP 的 RoCE v2 GID。"}}
        .seal();
}

ErrorInfo explain_modify_qp_error(int err, ibv_qp_type type, ibv_qp_state from, ibv_qp_state to,
                                  int given_mask, int required_mask, int optional_mask) {
    ErrorInfo info = base("ibv_modify_qp", err);
    const int missing = required_mask & ~given_mask;
    const int unexpected = given_mask & ~(required_mask | optional_mask);
    std::string transition =
        fmt::format("{} QP {}->{}", qp_type_name(type), qp_state_name(from), qp_state_name(to));
    if (err == EINVAL && (missing != 0 || unexpected != 0)) {
        std::string detail, detail_zh;
        if (missing != 0) {
            detail += fmt::format("missing required {}", fmt::join(qp_attr_mask_names(missing), "|"));
            detail_zh += fmt::format("缺少必需的 {}", fmt::join(qp_attr_mask_names(missing), "|"));
        }
        if (unexpected != 0) {
            if (!detail.empty()) detail += "; ";
            if (!detail_zh.empty()) detail_zh += "；";
            detail += fmt::format("not allowed {}", fmt::join(qp_attr_mask_names(unexpected), "|"));
            detail_zh += fmt::format("含有不允许的 {}", fmt::join(qp_attr_mask_names(unexpected), "|"));
        }
        info.cause =
            fmt::format("The attribute mask for {} is wrong: {}. The transition requires at least {} "
                        "and accepts a few optional attributes besides (IBTA vol. 1, 11.2.5 / "
                        "ibv_modify_qp(3)).",
                        transition, detail, fmt::join(qp_attr_mask_names(required_mask), "|"));
        info.fix = "Use the named transition (to_init/to_rtr/to_rts ...) or pass the required mask bits and "
                   "nothing the transition does not accept.";
        info.zh.cause = fmt::format("{} 的属性掩码有误：{}。该状态转换至少需要 {}，此外还接受少数可选属性"
                                    "（IBTA vol. 1, 11.2.5 / ibv_modify_qp(3)）。",
                                    transition, detail_zh, fmt::join(qp_attr_mask_names(required_mask), "|"));
        info.zh.fix =
            "使用具名的转换（to_init/to_rtr/to_rts ...），或者传入必需的掩码位，且不传该转换不接受的任何位。";
    } else if (err == EINVAL) {
        info.cause =
            fmt::format("The device rejected an attribute value for {} (for example a path_mtu code "
                        "above the port's max_mtu, a GID index outside the port's GID table, a timeout "
                        "above 31, or a transition not allowed from the QP's current state).",
                        transition);
        info.fix = "Check the attribute values against `rdmalab-cli devices` and the QP's current state.";
        info.zh.cause =
            fmt::format("设备拒绝了 {} 的某个属性值（例如 path_mtu 编码大于端口的 max_mtu，GID "
                        "索引超出端口的 GID 表，timeout 大于 31，或者从 QP 当前状态不允许进行该转换）。",
                        transition);
        info.zh.fix = "对照 `rdmalab-cli devices` 和 QP 的当前状态检查各属性值。";
    } else {
        info = explain_errno("ibv_modify_qp", err, transition);
    }
    return info.seal();
}

namespace {

/// What a failed completion status most likely means in practice and what to do about it: the cause names
/// the usual culprits (and what SoftRoCE reports instead of the IBTA status), the fix the remedy.
struct WcStatusAdvice {
    ibv_wc_status status;
    const char* cause;
    const char* fix;
    const char* cause_zh;
    const char* fix_zh;
};

constexpr WcStatusAdvice kWcStatusAdvice[] = {
    {IBV_WC_REM_ACCESS_ERR,
     "The responder refused the access: the rkey does not name a region of the responder QP's "
     "protection domain, the remote range [remote_addr, remote_addr+length) lies outside that "
     "region, or the region was registered without the IBV_ACCESS_REMOTE_WRITE, REMOTE_READ or "
     "REMOTE_ATOMIC flag the operation needs (a region registered with LOCAL_WRITE only refuses "
     "them all).",
     "Use the rkey and address the peer actually registered and sent you, stay within its length, "
     "and register the peer's region with the access the operation needs.",
     "响应方拒绝了这次访问：rkey 指向的不是响应方 QP 所在保护域中的区域，远端范围 [remote_addr, "
     "remote_addr+length) 超出了该区域，或者该区域注册时没有带操作所需的 "
     "IBV_ACCESS_REMOTE_WRITE、REMOTE_READ 或 REMOTE_ATOMIC 标志（只以 LOCAL_WRITE "
     "注册的区域会拒绝所有这些操作）。",
     "使用对端实际注册并发给你的 rkey 和地址，不要超出其长度，并让对端以操作所需的访问权限注册它的区域。"},
    {IBV_WC_RNR_RETRY_EXC_ERR,
     "A message that consumes a receive work request (SEND, SEND with immediate, RDMA WRITE with "
     "immediate) arrived while the responder had none posted, so it answered with an RNR NAK "
     "(receiver not ready). With rnr_retry n (0 to 6) the requester retries n times and fails at the "
     "(n+1)th "
     "RNR NAK: rnr_retry 0 fails at the first one. rnr_retry 7 retries without limit and never "
     "fails this way.",
     "Post receives (ibv_post_recv) on the responder before the peer sends, one per incoming "
     "message, or raise rnr_retry in the RTR->RTS transition (7 = retry without limit).",
     "一条要消耗接收工作请求的消息（SEND、带立即数的 SEND、带立即数的 RDMA "
     "WRITE）到达时，响应方没有投递任何接收请求，于是回复 RNR NAK（接收方未就绪）。rnr_retry 为 n（0 到 "
     "6）时，请求方重试 n 次，在第 n+1 个 RNR NAK 时失败：rnr_retry 为 0 时，第一个 RNR NAK "
     "就会失败。rnr_retry 为 7 表示无限重试，不会以这种方式失败。",
     "在对端发送之前，先在响应方投递接收请求（ibv_post_recv），每条到来的消息一个；或者在 RTR->RTS "
     "转换中调高 rnr_retry（7 = 无限重试）。"},
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
     "again (INIT, RTR, RTS) and post the receives anew.",
     "QP 处于错误状态（ERR），是被它上面发生的错误或一次到 ERR 的转换带进去的。进入 ERR "
     "会冲刷（flush）发送队列和接收队列上所有仍未完成的工作请求，此后投递的每个请求也会被冲刷。出错之后投递的"
     "请求从未执行；出错时尚未完成的请求可能在其完成被冲刷之前就已发出，并已由响应方执行。",
     "先找出根源：第一个状态不是 WR_FLUSH_ERR 的完成，或者一个异步事件。在 Linux 6.12 的 SoftRoCE "
     "上，在请求方失败的请求（lkey 错误、在 UC QP 上执行 "
     "READ）本身也被报告为冲刷，所以要检查第一个被冲刷请求的 lkey、长度和操作码（Linux 6.1 将其报告为 "
     "LOC_QP_OP_ERR）。然后把 QP 转到 RESET，重新建立连接（INIT、RTR、RTS），并重新投递接收请求。"},
    {IBV_WC_RETRY_EXC_ERR,
     "The requester used up its retry_cnt retransmissions: each one followed either a local ACK "
     "timeout (4.096 µs · 2^timeout with no ACK or NAK) or a NAK for a PSN sequence error (a lost "
     "packet). The peer QP is gone or not in RTR/RTS, the QP number or GID in this QP's path is "
     "wrong, "
     "or the link is down or drops packets. (A refused rkey is answered with a NAK: REM_ACCESS_ERR, "
     "not this status.)",
     "Check the remote QP number, GID and state, and the link (`rdma link show`). In the IBTA "
     "retry_cnt 7 means 7 retransmissions; SoftRoCE (rxe) treats 7 as retrying without limit, "
     "so there this status needs retry_cnt 0 to 6.",
     "请求方用完了 retry_cnt 次重传：每次重传之前，要么是本地 ACK 超时（4.096 µs · 2^timeout 内既没有收到 "
     "ACK 也没有收到 NAK），要么是收到了表示 PSN 序列错误（丢包）的 NAK。原因可能是对端 QP 已不存在或不处于 "
     "RTR/RTS，本 QP 路径中的 QP 号或 GID 有误，或者链路中断或丢包。（rkey 被拒绝时对端会回复 NAK，得到的是 "
     "REM_ACCESS_ERR，而不是这个状态。）",
     "检查远端 QP 号、GID 和状态，以及链路（`rdma link show`）。按 IBTA 的规定，retry_cnt 为 7 表示重传 7 "
     "次；SoftRoCE（rxe）则把 7 当作无限重试，因此在 rxe 上要出现这个状态，retry_cnt 必须为 0 到 6。"},
    {IBV_WC_LOC_PROT_ERR,
     "A local scatter/gather entry of this work request does not refer to a region valid for it: "
     "its lkey is wrong or of another protection domain, its range lies outside the region, or the "
     "region lacks LOCAL_WRITE where the NIC writes into it. For an RDMA READ or an atomic this is "
     "the requester's own buffer, checked when the response arrives: the responder's rkey was "
     "accepted (a refused rkey gives REM_ACCESS_ERR). SoftRoCE reports a bad lkey in a SEND or RDMA "
     "WRITE otherwise: Linux 6.1 as LOC_QP_OP_ERR, Linux 6.12 as WR_FLUSH_ERR.",
     "Use the lkey and an address range of a region of the QP's protection domain, registered "
     "with LOCAL_WRITE when the NIC writes into it (RDMA READ and atomic targets, receives).",
     "该工作请求的某个本地分散/聚集（scatter/gather）条目指向的不是对它有效的区域：lkey "
     "错误或属于另一个保护域，范围超出了区域，或者网卡要写入该区域而它缺少 LOCAL_WRITE。对 RDMA READ "
     "或原子操作来说，这指的是请求方自己的缓冲区，在响应到达时才检查：响应方已经接受了 rkey（rkey "
     "被拒绝会得到 REM_ACCESS_ERR）。除此之外，SoftRoCE 对 SEND 或 RDMA WRITE 中的错误 lkey "
     "另有报告方式：Linux 6.1 报告为 LOC_QP_OP_ERR，Linux 6.12 报告为 WR_FLUSH_ERR。",
     "使用 QP 所在保护域中某个区域的 lkey 和地址范围；网卡要写入的区域（RDMA READ "
     "和原子操作的目标、接收请求）注册时须带 LOCAL_WRITE。"},
    {IBV_WC_LOC_ACCESS_ERR,
     "On the responder: an RDMA WRITE with immediate from the peer hit a protection error on this "
     "side's memory (the rkey, the range or the region's REMOTE_WRITE access), reported on the "
     "receive it consumed; the peer's request completes with REM_ACCESS_ERR. (SoftRoCE, rxe in "
     "Linux 6.1, reports that receive as REM_ACCESS_ERR too.)",
     "Give the peer the rkey, address and length of a region registered with "
     "IBV_ACCESS_REMOTE_WRITE (and LOCAL_WRITE) for its RDMA WRITE with immediate.",
     "发生在响应方：对端发来的带立即数的 RDMA WRITE 在本端内存上遇到保护错误（rkey、范围或区域的 "
     "REMOTE_WRITE 权限），报告在它消耗的接收请求上；对端的请求以 REM_ACCESS_ERR 完成。（SoftRoCE，即 Linux "
     "6.1 中的 rxe，也把这个接收请求报告为 REM_ACCESS_ERR。）",
     "为对端的带立即数 RDMA WRITE 提供一个以 IBV_ACCESS_REMOTE_WRITE（以及 LOCAL_WRITE）注册的区域的 "
     "rkey、地址和长度。"},
    {IBV_WC_LOC_LEN_ERR,
     "The receive buffer is shorter than the message that arrived for it, the message is longer "
     "than the port's max_msg_sz, or an RDMA READ response carried another length than requested. "
     "(SoftRoCE, rxe in Linux 6.1, reports a receive too short for a SEND as LOC_QP_OP_ERR.)",
     "Post receive buffers at least as large as the largest message the peer sends, and keep "
     "messages within max_msg_sz.",
     "接收缓冲区比为它到达的消息短，消息长度超过端口的 max_msg_sz，或者 RDMA READ "
     "响应携带的长度与请求的不同。（SoftRoCE，即 Linux 6.1 中的 rxe，把容纳不下 SEND 的接收请求报告为 "
     "LOC_QP_OP_ERR。）",
     "投递的接收缓冲区至少要和对端发送的最大消息一样大，并让消息长度不超过 max_msg_sz。"},
    {IBV_WC_LOC_QP_OP_ERR,
     "The QP found this work request, or the receive it used, inconsistent. On SoftRoCE (rxe, Linux "
     "6.1): on the requester, a bad lkey in a SEND or RDMA WRITE (IBTA: LOC_PROT_ERR; Linux 6.12 "
     "reports that request as WR_FLUSH_ERR); on the responder, a receive too short for the arriving "
     "SEND (IBTA: LOC_LEN_ERR) or a receive into a "
     "region registered without LOCAL_WRITE (IBTA: LOC_PROT_ERR); the sender then gets REM_OP_ERR.",
     "Check the lkeys and lengths of the work request, and on a responder the size of the "
     "posted receives and that their regions have LOCAL_WRITE.",
     "QP 发现这个工作请求或它所用的接收请求不一致。在 SoftRoCE（rxe，Linux 6.1）上：在请求方，是 SEND 或 "
     "RDMA WRITE 中的 lkey 错误（IBTA：LOC_PROT_ERR；Linux 6.12 把该请求报告为 "
     "WR_FLUSH_ERR）；在响应方，是接收请求容纳不下到达的 "
     "SEND（IBTA：LOC_LEN_ERR），或者接收请求的区域注册时没有带 "
     "LOCAL_WRITE（IBTA：LOC_PROT_ERR），此时发送方得到 REM_OP_ERR。",
     "检查工作请求的 lkey 和长度；在响应方，还要检查已投递接收请求的大小，以及它们的区域是否带 "
     "LOCAL_WRITE。"},
    {IBV_WC_REM_INV_REQ_ERR,
     "The responder found the request invalid (not an rkey failure, which is REM_ACCESS_ERR): its QP "
     "does not allow the operation (the qp_access_flags set in RESET->INIT lack REMOTE_WRITE, "
     "REMOTE_READ or REMOTE_ATOMIC), the SEND is longer than the receive posted for it (SoftRoCE, "
     "rxe in Linux 6.1, answers that with REM_OP_ERR), an RDMA length is above 2^31 bytes, or an "
     "atomic's remote address is not 8-byte aligned.",
     "Set the responder QP's qp_access_flags in RESET->INIT for the operations it serves, post "
     "receives at least as long as the messages, and keep atomics 8-byte aligned.",
     "响应方认定请求无效（不是 rkey 验证失败，那会得到 REM_ACCESS_ERR）：它的 QP 不允许该操作（RESET->INIT "
     "时设置的 qp_access_flags 缺少 REMOTE_WRITE、REMOTE_READ 或 REMOTE_ATOMIC），SEND "
     "比为它投递的接收请求长（SoftRoCE，即 Linux 6.1 中的 rxe，对此回复 REM_OP_ERR），RDMA 长度超过 2^31 "
     "字节，或者原子操作的远端地址没有按 8 字节对齐。",
     "在 RESET->INIT 中为响应方 QP 设置它要服务的操作所需的 "
     "qp_access_flags，投递至少和消息一样长的接收请求，并让原子操作按 8 字节对齐。"},
    {IBV_WC_REM_OP_ERR,
     "The responder could not complete the request for a reason on its side: the receive it used was "
     "malformed (that receive completes with LOC_QP_OP_ERR on the responder), or its QP failed. "
     "SoftRoCE (rxe, Linux 6.1) answers this way when the SEND is longer than the posted receive "
     "(IBTA: REM_INV_REQ_ERR) or the receive's region lacks LOCAL_WRITE.",
     "Look at the responder's receive completion: post receives large enough for the message, "
     "in regions registered with LOCAL_WRITE.",
     "响应方因自身一侧的原因无法完成请求：它所用的接收请求格式有误（该接收请求在响应方以 LOC_QP_OP_ERR "
     "完成），或者它的 QP 出了错。SoftRoCE（rxe，Linux 6.1）在 SEND "
     "比已投递的接收请求长（IBTA：REM_INV_REQ_ERR）或接收请求的区域缺少 LOCAL_WRITE 时，也这样回复。",
     "查看响应方的接收完成：投递足以容纳消息的接收请求，并让其区域以 LOCAL_WRITE 注册。"},
};

} // namespace

ErrorInfo explain_wc_status(ibv_wc_status status, const std::string& opcode) {
    // A completion status is not an errno; the cause and the fix depend on the status (kWcStatusAdvice).
    ErrorInfo info{
        .verb = fmt::format("completion of {}", opcode),
        .err = 0,
        .code = std::string(wc_status_name(status)),
        .meaning = std::string(wc_status_meaning(status)),
        .cause = "The meaning above is what the specification says of this status; the completion's "
                 "vendor_err (in the trace) is the device's own code for it.",
        .fix = "Check the work request fields and the peer QP state.",
        .zh = {.meaning = std::string(wc_status_meaning_zh(status)),
               .cause = "上面的含义是规范对这个状态的说明；完成中的 vendor_err（见轨迹）是设备自己为它给出"
                        "的代码。",
               .fix = "检查工作请求的各个字段和对端 QP 的状态。"}};
    const auto* row =
        std::find_if(std::begin(kWcStatusAdvice), std::end(kWcStatusAdvice),
                     [status](const WcStatusAdvice& advice) { return advice.status == status; });
    if (row != std::end(kWcStatusAdvice)) {
        info.cause = row->cause;
        info.fix = row->fix;
        info.zh.cause = row->cause_zh;
        info.zh.fix = row->fix_zh;
    }
    return info.seal();
}

} // namespace rdmalab
