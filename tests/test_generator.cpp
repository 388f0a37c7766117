#include "buffers/memory_space.hpp"
#include "checks/compare.hpp"
#include "inputs/counter_rng.hpp"
#include "inputs/generator.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

using namespace gpujudge;

namespace {

generator_spec make(generator_kind kind, std::vector<std::string> args) {
    generator_spec gen;
    gen.kind = kind;
    gen.args = std::move(args);
    return gen;
}

scalar_values scalars_for(std::size_t n) {
    return {{"N", static_cast<double>(n)}};
}

host_array generated(const generator_spec& gen, element_type type, std::size_t n, std::uint64_t seed,
                     std::uint64_t stream = 0) {
    host_array out(type, n);
    generate(gen, scalars_for(n), seed, stream, out);
    return out;
}

bool same(const host_array& a, const host_array& b) {
    return a.size_bytes() == b.size_bytes() && std::memcmp(a.data(), b.data(), a.size_bytes()) == 0;
}

}  // namespace

TEST_CASE("Philox4x32-10 gives Random123's known answers", "[generator]") {
    struct known_answer {
        std::uint32_t counter[4], key[2], expected[4];
    };
    // Random123 1.14, tests/kat_vectors, the philox4x32 10 lines.
    const known_answer answers[] = {
        {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
        {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
         {0xffffffff, 0xffffffff},
         {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
        {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
         {0xa4093822, 0x299f31d0},
         {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
    };
    for (const auto& kat : answers) {
        const philox_block got =
            philox4x32_10(kat.counter[0], kat.counter[1], kat.counter[2], kat.counter[3], kat.key[0], kat.key[1]);
        for (int k = 0; k < 4; ++k) CHECK(got.v[k] == kat.expected[k]);
    }
}

TEST_CASE("the same seed gives the same data, another seed or stream other data", "[generator]") {
    const auto gen = make(generator_kind::uniform, {"-1000", "1000"});
    // Several chunks, so the threads that fill them take part.
    const std::size_t n = 3 * (1u << 20) + 17;
    CHECK(same(generated(gen, element_type::f32, n, 7), generated(gen, element_type::f32, n, 7)));
    CHECK_FALSE(same(generated(gen, element_type::f32, n, 7), generated(gen, element_type::f32, n, 8)));
    CHECK_FALSE(same(generated(gen, element_type::f32, n, 7, 0), generated(gen, element_type::f32, n, 7, 1)));
}

TEST_CASE("the data does not depend on the number of threads", "[generator]") {
    const std::size_t n = 5 * (1u << 20) + 3;
    const auto params = make_generator_params(make(generator_kind::normal, {"0", "1"}), scalars_for(n), 3, 1);
    host_array one(element_type::f32, n);
    fill_generated(params, element_type::f32, one.data(), n, 1);
    for (unsigned threads : {2u, 3u, 8u}) {
        host_array many(element_type::f32, n);
        fill_generated(params, element_type::f32, many.data(), n, threads);
        CHECK(same(one, many));
    }
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

TEST_CASE("integers include both bounds, rounded inwards", "[generator]") {
    const auto ints = generated(make(generator_kind::integers, {"-2.5", "2.5"}), element_type::i32, 10000, 4);
    int seen[5] = {};
    for (std::size_t i = 0; i < ints.size(); ++i) {
        const int v = ints.as<std::int32_t>()[i];
        REQUIRE(v >= -2);
        REQUIRE(v <= 2);
        seen[v + 2]++;
    }
    for (int count : seen) CHECK(count > 1500);  // 2000 expected of each
    const auto one = generated(make(generator_kind::integers, {"7", "7"}), element_type::i32, 100, 4);
    for (std::size_t i = 0; i < one.size(); ++i) REQUIRE(one.as<std::int32_t>()[i] == 7);
}

TEST_CASE("normal has its mean and standard deviation, tails cut at 6 sigma", "[generator]") {
    const std::size_t n = 1000000;
    const auto values = generated(make(generator_kind::normal, {"3", "2"}), element_type::f32, n, 5);
    double sum = 0, sum_squares = 0, largest_z = 0;
    for (std::size_t i = 0; i < n; ++i) {
        sum += values.value(i);
        sum_squares += values.value(i) * values.value(i);
        largest_z = std::max(largest_z, std::fabs(values.value(i) - 3) / 2);
    }
    const double mean = sum / n, stddev = std::sqrt(sum_squares / n - mean * mean);
    // The standard error of the mean is 2 / 1000: 0.01 is five of them.
    CHECK(std::fabs(mean - 3) < 0.01);
    CHECK(std::fabs(stddev - 2) < 0.01);
    CHECK(largest_z <= 6);
    CHECK(largest_z > 4);  // a million draws reach beyond 4 sigma
}

TEST_CASE("patterned generators fill exactly", "[generator]") {
    generator_spec cycle;
    cycle.kind = generator_kind::cycle;
    cycle.values = {1, -2, 3};
    const auto c = generated(cycle, element_type::i32, 7, 0);
    CHECK(std::vector<int>(c.as<std::int32_t>(), c.as<std::int32_t>() + 7) == std::vector<int>{1, -2, 3, 1, -2, 3, 1});
    const auto ramp = generated(make(generator_kind::ramp, {"5", "0.5"}), element_type::f32, 4, 0);
    CHECK(ramp.value(3) == 6.5);
    // On an int buffer each start + i * step is cut toward zero, as a C cast: a fractional step is a
    // staircase (problems/README.md says so; max_subarray_sum's ramps are built on it).
    const auto steps = generated(make(generator_kind::ramp, {"-2", "0.5"}), element_type::i32, 8, 0);
    CHECK(std::vector<int>(steps.as<std::int32_t>(), steps.as<std::int32_t>() + 8) ==
          std::vector<int>{-2, -1, -1, 0, 0, 0, 1, 1});
    const auto constant = generated(make(generator_kind::constant, {"N * 2"}), element_type::f32, 4, 0);
    CHECK(constant.value(0) == 8);
    generator_spec literal;
    literal.kind = generator_kind::literal;
    literal.values = {0.1, -7};
    const auto l = generated(literal, element_type::f32, 2, 0);
    CHECK(l.as<float>()[0] == 0.1f);
    CHECK(l.as<float>()[1] == -7.0f);
}

TEST_CASE("ints are stored truncated toward zero and saturated", "[generator]") {
    CHECK(stored_bits(2.9, element_type::i32) == 2u);
    CHECK(stored_bits(-2.9, element_type::i32) == static_cast<std::uint32_t>(-2));
    CHECK(stored_bits(3e9, element_type::i32) == 0x7FFFFFFFu);
    CHECK(stored_bits(-3e9, element_type::i32) == 0x80000000u);
    CHECK(stored_bits(std::nan(""), element_type::i32) == 0u);
    const float third = 1.0f / 3;
    std::uint32_t third_bits;
    std::memcpy(&third_bits, &third, 4);
    CHECK(stored_bits(1.0 / 3, element_type::f32) == third_bits);
}

TEST_CASE("generated_bits is the element a generated buffer holds", "[generator]") {
    const std::size_t n = (1u << 20) + 5;
    generator_spec cycle;
    cycle.kind = generator_kind::cycle;
    cycle.values = {0.1, 2.5, -3};
    const generator_spec gens[] = {make(generator_kind::uniform, {"-1", "1"}), make(generator_kind::normal, {"0", "5"}),
                                   make(generator_kind::integers, {"-100", "100"}),
                                   make(generator_kind::ramp, {"1", "0.1"}), cycle};
    for (const auto& gen : gens) {
        for (element_type type : {element_type::f32, element_type::i32}) {
            const host_array data = generated(gen, type, n, 11, 2);
            const generator_params params = make_generator_params(gen, scalars_for(n), 11, 2);
            for (std::size_t i : {std::size_t{0}, std::size_t{1}, std::size_t{12345}, n - 1})
                CHECK(generated_bits(params, type, i) == data.bits(i));
        }
    }
}

TEST_CASE("the host space generates what generate() does", "[generator]") {
    const auto space = make_host_space();
    const std::size_t n = 2 * (1u << 20) + 9;
    generator_spec literal;
    literal.kind = generator_kind::literal;
    for (std::size_t i = 0; i < 100; ++i) literal.values.push_back(i * 0.7);
    const generator_spec gens[] = {make(generator_kind::uniform, {"-5", "5"}), make(generator_kind::normal, {"1", "1"}),
                                   make(generator_kind::integers, {"0", "N"}), literal};
    for (const auto& gen : gens) {
        const std::size_t size = gen.kind == generator_kind::literal ? literal.values.size() : n;
        const host_array expected = generated(gen, element_type::f32, size, 9, 3);
        host_array got(element_type::f32, size);
        space->generate(got.data(), make_generator_params(gen, scalars_for(size), 9, 3), element_type::f32, size);
        CHECK(same(expected, got));
    }
}

TEST_CASE("the host space finds the first element not as its recipe makes it", "[compare]") {
    const auto space = make_host_space();
    const std::size_t n = 3 * 4096 + 13;
    const generator_spec gen = make(generator_kind::uniform, {"-5", "5"});
    const generator_params params = make_generator_params(gen, scalars_for(n), 9, 3);
    const std::vector<std::uint64_t> indices = {7, 4096, n - 2};  // sorted, as the harness keeps them
    const std::vector<std::uint32_t> bits = {0x3f800000u, 0x40000000u, 0xc0400000u};
    std::vector<std::uint32_t> now(n);
    space->generate(now.data(), params, element_type::f32, n);
    space->scatter(now.data(), indices.data(), bits.data(), indices.size());
    const auto first = [&] {
        return space->first_ungenerated(now.data(), params, element_type::f32, n, indices.data(), bits.data(),
                                        indices.size());
    };
    CHECK_FALSE(first().has_value());
    CHECK(space->first_ungenerated(now.data(), params, element_type::f32, 0, nullptr, nullptr, 0) == std::nullopt);
    for (std::size_t at : {std::size_t{0}, std::size_t{7}, std::size_t{4096}, n / 2, n - 1}) {
        const std::vector<std::uint32_t> original = now;
        now[at] ^= 1;
        now[n - 1] ^= 2;  // a later difference does not hide the first
        CHECK(first() == at);
        now = original;
    }
    now[4096] = generated_bits(params, element_type::f32, 4096);  // a change undone
    CHECK(first() == 4096);
}
