// rdma_cm objects as RAII classes, one call at a time (the lab language's cm_* and mcast_* actions): an
// event channel, a communication identifier, a queue pair created on an identifier (rdma_create_qp, an
// engine QueuePair whose release is rdma_destroy_qp) and a multicast membership. Like the verbs classes,
// children keep their parents alive (a QP its id, an id its channel), every call is traced, every failure
// is an RdmaError that names the call, and destructors never throw. (cm.hpp runs a whole connection for
// `op --listen/--connect`; these are the pieces a lab performs step by step.)
#pragma once

#include "rdmalab/engine/verbs.hpp"

#include <rdma/rdma_cma.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rdmalab {

/// One rdma_cm event, copied out of the rdma_cm_event before it is acknowledged.
struct CmEvent {
    rdma_cm_event_type type{};
    std::string name; ///< "connect_request": rdma_event_str() without RDMA_CM_EVENT_, lower case
    int status = 0;   ///< the event's status (a negative errno, or the CM's reject reason)
    std::vector<std::uint8_t> private_data; ///< the whole buffer the event carries (zero-padded)
    rdma_cm_id* id = nullptr;               ///< the id it is for (connect_request: the new id)
    rdma_cm_id* listen_id = nullptr;        ///< connect_request: the listener
    // multicast_join (param.ud): what a sender to the group needs
    ibv_ah_attr ah_attr{};
    std::uint32_t qp_num = 0;
    std::uint32_t qkey = 0;
};

/// An event channel (rdma_create_event_channel): the file descriptor every event of its ids arrives on.
class CmEventChannel {
  public:
    static std::shared_ptr<CmEventChannel> create(TraceScope trace);
    ~CmEventChannel();
    CmEventChannel(const CmEventChannel&) = delete;
    CmEventChannel& operator=(const CmEventChannel&) = delete;
    rdma_event_channel* get() const { return channel_; }
    /// The next event for `id` (connect_request: an event whose listener is `id`), waiting at most
    /// `timeout`; events for the channel's other ids are kept, in order, for their own waits. Every event
    /// read is acknowledged at once (rdma_ack_cm_event) and traced. Empty when the time ran out.
    std::optional<CmEvent> next_event(rdma_cm_id* id, std::chrono::milliseconds timeout,
                                      const TraceScope& trace);

  private:
    CmEventChannel(rdma_event_channel* channel, TraceScope trace);
    rdma_event_channel* channel_;
    TraceScope trace_;
    std::deque<CmEvent> pending_;
};

/// A communication identifier (rdma_create_id), or one rdma_cm created for a connect request.
class CmId : public std::enable_shared_from_this<CmId> {
  public:
    static std::shared_ptr<CmId> create(std::shared_ptr<CmEventChannel> channel, rdma_port_space space,
                                        TraceScope trace);
    /// Takes ownership of the id a connect_request event brought (it shares the listener's channel).
    static std::shared_ptr<CmId> adopt(std::shared_ptr<CmEventChannel> channel, rdma_cm_id* id,
                                       TraceScope trace);
    ~CmId();
    CmId(const CmId&) = delete;
    CmId& operator=(const CmId&) = delete;

    rdma_cm_id* get() const { return id_; }
    const std::shared_ptr<CmEventChannel>& channel() const { return channel_; }
    const TraceScope& trace() const { return trace_; }
    /// The device the id is bound to (after bind, resolve_addr, or on a connect request's id), or null.
    ibv_context* verbs() const { return id_->verbs; }

    void bind(const std::string& address, std::uint16_t port);
    void listen(int backlog);
    void resolve_addr(const std::string& address, std::uint16_t port, std::chrono::milliseconds timeout);
    void resolve_route(std::chrono::milliseconds timeout);
    void connect(const rdma_conn_param& param, const std::string& private_data);
    void accept(const rdma_conn_param& param, const std::string& private_data);
    void reject(const std::string& private_data);
    void disconnect();
    void join_multicast(const std::string& group_address);
    /// Leaves the group (rdma_leave_multicast), detaching the id's QP from it.
    void leave_multicast(const std::string& group_address);
    /// The same from a destructor: never throws, a failure is only traced.
    void release_multicast(const std::string& group_address) noexcept;
    /// Waits for this id's next event (see CmEventChannel::next_event).
    std::optional<CmEvent> next_event(std::chrono::milliseconds timeout);

    /// rdma_create_qp on this id with the caller's PD and CQs: rdma_cm moves it through its states itself
    /// (RC: INIT now, RTR and RTS in rdma_connect / rdma_accept; UD: to RTS now, with rdma_cm's Q_Key).
    /// The QueuePair keeps the id alive; destroying it calls rdma_destroy_qp.
    std::shared_ptr<QueuePair> create_qp(std::shared_ptr<ProtectionDomain> pd,
                                         std::shared_ptr<CompletionQueue> send_cq,
                                         std::shared_ptr<CompletionQueue> recv_cq, ibv_qp_type type,
                                         const QpCapacity& capacity);

  private:
    CmId(std::shared_ptr<CmEventChannel> channel, rdma_cm_id* id, TraceScope trace);
    /// Traces a call that returned `ret` (0, or -1 with errno) and throws the explained error on failure.
    void traced(const char* verb, int ret, nlohmann::json args) const;
    std::shared_ptr<CmEventChannel> channel_;
    rdma_cm_id* id_;
    TraceScope trace_;
};

/// A joined multicast group: the join event's address handle attributes, QP number (0xFFFFFF) and Q_Key.
/// Destroying it leaves the group.
struct MulticastGroup {
    std::shared_ptr<CmId> id;
    std::string address;
    ibv_ah_attr ah_attr{};
    std::uint32_t qp_num = 0;
    std::uint32_t qkey = 0;
    bool joined = false;
    MulticastGroup() = default;
    MulticastGroup(const MulticastGroup&) = delete;
    MulticastGroup& operator=(const MulticastGroup&) = delete;
    /// Leaves now (throws RdmaError when rdma_leave_multicast fails); the destructor then does nothing.
    void leave() {
        joined = false;
        id->leave_multicast(address);
    }
    ~MulticastGroup() {
        if (joined && id) id->release_multicast(address);
    }
};

/// "addr_resolved" for RDMA_CM_EVENT_ADDR_RESOLVED.
std::string cm_event_name(rdma_cm_event_type type);

} // namespace rdmalab
