// Every test/cuda program (this directory's *.cu, Inputs excluded) compiled
// with the plugin at -O0, -O1, -O2, -O3, -Os, -O0 -g, -O2 -g and -O2
// -fgpu-rdc (gpu-rdc.cu links two such TUs with nvlink): clang exits
// 0, the device module passes the IR verifier, its PTX (llc) assembles with
// ptxas, and every kernel has a remark saying whether its __smc variant was
// built or why not (Inputs/compile_matrix.py).  Which outcome each kernel
// gets is checked by the programs' own tests and by robustness-*.cu.
//
// RUN: %python %S/Inputs/compile_matrix.py --clang "%clang_smc" --opt %opt --llc %llc --ptxas "%ptxas" --arch %cuda_arch --include %cuda_path/include/cccl --include %S --work %t %S/*.cu | FileCheck %s
// CHECK: compile_matrix: {{[0-9]+}} programs x 8 configurations, 0 problems
