// Interpolation: upsample_nearest{1,2,3}d, _upsample_nearest_exact{1,2,3}d,
// upsample_linear1d, upsample_bilinear2d, upsample_trilinear3d,
// upsample_bicubic2d and their backwards, one kernel for all
// (shaders/upsample/upsample.comp) over the input seen as [N, C, D, H, W].
// ATen's meta functions check the arguments and size the outputs; the
// scales per dimension are computed here as the CPU computes them, so the
// kernel picks the CPU's input positions. F.interpolate reaches these for
// every mode but "area" (adaptive average pooling); antialiased bilinear
// and bicubic take shaders/upsample/antialias.comp.
#include <ATen/native/UpSample.h>
#include <ATen/ops/_upsample_bicubic2d_aa_backward_meta.h>
#include <ATen/ops/_upsample_bicubic2d_aa_meta.h>
#include <ATen/ops/_upsample_bilinear2d_aa_backward_meta.h>
#include <ATen/ops/_upsample_bilinear2d_aa_meta.h>
#include <ATen/ops/_upsample_nearest_exact1d_backward_meta.h>
#include <ATen/ops/_upsample_nearest_exact1d_meta.h>
#include <ATen/ops/_upsample_nearest_exact2d_backward_meta.h>
#include <ATen/ops/_upsample_nearest_exact2d_meta.h>
#include <ATen/ops/_upsample_nearest_exact3d_backward_meta.h>
#include <ATen/ops/_upsample_nearest_exact3d_meta.h>
#include <ATen/ops/upsample_bicubic2d_backward_meta.h>
#include <ATen/ops/upsample_bicubic2d_meta.h>
#include <ATen/ops/upsample_bilinear2d_backward_meta.h>
#include <ATen/ops/upsample_bilinear2d_meta.h>
#include <ATen/ops/upsample_linear1d_backward_meta.h>
#include <ATen/ops/upsample_linear1d_meta.h>
#include <ATen/ops/upsample_nearest1d_backward_meta.h>
#include <ATen/ops/upsample_nearest1d_meta.h>
#include <ATen/ops/upsample_nearest2d_backward_meta.h>
#include <ATen/ops/upsample_nearest2d_meta.h>
#include <ATen/ops/upsample_nearest3d_backward_meta.h>
#include <ATen/ops/upsample_nearest3d_meta.h>
#include <ATen/ops/upsample_trilinear3d_backward_meta.h>
#include <ATen/ops/upsample_trilinear3d_meta.h>
#include <torch/library.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "aten/ops/volume.h"
#include "aten/structured.h"

namespace torchvulkan {
namespace {

namespace m = at::meta;
namespace n = at::native;
using Scale = std::optional<double>;

// The kernel's modes per dimension.
enum Mode : int64_t { kNearest, kNearestExact, kLinear, kCubic, kLinearAntialias, kCubicAntialias };

int64_t bits(float value) {
  uint32_t b;
  std::memcpy(&b, &value, sizeof(b));
  return b;
}

int64_t bits(double value) {
  int64_t b;
  std::memcpy(&b, &value, sizeof(b));
  return b;
}

// One launch: forward reads input_side and writes output_side, backward
// reads the output side (grad_output) and writes the input side
// (grad_input). `scales` holds the user's scale factors, one per spatial
// dimension.
// The antialiased 2-D modes: the filter's radius and the CPU's scales.
void resample_antialiased(bool forward, Mode mode, bool align_corners, const at::Tensor& input_side,
                          const at::Tensor& output_side, const std::vector<Scale>& scales) {
  c10::ScalarType type = input_side.scalar_type();
  TORCH_CHECK_NOT_IMPLEMENTED(
      at::isFloatingType(type), "\"upsample_", mode == kLinearAntialias ? "bilinear" : "bicubic",
      "2d_aa\" ", forward ? "" : "backward ", "not implemented for '", c10::toString(type), "'");
  std::vector<int64_t> float_scales, double_scales;
  for (int64_t d = 0; d < 2; ++d) {
    int64_t from = input_side.size(2 + d), to = output_side.size(2 + d);
    float_scales.push_back(
        bits(n::area_pixel_compute_scale<float>(from, to, align_corners, scales[d])));
    double_scales.push_back(
        bits(n::area_pixel_compute_scale<double>(from, to, align_corners, scales[d])));
  }
  std::vector<int64_t> extra = {mode == kLinearAntialias ? 1 : 2};
  for (const auto* list : {&float_scales, &double_scales})
    extra.insert(extra.end(), list->begin(), list->end());
  launch_volume(std::string("antialias.") + (forward ? "forward" : "backward"), forward, input_side,
                output_side, extra);
}

void resample(bool forward, Mode mode, bool align_corners, const at::Tensor& input_side,
              const at::Tensor& output_side, const std::vector<Scale>& scales) {
  if (mode >= kLinearAntialias)
    return resample_antialiased(forward, mode, align_corners, input_side, output_side, scales);
  c10::ScalarType type = input_side.scalar_type();
  at::Tensor in = five_d(input_side), out = five_d(output_side);
  int64_t first = 5 - static_cast<int64_t>(scales.size());  // the first real dimension
  std::vector<int64_t> modes, float_scales, double_scales;
  for (int64_t d = 2; d < 5; ++d) {
    int64_t from = in.size(d), to = out.size(d);
    Scale scale = d < first ? Scale() : scales[d - first];
    Mode m = d < first ? kNearest : mode;
    float f = n::compute_scales_value<float>(scale, from, to);
    double s = 0;
    if (m == kNearest && (to == from || to == 2 * from)) {
      f = to == from ? 1.0f : 0.5f;  // the CPU's shortcuts, whatever the scale
    } else if (m == kLinear && to == from) {
      m = kNearest;  // the CPU copies a dimension that keeps its size
      f = 1.0f;
    } else if (m == kLinear || m == kCubic) {
      f = n::area_pixel_compute_scale<float>(from, to, align_corners, scale);
      s = n::area_pixel_compute_scale<double>(from, to, align_corners, scale);
    }
    modes.push_back(m);
    float_scales.push_back(bits(f));
    double_scales.push_back(bits(s));
  }
  bool copy = std::all_of(modes.begin(), modes.end(), [](int64_t m) { return m <= kNearestExact; });
  const char* op = !forward ? "backward" : copy ? "nearest" : "forward";
  TORCH_CHECK_NOT_IMPLEMENTED(
      copy && forward ? at::isFloatingType(type) || at::isIntegralType(type, false)
                      : at::isFloatingType(type),
      "\"upsample_", forward ? "" : "backward_", mode <= kNearestExact ? "nearest" : "interpolate",
      "\" not implemented for '", c10::toString(type), "'");
  std::vector<int64_t> extra;
  for (const auto* list : {&modes, &float_scales, &double_scales})
    extra.insert(extra.end(), list->begin(), list->end());
  extra.push_back(align_corners);
  launch_volume(std::string("upsample.") + op, forward, input_side, output_side, extra);
}

// The four forms of each op, the scales (one per spatial dimension) passed
// on as the CPU gets them.
template <class Meta, Mode mode, class... S>
at::Tensor nearest(const at::Tensor& self, at::IntArrayRef output_size, S... scales) {
  Functional<Meta> meta;
  meta.meta(self, output_size, scales...);
  resample(true, mode, false, self, meta.outputs_[0], {scales...});
  return meta.outputs_[0];
}

template <class Meta, Mode mode, class... S>
at::Tensor& nearest_out(const at::Tensor& self, at::IntArrayRef output_size, S... scales,
                        at::Tensor& out) {
  Out<Meta> meta(out);
  meta.meta(self, output_size, scales...);
  resample(true, mode, false, self, out, {scales...});
  return out;
}

template <class Meta, Mode mode, class... S>
at::Tensor nearest_backward(const at::Tensor& grad_output, at::IntArrayRef output_size,
                            at::IntArrayRef input_size, S... scales) {
  Functional<Meta> meta;
  meta.meta(grad_output, output_size, input_size, scales...);
  resample(false, mode, false, meta.outputs_[0], grad_output, {scales...});
  return meta.outputs_[0];
}

template <class Meta, Mode mode, class... S>
at::Tensor& nearest_backward_out(const at::Tensor& grad_output, at::IntArrayRef output_size,
                                 at::IntArrayRef input_size, S... scales, at::Tensor& grad_input) {
  Out<Meta> meta(grad_input);
  meta.meta(grad_output, output_size, input_size, scales...);
  resample(false, mode, false, grad_input, grad_output, {scales...});
  return grad_input;
}

template <class Meta, Mode mode, class... S>
at::Tensor interpolate(const at::Tensor& self, at::IntArrayRef output_size, bool align_corners,
                       S... scales) {
  Functional<Meta> meta;
  meta.meta(self, output_size, align_corners, scales...);
  resample(true, mode, align_corners, self, meta.outputs_[0], {scales...});
  return meta.outputs_[0];
}

template <class Meta, Mode mode, class... S>
at::Tensor& interpolate_out(const at::Tensor& self, at::IntArrayRef output_size, bool align_corners,
                            S... scales, at::Tensor& out) {
  Out<Meta> meta(out);
  meta.meta(self, output_size, align_corners, scales...);
  resample(true, mode, align_corners, self, out, {scales...});
  return out;
}

template <class Meta, Mode mode, class... S>
at::Tensor interpolate_backward(const at::Tensor& grad_output, at::IntArrayRef output_size,
                                at::IntArrayRef input_size, bool align_corners, S... scales) {
  Functional<Meta> meta;
  meta.meta(grad_output, output_size, input_size, align_corners, scales...);
  resample(false, mode, align_corners, meta.outputs_[0], grad_output, {scales...});
  return meta.outputs_[0];
}

template <class Meta, Mode mode, class... S>
at::Tensor& interpolate_backward_out(const at::Tensor& grad_output, at::IntArrayRef output_size,
                                     at::IntArrayRef input_size, bool align_corners, S... scales,
                                     at::Tensor& grad_input) {
  Out<Meta> meta(grad_input);
  meta.meta(grad_output, output_size, input_size, align_corners, scales...);
  resample(false, mode, align_corners, grad_input, grad_output, {scales...});
  return grad_input;
}

}  // namespace

// Registers an op's functional, out=, backward and backward out= forms:
// FAMILY is nearest or interpolate, the variadic part the scale types.
#define TV_UPSAMPLE(library, name, FAMILY, mode, ...)                                  \
  library.impl(#name, FAMILY<m::structured_##name, mode, __VA_ARGS__>);                \
  library.impl(#name ".out", FAMILY##_out<m::structured_##name, mode, __VA_ARGS__>);   \
  library.impl(#name "_backward",                                                      \
               FAMILY##_backward<m::structured_##name##_backward, mode, __VA_ARGS__>); \
  library.impl(#name "_backward.grad_input",                                           \
               FAMILY##_backward_out<m::structured_##name##_backward, mode, __VA_ARGS__>)

TORCH_LIBRARY_IMPL(aten, PrivateUse1, lib) {
  TV_UPSAMPLE(lib, upsample_nearest1d, nearest, kNearest, Scale);
  TV_UPSAMPLE(lib, upsample_nearest2d, nearest, kNearest, Scale, Scale);
  TV_UPSAMPLE(lib, upsample_nearest3d, nearest, kNearest, Scale, Scale, Scale);
  TV_UPSAMPLE(lib, _upsample_nearest_exact1d, nearest, kNearestExact, Scale);
  TV_UPSAMPLE(lib, _upsample_nearest_exact2d, nearest, kNearestExact, Scale, Scale);
  TV_UPSAMPLE(lib, _upsample_nearest_exact3d, nearest, kNearestExact, Scale, Scale, Scale);
  TV_UPSAMPLE(lib, upsample_linear1d, interpolate, kLinear, Scale);
  TV_UPSAMPLE(lib, upsample_bilinear2d, interpolate, kLinear, Scale, Scale);
  TV_UPSAMPLE(lib, upsample_trilinear3d, interpolate, kLinear, Scale, Scale, Scale);
  TV_UPSAMPLE(lib, upsample_bicubic2d, interpolate, kCubic, Scale, Scale);
  TV_UPSAMPLE(lib, _upsample_bilinear2d_aa, interpolate, kLinearAntialias, Scale, Scale);
  TV_UPSAMPLE(lib, _upsample_bicubic2d_aa, interpolate, kCubicAntialias, Scale, Scale);
}

}  // namespace torchvulkan
