#include "spec/yaml_document.hpp"

#include "spec/problem_spec.hpp"

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <map>
#include <optional>
#include <sstream>
#include <vector>

namespace gpujudge {

namespace {

// Walks the parser's events (no tree, no recursion): each mapping's keys so far, and whether its next
// node is a key or a value.
class document_checker : public YAML::EventHandler {
public:
    explicit document_checker(std::string path) : path_(std::move(path)) {}

    void OnDocumentStart(const YAML::Mark& mark) override {
        if (++documents_ > 1) fail(mark, "a second YAML document: problem.yaml holds one");
    }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { node(mark, nullptr); }
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override {
        fail(mark, "aliases (*name) are not supported: write the value out");
    }
    void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string& value) override {
        node(mark, &value);
    }
    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                         YAML::EmitterStyle::value) override {
        node(mark, nullptr, true);
        frames_.push_back({false});
    }
    void OnSequenceEnd() override { frames_.pop_back(); }
    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
        node(mark, nullptr, true);
        frames_.push_back({true});
    }
    void OnMapEnd() override { frames_.pop_back(); }

private:
    struct frame {
        bool is_map;
        bool at_key = true;
        std::map<std::string, int> key_lines;
    };
    std::string path_;
    std::vector<frame> frames_;
    int documents_ = 0;

    [[noreturn]] void fail(const YAML::Mark& mark, const std::string& message) const {
        throw spec_error(path_, mark.line + 1, message);
    }

    // A node begins (a collection's events follow in a frame of its own): in a mapping, keys and
    // values alternate. A key that is a list or a mapping (`? [a, b]`) would throw yaml-cpp's "bad
    // conversion", with no line, where the problem's keys are read as names.
    void node(const YAML::Mark& mark, const std::string* scalar, bool collection = false) {
        if (frames_.empty() || !frames_.back().is_map) return;
        frame& map = frames_.back();
        if (map.at_key && collection) fail(mark, "a key must be a plain name");
        if (map.at_key && scalar) {
            const auto [first, added] = map.key_lines.emplace(*scalar, mark.line + 1);
            if (!added) fail(mark, fmt::format("duplicate key '{}' (first at line {})", *scalar, first->second));
        }
        map.at_key = !map.at_key;
    }
};

// The reported line (1-based), or the one above it, where its indentation holds a tab: YAML indents with
// spaces alone, and yaml-cpp's words for a tab there ("illegal map value") name no tab. A tab further up
// (inside a block scalar's text, where it is legal) is not the error's.
std::optional<int> tab_indented_line(const std::string& text, int reported) {
    std::istringstream lines(text);
    std::string line;
    std::optional<int> found;
    for (int number = 1; number <= reported && std::getline(lines, line); ++number) {
        const std::size_t indent = line.find_first_not_of(" \t");  // a blank line indents nothing
        if (number >= reported - 1 && indent != std::string::npos &&
            line.substr(0, indent).find('\t') != std::string::npos)
            found = number;
    }
    return found;
}

// The length of the key on the reported line (1-based) when it is over YAML's 1024 characters for a
// key written without `? `, which yaml-cpp reads as no key ("illegal map value", naming no length).
std::optional<std::size_t> overlong_key(const std::string& text, int reported) {
    constexpr std::size_t kLongestPlainKey = 1024;
    std::istringstream lines(text);
    std::string line;
    for (int number = 1; number <= reported && std::getline(lines, line); ++number) {
    }
    const std::size_t start = line.find_first_not_of(" -");
    const std::size_t colon = line.find(':', start == std::string::npos ? 0 : start);
    if (start == std::string::npos || colon == std::string::npos || colon - start <= kLongestPlainKey)
        return std::nullopt;
    return colon - start;
}

}  // namespace

YAML::Node load_yaml_document(const std::string& text, const std::string& display_path) {
    try {
        std::istringstream stream(text);
        YAML::Parser parser(stream);
        document_checker checker(display_path);
        while (parser.HandleNextDocument(checker)) {
        }
        return YAML::Load(text);
    } catch (const YAML::DeepRecursion& error) {
        throw spec_error(display_path, error.mark.line + 1, "nested too deeply for the YAML parser");
    } catch (const YAML::ParserException& error) {
        if (const auto tab = tab_indented_line(text, error.mark.line + 1))
            throw spec_error(display_path, *tab, "a tab indents this line; YAML indents with spaces");
        if (const auto length = overlong_key(text, error.mark.line + 1))
            throw spec_error(
                display_path, error.mark.line + 1,
                fmt::format("a key of {} characters: YAML reads one over 1024 as no key; shorten it", *length));
        throw spec_error(display_path, error.mark.line + 1, error.msg);
    }
}

}  // namespace gpujudge
