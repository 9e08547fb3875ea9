// Prepended to every program of kernels/opencl/cl: double precision and the 64-bit atomics the ports use.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

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

