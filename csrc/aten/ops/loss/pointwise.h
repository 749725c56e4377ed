#pragma once
// Launches of the elementwise loss kernels ("loss.<op>.<dtype>",
// shaders/loss/pointwise.comp) over iterators ATen builds.
#include <ATen/TensorIterator.h>
#include <ATen/ops/empty_like.h>

#include <array>
#include <vector>

#include "aten/launch.h"
#include "aten/structured.h"

namespace torchvulkan::loss {

using Params = std::array<uint64_t, 4>;

// Off the CPU, ATen leaves an iterator's inputs of another dtype than the
// common one as they are (CUDA's kernels convert as they load), and an out=
// may be wider than it: such operands are converted here, and the result
// copied out. `params(dtype)` gives the op's parameters for the math dtype.
template <class ParamsFn>
void launch(at::TensorIteratorBase& iter, const char* op, ParamsFn params) {
  c10::ScalarType dtype = iter.common_dtype();
  if (inputs_uniform(iter) && pointwise(iter, "loss", op, params(dtype))) return;
  at::Tensor result = at::empty_like(iter.output(0), iter.output(0).options().dtype(dtype));
  std::vector<at::Tensor> inputs;
  at::TensorIteratorConfig config;
  config.add_output(result);
  for (int i = 0; i < iter.ninputs(); ++i) inputs.push_back(iter.input(i).to(dtype));
  for (const at::Tensor& t : inputs) config.add_const_input(t);
  at::TensorIterator again = config.build();
  TORCH_INTERNAL_ASSERT(pointwise(again, "loss", op, params(dtype)));
  iter.output(0).copy_(result);
}

}  // namespace torchvulkan::loss
