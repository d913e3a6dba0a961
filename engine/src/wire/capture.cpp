// The capture of capture.hpp: libpcap on the netdev in immediate mode with nanosecond timestamps, a
// thread that keeps what the filter lets through, and the trace events made from it.
#include "rdmalab/engine/capture.hpp"

#include "rdmalab/format/roce.hpp"

#include <fmt/format.h>
#include <pcap/pcap.h>

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <fstream>

namespace rdmalab::wire {

struct Capture::Handle {
    pcap_t* pcap = nullptr;
    ~Handle() {
        if (pcap != nullptr) pcap_close(pcap);
    }
};

namespace {

constexpr const char* kFilter = "udp port 4791";
constexpr int kSnapshotLength = 65535;
/// The kernel's buffer for the capture: libpcap's default (2 MiB) overflowed in the test bed when a burst
/// of retransmissions met a capture thread slowed by emulation (pcap_stats counted the drops).
constexpr int kBufferBytes = 32 << 20;
constexpr int kPollTimeoutMs = 20; // how long a pcap_dispatch waits before it looks at stopping_ again

std::string activation_problem(int status, pcap_t* pcap, const std::string& netdev, std::string& fix) {
    switch (status) {
    case PCAP_ERROR_NO_SUCH_DEVICE:
        fix = "name an interface `ip link` lists (the netdev under the RDMA device: `rdma link` shows it)";
        return fmt::format("there is no network interface {}", netdev);
    case PCAP_ERROR_PERM_DENIED:
        fix = "run as root, or give the program the capability: sudo setcap cap_net_raw,cap_net_admin+eip "
              "$(command -v rdmalab-cli)";
        return fmt::format("no permission to capture on {} (capturing needs CAP_NET_RAW): {}", netdev,
                           pcap_geterr(pcap));
    case PCAP_ERROR_IFACE_NOT_UP:
        fix = fmt::format("bring it up: sudo ip link set {} up", netdev);
        return fmt::format("the interface {} is down", netdev);
    default:
        fix = "see libpcap's message; `tcpdump -i INTERFACE` fails the same way";
        return fmt::format("libpcap could not capture on {}: {} ({})", netdev, pcap_statustostr(status),
                           pcap_geterr(pcap));
    }
}

/// The interface's own MAC address as "aa:bb:cc:dd:ee:ff" (sysfs), to tell sent from received frames.
std::string mac_of(const std::string& netdev) {
    std::ifstream file("/sys/class/net/" + netdev + "/address");
    std::string mac;
    std::getline(file, mac);
    return mac;
}

std::string frame_source_mac(const std::vector<std::uint8_t>& bytes) {
    if (bytes.size() < 12) return {};
    return fmt::format("{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}", bytes[6], bytes[7], bytes[8], bytes[9],
                       bytes[10], bytes[11]);
}

/// CLOCK_REALTIME - CLOCK_MONOTONIC, read between two monotonic readings; the narrowest of a few tries.
ClockLink read_clock_link() {
    auto ns = [](clockid_t clock) {
        timespec ts{};
        clock_gettime(clock, &ts);
        return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000LL + ts.tv_nsec;
    };
    ClockLink best{.offset_ns = 0, .uncertainty_ns = UINT64_MAX};
    for (int i = 0; i < 5; ++i) {
        const std::int64_t before = ns(CLOCK_MONOTONIC);
        const std::int64_t real = ns(CLOCK_REALTIME);
        const std::int64_t after = ns(CLOCK_MONOTONIC);
        const auto half_gap = static_cast<std::uint64_t>(after - before + 1) / 2;
        if (half_gap < best.uncertainty_ns)
            best = {.offset_ns = real - (before + (after - before) / 2), .uncertainty_ns = half_gap};
    }
    return best;
}

} // namespace

std::unique_ptr<Capture> Capture::start(const std::string& netdev, std::size_t limit, std::string& why,
                                        std::string& fix) {
    return open(netdev, limit, std::nullopt, why, fix);
}

std::unique_ptr<Capture> Capture::start(const std::string& netdev, const CaptureWindow& window,
                                        std::string& why, std::string& fix) {
    return open(netdev, window.packets, window, why, fix);
}

std::unique_ptr<Capture> Capture::open(const std::string& netdev, std::size_t limit,
                                       std::optional<CaptureWindow> window, std::string& why,
                                       std::string& fix) {
    std::array<char, PCAP_ERRBUF_SIZE> error{};
    auto handle = std::make_unique<Handle>();
    handle->pcap = pcap_create(netdev.c_str(), error.data());
    if (handle->pcap == nullptr) {
        why = fmt::format("libpcap could not open {}: {}", netdev, error.data());
        fix = "name an interface `ip link` lists";
        return nullptr;
    }
    pcap_set_snaplen(handle->pcap, kSnapshotLength);
    pcap_set_promisc(handle->pcap, 0);
    pcap_set_immediate_mode(handle->pcap, 1); // each packet at once, not a buffer's worth later
    pcap_set_timeout(handle->pcap, kPollTimeoutMs);
    pcap_set_buffer_size(handle->pcap, kBufferBytes);
    pcap_set_tstamp_precision(handle->pcap, PCAP_TSTAMP_PRECISION_NANO);
    if (const int status = pcap_activate(handle->pcap); status < 0) {
        why = activation_problem(status, handle->pcap, netdev, fix);
        return nullptr;
    }
    if (pcap_datalink(handle->pcap) != DLT_EN10MB) {
        why = fmt::format("{} is not an Ethernet interface (libpcap link type {}): RoCE v2 rides on Ethernet",
                          netdev, pcap_datalink(handle->pcap));
        fix = "capture on the netdev under the RoCE device (`rdma link` shows it)";
        return nullptr;
    }
    bpf_program program{};
    if (pcap_compile(handle->pcap, &program, kFilter, 1, PCAP_NETMASK_UNKNOWN) != 0 ||
        pcap_setfilter(handle->pcap, &program) != 0) {
        why = fmt::format("libpcap could not set the filter '{}' on {}: {}", kFilter, netdev,
                          pcap_geterr(handle->pcap));
        fix = "report this: the filter is fixed";
        pcap_freecode(&program);
        return nullptr;
    }
    pcap_freecode(&program);
    return std::unique_ptr<Capture>(new Capture(netdev, limit, window, std::move(handle)));
}

Capture::Capture(std::string netdev, std::size_t limit, std::optional<CaptureWindow> window,
                 std::unique_ptr<Handle> handle)
    : netdev_(std::move(netdev)), limit_(limit), window_(window), handle_(std::move(handle)),
      clock_at_start_(read_clock_link()) {
    thread_ = std::thread([this] { run(); });
}

Capture::~Capture() {
    if (thread_.joinable()) stop(0);
}

void Capture::run() {
    auto keep = [](u_char* user, const pcap_pkthdr* header, const u_char* bytes) {
        auto* self = reinterpret_cast<Capture*>(user);
        const std::lock_guard lock(self->mutex_);
        const std::uint64_t wire_ns = static_cast<std::uint64_t>(header->ts.tv_sec) * 1'000'000'000U +
                                      static_cast<std::uint64_t>(header->ts.tv_usec);
        if (self->window_ && !self->within_window(wire_ns, bytes, header->caplen)) {
            pcap_breakloop(self->handle_->pcap); // the rest of the run is not captured at all
            return;
        }
        if (self->frames_.size() >= self->limit_) {
            ++self->stats_.not_kept;
            return;
        }
        // With nanosecond precision libpcap puts nanoseconds in tv_usec.
        self->frames_.push_back({.wire_ns = wire_ns,
                                 .wire_length = header->len,
                                 .bytes = std::vector<std::uint8_t>(bytes, bytes + header->caplen)});
        ++self->stats_.kept;
    };
    while (!stopping_.load()) {
        const int status = pcap_dispatch(handle_->pcap, -1, keep, reinterpret_cast<u_char*>(this));
        if (status == PCAP_ERROR || status == PCAP_ERROR_BREAK) break;
    }
    // A closed window closes the capture at once: the socket and its filter go, so the rest of the
    // measurement runs as if nothing were capturing.
    const std::lock_guard lock(mutex_);
    if (!stats_.window_closed.empty()) {
        take_counts();
        pcap_close(handle_->pcap);
        handle_->pcap = nullptr;
    }
}

bool Capture::within_window(std::uint64_t wire_ns, const std::uint8_t* bytes, std::size_t length) {
    if (!stats_.window_closed.empty()) return false;
    if (window_start_ns_ == 0) {
        // The window opens at the connection's first data packet: rdma_cm's MADs to QP 1 come before it.
        const auto packet = packet::decode_frame(std::span<const std::uint8_t>(bytes, length));
        if (packet.roce && packet.dest_qp != 1) window_start_ns_ = wire_ns;
        return true;
    }
    if (frames_.size() >= window_->packets) {
        stats_.window_closed = fmt::format("the window's {} packets", window_->packets);
        return false;
    }
    if (wire_ns - window_start_ns_ > window_->span_ms * 1'000'000U) {
        stats_.window_closed = fmt::format("the window's {} ms", window_->span_ms);
        return false;
    }
    return true;
}

std::vector<CapturedFrame> Capture::stop(int linger_ms) {
    if (!thread_.joinable()) return {};
    if (linger_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(linger_ms));
    stopping_.store(true);
    {
        const std::lock_guard lock(mutex_);
        if (handle_->pcap != nullptr) pcap_breakloop(handle_->pcap);
    }
    thread_.join();
    const std::lock_guard lock(mutex_);
    clock_at_stop_ = read_clock_link();
    if (handle_->pcap != nullptr) take_counts(); // a closed window took its counts when it closed
    return std::move(frames_);
}

std::vector<CapturedFrame> Capture::take(int settle_ms, int max_ms) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(max_ms);
    std::size_t seen = 0;
    {
        const std::lock_guard lock(mutex_);
        seen = frames_.size();
    }
    for (;;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(settle_ms));
        const std::lock_guard lock(mutex_);
        if (frames_.size() == seen || std::chrono::steady_clock::now() >= deadline) {
            std::vector<CapturedFrame> out = std::move(frames_);
            frames_.clear();
            return out;
        }
        seen = frames_.size();
    }
}

void Capture::take_counts() {
    pcap_stat counts{};
    if (pcap_stats(handle_->pcap, &counts) == 0) {
        stats_.received = counts.ps_recv;
        stats_.dropped = counts.ps_drop;
        stats_.interface_dropped = counts.ps_ifdrop;
    }
}

CaptureStats Capture::stats() const {
    const std::lock_guard lock(mutex_);
    return stats_;
}

ClockLink Capture::clock_link() const {
    const std::lock_guard lock(mutex_);
    if (!clock_at_stop_) return clock_at_start_;
    const std::int64_t drift = clock_at_stop_->offset_ns - clock_at_start_.offset_ns;
    return {.offset_ns = clock_at_start_.offset_ns + drift / 2,
            .uncertainty_ns = std::max(clock_at_start_.uncertainty_ns, clock_at_stop_->uncertainty_ns) +
                              static_cast<std::uint64_t>(drift < 0 ? -drift : drift) / 2};
}

std::optional<std::string> netdev_for_address(const std::string& address) {
    std::array<std::uint8_t, 16> wanted{};
    int family = AF_INET;
    if (inet_pton(AF_INET, address.c_str(), wanted.data()) != 1) {
        family = AF_INET6;
        if (inet_pton(AF_INET6, address.c_str(), wanted.data()) != 1) return std::nullopt;
    }
    const std::size_t length = family == AF_INET ? 4 : 16;
    ifaddrs* list = nullptr;
    if (getifaddrs(&list) != 0) return std::nullopt;
    std::optional<std::string> holder, subnet;
    for (const ifaddrs* a = list; a != nullptr; a = a->ifa_next) {
        if (a->ifa_addr == nullptr || a->ifa_addr->sa_family != family || a->ifa_netmask == nullptr) continue;
        const auto* own = family == AF_INET
                              ? reinterpret_cast<const std::uint8_t*>(
                                    &reinterpret_cast<const sockaddr_in*>(a->ifa_addr)->sin_addr)
                              : reinterpret_cast<const std::uint8_t*>(
                                    &reinterpret_cast<const sockaddr_in6*>(a->ifa_addr)->sin6_addr);
        const auto* mask = family == AF_INET
                               ? reinterpret_cast<const std::uint8_t*>(
                                     &reinterpret_cast<const sockaddr_in*>(a->ifa_netmask)->sin_addr)
                               : reinterpret_cast<const std::uint8_t*>(
                                     &reinterpret_cast<const sockaddr_in6*>(a->ifa_netmask)->sin6_addr);
        if (std::memcmp(own, wanted.data(), length) == 0) holder = a->ifa_name;
        bool same_subnet = true;
        for (std::size_t i = 0; i < length; ++i)
            same_subnet = same_subnet && (own[i] & mask[i]) == (wanted[i] & mask[i]);
        if (same_subnet && !subnet && (a->ifa_flags & IFF_LOOPBACK) == 0) subnet = a->ifa_name;
    }
    freeifaddrs(list);
    return holder ? holder : subnet;
}

void RequestLedger::write(const TraceEvent& event) {
    if (event.kind != EventKind::QpState && event.kind != EventKind::PostWr) return;
    const std::lock_guard lock(mutex_);
    matcher_.observe(event);
}

packet::PacketMatcher RequestLedger::matcher() const {
    const std::lock_guard lock(mutex_);
    return matcher_;
}

std::vector<std::string> record_packets(Tracer& tracer, Endpoint endpoint, const Capture& capture,
                                        const std::vector<CapturedFrame>& frames,
                                        packet::PacketMatcher matcher, std::size_t first_index,
                                        bool last_part) {
    const std::string own_mac = mac_of(capture.netdev());
    std::vector<std::string> owners;
    const ClockLink clock = capture.clock_link();
    std::size_t index = first_index - 1;
    for (const auto& frame : frames) {
        const auto packet = packet::decode_frame(frame.bytes);
        const bool sent = !own_mac.empty() && frame_source_mac(frame.bytes) == own_mac;
        const auto owner = matcher.attribute(packet, sent);
        nlohmann::json ids = {{"qpn", packet.dest_qp}};
        nlohmann::json data = {{"index", ++index},
                               {"t_wire_ns", frame.wire_ns},
                               {"t_engine_ns", static_cast<std::int64_t>(frame.wire_ns) - clock.offset_ns},
                               {"direction", sent ? "out" : "in"},
                               {"length", frame.wire_length},
                               {"summary", packet.summary()}};
        if (owner) {
            data["owner"] = packet::to_json(*owner);
            if (owner->request) ids["wr_id"] = owner->request->wr_id;
        }
        data["decoded"] = packet::to_json(packet);
        tracer.record(endpoint, EventKind::Packet, "packet", std::move(ids), std::move(data));
        owners.push_back(owner ? packet::owner_text(*owner) : std::string());
    }
    if (!last_part) return owners;
    const CaptureStats counts = capture.stats();
    tracer.record(endpoint, EventKind::Packet, "capture.end", {},
                  {{"netdev", capture.netdev()},
                   {"received", counts.received},
                   {"dropped", counts.dropped},
                   {"interface_dropped", counts.interface_dropped},
                   {"kept", counts.kept},
                   {"not_kept", counts.not_kept},
                   {"window_closed", counts.window_closed},
                   {"clock", {{"offset_ns", clock.offset_ns}, {"uncertainty_ns", clock.uncertainty_ns}}}});
    return owners;
}

} // namespace rdmalab::wire
