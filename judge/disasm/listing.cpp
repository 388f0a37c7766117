#include "disasm/listing.hpp"

#include "base/regex_line.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <regex>
#include <sstream>

namespace gpujudge {

namespace {

// Runs of blanks become one space; none at either end.
std::string squeezed(const std::string& text) {
    std::string out;
    bool blank = false;
    for (const char c : text) {
        if (c == ' ' || c == '\t' || c == '\r') {
            blank = !out.empty();
            continue;
        }
        if (blank) out += ' ';
        blank = false;
        out += c;
    }
    return out;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(regex_line(line));
    return lines;
}

// Builds one function's blocks: labels wait for the next instruction, which opens a block when its
// place differs from the last one's.
class listing_builder {
public:
    void start(const std::string& symbol, bool entry) {
        finish();
        kernels_.push_back({symbol, demangle(symbol), entry, {}});
        labels_.clear();
        at_.reset();
    }
    bool open() const { return !kernels_.empty() && !closed_; }
    kernel_listing& current() { return kernels_.back(); }
    void place(std::optional<source_place> at) { at_ = std::move(at); }
    void label(const std::string& text) {
        if (open()) labels_.push_back(text);
    }
    void add(const std::string& address, const std::string& text) {
        if (!open()) return;
        auto& blocks = kernels_.back().blocks;
        if (blocks.empty() || !(blocks.back().at == at_)) blocks.push_back({at_, {}});
        for (const auto& label : labels_) blocks.back().code.push_back({"", label});
        labels_.clear();
        blocks.back().code.push_back({address, text});
    }
    void close() { closed_ = true; }
    void reopen() { closed_ = false; }
    // Labels after the last instruction (the symbol's end) are dropped, and so is a function without code.
    void finish() {
        labels_.clear();
        if (!kernels_.empty() && kernels_.back().blocks.empty()) kernels_.pop_back();
    }
    std::vector<kernel_listing> take() {
        finish();
        return std::move(kernels_);
    }

private:
    std::vector<kernel_listing> kernels_;
    std::vector<std::string> labels_;
    std::optional<source_place> at_;
    bool closed_ = false;
};

// The innermost place in `prefer`, else the innermost.
std::optional<source_place> choose(const std::vector<source_place>& frames, const std::string& prefer) {
    for (const auto& frame : frames)
        if (frame.file == prefer) return frame;
    if (frames.empty()) return std::nullopt;
    return frames.front();
}

}  // namespace

std::string demangle(const std::string& symbol) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status),
                                                std::free);
    return status == 0 && name ? std::string(name.get()) : symbol;
}

std::vector<kernel_listing> parse_sass(const std::string& text, const std::string& prefer_file) {
    static const std::regex section(R"(^\s*\.section\s+([^,\s]+))");
    static const std::regex text_label(R"(^\s*\.text\.(\S+):\s*$)");
    static const std::regex function(R"(^\s*Function\s*:\s*(\S+)\s*$)");  // cuobjdump -sass
    static const std::regex entry(R"(^\s*\.other\s+([^,\s]+)\s*,\s*@"[^"]*STO_CUDA_ENTRY)");
    static const std::regex file_line(
        R"re(^\s*//##\s*File\s+"([^"]*)",\s*line\s+(\d+)(?:\s+inlined at\s+"([^"]*)",\s*line\s+(\d+))?)re");
    static const std::regex code(R"(^\s*/\*([0-9a-fA-F]+)\*/\s*(.*?)\s*(/\*\s*0x[0-9a-fA-F]+\s*\*/)?\s*$)");
    static const std::regex label(R"(^\s*(\.L[\w.$]*):\s*$)");
    listing_builder listing;
    std::vector<source_place> frames;
    bool in_frames = false;  // the previous line was a "//## File" line
    std::smatch m;
    for (const std::string& line : lines_of(text)) {
        const bool frame_line = std::regex_search(line, m, file_line);
        if (frame_line) {
            if (!in_frames) frames.clear();
            frames.push_back({m[1], std::stoi(m[2])});
            if (m[3].matched) frames.push_back({m[3], std::stoi(m[4])});
            in_frames = true;
            continue;
        }
        if (in_frames) listing.place(choose(frames, prefer_file));
        in_frames = false;
        if (std::regex_search(line, m, section)) {
            const std::string name = m[1];
            if (name.rfind(".text.", 0) == 0) {
                listing.start(name.substr(6), false);
                listing.reopen();
            } else {
                listing.close();  // data (.nv.info, .nv.constant0, .debug_frame) has /*addr*/ lines too
            }
        } else if (std::regex_search(line, m, text_label)) {
            if (!listing.open() || listing.current().symbol != m[1]) {
                listing.start(m[1], false);
                listing.reopen();
            }
        } else if (std::regex_search(line, m, function)) {
            listing.start(m[1], true);
            listing.reopen();
        } else if (std::regex_search(line, m, entry)) {
            if (listing.open() && listing.current().symbol == m[1]) listing.current().entry = true;
        } else if (std::regex_match(line, m, code)) {
            const std::string instruction = squeezed(m[2]);
            if (!instruction.empty() && instruction.front() != '.') listing.add(m[1], instruction);
        } else if (std::regex_match(line, m, label)) {
            listing.label(std::string(m[1]) + ":");
        }
    }
    return listing.take();
}

std::vector<kernel_listing> parse_ptx(const std::string& text, const std::string& prefer_file) {
    static const std::regex file_directive(R"re(^\s*\.file\s+(\d+)\s+"([^"]*)")re");
    static const std::regex header(
        R"(^\s*(?:\.(?:visible|weak|extern)\s+)*\.(entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$%][\w$%.]*))");
    static const std::regex loc(R"(^\s*\.loc\s+(\d+)\s+(\d+)\s+\d+(?:.*inlined_at\s+(\d+)\s+(\d+)\s+\d+)?)");
    static const std::regex label(R"(^\s*([A-Za-z_$%][\w$%.]*):\s*$)");
    const std::vector<std::string> lines = lines_of(text);
    std::map<int, std::string> files;
    std::smatch m;
    for (const auto& line : lines)
        if (std::regex_search(line, m, file_directive)) files[std::stoi(m[1])] = m[2];
    const auto file_of = [&](const std::string& index) {
        const auto found = files.find(std::stoi(index));
        return found == files.end() ? "file " + index : found->second;
    };

    listing_builder listing;
    std::optional<std::pair<std::string, bool>> pending;  // a header whose body has not begun
    std::string statement;  // an instruction continued over lines (a call's operands), up to its ';'
    int depth = 0;
    for (const std::string& line : lines) {
        std::string code = squeezed(line.substr(0, line.find("//")));  // PTX's comments are // to the end
        if (depth == 0) {
            if (std::regex_search(line, m, header)) {
                pending = {{m[2], m[1] == "entry"}};
            } else if (pending && code == "{") {
                listing.start(pending->first, pending->second);
                listing.reopen();
                pending.reset();
                depth = 1;
            } else if (pending && !code.empty() && code.back() == ';') {
                pending.reset();  // a declaration (.extern .func vprintf(...);): no body
            }
            continue;
        }
        for (const char c : code) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
        if (depth == 0) {
            listing.close();
            continue;
        }
        if (code.empty() || code == "{" || code == "}") continue;  // a call's scope: { .param ...; call ...; }
        if (!statement.empty()) {
            statement += (statement.back() == '(' || code == ")" || code == ");" ? "" : " ") + code;
            if (code.back() == ';') {
                listing.add("", statement);
                statement.clear();
            }
        } else if (std::regex_search(line, m, loc)) {
            if (std::stoi(m[2]) == 0) continue;  // line 0: code the compiler made up; it stays where it was
            source_place at{file_of(m[1]), std::stoi(m[2])};
            if (m[3].matched && at.file != prefer_file && file_of(m[3]) == prefer_file)
                at = {file_of(m[3]), std::stoi(m[4])};
            listing.place(at);
        } else if (code.front() == '.') {
            continue;  // .reg, .shared, .local, .param, .pragma: declarations, not code
        } else if (std::regex_match(line, m, label)) {
            listing.label(std::string(m[1]) + ":");
        } else if (code.back() != ';') {
            statement = code;
        } else {
            listing.add("", code);
        }
    }
    return listing.take();
}

std::vector<kernel_listing> select_kernels(const std::vector<kernel_listing>& kernels, const std::string& wanted) {
    if (wanted.empty()) return kernels;
    std::vector<kernel_listing> selected;
    for (const auto& kernel : kernels)
        if (kernel.symbol == wanted || kernel.name.find(wanted) != std::string::npos) selected.push_back(kernel);
    return selected;
}

}  // namespace gpujudge
