// The runner's state shared by the run (lab_run.cpp), the actions (actions*.cpp) and the expectations
// (expectations.cpp). Internal.
#pragma once

#include "rdmalab/engine/capture.hpp"
#include "rdmalab/engine/cm_id.hpp"
#include "rdmalab/engine/memlock.hpp"
#include "rdmalab/engine/netaddr.hpp"
#include "rdmalab/engine/syscount.hpp"
#include "rdmalab/engine/verbs.hpp"
#include "rdmalab/labrun/lab_run.hpp"
#include "rdmalab/labs/lab.hpp"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace rdmalab::labs::run {

/// A mistake the runner finds that no verb made (an offset past a region, a write into a read-only
/// mapping): the step fails unexpectedly with this message.
class LabRunError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

/// The opened device and what open_device chose.
struct DeviceState {
    /// open_device with `address`: the rdma_cm id bound to it, whose device context `context` borrows
    /// (librdmacm closes that context when its last id goes, so this id is declared first: destroyed last).
    std::shared_ptr<CmId> cm_anchor;
    std::shared_ptr<Context> context;
    std::string name;
    std::uint8_t port = 1;
    int gid_index = 0;
    ibv_gid gid{};
    ibv_mtu active_mtu = IBV_MTU_1024;
    bool software = false;
};

/// A QP and the first PSN of its send queue (what its peer's RTR expects).
struct QpState {
    std::shared_ptr<QueuePair> qp;
    std::uint32_t psn = 0;
    mutable unsigned access = 0; ///< qp_access_flags set at INIT (or by modify_qp); State::object() is const
};

/// What one step's action left for its expectations and results.
struct StepResult {
    std::map<std::string, std::string> results;
    std::vector<Completion> completions;                 ///< poll_cq
    int timeout_ms = 0;                                  ///< poll_cq, wait_cq_event
    std::optional<bool> event_arrived;                   ///< wait_cq_event
    std::optional<std::vector<AsyncEvent>> async_events; ///< wait_async_event: what arrived
};

class PacketDropper; // actions_wire.cpp

struct State {
    Lab lab;
    std::shared_ptr<Tracer> tracer;
    LabRunOptions options;
    std::vector<StepOutcome> outcomes;
    std::size_t next = 0;
    bool stopped = false;
    bool torn_down = false;

    std::optional<DeviceState> device;
    std::map<std::string, std::shared_ptr<ProtectionDomain>> pds;
    std::map<std::string, std::shared_ptr<MemoryRegion>> mrs;
    /// Each region's first bytes as the application left them (at reg_mr, at write_memory): what a
    /// `memory` event's `changed` ranges are measured against, so they show what the device wrote.
    std::map<std::string, std::vector<std::uint8_t>> baselines;
    std::map<std::string, std::shared_ptr<CompletionChannel>> channels;
    std::map<std::string, std::shared_ptr<CompletionQueue>> cqs;
    std::map<std::string, QpState> qps;
    std::map<std::string, std::shared_ptr<AddressHandle>> ahs;
    std::map<std::string, std::shared_ptr<CmId>> cm_ids;
    std::map<std::string, std::shared_ptr<MulticastGroup>> groups;
    std::map<std::string, std::shared_ptr<SharedReceiveQueue>> srqs;
    std::map<std::string, std::shared_ptr<MemoryWindow>> mws;
    std::vector<std::string> created; ///< object names in creation order (teardown walks it backwards)
    std::map<std::string, std::string> values;
    std::shared_ptr<SyscallMeter> meter; ///< counts the system calls of one post or poll step, then closed
    std::map<std::string, std::shared_ptr<XrcDomain>> xrcds;
    std::map<std::string, std::shared_ptr<InterfaceAddress>> addresses; ///< add_address: removed at teardown
    /// set_memlock's lowered RLIMIT_MEMLOCK (and cleared CAP_IPC_LOCK): restored last at teardown.
    std::unique_ptr<LockedMemoryLimit> memlock;

    // ---- two hosts (LabRunOptions::peer; lab_peer.cpp, actions_wire.cpp) ----
    /// The capture of the wire's interface, from the first step to teardown; null when it could not start
    /// (`capture_failed` says why).
    std::unique_ptr<wire::Capture> capture;
    std::shared_ptr<wire::RequestLedger> ledger; ///< ties captured packets to this host's work requests
    bool wire_started = false;
    std::string capture_failed;
    std::size_t packets_recorded = 0; ///< packets traced so far (the next one's index is one more)
    /// drop_packets: the wire's packet dropper, removed first at teardown.
    std::map<std::string, std::shared_ptr<PacketDropper>> droppers;

    /// The class of the opened device (unknown before open_device): picks text variants and decides which
    /// `device:` expectations apply.
    DeviceClass device_class() const {
        return !device            ? DeviceClass::unknown
               : device->software ? DeviceClass::software
                                  : DeviceClass::hardware;
    }

    /// The object named by field `field` of `step`, of the wanted map; throws LabRunError when absent.
    template <typename Map> auto& object(const Map& map, const Step& step, const std::string& field) const;
};

// ---- field access (the parser validated types; absent optional fields take the schema's defaults) -----

const Value* arg(const Step& step, const std::string& name);
std::int64_t integer(const Step& step, const std::string& name, std::int64_t fallback);
std::uint64_t u64(const Value* value, std::uint64_t fallback);
bool boolean(const Step& step, const std::string& name, bool fallback);
std::string text(const Step& step, const std::string& name, const std::string& fallback = {});
std::vector<std::string> flag_list(const Value* value);
Endpoint endpoint_of(const std::string& object_name);

// ---- value formats (docs/lab-format.md, "Value paths and placeholders") ------------------------------

std::string hex(std::uint64_t value);
/// "00ff10" -> {0x00, 0xff, 0x10}; throws LabRunError for anything but an even number of hex digits (lab
/// check refuses such a file and a parameter's value is checked when it is filled in: this is the last
/// line of defence).
std::vector<std::uint8_t> hex_bytes(const std::string& text);
/// A completion index given as text (a parameter's value): a whole number, or LabRunError.
std::size_t index_number(const std::string& text);
std::string lower(std::string_view text);
std::string status_name(ibv_wc_status status); ///< "rem_access_err"
std::string opcode_name(ibv_wc_opcode opcode); ///< "rdma_write"
std::string state_name(ibv_qp_state state);    ///< "rts"
std::string access_names(unsigned access);     ///< "local_write,remote_write" or "none"
std::string value_text(const Value& value);    ///< a scalar Value as text (lists joined by ',')
unsigned access_bits(const std::vector<std::string>& names);

/// The runner's own words (the verdicts it writes, why a step was skipped) in the run's language
/// (LabRunOptions::language): `zh` when it is "zh", else `en`. Names, values and notation stay as written.
inline std::string say(const std::string& language, std::string en, std::string zh) {
    return language == "zh" ? std::move(zh) : std::move(en);
}

// ---- two hosts (lab_peer.cpp) ----

/// Whether this host performs `step`: both hosts perform open_device and connect; otherwise the host of
/// the endpoint the step's objects (then its expectations' objects) belong to; a step that names none, A's.
bool performed_here(const State& s, const Step& step);
bool performed_by_both(const Step& step);
/// The other host's value, e.g. "B.qp.qpn"; LabRunError naming it when the other host has not sent it.
std::string peer_value(const State& s, const std::string& path);
/// Starts the capture of the wire's interface (once; `capture.start` or `capture.failed` traced).
void start_wire(State& s);
/// Stops it and traces what it still held.
void stop_wire(State& s);
/// Tells the other host what step `index` did (its values and `outcome_json`); for a step both perform,
/// also waits for the other's and takes its values (its unexpected failure stops this run too).
void exchange_step(State& s, std::size_t index, const nlohmann::json& outcome_json, bool both);
/// Step `index` is the other host's: waits for its outcome and values.
void take_peer_step(State& s, std::size_t index);
/// The link failed at step `index` (`what` says how): the step fails unexpectedly, so the run stops.
void link_failed(State& s, std::size_t index, const std::string& what);

/// Performs one step's action; throws RdmaError (a verb failed) or LabRunError.
void perform(State& state, std::size_t index, StepResult& result);

/// A step's `when` (a compare) on the values so far: held means the step runs.
ExpectationOutcome check_when(const State& s, const Value& when, const std::string& language);
/// A step's `predict`, after the step: records the answer's value in `outcome` and holds when that value is
/// one of the choices (otherwise the lab asks a question whose right answer it does not offer).
ExpectationOutcome check_prediction(const State& state, const Prediction& prediction, StepOutcome& outcome);
/// Checks the step's expectations (explicit and implicit) after its action.
std::vector<ExpectationOutcome> check_expectations(State& state, const Step& step, const StepResult& result,
                                                   const std::optional<ErrorInfo>& error, bool runner_error);

// ---- what the actions leave for the run and the expectations (actions.hpp has the actions) ------------

/// The open device; throws LabRunError when the lab has not opened it. actions.cpp.
DeviceState& device(State& s);
/// Traces a region's first bytes as a `memory` data event (the app's memory view), `when` saying why, with
/// the ranges that differ from its baseline (`changed`). `by_application`: the application wrote them (at
/// reg_mr's fill, write_memory), so they become the new baseline. actions_memory.cpp.
void record_memory(State& s, const MemoryRegion& mr, const std::string& name, const std::string& when,
                   bool by_application = false);
/// After a poll that returned completions: every region's bytes (record_memory), as the device left them.
void record_every_region(State& s, const std::string& when);
/// How many bytes of each region a workbench snapshot reports (LabRun::snapshot).
inline constexpr std::size_t kSnapshotBytes = 64;
/// The names of wc_flags bits as a lab writes them (with_imm, grh, with_inv, ip_csum_ok). actions_srq.cpp.
std::vector<std::string> wc_flag_names(unsigned flags);
/// The async_event expectation on what a wait_async_event step read. actions_srq.cpp.
ExpectationOutcome check_async_event(const State& s, const Expectation& e, const StepResult& r,
                                     const std::string& language);

template <typename Map>
auto& State::object(const Map& map, const Step& step, const std::string& field) const {
    const std::string name = text(step, field);
    const auto it = map.find(name);
    if (it == map.end())
        throw LabRunError("step '" + step.id + "': field '" + field + "' names '" + name +
                          "', which does not exist (its creating step failed or it was destroyed)");
    return it->second;
}

} // namespace rdmalab::labs::run
