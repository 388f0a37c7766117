// The sealed result channel: the judge opens the runner's lines in order, and refuses a line the
// runner did not seal (the submission's own), a tampered one, a replayed one and another run's.
#include "runner/channel.hpp"

#include "base/json_text.hpp"

#include <catch2/catch.hpp>

using namespace gpujudge;

namespace {

std::string without_newline(std::string line) {
    if (!line.empty() && line.back() == '\n') line.pop_back();
    return line;
}

}  // namespace

TEST_CASE("sealed lines open in order, with their message", "[channel]") {
    const channel_key key = channel_key::random();
    message_sealer sealer(key);
    message_opener opener(key);
    for (int i = 0; i < 3; ++i) {
        const auto opened = opener.open(without_newline(sealer.seal({{"event", "call"}, {"n", i}})));
        REQUIRE(opened);
        CHECK(opened->at("n") == i);
    }
}

TEST_CASE("a line the runner did not seal is refused", "[channel]") {
    const channel_key key = channel_key::random();
    message_opener opener(key);
    CHECK_FALSE(opener.open(R"({"event":"result","body":{"test":0,"result":"accepted"}})"));
    CHECK_FALSE(opener.open("0 0000000000000000 {\"event\":\"done\"}"));
    CHECK_FALSE(opener.open(""));
}

TEST_CASE("a tampered, replayed or reordered line is refused", "[channel]") {
    const channel_key key = channel_key::random();
    message_sealer sealer(key);
    const std::string first = without_newline(sealer.seal({{"result", "wrong_answer"}}));
    const std::string second = without_newline(sealer.seal({{"result", "wrong_answer"}}));
    std::string tampered = first;
    tampered.replace(tampered.find("wrong_answer"), 12, "accepted_xxx");
    CHECK_FALSE(message_opener(key).open(tampered));
    message_opener replayed(key);
    CHECK(replayed.open(first));
    CHECK_FALSE(replayed.open(first));
    CHECK_FALSE(message_opener(key).open(second));  // the second line cannot come first
}

TEST_CASE("a sealed line nested deeper than the judge reads is refused, one as deep as it reads is opened",
          "[channel]") {
    // Built a level at a time: a literal this deep would be a recursion of its own.
    const auto nested = [](int depth) {
        nlohmann::json value = 1;
        for (int level = 0; level < depth; ++level) value = nlohmann::json::array({std::move(value)});
        return nlohmann::json{{"event", "begin"}, {"body", value}};
    };
    const channel_key key = channel_key::random();
    message_sealer sealer(key);
    message_opener opener(key);
    CHECK(opener.open(without_newline(sealer.seal(nested(kMaxJsonDepth - 1)))));
    CHECK_FALSE(opener.open(without_newline(sealer.seal(nested(kMaxJsonDepth)))));
}

TEST_CASE("a line sealed with another run's key is refused", "[channel]") {
    message_sealer other(channel_key::random());
    CHECK_FALSE(message_opener(channel_key::random()).open(without_newline(other.seal({{"event", "done"}}))));
}

TEST_CASE("the key travels as hex and only as well-formed hex", "[channel]") {
    const channel_key key = channel_key::random();
    const auto again = channel_key::from_hex(key.hex());
    REQUIRE(again);
    CHECK(again->bytes() == key.bytes());
    CHECK_FALSE(channel_key::from_hex("abc"));
    CHECK_FALSE(channel_key::from_hex(std::string(2 * channel_key::kBytes, 'g')));
}
