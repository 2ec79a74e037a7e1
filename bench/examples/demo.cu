//===- demo.cu - The example scripts/demo.sh compiles with SMC
//-------------===//
//
// Four kernels an ordinary CUDA program might have, launched with <<<>>> and
// checked against the CPU:
//   vecAdd     1-D, persistent SM-centric workers
//   stencil    divergent `return` before __syncthreads(): one chunk per worker
//   transpose  2-D grid, shared-memory tiles with barriers
//   smidProbe  reads %smid with inline assembly: SMC refuses it (remark) and
//              the runtime runs the original
// Built with the plugin, every launch goes through the SMC runtime; run
// with SMC_STATS=<file> to see where the chunks ran.
//
// USAGE: scripts/smc-clang++ -O2 -mllvm -smc-transforms=smc,slice \
//          -Rpass=smc -Rpass-missed=smc bench/examples/demo.cu -o demo
//===----------------------------------------------------------------------===//
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(err_));                                  \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

__global__ void vecAdd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

constexpr int StencilBlock = 256;
__global__ void stencil(const float *in, float *out, int n) {
  __shared__ float tile[StencilBlock + 2];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return; // threads past the end leave before the barrier
  int t = threadIdx.x + 1;
  tile[t] = in[i];
  if (threadIdx.x == 0)
    tile[0] = i > 0 ? in[i - 1] : 0.f;
  if (threadIdx.x == blockDim.x - 1 || i == n - 1)
    tile[t + 1] = i + 1 < n ? in[i + 1] : 0.f;
  __syncthreads();
  out[i] = 0.25f * tile[t - 1] + 0.5f * tile[t] + 0.25f * tile[t + 1];
}

constexpr int Tile = 32;
__global__ void transpose(const float *in, float *out, int rows, int cols) {
  __shared__ float tile[Tile][Tile + 1];
  int x = blockIdx.x * Tile + threadIdx.x, y = blockIdx.y * Tile + threadIdx.y;
  if (x < cols && y < rows)
    tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
  __syncthreads();
  x = blockIdx.y * Tile + threadIdx.x;
  y = blockIdx.x * Tile + threadIdx.y;
  if (x < rows && y < cols)
    out[y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void smidProbe(unsigned *smids) {
  unsigned smid;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  if (threadIdx.x == 0)
    smids[blockIdx.x] = smid;
}

static bool report(const char *name, bool ok) {
  std::printf("%-10s %s\n", name, ok ? "OK" : "WRONG");
  return ok;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("demo: no CUDA GPU here; nothing to run\n");
    return 0;
  }
  const int n = 1 << 22, rows = 3000, cols = 2000;
  std::vector<float> a(n), b(n), m(rows * cols);
  for (int i = 0; i < n; ++i) {
    a[i] = std::sin(0.001f * i);
    b[i] = std::cos(0.002f * i);
  }
  for (int i = 0; i < rows * cols; ++i)
    m[i] = float(i % 977);

  float *da, *db, *dc, *dm, *dt;
  unsigned *ds;
  CHECK(cudaMalloc(&da, n * sizeof(float)));
  CHECK(cudaMalloc(&db, n * sizeof(float)));
  CHECK(cudaMalloc(&dc, n * sizeof(float)));
  CHECK(cudaMalloc(&dm, rows * cols * sizeof(float)));
  CHECK(cudaMalloc(&dt, rows * cols * sizeof(float)));
  CHECK(cudaMalloc(&ds, 64 * sizeof(unsigned)));
  CHECK(cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dm, m.data(), m.size() * sizeof(float),
                   cudaMemcpyHostToDevice));

  bool ok = true;
  std::vector<float> c(n);
  vecAdd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost));
  bool good = true;
  for (int i = 0; i < n; ++i)
    good &= c[i] == a[i] + b[i];
  ok &= report("vecAdd", good);

  const int sn = n - 77; // not a multiple of the block: early exits
  stencil<<<(sn + StencilBlock - 1) / StencilBlock, StencilBlock>>>(da, dc, sn);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(c.data(), dc, sn * sizeof(float), cudaMemcpyDeviceToHost));
  good = true;
  for (int i = 0; i < sn; ++i) {
    float l = i > 0 ? a[i - 1] : 0.f, r = i + 1 < sn ? a[i + 1] : 0.f;
    good &= c[i] == 0.25f * l + 0.5f * a[i] + 0.25f * r;
  }
  ok &= report("stencil", good);

  dim3 grid((cols + Tile - 1) / Tile, (rows + Tile - 1) / Tile);
  transpose<<<grid, dim3(Tile, Tile)>>>(dm, dt, rows, cols);
  CHECK(cudaGetLastError());
  std::vector<float> t(rows * cols);
  CHECK(cudaMemcpy(t.data(), dt, t.size() * sizeof(float),
                   cudaMemcpyDeviceToHost));
  good = true;
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x)
      good &= t[x * rows + y] == m[y * cols + x];
  ok &= report("transpose", good);

  smidProbe<<<64, 32>>>(ds);
  CHECK(cudaDeviceSynchronize());
  ok &= report("smidProbe", true);

  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  CHECK(cudaFree(dm));
  CHECK(cudaFree(dt));
  CHECK(cudaFree(ds));
  return ok ? 0 : 1;
}
