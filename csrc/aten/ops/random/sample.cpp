#include "aten/ops/random/sample.h"

#include <bit>
#include <cmath>
#include <mutex>
#include <string>

#include "aten/context.h"
#include "aten/generator.h"
#include "aten/launch.h"

namespace torchvulkan::random {

void launch(std::string_view kernel, const at::TensorIteratorBase& iter,
            const std::optional<at::Generator>& generator, uint64_t param0, uint64_t param1) {
  if (iter.numel() == 0) return;
  std::string name = std::string(kernel) + "." + dtype_name(iter.dtype(0));
  TORCH_CHECK_NOT_IMPLEMENTED(device_for(iter.tensor_base(0)).pipelines().available(name), "\"",
                              kernel, "\" not implemented for '", iter.dtype(0), "'");
  auto* gen = at::get_generator_or_default<GeneratorImpl>(
      generator, default_generator(iter.device(0).index()));
  uint64_t seed, offset;
  {
    // One offset per launch: the kernel counts its blocks in the other 64
    // bits of the Philox counter.
    std::lock_guard<std::mutex> lock(gen->mutex_);
    std::tie(seed, offset) = gen->advance(1);
  }
  launch_elementwise(name, iter, {param0, param1, seed, offset});
}

uint64_t real_bits(double value, c10::ScalarType dtype) {
  if (dtype == c10::ScalarType::Double) return std::bit_cast<uint64_t>(value);
  return std::bit_cast<uint32_t>(static_cast<float>(value));
}

uint64_t threshold(double p) {
  return static_cast<uint64_t>(std::ceil(std::ldexp(p, 32)));
}

}  // namespace torchvulkan::random
