// Packets on the wire: a libpcap capture of the RoCE v2 traffic (UDP port 4791) on the network device
// under an RDMA device, run on its own thread while an operation runs, then decoded (rdmalab/format/roce.hpp)
// and recorded as trace events of kind `packet`; and the capture written as pcapng with a comment per packet.
// Only two hosts put packets on a wire: rxe loops two QPs of one device back inside the driver.
#pragma once

#include "rdmalab/format/packet_match.hpp"
#include "rdmalab/format/trace.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace rdmalab::wire {

/// One frame as libpcap handed it over.
struct CapturedFrame {
    std::uint64_t wire_ns = 0;     ///< the capture's timestamp: CLOCK_REALTIME nanoseconds
    std::uint32_t wire_length = 0; ///< bytes on the wire (the frame may be cut to the snapshot length)
    std::vector<std::uint8_t> bytes;
};

/// A measurement's bounded capture: from the first packet of the connection's data (any destination QP but
/// QP 1, rdma_cm's), keep at most `packets` packets for at most `span_ms`, then stop capturing, so the rest
/// of the run pays nothing for it.
struct CaptureWindow {
    std::size_t packets = 2000;
    std::uint64_t span_ms = 200;
};

/// What the capture saw and kept.
struct CaptureStats {
    std::uint64_t received = 0;          ///< passed the filter (pcap_stats ps_recv)
    std::uint64_t dropped = 0;           ///< dropped by the kernel for lack of buffer (ps_drop)
    std::uint64_t interface_dropped = 0; ///< dropped by the interface (ps_ifdrop)
    std::uint64_t kept = 0;
    std::uint64_t not_kept = 0; ///< arrived after the limit was reached
    /// A windowed capture: why it stopped before the end ("the window's 2000 packets", "the window's
    /// 200 ms"), or empty when it ran to stop().
    std::string window_closed;
};

/// How the capture's clock (libpcap stamps packets with CLOCK_REALTIME) maps to the engine's
/// (CLOCK_MONOTONIC, the trace's t_ns): engine time = wire time - offset_ns, give or take uncertainty_ns.
struct ClockLink {
    std::int64_t offset_ns = 0;
    /// Half the narrowest read of the two clocks, plus how far the offset moved during the capture (a clock
    /// step or slew of CLOCK_REALTIME, by NTP or by hand).
    std::uint64_t uncertainty_ns = 0;
};

/// A running capture. Starts capturing at once; stop() ends it and hands over the frames.
class Capture {
  public:
    /// Captures UDP port 4791 on `netdev`, keeping at most `limit` frames. Nothing, with `why` (what failed
    /// and libpcap's words) and `fix`, when it cannot start: no such interface, no permission (CAP_NET_RAW).
    static std::unique_ptr<Capture> start(const std::string& netdev, std::size_t limit, std::string& why,
                                          std::string& fix);
    /// The same, bounded by `window` (a measurement's capture).
    static std::unique_ptr<Capture> start(const std::string& netdev, const CaptureWindow& window,
                                          std::string& why, std::string& fix);
    ~Capture();
    Capture(const Capture&) = delete;
    Capture& operator=(const Capture&) = delete;

    /// Waits `linger_ms` for packets still on their way (the last ACK), stops, and returns every frame
    /// kept, in capture order.
    std::vector<CapturedFrame> stop(int linger_ms = 50);
    /// While the capture runs: waits until no frame has come for `settle_ms` (at most `max_ms`), then hands
    /// over every frame kept since the last take() and keeps capturing (a two-host lab's read_wire step).
    std::vector<CapturedFrame> take(int settle_ms, int max_ms);
    CaptureStats stats() const;
    /// The clocks' link, from readings at start() and stop().
    ClockLink clock_link() const;
    const std::string& netdev() const { return netdev_; }
    const std::optional<CaptureWindow>& window() const { return window_; }
    std::size_t limit() const { return limit_; }

    struct Handle; // libpcap's, hidden so that users need no pcap header

  private:
    Capture(std::string netdev, std::size_t limit, std::optional<CaptureWindow> window,
            std::unique_ptr<Handle> handle);
    static std::unique_ptr<Capture> open(const std::string& netdev, std::size_t limit,
                                         std::optional<CaptureWindow> window, std::string& why,
                                         std::string& fix);
    void run();
    /// libpcap's counts into stats_ (mutex held, handle open).
    void take_counts();
    /// Called with the mutex held for each frame: false once the window is over (and why, in stats_).
    bool within_window(std::uint64_t wire_ns, const std::uint8_t* bytes, std::size_t length);

    std::string netdev_;
    std::size_t limit_;
    std::optional<CaptureWindow> window_;
    std::uint64_t window_start_ns_ = 0; ///< the first data packet's time; 0 before it
    std::unique_ptr<Handle> handle_;
    mutable std::mutex mutex_;
    std::vector<CapturedFrame> frames_;
    CaptureStats stats_;
    ClockLink clock_at_start_;
    std::optional<ClockLink> clock_at_stop_;
    std::atomic<bool> stopping_{false};
    std::thread thread_;
};

/// The network device that holds the IP address `address` (numeric IPv4 or IPv6), or, when none holds
/// it, the one whose subnet contains it; nothing when no interface matches.
std::optional<std::string> netdev_for_address(const std::string& address);

/// Watches a tracer's events for what ties packets to work requests (QP transitions, posted sends): add it
/// as a sink before the operation runs.
class RequestLedger final : public TraceSink {
  public:
    void write(const TraceEvent& event) override;
    /// The matcher with everything seen so far (use once the operation is over).
    packet::PacketMatcher matcher() const;

  private:
    mutable std::mutex mutex_;
    packet::PacketMatcher matcher_;
};

/// Records the frames as `packet` events (decoded; "out" when the frame's source MAC is the netdev's own,
/// else "in"; with the work request each belongs to, by `matcher`) and the capture's `capture.end` with its
/// counts, on `tracer` for `endpoint`. Returns each frame's owner text, for the pcapng comments. A capture
/// read in parts (take()) numbers its packets on from `first_index` and records `capture.end` with the
/// last part only (`last_part`).
std::vector<std::string> record_packets(Tracer& tracer, Endpoint endpoint, const Capture& capture,
                                        const std::vector<CapturedFrame>& frames,
                                        packet::PacketMatcher matcher, std::size_t first_index = 1,
                                        bool last_part = true);

/// Writes `frames` as a pcapng file (one section, one Ethernet interface named `netdev` with nanosecond
/// timestamps, one Enhanced Packet Block per frame with `comments[i]` as its comment when there is one).
/// Throws std::runtime_error naming the path and errno when the file cannot be written.
void write_pcapng(const std::string& path, const std::string& netdev,
                  const std::vector<CapturedFrame>& frames, const std::vector<std::string>& comments);

} // namespace rdmalab::wire
