// Clock stamps for the PHASES variants (gemm_coop_phases, gemm_tiled_phases;
// read by benchmark/coop_phases.py through torchvulkan._C.gemm_phase_stamps):
// STAMP(which, realtime) has invocation 0 of the workgroup write stamp
// `which` of its six, at parameter word 28's address, [workgroups, 6]
// uint64: the device's clock (realtime) or the SM's cycle counter.
// STAMP_END() writes the last two once every invocation is done. Without
// PHASES both are nothing. They need the parameter block as `p`.
#ifdef PHASES
#extension GL_ARB_shader_clock : require
#extension GL_EXT_shader_realtime_clock : require
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Stamp { uint64_t v; };
void stamp(uint64_t stamps, int which, bool realtime) {
  if (gl_LocalInvocationIndex != 0) return;
  uint64_t group = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  Stamp(stamps + (group * 6u + uint64_t(which)) * 8u).v = realtime ? clockRealtimeEXT() : clockARB();
}
#define STAMP(WHICH, REALTIME) stamp(uint64_t(p.v[28]), WHICH, REALTIME);
#define STAMP_END() \
  barrier(); \
  STAMP(4, false) \
  STAMP(5, true)
#else
#define STAMP(WHICH, REALTIME)
#define STAMP_END()
#endif
