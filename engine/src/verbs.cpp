#include "rdmalab/verbs.hpp"

#include "rdmalab/device.hpp"
#include "rdmalab/names.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace rdmalab {

namespace {

std::uint64_t elapsed_since(std::uint64_t start) {
    return monotonic_ns() - start;
}

[[noreturn]] void fail(const TraceScope& scope, ErrorInfo info) {
    if (scope.on()) scope.record(EventKind::Error, info.verb, {}, info.to_json());
    throw RdmaError(std::move(info));
}

// Trace from destructors must never throw.
template <typename F> void noexcept_trace(F&& f) noexcept {
    try {
        f();
    } catch (...) {
    }
}

std::vector<ibv_sge> to_ibv_sges(const std::vector<Sge>& sges) {
    std::vector<ibv_sge> out;
    out.reserve(sges.size());
    for (const auto& s : sges)
        out.push_back({s.addr, s.length, s.lkey});
    return out;
}

nlohmann::json hex(std::uint64_t value) {
    return fmt::format("0x{:x}", value);
}

/// What in a QP's requested capacity exceeds the device's limits, for an ibv_create_qp failure.
std::string create_qp_problem(const Context& context, ibv_qp_type type, const QpCapacity& capacity, int err) {
    std::string detail = fmt::format("{} QP with {} send / {} recv WRs, {} / {} SGEs, inline {}",
                                     qp_type_name(type), capacity.max_send_wr, capacity.max_recv_wr,
                                     capacity.max_send_sge, capacity.max_recv_sge, capacity.max_inline_data);
    ibv_device_attr attr{};
    if (err != EINVAL || ibv_query_device(context.get(), &attr) != 0) return detail;
    std::vector<std::string> over;
    const auto max_wr = static_cast<std::uint32_t>(attr.max_qp_wr);
    const auto max_sge = static_cast<std::uint32_t>(attr.max_sge);
    if (capacity.max_send_wr > max_wr)
        over.push_back(fmt::format("max_send_wr {} > max_qp_wr {}", capacity.max_send_wr, max_wr));
    if (capacity.max_recv_wr > max_wr)
        over.push_back(fmt::format("max_recv_wr {} > max_qp_wr {}", capacity.max_recv_wr, max_wr));
    if (capacity.max_send_sge > max_sge)
        over.push_back(fmt::format("max_send_sge {} > max_sge {}", capacity.max_send_sge, max_sge));
    if (capacity.max_recv_sge > max_sge)
        over.push_back(fmt::format("max_recv_sge {} > max_sge {}", capacity.max_recv_sge, max_sge));
    if (over.empty())
        return detail +
               ": no limit of ibv_query_device is exceeded, so the likely culprit is max_inline_data (" +
               std::to_string(capacity.max_inline_data) +
               " bytes), whose limit the device does not report: try a smaller one";
    std::string text = detail + ": above the device's limits: ";
    for (std::size_t i = 0; i < over.size(); ++i)
        text += (i ? ", " : "") + over[i];
    return text;
}

/// Attribute values of a modify_qp call the IBTA or the port cannot accept, or empty.
std::string modify_qp_value_problems(const Context& context, const ibv_qp_attr& a, int mask) {
    std::vector<std::string> problems;
    if ((mask & IBV_QP_TIMEOUT) && a.timeout > 31)
        problems.push_back(
            fmt::format("timeout {} is above 31 (a 5-bit field: 4.096 us * 2^timeout)", a.timeout));
    if ((mask & IBV_QP_RETRY_CNT) && a.retry_cnt > 7)
        problems.push_back(fmt::format("retry_cnt {} is above 7 (a 3-bit field)", a.retry_cnt));
    if ((mask & IBV_QP_RNR_RETRY) && a.rnr_retry > 7)
        problems.push_back(
            fmt::format("rnr_retry {} is above 7 (a 3-bit field; 7 means retry forever)", a.rnr_retry));
    if ((mask & IBV_QP_MIN_RNR_TIMER) && a.min_rnr_timer > 31)
        problems.push_back(fmt::format("min_rnr_timer {} is above 31 (a 5-bit code)", a.min_rnr_timer));
    ibv_device_attr device{};
    const bool have_device = ibv_query_device(context.get(), &device) == 0;
    const std::uint8_t port = (mask & IBV_QP_PORT) ? a.port_num : std::uint8_t(1);
    if ((mask & IBV_QP_PORT) && have_device && (a.port_num < 1 || a.port_num > device.phys_port_cnt))
        problems.push_back(
            fmt::format("port_num {} does not exist (the device has port{} 1{})", a.port_num,
                        device.phys_port_cnt > 1 ? "s" : "",
                        device.phys_port_cnt > 1 ? fmt::format("..{}", device.phys_port_cnt) : ""));
    if (mask & IBV_QP_PATH_MTU) {
        ibv_port_attr port_attr{};
        if (a.path_mtu < IBV_MTU_256 || a.path_mtu > IBV_MTU_4096)
            problems.push_back(
                fmt::format("path_mtu code {} is not one of 1..5 (256..4096 bytes)", int(a.path_mtu)));
        else if (ibv_query_port(context.get(), port, &port_attr) == 0 && a.path_mtu > port_attr.active_mtu)
            problems.push_back(fmt::format("path_mtu {} is above the port's active MTU {}",
                                           mtu_bytes(a.path_mtu), mtu_bytes(port_attr.active_mtu)));
    }
    if ((mask & IBV_QP_MAX_QP_RD_ATOMIC) && have_device && a.max_rd_atomic > device.max_qp_init_rd_atom)
        problems.push_back(fmt::format("max_rd_atomic {} is above the device's max_qp_init_rd_atom {}",
                                       a.max_rd_atomic, device.max_qp_init_rd_atom));
    if ((mask & IBV_QP_MAX_DEST_RD_ATOMIC) && have_device && a.max_dest_rd_atomic > device.max_qp_rd_atom)
        problems.push_back(fmt::format("max_dest_rd_atomic {} is above the device's max_qp_rd_atom {}",
                                       a.max_dest_rd_atomic, device.max_qp_rd_atom));
    if ((mask & IBV_QP_AV) && a.ah_attr.is_global) {
        ibv_port_attr port_attr{};
        if (ibv_query_port(context.get(), a.ah_attr.port_num ? a.ah_attr.port_num : port, &port_attr) == 0 &&
            a.ah_attr.grh.sgid_index >= port_attr.gid_tbl_len)
            problems.push_back(fmt::format("sgid_index {} is beyond the port's GID table ({} entries)",
                                           a.ah_attr.grh.sgid_index, port_attr.gid_tbl_len));
    }
    std::string text;
    for (std::size_t i = 0; i < problems.size(); ++i)
        text += (i ? "; " : "") + problems[i];
    return text;
}

} // namespace

std::uint64_t TraceScope::record(EventKind kind, std::string name, nlohmann::json ids,
                                 nlohmann::json data) const {
    if (!tracer) return 0;
    return tracer->record(endpoint, kind, std::move(name), std::move(ids), std::move(data));
}

std::string gid_to_string(const ibv_gid& gid) {
    char text[INET6_ADDRSTRLEN] = {};
    if (inet_ntop(AF_INET6, gid.raw, text, sizeof text) == nullptr) return "?";
    return text;
}

bool gid_from_string(const std::string& text, ibv_gid& gid) {
    return inet_pton(AF_INET6, text.c_str(), gid.raw) == 1;
}

// ---------------------------------------------------------------- Context

Context::Context(ibv_context* context, bool owned, std::string name, std::shared_ptr<Tracer> tracer)
    : context_(context), owned_(owned), device_name_(std::move(name)), tracer_(std::move(tracer)) {
    // Non-blocking async fd so poll_async_events() never waits.
    const int flags = fcntl(context_->async_fd, F_GETFL);
    if (flags >= 0) fcntl(context_->async_fd, F_SETFL, flags | O_NONBLOCK);
}

std::shared_ptr<Context> Context::open(const std::string& device_name, std::shared_ptr<Tracer> tracer) {
    TraceScope scope{tracer, Endpoint::None};
    int count = 0;
    errno = 0;
    ibv_device** list = ibv_get_device_list(&count);
    const int list_errno = errno;
    std::vector<std::string> names;
    for (int i = 0; list != nullptr && i < count; ++i)
        names.emplace_back(ibv_get_device_name(list[i]));
    if (scope.on())
        scope.record(EventKind::Verb, "ibv_get_device_list", {},
                     {{"args", nlohmann::json::object()},
                      {"ret", list == nullptr ? -1 : count},
                      {"errno", list == nullptr ? list_errno : 0},
                      {"devices", names}});
    if (list == nullptr || count == 0) {
        if (list != nullptr) ibv_free_device_list(list);
        fail(scope, explain_no_device());
    }
    ibv_device* chosen = nullptr;
    for (int i = 0; i < count; ++i)
        if (device_name.empty() || device_name == ibv_get_device_name(list[i])) {
            chosen = list[i];
            break;
        }
    if (chosen == nullptr) {
        ibv_free_device_list(list);
        fail(scope, explain_device_not_found(device_name, names));
    }
    const std::string name = ibv_get_device_name(chosen);
    const auto start = monotonic_ns();
    ibv_context* context = ibv_open_device(chosen);
    const int open_errno = errno;
    ibv_free_device_list(list);
    if (scope.on())
        scope.record(EventKind::Verb, "ibv_open_device", {},
                     {{"args", {{"device", name}}},
                      {"ret", context != nullptr ? 0 : -1},
                      {"errno", context != nullptr ? 0 : open_errno},
                      {"dur_ns", elapsed_since(start)}});
    if (context == nullptr)
        fail(scope, explain_errno("ibv_open_device", open_errno,
                                  fmt::format("opening {} (/dev/infiniband/uverbs*)", name)));
    return std::shared_ptr<Context>(new Context(context, true, name, std::move(tracer)));
}

std::shared_ptr<Context> Context::borrow(ibv_context* context, std::shared_ptr<Tracer> tracer) {
    return std::shared_ptr<Context>(
        new Context(context, false, ibv_get_device_name(context->device), std::move(tracer)));
}

Context::~Context() {
    if (!owned_) return;
    const int ret = ibv_close_device(context_);
    noexcept_trace([&] {
        if (tracer_ && tracer_->enabled())
            tracer_->record(Endpoint::None, EventKind::Verb, "ibv_close_device", {},
                            {{"args", {{"device", device_name_}}}, {"ret", ret}});
    });
}

ibv_device_attr Context::query_device() const {
    ibv_device_attr attr{};
    const int ret = ibv_query_device(context_, &attr);
    if (ret != 0) fail(TraceScope{tracer_, Endpoint::None}, explain_errno("ibv_query_device", ret));
    return attr;
}

ibv_port_attr Context::query_port(std::uint8_t port) const {
    ibv_port_attr attr{};
    const int ret = ibv_query_port(context_, port, &attr);
    TraceScope scope{tracer_, Endpoint::None};
    if (scope.on())
        scope.record(EventKind::Verb, "ibv_query_port", {},
                     {{"args", {{"port", port}}},
                      {"ret", ret},
                      {"state", ret == 0 ? port_state_name(attr.state) : ""},
                      {"active_mtu", ret == 0 ? mtu_bytes(attr.active_mtu) : 0},
                      {"link_layer", ret == 0 ? link_layer_name(attr.link_layer) : ""}});
    if (ret != 0) fail(scope, explain_errno("ibv_query_port", ret, fmt::format("port {}", port)));
    return attr;
}

void Context::require_active_port(std::uint8_t port) const {
    const auto attr = query_port(port);
    if (attr.state != IBV_PORT_ACTIVE)
        fail(TraceScope{tracer_, Endpoint::None}, explain_port_not_active(device_name_, port, attr.state));
}

ibv_gid Context::query_gid(std::uint8_t port, int index) const {
    ibv_gid gid{};
    const int ret = ibv_query_gid(context_, port, index, &gid);
    if (ret != 0)
        fail(TraceScope{tracer_, Endpoint::None},
             explain_errno("ibv_query_gid", errno, fmt::format("port {} index {}", port, index)));
    return gid;
}

int Context::rocev2_gid_index(std::uint8_t port) const {
    const auto attr = query_port(port);
    PortInfo info;
    info.port = port;
    for (int i = 0; i < attr.gid_tbl_len; ++i) {
        ibv_gid_entry entry{};
        if (ibv_query_gid_ex(context_, port, static_cast<std::uint32_t>(i), &entry, 0) != 0) continue;
        GidEntry gid;
        gid.index = i;
        gid.gid = gid_to_string(entry.gid);
        gid.type = std::string(gid_type_name(entry.gid_type));
        info.gids.push_back(gid);
    }
    const auto index = pick_rocev2_gid(info);
    TraceScope scope{tracer_, Endpoint::None};
    if (!index) fail(scope, explain_no_rocev2_gid(device_name_, port));
    if (scope.on())
        scope.record(
            EventKind::Verb, "ibv_query_gid_ex", {},
            {{"args", {{"port", port}, {"index", *index}}},
             {"ret", 0},
             {"gid", info.gids[static_cast<std::size_t>(*index)].gid},
             {"type", "RoCE v2"},
             {"why", "first RoCE v2 GID of the port (IPv4-mapped preferred): RoCE v2 runs over UDP/IP "
                     "and can be routed"}});
    return *index;
}

void Context::register_qp(std::uint32_t qp_num, Endpoint endpoint) {
    std::lock_guard lock(qp_mutex_);
    qp_endpoints_[qp_num] = endpoint;
}

std::vector<AsyncEvent> Context::poll_async_events() {
    std::vector<AsyncEvent> events;
    for (;;) {
        ibv_async_event raw{};
        if (ibv_get_async_event(context_, &raw) != 0) break; // EAGAIN: nothing pending
        AsyncEvent event;
        event.type = raw.event_type;
        event.name = std::string(async_event_name(raw.event_type));
        event.meaning = std::string(async_event_meaning(raw.event_type));
        switch (raw.event_type) {
        case IBV_EVENT_QP_FATAL:
        case IBV_EVENT_QP_REQ_ERR:
        case IBV_EVENT_QP_ACCESS_ERR:
        case IBV_EVENT_COMM_EST:
        case IBV_EVENT_SQ_DRAINED:
        case IBV_EVENT_PATH_MIG:
        case IBV_EVENT_PATH_MIG_ERR:
        case IBV_EVENT_QP_LAST_WQE_REACHED:
            event.qp_num = raw.element.qp->qp_num;
            {
                std::lock_guard lock(qp_mutex_);
                auto it = qp_endpoints_.find(*event.qp_num);
                if (it != qp_endpoints_.end()) event.endpoint = it->second;
            }
            break;
        case IBV_EVENT_PORT_ACTIVE:
        case IBV_EVENT_PORT_ERR:
        case IBV_EVENT_LID_CHANGE:
        case IBV_EVENT_PKEY_CHANGE:
        case IBV_EVENT_SM_CHANGE:
        case IBV_EVENT_CLIENT_REREGISTER:
        case IBV_EVENT_GID_CHANGE:
            event.port = raw.element.port_num;
            break;
        default:
            break;
        }
        ibv_ack_async_event(&raw);
        if (tracer_ && tracer_->enabled()) {
            nlohmann::json ids = nlohmann::json::object();
            if (event.qp_num) ids["qpn"] = *event.qp_num;
            nlohmann::json data = {{"meaning", event.meaning}};
            if (event.port) data["port"] = *event.port;
            tracer_->record(event.endpoint, EventKind::Async, event.name, ids, data);
        }
        events.push_back(std::move(event));
    }
    return events;
}

// ---------------------------------------------------------------- ProtectionDomain

ProtectionDomain::ProtectionDomain(std::shared_ptr<Context> context, ibv_pd* pd, TraceScope trace)
    : context_(std::move(context)), pd_(pd), trace_(std::move(trace)) {}

std::shared_ptr<ProtectionDomain> ProtectionDomain::alloc(std::shared_ptr<Context> context,
                                                          Endpoint endpoint) {
    TraceScope scope{context->tracer(), endpoint};
    const auto start = monotonic_ns();
    ibv_pd* pd = ibv_alloc_pd(context->get());
    const int err = errno;
    if (scope.on())
        scope.record(EventKind::Verb, "ibv_alloc_pd",
                     pd ? nlohmann::json{{"pd", pd->handle}} : nlohmann::json{},
                     {{"args", {{"device", context->device_name()}}},
                      {"ret", pd ? 0 : -1},
                      {"errno", pd ? 0 : err},
                      {"dur_ns", elapsed_since(start)}});
    if (pd == nullptr) fail(scope, explain_errno("ibv_alloc_pd", err));
    return std::shared_ptr<ProtectionDomain>(new ProtectionDomain(std::move(context), pd, scope));
}

ProtectionDomain::~ProtectionDomain() {
    const std::uint32_t handle = pd_->handle;
    const int ret = ibv_dealloc_pd(pd_);
    noexcept_trace([&] {
        if (trace_.on()) trace_.record(EventKind::Verb, "ibv_dealloc_pd", {{"pd", handle}}, {{"ret", ret}});
    });
}

// ---------------------------------------------------------------- MemoryRegion

MemoryRegion::MemoryRegion(std::shared_ptr<ProtectionDomain> pd, ibv_mr* mr, unsigned access,
                           void* owned_buffer, std::string label)
    : pd_(std::move(pd)), mr_(mr), access_(access), owned_buffer_(owned_buffer), label_(std::move(label)) {}

std::shared_ptr<MemoryRegion> MemoryRegion::allocate(std::shared_ptr<ProtectionDomain> pd, std::size_t length,
                                                     unsigned access, std::string label) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t rounded = ((length == 0 ? 1 : length) + page - 1) / page * page;
    if (auto shortfall = explain_memory_shortfall(rounded, fmt::format("a buffer of {} bytes", length)))
        fail(pd->trace(), std::move(*shortfall));
    void* buffer = std::aligned_alloc(page, rounded);
    if (buffer == nullptr)
        fail(pd->trace(),
             explain_errno("aligned_alloc", ENOMEM, fmt::format("{} bytes for a buffer", length)));
    std::memset(buffer, 0, rounded);
    try {
        auto mr = register_memory(std::move(pd), buffer, length, access, std::move(label));
        mr->owned_buffer_ = buffer;
        return mr;
    } catch (...) {
        std::free(buffer);
        throw;
    }
}

std::shared_ptr<MemoryRegion> MemoryRegion::register_memory(std::shared_ptr<ProtectionDomain> pd,
                                                            void* address, std::size_t length,
                                                            unsigned access, std::string label) {
    const auto& scope = pd->trace();
    const auto start = monotonic_ns();
    errno = 0;
    ibv_mr* mr = ibv_reg_mr(pd->get(), address, length, static_cast<int>(access));
    const int err = errno;
    if (scope.on()) {
        nlohmann::json ids = {{"pd", pd->handle()}};
        if (mr) {
            ids["lkey"] = mr->lkey;
            ids["rkey"] = mr->rkey;
        }
        scope.record(EventKind::Verb, "ibv_reg_mr", ids,
                     {{"args",
                       {{"addr", hex(reinterpret_cast<std::uintptr_t>(address))},
                        {"length", length},
                        {"access", access_flag_names(access)}}},
                      {"ret", mr ? 0 : -1},
                      {"errno", mr ? 0 : err},
                      {"label", label},
                      {"dur_ns", elapsed_since(start)}});
    }
    if (mr == nullptr) fail(scope, explain_reg_mr_error(err, length, access));
    return std::shared_ptr<MemoryRegion>(
        new MemoryRegion(std::move(pd), mr, access, nullptr, std::move(label)));
}

nlohmann::json MemoryRegion::describe() const {
    return {{"label", label_},    {"addr", hex(address())}, {"length", length()},
            {"lkey", lkey()},     {"rkey", rkey()},         {"access", access_flag_names(access_)},
            {"pd", pd_->handle()}};
}

MemoryRegion::~MemoryRegion() {
    const std::uint32_t lkey = mr_->lkey;
    const std::uint32_t rkey = mr_->rkey;
    const int ret = ibv_dereg_mr(mr_);
    noexcept_trace([&] {
        if (pd_->trace().on())
            pd_->trace().record(EventKind::Verb, "ibv_dereg_mr", {{"lkey", lkey}, {"rkey", rkey}},
                                {{"ret", ret}, {"label", label_}});
    });
    std::free(owned_buffer_);
}

// ---------------------------------------------------------------- CompletionChannel

CompletionChannel::CompletionChannel(std::shared_ptr<Context> context, ibv_comp_channel* channel,
                                     TraceScope trace)
    : context_(std::move(context)), channel_(channel), trace_(std::move(trace)) {}

std::shared_ptr<CompletionChannel> CompletionChannel::create(std::shared_ptr<Context> context,
                                                             Endpoint endpoint) {
    TraceScope scope{context->tracer(), endpoint};
    ibv_comp_channel* channel = ibv_create_comp_channel(context->get());
    const int err = errno;
    if (scope.on())
        scope.record(EventKind::Verb, "ibv_create_comp_channel", {},
                     {{"ret", channel ? 0 : -1}, {"errno", channel ? 0 : err}});
    if (channel == nullptr) fail(scope, explain_errno("ibv_create_comp_channel", err));
    return std::shared_ptr<CompletionChannel>(new CompletionChannel(std::move(context), channel, scope));
}

CompletionChannel::~CompletionChannel() {
    const int ret = ibv_destroy_comp_channel(channel_);
    noexcept_trace([&] {
        if (trace_.on()) trace_.record(EventKind::Verb, "ibv_destroy_comp_channel", {}, {{"ret", ret}});
    });
}

// ---------------------------------------------------------------- CompletionQueue

nlohmann::json Completion::to_json() const {
    nlohmann::json j = {{"wr_id", wr_id},
                        {"status", wc_status_name(status)},
                        {"status_meaning", wc_status_meaning(status)},
                        {"opcode", ok() ? wc_opcode_name(opcode) : "(undefined: status is not success)"},
                        {"byte_len", byte_len},
                        {"qp_num", qp_num},
                        {"src_qp", src_qp},
                        {"vendor_err", vendor_err}};
    if (imm_data) j["imm_data"] = *imm_data;
    return j;
}

CompletionQueue::CompletionQueue(std::shared_ptr<Context> context, std::shared_ptr<CompletionChannel> channel,
                                 ibv_cq* cq, TraceScope trace)
    : context_(std::move(context)), channel_(std::move(channel)), cq_(cq), trace_(std::move(trace)) {}

std::shared_ptr<CompletionQueue> CompletionQueue::create(std::shared_ptr<Context> context, Endpoint endpoint,
                                                         int cqe,
                                                         std::shared_ptr<CompletionChannel> channel) {
    TraceScope scope{context->tracer(), endpoint};
    const auto start = monotonic_ns();
    ibv_cq* cq = ibv_create_cq(context->get(), cqe, nullptr, channel ? channel->get() : nullptr, 0);
    const int err = errno;
    if (scope.on())
        scope.record(EventKind::Verb, "ibv_create_cq",
                     cq ? nlohmann::json{{"cq", cq->handle}} : nlohmann::json{},
                     {{"args", {{"cqe", cqe}, {"event_mode", channel != nullptr}}},
                      {"ret", cq ? 0 : -1},
                      {"errno", cq ? 0 : err},
                      {"actual_cqe", cq ? cq->cqe : 0},
                      {"dur_ns", elapsed_since(start)}});
    if (cq == nullptr) {
        std::string detail = fmt::format("cqe={}", cqe);
        if (err == EINVAL) {
            ibv_device_attr attr{};
            if (cqe < 1)
                detail += ": a completion queue needs at least one entry";
            else if (ibv_query_device(context->get(), &attr) == 0 && cqe > attr.max_cqe)
                detail += fmt::format(" is above the device's max_cqe ({})", attr.max_cqe);
        }
        fail(scope, explain_errno("ibv_create_cq", err, detail));
    }
    return std::shared_ptr<CompletionQueue>(
        new CompletionQueue(std::move(context), std::move(channel), cq, scope));
}

CompletionQueue::~CompletionQueue() {
    if (unacked_events_ > 0) ibv_ack_cq_events(cq_, unacked_events_);
    const std::uint32_t handle = cq_->handle;
    const int ret = ibv_destroy_cq(cq_);
    noexcept_trace([&] {
        if (trace_.on()) trace_.record(EventKind::Verb, "ibv_destroy_cq", {{"cq", handle}}, {{"ret", ret}});
    });
}

std::vector<Completion> CompletionQueue::poll(int max) {
    std::vector<ibv_wc> wcs(static_cast<std::size_t>(max));
    const int n = ibv_poll_cq(cq_, max, wcs.data());
    if (n < 0) fail(trace_, explain_errno("ibv_poll_cq", -n == 0 ? EINVAL : -n, "polling the CQ"));
    if (n == 0) {
        ++empty_polls_;
        return {};
    }
    std::vector<Completion> result;
    result.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        const ibv_wc& wc = wcs[static_cast<std::size_t>(i)];
        Completion c;
        c.wr_id = wc.wr_id;
        c.status = wc.status;
        c.opcode = wc.opcode;
        c.byte_len = wc.byte_len;
        if (wc.status == IBV_WC_SUCCESS && (wc.wc_flags & IBV_WC_WITH_IMM)) c.imm_data = ntohl(wc.imm_data);
        c.qp_num = wc.qp_num;
        c.src_qp = wc.src_qp;
        c.vendor_err = wc.vendor_err;
        c.wc_flags = wc.wc_flags;
        result.push_back(c);
    }
    if (trace_.on()) {
        trace_.record(EventKind::Verb, "ibv_poll_cq", {{"cq", cq_->handle}},
                      {{"args", {{"num_entries", max}}}, {"ret", n}, {"empty_polls_before", empty_polls_}});
        for (const auto& c : result)
            trace_.record(EventKind::Wc, std::string(wc_status_name(c.status)),
                          {{"cq", cq_->handle}, {"qpn", c.qp_num}, {"wr_id", c.wr_id}}, c.to_json());
    }
    empty_polls_ = 0;
    return result;
}

std::vector<Completion> CompletionQueue::poll_until(std::size_t count, std::chrono::milliseconds timeout) {
    std::vector<Completion> result;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (result.size() < count) {
        auto batch = poll(static_cast<int>(count - result.size()));
        result.insert(result.end(), batch.begin(), batch.end());
        if (batch.empty() && std::chrono::steady_clock::now() > deadline) break;
    }
    return result;
}

void CompletionQueue::request_notify(bool solicited_only) {
    const int ret = ibv_req_notify_cq(cq_, solicited_only ? 1 : 0);
    if (trace_.on())
        trace_.record(EventKind::Verb, "ibv_req_notify_cq", {{"cq", cq_->handle}},
                      {{"args", {{"solicited_only", solicited_only}}}, {"ret", ret}});
    if (ret != 0) fail(trace_, explain_errno("ibv_req_notify_cq", ret));
}

bool CompletionQueue::wait_event(std::chrono::milliseconds timeout) {
    if (!channel_)
        fail(trace_, ErrorInfo{"ibv_get_cq_event", EINVAL, "EINVAL", "the CQ has no completion channel",
                               "wait_event() was called on a CQ created for busy polling",
                               "Create the CQ with a CompletionChannel to use event mode."});
    pollfd pfd{channel_->get()->fd, POLLIN, 0};
    const int ready = ::poll(&pfd, 1, static_cast<int>(timeout.count()));
    if (ready <= 0) return false;
    ibv_cq* event_cq = nullptr;
    void* cq_context = nullptr;
    const int ret = ibv_get_cq_event(channel_->get(), &event_cq, &cq_context);
    if (trace_.on())
        trace_.record(EventKind::Verb, "ibv_get_cq_event", {{"cq", cq_->handle}}, {{"ret", ret}});
    if (ret != 0) fail(trace_, explain_errno("ibv_get_cq_event", errno));
    ++unacked_events_;
    // Acknowledge in batches as ibv_get_cq_event(3) recommends; destroy acks the rest.
    if (unacked_events_ >= 16) {
        ibv_ack_cq_events(cq_, unacked_events_);
        unacked_events_ = 0;
    }
    request_notify();
    return true;
}

// ---------------------------------------------------------------- AddressHandle

AddressHandle::AddressHandle(std::shared_ptr<ProtectionDomain> pd, ibv_ah* ah)
    : pd_(std::move(pd)), ah_(ah) {}

std::shared_ptr<AddressHandle> AddressHandle::create(std::shared_ptr<ProtectionDomain> pd,
                                                     const ibv_ah_attr& attr) {
    ibv_ah_attr copy = attr;
    ibv_ah* ah = ibv_create_ah(pd->get(), &copy);
    const int err = errno;
    const auto& scope = pd->trace();
    if (scope.on())
        scope.record(EventKind::Verb, "ibv_create_ah", {{"pd", pd->handle()}},
                     {{"args",
                       {{"is_global", attr.is_global},
                        {"dgid", gid_to_string(attr.grh.dgid)},
                        {"sgid_index", attr.grh.sgid_index},
                        {"port", attr.port_num}}},
                      {"ret", ah ? 0 : -1},
                      {"errno", ah ? 0 : err}});
    if (ah == nullptr) fail(scope, explain_errno("ibv_create_ah", err));
    return std::shared_ptr<AddressHandle>(new AddressHandle(std::move(pd), ah));
}

AddressHandle::~AddressHandle() {
    const int ret = ibv_destroy_ah(ah_);
    noexcept_trace([&] {
        if (pd_->trace().on()) pd_->trace().record(EventKind::Verb, "ibv_destroy_ah", {}, {{"ret", ret}});
    });
}

// ---------------------------------------------------------------- QueuePair

TransitionMasks transition_masks(ibv_qp_type type, ibv_qp_state from, ibv_qp_state to) {
    // The IBTA QP state table (vol. 1, 11.2.5.2), as the Linux kernel enforces it (ib_modify_qp_is_ok).
    TransitionMasks m;
    const bool ud = type == IBV_QPT_UD;
    const bool rc = type == IBV_QPT_RC;
    if (to == IBV_QPS_RESET || to == IBV_QPS_ERR) return m;
    if (from == IBV_QPS_RESET && to == IBV_QPS_INIT) {
        m.required = IBV_QP_PKEY_INDEX | IBV_QP_PORT | (ud ? IBV_QP_QKEY : IBV_QP_ACCESS_FLAGS);
    } else if (from == IBV_QPS_INIT && to == IBV_QPS_RTR) {
        if (rc)
            m.required = IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                         IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
        else if (!ud)
            m.required = IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
        m.optional = ud ? (IBV_QP_PKEY_INDEX | IBV_QP_QKEY)
                        : (IBV_QP_ALT_PATH | IBV_QP_ACCESS_FLAGS | IBV_QP_PKEY_INDEX);
    } else if (from == IBV_QPS_RTR && to == IBV_QPS_RTS) {
        m.required = rc ? (IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
                           IBV_QP_MAX_QP_RD_ATOMIC)
                        : IBV_QP_SQ_PSN;
        m.optional = ud ? (IBV_QP_CUR_STATE | IBV_QP_QKEY)
                        : (IBV_QP_CUR_STATE | IBV_QP_ALT_PATH | IBV_QP_ACCESS_FLAGS | IBV_QP_PATH_MIG_STATE |
                           (rc ? IBV_QP_MIN_RNR_TIMER : 0));
    } else if (from == IBV_QPS_RTS && to == IBV_QPS_SQD) {
        m.optional = IBV_QP_EN_SQD_ASYNC_NOTIFY;
    }
    return m;
}

QueuePair::QueuePair(std::shared_ptr<ProtectionDomain> pd, std::shared_ptr<CompletionQueue> send_cq,
                     std::shared_ptr<CompletionQueue> recv_cq, ibv_qp* qp, ibv_qp_type type,
                     QpCapacity capacity, TraceScope trace)
    : pd_(std::move(pd)), send_cq_(std::move(send_cq)), recv_cq_(std::move(recv_cq)), qp_(qp), type_(type),
      capacity_(capacity), trace_(std::move(trace)) {}

std::shared_ptr<QueuePair> QueuePair::create(std::shared_ptr<ProtectionDomain> pd,
                                             std::shared_ptr<CompletionQueue> send_cq,
                                             std::shared_ptr<CompletionQueue> recv_cq, ibv_qp_type type,
                                             const QpCapacity& capacity) {
    ibv_qp_init_attr init{};
    init.send_cq = send_cq->get();
    init.recv_cq = recv_cq->get();
    init.qp_type = type;
    init.sq_sig_all = 0;
    init.cap.max_send_wr = capacity.max_send_wr;
    init.cap.max_recv_wr = capacity.max_recv_wr;
    init.cap.max_send_sge = capacity.max_send_sge;
    init.cap.max_recv_sge = capacity.max_recv_sge;
    init.cap.max_inline_data = capacity.max_inline_data;
    const auto& scope = pd->trace();
    const auto start = monotonic_ns();
    ibv_qp* qp = ibv_create_qp(pd->get(), &init);
    const int err = errno;
    if (scope.on()) {
        nlohmann::json ids = {{"pd", pd->handle()}, {"send_cq", send_cq->id()}, {"recv_cq", recv_cq->id()}};
        if (qp) ids["qpn"] = qp->qp_num;
        scope.record(EventKind::Verb, "ibv_create_qp", ids,
                     {{"args",
                       {{"qp_type", qp_type_name(type)},
                        {"max_send_wr", capacity.max_send_wr},
                        {"max_recv_wr", capacity.max_recv_wr},
                        {"max_send_sge", capacity.max_send_sge},
                        {"max_recv_sge", capacity.max_recv_sge},
                        {"max_inline_data", capacity.max_inline_data}}},
                      {"ret", qp ? 0 : -1},
                      {"errno", qp ? 0 : err},
                      {"state", "RESET"},
                      {"dur_ns", elapsed_since(start)}});
    }
    if (qp == nullptr)
        fail(scope,
             explain_errno("ibv_create_qp", err, create_qp_problem(*pd->context(), type, capacity, err)));
    // The device may round every capacity up: keep what it granted, which is what post_send checks against.
    QpCapacity actual;
    actual.max_send_wr = init.cap.max_send_wr;
    actual.max_recv_wr = init.cap.max_recv_wr;
    actual.max_send_sge = init.cap.max_send_sge;
    actual.max_recv_sge = init.cap.max_recv_sge;
    actual.max_inline_data = init.cap.max_inline_data;
    pd->context()->register_qp(qp->qp_num, scope.endpoint);
    return std::shared_ptr<QueuePair>(
        new QueuePair(std::move(pd), std::move(send_cq), std::move(recv_cq), qp, type, actual, scope));
}

QueuePair::~QueuePair() {
    const std::uint32_t qpn = qp_->qp_num;
    const int ret = ibv_destroy_qp(qp_);
    noexcept_trace([&] {
        if (trace_.on()) trace_.record(EventKind::Verb, "ibv_destroy_qp", {{"qpn", qpn}}, {{"ret", ret}});
    });
}

ibv_qp_state QueuePair::query_state() const {
    ibv_qp_attr attr{};
    ibv_qp_init_attr init{};
    const int ret = ibv_query_qp(qp_, &attr, IBV_QP_STATE, &init);
    if (trace_.on())
        trace_.record(EventKind::Verb, "ibv_query_qp", {{"qpn", qp_->qp_num}},
                      {{"args", {{"attr_mask", {"STATE"}}}},
                       {"ret", ret},
                       {"state", ret == 0 ? qp_state_name(attr.qp_state) : ""}});
    if (ret != 0) fail(trace_, explain_errno("ibv_query_qp", ret));
    return attr.qp_state;
}

namespace {
nlohmann::json attributes_json(const ibv_qp_attr& a, int mask) {
    nlohmann::json j = nlohmann::json::object();
    if (mask & IBV_QP_STATE) j["qp_state"] = qp_state_name(a.qp_state);
    if (mask & IBV_QP_PKEY_INDEX) j["pkey_index"] = a.pkey_index;
    if (mask & IBV_QP_PORT) j["port_num"] = a.port_num;
    if (mask & IBV_QP_ACCESS_FLAGS) j["qp_access_flags"] = access_flag_names(a.qp_access_flags);
    if (mask & IBV_QP_QKEY) j["qkey"] = fmt::format("0x{:x}", a.qkey);
    if (mask & IBV_QP_AV) {
        j["ah_attr"] = {{"is_global", a.ah_attr.is_global},
                        {"dgid", gid_to_string(a.ah_attr.grh.dgid)},
                        {"sgid_index", a.ah_attr.grh.sgid_index},
                        {"hop_limit", a.ah_attr.grh.hop_limit},
                        {"dlid", a.ah_attr.dlid},
                        {"port_num", a.ah_attr.port_num}};
    }
    if (mask & IBV_QP_PATH_MTU) j["path_mtu"] = mtu_bytes(a.path_mtu);
    if (mask & IBV_QP_DEST_QPN) j["dest_qp_num"] = a.dest_qp_num;
    if (mask & IBV_QP_RQ_PSN) j["rq_psn"] = a.rq_psn;
    if (mask & IBV_QP_MAX_DEST_RD_ATOMIC) j["max_dest_rd_atomic"] = a.max_dest_rd_atomic;
    if (mask & IBV_QP_MIN_RNR_TIMER) j["min_rnr_timer"] = a.min_rnr_timer;
    if (mask & IBV_QP_SQ_PSN) j["sq_psn"] = a.sq_psn;
    if (mask & IBV_QP_TIMEOUT) j["timeout"] = a.timeout;
    if (mask & IBV_QP_RETRY_CNT) j["retry_cnt"] = a.retry_cnt;
    if (mask & IBV_QP_RNR_RETRY) j["rnr_retry"] = a.rnr_retry;
    if (mask & IBV_QP_MAX_QP_RD_ATOMIC) j["max_rd_atomic"] = a.max_rd_atomic;
    if (mask & IBV_QP_EN_SQD_ASYNC_NOTIFY) j["en_sqd_async_notify"] = a.en_sqd_async_notify;
    return j;
}
} // namespace

TransitionReport QueuePair::modify(ibv_qp_attr attr, int mask, const std::string& transition_name) {
    const ibv_qp_state from = state_;
    const ibv_qp_state to = attr.qp_state;
    TransitionReport report;
    report.from = from;
    report.to = to;
    report.mask = mask;
    report.mask_names = qp_attr_mask_names(mask);
    report.attributes = attributes_json(attr, mask);
    const auto start = monotonic_ns();
    const int ret = ibv_modify_qp(qp_, &attr, mask);
    const auto masks = transition_masks(type_, from, to);
    if (trace_.on())
        trace_.record(EventKind::QpState, transition_name, {{"qpn", qp_->qp_num}},
                      {{"verb", "ibv_modify_qp"},
                       {"from", qp_state_name(from)},
                       {"to", qp_state_name(to)},
                       {"qp_type", qp_type_name(type_)},
                       {"attr_mask", report.mask_names},
                       {"required_mask", qp_attr_mask_names(masks.required | IBV_QP_STATE)},
                       {"attrs", report.attributes},
                       {"ret", ret},
                       {"dur_ns", elapsed_since(start)}});
    if (ret != 0) {
        ErrorInfo info = explain_modify_qp_error(ret, type_, from, to, mask, masks.required | IBV_QP_STATE,
                                                 masks.optional);
        const std::string values = ret == EINVAL ? modify_qp_value_problems(*pd_->context(), attr, mask) : "";
        if (!values.empty() && info.cause.find("attribute mask") == std::string::npos) {
            info.cause = fmt::format("{} {}->{}: {}.", qp_type_name(type_), qp_state_name(from),
                                     qp_state_name(to), values);
            info.fix = "Use values within those ranges (see `rdmalab-cli devices` for the device's limits).";
        }
        fail(trace_, info);
    }
    state_ = to;
    return report;
}

TransitionReport QueuePair::to_init(std::uint8_t port, unsigned access_flags, std::uint16_t pkey_index,
                                    std::uint32_t qkey) {
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_INIT;
    attr.pkey_index = pkey_index;
    attr.port_num = port;
    int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;
    if (type_ == IBV_QPT_UD) {
        attr.qkey = qkey;
        mask |= IBV_QP_QKEY;
    } else {
        attr.qp_access_flags = access_flags;
        mask |= IBV_QP_ACCESS_FLAGS;
    }
    return modify(attr, mask, "RESET->INIT");
}

TransitionReport QueuePair::to_rtr(const PathInfo& path) {
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_RTR;
    int mask = IBV_QP_STATE;
    if (type_ != IBV_QPT_UD) {
        attr.path_mtu = path.path_mtu;
        attr.dest_qp_num = path.remote_qpn;
        attr.rq_psn = path.remote_psn;
        attr.ah_attr.is_global = path.use_grh ? 1 : 0;
        attr.ah_attr.dlid = path.remote_lid;
        attr.ah_attr.sl = 0;
        attr.ah_attr.src_path_bits = 0;
        attr.ah_attr.port_num = path.port;
        if (path.use_grh) {
            attr.ah_attr.grh.dgid = path.remote_gid;
            attr.ah_attr.grh.sgid_index = static_cast<std::uint8_t>(path.sgid_index);
            attr.ah_attr.grh.hop_limit = 1;
        }
        mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
        if (type_ == IBV_QPT_RC) {
            attr.max_dest_rd_atomic = path.max_dest_rd_atomic;
            attr.min_rnr_timer = path.min_rnr_timer;
            mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
        }
    }
    return modify(attr, mask, "INIT->RTR");
}

TransitionReport QueuePair::to_rts(const RtsParams& params) {
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_RTS;
    attr.sq_psn = params.sq_psn;
    int mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
    if (type_ == IBV_QPT_RC) {
        attr.timeout = params.timeout;
        attr.retry_cnt = params.retry_cnt;
        attr.rnr_retry = params.rnr_retry;
        attr.max_rd_atomic = params.max_rd_atomic;
        mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;
    }
    return modify(attr, mask, "RTR->RTS");
}

TransitionReport QueuePair::to_sqd() {
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_SQD;
    attr.en_sqd_async_notify = 1;
    return modify(attr, IBV_QP_STATE | IBV_QP_EN_SQD_ASYNC_NOTIFY, "RTS->SQD");
}

TransitionReport QueuePair::to_err() {
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_ERR;
    return modify(attr, IBV_QP_STATE, fmt::format("{}->ERR", qp_state_name(state_)));
}

TransitionReport QueuePair::to_reset() {
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_RESET;
    return modify(attr, IBV_QP_STATE, fmt::format("{}->RESET", qp_state_name(state_)));
}

void connect_pair(QueuePair& a, QueuePair& b, std::uint8_t port, unsigned access, PathInfo path,
                  const RtsParams& rts) {
    a.to_init(port, access);
    b.to_init(port, access);
    path.port = port;
    path.remote_psn = rts.sq_psn; // both sides start at the same PSN
    path.remote_qpn = b.qp_num();
    a.to_rtr(path);
    path.remote_qpn = a.qp_num();
    b.to_rtr(path);
    a.to_rts(rts);
    b.to_rts(rts);
}

void QueuePair::post_send(const SendRequest& request) {
    std::vector<ibv_sge> sges = to_ibv_sges(request.sges);
    ibv_send_wr wr{};
    wr.wr_id = request.wr_id;
    wr.sg_list = sges.empty() ? nullptr : sges.data();
    wr.num_sge = static_cast<int>(sges.size());
    wr.opcode = request.opcode;
    unsigned flags = 0;
    if (request.signaled) flags |= IBV_SEND_SIGNALED;
    if (request.inline_data) flags |= IBV_SEND_INLINE;
    if (request.solicited) flags |= IBV_SEND_SOLICITED;
    wr.send_flags = flags;
    if (request.imm_data) wr.imm_data = htonl(*request.imm_data);
    switch (request.opcode) {
    case IBV_WR_RDMA_WRITE:
    case IBV_WR_RDMA_WRITE_WITH_IMM:
    case IBV_WR_RDMA_READ:
        wr.wr.rdma.remote_addr = request.remote_addr;
        wr.wr.rdma.rkey = request.rkey;
        break;
    case IBV_WR_ATOMIC_CMP_AND_SWP:
    case IBV_WR_ATOMIC_FETCH_AND_ADD:
        wr.wr.atomic.remote_addr = request.remote_addr;
        wr.wr.atomic.rkey = request.rkey;
        wr.wr.atomic.compare_add = request.compare_add;
        wr.wr.atomic.swap = request.swap;
        break;
    default:
        break;
    }
    if (type_ == IBV_QPT_UD && request.ah) {
        wr.wr.ud.ah = request.ah->get();
        wr.wr.ud.remote_qpn = request.remote_qpn;
        wr.wr.ud.remote_qkey = request.remote_qkey;
    }
    ibv_send_wr* bad = nullptr;
    const int ret = ibv_post_send(qp_, &wr, &bad);
    if (trace_.on()) {
        nlohmann::json data = {{"verb", "ibv_post_send"},
                               {"queue", "send"},
                               {"opcode", wr_opcode_name(request.opcode)},
                               {"signaled", request.signaled},
                               {"inline", request.inline_data},
                               {"ret", ret}};
        nlohmann::json sg = nlohmann::json::array();
        std::uint64_t total = 0;
        for (const auto& s : request.sges) {
            sg.push_back({{"addr", hex(s.addr)}, {"length", s.length}, {"lkey", s.lkey}});
            total += s.length;
        }
        data["sg_list"] = sg;
        data["length"] = total;
        if (request.imm_data) data["imm_data"] = *request.imm_data;
        nlohmann::json ids = {{"qpn", qp_->qp_num}, {"wr_id", request.wr_id}};
        if (!request.sges.empty()) ids["lkey"] = request.sges.front().lkey;
        if (request.opcode != IBV_WR_SEND && request.opcode != IBV_WR_SEND_WITH_IMM) {
            data["remote_addr"] = hex(request.remote_addr);
            ids["rkey"] = request.rkey;
        }
        if (request.opcode == IBV_WR_ATOMIC_CMP_AND_SWP) {
            data["compare"] = request.compare_add;
            data["swap"] = request.swap;
        } else if (request.opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) {
            data["add"] = request.compare_add;
        }
        trace_.record(EventKind::PostWr, std::string(wr_opcode_name(request.opcode)), ids, data);
    }
    if (ret != 0) fail(trace_, explain_post_send_error(ret, request));
}

void QueuePair::post_recv(const RecvRequest& request) {
    std::vector<ibv_sge> sges = to_ibv_sges(request.sges);
    ibv_recv_wr wr{};
    wr.wr_id = request.wr_id;
    wr.sg_list = sges.empty() ? nullptr : sges.data();
    wr.num_sge = static_cast<int>(sges.size());
    ibv_recv_wr* bad = nullptr;
    const int ret = ibv_post_recv(qp_, &wr, &bad);
    if (trace_.on()) {
        nlohmann::json sg = nlohmann::json::array();
        std::uint64_t total = 0;
        for (const auto& s : request.sges) {
            sg.push_back({{"addr", hex(s.addr)}, {"length", s.length}, {"lkey", s.lkey}});
            total += s.length;
        }
        nlohmann::json ids = {{"qpn", qp_->qp_num}, {"wr_id", request.wr_id}};
        if (!request.sges.empty()) ids["lkey"] = request.sges.front().lkey;
        trace_.record(
            EventKind::PostWr, "RECV", ids,
            {{"verb", "ibv_post_recv"}, {"queue", "recv"}, {"sg_list", sg}, {"length", total}, {"ret", ret}});
    }
    if (ret != 0) {
        const ibv_qp_state state = current_state_quietly();
        const std::string detail =
            fmt::format("posting a receive on QP {} in state {}", qp_->qp_num, qp_state_name(state));
        ErrorInfo info = explain_errno("ibv_post_recv", ret, detail);
        if (ret == EINVAL && state == IBV_QPS_RESET) {
            info.cause = detail + ": a QP takes receive work requests from INIT on (and in RTR, RTS, SQD, "
                                  "SQE; in ERR they are flushed), never in RESET.";
            info.fix = "Move the QP to INIT (ibv_modify_qp) before posting receives.";
        } else if (ret == EINVAL && request.sges.size() > capacity_.max_recv_sge) {
            info.cause = fmt::format("{}: num_sge {} is above the QP's max_recv_sge {}.", detail,
                                     request.sges.size(), capacity_.max_recv_sge);
            info.fix = "Use fewer scatter/gather entries, or create the QP with a larger max_recv_sge.";
        } else if (ret == ENOMEM) {
            info.cause = fmt::format("{}: the receive queue is full ({} receives outstanding, max_recv_wr).",
                                     detail, capacity_.max_recv_wr);
            info.fix =
                "Let receives complete (poll the CQ) before posting more, or create the QP with a larger "
                "max_recv_wr.";
        }
        fail(trace_, info);
    }
}

ibv_qp_state QueuePair::current_state_quietly() const {
    ibv_qp_attr attr{};
    ibv_qp_init_attr init{};
    return ibv_query_qp(qp_, &attr, IBV_QP_STATE, &init) == 0 ? attr.qp_state : state_;
}

ErrorInfo QueuePair::explain_post_send_error(int ret, const SendRequest& request) const {
    const ibv_qp_state state = current_state_quietly();
    const std::string detail = fmt::format("posting {} on QP {} in state {}", wr_opcode_name(request.opcode),
                                           qp_->qp_num, qp_state_name(state));
    ErrorInfo info = explain_errno("ibv_post_send", ret, detail);
    std::uint64_t total = 0;
    for (const auto& sge : request.sges)
        total += sge.length;
    const bool atomic =
        request.opcode == IBV_WR_ATOMIC_CMP_AND_SWP || request.opcode == IBV_WR_ATOMIC_FETCH_AND_ADD;
    if (ret == EINVAL && (state == IBV_QPS_RESET || state == IBV_QPS_INIT || state == IBV_QPS_RTR)) {
        info.cause = detail + ": a QP takes send work requests in RTS and SQD (and in SQE and ERR, where "
                              "they complete with WR_FLUSH_ERR), never in RESET, INIT or RTR.";
        info.fix = "Finish the RESET->INIT->RTR->RTS transitions before posting sends.";
    } else if ((ret == EINVAL || ret == ENOMEM) && request.sges.size() > capacity_.max_send_sge) {
        info.cause = fmt::format("{}: num_sge {} is above the QP's max_send_sge {}.", detail,
                                 request.sges.size(), capacity_.max_send_sge);
        info.fix = "Use fewer scatter/gather entries, or create the QP with a larger max_send_sge.";
    } else if ((ret == EINVAL || ret == ENOMEM) && request.inline_data && total > capacity_.max_inline_data) {
        info.cause = fmt::format("{}: the inline payload of {} bytes is above the QP's max_inline_data {}.",
                                 detail, total, capacity_.max_inline_data);
        info.fix = "Send it without IBV_SEND_INLINE (the NIC then reads it from the registered buffer), or "
                   "create the QP with a larger max_inline_data.";
    } else if (ret == EINVAL && atomic && request.remote_addr % 8 != 0) {
        info.cause =
            fmt::format("{}: the remote address 0x{:x} is not 8-byte aligned; atomic operations work "
                        "on one aligned 64-bit word.",
                        detail, request.remote_addr);
        info.fix = "Use a remote address that is a multiple of 8.";
    } else if (ret == EINVAL && atomic && total != 8) {
        info.cause = fmt::format("{}: an atomic operation needs exactly one 8-byte local buffer for the "
                                 "original value, not {} bytes.",
                                 detail, total);
        info.fix = "Give the atomic one scatter/gather entry of length 8.";
    } else if (ret == ENOMEM) {
        info.cause = fmt::format("{}: the send queue is full ({} requests outstanding, max_send_wr).", detail,
                                 capacity_.max_send_wr);
        info.fix = "Poll completions before posting more (a request leaves the queue when it completes), or "
                   "create the QP with a larger max_send_wr.";
    }
    return info;
}

} // namespace rdmalab
