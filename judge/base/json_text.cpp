#include "base/json_text.hpp"

namespace gpujudge {

std::string json_text(const nlohmann::json& value, int indent) {
    return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

nlohmann::json parse_outside_json(const std::string& text, bool throw_parse_errors) {
    bool too_deep = false;
    // The callback sees each value's depth as the parser reaches it; past the bound it is dropped, so
    // no deep value is ever built.
    const nlohmann::json::parser_callback_t bounded = [&too_deep](int depth, nlohmann::json::parse_event_t,
                                                                  nlohmann::json&) {
        if (depth > kMaxJsonDepth) too_deep = true;
        return !too_deep;
    };
    nlohmann::json value = nlohmann::json::parse(text, bounded, throw_parse_errors);
    return too_deep ? nlohmann::json(nlohmann::json::value_t::discarded) : value;
}

}  // namespace gpujudge
