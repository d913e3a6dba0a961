// libFuzzer target: one line of a recording or of the engine's output, as every reader takes it.
// parse_json_line must refuse or accept any bytes; an accepted event must render (describe, which reads
// data only through rdmalab/format/fields.hpp, where a wrong type is a FieldError) and round-trip.
#include "rdmalab/format/describe.hpp"
#include "rdmalab/format/fields.hpp"
#include "rdmalab/format/trace.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view line(reinterpret_cast<const char*>(data), size);
    rdmalab::TraceParseError error;
    const auto event = rdmalab::parse_json_line(line, error);
    if (!event) return 0;
    try {
        (void)rdmalab::describe(*event);
    } catch (const rdmalab::FieldError&) {
        // the documented refusal of a wrong-typed field
    }
    const std::string again = rdmalab::to_json_line(*event);
    rdmalab::TraceParseError second;
    if (!rdmalab::parse_json_line(again, second)) __builtin_trap(); // what we write, we must read back
    return 0;
}
