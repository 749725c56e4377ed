// Bad input a kernel finds (an index out of range) is recorded in a word of
// host-visible memory that the host reads at its next synchronization and
// raises as an error there, as CUDA reports a device-side assert: the
// kernel itself skips the bad element and carries on. The word's address
// arrives as specialization constants 2 and 3, set only for kernels that
// include this file (shaders/compile.py finds them), so the others keep
// their pipeline-cache entries across processes.
layout(constant_id = 2) const uint kFaultLow = 0u;
layout(constant_id = 3) const uint kFaultHigh = 0u;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer FaultWord { uint v; };

// The codes, one bit each (csrc/runtime/device.h).
const uint FAULT_INDEX = 1u;
const uint FAULT_VALUE = 2u;  // a distribution parameter out of its domain (Poisson rate < 0)

void report_fault(uint code) {
  uint64_t word = packUint2x32(uvec2(kFaultLow, kFaultHigh));
  if (word != uint64_t(0)) atomicOr(FaultWord(word).v, code);
}
