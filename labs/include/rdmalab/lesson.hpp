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

/// The lesson text for one engine step (the step ids of rdmalab::LoopbackOperation, e.g. "reg_mr_B").
struct LessonStep {
    std::string id;
    LocalizedText title;
    LocalizedText text;
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
    LocalizedText summary;
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
