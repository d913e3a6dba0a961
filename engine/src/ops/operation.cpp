#include "rdmalab/engine/operation.hpp"

#include "ops/op_common.hpp"
#include "rdmalab/engine/names.hpp"

#include <endian.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstring>

namespace rdmalab {

using namespace detail;

namespace {
std::string hex_bytes(std::span<const std::uint8_t> bytes, std::size_t limit) {
    std::string out;
    const std::size_t n = std::min(bytes.size(), limit);
    out.reserve(n * 2);
    for (std::size_t i = 0; i < n; ++i)
        out += fmt::format("{:02x}", bytes[i]);
    return out;
}

std::string printable(std::span<const std::uint8_t> bytes, std::size_t limit) {
    std::string out;
    const std::size_t n = std::min(bytes.size(), limit);
    for (std::size_t i = 0; i < n; ++i)
        out += (bytes[i] >= 32 && bytes[i] < 127) ? char(bytes[i]) : '.';
    return out;
}

constexpr std::size_t kMemoryPreview = 256; // bytes of each buffer shown in Data events
constexpr std::uint64_t kWrIdMain = 1;
constexpr std::uint64_t kWrIdRecv = 2;
constexpr std::uint64_t kWrIdAfterFault = 3;

/// The steps that post or poll: their ibv_post_send, ibv_post_recv and ibv_poll_cq events carry the
/// system calls each call made (`syscalls`), so a lesson can show which verb enters the kernel.
bool counts_syscalls(const std::string& step_id) {
    return step_id.rfind("post_", 0) == 0 || step_id.rfind("poll_", 0) == 0;
}
} // namespace

struct LoopbackOperation::Side {
    Endpoint endpoint;
    std::shared_ptr<ProtectionDomain> pd;
    std::shared_ptr<MemoryRegion> mr;
    std::shared_ptr<CompletionQueue> cq;
    std::shared_ptr<QueuePair> qp;
    std::uint32_t psn = 0;
    std::vector<std::uint8_t> before; ///< buffer content before the operation
};

/// Attaches a SyscallMeter to both endpoints' QPs and CQs for one step, and detaches it after. The
/// counter is opened for the step only: while a raw_syscalls:sys_enter counter is open the tracepoint
/// stays registered, which sends every system call of every thread through the kernel's slower traced
/// path, and between steps the engine process may start a measurement.
class LoopbackOperation::SyscallsCounted {
  public:
    SyscallsCounted(LoopbackOperation& op, bool on) : op_(op) {
        if (on) attach(std::make_shared<const SyscallMeter>());
    }
    ~SyscallsCounted() {
        if (attached_) attach(nullptr);
    }
    SyscallsCounted(const SyscallsCounted&) = delete;
    SyscallsCounted& operator=(const SyscallsCounted&) = delete;

  private:
    void attach(const std::shared_ptr<const SyscallMeter>& meter) {
        for (const auto* side : {op_.a_.get(), op_.b_.get()}) {
            if (side->qp) side->qp->count_syscalls(meter);
            if (side->cq) side->cq->count_syscalls(meter);
        }
        attached_ = meter != nullptr;
    }
    LoopbackOperation& op_;
    bool attached_ = false;
};

LoopbackOperation::LoopbackOperation(OperationOptions options, std::shared_ptr<Tracer> tracer)
    : options_(std::move(options)), tracer_(std::move(tracer)), a_(std::make_unique<Side>()),
      b_(std::make_unique<Side>()) {
    if (is_atomic(options_.op)) options_.size = 8;
    a_->endpoint = Endpoint::A;
    b_->endpoint = Endpoint::B;
    // Distinct, recognisable initial PSNs (rc_pingpong uses random ones; fixed values keep traces
    // comparable).
    a_->psn = 0x1000;
    b_->psn = 0x2000;
    plan();
}

LoopbackOperation::~LoopbackOperation() {
    teardown();
}

LoopbackOperation::Side& LoopbackOperation::side(Endpoint endpoint) {
    return endpoint == Endpoint::A ? *a_ : *b_;
}

std::shared_ptr<MemoryRegion> LoopbackOperation::region(Endpoint endpoint) const {
    return endpoint == Endpoint::A ? a_->mr : b_->mr;
}

std::shared_ptr<QueuePair> LoopbackOperation::queue_pair(Endpoint endpoint) const {
    return endpoint == Endpoint::A ? a_->qp : b_->qp;
}

void LoopbackOperation::add(std::string id, std::string title, Endpoint endpoint,
                            std::function<void()> action) {
    steps_.push_back({std::move(id), std::move(title), endpoint});
    actions_.push_back(std::move(action));
}

void LoopbackOperation::record_memory(Endpoint endpoint, const std::string& when) {
    if (!tracer_ || !tracer_->enabled()) return;
    auto& s = side(endpoint);
    if (!s.mr) return;
    const auto bytes = s.mr->bytes();
    nlohmann::json data = {{"when", when},
                           {"addr", fmt::format("0x{:x}", s.mr->address())},
                           {"length", bytes.size()},
                           {"preview_len", std::min(bytes.size(), kMemoryPreview)},
                           {"hex", hex_bytes(bytes, kMemoryPreview)},
                           {"text", printable(bytes, kMemoryPreview)}};
    if (!s.before.empty()) {
        nlohmann::json changed = nlohmann::json::array();
        std::size_t i = 0;
        while (i < bytes.size()) {
            if (bytes[i] == s.before[i]) {
                ++i;
                continue;
            }
            std::size_t j = i;
            while (j < bytes.size() && bytes[j] != s.before[j])
                ++j;
            changed.push_back({{"offset", i}, {"length", j - i}});
            i = j;
        }
        data["changed"] = changed;
    }
    tracer_->record(endpoint, EventKind::Data, "memory", {{"lkey", s.mr->lkey()}, {"rkey", s.mr->rkey()}},
                    data);
}

void LoopbackOperation::plan() {
    plan_resources();
    plan_connection();
    plan_work();
    plan_ending();
}

void LoopbackOperation::plan_resources() {
    const auto& o = options_;
    add("open_device", "Open the RDMA device, check the port is ACTIVE and pick its RoCE v2 GID",
        Endpoint::None, [this] {
            context_ = Context::open(options_.device, tracer_);
            context_->require_active_port(options_.port);
            gid_index_ = context_->rocev2_gid_index(options_.port);
            gid_ = context_->query_gid(options_.port, gid_index_);
            const auto port = context_->query_port(options_.port);
            mtu_ = port.active_mtu;
        });
    for (Endpoint ep : {Endpoint::A, Endpoint::B})
        add(fmt::format("alloc_pd_{}", char(ep)),
            fmt::format("{}: allocate a protection domain (ibv_alloc_pd)", char(ep)), ep,
            [this, ep] { side(ep).pd = ProtectionDomain::alloc(context_, ep); });

    // Each side registers exactly the access the operation needs, as a lesson should teach.
    const unsigned access_a = requester_access(o.op);
    const unsigned access_b = responder_access(o.op, o.fault);
    for (Endpoint ep : {Endpoint::A, Endpoint::B}) {
        const unsigned access = ep == Endpoint::A ? access_a : access_b;
        add(fmt::format("reg_mr_{}", char(ep)),
            fmt::format("{}: register a {}-byte buffer with access {} (ibv_reg_mr)", char(ep), o.size,
                        access == 0 ? std::string("none (local read only)")
                                    : fmt::format("{}", fmt::join(access_flag_names(access), "|"))),
            ep, [this, ep, access] { register_buffer(ep, access); });
    }
    for (Endpoint ep : {Endpoint::A, Endpoint::B})
        add(fmt::format("create_cq_{}", char(ep)),
            fmt::format("{}: create a completion queue (ibv_create_cq)", char(ep)), ep,
            [this, ep] { side(ep).cq = CompletionQueue::create(context_, ep, 16); });
    for (Endpoint ep : {Endpoint::A, Endpoint::B})
        add(fmt::format("create_qp_{}", char(ep)),
            fmt::format("{}: create an RC queue pair, state RESET (ibv_create_qp)", char(ep)), ep,
            [this, ep] {
                auto& s = side(ep);
                QpCapacity cap;
                cap.max_inline_data = options_.inline_data ? static_cast<std::uint32_t>(options_.size) : 0;
                s.qp = QueuePair::create(s.pd, s.cq, s.cq, IBV_QPT_RC, cap);
            });
}

void LoopbackOperation::register_buffer(Endpoint ep, unsigned access) {
    auto& s = side(ep);
    // Checked once for the whole operation, before A's buffer: two buffers and the copies of
    // them kept to verify the outcome. One large buffer allocated and the next refused would
    // fit; all four may not, and the kernel's OOM killer explains nothing.
    if (ep == Endpoint::A)
        if (auto shortfall = explain_memory_shortfall(
                4 * std::uint64_t(options_.size),
                fmt::format("A's and B's {}-byte buffers and the copies that verify them", options_.size),
                fmt::format("A 和 B 各自 {} 字节的缓冲区及用于校验的副本", options_.size))) {
            // Traced as a failing verb's error is, so front ends show it with the step.
            if (tracer_ && tracer_->enabled())
                tracer_->record(Endpoint::A, EventKind::Error, shortfall->verb, {}, shortfall->to_json());
            throw RdmaError(std::move(*shortfall));
        }
    s.mr = MemoryRegion::allocate(s.pd, options_.size, access, ep == Endpoint::A ? "A buffer" : "B buffer");
    // The application fills its buffers: the source of the data is A for send/write, B for read.
    auto bytes = s.mr->bytes();
    const bool source = (ep == Endpoint::A) != (options_.op == OpKind::Read);
    if (is_atomic(options_.op)) {
        const std::uint64_t value = ep == Endpoint::B ? options_.atomic_initial : 0;
        std::memcpy(bytes.data(), &value, sizeof value);
    } else if (source) {
        fill_pattern(bytes, options_.message);
        expected_.assign(bytes.begin(), bytes.end());
    }
    s.before.assign(bytes.begin(), bytes.end());
    record_memory(ep, "after registration; the application filled the buffer");
}

void LoopbackOperation::plan_connection() {
    const auto& o = options_;
    constexpr unsigned qp_access =
        IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
    for (Endpoint ep : {Endpoint::A, Endpoint::B})
        add(fmt::format("init_{}", char(ep)),
            fmt::format("{}: RESET->INIT: bind the QP to port {} and allow remote access", char(ep), o.port),
            ep, [this, ep] { side(ep).qp->to_init(options_.port, qp_access); });
    for (Endpoint ep : {Endpoint::A, Endpoint::B})
        add(fmt::format("rtr_{}", char(ep)),
            fmt::format("{}: INIT->RTR: point the QP at the peer's QP number, GID and PSN", char(ep)), ep,
            [this, ep] {
                auto& self = side(ep);
                auto& peer = side(ep == Endpoint::A ? Endpoint::B : Endpoint::A);
                PathInfo path;
                path.remote_qpn = peer.qp->qp_num();
                path.remote_psn = peer.psn;
                path.remote_gid = gid_; // loopback: both QPs sit behind the same GID
                path.sgid_index = gid_index_;
                path.port = options_.port;
                path.path_mtu = mtu_;
                path.min_rnr_timer = 1; // 0.01 ms: keeps the no-recv lesson quick
                self.qp->to_rtr(path);
            });
    for (Endpoint ep : {Endpoint::A, Endpoint::B})
        add(fmt::format("rts_{}", char(ep)),
            fmt::format("{}: RTR->RTS: set the send PSN, timeout and retry counts", char(ep)), ep,
            [this, ep] {
                RtsParams rts;
                rts.sq_psn = side(ep).psn;
                // rnr_retry 0: one RNR NAK fails the send at once, the behaviour the no-recv fault shows.
                if (options_.fault == FaultKind::NoRecv) rts.rnr_retry = 0;
                side(ep).qp->to_rts(rts);
            });
}

void LoopbackOperation::plan_work() {
    const auto& o = options_;
    const std::string op_name(wr_opcode_name(wr_opcode(o.op)));
    const bool post_recv = needs_recv(o.op) && o.fault != FaultKind::NoRecv;
    if (post_recv)
        add("post_recv_B",
            o.op == OpKind::WriteImm
                ? std::string("B: post a receive request; RDMA WRITE with immediate consumes one to deliver "
                              "the immediate (ibv_post_recv)")
                : fmt::format("B: post a receive request for {} bytes into its buffer (ibv_post_recv)",
                              o.size),
            Endpoint::B, [this] {
                RecvRequest recv;
                recv.wr_id = kWrIdRecv;
                if (options_.op != OpKind::WriteImm)
                    recv.sges.push_back(
                        {b_->mr->address(), static_cast<std::uint32_t>(b_->mr->length()), b_->mr->lkey()});
                b_->qp->post_recv(recv);
            });

    std::string post_title =
        fmt::format("A: post a signaled {} work request and ring the doorbell (ibv_post_send)", op_name);
    if (o.fault == FaultKind::BadRkey) post_title += " with a wrong rkey";
    if (o.fault == FaultKind::OutOfBounds) post_title += " that runs past the end of B's region";
    if (o.fault == FaultKind::NoRecv) post_title += " while B has no receive posted";
    add("post_send_A", post_title, Endpoint::A, [this] { post_request(); });
    add("poll_cq_A", "A: poll its completion queue for the send-side completion (ibv_poll_cq)", Endpoint::A,
        [this] {
            auto wcs = a_->cq->poll_until(1, std::chrono::milliseconds(options_.timeout_ms));
            if (wcs.empty())
                throw RdmaError(
                    {"ibv_poll_cq", ETIMEDOUT, "ETIMEDOUT", "no completion arrived in time",
                     fmt::format("A's work request did not complete within {} ms.", options_.timeout_ms),
                     "Check that both QPs reached RTS and the port is ACTIVE; on SoftRoCE under heavy "
                     "load raise the timeout."});
            outcome_.requester_completion = wcs.front();
            record_memory(Endpoint::A, "after A's completion");
            record_memory(Endpoint::B, "after A's completion");
        });
    if (post_recv)
        add("poll_cq_B", "B: poll its completion queue for the receive completion (ibv_poll_cq)", Endpoint::B,
            [this] {
                auto wcs = b_->cq->poll_until(1, std::chrono::milliseconds(options_.timeout_ms));
                if (!wcs.empty()) outcome_.responder_completion = wcs.front();
            });
}

void LoopbackOperation::post_request() {
    SendRequest wr;
    wr.wr_id = kWrIdMain;
    wr.opcode = wr_opcode(options_.op);
    wr.inline_data = options_.inline_data;
    wr.sges.push_back({a_->mr->address(), static_cast<std::uint32_t>(a_->mr->length()), a_->mr->lkey()});
    if (options_.op == OpKind::SendImm || options_.op == OpKind::WriteImm) wr.imm_data = options_.imm_data;
    if (!is_send(options_.op)) {
        wr.remote_addr = b_->mr->address();
        wr.rkey = b_->mr->rkey();
        if (options_.fault == FaultKind::BadRkey) wr.rkey ^= 0x00ff0000u;  // not a key B registered
        if (options_.fault == FaultKind::OutOfBounds) wr.remote_addr += 1; // last byte falls outside
    }
    if (options_.op == OpKind::CompareSwap) {
        wr.compare_add = options_.atomic_initial;
        wr.swap = options_.atomic_operand;
    } else if (options_.op == OpKind::FetchAdd) {
        wr.compare_add = options_.atomic_operand;
    }
    a_->qp->post_send(wr);
}

void LoopbackOperation::plan_ending() {
    if (options_.fault == FaultKind::None) {
        add("verify", "Check that the bytes really moved and the completions are right", Endpoint::None,
            [this] { finish_success(); });
    } else {
        add("query_qp_A", "A: query the QP state after the failed completion (ibv_query_qp)", Endpoint::A,
            [this] { outcome_.requester_qp_state = std::string(qp_state_name(a_->qp->query_state())); });
        add("post_after_fault_A", "A: post one more work request on the failed QP (ibv_post_send)",
            Endpoint::A, [this] {
                SendRequest wr;
                wr.wr_id = kWrIdAfterFault;
                wr.opcode = IBV_WR_SEND;
                wr.sges.push_back({a_->mr->address(), 1, a_->mr->lkey()});
                a_->qp->post_send(wr);
            });
        add("poll_flush_A", "A: poll again: the new request is flushed, not executed (ibv_poll_cq)",
            Endpoint::A, [this] { finish_fault(); });
    }
}

void LoopbackOperation::finish_success() {
    auto& out = outcome_;
    Checklist check{out.checks};
    const auto& wc = out.requester_completion;
    check(wc && wc->ok(),
          fmt::format("A's completion status {}", wc ? wc_status_name(wc->status) : "missing"));
    if (wc && wc->ok())
        check(wc->opcode == expected_wc_opcode(options_.op),
              fmt::format("A's completion opcode {} (expected {})", wc_opcode_name(wc->opcode),
                          wc_opcode_name(expected_wc_opcode(options_.op))));
    if (needs_recv(options_.op)) {
        const auto& rwc = out.responder_completion;
        check(rwc && rwc->ok(),
              fmt::format("B's receive completion status {}", rwc ? wc_status_name(rwc->status) : "missing"));
        if (rwc && rwc->ok()) {
            const auto expected_op =
                options_.op == OpKind::WriteImm ? IBV_WC_RECV_RDMA_WITH_IMM : IBV_WC_RECV;
            check(rwc->opcode == expected_op,
                  fmt::format("B's completion opcode {}", wc_opcode_name(rwc->opcode)));
            check(rwc->byte_len == options_.size,
                  fmt::format("B's completion byte_len {} (expected {})", rwc->byte_len, options_.size));
            if (options_.op == OpKind::SendImm || options_.op == OpKind::WriteImm)
                check(rwc->imm_data && *rwc->imm_data == options_.imm_data,
                      fmt::format("B's completion carries imm_data 0x{:x} (expected 0x{:x})",
                                  rwc->imm_data.value_or(0), options_.imm_data));
        }
    }
    if (options_.op == OpKind::Read) {
        check(wc && wc->ok() && wc->byte_len == options_.size,
              fmt::format("A's completion byte_len {} (expected {})", wc ? wc->byte_len : 0, options_.size));
        const auto bytes = a_->mr->bytes();
        check(std::equal(bytes.begin(), bytes.end(), expected_.begin(), expected_.end()),
              fmt::format("A's buffer now holds the {} bytes read from B's buffer", options_.size));
    } else if (is_atomic(options_.op)) {
        std::uint64_t remote = 0, fetched = 0;
        std::memcpy(&remote, b_->mr->data(), 8);
        std::memcpy(&fetched, a_->mr->data(), 8);
        const std::uint64_t want_remote = options_.op == OpKind::CompareSwap
                                              ? options_.atomic_operand
                                              : options_.atomic_initial + options_.atomic_operand;
        // Some HCAs operate on big-endian values in memory; accept that consistently and say so.
        if (remote != want_remote && be64toh(remote) == want_remote &&
            be64toh(fetched) == options_.atomic_initial) {
            remote = be64toh(remote);
            fetched = be64toh(fetched);
            out.checks.push_back("note: this device stores atomic operands big-endian in memory");
        }
        check(fetched == options_.atomic_initial,
              fmt::format("A received the old value {} (expected {})", fetched, options_.atomic_initial));
        check(remote == want_remote,
              fmt::format("B's 8 bytes changed to {} (expected {}: {})", remote, want_remote,
                          options_.op == OpKind::CompareSwap
                              ? fmt::format("compare {} matched, swap {}", options_.atomic_initial,
                                            options_.atomic_operand)
                              : fmt::format("{} + {}", options_.atomic_initial, options_.atomic_operand)));
    } else {
        const auto bytes = b_->mr->bytes();
        check(std::equal(bytes.begin(), bytes.end(), expected_.begin(), expected_.end()),
              fmt::format("B's buffer now holds the {} bytes of A's buffer", options_.size));
    }
    out.requester_qp_state = std::string(qp_state_name(a_->qp->query_state()));
    out.responder_qp_state = std::string(qp_state_name(b_->qp->query_state()));
    out.success = check.ok;
    out.finished = true;
    out.summary =
        check.ok ? fmt::format("{} of {} bytes completed and verified on {}", to_string(options_.op),
                               options_.size, context_->device_name())
                 : fmt::format("{} on {} did not verify", to_string(options_.op), context_->device_name());
    if (tracer_ && tracer_->enabled())
        tracer_->record(Endpoint::None, EventKind::Check, check.ok ? "verified" : "not_verified", {},
                        {{"ok", check.ok}, {"checks", out.checks}, {"summary", out.summary}});
}

void LoopbackOperation::finish_fault() {
    auto& out = outcome_;
    auto flushed = a_->cq->poll_until(1, std::chrono::milliseconds(options_.timeout_ms));
    context_->poll_async_events();
    Checklist check{out.checks};
    const auto expected = expected_status(options_.fault);
    const auto& wc = out.requester_completion;
    check_requester_status(check, wc, expected);
    check_requester_in_error(check, out.requester_qp_state);
    check(!flushed.empty() && flushed.front().status == IBV_WC_WR_FLUSH_ERR,
          fmt::format("the next work request completed with {} (expected IBV_WC_WR_FLUSH_ERR)",
                      flushed.empty() ? "nothing" : wc_status_name(flushed.front().status)));
    out.responder_qp_state = std::string(qp_state_name(b_->qp->query_state()));
    out.checks.push_back(fmt::format("info B's QP state {}", out.responder_qp_state));
    if (options_.fault != FaultKind::NoRecv) {
        const auto bytes = b_->mr->bytes();
        const bool untouched = std::equal(bytes.begin(), bytes.end(), b_->before.begin(), b_->before.end());
        check(untouched, "B's buffer is unchanged: the responder rejected the access before writing");
    }
    if (wc && !wc->ok())
        out.error = explain_wc_status(wc->status, std::string(wr_opcode_name(wr_opcode(options_.op))));
    out.success = check.ok;
    out.finished = true;
    out.summary =
        check.ok ? fmt::format("fault {} observed as expected: {} and QP in ERR on {}",
                               to_string(options_.fault), wc_status_name(expected), context_->device_name())
                 : fmt::format("fault {} did not show the expected behaviour", to_string(options_.fault));
    if (tracer_ && tracer_->enabled())
        tracer_->record(Endpoint::None, EventKind::Check, check.ok ? "fault_observed" : "fault_not_observed",
                        {}, {{"ok", check.ok}, {"checks", out.checks}, {"summary", out.summary}});
}

bool LoopbackOperation::run_next() {
    if (done()) return false;
    const std::size_t index = next_++;
    const auto& info = steps_[index];
    if (tracer_ && tracer_->enabled())
        tracer_->record(info.endpoint, EventKind::Step, info.id, {},
                        {{"index", index}, {"count", steps_.size()}, {"title", info.title}});
    try {
        const SyscallsCounted counted(*this, counts_syscalls(info.id));
        actions_[index]();
        // A failed completion ends the normal path early unless a fault was asked for.
        if (info.id == "poll_cq_A" && options_.fault == FaultKind::None && outcome_.requester_completion &&
            !outcome_.requester_completion->ok()) {
            outcome_.error = explain_wc_status(outcome_.requester_completion->status,
                                               std::string(wr_opcode_name(wr_opcode(options_.op))));
            context_->poll_async_events();
            outcome_.finished = true;
            outcome_.summary = "the operation's completion failed: " + outcome_.error->code;
            if (tracer_ && tracer_->enabled())
                tracer_->record(Endpoint::A, EventKind::Error, outcome_.error->verb, {},
                                outcome_.error->to_json());
            return false;
        }
        if (info.id == "poll_cq_A" && options_.fault != FaultKind::None && outcome_.requester_completion &&
            outcome_.requester_completion->ok()) {
            outcome_.finished = true;
            outcome_.summary =
                fmt::format("fault {} was not observed: the operation succeeded", to_string(options_.fault));
            return false;
        }
        return true;
    } catch (const RdmaError& e) {
        outcome_.error = e.info();
        outcome_.finished = true;
        outcome_.summary = fmt::format("step '{}' failed: {}", info.id, e.info().verb);
        return false;
    } catch (const std::exception& e) {
        outcome_.error = ErrorInfo{.verb = info.id,
                                   .err = 0,
                                   .code = "exception",
                                   .meaning = e.what(),
                                   .cause = "an unexpected error inside the engine",
                                   .fix = "Report this with the trace file.",
                                   .zh = {.meaning = {},
                                          .cause = "引擎内部发生了意外错误",
                                          .fix = "请附上轨迹文件报告这个问题。"}}
                             .seal();
        outcome_.finished = true;
        outcome_.summary = fmt::format("step '{}' failed: {}", info.id, e.what());
        if (tracer_ && tracer_->enabled())
            tracer_->record(info.endpoint, EventKind::Error, info.id, {}, outcome_.error->to_json());
        return false;
    }
}

void LoopbackOperation::run_all() {
    while (!done())
        if (!run_next()) break;
}

void LoopbackOperation::teardown() {
    // Canonical order (rc_pingpong): QPs, CQs, MRs, PDs, then the device context.
    if (!a_ || !b_) return;
    a_->qp.reset();
    b_->qp.reset();
    a_->cq.reset();
    b_->cq.reset();
    a_->mr.reset();
    b_->mr.reset();
    a_->pd.reset();
    b_->pd.reset();
    context_.reset();
}

} // namespace rdmalab
