// Used by robustness-indirect-call-module.cu (-fgpu-rdc): the other
// translation unit, with an address-taken __device__ function that reads
// blockIdx; the host copies plusBlockPtr (cudaMemcpyFromSymbol) and passes it
// to callsPointerArg of robustness-indirect-call-rdc.cu.
typedef int (*IntFn)(int);

__device__ int plusBlock(int x) { return x + blockIdx.x; }
__device__ IntFn plusBlockPtr = plusBlock;
