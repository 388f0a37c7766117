#pragma once
// The name a mistyped one most likely meant, for "did you mean" hints: a problem's slug typed with a
// letter off, in another case, or two letters swapped.
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

// `text` with its ASCII letters in lower case: how names are compared without case.
std::string lower_case(std::string text);

// The one of `names` equal to `typed` but for case, else the one nearest to it by edits (an insert, a
// delete, a change, or two neighbours swapped, each one), when at most a quarter of its letters (one
// at least) and no other is as near. Nothing when none is, or `typed` is one of `names`.
std::optional<std::string> nearest_name(const std::string& typed, const std::vector<std::string>& names);

}  // namespace gpujudge
