// The data-path view's choreography as tables: which animation an event gets (by its kind, and for verbs
// by the verb's name), which parts its selection highlights, and how a completion's illustration reads
// (by the posted opcode and the completion status, i.e. the fault kind).
#pragma once

#include "rdmalab/trace.hpp"

#include <QString>

#include <array>
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
    None,         ///< success: the request is served
    Flushed,      ///< the QP was in ERR: nothing was sent
    NotReady,     ///< RNR: no receive WQE at the responder
    RemoteAccess, ///< the responder rejected the key or the access
    Other,        ///< another NAK
};
Fault faultOf(const QString& status);
/// The NAK token's text for a fault (Other: "NAK: " and the short status).
QString nakText(Fault fault, const QString& shortStatus);

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
