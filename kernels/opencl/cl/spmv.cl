// One pull sparse matrix x vector product (kernels/cpu/spmv.ts): a work-item per row.

__kernel void spmv_pull(const int n, __global const int* start, __global const int* nbr, __global const double* weight,
                        const int weighted, __global const double* x, __global double* y) {
  const int i = get_global_id(0);
  if (i >= n) return;
  double sum = 0.0;
  const int end = start[i + 1];
  if (weighted) {
    for (int j = start[i]; j < end; j++) sum += weight[j] * x[nbr[j]];
  } else {
    for (int j = start[i]; j < end; j++) sum += x[nbr[j]];
  }
  y[i] = sum;
}
