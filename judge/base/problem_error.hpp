#pragma once
// The problem's own files are at fault (its reference does not compile, crashes, hangs): never
// the submission's.
#include <stdexcept>

namespace gpujudge {

class problem_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace gpujudge
