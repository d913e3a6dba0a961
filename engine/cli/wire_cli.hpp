// `rdmalab-cli op ... --wire [--pcapng FILE]`: the capture around one operation (rdmalab/engine/capture.hpp).
#pragma once

#include "rdmalab/engine/capture.hpp"

#include <memory>
#include <optional>
#include <string>

namespace rdmalab::cli {

/// Where the operation runs, for finding the interface its packets cross.
struct WireRequest {
    bool loopback = true;   ///< a loopback pair on one device: nothing reaches a wire
    std::string address;    ///< --listen ADDR (this host's) or --connect HOST (the other's); may be empty
    bool listening = false; ///< --listen: `address` is this host's
    std::string pcapng;     ///< --pcapng FILE, or empty
    std::string operation;  ///< "write 8192 B", for the packets' comments
    /// A measurement's bounded window (bench --wire); none for an operation, which keeps every packet.
    std::optional<wire::CaptureWindow> window;
};

/// A capture started for one operation, or the reason there is none (recorded as `capture.failed`).
class WireSession {
  public:
    WireSession(const WireRequest& request, Tracer& tracer, Endpoint endpoint);
    /// Stops the capture, records every packet and `capture.end`, writes the pcapng file when asked.
    /// False (and the reason on stderr) when the pcapng file could not be written.
    bool finish();

  private:
    WireRequest request_;
    Tracer& tracer_;
    Endpoint endpoint_;
    std::unique_ptr<wire::Capture> capture_;
    /// Sees the operation's QP transitions and posts, to tie each packet to its work request.
    std::shared_ptr<wire::RequestLedger> ledger_ = std::make_shared<wire::RequestLedger>();
};

} // namespace rdmalab::cli
