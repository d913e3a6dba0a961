// libFuzzer target: the text of a lesson file. parse_lesson must return a lesson or an error with its
// line and field, never crash or throw.
#include "rdmalab/lesson.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    rdmalab::labs::LessonError error;
    const auto lesson = rdmalab::labs::parse_lesson(text, "fuzz.yaml", error);
    if (!lesson && error.message.empty()) __builtin_trap(); // a refusal must say why
    return 0;
}
