#include "generator.hpp"

#include <catch2/catch.hpp>

#include <cstring>

using namespace gpujudge;

namespace {

generator_spec make(generator_kind kind, std::vector<std::string> args) {
    generator_spec gen;
    gen.kind = kind;
    gen.args = std::move(args);
    return gen;
}

host_array generated(const generator_spec& gen, element_type type, std::size_t n, std::uint64_t seed,
                     std::uint64_t stream = 0) {
    host_array out(type, n);
    generate(gen, {{"N", static_cast<double>(n)}}, seed, stream, out);
    return out;
}

bool same(const host_array& a, const host_array& b) {
    return a.size_bytes() == b.size_bytes() && std::memcmp(a.data(), b.data(), a.size_bytes()) == 0;
}

}  // namespace

TEST_CASE("the same seed gives the same data, another seed or stream other data", "[generator]") {
    const auto gen = make(generator_kind::uniform, {"-1000", "1000"});
    // Several chunks, so the threads that fill them take part.
    const std::size_t n = 3 * (1u << 20) + 17;
    CHECK(same(generated(gen, element_type::f32, n, 7), generated(gen, element_type::f32, n, 7)));
    CHECK_FALSE(same(generated(gen, element_type::f32, n, 7), generated(gen, element_type::f32, n, 8)));
    CHECK_FALSE(same(generated(gen, element_type::f32, n, 7, 0), generated(gen, element_type::f32, n, 7, 1)));
}

TEST_CASE("generators stay in their ranges and reach their ends", "[generator]") {
    const auto floats = generated(make(generator_kind::uniform, {"-2", "3"}), element_type::f32, 100000, 1);
    double lo = 1e9, hi = -1e9;
    for (std::size_t i = 0; i < floats.size(); ++i) {
        lo = std::min(lo, floats.value(i));
        hi = std::max(hi, floats.value(i));
    }
    CHECK(lo >= -2);
    CHECK(hi <= 3);
    CHECK(lo < -1.99);
    CHECK(hi > 2.99);

    const auto ints = generated(make(generator_kind::integers, {"1", "N / 10000"}), element_type::i32, 100000, 2);
    int seen[11] = {};
    for (std::size_t i = 0; i < ints.size(); ++i) {
        const int v = ints.as<std::int32_t>()[i];
        REQUIRE(v >= 1);
        REQUIRE(v <= 10);
        seen[v]++;
    }
    CHECK(seen[1] > 0);
    CHECK(seen[10] > 0);
}

TEST_CASE("patterned generators fill exactly", "[generator]") {
    generator_spec cycle;
    cycle.kind = generator_kind::cycle;
    cycle.values = {1, -2, 3};
    const auto c = generated(cycle, element_type::i32, 7, 0);
    CHECK(std::vector<int>(c.as<std::int32_t>(), c.as<std::int32_t>() + 7) == std::vector<int>{1, -2, 3, 1, -2, 3, 1});
    const auto ramp = generated(make(generator_kind::ramp, {"5", "0.5"}), element_type::f32, 4, 0);
    CHECK(ramp.value(3) == 6.5);
    const auto constant = generated(make(generator_kind::constant, {"N * 2"}), element_type::f32, 4, 0);
    CHECK(constant.value(0) == 8);
}
