// A kernel whose parameters (a 32720-byte struct by value and a pointer)
// nearly fill the 32764-byte parameter space of sm_70+ kernels: the device
// module must still assemble.  Adding the descriptor parameter (96 bytes in ABI 2) would
// overflow it, so the variants must be refused with a remark (or the
// descriptor passed another way), never make ptxas fail on the whole file.
//
// RUN: %clang_smc -O2 --cuda-device-only -S -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics %s -o %t.ptx 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %ptxas %t.ptx -o %t.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// REMARK: remark: kernel 'bigParams':
// PTX: .visible .entry _Z9bigParams3BigPi(

struct Big {
  int v[8180]; // 32720 bytes
};

__global__ void bigParams(Big b, int *out) { out[blockIdx.x] = b.v[threadIdx.x]; }
