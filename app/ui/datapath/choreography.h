// The data-path view's choreography as tables: which animation an event gets (by its kind, and for verbs
// by the verb's name), which parts its selection highlights, and how a completion's illustration reads
// (by the posted opcode and the completion status, i.e. the fault kind).
#pragma once

#include "rdmalab/format/trace.hpp"

#include <QString>

#include <array>
#include <optional>
#include <string_view>

namespace rdmalab::app::datapath {

/// The parts of one host in the picture.
enum class Part { None, Frame, App, Verbs, Kernel, Rnic, Port, Pd, Qp, Sq, Rq, Mtt, Cq, Doorbell };

/// The animations an event can get.
enum class Move {
    Nothing,    ///< not animated (ibv_poll_cq: its completions are)
    Header,     ///< title and status line refresh (session, step, result, measure)
    Check,      ///< the check outcome flashes in the status line
    Error,      ///< the failure flashes; the host's frame turns red
    Async,      ///< an async event on the QP (or on the ports when sideless)
    Data,       ///< buffer bytes change
    QpState,    ///< ibv_modify_qp down the control path, then the new state
    PostWr,     ///< a WQE down the data path into its queue, the doorbell rings
    Completion, ///< illustration of the request, then the CQE up to the application
    DeviceCall, ///< a device-wide verb (or one without a side): the ports refresh and pulse
    Query,      ///< a query on an object: it refreshes and pulses
    ObjectCall, ///< a verb down the control path to its object box
};

/// What the tables say about one event.
struct Rule {
    Move move = Move::Nothing;
    Part part = Part::None; ///< the object a call goes to (ObjectCall, Query)
    bool appearing = false; ///< the object appears (fades in) when the call succeeds
};

/// The animation of an event of `kind` (and verb `name`); `sided`: the event names host A or B.
Rule ruleFor(EventKind kind, std::string_view name, bool sided);

/// The parts of its host that an event with a side highlights when selected (up to two; None: unused).
std::array<Part, 2> highlightFor(EventKind kind, const QString& name, const QString& queue);

/// How a completion's illustration reads, by the completion status.
enum class Fault {
    None,     ///< success: the request is served
    Flushed,  ///< IBV_WC_WR_FLUSH_ERR: the QP was in ERR, nothing was sent
    NotReady, ///< IBV_WC_RNR_RETRY_EXC_ERR: no receive WQE at the responder, RNR NAKs until rnr_retry ran out
    RemoteAccess,    ///< IBV_WC_REM_ACCESS_ERR: the responder refused the rkey, the range or the rights
    RemoteInvalid,   ///< IBV_WC_REM_INV_REQ_ERR: the responder found the request invalid
    RemoteOperation, ///< IBV_WC_REM_OP_ERR: the responder could not carry the request out
    RetryExceeded,   ///< IBV_WC_RETRY_EXC_ERR: retry_cnt ran out (ACK timeouts or PSN-sequence NAKs)
    LocalProtection, ///< IBV_WC_LOC_PROT_ERR: A's own lkey, range or rights refused on A
    Other,           ///< any other status: named, with no cause invented for it
};
Fault faultOf(const QString& status);

/// What the illustration of a failed completion draws.
struct FaultStory {
    bool sent = false;              ///< the request is drawn leaving A
    bool reachesResponder = false;  ///< ... and arriving at B, which refuses it and answers with `nak`
    const char* checkOneSided = ""; ///< the refusal of a one-sided request at B; %1 the rkey in hex
    const char* checkSend = "";     ///< the refusal of a SEND at B
    const char* nak = "";           ///< the NAK B sends back; empty: none is drawn
};
const FaultStory& faultStory(Fault fault);
/// The RNR NAK by the requester's rnr_retry: 0 fails at once, 1..6 retries that often, 7 never gives up.
QString rnrNakText(std::optional<int> rnrRetry);
/// Retries exhausted without an answer, by the requester's retry_cnt.
QString retryExceededText(std::optional<int> retryCnt);
/// A successful request of a QP that is not RC (`qpType` "UC", "UD"): nothing acknowledges it.
QString unacknowledgedText(const QString& qpType);
/// A's lkey refused on A: before anything is sent (`returned` false), or when the bytes a READ or an atomic
/// brought back were to be written into A's memory.
QString localProtectionText(bool returned);

/// The kind of posted request, by opcode: what its illustration moves.
struct OpcodeShape {
    bool send = false;    ///< consumes a receive WQE (SEND, SEND_WITH_IMM)
    bool read = false;    ///< RDMA_READ: a request out, the bytes back
    bool atomic = false;  ///< CAS / FAA: 8 bytes read-modified-written, the old value back
    bool payload = false; ///< the NIC first reads the payload from local memory
};
OpcodeShape shapeOf(const QString& opcode);

/// "WRITE" for RDMA_WRITE, "CAS" for ATOMIC_CMP_AND_SWP, ...: the opcode as the picture labels it.
QString shortOpcode(const QString& op);
/// The status without its IBV_WC_ prefix.
QString shortStatus(const QString& status);

} // namespace rdmalab::app::datapath
