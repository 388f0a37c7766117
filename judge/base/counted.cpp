#include "base/counted.hpp"

#include <fmt/format.h>

namespace gpujudge {

std::string counted(std::size_t count, const std::string& one, const std::string& many) {
    return fmt::format("{} {}", count, count == 1 ? one : many.empty() ? one + "s" : many);
}

}  // namespace gpujudge
