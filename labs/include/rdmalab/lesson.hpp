// Lessons: YAML files in labs/lessons/ that explain, step by step, what the engine's real verbs calls do.
// Qt-free; the format is described in docs/lab-format.md.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdmalab::labs {

/// A text in English and Simplified Chinese.
struct LocalizedText {
    std::string en;
    std::string zh;
    /// Text in `language` ("en" or "zh"), falling back to English when that translation is empty.
    const std::string& get(std::string_view language) const;
};

/// What kind of device a lesson runs on, as the trace's `session` event says (data.device_info.software):
/// a software device (SoftRoCE, rdma_rxe) does the NIC's work in the kernel on a CPU, a hardware RNIC does it
/// in the NIC. `unknown` when the trace does not say (an old recording, or before the session event).
enum class DeviceClass { unknown, software, hardware };

/// A lesson text that may differ by device class (docs/lab-format.md, "Device variants"): `common` is the
/// text for any device, and `software` / `hardware` replace it on that class of device. Each part's `en` is
/// empty when the file does not give it; `common.en` may be empty only when both variants are given.
struct DeviceText {
    LocalizedText common;
    LocalizedText software;
    LocalizedText hardware;
    /// The variant written for `device`, or nullptr when there is none (always nullptr for `unknown`).
    const LocalizedText* variant(DeviceClass device) const;
    /// The text to show on `device` in `language`: the device's variant when there is one, else the common
    /// text; for an unknown device without a common text, both variants, each under a heading naming its
    /// class. Empty when the file gave no text at all.
    std::string get(DeviceClass device, std::string_view language) const;
    /// True when the text has a software or a hardware variant.
    bool varies() const { return !software.en.empty() || !hardware.en.empty(); }
};

/// The lesson text for one engine step (the step ids of rdmalab::LoopbackOperation, e.g. "reg_mr_B").
struct LessonStep {
    std::string id;
    LocalizedText title;
    DeviceText text;
};

/// A source the lesson's claims can be checked against.
struct Reference {
    std::string title; ///< e.g. "ibv_post_send(3)"
    std::string where; ///< e.g. "rdma-core man page"
};

/// One lesson: an operation the engine performs, with a text for each of its steps.
struct Lesson {
    std::string id;
    int order = 0;
    LocalizedText title;
    std::string op; ///< engine opcode: send, send_imm, write, write_imm, read, cas, faa
    std::size_t size = 64;
    std::string message;
    DeviceText summary;
    std::vector<LessonStep> steps;
    std::vector<Reference> references;
    std::string file; ///< path it was loaded from
    /// The text for step `id`, or nullptr if the lesson has no text for that step.
    const LessonStep* step(std::string_view id) const;
};

/// Why a lesson file was rejected, with the position of the offending YAML node.
struct LessonError {
    std::string file;
    int line = 0;      ///< 1-based; 0 if unknown
    int column = 0;    ///< 1-based; 0 if unknown
    std::string field; ///< path of the field, e.g. "steps[3].text.en"; empty if the file as a whole
    std::string message;
    /// "FILE:LINE:COLUMN: field 'steps[3].text.en': message"
    std::string to_string() const;
};

/// Loads one lesson file. On failure returns std::nullopt and fills `error` with file, line (1-based), column
/// and field path.
std::optional<Lesson> load_lesson(const std::string& path, LessonError& error);

/// The same from the text of a lesson file; `name` stands for the file in errors.
std::optional<Lesson> parse_lesson(const std::string& text, const std::string& name, LessonError& error);

/// Loads every *.yaml in `directory`, sorted by `order` then id; bad files are skipped and reported in
/// `errors`.
std::vector<Lesson> load_lessons(const std::string& directory, std::vector<LessonError>& errors);

/// Replaces {name} placeholders with values; unknown placeholders stay as written.
std::string render(const std::string& text, const std::map<std::string, std::string>& values);

} // namespace rdmalab::labs
