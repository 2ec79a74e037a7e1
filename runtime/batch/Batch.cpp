//===- Batch.cpp - smc::Batch: recorded launches run as co-scheduled slices
//-===//
//
// Between Batch::begin() and end() the launch entry (LaunchEntry.cpp) hands
// this thread's launches to recordIntoBatch(), which keeps a copy of each
// (kernel, shape, stream, argument values).  run() turns them into slice
// runs - ranges of a launch's CTAs run as __slice launches of a given size
// on one of two lanes (non-blocking streams of the batch) - and enqueues
// them:
//
//   Mode::Kernelet  the greedy co-scheduler of KerneletModel.h picks the
//                   pairs and their slice sizes from the launches' "issue"
//                   profiles (KernelProfile.h);
//   Mode::Serial    each launch whole on lane 0, in record order;
//   Mode::Streams   each launch through the ordinary launch path, on its
//                   own stream: what the program did without the batch;
//   explicit runs   a plan of the caller's (the benchmark's oracle).
//
// Stream order is kept with events: a launch's first run waits for the end
// of the previous launch of its stream when that ran on the other lane (or
// for what the stream held before run(), for the stream's first launch),
// and each stream waits, after run(), for the end of its last launch.
//===----------------------------------------------------------------------===//
#include "corun/AutoPolicy.h"
#include "core/HostEntries.h"
#include "batch/KerneletModel.h"
#include "batch/KerneletSearch.h"
#include "core/RuntimeState.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <sstream>

namespace smc {

namespace {

// What a recorded stream operation is: a kernel launch, or a memset or
// device-to-device copy that must run in its place in the stream's order.
enum class OpKind { Launch, Memset, Copy };

// A launch (or memset, copy) as recorded: it outlives the program's
// argument array.
struct RecordedLaunch {
  OpKind Kind = OpKind::Launch;
  const void *Func = nullptr;
  LaunchShape Shape;
  cudaStream_t Stream = nullptr; // as the driver sees it (effectiveStream)
  int Device = 0;
  DeviceState *State = nullptr;
  KernelEntry *Kernel = nullptr; // launches only
  std::vector<std::vector<char>> Values;
  std::vector<void *> Args; // into Values
  // Memset: Bytes bytes of Value at Dst; copy: Bytes bytes from Src to Dst.
  void *Dst = nullptr;
  const void *Src = nullptr;
  size_t Bytes = 0;
  int Value = 0;

  // A memset or copy is one unit: it runs whole.
  uint64_t ctas() const {
    if (Kind != OpKind::Launch)
      return 1;
    return uint64_t(Shape.Grid.x) * Shape.Grid.y * Shape.Grid.z;
  }
  // The operation on `On` as the program asked for it (a launch through
  // the runtime's whole launch path).
  cudaError_t replay(cudaStream_t On) const {
    switch (Kind) {
    case OpKind::Memset:
      return cudaMemsetAsync(Dst, Value, Bytes, On);
    case OpKind::Copy:
      return cudaMemcpyAsync(Dst, Src, Bytes, cudaMemcpyDeviceToDevice, On);
    case OpKind::Launch:
      break;
    }
    return launchRequest(request(On));
  }
  LaunchRequest request(cudaStream_t On) const {
    LaunchRequest Req;
    Req.Func = Func;
    Req.Shape = Shape;
    Req.Args = const_cast<void **>(Args.data());
    Req.Stream = On;
    return Req;
  }
};

thread_local Batch::Impl *TlRecording = nullptr;

std::string ctaRange(unsigned First, unsigned Count) {
  return std::to_string(First) + "-" + std::to_string(First + Count - 1);
}

} // namespace

struct Batch::Impl {
  std::vector<RecordedLaunch> Launches;
  bool Recording = false;
  std::vector<Batch::SliceRun> LastRuns;
  double LastPredicted = 0;
  std::vector<std::string> LastNotes;
  std::vector<std::string> LaunchNames; // of the last run, for describe()
  Batch::Objective Objective = Batch::Objective::Makespan;
};

namespace {

// The values of a launch's arguments: as many as the original kernel has
// parameters (the driver says how many, and their sizes).
bool copyLaunchArgs(const KernelEntry &K, const driver::Api &Api,
                    const LaunchRequest &Req, RecordedLaunch &Out,
                    std::string &Error) {
  std::vector<size_t> Sizes;
  for (unsigned I = 0;; ++I) {
    size_t Offset = 0, Size = 0;
    CUresult R = Api.FuncGetParamInfo(K.Original, I, &Offset, &Size);
    if (R == CUDA_ERROR_INVALID_VALUE)
      break; // past the last parameter
    if (R != CUDA_SUCCESS) {
      Error = "cannot read its parameters (" + driver::resultText(R) + ")";
      return false;
    }
    Sizes.push_back(Size);
  }
  if (!Sizes.empty() && !Req.Args) {
    Error = "its launch passes no arguments";
    return false;
  }
  Out.Values = copyArgs(Req.Args, Sizes);
  for (std::vector<char> &V : Out.Values)
    Out.Args.push_back(V.data());
  return true;
}

// Events of one run(), released when it goes (CUDA releases them after
// the work queued on them).
struct RunResources {
  cudaStream_t Lanes[2] = {nullptr, nullptr}; // the device's (batchLanes)
  std::vector<cudaEvent_t> Events;

  ~RunResources() {
    for (cudaEvent_t E : Events)
      cudaEventDestroy(E);
  }
  cudaError_t event(cudaEvent_t &E) {
    cudaError_t Err = cudaEventCreateWithFlags(&E, cudaEventDisableTiming);
    if (Err == cudaSuccess)
      Events.push_back(E);
    return Err;
  }
};

// Events that time one run() of a batch: both lanes start at Begin and
// end at End[0] and End[1]; with Turnaround, each stream's wait for its
// last launch ends at StreamEnd[s].
struct BatchTiming {
  cudaEvent_t Begin = nullptr, End[2] = {nullptr, nullptr};
  bool Turnaround = false;
  std::vector<cudaEvent_t> StreamEnd;

  void release() {
    for (cudaEvent_t E : {Begin, End[0], End[1]})
      if (E)
        cudaEventDestroy(E);
    for (cudaEvent_t E : StreamEnd)
      if (E)
        cudaEventDestroy(E);
    *this = BatchTiming();
  }
  // What the search minimizes, in seconds, once every event has completed:
  // the makespan (the later lane's end), or with Turnaround the sum of the
  // streams' ends.  0 before, and -1 after an error (the timing is then
  // useless).
  double seconds() const {
    std::vector<cudaEvent_t> Ends(std::begin(End), std::end(End));
    if (Turnaround)
      Ends = StreamEnd;
    double Latest = 0, Sum = 0;
    for (cudaEvent_t E : Ends) {
      cudaError_t Err = cudaEventQuery(E);
      if (Err == cudaErrorNotReady)
        return 0;
      float Ms = 0;
      if (Err != cudaSuccess ||
          cudaEventElapsedTime(&Ms, Begin, E) != cudaSuccess) {
        cudaGetLastError();
        return -1;
      }
      Latest = std::max(Latest, double(Ms));
      Sum += Ms;
    }
    return (Turnaround ? Sum : Latest) * 1e-3;
  }
};

// The device's two lanes, made on first use: streams of their own, so that
// SM-centric runs on them keep one counter block each.  Lane 0 is one step
// above the least stream priority and lane 1 at the least, so that where
// both lanes have CTAs waiting for a place (a batch's start, a lane's next
// launch beside the other's) the hardware places lane 0's first.  With
// equal priorities the hardware chose which lane's kernel started first:
// one layout of bs+mm+mriq+pc took 4.44 or 5.8 ms from batch to batch
// (H100), by whether the whole-grid kernel filled the SMs before the other
// lane's workers came.  Now the layout decides it (KerneletSearch.h: the
// lanes are not interchangeable).  Still below every stream of higher
// priority a program makes, and outside priority yielding (Priorities.cpp:
// the batch's launches do not go through the launch entry).
cudaError_t batchLanes(DeviceState &Dev, cudaStream_t (&Lanes)[2]) {
  Globals &G = globals();
  std::lock_guard<std::mutex> Lock(G.Mutex);
  if (!Dev.BatchLanes[0] || !Dev.BatchLanes[1]) {
    int Least = 0, Greatest = 0;
    if (cudaError_t Err = cudaDeviceGetStreamPriorityRange(&Least, &Greatest))
      return Err;
    int Priority[2] = {Greatest < Least ? Least - 1 : Least, Least};
    for (unsigned L : {0u, 1u})
      if (!Dev.BatchLanes[L])
        if (cudaError_t Err = cudaStreamCreateWithPriority(
                &Dev.BatchLanes[L], cudaStreamNonBlocking, Priority[L])) {
          Dev.BatchLanes[L] = nullptr;
          return Err;
        }
  }
  Lanes[0] = Dev.BatchLanes[0];
  Lanes[1] = Dev.BatchLanes[1];
  return cudaSuccess;
}

// Runs launch L whole on Lane as its SM-centric variant with WorkersPerSm
// workers per SM, on SMs [SmFirst, SmFirst + SmCount) (SmCount 0: every
// SM), through the ordinary launch path (its counter block is the lane's);
// the original where that variant cannot run so.
cudaError_t launchWorkers(const RecordedLaunch &L, cudaStream_t Lane,
                          unsigned WorkersPerSm, unsigned SmFirst,
                          unsigned SmCount) {
  LaunchRequest Req = L.request(Lane);
  std::vector<unsigned> Sms(SmCount);
  for (unsigned I = 0; I < SmCount; ++I)
    Sms[I] = SmFirst + I;
  Prepared *P = prepareUnder(
      Req, Policy::smCentric(WorkersPerSm, std::move(Sms)), L.Device);
  if (!P)
    return launchOriginal(Req);
  return dispatchPrepared(*P, Req);
}

// Enqueues `Runs` (valid for `Launches`); `Slices[l]` is launch l's
// prepared __slice configuration (null: it runs whole, as the original).
// Both lanes start once every stream of the batch has run what it held
// before run().  A fenced run starts after every earlier run, and so does
// every later one (the lanes wait for each other's last run): a launch
// alone on the GPU.  With `Timing`, its events are made and recorded.
bool enqueueRuns(const std::vector<RecordedLaunch> &Launches,
                 const std::vector<Prepared *> &Slices,
                 const std::vector<kernelet::SliceRun> &Runs,
                 std::string &Error, BatchTiming *Timing = nullptr) {
  const driver::Api &Api = *driver::api();
  RunResources Res;
  auto Fail = [&](const std::string &What, cudaError_t Err) {
    Error = failed(What.c_str(), Err);
    return false;
  };
  if (cudaError_t Err = batchLanes(*Launches[0].State, Res.Lanes))
    return Fail("creating the batch's lanes", Err);
  // What each stream held before run().
  std::map<cudaStream_t, cudaEvent_t> StreamStart;
  for (const RecordedLaunch &L : Launches)
    if (!StreamStart.count(L.Stream)) {
      cudaEvent_t &E = StreamStart[L.Stream];
      if (cudaError_t Err = Res.event(E))
        return Fail("creating an event", Err);
      if (cudaError_t Err = cudaEventRecord(E, L.Stream))
        return Fail("recording a stream's start", Err);
      for (cudaStream_t Lane : Res.Lanes)
        if (cudaError_t Err = cudaStreamWaitEvent(Lane, E, 0))
          return Fail("waiting for a stream's start", Err);
    }
  if (Timing) {
    for (cudaEvent_t *E : {&Timing->Begin, &Timing->End[0], &Timing->End[1]})
      if (cudaError_t Err = cudaEventCreate(E))
        return Fail("creating a timing event", Err);
    if (cudaError_t Err = cudaEventRecord(Timing->Begin, Res.Lanes[0]))
      return Fail("recording the batch's start", Err);
    if (cudaError_t Err = cudaStreamWaitEvent(Res.Lanes[1], Timing->Begin, 0))
      return Fail("recording the batch's start", Err);
  }

  size_t N = Launches.size();
  std::vector<cudaEvent_t> Done(N, nullptr);
  std::vector<int> LaneOf(N, -1);
  std::vector<size_t> LastRun(N, 0);
  std::vector<int> Previous(N, -1); // the launch before, on the stream
  std::map<cudaStream_t, int> LastOfStream;
  for (size_t I = 0; I < Runs.size(); ++I)
    LastRun[Runs[I].Launch] = I;
  for (size_t L = 0; L < N; ++L) {
    auto It = LastOfStream.find(Launches[L].Stream);
    if (It != LastOfStream.end())
      Previous[L] = It->second;
    LastOfStream[Launches[L].Stream] = int(L);
  }

  for (size_t I = 0; I < Runs.size(); ++I) {
    const kernelet::SliceRun &R = Runs[I];
    const RecordedLaunch &L = Launches[R.Launch];
    cudaStream_t Lane = Res.Lanes[R.Lane];
    std::string Which = "launch " + std::to_string(R.Launch);
    if (R.Fence) {
      cudaEvent_t Tails[2];
      for (unsigned Other : {0u, 1u})
        if (cudaError_t Err = Res.event(Tails[Other]))
          return Fail("creating an event", Err);
      for (unsigned Other : {0u, 1u})
        if (cudaError_t Err = cudaEventRecord(Tails[Other], Res.Lanes[Other]))
          return Fail("fencing " + Which, Err);
      for (unsigned Other : {0u, 1u})
        if (cudaError_t Err =
                cudaStreamWaitEvent(Res.Lanes[Other], Tails[1 - Other], 0))
          return Fail("fencing " + Which, Err);
    }
    if (LaneOf[R.Launch] < 0) {
      int P = Previous[R.Launch];
      if (P >= 0 && LaneOf[P] != int(R.Lane))
        if (cudaError_t Err = cudaStreamWaitEvent(Lane, Done[P], 0))
          return Fail("ordering " + Which, Err);
      LaneOf[R.Launch] = int(R.Lane);
    }
    bool Whole = R.FirstCta == 0 && R.Ctas == L.ctas() && R.SliceCtas >= R.Ctas;
    if (L.Kind != OpKind::Launch) {
      if (cudaError_t Err = L.replay(Lane))
        return Fail("running " + Which + " (a memset or copy)", Err);
    } else if (R.WorkersPerSm) {
      if (cudaError_t Err =
              launchWorkers(L, Lane, R.WorkersPerSm, R.SmFirst, R.SmCount))
        return Fail("launching " + Which, Err);
    } else if (Whole || !Slices[R.Launch]) {
      if (cudaError_t Err = launchOriginal(L.request(Lane)))
        return Fail("launching " + Which, Err);
    } else {
      const Prepared &P = *Slices[R.Launch];
      SmcDescriptor Desc = P.Desc;
      Desc.slice_first_y = Desc.slice_first_z = 0; // 1-D slices
      std::vector<void *> Params(L.Args.begin(), L.Args.end());
      Params.resize(P.NumParams);
      Params.push_back(&Desc);
      const dim3 &Block = L.Shape.Block;
      for (unsigned First = R.FirstCta, End = R.FirstCta + R.Ctas; First < End;
           First += std::min(R.SliceCtas, End - First)) {
        Desc.slice_offset = First;
        unsigned Count = std::min(R.SliceCtas, End - First);
        CUresult Result = Api.LaunchKernel(
            P.Function, Count, 1, 1, Block.x, Block.y, Block.z,
            unsigned(L.Shape.SharedMem), reinterpret_cast<CUstream>(Lane),
            Params.data(), nullptr);
        if (Result != CUDA_SUCCESS) {
          Error = "launching " + Which + "'s slice at CTA " +
                  std::to_string(First) + " failed with " +
                  driver::resultText(Result);
          return false;
        }
      }
    }
    if (LastRun[R.Launch] == I) {
      if (cudaError_t Err = Res.event(Done[R.Launch]))
        return Fail("creating an event", Err);
      if (cudaError_t Err = cudaEventRecord(Done[R.Launch], Lane))
        return Fail("recording the end of " + Which, Err);
    }
  }
  for (const auto &[Stream, Last] : LastOfStream) {
    if (cudaError_t Err = cudaStreamWaitEvent(Stream, Done[Last], 0))
      return Fail("making a stream wait for the batch", Err);
    if (Timing && Timing->Turnaround) {
      cudaEvent_t &E = Timing->StreamEnd.emplace_back();
      if (cudaError_t Err = cudaEventCreate(&E))
        return Fail("creating a timing event", Err);
      if (cudaError_t Err = cudaEventRecord(E, Stream))
        return Fail("recording a stream's end", Err);
    }
  }
  if (Timing)
    for (unsigned Lane : {0u, 1u})
      if (cudaError_t Err = cudaEventRecord(Timing->End[Lane], Res.Lanes[Lane]))
        return Fail("recording the batch's end", Err);
  return true;
}

// Mode::Search: one layout search per set of launches (their profile
// names, in order, and streams), for the process.
struct SearchState {
  std::mutex Mutex;
  std::map<std::string, std::unique_ptr<kernelet::LayoutSearch>> Searches;
  std::map<std::string, BatchTiming> Pending; // the last timed run's events
};

SearchState &searchState() {
  static SearchState *S = new SearchState;
  return *S;
}

// The device model of the current device, its latencies fitted to the
// measured IPCs of `Samples` (cached per set of samples: a fit solves the
// model many times).
kernelet::DeviceModel deviceModel(const DeviceState &Dev,
                                  const std::vector<kernelet::IpcSample> &S) {
  static std::mutex Mutex;
  static std::map<std::string, kernelet::DeviceModel> Fitted;
  kernelet::DeviceModel Model;
  Model.NumSms = Dev.NumSMs;
  int Threads = 0;
  if (cudaDeviceGetAttribute(&Threads, cudaDevAttrMaxThreadsPerMultiProcessor,
                             Dev.Ordinal) == cudaSuccess &&
      Threads >= 32)
    Model.MaxWarpsPerSm = unsigned(Threads) / 32;
  else
    cudaGetLastError();
  std::ostringstream Key;
  Key << Dev.Ordinal << ':' << Model.MaxWarpsPerSm;
  for (const kernelet::IpcSample &Sample : S)
    Key << ';' << Sample.MemRatio << ',' << Sample.WarpsPerScheduler << ','
        << Sample.MeasuredIpc;
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = Fitted.find(Key.str());
  if (It == Fitted.end())
    It = Fitted.emplace(Key.str(), kernelet::calibrate(Model, S)).first;
  return It->second;
}

} // namespace

bool batchRecording() { return TlRecording != nullptr; }

cudaError_t recordIntoBatch(const LaunchRequest &Req) {
  Batch::Impl &B = *TlRecording;
  RecordedLaunch L;
  L.Func = Req.Func;
  L.Shape = Req.Shape;
  L.Stream = Req.effectiveStream();
  std::string Error;
  if (cudaError_t Err = cudaGetDevice(&L.Device)) {
    tell("smc::Batch: cannot record a launch: " + failed("cudaGetDevice", Err));
    return Err;
  }
  const driver::Api *Api = driver::api(&Error);
  if (!Api) {
    tell("smc::Batch: cannot record launches without the CUDA driver API (" +
         Error + ")");
    return cudaErrorNotSupported;
  }
  Globals &G = globals();
  std::lock_guard<std::mutex> Lock(G.Mutex);
  RelaxedCaptureMode Relaxed;
  DeviceState *Dev = deviceState(L.Device);
  L.State = Dev;
  L.Kernel = Dev ? kernelEntry(Req.Func, *Dev, *Api) : nullptr;
  if (!L.Kernel) {
    tell("smc::Batch: a launch of a function the runtime does not know as a "
         "kernel was not recorded");
    return cudaErrorInvalidDeviceFunction;
  }
  if (!copyLaunchArgs(*L.Kernel, *Api, Req, L, Error)) {
    tellKernel(*L.Kernel, "smc::Batch: not recorded: " + Error);
    return cudaErrorInvalidValue;
  }
  B.Launches.push_back(std::move(L));
  return cudaSuccess;
}

namespace {

// Records a memset or device-to-device copy on Stream (null: the thread's
// default stream, per-thread with Ptsz) into this thread's batch.
cudaError_t recordOp(RecordedLaunch L, cudaStream_t Stream, bool Ptsz) {
  L.Stream = Stream ? Stream : Ptsz ? cudaStreamPerThread : cudaStreamLegacy;
  if (cudaError_t Err = cudaGetDevice(&L.Device)) {
    tell("smc::Batch: cannot record a memset or copy: " +
         failed("cudaGetDevice", Err));
    return Err;
  }
  {
    std::lock_guard<std::mutex> Lock(globals().Mutex);
    L.State = deviceState(L.Device);
  }
  if (!L.State)
    return cudaErrorNoDevice;
  TlRecording->Launches.push_back(std::move(L));
  return cudaSuccess;
}

cudaError_t memsetEntry(void *Dst, int Value, size_t Bytes, cudaStream_t Stream,
                        bool Ptsz) {
  if (!batchRecording())
    return Ptsz ? cudaMemsetAsync_ptsz(Dst, Value, Bytes, Stream)
                : cudaMemsetAsync(Dst, Value, Bytes, Stream);
  RecordedLaunch L;
  L.Kind = OpKind::Memset;
  L.Dst = Dst;
  L.Value = Value;
  L.Bytes = Bytes;
  return recordOp(std::move(L), Stream, Ptsz);
}

// Whether Ptr is memory the device can address (device or managed).
bool onDevice(const void *Ptr) {
  cudaPointerAttributes Attributes;
  if (cudaPointerGetAttributes(&Attributes, Ptr) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return Attributes.type == cudaMemoryTypeDevice ||
         Attributes.type == cudaMemoryTypeManaged;
}

cudaError_t memcpyEntry(void *Dst, const void *Src, size_t Bytes,
                        cudaMemcpyKind Kind, cudaStream_t Stream, bool Ptsz) {
  if (!batchRecording())
    return Ptsz ? cudaMemcpyAsync_ptsz(Dst, Src, Bytes, Kind, Stream)
                : cudaMemcpyAsync(Dst, Src, Bytes, Kind, Stream);
  // A copy to the host would read results before the recorded kernels
  // run, and a copy from the host would read the host buffer only at
  // run(): neither is what the program asked for.
  bool DeviceToDevice =
      Kind == cudaMemcpyDeviceToDevice ||
      (Kind == cudaMemcpyDefault && onDevice(Dst) && onDevice(Src));
  if (!DeviceToDevice) {
    tell("smc::Batch: a copy to or from host memory while recording was "
         "refused (cudaErrorNotPermitted): it would run before the "
         "recorded kernels, or after the host changed its buffer; make it "
         "before begin() or after run() (a library call that reads a result "
         "back, such as thrust::reduce, cannot be recorded)");
    return cudaErrorNotPermitted;
  }
  RecordedLaunch L;
  L.Kind = OpKind::Copy;
  L.Dst = Dst;
  L.Src = Src;
  L.Bytes = Bytes;
  return recordOp(std::move(L), Stream, Ptsz);
}

} // namespace

Batch::Batch() : impl(std::make_unique<Impl>()) {}

Batch::~Batch() {
  if (TlRecording == impl.get())
    TlRecording = nullptr;
}

bool Batch::begin(std::string *Error) {
  if (TlRecording) {
    if (Error)
      *Error = "smc::Batch::begin: this thread records into a batch already";
    return false;
  }
  TlRecording = impl.get();
  impl->Recording = true;
  return true;
}

void Batch::end() {
  if (TlRecording == impl.get())
    TlRecording = nullptr;
  impl->Recording = false;
}

unsigned Batch::size() const { return unsigned(impl->Launches.size()); }

void Batch::setObjective(Objective O) { impl->Objective = O; }

const std::vector<Batch::SliceRun> &Batch::lastRuns() const {
  return impl->LastRuns;
}

double Batch::lastPredictedSeconds() const { return impl->LastPredicted; }

std::string Batch::describe() const {
  std::ostringstream Out;
  for (const SliceRun &R : impl->LastRuns) {
    Out << "launch " << R.launch;
    if (R.launch < impl->LaunchNames.size())
      Out << " (" << impl->LaunchNames[R.launch] << ")";
    Out << " lane " << R.lane << " CTAs " << ctaRange(R.firstCta, R.ctas);
    if (R.workersPerSm && R.smCount)
      Out << " as " << R.workersPerSm << " workers per SM on SMs " << R.smFirst
          << "-" << R.smFirst + R.smCount - 1;
    else if (R.workersPerSm)
      Out << " as " << R.workersPerSm << " workers per SM";
    else if (R.sliceCtas < R.ctas)
      Out << " in slices of " << R.sliceCtas;
    Out << "\n";
  }
  if (impl->LastPredicted > 0)
    Out << "predicted " << impl->LastPredicted * 1e3 << " ms\n";
  for (const std::string &Note : impl->LastNotes)
    Out << Note << "\n";
  return Out.str();
}

namespace {

// What run() needs of each recorded launch on the GPU: its prepared
// __slice configuration (null where the launch can only run whole) and
// what the model knows of it.
struct Facts {
  std::vector<Prepared *> Slices;
  std::vector<kernelet::PendingLaunch> Pending;
  std::vector<kernelet::IpcSample> Samples;
  DeviceState *Device = nullptr;
};

bool gatherFacts(const std::vector<RecordedLaunch> &Launches, Facts &F,
                 std::string &Error) {
  const driver::Api *Api = driver::api(&Error);
  if (!Api)
    return false;
  ProfileSet Profiles = loadedProfiles();
  std::map<cudaStream_t, unsigned> StreamIndex;
  for (size_t I = 0; I < Launches.size(); ++I) {
    const RecordedLaunch &L = Launches[I];
    if (L.Device != Launches[0].Device) {
      Error = "a batch runs on one device; launch " + std::to_string(I) +
              " was recorded on another";
      return false;
    }
    if (L.ctas() > UINT32_MAX) {
      Error = "launch " + std::to_string(I) + " has more than 2^32-1 CTAs";
      return false;
    }
    kernelet::PendingLaunch Pending;
    kernelet::KernelTraits &T = Pending.Traits;
    auto Index = StreamIndex.emplace(L.Stream, unsigned(StreamIndex.size()));
    Pending.Stream = Index.first->second;
    F.Device = L.State;
    if (L.Kind != OpKind::Launch) {
      // A memset or copy: one unit, whole, that the model does not know.
      T.Name = L.Kind == OpKind::Memset ? "cudaMemsetAsync" : "cudaMemcpyAsync";
      T.Ctas = 1;
      Pending.Sliceable = Pending.Known = Pending.Workers = false;
      F.Slices.push_back(nullptr);
      F.Pending.push_back(std::move(Pending));
      continue;
    }
    const dim3 &Gr = L.Shape.Grid, &Bl = L.Shape.Block;
    const unsigned Grid[3] = {Gr.x, Gr.y, Gr.z}, Block[3] = {Bl.x, Bl.y, Bl.z};
    T.Name = profileName(L.Kernel->Source, Grid, Block);
    T.Ctas = unsigned(L.ctas());
    T.WarpsPerCta = unsigned((uint64_t(Bl.x) * Bl.y * Bl.z + 31) / 32);
    uint32_t SlicePolicy = 0, WorkersPolicy = 0;
    {
      std::lock_guard<std::mutex> Lock(globals().Mutex);
      Occupancy Occ;
      if (occupancy(*L.Kernel, Bl, L.Shape.SharedMem, *Api, Occ)) {
        T.CtasPerSm = unsigned(Occ.Original);
        Pending.WorkersPerSmFit = unsigned(std::max(Occ.Variant, 0));
      }
      SlicePolicy = policyIdFor(Policy::slice(0));
      WorkersPolicy = policyIdFor(
          Policy::smCentric(std::max(1u, (workersPerSmFit(Pending) + 1) / 2)));
    }
    // The __slice variant, and the SM-centric one as workers (loop mode),
    // each under the policy the batch runs it with.
    auto Usable = [&](uint32_t PolicyId, Variant Want) -> Prepared * {
      if (smcDisabled())
        return nullptr;
      LaunchRequest Req = L.request(L.Stream);
      Req.ForcedPolicyId = PolicyId;
      Prepared *P = prepare(Req, L.Device);
      bool Ok = P && P->Variant == Want &&
                !P->VariantFailed.load(std::memory_order_relaxed) &&
                P->NumParams == L.Args.size() &&
                (Want != Variant::SMCentric || P->Plan.Mode == SMC_MODE_LOOP);
      return Ok ? P : nullptr;
    };
    Prepared *Slices = Usable(SlicePolicy, Variant::Slice);
    bool Sliceable = Slices != nullptr;
    Pending.Sliceable = Sliceable;
    Pending.Workers = Usable(WorkersPolicy, Variant::SMCentric) != nullptr;
    F.Slices.push_back(Slices);

    const KernelProfile *Profile = Profiles.find(T.Name);
    const std::optional<IssueProfile> *Issue =
        Profile ? &Profile->issue() : nullptr;
    Pending.Known = Issue && *Issue && T.CtasPerSm > 0;
    if (Pending.Known) {
      T.MemRatio = (*Issue)->MemRatio;
      T.AloneSeconds = (*Issue)->Seconds;
      unsigned Warps = T.CtasPerSm * T.WarpsPerCta;
      if ((*Issue)->Ipc > 0)
        F.Samples.push_back(
            {T.MemRatio, std::max(1u, (Warps + 2) / 4), (*Issue)->Ipc});
    } else if (Sliceable) {
      tellKernel(*L.Kernel, "smc::Batch: no \"issue\" profile for '" + T.Name +
                                "' (scripts/smc-profile --ncu records one): "
                                "its launches are not sliced (Search runs "
                                "them whole or as workers, Kernelet whole "
                                "and alone)");
    }
    if (!Sliceable && !smcDisabled())
      tellKernel(*L.Kernel, "smc::Batch: no usable __slice variant (see the "
                            "kernel's remarks); its launches run whole");
    F.Pending.push_back(std::move(Pending));
  }
  return true;
}

bool anyCapturing(const std::vector<RecordedLaunch> &Launches) {
  for (const RecordedLaunch &L : Launches) {
    cudaStreamCaptureStatus Status = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(L.Stream, &Status) != cudaSuccess) {
      cudaGetLastError();
      return true;
    }
    if (Status != cudaStreamCaptureStatusNone)
      return true;
  }
  return false;
}

std::vector<Batch::SliceRun>
publicRuns(const std::vector<kernelet::SliceRun> &Runs) {
  std::vector<Batch::SliceRun> Out;
  for (const kernelet::SliceRun &R : Runs)
    Out.push_back({R.Launch, R.Lane, R.FirstCta, R.Ctas, R.SliceCtas,
                   R.WorkersPerSm, R.SmFirst, R.SmCount});
  return Out;
}

// A plan of the caller's: the lanes wait only for stream order.
std::vector<kernelet::SliceRun>
modelRuns(const std::vector<Batch::SliceRun> &Runs) {
  std::vector<kernelet::SliceRun> Out;
  for (const Batch::SliceRun &R : Runs)
    Out.push_back({R.launch, R.lane, R.firstCta, R.ctas, R.sliceCtas, false,
                   R.workersPerSm, R.smFirst, R.smCount});
  return Out;
}

// Whether Runs is a plan the executor can run for the launches F
// describes: kernelet::checkSchedule (every CTA once, one lane per launch,
// whole where a launch cannot be sliced, workers only for a whole launch
// that has them, SM ranges only for workers and on the device's SMs, each
// stream's launches in order).
bool validPlan(const Facts &F, const std::vector<kernelet::SliceRun> &Runs,
               std::string &Error) {
  kernelet::Schedule Plan;
  Plan.Runs = Runs;
  return kernelet::checkSchedule(F.Pending, Plan, &Error,
                                 F.Device ? unsigned(F.Device->NumSMs) : 0);
}

std::vector<std::string> launchNames(const Facts &F) {
  std::vector<std::string> Names;
  for (const kernelet::PendingLaunch &P : F.Pending)
    Names.push_back(P.Traits.Name);
  return Names;
}

// run()'s failure: false, with *Error (if given) saying What.
bool refuseRun(std::string *Error, const std::string &What) {
  if (Error)
    *Error = "smc::Batch::run: " + What;
  return false;
}

} // namespace

bool Batch::run(Mode RunMode, std::string *Error) {
  Impl &B = *impl;
  std::string Message;
  auto Fail = [&](const std::string &What) { return refuseRun(Error, What); };
  if (B.Recording)
    return Fail("end() the recording first");
  std::vector<RecordedLaunch> Launches = std::move(B.Launches);
  B.Launches.clear();
  B.LastRuns.clear();
  B.LastNotes.clear();
  B.LastPredicted = 0;
  if (Launches.empty())
    return true;

  if (RunMode == Mode::Streams || smcDisabled() || anyCapturing(Launches)) {
    if (RunMode != Mode::Streams)
      tell("smc::Batch: a stream of the batch is being captured (or SMC is "
           "disabled): its launches run as the program made them");
    for (size_t I = 0; I < Launches.size(); ++I)
      if (cudaError_t Err = Launches[I].replay(Launches[I].Stream))
        return Fail("launch " + std::to_string(I) + ": " +
                    failed("launching", Err));
    return true;
  }

  Facts F;
  if (!gatherFacts(Launches, F, Message))
    return Fail(Message);
  B.LaunchNames = launchNames(F);
  kernelet::Schedule Plan;
  SearchState &Searches = searchState();
  std::unique_lock<std::mutex> SearchLock(Searches.Mutex, std::defer_lock);
  std::string Key;
  BatchTiming *Timing = nullptr;
  if (RunMode == Mode::Serial) {
    Plan = kernelet::planSerial(F.Pending);
  } else if (RunMode == Mode::Search) {
    SearchLock.lock();
    unsigned Streams = 0;
    bool Turnaround = B.Objective == Objective::Turnaround;
    if (Turnaround)
      Key = "turnaround;";
    for (const kernelet::PendingLaunch &P : F.Pending) {
      Key += P.Traits.Name + "@" + std::to_string(P.Stream) + ";";
      Streams = std::max(Streams, P.Stream + 1);
    }
    std::unique_ptr<kernelet::LayoutSearch> &Search = Searches.Searches[Key];
    if (!Search)
      Search = std::make_unique<kernelet::LayoutSearch>(
          kernelet::streamsLayout(Streams));
    // The last timed run of these launches, if it has ended, is the
    // measurement of the layout it ran; while it runs, this run is not
    // timed.
    bool Timed = true;
    auto Last = Searches.Pending.find(Key);
    if (Last != Searches.Pending.end()) {
      double Seconds = Last->second.seconds();
      Timed = Seconds != 0;
      if (Timed) {
        Search->measured(Seconds);
        Last->second.release();
        Searches.Pending.erase(Last);
      }
    }
    const kernelet::Layout &Layout = Search->next();
    Plan.Runs = kernelet::layoutRuns(deviceModel(*F.Device, F.Samples),
                                     F.Pending, Layout);
    B.LastNotes = {"layout " + Layout.text() + ", " +
                   (Search->settled() ? "the fastest of " : "trial after ") +
                   std::to_string(Search->trials()) + " measured" +
                   (Turnaround ? " (sum of the streams' turnaround)" : "")};
    if (Timed && !Search->settled()) {
      Timing = &Searches.Pending[Key];
      Timing->Turnaround = Turnaround;
    }
  } else {
    kernelet::DeviceModel Model = deviceModel(*F.Device, F.Samples);
    Plan = kernelet::planGreedy(Model, F.Pending);
    B.LastPredicted = Plan.PredictedSeconds;
    B.LastNotes = Plan.Notes;
  }
  if (!validPlan(F, Plan.Runs, Message))
    return Fail("the scheduler's plan is not valid (" + Message + ")");
  B.LastRuns = publicRuns(Plan.Runs);
  if (!enqueueRuns(Launches, F.Slices, Plan.Runs, Message, Timing)) {
    if (Timing) {
      Timing->release();
      Searches.Pending.erase(Key);
    }
    return Fail(Message);
  }
  return true;
}

void Batch::forgetSearches() {
  SearchState &Searches = searchState();
  std::lock_guard<std::mutex> Lock(Searches.Mutex);
  for (auto &[Key, Timing] : Searches.Pending)
    Timing.release(); // events of a run in flight are freed when it ends
  Searches.Pending.clear();
  Searches.Searches.clear();
}

std::vector<Batch::Layout> Batch::balancedLayouts(unsigned Streams,
                                                  unsigned Splits) {
  std::vector<Layout> Out;
  for (const kernelet::Layout &L : kernelet::balancedLayouts(Streams, Splits))
    Out.push_back({{L.Lanes[0], L.Lanes[1]}, L.Splits});
  return Out;
}

std::vector<Batch::Layout>
Batch::balancedLayouts(unsigned Streams, const std::vector<Split> &Splits) {
  std::vector<Layout> Out;
  for (const kernelet::Layout &L : kernelet::balancedLayouts(Streams, Splits))
    Out.push_back({{L.Lanes[0], L.Lanes[1]}, L.Splits});
  return Out;
}

std::vector<Batch::SliceRun> Batch::layoutRuns(const Layout &L) const {
  Facts F;
  std::string Unused;
  kernelet::Layout Model{{L.lanes[0], L.lanes[1]}, L.splits};
  if (impl->Launches.empty() || !gatherFacts(impl->Launches, F, Unused))
    return {};
  unsigned Streams = 0;
  for (const kernelet::PendingLaunch &P : F.Pending)
    Streams = std::max(Streams, P.Stream + 1);
  if (!kernelet::validLayout(Model, Streams))
    return {};
  return publicRuns(kernelet::layoutRuns(deviceModel(*F.Device, F.Samples),
                                         F.Pending, Model));
}

std::vector<Batch::LaunchInfo> Batch::launches() const {
  std::vector<LaunchInfo> Out;
  Facts F;
  std::string Unused;
  if (impl->Launches.empty() || !gatherFacts(impl->Launches, F, Unused))
    return Out;
  kernelet::DeviceModel Model = deviceModel(*F.Device, F.Samples);
  for (const kernelet::PendingLaunch &P : F.Pending)
    Out.push_back({P.Traits.Name, P.Traits.Ctas, P.Traits.CtasPerSm,
                   P.Known ? kernelet::minSliceCtas(Model, P.Traits) : 1,
                   P.Stream, P.Sliceable, P.Known, P.Workers});
  return Out;
}

double Batch::predictSeconds(const std::vector<SliceRun> &Runs) const {
  Facts F;
  std::string Unused;
  kernelet::Schedule Plan;
  Plan.Runs = modelRuns(Runs);
  if (impl->Launches.empty() || !gatherFacts(impl->Launches, F, Unused) ||
      !validPlan(F, Plan.Runs, Unused))
    return 0;
  for (const kernelet::PendingLaunch &P : F.Pending)
    if (!P.Known)
      return 0;
  return kernelet::predictSeconds(deviceModel(*F.Device, F.Samples), F.Pending,
                                  Plan);
}

bool Batch::run(const std::vector<SliceRun> &Runs, std::string *Error) {
  Impl &B = *impl;
  std::string Message;
  auto Fail = [&](const std::string &What) { return refuseRun(Error, What); };
  if (B.Recording)
    return Fail("end() the recording first");
  Facts F;
  if (!B.Launches.empty() && !gatherFacts(B.Launches, F, Message))
    return Fail(Message);
  std::vector<kernelet::SliceRun> Plan = modelRuns(Runs);
  if (!validPlan(F, Plan, Message))
    return Fail(Message);
  std::vector<RecordedLaunch> Launches = std::move(B.Launches);
  B.Launches.clear();
  B.LastRuns = Runs;
  B.LastNotes.clear();
  B.LastPredicted = 0;
  B.LaunchNames = launchNames(F);
  if (Launches.empty())
    return true;
  if (!enqueueRuns(Launches, F.Slices, Plan, Message))
    return Fail(Message);
  return true;
}

} // namespace smc

extern "C" cudaError_t __smc_memset_async(void *DevPtr, int Value, size_t Count,
                                          cudaStream_t Stream) {
  return smc::memsetEntry(DevPtr, Value, Count, Stream, /*Ptsz=*/false);
}

extern "C" cudaError_t __smc_memset_async_ptsz(void *DevPtr, int Value,
                                               size_t Count,
                                               cudaStream_t Stream) {
  return smc::memsetEntry(DevPtr, Value, Count, Stream, /*Ptsz=*/true);
}

extern "C" cudaError_t __smc_memcpy_async(void *Dst, const void *Src,
                                          size_t Count, cudaMemcpyKind Kind,
                                          cudaStream_t Stream) {
  return smc::memcpyEntry(Dst, Src, Count, Kind, Stream, /*Ptsz=*/false);
}

extern "C" cudaError_t __smc_memcpy_async_ptsz(void *Dst, const void *Src,
                                               size_t Count,
                                               cudaMemcpyKind Kind,
                                               cudaStream_t Stream) {
  return smc::memcpyEntry(Dst, Src, Count, Kind, Stream, /*Ptsz=*/true);
}
