// Failures explained: every error names the verb, the errno or completion status with its meaning,
// the likely cause and the fix.
#pragma once

#include <infiniband/verbs.h>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rdmalab {

/// An explanation's three texts in one other language (Simplified Chinese). Empty where none is written:
/// the English text then stands.
struct ErrorTexts {
    std::string meaning;
    std::string cause;
    std::string fix;
    /// The English texts these translate, recorded by ErrorInfo::seal(). A caller that rewrites an English
    /// text afterwards (a cause specific to its call) leaves the Chinese one stale: it is then not shown,
    /// and the new English text stands, rather than a Chinese text that says something else.
    std::string meaning_of{};
    std::string cause_of{};
    std::string fix_of{};

    bool empty() const { return meaning.empty() && cause.empty() && fix.empty(); }
};

/// Structured description of one failure.
struct ErrorInfo {
    std::string verb;    ///< "ibv_reg_mr", "ibv_modify_qp", "ibv_poll_cq", "ibv_get_device_list" ...
    int err = 0;         ///< errno (0 for completion-status errors)
    std::string code;    ///< "ENOMEM" or "IBV_WC_REM_ACCESS_ERR" ...
    std::string meaning; ///< what the code means
    std::string cause;   ///< the likely cause in this situation
    std::string fix;     ///< what to do about it
    ErrorTexts zh{};     ///< meaning, cause and fix in Simplified Chinese (verb and code stay as they are)

    /// Multi-line text: "<verb> failed: <code> (<meaning>)\n  cause: ...\n  fix: ...". With `language`
    /// "zh", the frame and every text written in Chinese are Chinese ("<verb> 失败：<code>（…）\n  原因：…").
    std::string to_string(std::string_view language = "en") const;
    /// {verb, errno, code, meaning, cause, fix} and, when any Chinese text is written, zh {meaning, cause,
    /// fix}.
    nlohmann::json to_json() const;
    /// Reads what to_json wrote (missing fields empty).
    static ErrorInfo from_json(const nlohmann::json& j);
    /// Records that the Chinese texts translate the English ones as they are now (see ErrorTexts).
    ErrorInfo& seal();
    /// The Chinese meaning, cause or fix when it still translates the English one, else empty.
    const std::string& zh_meaning() const;
    const std::string& zh_cause() const;
    const std::string& zh_fix() const;
};

/// Exception carrying an ErrorInfo; what() is ErrorInfo::to_string().
class RdmaError : public std::runtime_error {
  public:
    explicit RdmaError(ErrorInfo info);
    const ErrorInfo& info() const noexcept { return info_; }

  private:
    ErrorInfo info_;
};

/// Generic explanation of `err` returned by `verb`, with verb-specific causes where known. `detail` (what
/// the call was about) leads the cause; `detail_zh` is the same in Chinese (empty: `detail` stands in both).
ErrorInfo explain_errno(const std::string& verb, int err, const std::string& detail = {},
                        const std::string& detail_zh = {});

/// ibv_reg_mr failure; for ENOMEM/EPERM/EFAULT/EINVAL explains RLIMIT_MEMLOCK or the access flags.
ErrorInfo explain_reg_mr_error(int err, std::size_t length, unsigned access);

/// Whether `bytes` more memory (for `what`, e.g. "A's and B's 1 GiB buffers") can be had without the
/// kernel's out-of-memory killer ending the process: checked against MemAvailable (/proc/meminfo) and
/// the address-space limit (`ulimit -v`). An explained ENOMEM when not, before anything is allocated.
/// `what_zh` names it in Chinese (empty: `what` in both).
std::optional<ErrorInfo> explain_memory_shortfall(std::uint64_t bytes, const std::string& what,
                                                  const std::string& what_zh = {});

/// No RDMA device at all: how to create a SoftRoCE device on this machine's interfaces.
ErrorInfo explain_no_device();

/// A device was named but not found; lists what exists.
ErrorInfo explain_device_not_found(const std::string& name, const std::vector<std::string>& available);

/// The port is not ACTIVE.
ErrorInfo explain_port_not_active(const std::string& device, int port, ibv_port_state state);

/// No RoCE v2 GID on the port.
ErrorInfo explain_no_rocev2_gid(const std::string& device, int port);

/// ibv_modify_qp failure for a named transition, listing required and missing attribute-mask bits.
ErrorInfo explain_modify_qp_error(int err, ibv_qp_type type, ibv_qp_state from, ibv_qp_state to,
                                  int given_mask, int required_mask, int optional_mask);

/// A completion with a non-success status, for the opcode that produced it.
ErrorInfo explain_wc_status(ibv_wc_status status, const std::string& opcode);

/// Current RLIMIT_MEMLOCK soft limit in bytes, nullopt when unlimited.
std::optional<std::uint64_t> memlock_limit_bytes();

/// Names of this machine's network interfaces (for the `rdma link add` hint), loopback last.
std::vector<std::string> network_interfaces();

} // namespace rdmalab
