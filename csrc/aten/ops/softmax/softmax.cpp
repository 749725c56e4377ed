// _softmax, _log_softmax and their backward ops: one fused kernel per row,
// any dim (shaders/softmax/softmax.comp); rows along the last dim take a
// kernel that reads each element once where the row fits in registers
// (shaders/softmax/last_dim.comp), or one invocation a row where the row is
// short (shaders/softmax/short_rows.comp).
#include <ATen/core/ATen_fwd.h>
#include <ATen/ops/_log_softmax_backward_data_meta.h>
#include <ATen/ops/_log_softmax_meta.h>
#include <ATen/ops/_softmax_backward_data_meta.h>
#include <ATen/ops/_softmax_meta.h>
#include <ATen/ops/empty.h>
#include <torch/library.h>

#include <algorithm>

#include "aten/context.h"
#include "aten/launch.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;

struct Args {
  uint64_t a, b, target, rows, row_length, inner;
};

// Mirrors the push constants of shaders/softmax/last_dim.comp and, but for
// `vector`, short_rows.comp.
struct LastDimArgs {
  uint64_t a, b, target, rows;
  uint32_t length, vector;
};

// Rows along the last dim this short take short_rows.comp (SHORT there).
constexpr int64_t kShortRow = 16;

// out = op(a[, b]) over rows along `dim`; inputs of out's dtype.
void rows(const char* op, const at::Tensor& a_in, const at::Tensor& b_in, const at::Tensor& out,
          int64_t dim) {
  if (out.numel() == 0) return;
  if (!out.is_contiguous()) {
    at::Tensor dense = at::empty(out.sizes(), out.options());
    rows(op, a_in, b_in, dense, dim);
    out.copy_(dense);
    return;
  }
  at::Tensor a = a_in.to(out.scalar_type()).contiguous();
  at::Tensor b = b_in.defined() ? b_in.to(out.scalar_type()).contiguous() : a;
  dim = c10::maybe_wrap_dim(dim, a.dim());
  int64_t length = a.dim() == 0 ? 1 : a.size(dim);
  int64_t inner = 1;
  for (int64_t d = dim + 1; d < a.dim(); ++d) inner *= a.size(d);
  uint64_t rows = static_cast<uint64_t>(a.numel() / length);
  rt::Device& dev = device_for(out);
  rt::Access accesses[] = {span_of(a, false), span_of(b, false), span_of(out, true)};
  std::string suffix = std::string(op) + "." + dtype_name(out.scalar_type());
  if (inner == 1 && length <= kShortRow) {
    LastDimArgs args{
        address_of(a), address_of(b), address_of(out), rows, static_cast<uint32_t>(length), 0u};
    const rt::Kernel& kernel = dev.pipelines().get("softmax_short." + suffix);
    dev.stream().dispatch(kernel, &args, sizeof(args), nullptr, 0, rows, accesses);
    return;
  }
  if (inner == 1 && length < INT32_MAX) {
    // Vector steps of VEC elements (shaders/compile.py: 16 bytes, at least 4).
    int64_t vec = std::max<int64_t>(4, 16 / static_cast<int64_t>(out.element_size()));
    bool aligned = (address_of(a) | address_of(b) | address_of(out)) % 16 == 0 && length % vec == 0;
    LastDimArgs args{
        address_of(a),    address_of(b), address_of(out), rows, static_cast<uint32_t>(length),
        aligned ? 1u : 0u};
    const rt::Kernel& kernel = dev.pipelines().get("softmax_last." + suffix);
    dev.stream().dispatch(kernel, &args, sizeof(args), nullptr, 0, rows * kernel.workgroup_size,
                          accesses);
    return;
  }
  Args args{address_of(a),
            address_of(b),
            address_of(out),
            rows,
            static_cast<uint64_t>(length),
            static_cast<uint64_t>(inner)};
  const rt::Kernel& kernel = dev.pipelines().get("softmax." + suffix);
  dev.stream().dispatch(kernel, &args, sizeof(args), nullptr, 0, rows * kernel.workgroup_size,
                        accesses);
}

at::Tensor softmax(const at::Tensor& self, int64_t dim, bool half_to_float) {
  Functional<m::structured__softmax> meta;
  meta.meta(self, dim, half_to_float);
  rows("softmax", self, {}, meta.outputs_[0], dim);
  return meta.outputs_[0];
}
at::Tensor& softmax_out(const at::Tensor& self, int64_t dim, bool half_to_float, at::Tensor& out) {
  Out<m::structured__softmax> meta(out);
  meta.meta(self, dim, half_to_float);
  rows("softmax", self, {}, out, dim);
  return out;
}
at::Tensor log_softmax(const at::Tensor& self, int64_t dim, bool half_to_float) {
  Functional<m::structured__log_softmax> meta;
  meta.meta(self, dim, half_to_float);
  rows("log_softmax", self, {}, meta.outputs_[0], dim);
  return meta.outputs_[0];
}
at::Tensor& log_softmax_out(const at::Tensor& self, int64_t dim, bool half_to_float,
                            at::Tensor& out) {
  Out<m::structured__log_softmax> meta(out);
  meta.meta(self, dim, half_to_float);
  rows("log_softmax", self, {}, out, dim);
  return out;
}
at::Tensor softmax_backward(const at::Tensor& grad, const at::Tensor& output, int64_t dim,
                            c10::ScalarType input_dtype) {
  Functional<m::structured__softmax_backward_data> meta;
  meta.meta(grad, output, dim, input_dtype);
  rows("softmax_backward", grad, output, meta.outputs_[0], dim);
  return meta.outputs_[0];
}
at::Tensor& softmax_backward_out(const at::Tensor& grad, const at::Tensor& output, int64_t dim,
                                 c10::ScalarType input_dtype, at::Tensor& out) {
  Out<m::structured__softmax_backward_data> meta(out);
  meta.meta(grad, output, dim, input_dtype);
  rows("softmax_backward", grad, output, out, dim);
  return out;
}
at::Tensor log_softmax_backward(const at::Tensor& grad, const at::Tensor& output, int64_t dim,
                                c10::ScalarType input_dtype) {
  Functional<m::structured__log_softmax_backward_data> meta;
  meta.meta(grad, output, dim, input_dtype);
  rows("log_softmax_backward", grad, output, meta.outputs_[0], dim);
  return meta.outputs_[0];
}
at::Tensor& log_softmax_backward_out(const at::Tensor& grad, const at::Tensor& output, int64_t dim,
                                     c10::ScalarType input_dtype, at::Tensor& out) {
  Out<m::structured__log_softmax_backward_data> meta(out);
  meta.meta(grad, output, dim, input_dtype);
  rows("log_softmax_backward", grad, output, out, dim);
  return out;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_softmax", softmax);
  m.impl("_softmax.out", softmax_out);
  m.impl("_log_softmax", log_softmax);
  m.impl("_log_softmax.out", log_softmax_out);
  m.impl("_softmax_backward_data", softmax_backward);
  m.impl("_softmax_backward_data.out", softmax_backward_out);
  m.impl("_log_softmax_backward_data", log_softmax_backward);
  m.impl("_log_softmax_backward_data.out", log_softmax_backward_out);
}

}  // namespace torchvulkan
