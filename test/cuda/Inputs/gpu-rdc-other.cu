// The second translation unit of gpu-rdc.cu: defines the __device__
// function gpu-rdc.cu calls, and instantiates the same template kernel.
template <typename T> __global__ void scale(T *x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

__device__ int otherTU(int x) { return x * 3 + blockIdx.x; }

void scaleFromOther(float *x, int n) { scale<<<(n + 127) / 128, 128>>>(x, 3.0f, n); }
