#pragma once
// ATen's structured kernels on the vulkan device. ATen's own meta function
// (at::meta::structured_<op>) checks the arguments, broadcasts, promotes types
// and builds the TensorIterator; these wrappers give it vulkan outputs for the
// functional, in-place and out= forms, so one kernel serves all three.
//
// Kernels here expect every input on the device in the iterator's common
// dtype (host scalars aside). ATen only casts inputs for CPU iterators, so the
// functional form casts here: when the first meta pass finds an input of
// another dtype, the inputs are converted and the meta function runs again.
#include <ATen/TensorIterator.h>
#include <ATen/TensorMeta.h>

// Named tensors left set_output_* in torch 2.13; older versions pass names.
#if __has_include(<ATen/core/Dimname.h>)
#include <ATen/core/Dimname.h>
#define TV_NAMES_PARAM , at::DimnameList names
#define TV_NAMES_ARG , names
#else
#define TV_NAMES_PARAM
#define TV_NAMES_ARG
#endif
#include <ATen/native/Resize.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_strided.h>

#include <array>
#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>

namespace torchvulkan {

template <class Meta>
struct Functional final : Meta {
  void set_output_raw_strided(int64_t i, at::IntArrayRef sizes, at::IntArrayRef strides, at::TensorOptions options TV_NAMES_PARAM) override {
    outputs_[i] = strides.empty() ? at::empty(sizes, options) : at::empty_strided(sizes, strides, options);
    // Only TensorIterator-based metas record their outputs in the base class.
    if constexpr (std::is_base_of_v<at::TensorIteratorBase, Meta>) {
      Meta::set_output_raw_strided(i, sizes, strides, options TV_NAMES_ARG);
    }
  }
  // The metas of ops that need their outputs' strides (the factorizations'
  // F-contiguous matrices) ask through this one.
  void set_output_strided(int64_t i, at::IntArrayRef sizes, at::IntArrayRef strides, at::TensorOptions options TV_NAMES_PARAM) override {
    set_output_raw_strided(i, sizes, strides, options TV_NAMES_ARG);
  }
  const at::Tensor& maybe_get_output(int64_t i) override { return outputs_[i]; }
  std::array<at::Tensor, 4> outputs_;
};

template <class Meta>
struct InPlace final : Meta {
  explicit InPlace(const at::Tensor& self) : self_(self) {}
  void set_output_raw_strided(int64_t i, at::IntArrayRef sizes, at::IntArrayRef strides, at::TensorOptions options TV_NAMES_PARAM) override {
    TORCH_CHECK(options.dtype() == self_.dtype(), "Bad in-place call: input tensor dtype ", self_.dtype(),
                " and output tensor dtype ", options.dtype(), " should match");
    TORCH_CHECK(sizes == self_.sizes(), "Bad in-place call: input tensor size ", self_.sizes(),
                " and output tensor size ", sizes, " should match");
    // Only TensorIterator-based metas record their outputs in the base class.
    if constexpr (std::is_base_of_v<at::TensorIteratorBase, Meta>) {
      Meta::set_output_raw_strided(i, sizes, strides, options TV_NAMES_ARG);
    }
  }
  const at::Tensor& maybe_get_output(int64_t) override { return self_; }
  const at::Tensor& self_;
};

// out= with one output, or up to four (values and indices: sort, topk; the
// factorizations' auxiliary outputs).
template <class Meta>
struct Out final : Meta {
  template <class... More>
  explicit Out(const at::Tensor& first, const More&... more) : outs_{&first, &more...} {
    static_assert(sizeof...(More) < 4, "at most four outputs");
    for (auto& out : outs_)
      if (!out) out = &first;
  }
  void set_output_raw_strided(int64_t i, at::IntArrayRef sizes, at::IntArrayRef strides, at::TensorOptions options TV_NAMES_PARAM) override {
    const at::Tensor& out = *outs_[i];
    TORCH_CHECK(options.dtype() == out.dtype(), "Expected out tensor to have dtype ", options.dtype(), ", but got ",
                out.dtype(), " instead");
    TORCH_CHECK(out.device() == options.device(), "Expected out tensor to have device ", options.device(),
                ", but got ", out.device(), " instead");
    if (at::native::resize_output(out, sizes) && !strides.empty()) out.as_strided_(sizes, strides);
    // Only TensorIterator-based metas record their outputs in the base class.
    if constexpr (std::is_base_of_v<at::TensorIteratorBase, Meta>) {
      Meta::set_output_raw_strided(i, sizes, strides, options TV_NAMES_ARG);
    }
  }
  // Kernels here take any strides, so an out= tensor keeps its own where it
  // has the right size (resized ones get the meta's).
  void set_output_strided(int64_t i, at::IntArrayRef sizes, at::IntArrayRef strides, at::TensorOptions options TV_NAMES_PARAM) override {
    set_output_raw_strided(i, sizes, strides, options TV_NAMES_ARG);
  }
  const at::Tensor& maybe_get_output(int64_t i) override { return *outs_[i]; }
  std::array<const at::Tensor*, 4> outs_;
};

// True when every input is a vulkan tensor of the iterator's common dtype.
bool inputs_uniform(const at::TensorIteratorBase& iter);

namespace detail {
template <class T>
const T& cast(const T& value, c10::ScalarType, c10::Device, at::Tensor&) {
  return value;
}
// Host scalars stay: launch_elementwise passes them by value.
inline const at::Tensor& cast(const at::Tensor& t, c10::ScalarType dtype, c10::Device device, at::Tensor& keep) {
  if (!t.defined() || t.scalar_type() == dtype || (t.device().is_cpu() && t.dim() == 0)) return t;
  keep = t.to(device, dtype);
  return keep;
}
}  // namespace detail

// A kernel is `bool kernel(at::TensorIteratorBase&)`: it launches and returns
// true, or returns false without launching when it has no variant for the
// iterator's output dtype (an out= or in-place output of another dtype).

// The functional form: meta, then the kernel, casting inputs first if needed.
template <class Meta, class Kernel, class... Args>
at::Tensor structured_functional(Kernel kernel, const Args&... args) {
  Functional<Meta> first;
  first.meta(args...);
  if (inputs_uniform(first)) {
    TORCH_INTERNAL_ASSERT(kernel(static_cast<at::TensorIteratorBase&>(first)));
    return first.outputs_[0];
  }
  c10::ScalarType dtype = first.common_dtype();
  c10::Device device = first.device(0);
  std::array<at::Tensor, sizeof...(Args)> keep;
  auto cast = [&]<size_t... I>(std::index_sequence<I...>) {
    return std::tuple<const Args&...>{detail::cast(args, dtype, device, keep[I])...};
  }(std::index_sequence_for<Args...>{});
  Functional<Meta> again;
  std::apply([&](const auto&... a) { again.meta(a...); }, cast);
  TORCH_INTERNAL_ASSERT(kernel(static_cast<at::TensorIteratorBase&>(again)));
  return again.outputs_[0];
}

// In-place and out=: ATen's meta checks and resizes the output; when the
// kernel cannot write it directly, the functional result is copied in.
template <class Meta, class Kernel, class... Args>
at::Tensor& structured_inplace(Kernel kernel, at::Tensor& self, const Args&... args) {
  InPlace<Meta> op(self);
  op.meta(self, args...);
  if (!(inputs_uniform(op) && kernel(static_cast<at::TensorIteratorBase&>(op)))) {
    self.copy_(structured_functional<Meta>(kernel, self, args...));
  }
  return self;
}

template <class Meta, class Kernel, class... Args>
at::Tensor& structured_out(Kernel kernel, at::Tensor& out, const Args&... args) {
  Out<Meta> op(out);
  op.meta(args...);
  if (!(inputs_uniform(op) && kernel(static_cast<at::TensorIteratorBase&>(op)))) {
    out.copy_(structured_functional<Meta>(kernel, args...));
  }
  return out;
}

}  // namespace torchvulkan

// Registers the functional, in-place and out= forms `name`, `name_` and
// `name_out` inside a TORCH_LIBRARY_IMPL block whose library is `m`.
#define REGISTER_FORMS(name) \
  m.impl(#name, name);       \
  m.impl(#name "_", name##_); \
  m.impl(#name ".out", name##_out);
