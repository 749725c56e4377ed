// A workgroup barrier after which every invocation sees the others' earlier
// writes to device memory (buffer references): barrier() alone orders only
// shared memory (its SPIR-V semantics are WorkgroupMemory), so the kernels
// that hand matrix elements between invocations through device memory (the
// factorizations) need the buffer memory barrier too.
void sync_workgroup() {
  memoryBarrierBuffer();
  barrier();
}
