#pragma once
// A class's submissions: <dir>/<student>/<problem>.<ext>. Every file and folder found becomes an
// entry; what cannot be judged carries its status (gradebook.hpp) and why.
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace gpujudge {

struct class_entry {
    std::string file;  // relative to the class folder, as the gradebook keys it
    std::string student;
    std::string problem;  // the file's stem, known or not
    std::filesystem::path path;
    std::string status;  // empty: a submission to judge
    std::string reason;
};

// The extensions a submission may have: ".cu" and ".py" on a GPU, ".cpp" with the host backend.
std::vector<std::string> source_extensions(bool host_backend);

// Every entry under `dir`, by student then file name. Hidden names and `skip` (the run folder,
// when it lies inside) are left out. Throws usage_error when `dir` is no folder.
std::vector<class_entry> scan_class(const std::filesystem::path& dir, const std::set<std::string>& problems,
                                    bool host_backend, const std::filesystem::path& skip);

}  // namespace gpujudge
