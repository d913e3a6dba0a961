// The actions that post work requests and poll completions: post_recv, post_send (every opcode, lists of
// requests, selective signalling) and poll_cq, each counting the system calls it made.
#include "actions.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <span>
#include <thread>

namespace rdmalab::labs::run {

namespace {

/// The scatter/gather list of a post step: each item's region, offset, length and (a bad) lkey.
std::vector<Sge> sge_list(State& s, const Step& step) {
    std::vector<Sge> out;
    const Value* list = arg(step, "sge");
    if (!list) return out;
    for (const auto& item : list->list) {
        const Value* mr_name = item.find("mr");
        const auto it = s.mrs.find(mr_name ? mr_name->text : "");
        if (it == s.mrs.end())
            throw LabRunError(fmt::format("step '{}': sge names region '{}', which does not exist", step.id,
                                          mr_name ? mr_name->text : ""));
        const auto& mr = *it->second;
        const std::uint64_t offset = u64(item.find("offset"), 0);
        if (offset > mr.length())
            throw LabRunError(fmt::format("step '{}': sge offset {} is past the end of {} ({} bytes)",
                                          step.id, offset, it->first, mr.length()));
        const std::uint64_t length = u64(item.find("length"), mr.length() - offset);
        out.push_back({mr.address() + offset, static_cast<std::uint32_t>(length),
                       static_cast<std::uint32_t>(u64(item.find("lkey"), mr.lkey()))});
    }
    return out;
}

/// Attaches the system-call meter to `qp` for one post and reports what the posts made.
struct CountedPosts {
    State& s;
    QueuePair& qp;
    std::uint64_t syscalls = 0;
    std::string why;
    // The meter is opened for the step only: while it is open the raw_syscalls tracepoint stays registered,
    // which slows every system call of every thread (a later bench step would measure that).
    CountedPosts(State& state, QueuePair& queue_pair) : s(state), qp(queue_pair) {
        s.meter = std::make_shared<SyscallMeter>();
        qp.count_syscalls(s.meter);
    }
    ~CountedPosts() {
        qp.count_syscalls(nullptr);
        s.meter.reset();
    }
    CountedPosts(const CountedPosts&) = delete;
    CountedPosts& operator=(const CountedPosts&) = delete;
    void add() {
        const auto& tally = qp.last_post_syscalls();
        if (!tally.why.empty())
            why = tally.why;
        else
            syscalls += tally.count;
    }
    void report(Results& out, std::size_t posted, std::size_t calls) const {
        out["posted"] = std::to_string(posted);
        out["calls"] = std::to_string(calls);
        out["syscalls"] = why.empty() ? std::to_string(syscalls) : "not counted (" + why + ")";
    }
};

ibv_wr_opcode wr_opcode(const std::string& name) {
    if (name == "send_imm") return IBV_WR_SEND_WITH_IMM;
    if (name == "write") return IBV_WR_RDMA_WRITE;
    if (name == "write_imm") return IBV_WR_RDMA_WRITE_WITH_IMM;
    if (name == "read") return IBV_WR_RDMA_READ;
    if (name == "cas") return IBV_WR_ATOMIC_CMP_AND_SWP;
    if (name == "faa") return IBV_WR_ATOMIC_FETCH_AND_ADD;
    if (name == "local_inv") return IBV_WR_LOCAL_INV;
    if (name == "send_with_inv") return IBV_WR_SEND_WITH_INV;
    if (name == "bind_mw") return IBV_WR_BIND_MW;
    return IBV_WR_SEND;
}

} // namespace

void do_post_recv(State& s, const Step& step, StepResult& r) {
    auto& q = s.object(s.qps, step, "qp");
    RecvRequest request;
    request.sges = sge_list(s, step);
    request.wr_id = u64(arg(step, "wr_id"), s.next + 1);
    const auto count = static_cast<std::size_t>(integer(step, "count", 1));
    CountedPosts counted(s, *q.qp);
    std::size_t posted = 0;
    try {
        for (; posted < count; ++posted) {
            q.qp->post_recv(request);
            counted.add();
            ++request.wr_id;
        }
    } catch (...) {
        counted.report(r.results, posted, posted + 1);
        throw;
    }
    counted.report(r.results, posted, posted);
}

void do_post_send(State& s, const Step& step, StepResult& r) {
    auto& q = s.object(s.qps, step, "qp");
    SendRequest base;
    base.opcode = wr_opcode(text(step, "opcode"));
    base.sges = sge_list(s, step);
    if (const Value* remote = arg(step, "remote")) {
        if (const Value* mr_name = remote->find("mr")) {
            const auto it = s.mrs.find(mr_name->text);
            if (it != s.mrs.end()) {
                base.remote_addr = it->second->address();
                base.rkey = it->second->rkey();
            } else if (s.options.peer) { // the region is on the other host, which sent its address and rkey
                base.remote_addr = std::stoull(peer_value(s, mr_name->text + ".addr"), nullptr, 0);
                base.rkey = static_cast<std::uint32_t>(
                    std::stoul(peer_value(s, mr_name->text + ".rkey"), nullptr, 0));
            } else {
                throw LabRunError("remote.mr names '" + mr_name->text + "', which does not exist");
            }
        }
        remote_window(s, step, *remote, base);
        base.remote_addr = u64(remote->find("addr"), base.remote_addr) + u64(remote->find("offset"), 0);
        base.rkey = static_cast<std::uint32_t>(u64(remote->find("rkey"), base.rkey));
        // The same index with another 8-bit key: a guess that is wrong by construction.
        base.rkey ^= static_cast<std::uint32_t>(u64(remote->find("key_xor"), 0) & 0xffu);
    }
    window_request(s, step, base);
    if (const Value* imm = arg(step, "imm")) base.imm_data = static_cast<std::uint32_t>(imm->as_u64());
    if (base.opcode == IBV_WR_ATOMIC_CMP_AND_SWP) {
        base.compare_add = u64(arg(step, "compare"), 0);
        base.swap = u64(arg(step, "swap"), 0);
    } else if (base.opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) {
        base.compare_add = u64(arg(step, "add"), 0);
    }
    base.signaled = boolean(step, "signaled", true);
    base.inline_data = boolean(step, "inline", false);
    base.solicited = boolean(step, "solicited", false);
    base.fence = boolean(step, "fence", false);
    if (arg(step, "ah")) base.ah = s.object(s.ahs, step, "ah");
    if (arg(step, "remote_qp")) {
        const std::string remote = text(step, "remote_qp");
        base.remote_qpn = s.options.peer && !s.qps.contains(remote) // on the other host: its number as sent
                              ? static_cast<std::uint32_t>(std::stoul(peer_value(s, remote + ".qpn")))
                              : s.object(s.qps, step, "remote_qp").qp->qp_num();
    }
    base.remote_qkey = static_cast<std::uint32_t>(u64(arg(step, "qkey"), kDefaultQkey));
    if (arg(step, "group")) {
        const auto& group = s.object(s.groups, step, "group");
        base.remote_qpn = group->qp_num; // 0xFFFFFF: the multicast QP number
        base.remote_qkey = static_cast<std::uint32_t>(u64(arg(step, "qkey"), group->qkey));
    }
    base.wr_id = u64(arg(step, "wr_id"), s.next + 1);
    const auto count = static_cast<std::size_t>(integer(step, "count", 1));
    const auto per_call = static_cast<std::size_t>(integer(step, "per_call", 1));
    const Value* every = arg(step, "signal_every");
    std::vector<SendRequest> requests(count, base);
    for (std::size_t i = 0; i < count; ++i) {
        requests[i].wr_id = base.wr_id + i;
        if (every)
            requests[i].signaled = (i + 1) % static_cast<std::size_t>(every->integer) == 0 || i + 1 == count;
    }
    CountedPosts counted(s, *q.qp);
    std::size_t posted = 0, calls = 0;
    try {
        while (posted < count) {
            const std::size_t n = std::min(per_call, count - posted);
            ++calls;
            q.qp->post_send_list(std::span<const SendRequest>(requests).subspan(posted, n));
            counted.add();
            posted += n;
        }
    } catch (...) {
        counted.report(r.results, posted, calls);
        throw;
    }
    counted.report(r.results, posted, calls);
    if (base.opcode == IBV_WR_BIND_MW) window_posted(s, step);
}

void do_poll_cq(State& s, const Step& step, StepResult& r) {
    auto& cq = s.object(s.cqs, step, "cq");
    const auto count = static_cast<std::size_t>(integer(step, "count", 1));
    r.timeout_ms = static_cast<int>(integer(step, "timeout", kDefaultTimeoutMs));
    const auto timeout = std::chrono::milliseconds(r.timeout_ms);
    // Counted as the posts are (CountedPosts): a meter for this step only.
    s.meter = std::make_shared<SyscallMeter>();
    cq->count_syscalls(s.meter);
    cq->reset_polled_syscalls();
    struct Detach {
        State& s;
        CompletionQueue& cq;
        ~Detach() {
            cq.count_syscalls(nullptr);
            s.meter.reset();
        }
    } detach{s, *cq};
    if (count == 0) {
        // Nothing is expected: watch the CQ for the whole timeout and keep whatever arrives.
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (std::chrono::steady_clock::now() < deadline) {
            auto batch = cq->poll(16);
            r.completions.insert(r.completions.end(), batch.begin(), batch.end());
            if (batch.empty()) std::this_thread::sleep_for(std::chrono::microseconds(100));
        }
    } else {
        r.completions = cq->poll_until(count, timeout);
    }
    Results& out = r.results;
    const SyscallTally& polled = cq->polled_syscalls();
    out["syscalls"] = polled.why.empty() ? std::to_string(polled.count) : "not counted (" + polled.why + ")";
    out["count"] = std::to_string(r.completions.size());
    if (r.completions.empty()) {
        out["status"] = "none";
        return;
    }
    // What the completed work did to memory, as LoopbackOperation shows it after A's completion.
    record_every_region(s, "after " + text(step, "cq") + "'s completion");
    const Completion& c = r.completions.front();
    out["status"] = status_name(c.status);
    out["wr_id"] = std::to_string(c.wr_id);
    out["qp_num"] = std::to_string(c.qp_num);
    if (c.status != IBV_WC_SUCCESS) {
        // ibv_poll_cq(3): the other fields of a failed completion are not valid.
        for (const char* key : {"opcode", "byte_len", "imm", "src_qp", "wc_flags", "invalidated_rkey"})
            out[key] = "undefined";
        return;
    }
    out["opcode"] = opcode_name(c.opcode);
    out["byte_len"] = std::to_string(c.byte_len);
    out["imm"] = c.imm_data ? hex(*c.imm_data) : "none";
    out["src_qp"] = std::to_string(c.src_qp);
    std::string flags;
    for (const auto& f : wc_flag_names(c.wc_flags))
        flags += (flags.empty() ? "" : ",") + f;
    out["wc_flags"] = flags.empty() ? "none" : flags;
    out["invalidated_rkey"] = c.invalidated_rkey ? hex(*c.invalidated_rkey) : "none";
}

} // namespace rdmalab::labs::run
