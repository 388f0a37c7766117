#pragma once
#include <string>

namespace gpujudge {

// What a compile error comes to in one line (a grade's row, validate's and bench's reports): the compiler's first error
// line (gcc's "x.cpp:2:24: error: ...", "fatal error:", nvcc's "x.cu(5): error: ...", "nvcc fatal   : ..."), not the
// context or warning lines ahead of it ("In function ...", "x.cu(3): warning #177-D"); else its first line that is not
// blank.
std::string compile_error_reason(const std::string& diagnostics);

}  // namespace gpujudge
