// Robustness over optimization levels, part 1 (-O0, -O0 -g, -O1; part 2,
// robustness-opt-levels-O2-O3-Os.cu, has -O2, -O2 -g, -O3 and -Os; two files
// so that lit runs them in parallel).  Seven test/cuda programs (vector add,
// tiled matmul, divergent-exit stencil, 2-D/3-D grids, template kernel,
// dynamic shared memory, ordered inter-CTA waits) are compiled with both
// variants at each level: the compiler does not crash, the remarks name
// what was built (persistent workers, one chunk per worker, ordered) or
// refused, for every kernel and nothing else (the count of remarks), the
// PTX assembles with ptxas and the device module passes the IR verifier.
// Where a level changes the outcome, the checks say so (tiled-matmul is one
// chunk per worker at -O0 and -O1; fill3d has 8 grid reads at -O0, 6 above).
//
// DEFINE: %{ptx} = %clang_smc --cuda-device-only -S -I%cuda_path/include/cccl -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics
// DEFINE: %{ir} = %clang_smc --cuda-device-only -emit-llvm -S -I%cuda_path/include/cccl -mllvm -smc-transforms=smc,slice
//
// -O0
// RUN: %{ptx} -O0 %S/vector-add.cu -o %t.va.O0.ptx 2> %t.va.O0.remarks
// RUN: FileCheck %s --check-prefix=VA < %t.va.O0.remarks
// RUN: grep -c 'remark:' %t.va.O0.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.va.O0.ptx -o %t.va.O0.cubin
// RUN: %{ir} -O0 %S/vector-add.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O0 %S/tiled-matmul.cu -o %t.mm.O0.ptx 2> %t.mm.O0.remarks
// RUN: FileCheck %s --check-prefix=MM < %t.mm.O0.remarks
// RUN: grep -c 'remark:' %t.mm.O0.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.mm.O0.ptx -o %t.mm.O0.cubin
// RUN: %{ir} -O0 %S/tiled-matmul.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O0 %S/stencil-divergent-exit.cu -o %t.st.O0.ptx 2> %t.st.O0.remarks
// RUN: FileCheck %s --check-prefix=ST < %t.st.O0.remarks
// RUN: grep -c 'remark:' %t.st.O0.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.st.O0.ptx -o %t.st.O0.cubin
// RUN: %{ir} -O0 %S/stencil-divergent-exit.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O0 %S/grid-2d-3d.cu -o %t.grid.O0.ptx 2> %t.grid.O0.remarks
// RUN: FileCheck %s --check-prefix=GRID < %t.grid.O0.remarks
// RUN: grep -c 'remark:' %t.grid.O0.remarks | FileCheck %s --check-prefix=N4
// RUN: %ptxas %t.grid.O0.ptx -o %t.grid.O0.cubin
// RUN: %{ir} -O0 %S/grid-2d-3d.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O0 %S/template-kernel.cu -o %t.tpl.O0.ptx 2> %t.tpl.O0.remarks
// RUN: FileCheck %s --check-prefix=TPL < %t.tpl.O0.remarks
// RUN: grep -c 'remark:' %t.tpl.O0.remarks | FileCheck %s --check-prefix=N4
// RUN: %ptxas %t.tpl.O0.ptx -o %t.tpl.O0.cubin
// RUN: %{ir} -O0 %S/template-kernel.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O0 %S/dynamic-shared-memory.cu -o %t.dsm.O0.ptx 2> %t.dsm.O0.remarks
// RUN: FileCheck %s --check-prefix=DSM < %t.dsm.O0.remarks
// RUN: grep -c 'remark:' %t.dsm.O0.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.dsm.O0.ptx -o %t.dsm.O0.cubin
// RUN: %{ir} -O0 %S/dynamic-shared-memory.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O0 %S/ordered-inter-cta-wait.cu -o %t.ord.O0.ptx 2> %t.ord.O0.remarks
// RUN: FileCheck %s --check-prefix=ORD < %t.ord.O0.remarks
// RUN: grep -c 'remark:' %t.ord.O0.remarks | FileCheck %s --check-prefix=N6
// RUN: %ptxas %t.ord.O0.ptx -o %t.ord.O0.cubin
// RUN: %{ir} -O0 %S/ordered-inter-cta-wait.cu -o - | %opt -passes=verify -disable-output
// -O0 -g
// RUN: %{ptx} -O0 -g %S/vector-add.cu -o %t.va.O0g.ptx 2> %t.va.O0g.remarks
// RUN: FileCheck %s --check-prefix=VA < %t.va.O0g.remarks
// RUN: grep -c 'remark:' %t.va.O0g.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.va.O0g.ptx -o %t.va.O0g.cubin
// RUN: %{ir} -O0 -g %S/vector-add.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O0 -g %S/tiled-matmul.cu -o %t.mm.O0g.ptx 2> %t.mm.O0g.remarks
// RUN: FileCheck %s --check-prefix=MM < %t.mm.O0g.remarks
// RUN: grep -c 'remark:' %t.mm.O0g.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.mm.O0g.ptx -o %t.mm.O0g.cubin
// RUN: %{ir} -O0 -g %S/tiled-matmul.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O0 -g %S/stencil-divergent-exit.cu -o %t.st.O0g.ptx 2> %t.st.O0g.remarks
// RUN: FileCheck %s --check-prefix=ST < %t.st.O0g.remarks
// RUN: grep -c 'remark:' %t.st.O0g.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.st.O0g.ptx -o %t.st.O0g.cubin
// RUN: %{ir} -O0 -g %S/stencil-divergent-exit.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O0 -g %S/grid-2d-3d.cu -o %t.grid.O0g.ptx 2> %t.grid.O0g.remarks
// RUN: FileCheck %s --check-prefix=GRID < %t.grid.O0g.remarks
// RUN: grep -c 'remark:' %t.grid.O0g.remarks | FileCheck %s --check-prefix=N4
// RUN: %ptxas %t.grid.O0g.ptx -o %t.grid.O0g.cubin
// RUN: %{ir} -O0 -g %S/grid-2d-3d.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O0 -g %S/template-kernel.cu -o %t.tpl.O0g.ptx 2> %t.tpl.O0g.remarks
// RUN: FileCheck %s --check-prefix=TPL < %t.tpl.O0g.remarks
// RUN: grep -c 'remark:' %t.tpl.O0g.remarks | FileCheck %s --check-prefix=N4
// RUN: %ptxas %t.tpl.O0g.ptx -o %t.tpl.O0g.cubin
// RUN: %{ir} -O0 -g %S/template-kernel.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O0 -g %S/dynamic-shared-memory.cu -o %t.dsm.O0g.ptx 2> %t.dsm.O0g.remarks
// RUN: FileCheck %s --check-prefix=DSM < %t.dsm.O0g.remarks
// RUN: grep -c 'remark:' %t.dsm.O0g.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.dsm.O0g.ptx -o %t.dsm.O0g.cubin
// RUN: %{ir} -O0 -g %S/dynamic-shared-memory.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O0 -g %S/ordered-inter-cta-wait.cu -o %t.ord.O0g.ptx 2> %t.ord.O0g.remarks
// RUN: FileCheck %s --check-prefix=ORD < %t.ord.O0g.remarks
// RUN: grep -c 'remark:' %t.ord.O0g.remarks | FileCheck %s --check-prefix=N6
// RUN: %ptxas %t.ord.O0g.ptx -o %t.ord.O0g.cubin
// RUN: %{ir} -O0 -g %S/ordered-inter-cta-wait.cu -o - | %opt -passes=verify -disable-output
// -O1
// RUN: %{ptx} -O1 %S/vector-add.cu -o %t.va.O1.ptx 2> %t.va.O1.remarks
// RUN: FileCheck %s --check-prefix=VA < %t.va.O1.remarks
// RUN: grep -c 'remark:' %t.va.O1.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.va.O1.ptx -o %t.va.O1.cubin
// RUN: %{ir} -O1 %S/vector-add.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O1 %S/tiled-matmul.cu -o %t.mm.O1.ptx 2> %t.mm.O1.remarks
// RUN: FileCheck %s --check-prefix=MM < %t.mm.O1.remarks
// RUN: grep -c 'remark:' %t.mm.O1.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.mm.O1.ptx -o %t.mm.O1.cubin
// RUN: %{ir} -O1 %S/tiled-matmul.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O1 %S/stencil-divergent-exit.cu -o %t.st.O1.ptx 2> %t.st.O1.remarks
// RUN: FileCheck %s --check-prefix=ST < %t.st.O1.remarks
// RUN: grep -c 'remark:' %t.st.O1.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.st.O1.ptx -o %t.st.O1.cubin
// RUN: %{ir} -O1 %S/stencil-divergent-exit.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O1 %S/grid-2d-3d.cu -o %t.grid.O1.ptx 2> %t.grid.O1.remarks
// RUN: FileCheck %s --check-prefix=GRID < %t.grid.O1.remarks
// RUN: grep -c 'remark:' %t.grid.O1.remarks | FileCheck %s --check-prefix=N4
// RUN: %ptxas %t.grid.O1.ptx -o %t.grid.O1.cubin
// RUN: %{ir} -O1 %S/grid-2d-3d.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O1 %S/template-kernel.cu -o %t.tpl.O1.ptx 2> %t.tpl.O1.remarks
// RUN: FileCheck %s --check-prefix=TPL < %t.tpl.O1.remarks
// RUN: grep -c 'remark:' %t.tpl.O1.remarks | FileCheck %s --check-prefix=N4
// RUN: %ptxas %t.tpl.O1.ptx -o %t.tpl.O1.cubin
// RUN: %{ir} -O1 %S/template-kernel.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O1 %S/dynamic-shared-memory.cu -o %t.dsm.O1.ptx 2> %t.dsm.O1.remarks
// RUN: FileCheck %s --check-prefix=DSM < %t.dsm.O1.remarks
// RUN: grep -c 'remark:' %t.dsm.O1.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.dsm.O1.ptx -o %t.dsm.O1.cubin
// RUN: %{ir} -O1 %S/dynamic-shared-memory.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O1 %S/ordered-inter-cta-wait.cu -o %t.ord.O1.ptx 2> %t.ord.O1.remarks
// RUN: FileCheck %s --check-prefix=ORD < %t.ord.O1.remarks
// RUN: grep -c 'remark:' %t.ord.O1.remarks | FileCheck %s --check-prefix=N6
// RUN: %ptxas %t.ord.O1.ptx -o %t.ord.O1.cubin
// RUN: %{ir} -O1 %S/ordered-inter-cta-wait.cu -o - | %opt -passes=verify -disable-output

// N2: {{^}}2{{$}}
// N4: {{^}}4{{$}}
// N6: {{^}}6{{$}}

// VA-DAG: vector-add.cu:{{[0-9]+}}:1: remark: kernel 'vecAdd': built _Z6vecAddPKfS0_Pfi__smc (persistent workers; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]
// VA-DAG: vector-add.cu:{{[0-9]+}}:1: remark: kernel 'vecAdd': built _Z6vecAddPKfS0_Pfi__slice (index rectification; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]

// IMPRECISE: at -O0 and -O1 matmul's __smc runs one chunk per worker (the
// remark names the tile loop as where threads may exit before a barrier),
// although no thread returns early and the trip count is CTA-uniform; at
// -O2, -O3 and -Os it keeps persistent workers
// (robustness-opt-levels-O2-O3-Os.cu).  tiled-matmul.cu checks no remark
// at -O0.
// MM-DAG: tiled-matmul.cu:{{[0-9]+}}:1: remark: kernel 'matmul': built _Z6matmulPKfS0_Pfi__smc (one chunk per worker: threads may exit before a barrier other threads of the CTA still reach at {{.*}}tiled-matmul.cu:{{[0-9]+}}; 2 blockIdx/gridDim reads replaced) [-Rpass=smc]
// MM-DAG: tiled-matmul.cu:{{[0-9]+}}:1: remark: kernel 'matmul': built _Z6matmulPKfS0_Pfi__slice (index rectification; 2 blockIdx/gridDim reads replaced) [-Rpass=smc]

// ST-DAG: stencil-divergent-exit.cu:{{[0-9]+}}:1: remark: kernel 'stencil': built _Z7stencilPKfPfi__smc (one chunk per worker: threads may exit before a barrier other threads of the CTA still reach at {{.*}}stencil-divergent-exit.cu:{{[0-9]+}}; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]
// ST-DAG: stencil-divergent-exit.cu:{{[0-9]+}}:1: remark: kernel 'stencil': built _Z7stencilPKfPfi__slice (index rectification; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]

// GRID-DAG: grid-2d-3d.cu:{{[0-9]+}}:1: remark: kernel 'transpose2d': built _Z11transpose2dPKfPfii__smc (persistent workers; 2 blockIdx/gridDim reads replaced) [-Rpass=smc]
// GRID-DAG: grid-2d-3d.cu:{{[0-9]+}}:1: remark: kernel 'transpose2d': built _Z11transpose2dPKfPfii__slice (index rectification; 2 blockIdx/gridDim reads replaced) [-Rpass=smc]
// GRID-DAG: grid-2d-3d.cu:{{[0-9]+}}:1: remark: kernel 'fill3d': built _Z6fill3dPi__smc (persistent workers; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]
// GRID-DAG: grid-2d-3d.cu:{{[0-9]+}}:1: remark: kernel 'fill3d': built _Z6fill3dPi__slice (index rectification; {{[0-9]+}} blockIdx/gridDim reads replaced) [-Rpass=smc]

// TPL-DAG: template-kernel.cu:{{[0-9]+}}:{{[0-9]+}}: remark: kernel 'scale<float>': built _Z5scaleIfEvPT_S0_i__smc (persistent workers; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]
// TPL-DAG: template-kernel.cu:{{[0-9]+}}:{{[0-9]+}}: remark: kernel 'scale<float>': built _Z5scaleIfEvPT_S0_i__slice (index rectification; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]
// TPL-DAG: template-kernel.cu:{{[0-9]+}}:{{[0-9]+}}: remark: kernel 'scale<double>': built _Z5scaleIdEvPT_S0_i__smc (persistent workers; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]
// TPL-DAG: template-kernel.cu:{{[0-9]+}}:{{[0-9]+}}: remark: kernel 'scale<double>': built _Z5scaleIdEvPT_S0_i__slice (index rectification; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]

// DSM-DAG: dynamic-shared-memory.cu:{{[0-9]+}}:1: remark: kernel 'reverse': built _Z7reversePfi__smc (persistent workers; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]
// DSM-DAG: dynamic-shared-memory.cu:{{[0-9]+}}:1: remark: kernel 'reverse': built _Z7reversePfi__slice (index rectification; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]

// ORD-DAG: ordered-inter-cta-wait.cu:{{[0-9]+}}:1: remark: kernel 'lockLoop': built _Z8lockLoopPiS___smc (persistent workers; chunks in blockIdx order: loop waits on a value another CTA writes at {{.*}}ordered-inter-cta-wait.cu:{{[0-9]+}}; 0 blockIdx/gridDim reads replaced) [-Rpass=smc]
// ORD-DAG: ordered-inter-cta-wait.cu:{{[0-9]+}}:1: remark: kernel 'lockLoop': built _Z8lockLoopPiS___slice (index rectification; 0 blockIdx/gridDim reads replaced) [-Rpass=smc]
// ORD-DAG: ordered-inter-cta-wait.cu:{{[0-9]+}}:1: remark: kernel 'chainedSum': built _Z10chainedSumPKiPiS1_i__smc (persistent workers; chunks in blockIdx order: loop waits on a value another CTA writes at {{.*}}ordered-inter-cta-wait.cu:{{[0-9]+}}; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]
// ORD-DAG: ordered-inter-cta-wait.cu:{{[0-9]+}}:1: remark: kernel 'chainedSum': built _Z10chainedSumPKiPiS1_i__slice (index rectification; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]
// ORD-DAG: ordered-inter-cta-wait.cu:{{[0-9]+}}:{{[0-9]+}}: remark: kernel 'handBarrier': no __smc variant: grid-wide barrier built by hand (waits for later CTAs) (the loop waits for a count that depends on gridDim at {{.*}}ordered-inter-cta-wait.cu:{{[0-9]+}}) [-Rpass-missed=smc]
// ORD-DAG: ordered-inter-cta-wait.cu:{{[0-9]+}}:{{[0-9]+}}: remark: kernel 'handBarrier': no __slice variant: grid-wide barrier built by hand (waits for later CTAs) (the loop waits for a count that depends on gridDim at {{.*}}ordered-inter-cta-wait.cu:{{[0-9]+}}) [-Rpass-missed=smc]
