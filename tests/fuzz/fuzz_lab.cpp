// libFuzzer target: the text of a lab file. parse_lab must return a lab or an error with a message, never
// crash, throw or hang; a lab it accepts must instantiate with its defaults (or say why not) and list its
// missing translations. Then what the runner does with a student's input before anything runs: the input's
// last line is both a seed (seeded_values draws every `vary` parameter from it) and a value typed for each
// parameter (parameter_text, as `lab run --param` and the app's fields give them); both must instantiate
// or say why.
#include "rdmalab/labs/lab.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    rdmalab::labs::LabError error;
    const auto lab = rdmalab::labs::parse_lab(text, "fuzz.yaml", error);
    if (!lab) {
        if (error.message.empty()) __builtin_trap(); // a refusal must say why
        (void)error.to_string();
        return 0;
    }
    rdmalab::labs::LabError instantiate_error;
    const auto defaults = rdmalab::labs::instantiate(*lab, {}, instantiate_error);
    if (!defaults && instantiate_error.message.empty()) __builtin_trap();
    (void)rdmalab::labs::missing_translations(*lab);
    for (const auto& step : lab->steps)
        (void)step.creates();

    const auto newline = text.find_last_of('\n', text.size() >= 2 ? text.size() - 2 : 0);
    const std::string last = newline == std::string::npos ? text : text.substr(newline + 1);
    // A seed's draw (no overflow, no division by zero, no endless walk), then instantiated or refused by
    // name.
    const auto drawn = rdmalab::labs::seeded_values(*lab, last);
    rdmalab::labs::LabError drawn_error;
    if (!rdmalab::labs::instantiate(*lab, drawn, drawn_error) && drawn_error.message.empty())
        __builtin_trap();
    // Typed values: converted or refused, and instantiate agrees with the conversion.
    rdmalab::labs::ParameterValues typed;
    for (const auto& p : lab->parameters) {
        const auto converted = rdmalab::labs::parameter_text(p, last);
        typed[p.name] = converted.value_or(last);
    }
    rdmalab::labs::LabError typed_error;
    if (!rdmalab::labs::instantiate(*lab, typed, typed_error) && typed_error.message.empty())
        __builtin_trap();
    (void)rdmalab::labs::is_hex_bytes(last);
    return 0;
}
