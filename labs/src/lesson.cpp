#include "rdmalab/lesson.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <initializer_list>
#include <system_error>

namespace rdmalab::labs {

namespace {

constexpr std::array<std::string_view, 7> kOps = {"send", "send_imm", "write", "write_imm",
                                                  "read", "cas",      "faa"};
constexpr long long kMaxSize = 1LL << 30; // the engine's limit (1 GiB)

/// Thrown inside the parser; turned into the LessonError of load_lesson.
struct Failure {
    int line = 0;
    int column = 0;
    std::string field;
    std::string message;
};

std::string join(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
}

[[noreturn]] void fail(const YAML::Mark& mark, const std::string& field, std::string message) {
    Failure f;
    if (mark.line >= 0) {
        f.line = mark.line + 1;
        f.column = mark.column + 1;
    }
    f.field = field;
    f.message = std::move(message);
    throw f;
}

bool is_lower_id(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
}

bool is_step_id(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    });
}

/// A mapping whose keys were checked against the allowed ones (no unknown, no duplicate keys).
class Fields {
  public:
    struct Entry {
        YAML::Node key;
        YAML::Node value;
    };

    /// `where` is the position to report for missing fields (the mapping itself, or its key).
    Fields(const YAML::Node& node, const YAML::Mark& where, std::string path,
           std::initializer_list<std::string_view> allowed)
        : where_(where), path_(std::move(path)) {
        if (!node.IsMap())
            fail(node.Mark(), path_,
                 path_.empty() ? "the file must be a YAML mapping (key: value lines)"
                               : "must be a mapping (key: value lines)");
        for (auto it = node.begin(); it != node.end(); ++it) {
            const YAML::Node key = it->first;
            if (!key.IsScalar()) fail(key.Mark(), path_, "keys must be plain names");
            const std::string& name = key.Scalar();
            if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
                std::string list;
                for (auto a : allowed)
                    list += (list.empty() ? "" : ", ") + std::string(a);
                fail(key.Mark(), join(path_, name),
                     fmt::format("unknown key '{}' (allowed here: {})", name, list));
            }
            if (entries_.count(name))
                fail(key.Mark(), join(path_, name),
                     "key '" + name + "' appears twice (first on line " +
                         std::to_string(entries_.at(name).key.Mark().line + 1) + ")");
            entries_.emplace(name, Entry{key, it->second});
        }
    }

    const std::string& path() const { return path_; }
    bool has(const std::string& key) const { return entries_.count(key) != 0; }
    const Entry& at(const std::string& key) const { return entries_.at(key); }
    std::string field(std::string_view key) const { return join(path_, key); }

    const Entry& required(const std::string& key) const {
        auto it = entries_.find(key);
        if (it == entries_.end()) fail(where_, field(key), "required field is missing");
        return it->second;
    }

    std::string string(const std::string& key, bool required) const {
        if (!has(key)) {
            if (required) this->required(key);
            return {};
        }
        const auto& e = at(key);
        if (!e.value.IsScalar()) {
            if (e.value.IsNull() && !required) return {};
            fail(e.value.IsNull() ? e.key.Mark() : e.value.Mark(), field(key),
                 e.value.IsNull() ? "has no value (expected a string)" : "must be a string");
        }
        std::string text = e.value.Scalar();
        if (required && text.empty()) fail(e.value.Mark(), field(key), "must not be empty");
        return text;
    }

    std::optional<long long> integer(const std::string& key) const {
        if (!has(key)) return std::nullopt;
        const auto& e = at(key);
        long long value = 0;
        if (!e.value.IsScalar() || !YAML::convert<long long>::decode(e.value, value))
            fail(e.value.IsNull() ? e.key.Mark() : e.value.Mark(), field(key), "must be an integer");
        return value;
    }

  private:
    YAML::Mark where_;
    std::string path_;
    std::map<std::string, Entry> entries_;
};

LocalizedText localized(const Fields& parent, const std::string& key, bool required) {
    if (!parent.has(key)) {
        if (required) parent.required(key + ".en");
        return {};
    }
    const auto& e = parent.at(key);
    if (e.value.IsNull() && !required) return {};
    if (e.value.IsNull()) fail(e.key.Mark(), parent.field(key + ".en"), "required field is missing");
    if (!e.value.IsMap())
        fail(e.value.Mark(), parent.field(key), "must be a mapping with the texts 'en' and 'zh'");
    const Fields fields(e.value, e.key.Mark(), parent.field(key), {"en", "zh"});
    LocalizedText text;
    text.en = fields.string("en", required);
    text.zh = fields.string("zh", false);
    return text;
}

/// One variant of a device text (`software:` or `hardware:`): a mapping with a non-empty `en` and an
/// optional `zh`.
LocalizedText variant(const Fields& parent, const std::string& key) {
    const auto& e = parent.at(key);
    if (e.value.IsNull())
        fail(e.key.Mark(), parent.field(key),
             "has no value (expected the texts 'en' and 'zh' for " + key + " devices)");
    if (!e.value.IsMap())
        fail(e.value.Mark(), parent.field(key), "must be a mapping with the texts 'en' and 'zh'");
    const Fields fields(e.value, e.key.Mark(), parent.field(key), {"en", "zh"});
    return {fields.string("en", true), fields.string("zh", false)};
}

/// A localized text that may have device variants (`text`, `summary`): `en`, `zh`, and the optional
/// mappings `software` and `hardware`. `en` is required (when `required`, or when any key is given) unless
/// both variants are given.
DeviceText device_text(const Fields& parent, const std::string& key, bool required) {
    if (!parent.has(key)) {
        if (required) parent.required(key + ".en");
        return {};
    }
    const auto& e = parent.at(key);
    if (e.value.IsNull() && !required) return {};
    if (e.value.IsNull()) fail(e.key.Mark(), parent.field(key + ".en"), "required field is missing");
    if (!e.value.IsMap())
        fail(e.value.Mark(), parent.field(key),
             "must be a mapping with the texts 'en' and 'zh' (and optionally 'software' and 'hardware')");
    const Fields fields(e.value, e.key.Mark(), parent.field(key), {"en", "zh", "software", "hardware"});
    DeviceText text;
    if (fields.has("software")) text.software = variant(fields, "software");
    if (fields.has("hardware")) text.hardware = variant(fields, "hardware");
    const bool both = fields.has("software") && fields.has("hardware");
    if (!both && !fields.has("en"))
        fail(e.key.Mark(), fields.field("en"),
             "required field is missing (it may be left out only when both 'software' and 'hardware' are "
             "given)");
    text.common.en = fields.string("en", !both);
    text.common.zh = fields.string("zh", false);
    if (!text.common.zh.empty() && text.common.en.empty())
        fail(fields.at("zh").value.Mark(), fields.field("zh"),
             "a Chinese text needs the English one ('en') beside it");
    return text;
}

Lesson parse(const YAML::Node& root) {
    if (!root.IsDefined() || root.IsNull()) fail(YAML::Mark::null_mark(), "", "the file is empty");
    const Fields top(root, root.Mark(), "",
                     {"id", "order", "title", "op", "size", "message", "summary", "steps", "references"});
    Lesson lesson;

    lesson.id = top.string("id", true);
    if (!is_lower_id(lesson.id))
        fail(top.at("id").value.Mark(), "id",
             "'" + lesson.id + "' must consist of lowercase letters, digits and '_' only");

    if (auto order = top.integer("order")) {
        if (*order < 0 || *order > 1000000)
            fail(top.at("order").value.Mark(), "order", "must be between 0 and 1000000");
        lesson.order = static_cast<int>(*order);
    }

    lesson.title = localized(top, "title", true);

    lesson.op = top.string("op", true);
    if (std::find(kOps.begin(), kOps.end(), lesson.op) == kOps.end())
        fail(top.at("op").value.Mark(), "op",
             "unknown operation '" + lesson.op +
                 "' (one of send, send_imm, write, write_imm, read, cas, faa)");

    const bool atomic = lesson.op == "cas" || lesson.op == "faa";
    if (atomic) lesson.size = 8;
    if (auto size = top.integer("size")) {
        const auto mark = top.at("size").value.Mark();
        if (*size <= 0)
            fail(mark, "size", "must be a positive integer (bytes), got " + std::to_string(*size));
        if (*size > kMaxSize) fail(mark, "size", "must be at most 1 GiB (1073741824 bytes)");
        if (atomic && *size != 8) fail(mark, "size", "atomics (cas, faa) always operate on exactly 8 bytes");
        lesson.size = static_cast<std::size_t>(*size);
    }

    lesson.message = top.string("message", false);
    if (top.has("message") && lesson.message.empty())
        fail(top.at("message").key.Mark(), "message", "must not be empty (leave the key out instead)");

    lesson.summary = device_text(top, "summary", false);

    const auto& steps = top.required("steps");
    if (!steps.value.IsSequence() || steps.value.size() == 0)
        fail(steps.value.IsNull() ? steps.key.Mark() : steps.value.Mark(), "steps",
             "must be a non-empty list of steps ('- id: ...')");
    std::map<std::string, int> seen; // step id -> line
    for (std::size_t i = 0; i < steps.value.size(); ++i) {
        const YAML::Node node = steps.value[i];
        const std::string path = "steps[" + std::to_string(i) + "]";
        const Fields fields(node, node.Mark(), path, {"id", "title", "text"});
        LessonStep step;
        step.id = fields.string("id", true);
        const auto id_mark = fields.at("id").value.Mark();
        if (!is_step_id(step.id))
            fail(id_mark, fields.field("id"),
                 "'" + step.id + "' is not a step id (letters, digits and '_', e.g. reg_mr_B)");
        if (auto it = seen.find(step.id); it != seen.end())
            fail(id_mark, fields.field("id"),
                 "duplicate step id '" + step.id + "' (first on line " + std::to_string(it->second) + ")");
        seen.emplace(step.id, id_mark.line + 1);
        step.title = localized(fields, "title", false);
        step.text = device_text(fields, "text", true);
        lesson.steps.push_back(std::move(step));
    }

    if (top.has("references")) {
        const auto& refs = top.at("references");
        if (!refs.value.IsSequence())
            fail(refs.value.IsNull() ? refs.key.Mark() : refs.value.Mark(), "references",
                 "must be a list of references ('- title: ...')");
        for (std::size_t i = 0; i < refs.value.size(); ++i) {
            const YAML::Node node = refs.value[i];
            const Fields fields(node, node.Mark(), "references[" + std::to_string(i) + "]",
                                {"title", "where"});
            lesson.references.push_back({fields.string("title", true), fields.string("where", false)});
        }
    }
    return lesson;
}

} // namespace

const std::string& LocalizedText::get(std::string_view language) const {
    if (language.substr(0, 2) == "zh" && !zh.empty()) return zh;
    return en;
}

const LocalizedText* DeviceText::variant(DeviceClass device) const {
    if (device == DeviceClass::software && !software.en.empty()) return &software;
    if (device == DeviceClass::hardware && !hardware.en.empty()) return &hardware;
    return nullptr;
}

std::string DeviceText::get(DeviceClass device, std::string_view language) const {
    if (const auto* text = variant(device)) return text->get(language);
    if (!common.en.empty()) return common.get(language);
    const bool zh = language.substr(0, 2) == "zh";
    std::string out;
    auto part = [&](const LocalizedText& text, const char* en_heading, const char* zh_heading) {
        if (text.en.empty()) return;
        if (!out.empty()) out += "\n\n";
        out += std::string(zh ? zh_heading : en_heading) + "\n" + text.get(language);
    };
    part(software, "On a software device (SoftRoCE):", "在软件设备（SoftRoCE）上：");
    part(hardware, "On a hardware RDMA NIC:", "在 RDMA 硬件网卡上：");
    return out;
}

const LessonStep* Lesson::step(std::string_view step_id) const {
    for (const auto& s : steps)
        if (s.id == step_id) return &s;
    return nullptr;
}

std::string LessonError::to_string() const {
    std::string out = file;
    if (line > 0) out += ":" + std::to_string(line) + ":" + std::to_string(column);
    out += ": ";
    if (!field.empty()) out += "field '" + field + "': ";
    out += message;
    return out;
}

namespace {

/// Parses a lesson from `load()`'s YAML document; failures fill `error` (whose file is already set).
template <typename Load> std::optional<Lesson> parse_with(Load load, LessonError& error) {
    try {
        Lesson lesson = parse(load());
        lesson.file = error.file;
        return lesson;
    } catch (const Failure& f) {
        error.line = f.line;
        error.column = f.column;
        error.field = f.field;
        error.message = f.message;
    } catch (const YAML::BadFile&) {
        error.message = "cannot open the file";
    } catch (const YAML::ParserException& e) {
        error.line = e.mark.line >= 0 ? e.mark.line + 1 : 0;
        error.column = e.mark.column >= 0 ? e.mark.column + 1 : 0;
        error.message = "YAML syntax error: " + e.msg;
    } catch (const YAML::Exception& e) {
        error.line = e.mark.line >= 0 ? e.mark.line + 1 : 0;
        error.column = e.mark.column >= 0 ? e.mark.column + 1 : 0;
        error.message = e.msg;
    }
    return std::nullopt;
}

} // namespace

std::optional<Lesson> load_lesson(const std::string& path, LessonError& error) {
    error = LessonError{};
    error.file = path;
    return parse_with([&] { return YAML::LoadFile(path); }, error);
}

std::optional<Lesson> parse_lesson(const std::string& text, const std::string& name, LessonError& error) {
    error = LessonError{};
    error.file = name;
    return parse_with([&] { return YAML::Load(text); }, error);
}

std::vector<Lesson> load_lessons(const std::string& directory, std::vector<LessonError>& errors) {
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    std::error_code ec;
    fs::directory_iterator it(directory, ec);
    if (ec) {
        errors.push_back({directory, 0, 0, "", "cannot read the lesson directory: " + ec.message()});
        return {};
    }
    for (const auto& entry : it) {
        std::error_code type_ec;
        if (entry.path().extension() == ".yaml" && entry.is_regular_file(type_ec))
            files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());

    std::vector<Lesson> lessons;
    for (const auto& file : files) {
        LessonError error;
        auto lesson = load_lesson(file, error);
        if (!lesson) {
            errors.push_back(std::move(error));
            continue;
        }
        auto same = std::find_if(lessons.begin(), lessons.end(),
                                 [&](const Lesson& other) { return other.id == lesson->id; });
        if (same != lessons.end()) {
            errors.push_back(
                {file, 0, 0, "id", "lesson id '" + lesson->id + "' is already used by " + same->file});
            continue;
        }
        lessons.push_back(std::move(*lesson));
    }
    std::stable_sort(lessons.begin(), lessons.end(), [](const Lesson& a, const Lesson& b) {
        return a.order != b.order ? a.order < b.order : a.id < b.id;
    });
    return lessons;
}

std::string render(const std::string& text, const std::map<std::string, std::string>& values) {
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        if (text[i] == '{') {
            const auto close = text.find('}', i + 1);
            if (close != std::string::npos) {
                const auto name = text.substr(i + 1, close - i - 1);
                if (auto v = values.find(name); v != values.end()) {
                    out += v->second;
                    i = close + 1;
                    continue;
                }
            }
        }
        out += text[i++];
    }
    return out;
}

} // namespace rdmalab::labs
