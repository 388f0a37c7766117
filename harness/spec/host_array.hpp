#pragma once
// A typed array in host memory: the generated inputs and the reference's outputs of one test.
#include "spec/problem_spec.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace gpujudge {

class host_array {
public:
    host_array() = default;
    host_array(element_type type, std::size_t num_items)
        : type_(type), num_items_(num_items), bytes_(num_items * element_size(type)) {}
    // With `spare` bytes after the elements, outside size_bytes(): room for a guard.
    host_array(element_type type, std::size_t num_items, std::size_t spare)
        : type_(type), num_items_(num_items), bytes_(num_items * element_size(type) + spare) {}

    element_type type() const { return type_; }
    std::size_t size() const { return num_items_; }
    std::size_t size_bytes() const { return num_items_ * element_size(type_); }
    std::size_t spare_bytes() const { return bytes_.size() - size_bytes(); }
    void* data() { return bytes_.data(); }
    const void* data() const { return bytes_.data(); }

    template <class T>
    T* as() {
        return reinterpret_cast<T*>(bytes_.data());
    }
    template <class T>
    const T* as() const {
        return reinterpret_cast<const T*>(bytes_.data());
    }

    // Element i widened to double, whatever the element type (each branch apart: the conditional's
    // common type, float, rounded 123456791 to 123456792).
    double value(std::size_t i) const {
        return type_ == element_type::f32 ? static_cast<double>(as<float>()[i])
                                          : static_cast<double>(as<std::int32_t>()[i]);
    }
    void set(std::size_t i, double v) {
        if (type_ == element_type::f32)
            as<float>()[i] = static_cast<float>(v);
        else
            as<std::int32_t>()[i] = static_cast<std::int32_t>(v);
    }
    std::uint32_t bits(std::size_t i) const {
        std::uint32_t word;
        std::memcpy(&word, bytes_.data() + sizeof word * i, sizeof word);
        return word;
    }
    void set_bits(std::size_t i, std::uint32_t word) {
        std::memcpy(bytes_.data() + sizeof word * i, &word, sizeof word);
    }

private:
    element_type type_ = element_type::f32;
    std::size_t num_items_ = 0;
    std::vector<std::byte> bytes_;
};

}  // namespace gpujudge
