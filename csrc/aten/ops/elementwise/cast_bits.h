#pragma once
// Op parameters the way ATen's CPU kernels convert them: a host double cast
// with static_cast (no range check: out-of-range values become +-inf), passed
// as the raw bits of the dtype's compute type in the shaders.
#include <ATen/Dispatch.h>

#include <bit>
#include <cstdint>

namespace torchvulkan {

template <typename T>
uint64_t compute_type_bits(T v) {
  if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<uint64_t>(v);
  } else {
    return std::bit_cast<uint32_t>(static_cast<float>(v));  // 16-bit floats compute in float
  }
}

inline uint64_t cast_bits(double value, c10::ScalarType type) {
  uint64_t bits = 0;
  AT_DISPATCH_FLOATING_TYPES_AND2(c10::kHalf, c10::kBFloat16, type, "cast_bits",
                                  [&] { bits = compute_type_bits(static_cast<scalar_t>(value)); });
  return bits;
}

// The dtype that holds a compute-type value exactly: float for 16-bit floats.
inline c10::ScalarType opmath_type(c10::ScalarType type) {
  return type == c10::kDouble ? c10::kDouble : c10::kFloat;
}

}  // namespace torchvulkan
