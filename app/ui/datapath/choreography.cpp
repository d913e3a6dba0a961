#include "impl.h" // HostItems::part

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace rdmalab::app {

namespace datapath {

namespace {

struct KindRule {
    EventKind kind;
    Move move;
    std::array<Part, 2> highlight;
};

// By event kind; a kind not listed (session, step, result, measure) refreshes the header and highlights
// nothing. Verbs go on to the verb table; a post highlights the queue it went to (see highlightFor).
constexpr KindRule kHeader{EventKind::Session, Move::Header, {Part::None, Part::None}};
constexpr KindRule kKinds[] = {
    {EventKind::Check, Move::Check, {Part::None, Part::None}},
    {EventKind::Error, Move::Error, {Part::Frame, Part::None}},
    {EventKind::Async, Move::Async, {Part::Qp, Part::None}},
    {EventKind::Data, Move::Data, {Part::App, Part::None}},
    {EventKind::QpState, Move::QpState, {Part::Qp, Part::None}},
    {EventKind::PostWr, Move::PostWr, {Part::Sq, Part::Doorbell}},
    {EventKind::Wc, Move::Completion, {Part::Cq, Part::App}},
    {EventKind::Verb, Move::ObjectCall, {Part::Verbs, Part::None}},
};

struct VerbRule {
    std::string_view verb;
    Move move;
    Part part;
    bool appearing;
    std::array<Part, 2> highlight;
};

// By verb name. A verb not listed goes down the control path to the RNIC (appearing when it creates
// something) and highlights the CQ or QP its name names, else the verbs library.
constexpr VerbRule kVerbs[] = {
    {"ibv_get_device_list", Move::Nothing, Part::None, false, {Part::Verbs, Part::None}},
    {"ibv_poll_cq", Move::Nothing, Part::None, false, {Part::Cq, Part::None}},
    {"ibv_req_notify_cq", Move::Nothing, Part::None, false, {Part::Cq, Part::None}},
    {"ibv_open_device", Move::DeviceCall, Part::Port, false, {Part::Verbs, Part::None}},
    {"ibv_query_port", Move::DeviceCall, Part::Port, false, {Part::Verbs, Part::None}},
    {"ibv_query_gid_ex", Move::DeviceCall, Part::Port, false, {Part::Verbs, Part::None}},
    {"ibv_close_device", Move::DeviceCall, Part::Port, false, {Part::Verbs, Part::None}},
    {"ibv_query_qp", Move::Query, Part::Qp, false, {Part::Qp, Part::None}},
    {"ibv_alloc_pd", Move::ObjectCall, Part::Pd, true, {Part::Pd, Part::None}},
    {"ibv_dealloc_pd", Move::ObjectCall, Part::Pd, false, {Part::Pd, Part::None}},
    {"ibv_create_cq", Move::ObjectCall, Part::Cq, true, {Part::Cq, Part::None}},
    {"ibv_destroy_cq", Move::ObjectCall, Part::Cq, false, {Part::Cq, Part::None}},
    {"ibv_create_comp_channel", Move::ObjectCall, Part::Cq, true, {Part::Verbs, Part::None}},
    {"ibv_destroy_comp_channel", Move::ObjectCall, Part::Cq, false, {Part::Verbs, Part::None}},
    {"ibv_create_qp", Move::ObjectCall, Part::Qp, true, {Part::Qp, Part::None}},
    {"ibv_destroy_qp", Move::ObjectCall, Part::Qp, false, {Part::Qp, Part::None}},
    {"ibv_reg_mr", Move::ObjectCall, Part::Mtt, true, {Part::App, Part::Mtt}},
    {"ibv_dereg_mr", Move::ObjectCall, Part::Mtt, false, {Part::App, Part::Mtt}},
};

const VerbRule* verbRule(std::string_view name) {
    auto it = std::find_if(std::begin(kVerbs), std::end(kVerbs),
                           [name](const VerbRule& r) { return r.verb == name; });
    return it == std::end(kVerbs) ? nullptr : &*it;
}

const KindRule& kindRule(EventKind kind) {
    auto it = std::find_if(std::begin(kKinds), std::end(kKinds),
                           [kind](const KindRule& r) { return r.kind == kind; });
    return it == std::end(kKinds) ? kHeader : *it;
}

struct StatusRule {
    const char* status;
    Fault fault;
};

// By the completion status's exact name; a status not listed is Fault::Other.
constexpr StatusRule kStatuses[] = {
    {"IBV_WC_SUCCESS", Fault::None},
    {"IBV_WC_WR_FLUSH_ERR", Fault::Flushed},
    {"IBV_WC_RNR_RETRY_EXC_ERR", Fault::NotReady},
    {"IBV_WC_REM_ACCESS_ERR", Fault::RemoteAccess},
    {"IBV_WC_REM_INV_REQ_ERR", Fault::RemoteInvalid},
    {"IBV_WC_REM_OP_ERR", Fault::RemoteOperation},
    {"IBV_WC_RETRY_EXC_ERR", Fault::RetryExceeded},
    {"IBV_WC_LOC_PROT_ERR", Fault::LocalProtection},
};

struct FaultRow {
    Fault fault;
    FaultStory story;
};

// What each failure draws. The responder's refusals follow the IBTA's NAK codes (remote access error,
// invalid request, remote operational error) as rxe_resp.c sends them; a retry-exceeded request got no
// answer at all, so no NAK is drawn; a local protection error is A's own (rxe_req.c fails the WQE before
// building a packet when it cannot read the payload, rxe_comp.c when it cannot write a READ's response).
const FaultRow kFaultRows[] = {
    {Fault::NotReady,
     {.sent = true,
      .reachesResponder = true,
      .checkSend = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "✗ no receive WQE posted")}},
    {Fault::RemoteAccess,
     {.sent = true,
      .reachesResponder = true,
      .checkOneSided = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView",
                                         "✗ rkey 0x%1, range or rights refused by the responder"),
      .checkSend = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView",
                                     "✗ the responder answered with a remote access error"),
      .nak = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "NAK: remote access error")}},
    {Fault::RemoteInvalid,
     {.sent = true,
      .reachesResponder = true,
      .checkOneSided =
          QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "✗ invalid request, refused by the responder"),
      .checkSend =
          QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "✗ invalid request, refused by the responder"),
      .nak = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "NAK: invalid request")}},
    {Fault::RemoteOperation,
     {.sent = true,
      .reachesResponder = true,
      .checkOneSided =
          QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "✗ the responder could not carry it out"),
      .checkSend = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "✗ the responder could not carry it out"),
      .nak = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "NAK: remote operational error")}},
    {Fault::RetryExceeded, {.sent = true}},
    // LocalProtection: A's payload is refused before sending (a WRITE or SEND), or a READ's response after
    // the round trip: the opcode decides (illustration.cpp), so the row is empty like any other status's.
};

const FaultStory kNoStory{};

struct OpcodeRule {
    const char* opcode;
    bool prefix; ///< matches every opcode that starts with it
    OpcodeShape shape;
};

// In order; an opcode not listed is an RDMA write (payload out, bytes land at the responder).
const OpcodeRule kOpcodes[] = {
    {"RDMA_READ", false, {.read = true}},
    {"ATOMIC", true, {.atomic = true}},
    {"SEND", true, {.send = true, .payload = true}},
};

struct ShortName {
    const char* opcode;
    const char* label;
};

const ShortName kShortOpcodes[] = {
    {"RDMA_WRITE", "WRITE"},       {"RDMA_WRITE_WITH_IMM", "WRITE+IMM"}, {"RDMA_READ", "READ"},
    {"SEND_WITH_IMM", "SEND+IMM"}, {"ATOMIC_CMP_AND_SWP", "CAS"},        {"ATOMIC_FETCH_AND_ADD", "FAA"},
};

} // namespace

Rule ruleFor(EventKind kind, std::string_view name, bool sided) {
    const KindRule& k = kindRule(kind);
    if (kind != EventKind::Verb) return {k.move, Part::None, false};
    const VerbRule* v = verbRule(name);
    Rule rule = v ? Rule{v->move, v->part, v->appearing}
                  : Rule{Move::ObjectCall, Part::Rnic, name.rfind("ibv_create", 0) == 0};
    if (rule.move != Move::Nothing && !sided) rule.move = Move::DeviceCall;
    return rule;
}

std::array<Part, 2> highlightFor(EventKind kind, const QString& name, const QString& queue) {
    if (kind == EventKind::PostWr && queue == QLatin1String("recv")) return {Part::Rq, Part::None};
    if (kind != EventKind::Verb) return kindRule(kind).highlight;
    if (const VerbRule* v = verbRule(name.toStdString())) return v->highlight;
    if (name.contains(QLatin1String("_cq"))) return {Part::Cq, Part::None};
    if (name.contains(QLatin1String("_qp"))) return {Part::Qp, Part::None};
    return kindRule(kind).highlight;
}

Fault faultOf(const QString& status) {
    for (const auto& r : kStatuses)
        if (status == QLatin1String(r.status)) return r.fault;
    return Fault::Other;
}

const FaultStory& faultStory(Fault fault) {
    for (const auto& r : kFaultRows)
        if (r.fault == fault) return r.story;
    return kNoStory;
}

QString rnrNakText(std::optional<int> rnrRetry) {
    if (!rnrRetry)
        return QCoreApplication::translate("rdmalab::app::DataPathView",
                                           "RNR NAK: rnr_retry ran out, the send failed");
    if (*rnrRetry <= 0)
        return QCoreApplication::translate("rdmalab::app::DataPathView",
                                           "RNR NAK: rnr_retry 0, the send fails at once");
    if (*rnrRetry >= 7)
        return QCoreApplication::translate("rdmalab::app::DataPathView",
                                           "RNR NAK: rnr_retry 7 never gives up");
    // English has a singular and a plural; the translation gives both the same text.
    return (*rnrRetry == 1 ? QCoreApplication::translate("rdmalab::app::DataPathView",
                                                         "RNR NAK, retried %1 time, then failed")
                           : QCoreApplication::translate("rdmalab::app::DataPathView",
                                                         "RNR NAK, retried %1 times, then failed"))
        .arg(*rnrRetry);
}

QString retryExceededText(std::optional<int> retryCnt) {
    if (!retryCnt)
        return QCoreApplication::translate("rdmalab::app::DataPathView",
                                           "✗ no ACK: retries exhausted (timeouts or sequence NAKs)");
    if (*retryCnt <= 0)
        return QCoreApplication::translate(
            "rdmalab::app::DataPathView",
            "✗ no ACK: retry_cnt 0, failed at the first timeout or sequence NAK");
    return (*retryCnt == 1
                ? QCoreApplication::translate(
                      "rdmalab::app::DataPathView",
                      "✗ no ACK: retried %1 time (retry_cnt) after a timeout or sequence NAK, then failed")
                : QCoreApplication::translate(
                      "rdmalab::app::DataPathView",
                      "✗ no ACK: retried %1 times (retry_cnt) after timeouts or sequence NAKs, then failed"))
        .arg(*retryCnt);
}

QString unacknowledgedText(const QString& qpType) {
    return QCoreApplication::translate(
               "rdmalab::app::DataPathView",
               "%1: no ACK comes back; A's completion means the request left, not that "
               "it arrived")
        .arg(qpType);
}

QString localProtectionText(bool returned) {
    return returned ? QCoreApplication::translate(
                          "rdmalab::app::DataPathView",
                          "✗ lkey refused on A: the returned bytes cannot be written into A's memory")
                    : QCoreApplication::translate(
                          "rdmalab::app::DataPathView",
                          "✗ lkey refused on A: the payload cannot be read, nothing is sent");
}

OpcodeShape shapeOf(const QString& opcode) {
    for (const auto& o : kOpcodes)
        if (o.prefix ? opcode.startsWith(QLatin1String(o.opcode)) : opcode == QLatin1String(o.opcode))
            return o.shape;
    return {.payload = true};
}

QString shortOpcode(const QString& op) {
    for (const auto& n : kShortOpcodes)
        if (op == QLatin1String(n.opcode)) return QString::fromLatin1(n.label);
    return op;
}

QString shortStatus(const QString& status) {
    QString s = status;
    if (s.startsWith(QLatin1String("IBV_WC_"))) s = s.mid(7);
    return s;
}

Block* HostItems::part(Part p) const {
    // Indexed by Part; the buffer (a BufferBlock) is the one part of another type.
    static constexpr Block* HostItems::*kParts[] = {
        nullptr,          &HostItems::frame, nullptr,        &HostItems::verbs,    &HostItems::kernel,
        &HostItems::rnic, &HostItems::port,  &HostItems::pd, &HostItems::qp,       &HostItems::sq,
        &HostItems::rq,   &HostItems::mtt,   &HostItems::cq, &HostItems::doorbell,
    };
    if (p == Part::App) return app;
    const auto member = kParts[static_cast<std::size_t>(p)];
    return member ? this->*member : nullptr;
}

} // namespace datapath

} // namespace rdmalab::app
