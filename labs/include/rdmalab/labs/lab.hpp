// Labs: YAML files in labs/ that script real verbs calls on named objects, explain each step in English and
// Simplified Chinese, and state what the device must do (expectations). Qt-free and verbs-free: this is the
// format and its checks; the runner that performs a lab on a device is engine/labrun (rdmalab_labrun).
// The format is described in docs/lab-format.md; the actions and their fields are the table in
// lab_schema.hpp.
#pragma once

#include "rdmalab/labs/text.hpp" // LocalizedText, DeviceText, DeviceClass, Reference, render()

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdmalab::labs {

/// Where a node of a lab file is, for errors (1-based; 0 when unknown).
struct Position {
    int line = 0;
    int column = 0;
};

/// A field's value after validation, normalised to its declared type (lab_schema.hpp): sizes are bytes
/// ("4KiB" -> 4096), durations milliseconds, flags and enums canonical lower-case names, object
/// references "E.name" (endpoint letter, dot, name). A `{param}` placeholder written in place of a value
/// stays as text in `Lab::steps` until `instantiate()` substitutes the parameter and checks the result.
struct Value {
    enum class Kind { null, boolean, integer, text, list, map };
    Kind kind = Kind::null;
    bool boolean = false;
    std::int64_t integer = 0; ///< integers, sizes (bytes), durations (ms); u64 values above INT64_MAX are
                              ///< stored as their two's-complement bit pattern with `unsigned_value` set
    bool unsigned_value = false;
    std::string text; ///< text, enum and flag names, object references
    std::vector<Value> list;
    std::map<std::string, Value> map;
    Position position;

    const Value* find(std::string_view key) const; ///< map entry or nullptr
    std::uint64_t as_u64() const { return static_cast<std::uint64_t>(integer); }
};

/// A parameter the student may change before a run (shown in the app and by `lab list`).
struct Parameter {
    std::string name;                 ///< [a-z][a-z0-9_]*; used as {name} in values and texts
    std::string type;                 ///< "int", "size", "choice", "bool", "text"
    Value default_value;              ///< of `type`
    std::optional<std::int64_t> min;  ///< int/size
    std::optional<std::int64_t> max;  ///< int/size
    std::vector<std::string> choices; ///< choice
    LocalizedText text;               ///< what it changes
    /// `vary: true`: with a seed (a student's name or number), the value is drawn from the range (int: any
    /// in [min, max]; size: a power of two in [min, max]; choice: one of the choices), so neighbours get
    /// different values; without a seed the default.
    bool vary = false;
    Position position;
};

/// One expectation of a step: what the device must do, checked on the real outcome.
struct Expectation {
    std::string kind;  ///< "fails", "completions", "completion", "qp_state", "bytes", "compare", ...
    Value value;       ///< the kind's operand (schema: expectation table)
    LocalizedText why; ///< optional: what it teaches, shown next to held/broken
    /// `device: software|hardware`: checked only on that class of device (what the IBTA leaves to the
    /// implementation, e.g. byte_len of a send completion); unknown: on every device.
    DeviceClass device = DeviceClass::unknown;
    /// `when: {left, op, right}`: checked only when this holds after the step (e.g. the kernel's version,
    /// where kernels differ); otherwise it does not apply.
    std::optional<Value> when;
    Position position;
};

/// A step's "predict first" question (`predict:`): asked before the step runs, its answer locked in, then
/// marked against what the device did. `answer` is a value path (lab-format.md, Value paths) read after the
/// step; the right choice is the one whose `value` equals it.
struct Prediction {
    struct Choice {
        std::string value; ///< as the value path shows it, e.g. "rem_access_err", "0", "err"
        LocalizedText text;
    };
    LocalizedText question; ///< may name values known before the step (parameters, earlier results)
    std::string answer;     ///< value path, e.g. "poll_bad.status"
    std::vector<Choice> choices;
    LocalizedText why; ///< shown after the step: why the device did that; may name the step's results
    Position position;
};

/// A check-your-understanding question at the end of a lab (`questions:`).
struct Question {
    struct Choice {
        LocalizedText text;
        bool correct = false;
    };
    bool multiple = false; ///< `kind: multiple` (tick every right choice); else exactly one is right
    LocalizedText text;
    std::vector<Choice> choices;
    LocalizedText explanation; ///< shown once the student has answered
    Position position;
};

/// One step: an action on named objects, its explanation, and what it must show.
struct Step {
    std::string id;                    ///< unique in the lab, [A-Za-z0-9_]+
    LocalizedText title;               ///< one line
    std::string action;                ///< a row of the action table (lab_schema.hpp), e.g. "reg_mr"
    std::map<std::string, Value> args; ///< the action's fields, validated against the table
    DeviceText text;                   ///< the explanation (Markdown with {placeholders})
    std::vector<Expectation> expect;   ///< empty: the action must succeed
    /// `when: {left, op, right}` (a compare): the step runs only when it holds at that point of the run;
    /// otherwise it is skipped and its expectations do not apply (e.g. a capability the device lacks).
    std::optional<Value> when;
    std::optional<Prediction> predict; ///< ask the student before the step runs
    /// The student's turn in a troubleshooting lab: a note with a `solution`. The steps before it build a
    /// broken set-up, the student fixes it in the workbench, and the steps after it check the fix.
    bool your_turn = false;
    bool solution = false; ///< one of the reference fix's steps (run by `lab run`, not by the student)
    Position position;
    /// The object this step creates ("B.buf"), or empty.
    std::string creates() const;
};

/// One lab: metadata, parameters, steps.
struct Lab {
    int format = 1; ///< `lab: 1` at the top of the file
    std::string id; ///< unique among all labs, [a-z0-9_-]+
    int chapter = 0;
    int order = 0;
    LocalizedText title;
    std::string level; ///< "intro", "basic", "intermediate", "advanced"
    int minutes = 0;
    /// `hosts: 2`: the lab runs between two hosts on one wire (`lab run --listen` on B's, `--connect` on
    /// A's); run on one host, every step is skipped, since the room lacks the second host.
    int hosts = 1;
    std::vector<LocalizedText> objectives;
    std::vector<Reference> references;
    std::vector<Parameter> parameters;
    DeviceText summary;
    std::vector<Step> steps;
    std::vector<Question> questions; ///< asked after the last step
    std::string file;                ///< path it was loaded from
    const Step* step(std::string_view id) const;
    /// The lab has the student's turn (a step with `solution`).
    bool troubleshooting() const;
    const Parameter* parameter(std::string_view name) const;
};

/// A chapter of the curriculum (labs/chapters.yaml).
struct Chapter {
    int number = 0;
    std::string slug; ///< the directory's name without its number: labs/NN-slug/
    LocalizedText title;
};

/// Why a lab file was rejected: where, which field, what was expected and what was found.
struct LabError {
    std::string file;
    int line = 0;
    int column = 0;
    std::string field;    ///< e.g. "steps[3].access[1]"; empty for the file as a whole
    std::string message;  ///< e.g. "unknown access flag 'remote_wrte'"
    std::string expected; ///< e.g. "one of: local_write, remote_write, remote_read, remote_atomic, ..."
    std::string found;    ///< e.g. "remote_wrte"
    /// "FILE:LINE:COLUMN: field 'F': MESSAGE (expected E, found X)"
    std::string to_string() const;
};

/// Parses and validates the text of a lab file (`name` stands for the file in errors). Everything a lab
/// can get wrong without a device is found here: syntax, unknown or duplicate keys, wrong types, unknown
/// actions, flags, opcodes, statuses and errno names, object references to objects not created by an
/// earlier step (or of the wrong kind), placeholders naming nothing, parameter defaults outside their
/// range, a text without English. Never throws; on failure returns std::nullopt with `error` filled.
std::optional<Lab> parse_lab(const std::string& text, const std::string& name, LabError& error);

/// The same for a file.
std::optional<Lab> load_lab(const std::string& path, LabError& error);

/// Whether `id_or_file` names a file (it contains '/' or ends in .yaml) rather than a lab id.
bool names_a_lab_file(const std::string& id_or_file);

/// The largest lab file or text the runner and the app read: 1 MiB.
inline constexpr std::uintmax_t kMaxLabBytes = 1 << 20;

/// Loads every *.yaml lab under `directory` (recursively; chapters.yaml excluded), sorted by chapter,
/// order, id. Bad files are skipped and reported in `errors`; a duplicate id is an error.
std::vector<Lab> load_labs(const std::string& directory, std::vector<LabError>& errors);

/// Where the curriculum is: $RDMALAB_LABS_DIR, else share/rdmalab/labs beside an installed program
/// (bin/../share/rdmalab/labs), else the source tree's labs/ the program was built from.
std::string default_labs_directory();

/// Loads labs/chapters.yaml.
std::vector<Chapter> load_chapters(const std::string& path, std::vector<LabError>& errors);

/// Parameter values given by the user ("name" -> text as typed, e.g. "4KiB").
using ParameterValues = std::map<std::string, std::string>;

/// The lab with parameters substituted into every `{param}` value (defaults, overridden by `values`) and
/// the results re-checked. Fails, with the parameter's position, on an unknown parameter name, a value of
/// the wrong type or outside the range.
std::optional<Lab> instantiate(const Lab& lab, const ParameterValues& values, LabError& error);

/// `typed` as the text a parameter of `parameter`'s type is substituted as ("4KiB" -> "4096" for a size or
/// int; a text, bool or choice value as typed); nullopt when it is no valid value of the parameter
/// (instantiate() then says why). The same conversion the parser uses, never throws.
std::optional<std::string> parameter_text(const Parameter& parameter, const std::string& typed);

/// Whether `text` is bytes in hex: a non-empty, even number of hex digits (the `hex` fields of a lab).
bool is_hex_bytes(std::string_view text);

/// The values a seed gives the lab's `vary` parameters (the same seed, lab and parameter always give the
/// same value, within the parameter's range). Values given explicitly override them: merge these under them.
ParameterValues seeded_values(const Lab& lab, const std::string& seed);

/// Texts missing a Simplified Chinese translation ("steps[2].text.zh", ...); empty when complete.
std::vector<std::string> missing_translations(const Lab& lab);

} // namespace rdmalab::labs
