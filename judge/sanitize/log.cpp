#include "sanitize/log.hpp"

#include "base/regex_line.hpp"

#include <regex>
#include <sstream>

namespace gpujudge {

namespace {

const std::string kPrefix = "=========";

// "kernel(args)+0x80 in file.cu:23", or without line info "kernel(args)+0x80"; anything else is
// kept whole as the function, so that nothing the tool said is lost.
code_site parse_site(const std::string& text) {
    static const std::regex form(R"(^(.*\+0x[0-9a-fA-F]+)(?: in (.+):(\d+))?$)");
    std::smatch match;
    if (!std::regex_match(text, match, form)) return {text, "", 0};
    return {match[1], match[2], match[3].matched ? std::stoi(match[3]) : 0};
}

bool starts_with(const std::string& text, const std::string& start) {
    return text.rfind(start, 0) == 0;
}

// Records in the order the tool wrote them. A record is a line at the first indent, then lines
// indented further, then a blank line; racecheck's analysis records name one access, then one
// "and <access> at ..." line per access it raced with: one record per pair.
class log_reader {
public:
    void header(std::string text) {
        end();
        static const std::regex summary(R"(^(ERROR|RACECHECK) SUMMARY: .*)");
        if (std::regex_match(text, summary)) {
            if (!log.summary) log.summary = text;
            return;
        }
        if (text == "COMPUTE-SANITIZER" || text.find(" SUMMARY: ") != std::string::npos) return;
        open_ = true;
        pending_ = {};
        for (const auto& [label, warning] : {std::pair{"Error: ", false}, std::pair{"Warning: ", true}})
            if (starts_with(text, label)) {
                text.erase(0, std::string(label).size());
                pending_.warning = warning;
            }
        read_kind(text);
    }

    void detail(const std::string& text) {
        if (!open_) return;
        static const std::regex race_side(R"(^and (\w+) access at (.*?)(?: \[(\d+) hazards?\])?$)");
        static const std::regex hazard_side(R"(^(\w+) Thread (\([^)]*\)) at (.*)$)");
        std::smatch match;
        if (race_ && std::regex_match(text, match, race_side)) {
            sanitizer_record pair = pending_;
            pair.at.push_back({match[1], parse_site(match[2])});
            pair.hazards = match[3].matched ? std::stoll(match[3]) : 1;
            log.records.push_back(std::move(pair));
            paired_ = true;
        } else if (starts_with(text, "at ")) {
            if (pending_.at.empty()) pending_.at.push_back({"", parse_site(text.substr(3))});
        } else if (starts_with(text, "by thread ")) {
            pending_.thread = text.substr(3);
        } else if (!race_ && std::regex_match(text, match, hazard_side)) {
            pending_.at.push_back({match[1], parse_site(match[3])});
        } else if (!starts_with(text, "Saved host backtrace") && !starts_with(text, "Host Frame:") &&
                   !starts_with(text, "Device Frame:")) {
            pending_.details.push_back(text);
        }
    }

    void end() {
        if (open_ && !paired_) log.records.push_back(pending_);
        open_ = race_ = paired_ = false;
    }

    sanitizer_log log;

private:
    void read_kind(const std::string& text) {
        static const std::regex race(R"(^Race reported between (\w+) access at (.*)$)");
        static const std::regex hazard(R"(^(Potential \w+ hazard) detected at (.*?)\s*:?$)");
        std::smatch match;
        if (std::regex_match(text, match, race)) {
            race_ = true;
            pending_.kind = "Race";
            pending_.at.push_back({match[1], parse_site(match[2])});
        } else if (std::regex_match(text, match, hazard)) {
            pending_.kind = match[1];
            pending_.details.push_back("at " + match[2].str());
        } else {
            pending_.kind = text;
        }
    }

    sanitizer_record pending_;
    bool open_ = false, race_ = false, paired_ = false;
};

}  // namespace

sanitizer_log parse_sanitizer_log(const std::string& text) {
    log_reader reader;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (!starts_with(line, kPrefix)) continue;  // the program's own output, where it shares the stream
        std::string rest = regex_line(line.substr(kPrefix.size()));
        rest.erase(rest.find_last_not_of(" \r") + 1);
        const std::size_t indent = rest.find_first_not_of(' ');
        if (indent == std::string::npos)
            reader.end();
        else if (indent <= 1)
            reader.header(rest.substr(indent));
        else
            reader.detail(rest.substr(indent));
    }
    reader.end();
    return reader.log;
}

}  // namespace gpujudge
