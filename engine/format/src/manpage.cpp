#include "rdmalab/format/manpage.hpp"

#include <cctype>

namespace rdmalab::man {

namespace {

bool is_alpha(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) != 0;
}
bool is_upper(char c) {
    return std::isupper(static_cast<unsigned char>(c)) != 0;
}
bool is_lower(char c) {
    return std::islower(static_cast<unsigned char>(c)) != 0;
}
bool is_option_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_';
}

/// One character of text: a backslash is the roff escape character, "\e" prints it. Literal text stays
/// ASCII: "\-" and "\(aq" are the hyphen-minus and apostrophe a shell needs, where "-" and "'" may
/// render as a typographic hyphen and quote.
void append_char(std::string& out, char c, bool literal) {
    if (c == '\\')
        out += "\\e";
    else if (c == '-' && literal)
        out += "\\-";
    else if (c == '\'' && literal)
        out += "\\(aq";
    else
        out += c;
}

std::string literal_line(std::string_view text) {
    std::string out;
    for (const char c : text)
        append_char(out, c, true);
    return out;
}

// "\\%" keeps groff from hyphenating the word: an option split as "--con-" / "nect" could not be found.
std::string bold(std::string_view text) {
    return "\\fB\\%" + literal_line(text) + "\\fR";
}
std::string italic(std::string_view text) {
    return "\\fI\\%" + literal_line(text) + "\\fR";
}

/// "-x" or "--word" starting at text[i], at the start of a word.
bool option_at(std::string_view text, std::size_t i) {
    if (text[i] != '-') return false;
    if (i > 0 && text.substr(i - 1, 1).find_first_of(" ([{\"'/|,") == std::string_view::npos) return false;
    if (i + 1 < text.size() && is_alpha(text[i + 1])) return true;
    return i + 2 < text.size() && text[i + 1] == '-' && is_alpha(text[i + 2]);
}

std::string markup_line(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        if (text[i] == '`') {
            const auto end = text.find('`', i + 1);
            if (end != std::string_view::npos) {
                out += bold(text.substr(i + 1, end - i - 1));
                i = end + 1;
                continue;
            }
        }
        if (option_at(text, i)) {
            std::size_t end = i;
            while (end < text.size() && is_option_char(text[end]))
                ++end;
            out += bold(text.substr(i, end - i));
            i = end;
            continue;
        }
        append_char(out, text[i], false);
        ++i;
    }
    return out;
}

/// Applies `line_fn` to each line of `text` (leading blanks dropped: they would break the filled line),
/// protects lines that would read as requests, and joins them with ".br".
template <typename LineFn> std::string lines(std::string_view text, LineFn line_fn) {
    std::string out;
    std::size_t start = 0;
    while (true) {
        const auto newline = text.find('\n', start);
        std::string_view line =
            text.substr(start, newline == std::string_view::npos ? text.npos : newline - start);
        while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
            line.remove_prefix(1);
        std::string converted = line_fn(line);
        if (!converted.empty() && (converted.front() == '.' || converted.front() == '\'')) out += "\\&";
        out += converted;
        if (newline == std::string_view::npos) break;
        out += "\n.br\n";
        start = newline + 1;
    }
    return out;
}

/// A synopsis form or value placeholder: options and command words in bold, placeholders (upper-case
/// words, or every word when `all_italic`) in italics, brackets and bars in roman.
std::string markup_synopsis(std::string_view text, bool all_italic) {
    std::string out;
    constexpr std::string_view kPunctuation = " []|,.=";
    for (std::size_t i = 0; i < text.size();) {
        if (kPunctuation.find(text[i]) != std::string_view::npos) {
            append_char(out, text[i], false);
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < text.size() && kPunctuation.find(text[end]) == std::string_view::npos)
            ++end;
        // "-" is not punctuation, so an option keeps its hyphens: "--cm-port" is one word.
        const auto word = text.substr(i, end - i);
        bool upper = false, lower = false;
        for (const char c : word) {
            upper = upper || is_upper(c);
            lower = lower || is_lower(c);
        }
        const bool placeholder = all_italic || (word.front() != '-' && upper && !lower);
        out += placeholder ? italic(word) : bold(word);
        i = end;
    }
    return out;
}

/// A macro argument in double quotes.
std::string roff_quoted(std::string_view text) {
    std::string out = "\"";
    for (const char c : literal_line(text))
        out += c == '"' ? std::string("\\(dq") : std::string(1, c);
    return out + "\"";
}

void append_synopsis(std::string& out, const std::string& name, const std::vector<std::string>& forms) {
    for (const auto& form : forms) {
        out += ".SY " + roff_quoted(name) + "\n";
        if (!form.empty()) out += markup_synopsis(form, false) + "\n";
        out += ".YS\n";
    }
}

void append_paragraphs(std::string& out, const std::vector<std::string>& paragraphs) {
    for (const auto& p : paragraphs)
        out += ".PP\n" + lines(p, markup_line) + "\n";
}

std::string join_bold(const std::vector<std::string>& values) {
    std::string out;
    for (const auto& v : values)
        out += (out.empty() ? "" : ", ") + bold(v);
    return out;
}

void append_option(std::string& out, const Option& option) {
    std::string tag;
    for (const auto& name : option.names)
        tag += (tag.empty() ? "" : ", ") + bold(name);
    if (!option.value.empty()) {
        if (!tag.empty()) tag += ' ';
        const auto value = markup_synopsis(option.value, true);
        tag += option.value_optional ? "[" + value + "]" : value;
    }
    out += ".TP\n" + tag + "\n";
    if (!option.help.empty()) out += lines(option.help, markup_line) + "\n";
    if (!option.values.empty()) out += ".br\nOne of: " + join_bold(option.values) + "\n";
    if (!option.default_value.empty()) out += ".br\nDefault: " + bold(option.default_value) + "\n";
}

void append_entries(std::string& out, const std::string& title, const std::vector<Entry>& entries) {
    if (entries.empty()) return;
    out += ".SH " + roff_quoted(title) + "\n";
    for (const auto& e : entries)
        out += ".TP\n" + bold(e.term) + "\n" + lines(e.text, markup_line) + "\n";
}

} // namespace

std::string escape_text(std::string_view text) {
    return lines(text, markup_line);
}

std::string escape_literal(std::string_view text) {
    return lines(text, literal_line);
}

std::string render(const ManPage& page) {
    std::string out;
    if (!page.generator.empty())
        out += ".\\\" Generated by " + page.generator + " from its option table: do not edit.\n";
    std::string upper_name;
    for (const char c : page.name)
        upper_name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    out += ".TH " + roff_quoted(upper_name) + " " + std::to_string(page.section) + " " +
           roff_quoted(page.date) + " " + roff_quoted(page.source) + " " + roff_quoted(page.manual) + "\n";
    out += ".SH NAME\n" + literal_line(page.name) + " \\- " + lines(page.summary, markup_line) + "\n";
    if (!page.synopsis.empty()) {
        out += ".SH SYNOPSIS\n";
        append_synopsis(out, page.name, page.synopsis);
    }
    if (!page.description.empty()) {
        out += ".SH DESCRIPTION\n";
        append_paragraphs(out, page.description);
    }
    for (const auto& section : page.sections) {
        out += ".SH " + roff_quoted(section.title) + "\n";
        append_paragraphs(out, section.paragraphs);
        for (const auto& option : section.options)
            append_option(out, option);
        for (const auto& sub : section.subsections) {
            out += ".SS " + roff_quoted(sub.title) + "\n";
            append_synopsis(out, page.name, sub.synopsis);
            append_paragraphs(out, sub.paragraphs);
            for (const auto& option : sub.options)
                append_option(out, option);
        }
    }
    append_entries(out, "EXIT STATUS", page.exit_status);
    append_entries(out, "ENVIRONMENT", page.environment);
    append_entries(out, "FILES", page.files);
    if (!page.see_also.empty()) {
        out += ".SH \"SEE ALSO\"\n";
        for (std::size_t i = 0; i < page.see_also.size(); ++i) {
            const auto& ref = page.see_also[i];
            const auto paren = ref.find('(');
            out += paren == std::string::npos ? bold(ref) : bold(ref.substr(0, paren)) + ref.substr(paren);
            out += i + 1 < page.see_also.size() ? ",\n" : "\n";
        }
    }
    return out;
}

} // namespace rdmalab::man
