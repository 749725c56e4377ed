// Range factories filled on the device: arange and linspace through ATen's
// own argument checks and sizing (at::native::arange_out / linspace_out call
// the stub kernels here), range (arange's kernel over range's own size),
// logspace with the CPU's own formula, eye as zeros and a diagonal of ones.
#include <ATen/AccumulateType.h>
#include <ATen/Dispatch.h>
#include <ATen/native/RangeFactories.h>
#include <ATen/native/RangeUtils.h>
#include <ATen/native/Resize.h>
#include <ATen/native/TensorIterator.h>
#include <ATen/ops/arange_native.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/linspace_native.h>
#include <torch/library.h>

#include <bit>
#include <cmath>

#include "aten/context.h"
#include "aten/launch.h"

namespace torchvulkan {
namespace {

std::string range_kernel(const char* op, c10::ScalarType type) {
  return std::string("range.") + op + "." + dtype_name(type);
}

// The CPU computes arange in its accumulation type: int64 for integers,
// float for 16-bit floats (float32 uses double on the CPU; float here).
void arange_kernel(at::TensorIterator& iter, const c10::Scalar& start, const c10::Scalar& count,
                   const c10::Scalar& step) {
  c10::ScalarType type = iter.dtype(0);
  c10::ScalarType compute = at::isIntegralType(type, false)   ? at::kLong
                            : at::isReducedFloatingType(type) ? at::kFloat
                                                              : type;
  launch_elementwise(range_kernel("arange", type), iter,
                     {scalar_bits(start, compute), scalar_bits(step, compute)});
}

// torch.range, the deprecated one that includes its end: ATen's range_cpu
// sizes it as (end - start) / step + 1 in the accumulation type, so integer
// ranges divide exactly; the elements are arange's, start + step * i.
at::Tensor& range_out(const c10::Scalar& start, const c10::Scalar& end, const c10::Scalar& step,
                      at::Tensor& result) {
  int64_t size = 0;
  AT_DISPATCH_ALL_TYPES_AND2(at::kHalf, at::kBFloat16, result.scalar_type(), "range_cpu", [&] {
    using acc_t = at::acc_type<scalar_t, false>;
    auto xstart = start.to<acc_t>(), xend = end.to<acc_t>(), xstep = step.to<acc_t>();
    at::native::arange_check_bounds(start, end, step);
    // A fractional step of an integer range truncates to 0 (the CPU divides by it).
    TORCH_CHECK(xstep != acc_t(0), "step must be nonzero");
    size = static_cast<int64_t>((xend - xstart) / xstep + 1);
  });
  if (result.numel() != size) result.resize_({size});
  at::Tensor r = result.is_contiguous() ? result : at::empty(result.sizes(), result.options());
  auto iter = at::TensorIterator::borrowing_nullary_op(r);
  arange_kernel(iter, start, size, step);
  if (!r.is_same(result)) result.copy_(r);
  return result;
}

// linspace: start and step in the output's own dtype, step computed on the
// host exactly as the CPU does; integer outputs are computed in float64 (the
// CPU's step type for them) and truncated.
void linspace_kernel(at::TensorIterator& iter, const c10::Scalar& start, const c10::Scalar& end,
                     int64_t steps) {
  at::Tensor out = iter.tensor(0);
  c10::ScalarType type = out.scalar_type();
  if (at::isIntegralType(type, false)) {
    bool f64 = device_for(out).caps().float64;
    TORCH_CHECK(f64, "torchvulkan: integer linspace needs float64 support");
    at::Tensor exact = at::empty(out.sizes(), out.options().dtype(at::kDouble));
    auto it = at::TensorIterator::borrowing_nullary_op(exact);
    double s = 0, e = 0;  // start and end wrap to the output dtype first, as on the CPU
    AT_DISPATCH_INTEGRAL_TYPES(type, "linspace_vulkan", [&] {
      s = static_cast<double>(start.to<scalar_t>());
      e = static_cast<double>(end.to<scalar_t>());
    });
    linspace_kernel(it, s, e, steps);
    out.copy_(exact);
    return;
  }
  std::array<uint64_t, 4> bits{};
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, type, "linspace_vulkan", [&] {
    scalar_t s = start.to<scalar_t>(), e = end.to<scalar_t>();
    scalar_t step = (e - s) / static_cast<scalar_t>(steps - 1);
    bits = {scalar_bits(s, type), scalar_bits(step, type), scalar_bits(e, type), 0};
  });
  launch_elementwise(range_kernel("linspace", type), iter, bits);
}

// logspace as the CPU computes it: start and end in the output's dtype, the
// step and the powers in double (float for 16- and 32-bit floats here);
// integer outputs are the float64 powers truncated.
at::Tensor& logspace_out(const c10::Scalar& start, const c10::Scalar& end, int64_t steps,
                         double base, at::Tensor& result) {
  TORCH_CHECK(steps >= 0, "number of steps must be non-negative");
  c10::ScalarType type = result.scalar_type();
  TORCH_CHECK(type != at::kBool && !at::isComplexType(type),
              "\"logspace_cpu\" not implemented for '", type, "'");
  if (result.numel() != steps) result.resize_({steps});
  if (steps == 0) return result;
  if (steps == 1) return result.fill_(std::pow(base, start.to<double>()));
  bool integral = at::isIntegralType(type, false);
  c10::ScalarType compute = integral || type == at::kDouble ? at::kDouble : at::kFloat;
  TORCH_CHECK(compute == at::kFloat || device_for(result).caps().float64,
              "torchvulkan: logspace in ", type, " needs float64 support");
  at::Tensor r = result.is_contiguous() && !integral
                     ? result
                     : at::empty({steps}, result.options().dtype(integral ? compute : type));
  double s = 0, e = 0, step = 0;
  AT_DISPATCH_ALL_TYPES_AND2(at::kHalf, at::kBFloat16, type, "logspace_vulkan", [&] {
    scalar_t first = start.to<scalar_t>(), last = end.to<scalar_t>();
    s = static_cast<double>(first);
    e = static_cast<double>(last);
    step = static_cast<double>(last - first) / static_cast<double>(steps - 1);
  });
  auto iter = at::TensorIterator::borrowing_nullary_op(r);
  launch_elementwise(range_kernel("logspace", r.scalar_type()), iter,
                     {scalar_bits(s, compute), scalar_bits(step, compute), scalar_bits(e, compute),
                      scalar_bits(base, compute)});
  if (!r.is_same(result)) result.copy_(r);
  return result;
}

at::Tensor& eye_out(int64_t n, int64_t m, at::Tensor& out) {
  TORCH_CHECK(n >= 0, "n must be greater or equal to 0, got ", n);
  TORCH_CHECK(m >= 0, "m must be greater or equal to 0, got ", m);
  at::native::resize_output(out, {n, m});
  out.zero_();
  if (n > 0 && m > 0) out.diagonal().fill_(1);
  return out;
}

at::Tensor& eye_n_out(int64_t n, at::Tensor& out) {
  return eye_out(n, n, out);
}

}  // namespace
}  // namespace torchvulkan

namespace at::native {
REGISTER_PRIVATEUSE1_DISPATCH(arange_stub, &torchvulkan::arange_kernel)
REGISTER_PRIVATEUSE1_DISPATCH(linspace_stub, &torchvulkan::linspace_kernel)
}  // namespace at::native

namespace torchvulkan {

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("arange.start_out",
         static_cast<at::Tensor& (*)(const c10::Scalar&, const c10::Scalar&, const c10::Scalar&,
                                     at::Tensor&)>(at::native::arange_out));
  m.impl("linspace.out",
         static_cast<at::Tensor& (*)(const c10::Scalar&, const c10::Scalar&, int64_t, at::Tensor&)>(
             at::native::linspace_out));
  m.impl("range.out", range_out);
  m.impl("logspace.out", logspace_out);
  m.impl("eye.out", eye_n_out);
  m.impl("eye.m_out", eye_out);
}

}  // namespace torchvulkan
