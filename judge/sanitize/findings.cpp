#include "sanitize/findings.hpp"

#include <fstream>
#include <map>

namespace gpujudge {

namespace {

enum class owner { submission, judge, other };

std::vector<std::string> read_lines(const std::filesystem::path& path) {
    std::vector<std::string> lines;
    std::ifstream file(path);
    for (std::string line; std::getline(file, line);) lines.push_back(line);
    return lines;
}

std::string trimmed(const std::string& text) {
    const std::size_t start = text.find_first_not_of(" \t\r");
    return start == std::string::npos ? "" : text.substr(start, text.find_last_not_of(" \t\r") - start + 1);
}

class site_mapper {
public:
    site_mapper(const std::filesystem::path& source, const std::filesystem::path& compiled_from)
        : source_(source),
          compiled_name_((compiled_from.empty() ? source : compiled_from).filename()),
          lines_(read_lines(source)) {}

    bool in_source(const code_site& site) const {
        return !site.file.empty() && std::filesystem::path(site.file).filename() == compiled_name_;
    }

    owner owner_of(const sanitizer_record& record) const {
        if (record.at.empty()) return owner::other;
        const code_site& site = record.at.front().site;
        if (in_source(site)) return owner::submission;
        return site.function.rfind("gpujudge::", 0) == 0 ? owner::judge : owner::submission;
    }

    // The record's sites with the user's path for their file, and the first one's line quoted.
    sanitizer_finding finding_of(const sanitizer_record& record) const {
        sanitizer_finding finding{record.kind, record.warning, record.at, "", 0, 0, record.thread, record.details};
        for (auto& side : finding.at)
            if (in_source(side.site)) side.site.file = source_.string();
        const code_site& first = record.at.empty() ? code_site{} : record.at.front().site;
        if (in_source(first) && first.line >= 1 && static_cast<std::size_t>(first.line) <= lines_.size())
            finding.quoted = trimmed(lines_[static_cast<std::size_t>(first.line - 1)]);
        return finding;
    }

private:
    std::filesystem::path source_;
    std::filesystem::path compiled_name_;
    std::vector<std::string> lines_;
};

// One key per place: the kind and every site's file and line (a function's offset varies within a
// line), or its function where there is no line info.
std::string place_key(const sanitizer_finding& finding) {
    std::string key = finding.kind;
    for (const auto& side : finding.at)
        key += "\n" + side.access + "@" +
               (side.site.file.empty() ? side.site.function : side.site.file + ":" + std::to_string(side.site.line));
    return key;
}

// Adds a record to its list, merged into the finding at the same place if there is one.
void merge(std::vector<sanitizer_finding>& list, std::map<std::string, std::size_t>& index, sanitizer_finding finding,
           long long hazards) {
    const bool warning = finding.warning;
    const auto [at, fresh] = index.emplace(place_key(finding), list.size());
    if (fresh) list.push_back(std::move(finding));
    sanitizer_finding& kept = list[at->second];
    kept.warning = kept.warning && warning;
    kept.reports += 1;
    kept.hazards += hazards;
}

}  // namespace

sanitizer_findings map_findings(const sanitizer_log& log, const std::filesystem::path& source,
                                const std::filesystem::path& compiled_from) {
    const site_mapper mapper(source, compiled_from);
    sanitizer_findings findings;
    std::map<std::string, std::size_t> index[3];
    for (const auto& record : log.records) {
        const owner whose = mapper.owner_of(record);
        auto& list = whose == owner::submission ? findings.submission
                     : whose == owner::judge    ? findings.judge
                                                : findings.other;
        merge(list, index[static_cast<int>(whose)], mapper.finding_of(record), record.hazards);
    }
    return findings;
}

}  // namespace gpujudge
