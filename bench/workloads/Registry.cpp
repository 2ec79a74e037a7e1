//===- Registry.cpp - The list of all workloads ---------------------------===//
//
// The one list tests, benchmarks and experiments iterate.  An explicit list
// (rather than self-registering static objects) so that linking the static
// library never drops a workload.  Order: SM-Centric Table 1, Kernelet
// section 5.1, CTA-Clustering Table 2, G-Streamline's (thread-data
// remapping), then SMC's own workloads (micro.h, timed by smc_bench).
//===----------------------------------------------------------------------===//
#include "Workload.h"

#include "3dconv.h"
#include "atax.h"
#include "backprop.h"
#include "bicg.h"
#include "bs.h"
#include "cfd.h"
#include "dct8x8.h"
#include "ellspmv.h"
#include "filter.h"
#include "hotspot.h"
#include "irreg.h"
#include "kmeans.h"
#include "lbm.h"
#include "mcubes.h"
#include "md.h"
#include "micro.h"
#include "mm.h"
#include "mriq.h"
#include "mvt.h"
#include "nbf.h"
#include "nbody.h"
#include "nn.h"
#include "particles.h"
#include "pc.h"
#include "pf.h"
#include "recgather.h"
#include "reduce.h"
#include "sad.h"
#include "spmv.h"
#include "st.h"
#include "syr2k.h"
#include "syrk.h"
#include "tea.h"

namespace smc {
namespace workloads {

const std::vector<const WorkloadInfo *> &allWorkloads() {
  static const std::vector<const WorkloadInfo *> list = {
      // SM-Centric (SM-centric transformation, ICS 2015), Table 1.
      &irreg::info(),
      &nbf::info(),
      &md::info(),
      &spmv::info(),
      &cfd::info(),
      &nn::info(),
      &pf::info(),
      &mm::info(),
      &reduce::info(),
      // Kernelet (Kernelet), section 5.1; spmv and mm above.
      &pc::info(),
      &sad::info(),
      &mriq::info(),
      &bs::info(),
      &tea::info(),
      &st::info(),
      // CTA-Clustering (CTA clustering), Table 2: algorithm-related, then
      // cache-line-related; mm above.
      &kmeans::info(),
      &hotspot::info(),
      &backprop::info(),
      &dct8x8::info(),
      &syrk::info(),
      &syr2k::info(),
      &atax::info(),
      &mvt::info(),
      &bicg::info(),
      &nbody::info(),
      &conv3d::info(),
      // G-Streamline (thread-data remapping; Zheng Zhang's dissertation,
      // chapters 2-3): divergence on loaded data, then gathers through an
      // index.
      &lbm::info(),
      &mcubes::info(),
      &particles::info(),
      &filter::info(),
      &recgather::info(),
      &ellspmv::info(),
      // SMC's own (papers 0): the kernels smc_bench times.
      &vecadd::info(),
      &matmul::info(),
      &treesum::info(),
      &stencil9::info(),
      &gather::info(),
  };
  return list;
}

} // namespace workloads
} // namespace smc
