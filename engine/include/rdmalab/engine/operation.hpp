// One RDMA operation performed step by step on a loopback pair (endpoints A and B in one process,
// RC-connected through the port's RoCE v2 GID). The CLI runs all steps; the engine process runs one per
// "step" command, so a front end can show each real verbs call as it happens.
#pragma once

#include "rdmalab/engine/verbs.hpp"
#include "rdmalab/format/trace.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rdmalab {

/// The operations a lesson can perform.
enum class OpKind { Send, SendImm, Write, WriteImm, Read, CompareSwap, FetchAdd };

/// Faults that can be injected for real.
enum class FaultKind { None, BadRkey, NoRemoteAccess, OutOfBounds, NoRecv };

std::string_view to_string(OpKind op);
std::optional<OpKind> op_kind_from_string(std::string_view text); ///< send, send_imm, write, ...
std::string_view to_string(FaultKind fault);
std::optional<FaultKind> fault_kind_from_string(std::string_view text); ///< bad-rkey, no-remote-access, ...
/// Every operation's name, in declaration order (what op_kind_from_string accepts).
std::vector<std::string_view> op_kind_names();
/// Every fault's name, "none" first, in declaration order (what fault_kind_from_string accepts).
std::vector<std::string_view> fault_kind_names();
/// The completion status a fault is expected to produce on the requester.
ibv_wc_status expected_status(FaultKind fault);

/// Parameters of one operation.
struct OperationOptions {
    OpKind op = OpKind::Write;
    std::size_t size = 64;                ///< message bytes (atomics always move 8)
    std::string message = "Hello, RDMA!"; ///< repeated to fill `size`
    std::string device;                   ///< empty: first device
    std::uint8_t port = 1;
    FaultKind fault = FaultKind::None;
    bool inline_data = false;
    std::uint32_t imm_data = 0x1234abcd;
    std::uint64_t atomic_initial = 100; ///< B's 8 bytes before an atomic
    std::uint64_t atomic_operand = 5;   ///< FAA: add; CAS: swap value (compare = atomic_initial)
    int timeout_ms = 10000;             ///< per completion
};

/// Checks option consistency; returns an error message or empty.
std::string validate(const OperationOptions& options);

/// A planned step.
struct StepInfo {
    std::string id;    ///< stable identifier, e.g. "reg_mr_B"
    std::string title; ///< one line for humans
    Endpoint endpoint = Endpoint::None;
};

/// What the operation did, once finished.
struct OperationOutcome {
    bool finished = false;
    bool success = false; ///< completion(s) succeeded and data verified, or the expected fault observed
    std::string summary;  ///< one line
    std::optional<Completion> requester_completion;
    std::optional<Completion> responder_completion;
    std::vector<std::string> checks; ///< human-readable verification lines
    std::string requester_qp_state;
    std::string responder_qp_state;
    std::optional<ErrorInfo> error; ///< a failing verb or an unexpected completion status
};

class LoopbackOperation {
  public:
    LoopbackOperation(OperationOptions options, std::shared_ptr<Tracer> tracer);
    ~LoopbackOperation();
    LoopbackOperation(const LoopbackOperation&) = delete;
    LoopbackOperation& operator=(const LoopbackOperation&) = delete;

    const std::vector<StepInfo>& steps() const { return steps_; }
    std::size_t next_step() const { return next_; }
    bool done() const { return next_ >= steps_.size() || outcome_.finished; }
    /// Runs the next step. Failures are recorded in outcome() (and traced); never throws RdmaError.
    /// Returns false when the step failed (the operation is then finished).
    bool run_next();
    /// Runs every remaining step.
    void run_all();
    const OperationOutcome& outcome() const { return outcome_; }
    const OperationOptions& options() const { return options_; }

    /// Releases every verbs object in the canonical order (QP, CQ, MR, PD, context), traced.
    void teardown();

    std::shared_ptr<MemoryRegion> region(Endpoint endpoint) const;
    std::shared_ptr<QueuePair> queue_pair(Endpoint endpoint) const;

  private:
    struct Side;
    class SyscallsCounted;
    /// The steps, in order: the resources, the connection, the work request and its completions, the check.
    void plan();
    /// Device, PDs, buffers, CQs and QPs of both sides.
    void plan_resources();
    /// Each QP from RESET to RTS, pointed at the other.
    void plan_connection();
    /// B's receive when the opcode takes one, A's work request, both completions.
    void plan_work();
    /// The bytes checked, or what a fault leaves behind (the QP's state, a flushed request).
    void plan_ending();
    /// Side `ep`'s buffer registered with `access` and filled by its application.
    void register_buffer(Endpoint ep, unsigned access);
    /// A's work request, with the fault's wrong key or address when there is one.
    void post_request();
    void add(std::string id, std::string title, Endpoint endpoint, std::function<void()> action);
    void step(const std::string& id, Endpoint endpoint);
    void record_memory(Endpoint endpoint, const std::string& when);
    void finish_success();
    void finish_fault();
    Side& side(Endpoint endpoint);

    OperationOptions options_;
    std::shared_ptr<Tracer> tracer_;
    std::vector<StepInfo> steps_;
    std::vector<std::function<void()>> actions_;
    std::size_t next_ = 0;
    OperationOutcome outcome_;

    std::shared_ptr<Context> context_;
    int gid_index_ = 0;
    ibv_gid gid_{};
    ibv_mtu mtu_ = IBV_MTU_1024;
    std::unique_ptr<Side> a_;
    std::unique_ptr<Side> b_;
    std::vector<std::uint8_t> expected_;
};

} // namespace rdmalab
