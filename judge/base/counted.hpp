#pragma once
// A count with its noun, singular for one: "1 submission", "3 submissions", "2 tests".
#include <cstddef>
#include <string>

namespace gpujudge {

// `many` defaults to `one` + "s".
std::string counted(std::size_t count, const std::string& one, const std::string& many = "");

}  // namespace gpujudge
