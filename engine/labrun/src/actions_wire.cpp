// The actions of two-host labs on the wire: read_wire (the packets captured since the last read, traced and
// counted: opcodes, acknowledgements and NAKs, PSNs, retransmissions, the RETH's rkey, bad ICRCs) and
// drop_packets (this host's interface drops every Nth RoCE v2 packet it sends, with tc, until teardown).
#include "actions.hpp"
#include "rdmalab/format/packet_fields.hpp"
#include "rdmalab/format/roce.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <optional>

extern char** environ;

namespace rdmalab::labs::run {

namespace {

/// What a read_wire result counts a BTH opcode as: the low five bits name the operation in every transport
/// (IBTA Vol 1 Table 38); a Last or Only with Immediate or with Invalidate counts as a Last or an Only.
const char* counted_as(std::uint8_t opcode) {
    if (opcode >= 0x80) return nullptr; // CNP and manufacturer-specific opcodes
    switch (opcode & 0x1f) {
    case 0x00:
        return "send_first";
    case 0x01:
        return "send_middle";
    case 0x02:
    case 0x03:
    case 0x16:
        return "send_last";
    case 0x04:
    case 0x05:
    case 0x17:
        return "send_only";
    case 0x06:
        return "write_first";
    case 0x07:
        return "write_middle";
    case 0x08:
    case 0x09:
        return "write_last";
    case 0x0a:
    case 0x0b:
        return "write_only";
    case 0x0c:
        return "read_request";
    case 0x0d:
        return "read_response_first";
    case 0x0e:
        return "read_response_middle";
    case 0x0f:
        return "read_response_last";
    case 0x10:
        return "read_response_only";
    case 0x12:
        return "atomic_ack";
    case 0x13:
    case 0x14:
        return "atomic";
    default:
        return nullptr;
    }
}

/// A NAK's code (the AETH syndrome's low five bits when its top three are 011; IBTA Vol 1 Table 44).
std::string nak_code_name(std::uint8_t syndrome) {
    switch (syndrome & 0x1f) {
    case 0:
        return "psn_sequence_error";
    case 1:
        return "invalid_request";
    case 2:
        return "remote_access_error";
    case 3:
        return "remote_operational_error";
    case 4:
        return "invalid_rd_request";
    default:
        return "reserved";
    }
}

/// Runs a command without a shell; its exit status, and what it wrote on stderr in `errors`.
int run_command(const std::vector<std::string>& argv, std::string& errors) {
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
        errors = std::strerror(errno);
        return -1;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(pipe_fds[1]);
    if (spawned != 0) {
        close(pipe_fds[0]);
        errors = fmt::format("cannot run {}: {}", argv[0], std::strerror(spawned));
        return -1;
    }
    std::array<char, 512> buffer{};
    for (;;) {
        const ssize_t n = read(pipe_fds[0], buffer.data(), buffer.size());
        if (n > 0)
            errors.append(buffer.data(), static_cast<std::size_t>(n));
        else if (n == 0 || errno != EINTR)
            break;
    }
    close(pipe_fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    while (!errors.empty() && (errors.back() == '\n' || errors.back() == ' '))
        errors.pop_back();
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// iproute2's tc, where Debian puts it (not always on a user's PATH).
std::string tc_path() {
    for (const char* path : {"/usr/sbin/tc", "/sbin/tc", "/usr/bin/tc"})
        if (access(path, X_OK) == 0) return path;
    return "tc";
}

} // namespace

/// A prio qdisc on the interface whose u32 filter sends this host's RoCE v2 packets (UDP 4791) to a gact
/// action that drops every Nth deterministically (`random determ drop N`): the same packets on every run,
/// so the lab's verdicts are too. Packets to QP 1 (rdma_cm's MADs) pass untouched. Removed when it goes.
class PacketDropper {
  public:
    PacketDropper(std::string netdev, int every, std::shared_ptr<Tracer> tracer, Endpoint endpoint)
        : netdev_(std::move(netdev)), tracer_(std::move(tracer)), endpoint_(endpoint) {
        const std::string every_text = std::to_string(every);
        run({"qdisc", "add", "dev", netdev_, "root", "handle", "1:", "prio"});
        try {
            run({"filter", "add", "dev", netdev_, "parent", "1:", "protocol", "ip", "prio", "1", "u32",
                 "match", "u32", "0x00000001", "0x00ffffff", "at", "32", "flowid", "1:1"});
            run({"filter", "add", "dev",    netdev_,  "parent", "1:",       "protocol", "ip",
                 "prio",   "2",   "u32",    "match",  "ip",     "protocol", "17",       "0xff",
                 "match",  "ip",  "dport",  "4791",   "0xffff", "flowid",   "1:2",      "action",
                 "gact",   "ok",  "random", "determ", "drop",   every_text});
        } catch (...) {
            remove();
            throw;
        }
    }
    ~PacketDropper() {
        try {
            remove();
        } catch (...) {
            // Traced by run(); a destructor cannot report further.
        }
    }
    PacketDropper(const PacketDropper&) = delete;
    PacketDropper& operator=(const PacketDropper&) = delete;
    const std::string& netdev() const { return netdev_; }

  private:
    void remove() {
        if (removed_) return;
        removed_ = true;
        run({"qdisc", "del", "dev", netdev_, "root"});
    }
    void run(std::vector<std::string> args) {
        std::string command = "tc";
        for (const auto& a : args)
            command += " " + a;
        args.insert(args.begin(), tc_path());
        std::string errors;
        const int status = run_command(args, errors);
        if (tracer_ && tracer_->enabled())
            tracer_->record(endpoint_, EventKind::Verb, "tc", {},
                            {{"args", {{"command", command}}},
                             {"ret", status},
                             {"errno", 0},
                             {"summary", status == 0 ? command : command + ": " + errors}});
        if (status != 0)
            throw LabRunError(
                fmt::format("`{}` failed (exit status {}): {}; drop_packets needs CAP_NET_ADMIN on this host "
                            "and iproute2's "
                            "tc with the u32 filter and the gact action (the kernel's cls_u32 and act_gact)",
                            command, status, errors.empty() ? "no message" : errors));
    }

    std::string netdev_;
    std::shared_ptr<Tracer> tracer_;
    Endpoint endpoint_;
    bool removed_ = false;
};

void do_drop_packets(State& s, const Step& step, StepResult& r) {
    if (!s.options.peer) throw LabRunError("drop_packets needs two hosts (`lab run --listen/--connect`)");
    const auto netdev = wire::netdev_for_address(s.options.peer->local_address());
    if (!netdev) throw LabRunError("no network interface here holds " + s.options.peer->local_address());
    s.droppers[step.id] = std::make_shared<PacketDropper>(
        *netdev, static_cast<int>(integer(step, "every", 2)), s.tracer, s.options.side);
    r.results["netdev"] = *netdev;
}

void do_read_wire(State& s, const Step& step, StepResult& r) {
    if (!s.options.peer) throw LabRunError("read_wire needs two hosts (`lab run --listen/--connect`)");
    if (!s.capture)
        throw LabRunError("the capture of the wire did not start: " +
                          (s.capture_failed.empty() ? std::string("unknown reason") : s.capture_failed));
    const int settle_ms = static_cast<int>(integer(step, "settle", 300));
    const auto frames = s.capture->take(settle_ms, 10 * settle_ms + 2000);
    if (s.tracer && s.tracer->enabled())
        wire::record_packets(*s.tracer, s.options.side, *s.capture, frames,
                             s.ledger ? s.ledger->matcher() : packet::PacketMatcher{}, s.packets_recorded + 1,
                             false);
    s.packets_recorded += frames.size();

    Results& out = r.results;
    for (const auto* name : {"packets",
                             "from_a",
                             "from_b",
                             "write_first",
                             "write_middle",
                             "write_last",
                             "write_only",
                             "read_request",
                             "read_response_first",
                             "read_response_middle",
                             "read_response_last",
                             "read_response_only",
                             "send_first",
                             "send_middle",
                             "send_last",
                             "send_only",
                             "atomic",
                             "atomic_ack",
                             "acks",
                             "rnr_naks",
                             "naks",
                             "seq_naks",
                             "access_naks",
                             "retransmitted",
                             "icrc_bad"})
        out[name] = "0";
    auto count = [&](const std::string& key) { out[key] = std::to_string(std::stoul(out[key]) + 1); };
    const std::string here = s.options.peer->local_address();
    const bool here_is_a = s.options.side == Endpoint::A;
    std::optional<std::uint32_t> first_psn, highest_psn;
    bool in_order = true;
    std::string nak_code = "none", reth_rkey = "none", retransmitted_psns;
    for (const auto& frame : frames) {
        const auto p = packet::decode_frame(frame.bytes);
        if (!p.roce || p.dest_qp == 1) continue; // QP 1: rdma_cm's MADs, not the connection
        count("packets");
        count((p.source == here) == here_is_a ? "from_a" : "from_b");
        if (p.icrc && !p.icrc->ok()) count("icrc_bad");
        if (const char* name = counted_as(p.opcode)) count(name);
        if (reth_rkey == "none")
            for (const auto& h : p.headers)
                if (h.abbrev == "infiniband.reth")
                    if (const auto* key = h.find("infiniband.reth.r_key")) reth_rkey = hex(key->value);
        if (p.opcode == 0x11 && p.syndrome) { // Acknowledge: the AETH says ACK, RNR NAK or NAK
            const std::uint8_t kind = *p.syndrome >> 5;
            if (kind == 0) count("acks");
            if (kind == 1) count("rnr_naks");
            if (kind == 3) {
                count("naks");
                if ((*p.syndrome & 0x1f) == 0) count("seq_naks");
                if ((*p.syndrome & 0x1f) == 2) count("access_naks");
                if (nak_code == "none") nak_code = nak_code_name(*p.syndrome);
            }
        }
        if (packet::role_of(p.opcode, p.syndrome) != packet::PacketRole::Request) continue;
        // PSNs are 24-bit serial numbers: a request's PSN is new when it is ahead of the highest so far.
        if (!first_psn) {
            first_psn = highest_psn = p.psn;
            continue;
        }
        const std::uint32_t ahead = (p.psn - *highest_psn) & 0xffffff;
        if (ahead == 0 || ahead >= 0x800000) {
            count("retransmitted");
            in_order = false;
            if (std::count(retransmitted_psns.begin(), retransmitted_psns.end(), ',') < 15)
                retransmitted_psns += (retransmitted_psns.empty() ? "" : ",") + std::to_string(p.psn);
        } else {
            if (ahead != 1) in_order = false;
            highest_psn = p.psn;
        }
    }
    out["nak_code"] = nak_code;
    out["reth_rkey"] = reth_rkey;
    out["first_psn"] = first_psn ? std::to_string(*first_psn) : "none";
    out["last_psn"] = highest_psn ? std::to_string(*highest_psn) : "none";
    out["psns_in_order"] = in_order ? "1" : "0";
    out["retransmitted_psns"] = retransmitted_psns.empty() ? "none" : retransmitted_psns;
}

} // namespace rdmalab::labs::run
