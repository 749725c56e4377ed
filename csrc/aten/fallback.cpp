// The boxed CPU fallback for ops without a Vulkan kernel. It is visible: one
// warning per op, a per-op call count, an error under TORCHVULKAN_STRICT=1,
// and an error (never a silent copy) for ops that return views.
#include "aten/fallback.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/native/CPUFallback.h>
#include <torch/library.h>

#include <cstdlib>
#include <cstring>
#include <mutex>

#include "aten/generator.h"

namespace torchvulkan {
namespace {

std::mutex mutex;
std::map<std::string, int64_t> counts;

bool strict() {
  const char* value = std::getenv("TORCHVULKAN_STRICT");
  return value && *value && std::strcmp(value, "0") != 0;
}

// A CPU generator whose stream is drawn from the vulkan generator (the given
// one, or the device's default), so seeding the vulkan device makes CPU
// fallbacks of random ops reproducible too.
at::Generator cpu_generator_from(const std::optional<at::Generator>& generator, c10::DeviceIndex index) {
  at::Generator source = generator && generator->defined() ? *generator : default_generator(index);
  std::lock_guard<std::mutex> lock(source.mutex());
  auto [seed, offset] = source.get<GeneratorImpl>()->advance(1);
  uint64_t mixed = seed ^ (offset * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull);
  return at::make_generator<at::CPUGeneratorImpl>(mixed);
}

void fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  const c10::FunctionSchema& schema = op.schema();
  std::string name = schema.operator_name().name;
  if (!schema.overload_name().empty()) name += "." + schema.overload_name();
  TORCH_CHECK(!strict(), "torchvulkan: '", name, "' has no native Vulkan kernel and TORCHVULKAN_STRICT=1 forbids "
              "the CPU fallback");
  bool first;
  {
    std::lock_guard<std::mutex> lock(mutex);
    first = counts[name]++ == 0;
  }
  if (first) {
    TORCH_WARN("torchvulkan: '", name, "' has no native Vulkan kernel; running it on the CPU (slow). "
               "This warning is shown once per operator; set TORCHVULKAN_STRICT=1 to make it an error.");
  }

  // Random ops: hand the CPU kernel a CPU generator drawn from the vulkan one.
  const auto& arguments = schema.arguments();
  size_t first_arg = stack->size() - arguments.size();
  c10::DeviceIndex index = -1;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const c10::IValue& value = (*stack)[first_arg + i];
    if (value.isTensor() && value.toTensor().defined() && value.toTensor().device().is_privateuseone()) {
      index = value.toTensor().device().index();
      break;
    }
  }
  for (size_t i = 0; i < arguments.size(); ++i) {
    const c10::TypePtr& type = arguments[i].type();
    bool is_generator = type->kind() == c10::TypeKind::GeneratorType ||
                        (type->kind() == c10::TypeKind::OptionalType &&
                         type->castRaw<c10::OptionalType>()->getElementType()->kind() == c10::TypeKind::GeneratorType);
    if (!is_generator) continue;
    c10::IValue& value = (*stack)[first_arg + i];
    std::optional<at::Generator> generator;
    if (value.isGenerator()) generator = value.toGenerator();
    if (generator && generator->defined() && generator->device().type() == c10::DeviceType::CPU) continue;
    value = cpu_generator_from(generator, index);
  }

  at::native::cpu_fallback(op, stack, /*error_on_views=*/true);
}

}  // namespace

std::map<std::string, int64_t> fallback_counts() {
  std::lock_guard<std::mutex> lock(mutex);
  return counts;
}

void reset_fallback_counts() {
  std::lock_guard<std::mutex> lock(mutex);
  counts.clear();
}

TORCH_LIBRARY_IMPL(_, PrivateUse1, m) { m.fallback(torch::CppFunction::makeFromBoxedFunction<&fallback>()); }

}  // namespace torchvulkan
