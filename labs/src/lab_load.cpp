// Loading labs (lab.hpp): files and folders of labs, the chapters, a lab instantiated with parameter values,
// the values a seed draws, the texts missing a translation, and where the curriculum is.
#include "lab_parser.hpp"
#include "rdmalab/format/buildpaths.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <system_error>

namespace rdmalab::labs {

namespace detail {

namespace {

/// Lab files read from one folder (the user's lab folder may hold anything).
constexpr std::size_t kMaxLabFiles = 2000;

/// The *.yaml files under `directory` (recursively; chapters.yaml excluded), sorted by name, at most
/// kMaxLabFiles of them.
std::vector<std::string> lab_files(const std::string& directory, std::vector<LabError>& errors) {
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    std::error_code ec;
    fs::recursive_directory_iterator it(directory, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
        LabError e;
        e.file = directory;
        e.message = "cannot read the lab directory: " + ec.message();
        errors.push_back(std::move(e));
        return {};
    }
    // Nothing is skipped silently: a folder that cannot be read and a .yaml that is not a regular file
    // (a FIFO, a socket, a link to nothing) are listed with the reason.
    const auto refuse = [&](const fs::path& path, const std::string& message) {
        LabError e;
        e.file = path.string();
        e.message = message;
        errors.push_back(std::move(e));
    };
    for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec) {
            refuse(directory, "the lab folder could not be read to its end: " + ec.message());
            break;
        }
        const auto& path = it->path();
        std::error_code type_ec;
        const auto status = it->symlink_status(type_ec);
        if (fs::is_directory(status) && ::access(path.c_str(), R_OK | X_OK) != 0) {
            refuse(path, std::string("cannot read the folder: ") + std::strerror(errno));
            it.disable_recursion_pending();
            continue;
        }
        if (path.extension() != ".yaml" || path.filename() == "chapters.yaml") continue;
        if (it->is_regular_file(type_ec)) {
            files.push_back(path.string());
        } else if (fs::is_symlink(status) && !fs::exists(path, type_ec)) {
            refuse(path,
                   "not a lab file: a link to nothing (" + fs::read_symlink(path, type_ec).string() + ")");
        } else if (!it->is_directory(type_ec)) {
            refuse(path, fs::is_fifo(it->status(type_ec))     ? "not a lab file: a FIFO"
                         : fs::is_socket(it->status(type_ec)) ? "not a lab file: a socket"
                                                              : "not a lab file: not a regular file");
        }
    }
    std::sort(files.begin(), files.end());
    // Bounded work whatever the folder holds: the first kMaxLabFiles by name are read.
    if (files.size() > kMaxLabFiles) {
        refuse(directory, "the folder holds " + std::to_string(files.size()) + " lab files; the first " +
                              std::to_string(kMaxLabFiles) + " (by name) were read");
        files.resize(kMaxLabFiles);
    }
    return files;
}

// ---- instantiate -----------------------------------------------------------------------------------------

std::string substitute_parameters(const std::string& text, const Lab& lab) {
    std::map<std::string, std::string> values;
    for (const auto& p : lab.parameters)
        values.emplace(p.name, value_text(p.default_value));
    return render(text, values);
}

void substitute(LocalizedText& text, const Lab& lab) {
    text.en = substitute_parameters(text.en, lab);
    text.zh = substitute_parameters(text.zh, lab);
}

void substitute(DeviceText& text, const Lab& lab) {
    substitute(text.common, lab);
    substitute(text.software, lab);
    substitute(text.hardware, lab);
}

/// Replaces "{param}" values in `v` (of `field`'s type) by the parameter's value, checked against the field.
void substitute(Value& v, const Field& field, const std::string& path, const Lab& lab) {
    switch (field.type) {
    case Type::map:
        for (auto& [key, item] : v.map) {
            const auto it = std::find_if(field.fields.begin(), field.fields.end(),
                                         [&key = key](const Field& f) { return f.name == key; });
            if (it != field.fields.end()) substitute(item, *it, join(path, key), lab);
        }
        return;
    case Type::list:
        if (field.fields.empty()) return;
        for (std::size_t i = 0; i < v.list.size(); ++i)
            substitute(v.list[i], field.fields[0], indexed(path, i), lab);
        return;
    case Type::flags:
    case Type::object:
    case Type::new_object:
        return;
    default:
        break;
    }
    if (v.kind != Value::Kind::text) return;
    const sv name = placeholder_name(v.text);
    if (name.empty()) return;
    const Parameter* p = lab.parameter(name);
    if (!p) fail(v.position, path, "unknown parameter '{" + std::string(name) + "}'");
    const std::string text = value_text(p->default_value);
    try {
        const Position where = v.position;
        v = convert(field, text, where, path);
    } catch (Failure& f) {
        f.message = "parameter '" + p->name + "' = " + shown(text) + " does not fit: " + f.message;
        throw;
    }
}

Lab instantiate_or_throw(const Lab& lab, const ParameterValues& values) {
    Lab out = lab;
    for (const auto& [name, text] : values) {
        const auto it = std::find_if(out.parameters.begin(), out.parameters.end(),
                                     [&name = name](const Parameter& p) { return p.name == name; });
        if (it == out.parameters.end()) {
            std::vector<std::string> names;
            for (const auto& p : out.parameters)
                names.push_back(p.name);
            fail(Position{}, "parameters", "unknown parameter '" + shown(name) + "'",
                 names.empty() ? "none (this lab has no parameters)" : one_of(names), shown(name));
        }
        const std::string path = indexed("parameters", static_cast<std::size_t>(it - out.parameters.begin()));
        try {
            it->default_value = parameter_value(*it, text, it->position, path);
        } catch (Failure& f) {
            f.message = "parameter '" + name + "': " + f.message;
            throw;
        }
    }
    for (std::size_t i = 0; i < out.steps.size(); ++i) {
        Step& step = out.steps[i];
        const std::string path = indexed("steps", i);
        const auto* action = schema::find_action(step.action);
        if (!action) fail(step.position, join(path, "do"), "unknown action '" + shown(step.action) + "'");
        for (auto& [key, value] : step.args) {
            const auto field = std::find_if(action->fields.begin(), action->fields.end(),
                                            [&key = key](const Field& f) { return f.name == key; });
            if (field != action->fields.end()) substitute(value, *field, join(path, key), out);
        }
        if (step.when) substitute(*step.when, when_field(), join(path, "when"), out);
        for (std::size_t j = 0; j < step.expect.size(); ++j) {
            auto& x = step.expect[j];
            const auto* kind = schema::find_expectation(x.kind);
            if (!kind) continue;
            const Field spec{.name = kind->name,
                             .type = kind->type,
                             .required = true,
                             .choices = kind->choices,
                             .fields = kind->fields};
            substitute(x.value, spec, join(indexed(join(path, "expect"), j), x.kind), out);
            if (x.when)
                substitute(*x.when, when_field(), join(indexed(join(path, "expect"), j), "when"), out);
            substitute(x.why, out);
        }
        substitute(step.title, out);
        substitute(step.text, out);
    }
    substitute(out.title, out);
    for (auto& o : out.objectives)
        substitute(o, out);
    substitute(out.summary, out);
    return out;
}

// ---- chapters --------------------------------------------------------------------------------------------

std::vector<Chapter> parse_chapters(const YAML::Node& root) {
    if (!root.IsDefined() || root.IsNull()) fail(Position{}, "", "the file is empty");
    Budget budget;
    const Fields top(root, root.Mark(), "", {"chapters"}, budget);
    const auto& list = top.required("chapters");
    if (!list.value.IsSequence()) fail(list.value.Mark(), "chapters", "must be a list of chapters");
    std::vector<Parameter> none;
    Scope scope;
    scope.parameters = &none;
    std::vector<Chapter> chapters;
    std::size_t i = 0;
    for (const auto& node : list.value) {
        const std::string path = indexed("chapters", i++);
        const Fields f(node, node.Mark(), path, {"number", "slug", "title"}, budget);
        Chapter c;
        c.number = small_integer(f, "number", true, 1, 99, 0);
        c.slug = f.string("slug", true);
        if (!is_lab_id(c.slug))
            fail(f.at("slug").value.Mark(), f.field("slug"), "'" + shown(c.slug) + "' is not a slug",
                 "[a-z0-9][a-z0-9_-]*", shown(c.slug));
        c.title = localized(f, "title", true, scope, budget);
        for (const auto& other : chapters)
            if (other.number == c.number)
                fail(f.at("number").value.Mark(), f.field("number"),
                     "chapter " + std::to_string(c.number) + " is listed twice");
        chapters.push_back(std::move(c));
    }
    std::sort(chapters.begin(), chapters.end(),
              [](const Chapter& a, const Chapter& b) { return a.number < b.number; });
    return chapters;
}

// ---- translations ----------------------------------------------------------------------------------------

void missing(const LocalizedText& text, const std::string& path, std::vector<std::string>& out) {
    if (!text.en.empty() && text.zh.empty()) out.push_back(path + ".zh");
}

void missing(const DeviceText& text, const std::string& path, std::vector<std::string>& out) {
    missing(text.common, path, out);
    missing(text.software, path + ".software", out);
    missing(text.hardware, path + ".hardware", out);
}

} // namespace

} // namespace detail

bool names_a_lab_file(const std::string& id_or_file) {
    return id_or_file.find('/') != std::string::npos ||
           (id_or_file.size() > 5 && id_or_file.ends_with(".yaml"));
}

std::optional<Lab> load_lab(const std::string& path, LabError& error) {
    std::string text;
    error = LabError{};
    error.file = path;
    if (!detail::read_file(path, text, error)) return std::nullopt;
    return parse_lab(text, path, error);
}

std::vector<Lab> load_labs(const std::string& directory, std::vector<LabError>& errors) {
    std::vector<Lab> labs;
    for (const auto& file : detail::lab_files(directory, errors)) {
        LabError error;
        auto lab = load_lab(file, error);
        if (!lab) {
            errors.push_back(std::move(error));
            continue;
        }
        const auto same =
            std::find_if(labs.begin(), labs.end(), [&](const Lab& other) { return other.id == lab->id; });
        if (same != labs.end()) {
            LabError e;
            e.file = file;
            e.field = "id";
            e.message = "lab id '" + lab->id + "' is already used by " + same->file;
            e.found = lab->id;
            errors.push_back(std::move(e));
            continue;
        }
        labs.push_back(std::move(*lab));
    }
    std::sort(labs.begin(), labs.end(), [](const Lab& a, const Lab& b) {
        if (a.chapter != b.chapter) return a.chapter < b.chapter;
        if (a.order != b.order) return a.order < b.order;
        return a.id < b.id;
    });
    return labs;
}

std::vector<Chapter> load_chapters(const std::string& path, std::vector<LabError>& errors) {
    LabError error;
    error.file = path;
    std::string text;
    if (!detail::read_file(path, text, error)) {
        errors.push_back(std::move(error));
        return {};
    }
    auto chapters = detail::guarded([&] { return detail::parse_chapters(YAML::Load(text)); }, error);
    if (!chapters) {
        errors.push_back(std::move(error));
        return {};
    }
    return std::move(*chapters);
}

std::optional<Lab> instantiate(const Lab& lab, const ParameterValues& values, LabError& error) {
    error = LabError{};
    error.file = lab.file;
    return detail::guarded([&] { return detail::instantiate_or_throw(lab, values); }, error);
}

ParameterValues seeded_values(const Lab& lab, const std::string& seed) {
    ParameterValues out;
    if (seed.empty()) return out;
    for (const auto& p : lab.parameters) {
        if (!p.vary) continue;
        // FNV-1a over seed, lab id and parameter name: the same on every machine and every run.
        std::uint64_t h = 14695981039346656037ULL;
        for (const std::string* part : {&seed, &lab.id, &p.name}) {
            for (const unsigned char c : *part) {
                h ^= c;
                h *= 1099511628211ULL;
            }
            h ^= 0xff;
            h *= 1099511628211ULL;
        }
        if (p.type == "choice") {
            out[p.name] = p.choices[h % p.choices.size()];
        } else if (p.type == "int") {
            // In unsigned arithmetic: max - min overflows int64 for a wide range, and the full 64-bit range
            // has 2^64 values, one more than a uint64_t counts (then every h is a value of its own).
            const std::uint64_t width =
                static_cast<std::uint64_t>(*p.max) - static_cast<std::uint64_t>(*p.min);
            const std::uint64_t offset =
                width == std::numeric_limits<std::uint64_t>::max() ? h : h % (width + 1);
            out[p.name] =
                std::to_string(static_cast<std::int64_t>(static_cast<std::uint64_t>(*p.min) + offset));
        } else { // size: a power of two in [min, max], or min when there is none
            std::vector<std::int64_t> powers;
            for (std::int64_t v = 1;; v *= 2) { // stops before doubling past max, so never overflows
                if (v >= *p.min && v <= *p.max) powers.push_back(v);
                if (v > *p.max / 2) break;
            }
            out[p.name] = std::to_string(powers.empty() ? *p.min : powers[h % powers.size()]);
        }
    }
    return out;
}

std::vector<std::string> missing_translations(const Lab& lab) {
    using detail::indexed;
    using detail::missing;
    std::vector<std::string> out;
    missing(lab.title, "title", out);
    for (std::size_t i = 0; i < lab.objectives.size(); ++i)
        missing(lab.objectives[i], indexed("objectives", i), out);
    for (std::size_t i = 0; i < lab.parameters.size(); ++i)
        missing(lab.parameters[i].text, indexed("parameters", i) + ".text", out);
    missing(lab.summary, "summary", out);
    for (std::size_t i = 0; i < lab.steps.size(); ++i) {
        const auto& step = lab.steps[i];
        const std::string path = indexed("steps", i);
        missing(step.title, path + ".title", out);
        missing(step.text, path + ".text", out);
        for (std::size_t j = 0; j < step.expect.size(); ++j)
            missing(step.expect[j].why, indexed(path + ".expect", j) + ".why", out);
        if (step.predict) {
            missing(step.predict->question, path + ".predict.question", out);
            for (std::size_t j = 0; j < step.predict->choices.size(); ++j)
                missing(step.predict->choices[j].text, indexed(path + ".predict.choices", j) + ".text", out);
            missing(step.predict->why, path + ".predict.why", out);
        }
    }
    for (std::size_t i = 0; i < lab.questions.size(); ++i) {
        const auto& q = lab.questions[i];
        const std::string path = indexed("questions", i);
        missing(q.text, path + ".text", out);
        for (std::size_t j = 0; j < q.choices.size(); ++j)
            missing(q.choices[j].text, indexed(path + ".choices", j) + ".text", out);
        missing(q.explanation, path + ".explanation", out);
    }
    return out;
}

/// Where the curriculum is: $RDMALAB_LABS_DIR, else share/rdmalab/labs beside an installed rdmalab-cli
/// (bin/../share/rdmalab/labs), else the source tree's labs/ this program was built from.
std::string default_labs_directory() {
    if (const char* env = std::getenv("RDMALAB_LABS_DIR"); env && *env) return env;
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const auto beside = exe.parent_path() / ".." / "share" / "rdmalab" / "labs";
        if (std::filesystem::is_directory(beside, ec)) return beside.lexically_normal().string();
    }
    return build::labs_dir();
}

} // namespace rdmalab::labs
