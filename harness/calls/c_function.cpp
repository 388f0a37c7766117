#include "calls/c_function.hpp"

#include <cxxabi.h>

#include <cstdint>
#include <stdexcept>

namespace gpujudge {

c_function::c_function(void* address, const std::vector<parameter>& params) : address_(address), params_(&params) {
    for (const auto& param : params) {
        if (param.is_pointer)
            types_.push_back(&ffi_type_pointer);
        else if (param.type == element_type::i32)
            types_.push_back(&ffi_type_sint32);
        else
            types_.push_back(&ffi_type_float);
    }
    if (ffi_prep_cif(&cif_, FFI_DEFAULT_ABI, static_cast<unsigned>(types_.size()), &ffi_type_void, types_.data()) !=
        FFI_OK)
        throw std::runtime_error("libffi could not prepare the call");
}

std::optional<std::string> c_function::run(const std::vector<void*>& pointers, const scalar_values& scalars) const {
    const auto& params = *params_;
    // One slot per parameter, wide enough for any of them; libffi reads each by its type.
    std::vector<std::uint64_t> storage(params.size());
    std::vector<void*> values(params.size());
    for (std::size_t i = 0; i < params.size(); ++i) {
        void* slot = &storage[i];
        if (params[i].is_pointer)
            *static_cast<void**>(slot) = pointers.at(i);
        else if (params[i].type == element_type::i32)
            *static_cast<std::int32_t*>(slot) = static_cast<std::int32_t>(scalars.at(params[i].name));
        else
            *static_cast<float*>(slot) = static_cast<float>(scalars.at(params[i].name));
        values[i] = slot;
    }
    constexpr std::size_t kShownBytes = 16384;  // as a Python exception's (python_function.cpp)
    try {
        ffi_call(const_cast<ffi_cif*>(&cif_), FFI_FN(address_), nullptr, values.data());
    } catch (abi::__forced_unwind&) {  // pthread_exit's unwinding, which must go on
        throw;
    } catch (const std::exception& error) {
        return std::string(error.what()).substr(0, kShownBytes);
    } catch (...) {
        return std::string("a value that is not a std::exception");
    }
    return std::nullopt;
}

}  // namespace gpujudge
