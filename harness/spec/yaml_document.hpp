#pragma once
// problem.yaml as one YAML document, refused (spec_error, "path:line: message") where yaml-cpp would
// quietly pick for the maintainer: a key given twice (yaml-cpp keeps the first), an alias (one node
// shared by many places: a handful of lines can stand for billions of values), a second document
// (yaml-cpp reads the first alone), or nesting past its depth guard.
#include <string>

#include <yaml-cpp/node/node.h>

namespace gpujudge {

YAML::Node load_yaml_document(const std::string& text, const std::string& display_path);

}  // namespace gpujudge
