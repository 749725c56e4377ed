#include "aten/ops/linalg/jacobi.h"

#include <ATen/ops/empty.h>

#include <string>
#include <vector>

#include "aten/context.h"
#include "aten/ops/linalg/matrices.h"

namespace torchvulkan::linalg {

struct JacobiArgs {
  uint64_t a, v, rot, batches;
  int64_t m, n, v_batch_stride, v_row_stride, v_col_stride;
};

void jacobi(const char* op, const at::Tensor& a, const at::Tensor& v) {
  bool vectors = v.defined();
  // Each round's rotations (c, s): one per pair of columns, an odd one out paired with none.
  at::Tensor rot = at::empty({a.size(0), (a.size(2) + 1) / 2, 2}, a.options());
  JacobiArgs args{address_of(a),
                  address_of(v),
                  address_of(rot),
                  uint64_t(a.size(0)),
                  a.size(1),
                  a.size(2),
                  vectors ? v.stride(0) : 0,
                  vectors ? v.stride(1) : 0,
                  vectors ? v.stride(2) : 0};
  std::vector<rt::Access> accesses = {span_of(a, true), span_of(rot, true)};
  if (vectors) accesses.push_back(span_of(v, true));
  launch_groups(std::string("jacobi.") + op, a, args, args.batches, accesses);
}

}  // namespace torchvulkan::linalg
