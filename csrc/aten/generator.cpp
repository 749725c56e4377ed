#include "aten/generator.h"

#include <ATen/Utils.h>
#include <ATen/core/GeneratorForPrivateuseone.h>
#include <c10/core/ScalarType.h>
#include <c10/util/Exception.h>

#include <cstring>
#include <deque>
#include <mutex>

#include "aten/context.h"

namespace torchvulkan {

GeneratorImpl::GeneratorImpl(c10::DeviceIndex index, uint64_t seed)
    : c10::GeneratorImpl(c10::Device(c10::DeviceType::PrivateUse1, index),
                         c10::DispatchKeySet(c10::DispatchKey::PrivateUse1)),
      seed_(seed) {}

void GeneratorImpl::set_current_seed(uint64_t seed) {
  seed_ = seed;
  offset_ = 0;
}

uint64_t GeneratorImpl::seed() {
  set_current_seed(c10::detail::getNonDeterministicRandom(true));
  return seed_;
}

// State layout: the seed then the offset, 16 bytes in a CPU uint8 tensor, as CUDA's.
void GeneratorImpl::set_state(const c10::TensorImpl& state) {
  TORCH_CHECK(state.dtype() == caffe2::TypeMeta::Make<uint8_t>() && state.numel() == 16,
              "torchvulkan: RNG state must be a torch.uint8 tensor of 16 bytes, got ", state.numel(), " elements");
  const auto* bytes = static_cast<const uint8_t*>(state.data());
  std::memcpy(&seed_, bytes, 8);
  std::memcpy(&offset_, bytes + 8, 8);
}

c10::intrusive_ptr<c10::TensorImpl> GeneratorImpl::get_state() const {
  auto state = at::detail::empty_cpu({16}, c10::ScalarType::Byte, std::nullopt, std::nullopt, std::nullopt,
                                     std::nullopt);
  auto* bytes = static_cast<uint8_t*>(state.data_ptr());
  std::memcpy(bytes, &seed_, 8);
  std::memcpy(bytes + 8, &offset_, 8);
  return state.getIntrusivePtr();
}

std::pair<uint64_t, uint64_t> GeneratorImpl::advance(uint64_t increment) {
  uint64_t first = offset_;
  offset_ += increment;
  return {seed_, first};
}

GeneratorImpl* GeneratorImpl::clone_impl() const {
  auto* copy = new GeneratorImpl(device().index(), seed_);
  copy->offset_ = offset_;
  return copy;
}

const at::Generator& default_generator(c10::DeviceIndex index) {
  static std::mutex mutex;
  static std::deque<at::Generator> generators;  // deque: references stay valid as it grows
  int count = rt::Runtime::get().device_count();
  int i = index < 0 ? current_device() : index;
  TORCH_CHECK(i < std::max(count, 1), "torchvulkan: invalid device vulkan:", i, "; ", count,
              " Vulkan device(s) available");
  std::lock_guard<std::mutex> lock(mutex);
  while (static_cast<int>(generators.size()) <= i) {
    auto generator = at::make_generator<GeneratorImpl>(static_cast<c10::DeviceIndex>(generators.size()));
    generators.push_back(generator);
  }
  return generators[i];
}

}  // namespace torchvulkan
