// Robustness over optimization levels, part 2 (-O2, -O2 -g, -O3, -Os; part
// 1, robustness-opt-levels.cu, has -O0, -O0 -g and -O1).  Seven test/cuda
// programs (vector add, tiled matmul, divergent-exit stencil, 2-D/3-D grids,
// template kernel, dynamic shared memory, ordered inter-CTA waits) are
// compiled with both variants at each level: the compiler does not crash,
// the remarks name what was built (persistent workers, one chunk per worker,
// ordered) or refused, for every kernel and nothing else (the count of
// remarks), the PTX assembles with ptxas and the device module passes the IR
// verifier.  The outcome is the same at all four levels.
//
// DEFINE: %{ptx} = %clang_smc --cuda-device-only -S -I%cuda_path/include/cccl -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc -fno-caret-diagnostics
// DEFINE: %{ir} = %clang_smc --cuda-device-only -emit-llvm -S -I%cuda_path/include/cccl -mllvm -smc-transforms=smc,slice
//
// -O2
// RUN: %{ptx} -O2 %S/vector-add.cu -o %t.va.O2.ptx 2> %t.va.O2.remarks
// RUN: FileCheck %s --check-prefix=VA < %t.va.O2.remarks
// RUN: grep -c 'remark:' %t.va.O2.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.va.O2.ptx -o %t.va.O2.cubin
// RUN: %{ir} -O2 %S/vector-add.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O2 %S/tiled-matmul.cu -o %t.mm.O2.ptx 2> %t.mm.O2.remarks
// RUN: FileCheck %s --check-prefix=MM < %t.mm.O2.remarks
// RUN: grep -c 'remark:' %t.mm.O2.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.mm.O2.ptx -o %t.mm.O2.cubin
// RUN: %{ir} -O2 %S/tiled-matmul.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O2 %S/stencil-divergent-exit.cu -o %t.st.O2.ptx 2> %t.st.O2.remarks
// RUN: FileCheck %s --check-prefix=ST < %t.st.O2.remarks
// RUN: grep -c 'remark:' %t.st.O2.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.st.O2.ptx -o %t.st.O2.cubin
// RUN: %{ir} -O2 %S/stencil-divergent-exit.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O2 %S/grid-2d-3d.cu -o %t.grid.O2.ptx 2> %t.grid.O2.remarks
// RUN: FileCheck %s --check-prefix=GRID < %t.grid.O2.remarks
// RUN: grep -c 'remark:' %t.grid.O2.remarks | FileCheck %s --check-prefix=N4
// RUN: %ptxas %t.grid.O2.ptx -o %t.grid.O2.cubin
// RUN: %{ir} -O2 %S/grid-2d-3d.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O2 %S/template-kernel.cu -o %t.tpl.O2.ptx 2> %t.tpl.O2.remarks
// RUN: FileCheck %s --check-prefix=TPL < %t.tpl.O2.remarks
// RUN: grep -c 'remark:' %t.tpl.O2.remarks | FileCheck %s --check-prefix=N4
// RUN: %ptxas %t.tpl.O2.ptx -o %t.tpl.O2.cubin
// RUN: %{ir} -O2 %S/template-kernel.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O2 %S/dynamic-shared-memory.cu -o %t.dsm.O2.ptx 2> %t.dsm.O2.remarks
// RUN: FileCheck %s --check-prefix=DSM < %t.dsm.O2.remarks
// RUN: grep -c 'remark:' %t.dsm.O2.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.dsm.O2.ptx -o %t.dsm.O2.cubin
// RUN: %{ir} -O2 %S/dynamic-shared-memory.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O2 %S/ordered-inter-cta-wait.cu -o %t.ord.O2.ptx 2> %t.ord.O2.remarks
// RUN: FileCheck %s --check-prefix=ORD < %t.ord.O2.remarks
// RUN: grep -c 'remark:' %t.ord.O2.remarks | FileCheck %s --check-prefix=N6
// RUN: %ptxas %t.ord.O2.ptx -o %t.ord.O2.cubin
// RUN: %{ir} -O2 %S/ordered-inter-cta-wait.cu -o - | %opt -passes=verify -disable-output
// -O2 -g
// RUN: %{ptx} -O2 -g %S/vector-add.cu -o %t.va.O2g.ptx 2> %t.va.O2g.remarks
// RUN: FileCheck %s --check-prefix=VA < %t.va.O2g.remarks
// RUN: grep -c 'remark:' %t.va.O2g.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.va.O2g.ptx -o %t.va.O2g.cubin
// RUN: %{ir} -O2 -g %S/vector-add.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O2 -g %S/tiled-matmul.cu -o %t.mm.O2g.ptx 2> %t.mm.O2g.remarks
// RUN: FileCheck %s --check-prefix=MM < %t.mm.O2g.remarks
// RUN: grep -c 'remark:' %t.mm.O2g.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.mm.O2g.ptx -o %t.mm.O2g.cubin
// RUN: %{ir} -O2 -g %S/tiled-matmul.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O2 -g %S/stencil-divergent-exit.cu -o %t.st.O2g.ptx 2> %t.st.O2g.remarks
// RUN: FileCheck %s --check-prefix=ST < %t.st.O2g.remarks
// RUN: grep -c 'remark:' %t.st.O2g.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.st.O2g.ptx -o %t.st.O2g.cubin
// RUN: %{ir} -O2 -g %S/stencil-divergent-exit.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O2 -g %S/grid-2d-3d.cu -o %t.grid.O2g.ptx 2> %t.grid.O2g.remarks
// RUN: FileCheck %s --check-prefix=GRID < %t.grid.O2g.remarks
// RUN: grep -c 'remark:' %t.grid.O2g.remarks | FileCheck %s --check-prefix=N4
// RUN: %ptxas %t.grid.O2g.ptx -o %t.grid.O2g.cubin
// RUN: %{ir} -O2 -g %S/grid-2d-3d.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O2 -g %S/template-kernel.cu -o %t.tpl.O2g.ptx 2> %t.tpl.O2g.remarks
// RUN: FileCheck %s --check-prefix=TPL < %t.tpl.O2g.remarks
// RUN: grep -c 'remark:' %t.tpl.O2g.remarks | FileCheck %s --check-prefix=N4
// RUN: %ptxas %t.tpl.O2g.ptx -o %t.tpl.O2g.cubin
// RUN: %{ir} -O2 -g %S/template-kernel.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O2 -g %S/dynamic-shared-memory.cu -o %t.dsm.O2g.ptx 2> %t.dsm.O2g.remarks
// RUN: FileCheck %s --check-prefix=DSM < %t.dsm.O2g.remarks
// RUN: grep -c 'remark:' %t.dsm.O2g.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.dsm.O2g.ptx -o %t.dsm.O2g.cubin
// RUN: %{ir} -O2 -g %S/dynamic-shared-memory.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O2 -g %S/ordered-inter-cta-wait.cu -o %t.ord.O2g.ptx 2> %t.ord.O2g.remarks
// RUN: FileCheck %s --check-prefix=ORD < %t.ord.O2g.remarks
// RUN: grep -c 'remark:' %t.ord.O2g.remarks | FileCheck %s --check-prefix=N6
// RUN: %ptxas %t.ord.O2g.ptx -o %t.ord.O2g.cubin
// RUN: %{ir} -O2 -g %S/ordered-inter-cta-wait.cu -o - | %opt -passes=verify -disable-output
// -O3
// RUN: %{ptx} -O3 %S/vector-add.cu -o %t.va.O3.ptx 2> %t.va.O3.remarks
// RUN: FileCheck %s --check-prefix=VA < %t.va.O3.remarks
// RUN: grep -c 'remark:' %t.va.O3.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.va.O3.ptx -o %t.va.O3.cubin
// RUN: %{ir} -O3 %S/vector-add.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O3 %S/tiled-matmul.cu -o %t.mm.O3.ptx 2> %t.mm.O3.remarks
// RUN: FileCheck %s --check-prefix=MM < %t.mm.O3.remarks
// RUN: grep -c 'remark:' %t.mm.O3.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.mm.O3.ptx -o %t.mm.O3.cubin
// RUN: %{ir} -O3 %S/tiled-matmul.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O3 %S/stencil-divergent-exit.cu -o %t.st.O3.ptx 2> %t.st.O3.remarks
// RUN: FileCheck %s --check-prefix=ST < %t.st.O3.remarks
// RUN: grep -c 'remark:' %t.st.O3.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.st.O3.ptx -o %t.st.O3.cubin
// RUN: %{ir} -O3 %S/stencil-divergent-exit.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O3 %S/grid-2d-3d.cu -o %t.grid.O3.ptx 2> %t.grid.O3.remarks
// RUN: FileCheck %s --check-prefix=GRID < %t.grid.O3.remarks
// RUN: grep -c 'remark:' %t.grid.O3.remarks | FileCheck %s --check-prefix=N4
// RUN: %ptxas %t.grid.O3.ptx -o %t.grid.O3.cubin
// RUN: %{ir} -O3 %S/grid-2d-3d.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O3 %S/template-kernel.cu -o %t.tpl.O3.ptx 2> %t.tpl.O3.remarks
// RUN: FileCheck %s --check-prefix=TPL < %t.tpl.O3.remarks
// RUN: grep -c 'remark:' %t.tpl.O3.remarks | FileCheck %s --check-prefix=N4
// RUN: %ptxas %t.tpl.O3.ptx -o %t.tpl.O3.cubin
// RUN: %{ir} -O3 %S/template-kernel.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O3 %S/dynamic-shared-memory.cu -o %t.dsm.O3.ptx 2> %t.dsm.O3.remarks
// RUN: FileCheck %s --check-prefix=DSM < %t.dsm.O3.remarks
// RUN: grep -c 'remark:' %t.dsm.O3.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.dsm.O3.ptx -o %t.dsm.O3.cubin
// RUN: %{ir} -O3 %S/dynamic-shared-memory.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -O3 %S/ordered-inter-cta-wait.cu -o %t.ord.O3.ptx 2> %t.ord.O3.remarks
// RUN: FileCheck %s --check-prefix=ORD < %t.ord.O3.remarks
// RUN: grep -c 'remark:' %t.ord.O3.remarks | FileCheck %s --check-prefix=N6
// RUN: %ptxas %t.ord.O3.ptx -o %t.ord.O3.cubin
// RUN: %{ir} -O3 %S/ordered-inter-cta-wait.cu -o - | %opt -passes=verify -disable-output
// -Os
// RUN: %{ptx} -Os %S/vector-add.cu -o %t.va.Os.ptx 2> %t.va.Os.remarks
// RUN: FileCheck %s --check-prefix=VA < %t.va.Os.remarks
// RUN: grep -c 'remark:' %t.va.Os.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.va.Os.ptx -o %t.va.Os.cubin
// RUN: %{ir} -Os %S/vector-add.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -Os %S/tiled-matmul.cu -o %t.mm.Os.ptx 2> %t.mm.Os.remarks
// RUN: FileCheck %s --check-prefix=MM < %t.mm.Os.remarks
// RUN: grep -c 'remark:' %t.mm.Os.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.mm.Os.ptx -o %t.mm.Os.cubin
// RUN: %{ir} -Os %S/tiled-matmul.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -Os %S/stencil-divergent-exit.cu -o %t.st.Os.ptx 2> %t.st.Os.remarks
// RUN: FileCheck %s --check-prefix=ST < %t.st.Os.remarks
// RUN: grep -c 'remark:' %t.st.Os.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.st.Os.ptx -o %t.st.Os.cubin
// RUN: %{ir} -Os %S/stencil-divergent-exit.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -Os %S/grid-2d-3d.cu -o %t.grid.Os.ptx 2> %t.grid.Os.remarks
// RUN: FileCheck %s --check-prefix=GRID < %t.grid.Os.remarks
// RUN: grep -c 'remark:' %t.grid.Os.remarks | FileCheck %s --check-prefix=N4
// RUN: %ptxas %t.grid.Os.ptx -o %t.grid.Os.cubin
// RUN: %{ir} -Os %S/grid-2d-3d.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -Os %S/template-kernel.cu -o %t.tpl.Os.ptx 2> %t.tpl.Os.remarks
// RUN: FileCheck %s --check-prefix=TPL < %t.tpl.Os.remarks
// RUN: grep -c 'remark:' %t.tpl.Os.remarks | FileCheck %s --check-prefix=N4
// RUN: %ptxas %t.tpl.Os.ptx -o %t.tpl.Os.cubin
// RUN: %{ir} -Os %S/template-kernel.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -Os %S/dynamic-shared-memory.cu -o %t.dsm.Os.ptx 2> %t.dsm.Os.remarks
// RUN: FileCheck %s --check-prefix=DSM < %t.dsm.Os.remarks
// RUN: grep -c 'remark:' %t.dsm.Os.remarks | FileCheck %s --check-prefix=N2
// RUN: %ptxas %t.dsm.Os.ptx -o %t.dsm.Os.cubin
// RUN: %{ir} -Os %S/dynamic-shared-memory.cu -o - | %opt -passes=verify -disable-output
// RUN: %{ptx} -Os %S/ordered-inter-cta-wait.cu -o %t.ord.Os.ptx 2> %t.ord.Os.remarks
// RUN: FileCheck %s --check-prefix=ORD < %t.ord.Os.remarks
// RUN: grep -c 'remark:' %t.ord.Os.remarks | FileCheck %s --check-prefix=N6
// RUN: %ptxas %t.ord.Os.ptx -o %t.ord.Os.cubin
// RUN: %{ir} -Os %S/ordered-inter-cta-wait.cu -o - | %opt -passes=verify -disable-output

// N2: {{^}}2{{$}}
// N4: {{^}}4{{$}}
// N6: {{^}}6{{$}}

// VA-DAG: vector-add.cu:{{[0-9]+}}:1: remark: kernel 'vecAdd': built _Z6vecAddPKfS0_Pfi__smc (persistent workers; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]
// VA-DAG: vector-add.cu:{{[0-9]+}}:1: remark: kernel 'vecAdd': built _Z6vecAddPKfS0_Pfi__slice (index rectification; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]

// MM-DAG: tiled-matmul.cu:{{[0-9]+}}:1: remark: kernel 'matmul': built _Z6matmulPKfS0_Pfi__smc (persistent workers; 2 blockIdx/gridDim reads replaced) [-Rpass=smc]
// MM-DAG: tiled-matmul.cu:{{[0-9]+}}:1: remark: kernel 'matmul': built _Z6matmulPKfS0_Pfi__slice (index rectification; 2 blockIdx/gridDim reads replaced) [-Rpass=smc]

// ST-DAG: stencil-divergent-exit.cu:{{[0-9]+}}:1: remark: kernel 'stencil': built _Z7stencilPKfPfi__smc (one chunk per worker: threads may exit before a barrier other threads of the CTA still reach at {{.*}}stencil-divergent-exit.cu:{{[0-9]+}}; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]
// ST-DAG: stencil-divergent-exit.cu:{{[0-9]+}}:1: remark: kernel 'stencil': built _Z7stencilPKfPfi__slice (index rectification; 1 blockIdx/gridDim reads replaced) [-Rpass=smc]

// GRID-DAG: grid-2d-3d.cu:{{[0-9]+}}:1: remark: kernel 'transpose2d': built _Z11transpose2dPKfPfii__smc (persistent workers; 2 blockIdx/gridDim reads replaced) [-Rpass=smc]
// GRID-DAG: grid-2d-3d.cu:{{[0-9]+}}:1: remark: kernel 'transpose2d': built _Z11transpose2dPKfPfii__slice (index rectification; 2 blockIdx/gridDim reads replaced) [-Rpass=smc]
// GRID-DAG: grid-2d-3d.cu:{{[0-9]+}}:1: remark: kernel 'fill3d': built _Z6fill3dPi__smc (persistent workers; 6 blockIdx/gridDim reads replaced) [-Rpass=smc]
// GRID-DAG: grid-2d-3d.cu:{{[0-9]+}}:1: remark: kernel 'fill3d': built _Z6fill3dPi__slice (index rectification; 6 blockIdx/gridDim reads replaced) [-Rpass=smc]

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
