// The capture around `rdmalab-cli op` (wire_cli.hpp).
#include "wire_cli.hpp"

#include <fmt/format.h>

#include <netdb.h>

#include <cstdio>
#include <stdexcept>

namespace rdmalab::cli {

namespace {

/// The most packets one operation's capture keeps: a 1 GiB Write at MTU 4096 is 262,144 packets.
constexpr std::size_t kPacketLimit = 300000;

/// HOST as a numeric address (getaddrinfo), or HOST itself when it does not resolve.
std::string numeric_address(const std::string& host) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    addrinfo* found = nullptr;
    if (getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0 || found == nullptr) return host;
    std::string text(NI_MAXHOST, '\0');
    const bool ok = getnameinfo(found->ai_addr, found->ai_addrlen, text.data(), NI_MAXHOST, nullptr, 0,
                                NI_NUMERICHOST) == 0;
    freeaddrinfo(found);
    return ok ? std::string(text.c_str()) : host;
}

} // namespace

WireSession::WireSession(const WireRequest& request, Tracer& tracer, Endpoint endpoint)
    : request_(request), tracer_(tracer), endpoint_(endpoint) {
    auto failed = [&](const std::string& netdev, const std::string& reason, const std::string& fix) {
        nlohmann::json data = {{"reason", reason}, {"fix", fix}};
        if (!netdev.empty()) data["netdev"] = netdev;
        tracer_.record(endpoint_, EventKind::Packet, "capture.failed", {}, data);
    };
    if (request.loopback) {
        failed(
            {},
            "a loopback pair (A and B on one device) puts no packet on a wire: rxe loops the two QPs back "
            "inside the driver (an RDMA NIC, inside itself)",
            request.window
                ? "measure between two hosts: `bench KIND --listen ADDR` on one, `bench KIND --connect HOST "
                  "--wire` on the other (tests/softroce/wire-run.sh makes two SoftRoCE hosts)"
                : "run the operation between two hosts: `op OPCODE --listen ADDR --wire` on one, `op OPCODE "
                  "--connect HOST --wire` on the other (tests/softroce/wire-run.sh makes two SoftRoCE "
                  "hosts)");
        return;
    }
    if (request.address.empty()) {
        failed({}, "with --listen and no address, the interface A's packets will cross is not known",
               "name this host's address on that network: --listen ADDR");
        return;
    }
    const std::string address = numeric_address(request.address);
    const auto netdev = wire::netdev_for_address(address);
    if (!netdev) {
        failed(
            {},
            fmt::format("no network interface here {} {}", request.listening ? "holds" : "reaches", address),
            "check the address (`ip -br addr` lists this host's)");
        return;
    }
    std::string why, fix;
    capture_ = request.window ? wire::Capture::start(*netdev, *request.window, why, fix)
                              : wire::Capture::start(*netdev, kPacketLimit, why, fix);
    if (!capture_) {
        failed(*netdev, why, fix);
        return;
    }
    tracer_.add_sink(ledger_);
    nlohmann::json data = {{"netdev", *netdev},
                           {"filter", "udp port 4791"},
                           {"limit", request.window ? request.window->packets : kPacketLimit}};
    if (request.window)
        data["window"] = {{"packets", request.window->packets},
                          {"ms", request.window->span_ms},
                          {"from", "the connection's first data packet"}};
    tracer_.record(endpoint_, EventKind::Packet, "capture.start", {}, data);
}

bool WireSession::finish() {
    if (!capture_) return true;
    const auto frames = capture_->stop();
    const auto owners = wire::record_packets(tracer_, endpoint_, *capture_, frames, ledger_->matcher());
    if (request_.pcapng.empty()) return true;
    // "WR 7 · ibv_post_send RDMA_WRITE 8192 B · packet 3 of 8", then where it sits in the capture; a packet
    // tied to no request of this host (rdma_cm's MADs, the peer's requests) names the operation instead.
    std::vector<std::string> comments;
    for (std::size_t i = 0; i < frames.size(); ++i)
        comments.push_back(fmt::format("rdmalab: {} · frame {} of {} on {}",
                                       owners[i].empty() ? "op " + request_.operation : owners[i], i + 1,
                                       frames.size(), capture_->netdev()));
    try {
        wire::write_pcapng(request_.pcapng, capture_->netdev(), frames, comments);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "rdmalab-cli: %s\n  fix: write the capture somewhere else (--pcapng FILE)\n",
                     e.what());
        return false;
    }
    return true;
}

} // namespace rdmalab::cli
