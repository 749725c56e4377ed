#pragma once
#include <ATen/core/Generator.h>
#include <c10/core/GeneratorImpl.h>

namespace torchvulkan {

// The vulkan device's random generator: a seed and a Philox-style offset, as
// CUDA's. Kernels (and the CPU fallback) take randomness from (seed, offset)
// and advance the offset, so a seed reproduces a sequence.
class GeneratorImpl final : public c10::GeneratorImpl {
 public:
  explicit GeneratorImpl(c10::DeviceIndex index, uint64_t seed = c10::default_rng_seed_val);

  void set_current_seed(uint64_t seed) override;
  uint64_t current_seed() const override { return seed_; }
  uint64_t seed() override;
  void set_offset(uint64_t offset) override { offset_ = offset; }
  uint64_t get_offset() const override { return offset_; }
  void set_state(const c10::TensorImpl& state) override;
  c10::intrusive_ptr<c10::TensorImpl> get_state() const override;
  static c10::DeviceType device_type() { return c10::DeviceType::PrivateUse1; }

  // Reserves `increment` values of the stream and returns (seed, first offset).
  std::pair<uint64_t, uint64_t> advance(uint64_t increment);

 private:
  GeneratorImpl* clone_impl() const override;
  uint64_t seed_;
  uint64_t offset_ = 0;
};

const at::Generator& default_generator(c10::DeviceIndex index);

}  // namespace torchvulkan
