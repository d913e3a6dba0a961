// What the trace says about the lab right now: devices, memory regions and their keys, queue pairs and their
// states, posted work requests, completions, buffer contents, the current step. Built only from trace
// events (live or replayed), so every view shows observed facts.
#pragma once

#include "rdmalab/format/trace.hpp"
#include "rdmalab/labs/recorded_values.hpp"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <array>
#include <deque>
#include <map>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace rdmalab::app {

/// An endpoint of the run: A (requester) and B (responder) in every lesson; C and D, further endpoints a lab
/// names (a second receiver, a multicast member, a second atomic requester: trace.hpp `Endpoint`).
enum class Side { A = 0, B = 1, C = 2, D = 3 };
/// How many endpoints the state keeps (A, B, C, D): the size of its per-endpoint arrays.
inline constexpr std::size_t kSides = 4;
inline int index(Side side) {
    return static_cast<int>(side);
}
/// "A", "B", "C" or "D".
QString sideLetter(Side side);
QString sideLetter(int side);
std::optional<Side> sideOf(const TraceEvent& event);

struct RegionState {
    bool registered = false;
    QString label;
    quint64 addr = 0;
    quint64 length = 0;
    quint32 lkey = 0;
    quint32 rkey = 0;
    QStringList access;
    std::uint64_t seq = 0; ///< event that registered it
};

struct QpState {
    bool created = false;
    quint32 qpn = 0;
    QString type;
    QString state; ///< RESET, INIT, RTR, RTS, SQD, SQE, ERR
    quint32 destQpn = 0;
    quint32 sqPsn = 0;
    quint32 rqPsn = 0;
    int pathMtu = 0;
    QString qkey;           ///< the Q_Key as last set (a UD QP's INIT, "0x11111111"); empty when none was set
    QString lastTransition; ///< "INIT->RTR"
    QStringList lastMask;
    nlohmann::json lastAttributes = nlohmann::json::object();
    QStringList lastAccessFlags; ///< qp_access_flags of the last transition (empty when it set none)
    std::optional<int> retryCnt; ///< retry_cnt as last set (RTR->RTS): retries when no ACK or NAK arrives
    std::optional<int> rnrRetry; ///< rnr_retry as last set (RTR->RTS): retries after an RNR NAK, 7 = forever
    std::uint64_t seq = 0;
};

struct MemoryState {
    QByteArray bytes; ///< preview of the buffer (first bytes)
    quint64 length = 0;
    /// Bytes changed since registration, as (offset, length) within `bytes`: the event's ranges clipped to
    /// the preview it carries, so 0 <= offset and offset + length <= bytes.size().
    std::vector<std::pair<int, int>> changed;
    QString when;
    std::uint64_t seq = 0;
};

struct WorkRequestState {
    Side side = Side::A;
    QString queue; ///< "send" or "recv"
    QString opcode;
    quint64 wrId = 0;
    quint64 length = 0;
    bool completed = false;
    std::uint64_t seq = 0;
};

struct CompletionState {
    Side side = Side::A;
    QString status;
    QString statusMeaning;
    QString opcode;
    quint32 byteLen = 0;
    quint64 wrId = 0;
    std::optional<quint32> immData;
    std::uint64_t seq = 0;
};

struct PortSummary {
    QString device;
    QString driver;
    bool software = false;
    int port = 1;
    QString state;
    QString linkLayer;
    int activeMtu = 0;
    QStringList gids; ///< "index gid type netdev"
};

/// A send-queue work request that was posted and has not completed yet: what happens between the post and
/// its completion is illustrated from these facts when the completion arrives.
struct PendingSend {
    QString opcode;
    quint64 wrId = 0;
    quint64 length = 0;
    quint32 rkey = 0;        ///< the remote key the request carries (0 for sends)
    bool inlineData = false; ///< IBV_SEND_INLINE: the payload was copied into the WQE when it was posted
};

/// The verbs objects of one side besides its region and QP: protection domain, completion queue, what
/// was polled from it, and the sends in flight.
struct SideObjects {
    bool pd = false;
    qint64 pdId = -1;
    QString device; ///< the device its last PD was allocated on (ibv_alloc_pd's args.device)
    bool cq = false;
    qint64 cqId = -1;
    qint64 cqe = 0; ///< actual_cqe of ibv_create_cq
    int polled = 0; ///< completions polled since the CQ was created
    QString lastWc; ///< the last completion: "STATUS · OPCODE · N B · wr_id W"; a failure: "STATUS · wr_id W"
    bool lastWcError = false;
    std::deque<PendingSend> pending; ///< in posting order; a completion removes its own (by wr_id)
};

/// The port as ibv_query_port and ibv_query_gid_ex report it; ibv_close_device clears it.
struct PortState {
    bool deviceOpen = false;
    int port = 1;
    QString state; ///< "ACTIVE", ...
    QString linkLayer;
    QString gid;
    QString gidType;
    qint64 mtu = 0;
};

struct StepState {
    QString id;
    QString title;
    int index = -1;
    int count = 0;
    Side side = Side::A;
    bool sideless = true;
    /// The step's explanation as the lab runner rendered it, by language ("en", "zh"): lab.step's answer
    /// (`texts`) once the step ran; empty before, and in a recording of the engine's loopback operation.
    std::map<QString, QString> texts;
};

class LabState {
  public:
    /// The state after `events` (the first events of a session, in order), for time travel; an event
    /// with a field of the wrong type (checked where it arrived) changes nothing. `replay` as given.
    static LabState foldedFrom(std::span<const TraceEvent> events, bool replay);
    void reset();
    /// Folds one event into the state; returns true if something visible changed. Throws FieldError
    /// (rdmalab/format/fields.hpp) when a field it reads has the wrong type. Which fields it reads depends on
    /// the event only, never on the state, so applying an event to an empty state checks it
    /// (checkEventFields).
    bool apply(const TraceEvent& event);

    /// The lesson values the events so far state, for the texts of a recording of the engine's loopback
    /// operation (its steps carry none): folded as the events come, never read again from the start (only
    /// while `mode` says the events are such a recording).
    labs::RecordedValues recordedValues;

    // Session header
    QString device;
    bool softwareDevice = false;
    QString sessionNote; ///< the session's `note` (e.g. how a recording was edited); empty without one
    bool deviceClassKnown = false; ///< the session event said whether the device is software (device_info)
    QString host;
    QString date;
    QString mode;
    bool replay = false;
    int portMtu = 0; ///< active MTU from ibv_query_port
    QString gid;     ///< the RoCE v2 GID the engine picked (ibv_query_gid_ex)

    std::array<RegionState, kSides> regions;
    std::array<QpState, kSides> qps;
    std::array<MemoryState, kSides> memory;
    /// The endpoints the run names: A and B always; C and D once an event of theirs arrives, or the lab's
    /// steps (lab.start's `creates`, a step's `objects`) name an object of theirs.
    std::array<bool, kSides> cast{true, true, false, false};
    /// True when the run names C or D (the views then draw them too).
    bool castBeyondPair() const { return cast[2] || cast[3]; }
    std::vector<WorkRequestState> workRequests;
    std::vector<CompletionState> completions;
    StepState step;
    /// System calls the engine's thread made inside the current step's ibv_post_send, ibv_post_recv or
    /// ibv_poll_cq, as its event says (`syscalls`), or why they were not counted (`syscalls_why`); both
    /// empty when the step has no such event or the event has neither field.
    struct StepSyscalls {
        std::optional<qint64> count;
        QString why;
    } stepSyscalls;
    std::vector<QString> plannedSteps; ///< titles from lab.start (op.start in older recordings)
    std::optional<QString> lastError;  ///< verb failed: ... (multi-line)
    /// The same in Simplified Chinese ("verb 失败：…"): the error event's `zh` texts, English where it has
    /// none (a recording made before they were written). Use lastErrorIn() to pick.
    std::optional<QString> lastErrorZh;
    std::optional<bool> verified; ///< check outcome
    /// The check was of a fault lesson: `verified` means the device refused as the fault meant it to
    /// (check event fault_observed), not that data moved.
    bool faultObserved = false;
    /// lastError in `language` ("zh…": lastErrorZh).
    const std::optional<QString>& lastErrorIn(std::string_view language) const {
        return language.substr(0, 2) == "zh" ? lastErrorZh : lastError;
    }
    QString lastErrorCode; ///< the status or errno name of the last failed verb ("IBV_WC_REM_ACCESS_ERR")
    /// A lab's verdicts so far (its `held` and `broken` check events; `not_applicable` counts in neither).
    int expectationsHeld = 0;
    int expectationsBroken = 0;
    QString checkSummary;
    QStringList checkLines;
    QString peerQpnText(Side side) const;

    // Objects and port, folded leniently (a field of the wrong type reads as absent; never throws)
    std::array<SideObjects, kSides> objects;
    PortState port;
    /// The pending send a completion event retires (matched by wr_id on its side), looked up before the
    /// event is applied; nothing for other events or when none matches.
    std::optional<PendingSend> pendingSendFor(const TraceEvent& event) const;
    /// The device both endpoints' PDs were allocated on (their last PD, kept after it is freed), when it is
    /// one device (a loopback pair, as in every lesson); empty until both sides had a PD, or when they
    /// differ.
    QString pairDevice() const;

  private:
    void applyObjects(const TraceEvent& event);
    bool applyKind(const TraceEvent& event);
};

/// Lenient field readers (what the object fold and the data-path view use): a missing or wrong-typed field
/// reads as empty text or `fallback`; numbers and booleans read as text by their JSON form.
QString lenientText(const nlohmann::json& object, const char* key);
qint64 lenientInt(const nlohmann::json& object, const char* key, qint64 fallback = 0);

/// True when byte `at` lies in one of `ranges` (offset, length), whatever the ranges hold: negative or
/// huge values never overflow (the views check every byte with it).
bool inRanges(const std::vector<std::pair<int, int>>& ranges, qsizetype at);

/// What a `devices` result says (engine protocol): every device's ports, or how to get a device.
struct DevicesResult {
    std::vector<PortSummary> ports;
    QString noDeviceFix; ///< when there is none: the `rdma link add` command for this machine
};
/// Reads the `data` of a `devices` result; throws FieldError when a field has the wrong type.
DevicesResult readDevicesResult(const nlohmann::json& data);

} // namespace rdmalab::app
