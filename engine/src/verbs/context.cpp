// Context: opening a device, its queries and its asynchronous events; the trace scope and GID text.
#include "rdmalab/engine/device.hpp"
#include "rdmalab/engine/names.hpp"
#include "rdmalab/engine/verbs.hpp"
#include "verbs/traced_call.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <memory>

namespace rdmalab {

using namespace detail;

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

Context::Context(ibv_context* context, bool owned, std::string name, std::shared_ptr<Tracer> tracer)
    : context_(context), owned_(owned), device_name_(std::move(name)), tracer_(std::move(tracer)) {
    // Non-blocking async fd so poll_async_events() never waits.
    const int flags = fcntl(context_->async_fd, F_GETFL);
    if (flags >= 0) fcntl(context_->async_fd, F_SETFL, flags | O_NONBLOCK);
}

std::shared_ptr<Context> Context::open(const std::string& device_name, std::shared_ptr<Tracer> tracer) {
    TraceScope scope{tracer, Endpoint::None};
    int count = 0;
    std::vector<std::string> names;
    ibv_device** list = traced_call(
        VerbCall{.scope = scope, .verb = "ibv_get_device_list"},
        [&] {
            errno = 0;
            ibv_device** devices = ibv_get_device_list(&count);
            for (int i = 0; devices != nullptr && i < count; ++i)
                names.emplace_back(ibv_get_device_name(devices[i]));
            return devices;
        },
        [&](const auto& call, nlohmann::json&, nlohmann::json& data) {
            data["args"] = nlohmann::json::object();
            data["ret"] = call.ok() ? count : -1; // the number of devices, not 0
            data["devices"] = names;
        },
        [](const auto&) { return explain_no_device(); });
    const std::unique_ptr<ibv_device*, decltype(&ibv_free_device_list)> guard(list, &ibv_free_device_list);
    if (count == 0) fail(scope, explain_no_device());
    ibv_device* chosen = nullptr;
    for (int i = 0; i < count; ++i)
        if (device_name.empty() || device_name == ibv_get_device_name(list[i])) {
            chosen = list[i];
            break;
        }
    if (chosen == nullptr) fail(scope, explain_device_not_found(device_name, names));
    const std::string name = ibv_get_device_name(chosen);
    ibv_context* context = traced_call(
        VerbCall{.scope = scope, .verb = "ibv_open_device", .timed = true},
        [&] { return ibv_open_device(chosen); },
        [&](const auto&, nlohmann::json&, nlohmann::json& data) {
            data["args"] = {{"device", name}};
        },
        [&](const auto& call) {
            return explain_errno("ibv_open_device", call.err,
                                 fmt::format("opening {} (/dev/infiniband/uverbs*)", name),
                                 fmt::format("打开 {}（/dev/infiniband/uverbs*）", name));
        });
    return std::shared_ptr<Context>(new Context(context, true, name, std::move(tracer)));
}

std::shared_ptr<Context> Context::borrow(ibv_context* context, std::shared_ptr<Tracer> tracer) {
    return std::shared_ptr<Context>(
        new Context(context, false, ibv_get_device_name(context->device), std::move(tracer)));
}

Context::~Context() {
    if (!owned_) return;
    const TraceScope scope{tracer_, Endpoint::None};
    traced_release(
        scope, "ibv_close_device", [&] { return ibv_close_device(context_); },
        [&](nlohmann::json&, nlohmann::json& data) {
            data["args"] = {{"device", device_name_}};
        });
}

ibv_device_attr Context::query_device() const {
    ibv_device_attr attr{};
    const TraceScope scope{tracer_, Endpoint::None};
    traced_call(
        VerbCall{.scope = scope, .verb = "ibv_query_device"},
        [&] { return ibv_query_device(context_, &attr); },
        [&](const auto& call, nlohmann::json&, nlohmann::json& data) {
            data["args"] = {{"device", device_name_}};
            if (!call.ok()) return;
            data["max_qp"] = attr.max_qp;
            data["max_qp_wr"] = attr.max_qp_wr;
            data["max_sge"] = attr.max_sge;
            data["max_cqe"] = attr.max_cqe;
            data["max_mr_size"] = attr.max_mr_size;
        },
        [&](const auto& call) { return explain_errno("ibv_query_device", call.value, device_name_); });
    return attr;
}

std::vector<GidEntry> Context::gid_table(std::uint8_t port) const {
    const auto port_attr = query_port(port);
    // ibv_query_gid_table answers for every port at once: room for all of them.
    ibv_device_attr device{};
    const int ports = ibv_query_device(context_, &device) == 0 ? std::max<int>(device.phys_port_cnt, 1) : 1;
    std::vector<ibv_gid_entry> entries(static_cast<std::size_t>(std::max(port_attr.gid_tbl_len, 1) * ports));
    std::vector<GidEntry> table;
    const TraceScope scope{tracer_, Endpoint::None};
    traced_call(
        VerbCall{.scope = scope, .verb = "ibv_query_gid_table"},
        [&] {
            const ssize_t n = ibv_query_gid_table(context_, entries.data(), entries.size(), 0);
            if (n < 0) return static_cast<int>(-n);
            for (ssize_t i = 0; i < n; ++i) {
                const auto& e = entries[static_cast<std::size_t>(i)];
                if (e.port_num != port) continue;
                GidEntry gid;
                gid.index = static_cast<int>(e.gid_index);
                gid.gid = gid_to_string(e.gid);
                gid.type = std::string(gid_type_name(e.gid_type));
                table.push_back(gid);
            }
            return 0;
        },
        [&](const auto&, nlohmann::json&, nlohmann::json& data) {
            data["args"] = {{"port", port}, {"max_entries", entries.size()}};
            nlohmann::json gids = nlohmann::json::array();
            for (const auto& g : table)
                gids.push_back({{"index", g.index}, {"gid", g.gid}, {"type", g.type}});
            data["gids"] = gids;
        },
        [&](const auto& call) {
            return explain_errno("ibv_query_gid_table", call.value, fmt::format("port {}", port),
                                 fmt::format("端口 {}", port));
        });
    return table;
}

ibv_port_attr Context::query_port(std::uint8_t port) const {
    ibv_port_attr attr{};
    const TraceScope scope{tracer_, Endpoint::None};
    traced_call(
        VerbCall{.scope = scope, .verb = "ibv_query_port"},
        [&] { return ibv_query_port(context_, port, &attr); },
        [&](const auto& call, nlohmann::json&, nlohmann::json& data) {
            data["args"] = {{"port", port}};
            data["state"] = call.ok() ? port_state_name(attr.state) : "";
            data["active_mtu"] = call.ok() ? mtu_bytes(attr.active_mtu) : 0;
            data["link_layer"] = call.ok() ? link_layer_name(attr.link_layer) : "";
        },
        [&](const auto& call) {
            return explain_errno("ibv_query_port", call.value, fmt::format("port {}", port),
                                 fmt::format("端口 {}", port));
        });
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
             explain_errno("ibv_query_gid", errno, fmt::format("port {} index {}", port, index),
                           fmt::format("端口 {} 的索引 {}", port, index)));
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
    // One event for the chosen GID, not one per ibv_query_gid_ex of the scan.
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
        case IBV_EVENT_SRQ_LIMIT_REACHED:
        case IBV_EVENT_SRQ_ERR:
            event.srq_handle = raw.element.srq->handle;
            break;
        case IBV_EVENT_CQ_ERR:
            event.cq_handle = raw.element.cq->handle;
            break;
        default:
            break;
        }
        ibv_ack_async_event(&raw);
        if (tracer_ && tracer_->enabled()) {
            nlohmann::json ids = nlohmann::json::object();
            if (event.qp_num) ids["qpn"] = *event.qp_num;
            if (event.srq_handle) ids["srq"] = *event.srq_handle;
            if (event.cq_handle) ids["cq"] = *event.cq_handle;
            nlohmann::json data = {{"meaning", event.meaning}};
            if (event.port) data["port"] = *event.port;
            tracer_->record(event.endpoint, EventKind::Async, event.name, ids, data);
        }
        events.push_back(std::move(event));
    }
    return events;
}

std::vector<AsyncEvent> Context::wait_async_events(std::chrono::milliseconds timeout) {
    // The async fd is non-blocking (see the constructor): poll(2) is the wait, ibv_get_async_event the read.
    pollfd fd{context_->async_fd, POLLIN, 0};
    const auto start = monotonic_ns();
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    int ready = 0;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        ready = ::poll(&fd, 1, static_cast<int>(std::max<std::int64_t>(left.count(), 0)));
        if (ready >= 0 || errno != EINTR) break;
    }
    const int poll_errno = errno;
    const std::uint64_t waited_ns = monotonic_ns() - start;
    std::vector<AsyncEvent> events = ready > 0 ? poll_async_events() : std::vector<AsyncEvent>{};
    const TraceScope scope{tracer_, Endpoint::None};
    if (scope.on()) {
        nlohmann::json names = nlohmann::json::array();
        for (const auto& e : events)
            names.push_back(e.name);
        scope.record(EventKind::Verb, "ibv_get_async_event", {},
                     {{"args", {{"timeout_ms", timeout.count()}}},
                      {"ret", ready < 0 ? -1 : 0},
                      {"waited_ms", static_cast<double>(waited_ns) / 1e6},
                      {"events", names},
                      {"timed_out", ready == 0}});
    }
    if (ready < 0)
        fail(scope, explain_errno("poll", poll_errno, "waiting on the device's async event fd",
                                  "等待设备的异步事件 fd"));
    return events;
}

} // namespace rdmalab
