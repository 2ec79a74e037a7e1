// Used by robustness-indirect-call-module.cu (-fgpu-rdc): a kernel calling a
// function pointer it gets as an argument.  No function of this translation
// unit has its address taken; the pointer may come from another one, e.g.
// robustness-indirect-call-rdc-other.cu, whose target reads blockIdx.
typedef int (*IntFn)(int);

__global__ void callsPointerArg(IntFn f, const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = f(in[i]);
}
