// libFuzzer target: the app's reader of a measurement's events. The input is JSON Lines, as the engine
// streams them or a saved measurement holds them. Each line goes through parseTraceLine (what the app's
// recording reader and engine bridge do: parse, then check every field the models read), the events it
// accepts into BenchSession (the bench model, as a replay), and the runs it builds into the exports. An
// accepted event must never make the model throw, and an exported run must read back.
#include "benchexport.h"
#include "benchsession.h"
#include "physicsfloor.h"
#include "tracefile.h"

#include "rdmalab/format/fields.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    std::vector<rdmalab::TraceEvent> events;
    for (std::size_t begin = 0; begin < input.size();) {
        const std::size_t end = std::min(input.find('\n', begin), input.size());
        rdmalab::TraceParseError error;
        if (auto event = rdmalab::app::parseTraceLine(input.substr(begin, end - begin), error))
            events.push_back(std::move(*event));
        else if (error.message.empty())
            __builtin_trap(); // a refusal must say why
        begin = end + 1;
    }
    rdmalab::app::BenchSession session(nullptr);
    try {
        session.openReplay(events, QStringLiteral("fuzz.jsonl"));
    } catch (const rdmalab::FieldError&) {
        __builtin_trap(); // checkEventFields let through an event the model cannot read
    }
    const auto& runs = session.runs();
    (void)rdmalab::app::runsToCsv(runs);
    for (const auto& run : runs) {
        (void)rdmalab::app::samplesToCsv(run);
        (void)rdmalab::app::headlineValue(run);
    }
    for (const double bytes : {1.0, 65536.0, 1e8})
        for (const auto transport : {rdmalab::app::Transport::Tcp, rdmalab::app::Transport::Rdma})
            (void)rdmalab::app::estimateTransferTime(runs, bytes, transport);
    // What the app exports as JSON, it reads back (a saved export reopened, a run compared later).
    for (const auto& exported : rdmalab::app::runsToJson(runs)) {
        rdmalab::app::BenchRun again;
        try {
            if (!again.applyResult(exported).isEmpty()) __builtin_trap();
        } catch (const rdmalab::FieldError&) {
            __builtin_trap();
        }
    }
    return 0;
}
