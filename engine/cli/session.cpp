// The session header and an operation's outcome as JSON, shared by rdmalab-cli's commands and the
// engine process (cli.hpp).
#include "cli.hpp"

#include "rdmalab/engine/device.hpp"

#include <unistd.h>

#include <ctime>
#include <exception>

namespace rdmalab::cli {

TraceEvent session_event(const std::string& device_hint, const std::string& mode) {
    TraceEvent e;
    e.kind = EventKind::Session;
    e.name = "rdmalab";
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    std::time_t now = std::time(nullptr);
    char date[32] = {};
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    nlohmann::json device = nullptr;
    try {
        for (const auto& d : list_devices())
            if (device_hint.empty() || d.name == device_hint) {
                device = {{"name", d.name}, {"driver", d.driver}, {"software", d.software}};
                break;
            }
    } catch (const std::exception&) {
    }
    e.data = {{"tool", "rdmalab-cli"},
              {"version", RDMALAB_VERSION},
              {"format", kTraceFormatVersion},
              {"mode", mode},
              {"host", host},
              {"date", date},
              {"device", device.is_null() ? nlohmann::json("none") : device["name"]},
              {"device_info", device}};
    return e;
}

nlohmann::json outcome_json(const LoopbackOperation& operation) {
    const auto& o = operation.outcome();
    nlohmann::json j = {{"op", to_string(operation.options().op)},
                        {"fault", to_string(operation.options().fault)},
                        {"size", operation.options().size},
                        {"finished", o.finished},
                        {"success", o.success},
                        {"summary", o.summary},
                        {"checks", o.checks},
                        {"requester_qp_state", o.requester_qp_state},
                        {"responder_qp_state", o.responder_qp_state}};
    if (o.requester_completion) j["requester_completion"] = o.requester_completion->to_json();
    if (o.responder_completion) j["responder_completion"] = o.responder_completion->to_json();
    if (o.error) j["error"] = o.error->to_json();
    return j;
}

} // namespace rdmalab::cli
