// libFuzzer target: the text of a lab file. parse_lab must return a lab or an error with a message, never
// crash, throw or hang; a lab it accepts must instantiate with its defaults (or say why not) and list its
// missing translations.
#include "rdmalab/lab.hpp"

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
    return 0;
}
