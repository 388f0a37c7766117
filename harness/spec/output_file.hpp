#pragma once
// A test's expected outputs on disk: the reference process writes them, the runner (and the judge)
// read them. The file holds each output buffer's bytes in signature order.
#include "spec/host_array.hpp"
#include "spec/problem_spec.hpp"

#include <filesystem>
#include <map>
#include <string>

namespace gpujudge {

using named_arrays = std::map<std::string, host_array>;

// Written under a private name and renamed, so that a reader never sees half a file.
void write_outputs(const std::filesystem::path& path, const problem_spec& spec, const named_arrays& outputs);

// Throws std::runtime_error when the file is missing or its size does not match the shapes.
named_arrays read_outputs(const std::filesystem::path& path, const problem_spec& spec, const scalar_values& scalars);

// An example's literal expected outputs from problem.yaml.
named_arrays literal_outputs(const problem_spec& spec, const test_spec& example);

}  // namespace gpujudge
