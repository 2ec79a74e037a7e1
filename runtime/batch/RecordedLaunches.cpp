//===- RecordedLaunches.cpp - A batch's launches as recorded --------------===//
//
// Between Batch::begin() and end() the launch entry (LaunchEntry.cpp) hands
// this thread's launches to recordIntoBatch(), which keeps a copy of each
// (kernel, shape, stream, argument values), and the memset and copy entries
// record device-side memsets and copies in their place.  When the batch
// runs, gatherFacts() prepares each launch's __slice variant and collects
// what a plan needs to know of it, and launchRun() launches one slice run.
// Every call of this room into the rest of the runtime is in this file.
//===----------------------------------------------------------------------===//
#include "batch/RecordedLaunches.h"
#include "core/HostEntries.h"
#include "corun/AutoPolicy.h"

#include <map>

namespace smc {

cudaError_t RecordedLaunch::replay(cudaStream_t On) const {
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

LaunchRequest RecordedLaunch::request(cudaStream_t On) const {
  LaunchRequest Req;
  Req.Func = Func;
  Req.Shape = Shape;
  Req.Args = const_cast<void **>(Args.data());
  Req.Stream = On;
  return Req;
}

//===----------------------------------------------------------------------===//
// Recording
//===----------------------------------------------------------------------===//

namespace {

thread_local Batch::Impl *TlRecording = nullptr;

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

// Records a memset (Bytes bytes of Value at Dst) or a device-to-device
// copy (Bytes bytes from Src to Dst) on Stream (null: the thread's default
// stream, per-thread with Ptsz) into this thread's batch.
cudaError_t recordOp(OpKind Kind, void *Dst, const void *Src, size_t Bytes,
                     int Value, cudaStream_t Stream, bool Ptsz) {
  RecordedLaunch L;
  L.Kind = Kind;
  L.Dst = Dst;
  L.Src = Src;
  L.Bytes = Bytes;
  L.Value = Value;
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
  return recordOp(OpKind::Memset, Dst, nullptr, Bytes, Value, Stream, Ptsz);
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
  return recordOp(OpKind::Copy, Dst, Src, Bytes, 0, Stream, Ptsz);
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

//===----------------------------------------------------------------------===//
// What the runtime knows of the recorded launches
//===----------------------------------------------------------------------===//

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
    batch::PendingLaunch Pending;
    batch::KernelTraits &T = Pending.Traits;
    auto Index = StreamIndex.emplace(L.Stream, unsigned(StreamIndex.size()));
    Pending.Stream = Index.first->second;
    F.Plan.NumSms = unsigned(L.State->NumSMs);
    if (L.Kind != OpKind::Launch) {
      // A memset or copy: one unit, whole, without a profile.
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

    Pending.Known = batch::useIssueProfile(Profiles, T) != nullptr;
    if (!Pending.Known && Sliceable) {
      tellKernel(*L.Kernel, "smc::Batch: no \"issue\" profile for '" + T.Name +
                                "' (scripts/smc-profile --ncu records one): "
                                "its launches are not sliced (Search runs "
                                "them whole or as workers)");
    }
    if (!Sliceable && !smcDisabled())
      tellKernel(*L.Kernel, "smc::Batch: no usable __slice variant (see the "
                            "kernel's remarks); its launches run whole");
    F.Pending.push_back(std::move(Pending));
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Launching
//===----------------------------------------------------------------------===//

// The device's two lanes, made on first use: streams of their own, so that
// SM-centric runs on them keep one counter block each.  Lane 0 is one step
// above the least stream priority and lane 1 at the least, so that where
// both lanes have CTAs waiting for a place (a batch's start, a lane's next
// launch beside the other's) the hardware places lane 0's first.  With
// equal priorities the hardware chose which lane's kernel started first:
// one layout of bs+mm+mriq+pc took 4.44 or 5.8 ms from batch to batch
// (H100), by whether the whole-grid kernel filled the SMs before the other
// lane's workers came.  Now the layout decides it (LayoutSearch.h: the
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

namespace {

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

} // namespace

bool launchRun(const RecordedLaunch &L, const Prepared *Slice,
               const batch::SliceRun &R, cudaStream_t Lane,
               const std::string &Which, std::string &Error) {
  auto Fail = [&](const std::string &What, cudaError_t Err) {
    Error = failed(What.c_str(), Err);
    return false;
  };
  bool Whole = R.firstCta == 0 && R.ctas == L.ctas() && R.sliceCtas >= R.ctas;
  if (L.Kind != OpKind::Launch) {
    if (cudaError_t Err = L.replay(Lane))
      return Fail("running " + Which + " (a memset or copy)", Err);
    return true;
  }
  if (R.workersPerSm) {
    if (cudaError_t Err =
            launchWorkers(L, Lane, R.workersPerSm, R.smFirst, R.smCount))
      return Fail("launching " + Which, Err);
    return true;
  }
  if (Whole || !Slice) {
    if (cudaError_t Err = launchOriginal(L.request(Lane)))
      return Fail("launching " + Which, Err);
    return true;
  }
  const driver::Api &Api = *driver::api();
  const Prepared &P = *Slice;
  SmcDescriptor Desc = P.Desc;
  Desc.slice_first_y = Desc.slice_first_z = 0; // 1-D slices
  std::vector<void *> Params(L.Args.begin(), L.Args.end());
  Params.resize(P.NumParams);
  Params.push_back(&Desc);
  const dim3 &Block = L.Shape.Block;
  for (unsigned First = R.firstCta, End = R.firstCta + R.ctas; First < End;
       First += std::min(R.sliceCtas, End - First)) {
    Desc.slice_offset = First;
    unsigned Count = std::min(R.sliceCtas, End - First);
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
