// Prepended to every program of kernels/opencl/cl: double precision and the 64-bit atomics the ports use.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
// No fused multiply-add: products and sums round as in JavaScript, so results can match the CPU twins exactly.
#pragma OPENCL FP_CONTRACT OFF

// Sums the work-group's values into out[group] (local scratch of WG doubles; every work-item must call it).
inline void group_sum(double value, __local double* scratch, __global double* out) {
  const int l = get_local_id(0);
  scratch[l] = value;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = WG / 2; s > 0; s >>= 1) {
    if (l < s) scratch[l] += scratch[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = scratch[0];
}

// The work-group's largest value into out[group] (local scratch of WG doubles; every work-item must call it).
inline void group_max(double value, __local double* scratch, __global double* out) {
  const int l = get_local_id(0);
  scratch[l] = value;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = WG / 2; s > 0; s >>= 1) {
    if (l < s) scratch[l] = fmax(scratch[l], scratch[l + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = scratch[0];
}

// atomic min on a non-negative double (its bits order as a long); answers the old value.
inline double atomic_min_pos_double(volatile __global double* p, double value) {
  volatile __global long* q = (volatile __global long*)p;
  long want = as_long(value);
  long old = *q;
  while (value < as_double(old)) {
    long seen = atom_cmpxchg(q, old, want);
    if (seen == old) break;
    old = seen;
  }
  return as_double(old);
}

// atomic add on a double (compare-and-swap on its bits).
inline void atomic_add_double(volatile __global double* p, double value) {
  volatile __global long* q = (volatile __global long*)p;
  long old = *q;
  for (;;) {
    long seen = atom_cmpxchg(q, old, as_long(as_double(old) + value));
    if (seen == old) break;
    old = seen;
  }
}

