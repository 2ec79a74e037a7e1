//===- smc/batch.h - smc::Batch: co-scheduled slices of launches ----------===//
//
// Part of the public API of the SMC runtime (smc/smc.h includes it): a
// batch records kernel launches from any streams and runs them as slices
// or persistent workers of two kernels at a time on two lanes of its own,
// in the layout a measured search finds fastest for launches that recur.
// docs/batch.md is its manual.
//===----------------------------------------------------------------------===//
#ifndef SMC_BATCH_H
#define SMC_BATCH_H

#include <memory>
#include <string>
#include <vector>

namespace smc {

// Slice co-scheduling (Kernelet: High-Throughput GPU Kernel Executions with
// Dynamic Slicing and Scheduling, TPDS 2014).  A batch records kernel
// launches, from any streams, instead of running them; run() then runs
// them on two streams of the runtime (lanes), each stream's launches whole,
// in slices (the __slice variant, a range of the original CTAs per launch)
// or as persistent workers, so that kernels that complement each other
// share the SMs.  For a batch that recurs, the default mode measures
// layouts of the streams on the lanes and keeps the fastest.  Each
// stream's launches keep their order; work the program queues on a stream
// after run() waits for that stream's launches of the batch, and the batch
// waits for what was queued on its streams before run().
//
//   smc::Batch batch;
//   batch.begin();
//   kernelA<<<gridA, blockA, 0, s1>>>(...);   // recorded, not run
//   kernelB<<<gridB, blockB, 0, s2>>>(...);
//   batch.end();
//   batch.run();                              // enqueued; returns at once
//
// Only kernel launches made through code compiled with the SMC plugin, from
// the thread that called begin(), are recorded; other work the program
// queues on those streams before run() (copies, events, launches from other
// threads) runs before the batch's launches.  Arguments are copied when a
// launch is recorded.  A launch is sliced only with its configuration's
// "issue" profile (its time alone sets the minimum slice: loadProfiles,
// SMC_PROFILE; scripts/smc-profile --ncu records it); a launch of a kernel
// without a usable __slice variant, or inside a stream capture, runs whole,
// and the user is told once why.  (The Kernelet paper's own performance
// model and greedy co-scheduler did not rank co-schedules on Hopper: they
// are kept in bench/kernelet as a comparison, and plan through run(runs).)
class Batch {
public:
  enum class Mode {
    // For launches that recur (the same kernels, shapes and streams, batch
    // after batch): the fastest layout measured so far.  A layout puts the
    // streams on the two lanes (which share one, in which order) and runs
    // each stream's launches whole, in slices or as workers (Split).  Where
    // both lanes have CTAs waiting, lane 0's are placed first (its stream
    // has the higher priority).  The first batch runs as plain streams
    // would; later ones try neighbouring layouts (one stream's Split
    // changed, the lanes swapped, one stream moved to the end of the other
    // lane, or two streams' places swapped) in a random order, each timed
    // once with events; a climb moves to the first neighbour at least 2%
    // faster, and a stuck climb restarts two steps from the best.  A layout
    // becomes the best only on the slowest of four runs (its runs stop at
    // the first that does not beat the best).  After 192 timed batches the
    // best layout is kept.  The default: never far from plain streams on a
    // first batch, faster on recurring ones.
    Search,
    Serial,  // each launch whole, one after another in record order
    Streams, // each launch whole on its own stream: as without the batch
  };
  // How a stream's launches run in a layout: whole (the original kernel),
  // in slices of half the CTAs they fit on the GPU at once (at least the
  // minimum slice), or whole as persistent workers, half (Workers), a
  // quarter (FewWorkers) or three quarters (ManyWorkers) as many per SM as
  // fit there (workers of its SM-centric variant), rounded up, on every
  // SM; or whole as all the workers that fit per SM, confined to its
  // lane's half of the SMs (Partition: lane 0 the first half, lane 1 the
  // rest; an SM partition, which layouts can combine with slices).  A
  // launch that cannot run so runs whole.  Mode::Search tries the first
  // five; Partition is for plans and grids of layouts (balancedLayouts).
  enum class Split : unsigned char {
    Whole,
    Slices,
    Workers,
    FewWorkers,
    ManyWorkers,
    Partition
  };
  // Streams (numbered as launches() does) on the two lanes, each lane
  // running its streams in order, each stream as splits[stream] says.
  struct Layout {
    std::vector<unsigned> lanes[2];
    std::vector<Split> splits;
  };
  // Every layout of `streams` streams with half of them on each lane
  // (either lane the larger half when they are odd), x every choice per
  // stream among the first `splits` of Split (3: Whole, Slices, Workers; 2:
  // no workers; 5: all).
  static std::vector<Layout> balancedLayouts(unsigned streams,
                                             unsigned splits = 3);
  // The same orders x every choice per stream among `splits` (for example
  // {Whole, Slices, Partition}: slices and SM partitions combined).
  static std::vector<Layout> balancedLayouts(unsigned streams,
                                             const std::vector<Split> &splits);
  // Forgets what every Search has measured in this process: the next run()
  // of each set of launches starts a new search from the streams layout
  // (for a program whose co-runs change character, e.g. with new inputs of
  // other sizes, and for tests).
  static void forgetSearches();
  // One range of a recorded launch's CTAs (linear blockIdx, x fastest),
  // run as consecutive slices of sliceCtas CTAs on one of the batch's two
  // lanes (0 or 1).  A range whose sliceCtas covers the whole launch runs
  // the original kernel.
  // With workersPerSm (not 0) the range is the whole launch, run as its
  // SM-centric variant with that many persistent workers per SM (SMC's
  // parallelism control: the kernel's share of every SM without a launch
  // per slice); with smCount (not 0) too, only on SMs [smFirst, smFirst +
  // smCount) (an SM partition).  With fence, this run and every later one
  // start only after every earlier run has ended (on both lanes): a plan
  // keeps a launch alone on the GPU with a fence on its run and on the run
  // after it.
  struct SliceRun {
    unsigned launch = 0;
    unsigned lane = 0;
    unsigned firstCta = 0;
    unsigned ctas = 0;
    unsigned sliceCtas = 0;
    unsigned workersPerSm = 0;
    unsigned smFirst = 0;
    unsigned smCount = 0; // 0: every SM
    bool fence = false;
  };

  Batch();
  ~Batch(); // a batch never run is dropped: its launches never run
  Batch(const Batch &) = delete;
  Batch &operator=(const Batch &) = delete;

  // Records the launches this thread makes until end().  Fails (false,
  // *error set) while another batch records on this thread.
  bool begin(std::string *error = nullptr);
  void end();
  // The launches recorded so far.
  unsigned size() const;
  // What Mode::Search minimizes: the batch's makespan (the default: when
  // the last of its streams ends), or the sum of its streams' turnaround
  // times (from the batch's start to each stream's last launch's end: for
  // co-runs judged by throughput per program, STP and ANTT).  A search is
  // kept per set of launches and objective.
  enum class Objective { Makespan, Turnaround };
  void setObjective(Objective objective);
  // Enqueues the recorded launches as `mode` says and empties the batch.
  // Returns false, with *error naming the launch and the CUDA error, when a
  // launch could not be enqueued (the launches before it were).
  bool run(Mode mode = Mode::Search, std::string *error = nullptr);
  // Enqueues the recorded launches as `runs` say (an oracle, a plan of your
  // own): every CTA of every launch exactly once, each launch's runs in CTA
  // order on one lane, in an order that keeps each stream's launches in
  // order, SM ranges only for workers and within the device's SMs.
  // Returns false, with *error set and nothing run, for a plan that breaks
  // these rules.
  bool run(const std::vector<SliceRun> &runs, std::string *error = nullptr);
  // What the scheduler knows of each recorded launch (in record order):
  // its profile name ("K grid=AxBxC block=AxBxC"), CTAs, warps per CTA,
  // the most CTAs of it one SM holds, its stream (numbered in order of
  // first appearance), whether it can be sliced and whether it has an
  // "issue" profile, and the fewest CTAs a slice of it should have
  // (launching slices costs at most 2% of its time; 1 without a profile).
  struct LaunchInfo {
    std::string name;
    unsigned ctas = 0;
    unsigned warpsPerCta = 0;
    unsigned ctasPerSm = 0;
    unsigned minSliceCtas = 1;
    unsigned stream = 0;
    bool sliceable = false;
    bool profiled = false;
    bool workers = false; // its SM-centric variant runs as workers
  };
  std::vector<LaunchInfo> launches() const;
  // The slice runs of `layout` for the recorded launches (empty if it does
  // not place each of their streams once).
  std::vector<SliceRun> layoutRuns(const Layout &layout) const;
  // The slice runs the last run() enqueued, one line each, and for
  // Mode::Search the layout and how many trials the search has measured,
  // as text.
  std::string describe() const;
  const std::vector<SliceRun> &lastRuns() const;

  struct Impl;

private:
  std::unique_ptr<Impl> impl;
};

} // namespace smc

#endif // SMC_BATCH_H
