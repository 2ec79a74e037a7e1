//===- KerneletModel.h - Kernelet's IPC model and co-scheduler --*- C++ -*-===//
//
// The performance model and greedy slice co-scheduler of "Kernelet:
// High-Throughput GPU Kernel Executions with Dynamic Slicing and
// Scheduling" (TPDS 2014), as pure logic (no CUDA).  A Markov chain over
// the idle warps of a virtual SM (one warp scheduler) predicts the
// instructions per cycle (IPC) of a kernel alone and of two kernels
// sharing the SM; from those come a pair's co-scheduling profit and the
// split of an SM between them (CTAs of each per SM) whose slices take
// equally long.  planGreedy() turns the launches of several streams into
// runs of slices on two lanes, pairing the most profitable kernels while
// keeping each stream's order, and predicts the makespan; smc::Batch runs
// such a plan as an explicit one (Batch::run(runs), KerneletPlan.h).
//
// On Hopper the model does not rank co-schedules (docs/results/kernelet.md),
// so it is not part of the runtime: it is kept here, beside the benchmark
// that compares it with smc::Batch's measured layout search.
//
// Words (runtime/batch/SliceRuns.h): a slice is one launch of a range of a
// kernel's CTAs; c CTAs of a kernel per SM make slices of c * NumSms CTAs;
// a kernel's warps on the virtual SM are its warps per SM over the SM's
// warp schedulers.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_KERNELETMODEL_H
#define SMC_BENCH_KERNELETMODEL_H

#include "batch/SliceRuns.h"

#include <optional>
#include <string>
#include <vector>

namespace smc::kernelet {

// The words of smc::Batch's plans.
using batch::checkSchedule;
using batch::checkTraits;
using batch::KernelTraits;
using batch::minSliceCtas;
using batch::PendingLaunch;
using batch::planSerial;
using batch::Schedule;
using batch::SliceRun;

//===----------------------------------------------------------------------===//
// The Markov-chain IPC model
//===----------------------------------------------------------------------===//

// The device as the model sees it: as a batch's plans do (its SMs, what
// slicing costs), and its warp schedulers and memory latency.
struct DeviceModel : batch::PlanDevice {
  // Per SM.  The chain runs on a virtual SM of one scheduler: warps per
  // scheduler = warps per SM / WarpSchedulers, rounded to nearest, at least
  // 1 when there are warps (0 schedulers count as 1).
  unsigned WarpSchedulers = 4;
  unsigned MaxWarpsPerSm = 64;
  // Memory latency in cycles, L(x) = LatencyBase + LatencySlope * x, where
  // x is the number of idle warps (outstanding memory requests) on the
  // virtual SM.  A latency of 0 or less wakes idle warps at once.
  double LatencyBase = 400;
  double LatencySlope = 10;
};

// Whether M can place kernels (NumSms and MaxWarpsPerSm not 0); else false
// with *Error saying why.
bool checkModel(const DeviceModel &M, std::string *Error = nullptr);

// Warps per scheduler of the virtual SM for WarpsPerSm warps on one SM.
unsigned warpsPerScheduler(const DeviceModel &M, unsigned WarpsPerSm);

// The chains are built for at most this many warps per scheduler (and per
// kernel); more count as this many.  Memory ratios are clamped to [0, 1]
// (NaN counts as 0).
constexpr unsigned MaxChainWarps = 64;

// The stationary distribution of the Markov chain whose row-major
// States x States matrix is Transition (each row a distribution), by the
// Grassmann-Taksar-Heyman elimination; for a chain with more than one
// closed class, the one reached from state 0 (by power iteration of the
// lazy chain).  Empty when Transition is not such a matrix.
std::vector<double> stationaryDistribution(std::vector<double> Transition,
                                           unsigned States);

// The stationary distribution of one kernel's chain with W warps on the
// virtual SM: element i is the probability of i idle warps.  States 0..W;
// in one round each of the W - i ready warps issues a memory instruction
// (and goes idle) with probability MemRatio and each of the i idle warps
// wakes with probability min(1, D_i / L(i)), D_i = max(W - i, 1) cycles
// being the round's length.  {1} for W = 0.
std::vector<double> soloStationary(const DeviceModel &M, double MemRatio,
                                   unsigned WarpsPerScheduler);

// IPC of one scheduler running one kernel of W warps (the paper's eq. 3):
// sum_{i<W} gamma_i (W - i) / sum_i gamma_i D_i, in [0, 1]; 0 for W = 0.
double soloIpc(const DeviceModel &M, double MemRatio,
               unsigned WarpsPerScheduler);

struct PairIpc {
  double First = 0, Second = 0;
};

// The IPCs of two kernels sharing one scheduler (eqs. 4-5): states (p, q)
// idle warps of each, round length D = max((WA - p) + (WB - q), 1), latency
// at x = p + q idle warps, the two kernels' transitions independent given
// the state.  A kernel of 0 warps gets 0 and leaves the other's soloIpc.
PairIpc pairIpc(const DeviceModel &M, double MemRatioA, unsigned WarpsA,
                double MemRatioB, unsigned WarpsB);

// One kernel's IPC per scheduler measured at full occupancy.
struct IpcSample {
  double MemRatio = 0;
  unsigned WarpsPerScheduler = 0;
  double MeasuredIpc = 0;
};

// Base with LatencyBase (in [20, 2000]) and LatencySlope (in [0, 200])
// fitted to Samples by least squares of soloIpc against the measured IPC
// (a coarse-to-fine grid search).  Samples without warps or with a
// non-finite ratio or IPC are left out; Base unchanged if none is left.
DeviceModel calibrate(DeviceModel Base, const std::vector<IpcSample> &Samples);

//===----------------------------------------------------------------------===//
// Kernels and pair co-schedules
//===----------------------------------------------------------------------===//

// A split of each SM between kernels A and B, with the model's prediction.
// Alone, a kernel processes Ctas / AloneSeconds CTAs per second at the IPC
// of its occupancy alone, min(CtasPerSm, ceil(Ctas / NumSms)) CTAs per SM;
// co-scheduled, that rate times its co-run IPC over that IPC.
struct PairChoice {
  unsigned CtasPerSmA = 0, CtasPerSmB = 0;
  // Co-scheduling profit 1 - 1 / (cIPC_A / IPC_A + cIPC_B / IPC_B), < 1.
  double Profit = 0;
  double RateA = 0, RateB = 0; // CTAs per second
};

// Every feasible split (c_A, c_B): c >= 1 and at most the kernel's
// occupancy alone, c_A / CtasPerSm_A + c_B / CtasPerSm_B <= 1, and
// c_A * WarpsPerCta_A + c_B * WarpsPerCta_B <= MaxWarpsPerSm; in order of
// c_A, then c_B.  Empty when the model or either kernel's traits do not
// check.
std::vector<PairChoice> pairOptions(const DeviceModel &M, const KernelTraits &A,
                                    const KernelTraits &B);

// How unequal one slice of each kernel is in time (a slice of kernel k
// takes c_k * NumSms / Rate_k): |T_A - T_B| / max(T_A, T_B), in [0, 1].
double sliceImbalance(const DeviceModel &M, const PairChoice &C);

// The balanced split (the paper's eq. 7): of pairOptions(), the one of
// least sliceImbalance; of those within 0.05 of the least, the one of
// highest profit.  None when there is no feasible split.
std::optional<PairChoice>
choosePair(const DeviceModel &M, const KernelTraits &A, const KernelTraits &B);

//===----------------------------------------------------------------------===//
// Schedules
//===----------------------------------------------------------------------===//

// The greedy co-scheduler (the paper's Algorithm 1), simulated in model
// time.  A launch is ready when every earlier launch of its Stream (in
// vector order) has ended.  With both lanes free, the ready pair of highest
// profit co-runs at its choosePair() split; with one kernel running, the
// free lane gets the ready launch of highest profit with it, and the
// running kernel's later slices take the new split (its current run is
// cut where the model says it is, rounded up to whole slices).  A pair
// co-runs only if it profits at least MinProfit and the model has the two
// end sooner so (the one left over finishing alone) than one after the
// other: slicing a launch of few waves can cost it more than its partner
// gains.  A launch that is not Sliceable or not Known (or whose traits do
// not check), or that finds no such partner, runs alone: the earliest such
// ready launch, whole, on lane 0, fenced.  A kernel left without such a
// partner runs the rest of its CTAs whole, alone.  Every CTA is in exactly
// one run; a launch's runs are in CTA order on one lane; launches of no
// CTAs get no run.  PredictedSeconds equals predictSeconds() of the plan.
Schedule planGreedy(const DeviceModel &M,
                    const std::vector<PendingLaunch> &Launches,
                    double MinProfit = 0.02);

// The model's makespan of S: each lane runs its runs in order, a run
// starts once its launch's earlier runs and its stream's earlier launches
// have ended (and past fences), and runs in flight on both lanes progress
// at their pair's rates (a run's CTAs per SM: ceil(sliceCtas / NumSms),
// at most the occupancy alone), a run alone at its solo rate (a whole
// launch: its alone time).  A launch the model cannot predict runs at its
// alone rate, at half of it beside another run, and in no time without an
// alone time.  Infinity when checkSchedule() fails.
double predictSeconds(const DeviceModel &M,
                      const std::vector<PendingLaunch> &Launches,
                      const Schedule &S);

} // namespace smc::kernelet

#endif // SMC_BENCH_KERNELETMODEL_H
