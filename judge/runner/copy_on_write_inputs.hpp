#pragma once
// A test's generated inputs, held once in memory files that each reference request maps
// copy-on-write: a variant's changes (16 to 65536 elements) copy the pages they touch, not the
// arrays. A fresh copy of 800 MB per request took 0.4 to 1.1 s with 16 requests at once on the
// H100 machine, most of it faulting in new pages. An array larger than the process may write to a
// file (the sandbox's RLIMIT_FSIZE, which memory files count against) stays an ordinary array,
// copied per request.
#include "buffers/data_set.hpp"
#include "spec/output_file.hpp"
#include "spec/problem_spec.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace gpujudge {

class copy_on_write_inputs {
public:
    // The test's inputs made with `seed`, generated straight into the files (on every core).
    copy_on_write_inputs(const problem_spec& spec, const test_spec& test, std::uint64_t seed);
    ~copy_on_write_inputs();
    copy_on_write_inputs(const copy_on_write_inputs&) = delete;
    copy_on_write_inputs& operator=(const copy_on_write_inputs&) = delete;

    // One request's private mapping of the inputs with `data`'s changes; unmapped when destroyed.
    class view {
    public:
        view(const copy_on_write_inputs& inputs, const problem_spec& spec, const data_set_spec& data);
        ~view();
        view(const view&) = delete;
        view& operator=(const view&) = delete;
        const std::map<std::string, void*>& pointers() const { return pointers_; }

    private:
        std::map<std::string, void*> pointers_;
        std::map<std::string, std::pair<void*, std::size_t>> regions_;  // mapped, the guard pages too
        named_arrays copies_;                                           // the arrays that are not mapped
    };

private:
    // An input's file: `pad` bytes (see fill_pad), then the input, ending on a page's end. A view maps it
    // between two unreadable pages: a reference that reads past its input (`i <= N`) crashes, the
    // problem's fault, where it read zeros or another input and its wrong answer failed correct
    // submissions; one that reads before it reads the pad, or crashes when there is none.
    struct file {
        int fd = -1;
        std::size_t bytes = 0;
        std::size_t pad = 0;
    };
    std::map<std::string, file> files_;
    named_arrays arrays_;  // too large for a file here
};

}  // namespace gpujudge
