// _amp_update_scale_, one invocation, as torch.amp.GradScaler.update calls
// it: after a step with inf or NaN gradients the scale shrinks by
// backoff_factor and the count of successful steps restarts; otherwise the
// count grows, and after growth_interval successful steps the scale grows by
// growth_factor (kept only if finite) and the count restarts.
layout(push_constant) uniform Args {
  uint64_t scale;      // float32, one element, updated in place
  uint64_t tracker;    // int32, one element: successful steps so far
  uint64_t found_inf;  // float32, one element: nonzero after inf or NaN
  float growth_factor, backoff_factor;
  int growth_interval;
} args;

void main() {
  if (gl_GlobalInvocationID.x != 0) return;
  RefF32 scale = RefF32(args.scale);
  RefI32 tracker = RefI32(args.tracker);
  if (RefF32(args.found_inf).v != 0.0) {
    scale.v *= args.backoff_factor;
    tracker.v = 0;
    return;
  }
  int successful = tracker.v + 1;
  if (successful == args.growth_interval) {
    float grown = scale.v * args.growth_factor;
    if (!isinf(grown) && !isnan(grown)) scale.v = grown;
    tracker.v = 0;
  } else {
    tracker.v = successful;
  }
}
