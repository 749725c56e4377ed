// isin (all three forms): each element is looked up in the sorted test
// elements, as the CPU's sort-based kernel does for large inputs:
//   found = sorted[searchsorted(sorted, x)] == x,   sorted = sort(test)
// so NaN is in nothing and -0 == 0. Both sides compute in their promoted
// dtype. ATen's meta checks the dtypes (bool refused, as on the CPU) and
// shapes the bool output.
#include <ATen/native/Resize.h>
#include <ATen/ops/isin_meta.h>
#include <ATen/ops/result_type.h>
#include <ATen/ops/scalar_tensor.h>
#include <ATen/ops/searchsorted.h>
#include <ATen/ops/sort.h>
#include <torch/library.h>

#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;

void isin_into(const at::Tensor& elements, const at::Tensor& test, bool invert,
               const at::Tensor& out) {
  at::native::resize_output(out, elements.sizes());  // a scalar's 0-dim result: meta sizes it [0]
  if (out.numel() == 0) return;
  if (test.numel() == 0) {
    out.fill_(invert);
    return;
  }
  c10::ScalarType common = at::result_type(elements, test);
  at::Tensor x = elements.to(common).reshape({-1});
  at::Tensor sorted = std::get<0>(test.to(common).reshape({-1}).sort());
  at::Tensor at_or_after = at::searchsorted(sorted, x).clamp_max_(sorted.numel() - 1);
  at::Tensor found = sorted.index_select(0, at_or_after).eq(x);
  out.copy_((invert ? found.logical_not() : found).view(out.sizes()));
}

#define ISIN_FORMS(form, A, B, device_a, device_b)                                            \
  at::Tensor isin_##form(A a, B b, bool assume_unique, bool invert) {                         \
    Functional<m::structured_isin_##form> meta;                                               \
    meta.meta(a, b, assume_unique, invert);                                                   \
    isin_into(device_a, device_b, invert, meta.outputs_[0]);                                  \
    return meta.outputs_[0];                                                                  \
  }                                                                                           \
  at::Tensor& isin_##form##_out(A a, B b, bool assume_unique, bool invert, at::Tensor& out) { \
    Out<m::structured_isin_##form> meta(out);                                                 \
    meta.meta(a, b, assume_unique, invert);                                                   \
    isin_into(device_a, device_b, invert, out);                                               \
    return out;                                                                               \
  }

ISIN_FORMS(Tensor_Tensor, const at::Tensor&, const at::Tensor&, a, b)
ISIN_FORMS(Tensor_Scalar, const at::Tensor&, const c10::Scalar&, a,
           at::scalar_tensor(b, a.options().dtype(b.type())))
ISIN_FORMS(Scalar_Tensor, const c10::Scalar&, const at::Tensor&,
           at::scalar_tensor(a, b.options().dtype(a.type())), b)

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("isin.Tensor_Tensor", isin_Tensor_Tensor);
  m.impl("isin.Tensor_Tensor_out", isin_Tensor_Tensor_out);
  m.impl("isin.Tensor_Scalar", isin_Tensor_Scalar);
  m.impl("isin.Tensor_Scalar_out", isin_Tensor_Scalar_out);
  m.impl("isin.Scalar_Tensor", isin_Scalar_Tensor);
  m.impl("isin.Scalar_Tensor_out", isin_Scalar_Tensor_out);
}

}  // namespace torchvulkan
