// Thread-data remapping (-smc-transforms=remap) of CUDA kernels compiled by
// clang with the plugin, at -O2 and -O0: a remark names the key the analysis
// found, with the source lines of the key's load and of the branch or load it
// decides; another says the variant and its inspector were built, or why not
// (threads that work together; a write before every candidate, with its
// line; no candidate).  The info records carry HAS_REMAP (32) and the key
// kind, or the refusal; the PTX has K__remap and K__remap_keys exactly for the
// kernels remapped, and assembles.
//
// RUN: %clang_smc -O2 --cuda-device-only -S -mllvm -smc-transforms=remap -Rpass=smc -Rpass-missed=smc -Rpass-analysis=smc -fno-caret-diagnostics %s -o %t.O2.ptx 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.O2.ptx
// RUN: %ptxas %t.O2.ptx -o %t.O2.cubin
// RUN: %clang_smc -O0 --cuda-device-only -S -mllvm -smc-transforms=remap -Rpass=smc -Rpass-missed=smc -Rpass-analysis=smc -fno-caret-diagnostics %s -o %t.O0.ptx 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s -DABI=%smc_abi_version --check-prefix=PTX < %t.O0.ptx
// RUN: %ptxas %t.O0.ptx -o %t.O0.cubin

// CSR-style row sums: the row's bounds decide the loop's trip count.
// REMARK-DAG: remap-remarks.cu:[[@LINE+2]]:1: remark: kernel 'rowSums': remap key loop trip count: load at {{.*}}remap-remarks.cu:[[@LINE+7]] decides the branch at {{.*}}remap-remarks.cu:[[@LINE+7]]{{(; candidate .*)?}} [-Rpass-analysis=smc]
// REMARK-DAG: remap-remarks.cu:[[@LINE+1]]:1: remark: kernel 'rowSums': built _Z7rowSumsPKiPKfPfi__remap (thread-data remapping by loop trip count: load at {{.*}}remap-remarks.cu:[[@LINE+6]] decides the branch at {{.*}}remap-remarks.cu:[[@LINE+6]]; inspector _Z7rowSumsPKiPKfPfi__remap_keys) [-Rpass=smc]
__global__ void rowSums(const int *rowStart, const float *vals, float *out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0.0f;
  for (int k = rowStart[r]; k < rowStart[r + 1]; ++k)
    s += vals[k];
  out[r] = s;
}

// A gather: the loaded index decides the address of the next load.
// REMARK-DAG: remap-remarks.cu:[[@LINE+2]]:1: remark: kernel 'gather': remap key gather index: load at {{.*}}remap-remarks.cu:[[@LINE+5]] decides the address of the load at {{.*}}remap-remarks.cu:[[@LINE+5]] [-Rpass-analysis=smc]
// REMARK-DAG: remap-remarks.cu:[[@LINE+1]]:1: remark: kernel 'gather': built _Z6gatherPKiPKfPfi__remap (thread-data remapping by gather index: load at {{.*}}remap-remarks.cu:[[@LINE+4]] decides the address of the load at {{.*}}remap-remarks.cu:[[@LINE+4]]; inspector _Z6gatherPKiPKfPfi__remap_keys) [-Rpass=smc]
__global__ void gather(const int *idx, const float *v, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = v[idx[i]];
}

// A block reduction: its threads work together through shared memory and
// barriers.
// REMARK-DAG: remap-remarks.cu:[[@LINE+2]]:1: remark: kernel 'reduce': no remap: threads work together (shared memory, barrier, warp intrinsic or inline assembly) (shared memory at {{.*}}remap-remarks.cu:[[@LINE+4]]) [-Rpass-analysis=smc]
// REMARK-DAG: remap-remarks.cu:[[@LINE+1]]:1: remark: kernel 'reduce': no __remap variant: threads work together (shared memory, barrier, warp intrinsic or inline assembly) (shared memory at {{.*}}remap-remarks.cu:[[@LINE+3]]) [-Rpass-missed=smc]
__global__ void reduce(const float *x, float *out) {
  __shared__ float partial[256];
  partial[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int k = 0; k < blockDim.x; ++k)
      s += partial[k];
    out[blockIdx.x] = s;
  }
}

// The only candidate comes after a store: the inspector could not run it.
// REMARK-DAG: remap-remarks.cu:[[@LINE+2]]:1: remark: kernel 'markThenFilter': no remap: no thread-indexed load decides a branch or an address before the first write (every candidate comes after a write); candidate branch: load at {{.*}}remap-remarks.cu:[[@LINE+5]] decides the branch at {{.*}}remap-remarks.cu:[[@LINE+5]] (refused: a write comes first at {{.*}}remap-remarks.cu:[[@LINE+4]]) [-Rpass-analysis=smc]
// REMARK-DAG: remap-remarks.cu:[[@LINE+1]]:1: remark: kernel 'markThenFilter': no __remap variant: no thread-indexed load decides a branch or an address before the first write (every candidate comes after a write) [-Rpass-missed=smc]
__global__ void markThenFilter(const float *x, int *seen, float *out, float t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  seen[i] = 1;
  if (x[i] > t)
    out[i] = x[i];
}

// Nothing loaded decides a branch or an address.
// REMARK-DAG: remap-remarks.cu:[[@LINE+2]]:1: remark: kernel 'copy': no remap: no thread-indexed load decides a branch or an address before the first write (no load at a thread-indexed address decides a branch or an address) [-Rpass-analysis=smc]
// REMARK-DAG: remap-remarks.cu:[[@LINE+1]]:1: remark: kernel 'copy': no __remap variant: no thread-indexed load decides a branch or an address before the first write (no load at a thread-indexed address decides a branch or an address) [-Rpass-missed=smc]
__global__ void copy(const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i];
}

// Info records: flags (HAS_REMAP 32 or 0), parameters, smc and slice not
// requested (1, 1), locality (5 irregular, 0 none), remap refusal (0; 12
// threads coupled; 13 no key) and key (1 loop trip count, 3 gather index);
// trailing zero bytes are not printed.
// PTX-DAG: .visible .global .align 4 .b8 _Z7rowSumsPKiPKfPfi__smc_info[32] = {[[ABI]], 0, 0, 0, 32, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 1};
// PTX-DAG: .visible .global .align 4 .b8 _Z6gatherPKiPKfPfi__smc_info[32] = {[[ABI]], 0, 0, 0, 32, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 3};
// PTX-DAG: .visible .global .align 4 .b8 _Z6reducePKfPf__smc_info[32] = {[[ABI]], 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 12};
// PTX-DAG: .visible .global .align 4 .b8 _Z14markThenFilterPKfPiPff__smc_info[32] = {[[ABI]], 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 13};
// PTX-DAG: .visible .global .align 4 .b8 _Z4copyPKfPf__smc_info[32] = {[[ABI]], 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 13};
// PTX-DAG: .visible .entry _Z7rowSumsPKiPKfPfi__remap(
// PTX-DAG: .visible .entry _Z7rowSumsPKiPKfPfi__remap_keys(
// PTX-DAG: .visible .entry _Z6gatherPKiPKfPfi__remap(
// PTX-DAG: .visible .entry _Z6gatherPKiPKfPfi__remap_keys(
// PTX-NOT: .entry _Z{{[0-9]+}}{{reduce|markThenFilter|copy}}{{[A-Za-z_]*}}__remap
