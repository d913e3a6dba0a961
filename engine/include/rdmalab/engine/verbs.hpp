// One RAII class per verbs object. Children hold shared_ptrs to their parents, so a parent outlives every
// child and destruction follows the canonical order (QP, CQ, MR, PD, context). Destructors never throw;
// a failing destroy call is reported as a trace event. Every call is traced.
#pragma once

#include "rdmalab/engine/device.hpp"
#include "rdmalab/engine/errors.hpp"
#include "rdmalab/engine/syscount.hpp"
#include "rdmalab/format/trace.hpp"

#include <infiniband/verbs.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace rdmalab {

/// Where an object's trace events go and which endpoint they are attributed to.
struct TraceScope {
    std::shared_ptr<Tracer> tracer;
    Endpoint endpoint = Endpoint::None;

    std::uint64_t record(EventKind kind, std::string name, nlohmann::json ids = {},
                         nlohmann::json data = {}) const;
    bool on() const { return tracer && tracer->enabled(); }
};

/// An asynchronous event read from ibv_get_async_event.
struct AsyncEvent {
    ibv_event_type type{};
    std::string name;
    std::string meaning;
    std::optional<std::uint32_t> qp_num;
    std::optional<int> port;
    std::optional<std::uint32_t> srq_handle; ///< SRQ events (SRQ_LIMIT_REACHED, SRQ_ERR): ibv_srq::handle
    std::optional<std::uint32_t> cq_handle;  ///< CQ_ERR: ibv_cq::handle
    Endpoint endpoint = Endpoint::None;
};

/// An open device (ibv_open_device), or a borrowed one owned by an rdma_cm id.
class Context : public std::enable_shared_from_this<Context> {
  public:
    /// Opens `device_name` (empty: the first device). Throws RdmaError (no device, not found, open failed).
    static std::shared_ptr<Context> open(const std::string& device_name, std::shared_ptr<Tracer> tracer);
    /// Wraps a context owned by someone else (rdma_cm); it is not closed on destruction.
    static std::shared_ptr<Context> borrow(ibv_context* context, std::shared_ptr<Tracer> tracer);
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    ibv_context* get() const { return context_; }
    const std::string& device_name() const { return device_name_; }
    const std::shared_ptr<Tracer>& tracer() const { return tracer_; }

    /// ibv_query_device, traced.
    ibv_device_attr query_device() const;
    /// ibv_query_device_ex, traced: the extended attributes, among them `device_cap_flags_ex`, whose upper
    /// bits (kDeviceAtomicWrite, kDeviceFlushGlobal, kDeviceFlushPersistent) ibv_query_device cannot carry.
    ibv_device_attr_ex query_device_ex() const;
    ibv_port_attr query_port(std::uint8_t port) const;
    /// Checks the port is ACTIVE; throws RdmaError explaining otherwise.
    void require_active_port(std::uint8_t port) const;
    /// GID index of a RoCE v2 GID on the port; throws RdmaError when there is none.
    int rocev2_gid_index(std::uint8_t port) const;
    ibv_gid query_gid(std::uint8_t port, int index) const;
    /// Every valid GID of the port with its type and netdev (ibv_query_gid_table: one call, one event).
    std::vector<GidEntry> gid_table(std::uint8_t port) const;

    /// Reads every pending async event without blocking, acknowledges and traces each.
    std::vector<AsyncEvent> poll_async_events();
    /// Waits up to `timeout` (poll(2) on the async fd) for at least one async event, then reads every
    /// pending one as poll_async_events() does. Empty when none arrived in time. The wait is traced as an
    /// `ibv_get_async_event` event (`waited_ms`, `events`), each event as an `async` event.
    std::vector<AsyncEvent> wait_async_events(std::chrono::milliseconds timeout);
    /// Lets async events on this QP be attributed to an endpoint.
    void register_qp(std::uint32_t qp_num, Endpoint endpoint);

  private:
    Context(ibv_context* context, bool owned, std::string name, std::shared_ptr<Tracer> tracer);
    ibv_context* context_;
    bool owned_;
    std::string device_name_;
    std::shared_ptr<Tracer> tracer_;
    std::mutex qp_mutex_;
    std::map<std::uint32_t, Endpoint> qp_endpoints_;
};

/// A protection domain (ibv_alloc_pd). Objects of one endpoint share its PD.
class ProtectionDomain {
  public:
    static std::shared_ptr<ProtectionDomain> alloc(std::shared_ptr<Context> context, Endpoint endpoint);
    /// Deallocates the PD (ibv_dealloc_pd, traced) unless dealloc() already did.
    ~ProtectionDomain();
    ProtectionDomain(const ProtectionDomain&) = delete;
    ProtectionDomain& operator=(const ProtectionDomain&) = delete;

    ibv_pd* get() const { return pd_; }
    const std::shared_ptr<Context>& context() const { return context_; }
    const TraceScope& trace() const { return trace_; }
    std::uint32_t handle() const { return handle_; }
    /// Deallocates the PD now (ibv_dealloc_pd), before the object goes away; throws RdmaError when the
    /// device refuses (EBUSY while a QP, MR or AH still uses it). Returns the call's duration in ns. The
    /// object must no longer be used afterwards; its destructor then releases nothing.
    std::uint64_t dealloc();

  private:
    ProtectionDomain(std::shared_ptr<Context> context, ibv_pd* pd, TraceScope trace);
    std::shared_ptr<Context> context_;
    ibv_pd* pd_;
    std::uint32_t handle_;
    TraceScope trace_;
};

/// How MemoryRegion::allocate lays out the buffer it registers.
struct BufferOptions {
    /// Map the buffer read-only (mmap, then mprotect PROT_READ after `fill`): the application cannot write
    /// it, and registering it with LOCAL_WRITE fails (EFAULT: the kernel cannot pin the pages writable).
    bool read_only = false;
    /// The buffer's alignment: 0 or a page or more: aligned to that; less than a page: the buffer starts
    /// `align` bytes into a page, so it is aligned to `align` and no more (a misaligned buffer on purpose).
    std::size_t align = 0;
    /// What the application writes into the buffer before it is registered (and protected).
    std::function<void(std::span<std::uint8_t>)> fill;
};

/// A registered memory region (ibv_reg_mr), optionally owning its page-aligned buffer.
class MemoryRegion {
  public:
    /// Allocates (or maps) a zeroed buffer as `buffer` says, fills it, and registers it with `access`.
    static std::shared_ptr<MemoryRegion> allocate(std::shared_ptr<ProtectionDomain> pd, std::size_t length,
                                                  unsigned access, const BufferOptions& buffer,
                                                  std::string label = {});
    /// Allocates a zeroed page-aligned buffer of `length` bytes and registers it with `access`.
    static std::shared_ptr<MemoryRegion> allocate(std::shared_ptr<ProtectionDomain> pd, std::size_t length,
                                                  unsigned access, std::string label = {});
    /// Registers memory the caller owns and keeps alive longer than the region.
    static std::shared_ptr<MemoryRegion> register_memory(std::shared_ptr<ProtectionDomain> pd, void* address,
                                                         std::size_t length, unsigned access,
                                                         std::string label = {});
    ~MemoryRegion();
    MemoryRegion(const MemoryRegion&) = delete;
    MemoryRegion& operator=(const MemoryRegion&) = delete;

    ibv_mr* get() const { return mr_; }
    std::uint8_t* data() const { return data_; }
    std::uint64_t address() const { return reinterpret_cast<std::uintptr_t>(data_); }
    std::size_t length() const { return length_; }
    std::uint32_t lkey() const { return lkey_; }
    std::uint32_t rkey() const { return rkey_; }
    unsigned access() const { return access_; }
    /// The buffer is mapped read-only (BufferOptions::read_only): the application must not write it.
    bool read_only() const { return read_only_; }
    /// How long ibv_reg_mr took (ns).
    std::uint64_t registration_ns() const { return registration_ns_; }
    /// Deregisters now (ibv_dereg_mr), keeping the buffer until the object goes away; throws RdmaError
    /// when the device refuses. Returns the call's duration in ns. The keys are invalid afterwards.
    std::uint64_t deregister();
    const std::string& label() const { return label_; }
    std::span<std::uint8_t> bytes() const { return {data(), length()}; }
    const std::shared_ptr<ProtectionDomain>& pd() const { return pd_; }
    nlohmann::json describe() const;

  private:
    MemoryRegion(std::shared_ptr<ProtectionDomain> pd, ibv_mr* mr, unsigned access, void* owned_buffer,
                 std::string label);
    std::shared_ptr<ProtectionDomain> pd_;
    ibv_mr* mr_;
    std::uint8_t* data_;
    std::size_t length_;
    std::uint32_t lkey_;
    std::uint32_t rkey_;
    unsigned access_;
    void* owned_buffer_;
    std::string label_;
    std::uint64_t registration_ns_ = 0;
    bool read_only_ = false;
    void* mapping_ = nullptr; ///< an mmap'd buffer (munmap on destruction), else owned_buffer_ (free)
    std::size_t mapping_length_ = 0;
};

/// A completion channel (ibv_create_comp_channel) for event-driven completion handling.
class CompletionChannel {
  public:
    static std::shared_ptr<CompletionChannel> create(std::shared_ptr<Context> context, Endpoint endpoint);
    ~CompletionChannel();
    CompletionChannel(const CompletionChannel&) = delete;
    CompletionChannel& operator=(const CompletionChannel&) = delete;
    ibv_comp_channel* get() const { return channel_; }
    const std::shared_ptr<Context>& context() const { return context_; }

  private:
    CompletionChannel(std::shared_ptr<Context> context, ibv_comp_channel* channel, TraceScope trace);
    std::shared_ptr<Context> context_;
    ibv_comp_channel* channel_;
    TraceScope trace_;
};

/// One work completion, as the application sees it.
struct Completion {
    std::uint64_t wr_id = 0;
    ibv_wc_status status = IBV_WC_SUCCESS;
    ibv_wc_opcode opcode = IBV_WC_SEND;
    std::uint32_t byte_len = 0;
    std::optional<std::uint32_t> imm_data;         ///< host byte order
    std::optional<std::uint32_t> invalidated_rkey; ///< a Send with Invalidate's key (IBV_WC_WITH_INV)
    std::uint32_t qp_num = 0;
    std::uint32_t src_qp = 0;
    std::uint32_t vendor_err = 0;
    unsigned wc_flags = 0;
    bool ok() const { return status == IBV_WC_SUCCESS; }
    nlohmann::json to_json() const;
};

/// A completion queue (ibv_create_cq): busy polling, or event mode through a CompletionChannel.
class CompletionQueue {
  public:
    static std::shared_ptr<CompletionQueue> create(std::shared_ptr<Context> context, Endpoint endpoint,
                                                   int cqe,
                                                   std::shared_ptr<CompletionChannel> channel = nullptr);
    ~CompletionQueue();
    CompletionQueue(const CompletionQueue&) = delete;
    CompletionQueue& operator=(const CompletionQueue&) = delete;

    ibv_cq* get() const { return cq_; }
    std::uint32_t id() const { return cq_->handle; }
    const TraceScope& trace() const { return trace_; }

    /// One ibv_poll_cq call for up to `max` completions. Empty polls are counted, not traced one by one.
    std::vector<Completion> poll(int max = 16);
    /// Busy-polls until `count` completions arrived or `timeout` passed (returns what arrived).
    std::vector<Completion> poll_until(std::size_t count, std::chrono::milliseconds timeout);
    /// Arms the CQ (ibv_req_notify_cq). Event mode only.
    void request_notify(bool solicited_only = false);
    /// Waits for a completion event (ibv_get_cq_event) and acknowledges it; false on timeout. Arming is
    /// one-shot: call request_notify() again before the next wait.
    bool wait_event(std::chrono::milliseconds timeout);
    /// While `meter` is attached (nullptr detaches), every ibv_poll_cq call is counted, and the
    /// `ibv_poll_cq` event carries the system calls of all the polls it stands for (`syscalls`).
    void count_syscalls(std::shared_ptr<const SyscallMeter> meter) { syscalls_ = std::move(meter); }
    /// The system calls of every ibv_poll_cq since the last reset_polled_syscalls() (with a meter attached).
    const SyscallTally& polled_syscalls() const { return polled_syscalls_; }
    void reset_polled_syscalls() { polled_syscalls_ = {}; }

  private:
    CompletionQueue(std::shared_ptr<Context> context, std::shared_ptr<CompletionChannel> channel, ibv_cq* cq,
                    TraceScope trace);
    std::shared_ptr<Context> context_;
    std::shared_ptr<CompletionChannel> channel_;
    ibv_cq* cq_;
    TraceScope trace_;
    std::uint64_t empty_polls_ = 0;
    unsigned unacked_events_ = 0;
    std::shared_ptr<const SyscallMeter> syscalls_;
    SyscallTally poll_syscalls_;   ///< of the polls since the last ibv_poll_cq event
    SyscallTally polled_syscalls_; ///< of the polls since reset_polled_syscalls()
};

class XrcDomain;

/// An address handle (ibv_create_ah), needed for UD sends.
class AddressHandle {
  public:
    static std::shared_ptr<AddressHandle> create(std::shared_ptr<ProtectionDomain> pd,
                                                 const ibv_ah_attr& attr);
    ~AddressHandle();
    AddressHandle(const AddressHandle&) = delete;
    AddressHandle& operator=(const AddressHandle&) = delete;
    ibv_ah* get() const { return ah_; }

  private:
    AddressHandle(std::shared_ptr<ProtectionDomain> pd, ibv_ah* ah);
    std::shared_ptr<ProtectionDomain> pd_;
    ibv_ah* ah_;
};

/// Queue sizes for a new QP.
struct QpCapacity {
    std::uint32_t max_send_wr = 16;
    std::uint32_t max_recv_wr = 16;
    std::uint32_t max_send_sge = 1;
    std::uint32_t max_recv_sge = 1;
    std::uint32_t max_inline_data = 64;
};

/// What the peer's QP looks like, for the RTR transition.
struct PathInfo {
    std::uint32_t remote_qpn = 0;
    std::uint32_t remote_psn = 0; ///< the peer's initial send PSN = our expected receive PSN
    ibv_gid remote_gid{};
    std::uint16_t remote_lid = 0; ///< InfiniBand only
    int sgid_index = 0;           ///< our GID index (RoCE v2)
    std::uint8_t port = 1;
    ibv_mtu path_mtu = IBV_MTU_1024;
    std::uint8_t max_dest_rd_atomic = 1;
    std::uint8_t min_rnr_timer = 12; ///< encoded (12 = 0.64 ms)
    bool use_grh = true;             ///< RoCE always needs the GRH
};

/// Requester-side parameters for RTS.
struct RtsParams {
    std::uint32_t sq_psn = 0;
    std::uint8_t timeout = 14; ///< 4.096 µs * 2^timeout
    std::uint8_t retry_cnt = 7;
    std::uint8_t rnr_retry = 7; ///< 7 = infinite
    std::uint8_t max_rd_atomic = 1;
};

/// Result of one state transition: which attributes were set and why.
struct TransitionReport {
    ibv_qp_state from = IBV_QPS_RESET;
    ibv_qp_state to = IBV_QPS_RESET;
    int mask = 0;
    std::vector<std::string> mask_names;
    nlohmann::json attributes = nlohmann::json::object();
};

/// Attribute masks the IBTA state table requires and allows for a transition of a QP type.
struct TransitionMasks {
    int required = 0;
    int optional = 0;
};
TransitionMasks transition_masks(ibv_qp_type type, ibv_qp_state from, ibv_qp_state to);

/// A scatter/gather element.
struct Sge {
    std::uint64_t addr = 0;
    std::uint32_t length = 0;
    std::uint32_t lkey = 0;
};

class MemoryWindow;

/// What an IBV_WR_BIND_MW request (a type 2 window) or ibv_bind_mw (type 1) binds: a part of a region.
struct WindowBind {
    std::shared_ptr<MemoryWindow> window;
    std::shared_ptr<MemoryRegion> region;
    std::uint64_t addr = 0;   ///< the window's first byte (an address inside the region)
    std::uint64_t length = 0; ///< 0 unbinds a type 1 window
    unsigned access = 0;      ///< IBV_ACCESS_REMOTE_* the window grants
};

/// A send-queue work request.
struct SendRequest {
    std::uint64_t wr_id = 0;
    ibv_wr_opcode opcode = IBV_WR_SEND;
    std::vector<Sge> sges;
    bool signaled = true;
    bool inline_data = false;
    bool solicited = false;
    bool fence = false; ///< IBV_SEND_FENCE: wait for earlier READs and atomics before this request
    std::optional<std::uint32_t> imm_data; ///< host order; converted to network order when posted
    std::uint64_t remote_addr = 0;
    std::uint32_t rkey = 0;
    std::uint64_t compare_add = 0;     ///< CAS compare value or FAA add value
    std::uint64_t swap = 0;            ///< CAS swap value
    std::shared_ptr<AddressHandle> ah; ///< UD only
    std::uint32_t remote_qpn = 0;      ///< UD only
    std::uint32_t remote_qkey = 0;     ///< UD only
    std::uint32_t invalidate_rkey = 0; ///< LOCAL_INV, SEND_WITH_INV: the rkey to invalidate
    std::optional<WindowBind> bind;    ///< BIND_MW: the type 2 window and what it binds
    std::uint32_t bind_rkey = 0;       ///< BIND_MW: the window's new rkey (ibv_inc_rkey of the old one)
};

/// A receive-queue work request.
struct RecvRequest {
    std::uint64_t wr_id = 0;
    std::vector<Sge> sges;
};

/// A shared receive queue (ibv_create_srq): receive work requests that any QP created with it consumes.
class SharedReceiveQueue {
  public:
    /// Creates an SRQ of `max_wr` receives with `max_sge` entries each; the device may grant more
    /// (max_wr() tells).
    static std::shared_ptr<SharedReceiveQueue> create(std::shared_ptr<ProtectionDomain> pd,
                                                      std::uint32_t max_wr, std::uint32_t max_sge = 1);
    ~SharedReceiveQueue();
    SharedReceiveQueue(const SharedReceiveQueue&) = delete;
    SharedReceiveQueue& operator=(const SharedReceiveQueue&) = delete;

    ibv_srq* get() const { return srq_; }
    std::uint32_t handle() const { return srq_->handle; }
    std::uint32_t max_wr() const { return max_wr_; }
    std::uint32_t max_sge() const { return max_sge_; }
    const TraceScope& trace() const { return trace_; }
    const std::shared_ptr<ProtectionDomain>& pd() const { return pd_; }
    /// ibv_post_srq_recv of one receive, traced as a RECV post_wr event with `queue: srq`.
    void post_recv(const RecvRequest& request);
    /// Arms the limit (ibv_modify_srq, IBV_SRQ_LIMIT): when fewer than `limit` receives remain, the
    /// device raises IBV_EVENT_SRQ_LIMIT_REACHED once and disarms it (the limit reads 0 again).
    void arm_limit(std::uint32_t limit);
    /// ibv_query_srq: max_wr, max_sge and srq_limit (0: not armed).
    ibv_srq_attr query() const;

  private:
    SharedReceiveQueue(std::shared_ptr<ProtectionDomain> pd, ibv_srq* srq, std::uint32_t max_wr,
                       std::uint32_t max_sge, TraceScope trace);
    std::shared_ptr<ProtectionDomain> pd_;
    ibv_srq* srq_;
    std::uint32_t max_wr_;
    std::uint32_t max_sge_;
    TraceScope trace_;
};

/// A queue pair (ibv_create_qp) with each state transition as a named method.
class QueuePair {
  public:
    /// Creates a QP in RESET. Its events are attributed to the PD's endpoint, or to `endpoint` when given.
    static std::shared_ptr<QueuePair>
    create(std::shared_ptr<ProtectionDomain> pd, std::shared_ptr<CompletionQueue> send_cq,
           std::shared_ptr<CompletionQueue> recv_cq, ibv_qp_type type, const QpCapacity& capacity = {},
           Endpoint endpoint = Endpoint::None, std::shared_ptr<SharedReceiveQueue> srq = nullptr);
    /// Wraps a QP another library created on `pd` and these CQs (rdma_create_qp): `release` destroys it,
    /// traced as `release_verb`, instead of ibv_destroy_qp. Its state is read with ibv_query_qp.
    static std::shared_ptr<QueuePair> adopt(std::shared_ptr<ProtectionDomain> pd,
                                            std::shared_ptr<CompletionQueue> send_cq,
                                            std::shared_ptr<CompletionQueue> recv_cq, ibv_qp* qp,
                                            const QpCapacity& granted, Endpoint endpoint,
                                            std::function<void()> release, const char* release_verb);
    /// Creates a QP in RESET with ibv_create_qp_ex. `send_ops` (IBV_QP_EX_WITH_* bits) names the
    /// operations the extended posting API (ibv_wr_*) may post on it, e.g. IBV_QP_EX_WITH_ATOMIC_WRITE;
    /// the provider refuses a bit it does not implement. `xrcd`: the XRC domain of an XRC receive QP
    /// (kept alive by the QP). Traced as `ibv_create_qp_ex`.
    static std::shared_ptr<QueuePair> create_ex(std::shared_ptr<ProtectionDomain> pd,
                                                std::shared_ptr<CompletionQueue> send_cq,
                                                std::shared_ptr<CompletionQueue> recv_cq, ibv_qp_type type,
                                                const QpCapacity& capacity, std::uint64_t send_ops,
                                                std::shared_ptr<XrcDomain> xrcd = nullptr,
                                                Endpoint endpoint = Endpoint::None);
    ~QueuePair();
    QueuePair(const QueuePair&) = delete;
    QueuePair& operator=(const QueuePair&) = delete;

    ibv_qp* get() const { return qp_; }
    std::uint32_t qp_num() const { return qp_->qp_num; }
    ibv_qp_type type() const { return type_; }
    Endpoint endpoint() const { return trace_.endpoint; }
    const QpCapacity& capacity() const { return capacity_; }
    /// Current state as ibv_query_qp reports it.
    ibv_qp_state query_state() const;
    /// ibv_query_qp of the state, the PSNs, the destination QP number and the SQ-drain flag, traced.
    ibv_qp_attr query_attributes() const;
    /// The state this object last moved the QP to (no verbs call).
    ibv_qp_state last_known_state() const { return state_; }

    /// RESET->INIT: port, pkey index and access flags (RC/UC) or qkey (UD).
    TransitionReport to_init(std::uint8_t port, unsigned access_flags, std::uint16_t pkey_index = 0,
                             std::uint32_t qkey = 0x11111111);
    /// INIT->RTR: the path to the peer (RC/UC); UD needs only the state.
    TransitionReport to_rtr(const PathInfo& path);
    /// RTR->RTS: the requester's PSN and retry behaviour.
    TransitionReport to_rts(const RtsParams& params);
    /// RTS->SQD: drain the send queue (with SQ_DRAINED async notification).
    TransitionReport to_sqd();
    /// Any state -> ERR: flushes every outstanding work request.
    TransitionReport to_err();
    /// Any state -> RESET.
    TransitionReport to_reset();
    /// Raw ibv_modify_qp with a caller-chosen mask (for teaching what a wrong mask does).
    TransitionReport modify(ibv_qp_attr attr, int mask, const std::string& transition_name);

    void post_send(const SendRequest& request);
    /// Posts `requests` chained into one list, in one ibv_post_send call (one doorbell); traced as one
    /// post_wr event with `chain` (the number of requests) and `wr_ids`. On failure nothing after the
    /// refused request was posted.
    void post_send_list(std::span<const SendRequest> requests);
    void post_recv(const RecvRequest& request);
    /// Posts an Atomic Write (IBTA 1.5 Memory Placement Extensions: the 8 bytes of `value`, in host
    /// order, placed at `remote_addr` as one indivisible write) with the extended posting API
    /// (ibv_wr_start, ibv_wr_atomic_write, ibv_wr_complete). The QP must come from create_ex with
    /// IBV_QP_EX_WITH_ATOMIC_WRITE; otherwise an explained EOPNOTSUPP, without calling the provider.
    /// Traced as a post_wr event `ATOMIC_WRITE`.
    void post_atomic_write(std::uint64_t wr_id, std::uint32_t rkey, std::uint64_t remote_addr,
                           std::uint64_t value, bool signaled);
    /// The system calls the last post_send, post_send_list or post_recv made (with a meter attached).
    const SyscallTally& last_post_syscalls() const { return last_post_syscalls_; }
    /// While `meter` is attached (nullptr detaches), the events of ibv_post_send and ibv_post_recv carry
    /// the system calls the call made (`syscalls`).
    void count_syscalls(std::shared_ptr<const SyscallMeter> meter) { syscalls_ = std::move(meter); }

  private:
    /// ibv_query_qp's state, or the last known one when the query fails; never traced (error paths).
    ibv_qp_state current_state_quietly() const;
    ErrorInfo explain_post_send_error(int ret, const SendRequest& request) const;
    /// After a posted BIND_MW request: the window's key and range are what the request bound.
    static void record_bind(const SendRequest& request);
    ibv_send_wr to_ibv_send_wr(const SendRequest& request, std::vector<ibv_sge>& sges) const;
    QueuePair(std::shared_ptr<ProtectionDomain> pd, std::shared_ptr<CompletionQueue> send_cq,
              std::shared_ptr<CompletionQueue> recv_cq, std::shared_ptr<SharedReceiveQueue> srq, ibv_qp* qp,
              ibv_qp_type type, QpCapacity capacity, TraceScope trace);
    std::shared_ptr<ProtectionDomain> pd_;
    std::shared_ptr<CompletionQueue> send_cq_;
    std::shared_ptr<CompletionQueue> recv_cq_;
    std::shared_ptr<SharedReceiveQueue> srq_; ///< its receives come from here (no receive queue of its own)
    ibv_qp* qp_;
    ibv_qp_type type_;
    QpCapacity capacity_;
    TraceScope trace_;
    ibv_qp_state state_ = IBV_QPS_RESET;
    std::shared_ptr<const SyscallMeter> syscalls_;
    SyscallTally last_post_syscalls_;
    std::function<void()> release_; ///< adopt(): destroys the QP instead of ibv_destroy_qp
    const char* release_verb_ = "ibv_destroy_qp";
    std::uint64_t send_ops_ = 0;      ///< create_ex's IBV_QP_EX_WITH_* bits (0: created by create)
    std::shared_ptr<XrcDomain> xrcd_; ///< an XRC receive QP's domain, kept alive by the QP
};

/// A memory window (ibv_alloc_mw): a remote key for a part of a region, granted and revoked without
/// re-registering. Type 1 is bound with ibv_bind_mw; type 2 with an IBV_WR_BIND_MW work request
/// (QueuePair::post_send with SendRequest::bind) and revoked with LOCAL_INV or SEND_WITH_INV.
class MemoryWindow {
  public:
    static std::shared_ptr<MemoryWindow> alloc(std::shared_ptr<ProtectionDomain> pd, ibv_mw_type type);
    ~MemoryWindow();
    MemoryWindow(const MemoryWindow&) = delete;
    MemoryWindow& operator=(const MemoryWindow&) = delete;

    ibv_mw* get() const { return mw_; }
    ibv_mw_type type() const { return type_; }
    /// The key a peer uses for the window now (it changes with every bind).
    std::uint32_t rkey() const { return rkey_; }
    /// The key the next bind gives (ibv_inc_rkey: the same index, the next 8-bit tag).
    std::uint32_t next_rkey() const { return ibv_inc_rkey(rkey_); }
    /// What the last bind bound (length 0: unbound).
    std::uint64_t addr() const { return addr_; }
    std::uint64_t length() const { return length_; }
    /// Type 1: ibv_bind_mw through `qp` (RTS, same PD), which posts the bind on the QP's send queue; its
    /// completion (IBV_WC_BIND_MW) arrives on the send CQ when `signaled`. Returns the new rkey.
    std::uint32_t bind(QueuePair& qp, const WindowBind& bind, std::uint64_t wr_id, bool signaled = true);
    /// Records what a posted IBV_WR_BIND_MW request (type 2) bound: its key is the window's from now on.
    void bound(std::uint32_t rkey, std::uint64_t addr, std::uint64_t length);
    const std::shared_ptr<ProtectionDomain>& pd() const { return pd_; }

  private:
    MemoryWindow(std::shared_ptr<ProtectionDomain> pd, ibv_mw* mw, ibv_mw_type type);
    std::shared_ptr<ProtectionDomain> pd_;
    std::shared_ptr<MemoryRegion> region_; ///< the bound region is kept registered while bound
    ibv_mw* mw_;
    ibv_mw_type type_;
    std::uint32_t rkey_;
    std::uint64_t addr_ = 0;
    std::uint64_t length_ = 0;

    friend class QueuePair;
};

/// Connects two connected-mode QPs (RC or UC) to each other: RESET->INIT->RTR->RTS on both, A first.
/// `path` gives everything but the peer's QP number and PSN, which come from the other QP and `rts`.
void connect_pair(QueuePair& a, QueuePair& b, std::uint8_t port, unsigned access, PathInfo path,
                  const RtsParams& rts);

/// An XRC domain (ibv_open_xrcd): the object XRC receive QPs and XRC SRQs of several processes share,
/// so one connection per remote node serves every process of that node (IBTA Vol. 1, annex A14, XRC).
/// Devices without XRC (no IBV_DEVICE_XRC in ibv_query_device; SoftRoCE among them) refuse to open one.
class XrcDomain {
  public:
    /// Opens an XRC domain: `fd` -1 for a new domain private to this process (O_CREAT is implied), or a
    /// file whose inode names a domain shared with other processes (`oflags` O_CREAT creates it). Traced as
    /// `ibv_open_xrcd`; throws the explained RdmaError when the device refuses.
    static std::shared_ptr<XrcDomain> open(std::shared_ptr<Context> context, Endpoint endpoint, int fd = -1,
                                           int oflags = 0);
    ~XrcDomain();
    XrcDomain(const XrcDomain&) = delete;
    XrcDomain& operator=(const XrcDomain&) = delete;
    ibv_xrcd* get() const { return xrcd_; }
    const std::shared_ptr<Context>& context() const { return context_; }

  private:
    XrcDomain(std::shared_ptr<Context> context, ibv_xrcd* xrcd, TraceScope trace);
    std::shared_ptr<Context> context_;
    ibv_xrcd* xrcd_;
    TraceScope trace_;
};

/// Bits of ibv_device_attr_ex::device_cap_flags_ex and of ibv_qp_init_attr_ex::send_ops_flags from the
/// IBTA 1.5 Memory Placement Extensions (Atomic Write, Flush). The kernel's uAPI defines them
/// (IB_UVERBS_DEVICE_FLUSH_GLOBAL, _FLUSH_PERSISTENT, _ATOMIC_WRITE in rdma/ib_user_verbs.h, Linux 6.2;
/// IBV_QP_EX_WITH_FLUSH in rdma-core 45); rdma-core 44's headers, which the engine builds with, do not
/// name them all, so their ABI values are given here.
inline constexpr std::uint64_t kDeviceFlushGlobal = 1ULL << 38;
inline constexpr std::uint64_t kDeviceFlushPersistent = 1ULL << 39;
inline constexpr std::uint64_t kDeviceAtomicWrite = 1ULL << 40;
inline constexpr std::uint64_t kQpExWithFlush = 1ULL << 11;
inline constexpr std::uint64_t kQpExWithAtomicWrite = 1ULL << 12; ///< IBV_QP_EX_WITH_ATOMIC_WRITE

/// Textual GID ("::ffff:127.0.0.1").
std::string gid_to_string(const ibv_gid& gid);
/// Parses a textual GID; false on error.
bool gid_from_string(const std::string& text, ibv_gid& gid);

} // namespace rdmalab
