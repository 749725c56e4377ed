#pragma once
// One launch of a sampling kernel (shaders/random): the kernel draws element
// i from Philox blocks keyed by (seed, offset), which each launch takes from
// the generator, so a seed reproduces a sequence and consecutive launches
// differ.
#include <ATen/TensorIterator.h>
#include <ATen/core/Generator.h>

#include <cstdint>
#include <optional>
#include <string_view>

namespace torchvulkan::random {

// Launches "<kernel>.<dtype of output 0>" over `iter` with the op's two
// parameters (raw bits, see real_bits and threshold) and a fresh (seed,
// offset) from `generator`, or the device's default generator.
void launch(std::string_view kernel, const at::TensorIteratorBase& iter,
            const std::optional<at::Generator>& generator, uint64_t param0 = 0,
            uint64_t param1 = 0);

// `value` in the type the kernels compute `dtype`'s samples in: double for
// float64, float otherwise.
uint64_t real_bits(double value, c10::ScalarType dtype);

// ceil(p 2^32): a 32-bit random word below it has probability p (exactly 0
// and 1 at the ends).
uint64_t threshold(double p);

}  // namespace torchvulkan::random
