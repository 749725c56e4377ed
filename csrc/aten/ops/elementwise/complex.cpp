// complex(real, imag) and polar(abs, angle) as ATen's DispatchStub kernels:
// ATen's own complex.out and polar.out check the dtypes (two equal real
// inputs, the matching complex out), broadcast and resize through the
// iterator, then call them. Each writes the output's real and imaginary
// parts through view_as_real with native kernels: copies for complex, abs
// times the cosine and the sine of angle for polar.
#include <ATen/TensorIterator.h>
#include <ATen/native/TensorFactories.h>
#include <ATen/ops/complex_native.h>
#include <ATen/ops/mul.h>
#include <ATen/ops/polar_native.h>
#include <ATen/ops/view_as_real.h>
#include <torch/library.h>

namespace torchvulkan {
namespace {

// The output's real and imaginary parts, and the inputs broadcast to it.
struct Parts {
  at::Tensor re, im, first, second;
};

Parts parts(at::TensorIteratorBase& iter) {
  const at::Tensor& out = iter.output();
  at::Tensor pairs = at::view_as_real(out);
  return {pairs.select(-1, 0), pairs.select(-1, 1), iter.input(0).expand(out.sizes()),
          iter.input(1).expand(out.sizes())};
}

void complex_kernel(at::TensorIterator& iter) {
  Parts p = parts(iter);
  p.re.copy_(p.first);
  p.im.copy_(p.second);
}

void polar_kernel(at::TensorIterator& iter) {
  // float32 and float64 only, as on the CPU and CUDA (complex takes float16 too).
  c10::ScalarType type = iter.input(0).scalar_type();
  TORCH_CHECK(type == at::kFloat || type == at::kDouble, "\"polar_cpu\" not implemented for '",
              c10::toString(type), "'");
  Parts p = parts(iter);
  at::mul_out(p.re, p.first, p.second.cos());
  at::mul_out(p.im, p.first, p.second.sin());
}

}  // namespace
}  // namespace torchvulkan

namespace at::native {
REGISTER_PRIVATEUSE1_DISPATCH(complex_stub, &torchvulkan::complex_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(polar_stub, &torchvulkan::polar_kernel)
}  // namespace at::native

namespace torchvulkan {

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("complex.out", at::native::complex_out);
  m.impl("polar.out", at::native::polar_out);
}

}  // namespace torchvulkan
