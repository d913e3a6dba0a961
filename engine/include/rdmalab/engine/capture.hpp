// Packets on the wire: a libpcap capture of the RoCE v2 traffic (UDP port 4791) on the network device
// under an RDMA device, run on its own thread while an operation runs, then decoded (rdmalab/format/roce.hpp)
// and recorded as trace events of kind `packet`; and the capture written as pcapng with a comment per packet.
// Only two hosts put packets on a wire: rxe loops two QPs of one device back inside the driver.
#pragma once

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

/// What the capture saw and kept.
struct CaptureStats {
    std::uint64_t received = 0;          ///< passed the filter (pcap_stats ps_recv)
    std::uint64_t dropped = 0;           ///< dropped by the kernel for lack of buffer (ps_drop)
    std::uint64_t interface_dropped = 0; ///< dropped by the interface (ps_ifdrop)
    std::uint64_t kept = 0;
    std::uint64_t not_kept = 0; ///< arrived after the limit was reached
};

/// A running capture. Starts capturing at once; stop() ends it and hands over the frames.
class Capture {
  public:
    /// Captures UDP port 4791 on `netdev`, keeping at most `limit` frames. Nothing, with `why` (what failed
    /// and libpcap's words) and `fix`, when it cannot start: no such interface, no permission (CAP_NET_RAW).
    static std::unique_ptr<Capture> start(const std::string& netdev, std::size_t limit, std::string& why,
                                          std::string& fix);
    ~Capture();
    Capture(const Capture&) = delete;
    Capture& operator=(const Capture&) = delete;

    /// Waits `linger_ms` for packets still on their way (the last ACK), stops, and returns every frame
    /// kept, in capture order.
    std::vector<CapturedFrame> stop(int linger_ms = 50);
    CaptureStats stats() const;
    const std::string& netdev() const { return netdev_; }
    std::size_t limit() const { return limit_; }

    struct Handle; // libpcap's, hidden so that users need no pcap header

  private:
    Capture(std::string netdev, std::size_t limit, std::unique_ptr<Handle> handle);
    void run();

    std::string netdev_;
    std::size_t limit_;
    std::unique_ptr<Handle> handle_;
    mutable std::mutex mutex_;
    std::vector<CapturedFrame> frames_;
    CaptureStats stats_;
    std::atomic<bool> stopping_{false};
    std::thread thread_;
};

/// The network device that holds the IP address `address` (numeric IPv4 or IPv6), or, when none holds
/// it, the one whose subnet contains it; nothing when no interface matches.
std::optional<std::string> netdev_for_address(const std::string& address);

/// Records the frames as `packet` events (decoded; "out" when the frame's source MAC is the netdev's own,
/// else "in") and the capture's `capture.end` with its counts, on `tracer` for `endpoint`.
void record_packets(Tracer& tracer, Endpoint endpoint, const Capture& capture,
                    const std::vector<CapturedFrame>& frames);

/// Writes `frames` as a pcapng file (one section, one Ethernet interface named `netdev` with nanosecond
/// timestamps, one Enhanced Packet Block per frame with `comments[i]` as its comment when there is one).
/// Throws std::runtime_error naming the path and errno when the file cannot be written.
void write_pcapng(const std::string& path, const std::string& netdev,
                  const std::vector<CapturedFrame>& frames, const std::vector<std::string>& comments);

} // namespace rdmalab::wire
