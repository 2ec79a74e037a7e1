//===- Kernels.cpp - Kernels, their variants and occupancy ----------------===//
//
// The kernel table (by host symbol and device) and what each entry finds
// once; see Kernels.h.  Every table here is guarded by the registry lock.
//===----------------------------------------------------------------------===//
#include "core/Kernels.h"

#include "base/Cuda.h"
#include "base/Forever.h"
#include "base/KernelName.h"
#include "base/Messages.h"
#include "core/Devices.h"
#include "core/Prepared.h"
#include "policy/Policies.h"

#include <climits>
#include <cstdio>

namespace smc {
namespace {

// Dynamic shared memory above this needs the kernel's max dynamic shared
// size attribute raised.
constexpr size_t DefaultSharedLimit = 48 * 1024;

struct Kernels {
  std::map<std::pair<const void *, int>, std::unique_ptr<KernelEntry>> Entries;
  // __smc variants by CUfunction, for finding their graph nodes.
  std::map<CUfunction, KernelEntry *> SmcVariants;
  // Originals by CUfunction, for reading graph nodes (graphs/).
  std::map<CUfunction, KernelEntry *> Originals;
  // Entries of devices that were reset: kept, as other threads' caches may
  // still point into them (they are never used again).
  std::vector<std::unique_ptr<KernelEntry>> Retired;
};

// Reads <kernel>__smc_info and looks up the variants it promises.
void findVariants(KernelEntry &K, const driver::Api &Api) {
  CUmodule Module = nullptr;
  CUresult R = Api.FuncGetModule(&Module, K.Original);
  if (R != CUDA_SUCCESS) {
    K.InfoProblem = "cannot find the kernel's module: " + driver::resultText(R);
    return;
  }
  CUdeviceptr InfoAddress = 0;
  size_t InfoBytes = 0;
  std::string InfoName = K.Mangled + SMC_SUFFIX_INFO;
  R = Api.ModuleGetGlobal(&InfoAddress, &InfoBytes, Module, InfoName.c_str());
  if (R == CUDA_ERROR_NOT_FOUND) {
    K.InfoProblem = "no " + InfoName +
                    " record (the kernel was not compiled with the SMC "
                    "plugin, or the plugin did not select it)";
    return;
  }
  if (R != CUDA_SUCCESS) {
    K.InfoProblem = "cannot read " + InfoName + ": " + driver::resultText(R);
    return;
  }
  if (InfoBytes < sizeof(SmcKernelInfo)) {
    K.InfoProblem = InfoName + " has " + std::to_string(InfoBytes) +
                    " bytes, not " + std::to_string(sizeof(SmcKernelInfo));
    return;
  }
  cudaError_t Err = cudaMemcpyAsync(
      &K.Info, reinterpret_cast<void *>(InfoAddress), sizeof(SmcKernelInfo),
      cudaMemcpyDeviceToHost, K.Device->Stream);
  if (Err == cudaSuccess)
    Err = cudaStreamSynchronize(K.Device->Stream);
  if (Err != cudaSuccess) {
    K.InfoProblem =
        "cannot read " + InfoName + ": " + failed("cudaMemcpyAsync", Err);
    return;
  }
  if (K.Info.abi_version != SMC_ABI_VERSION) {
    K.InfoProblem = "SMC ABI version mismatch: the kernel was built for "
                    "version " +
                    std::to_string(K.Info.abi_version) +
                    ", this runtime is version " +
                    std::to_string(SMC_ABI_VERSION);
    return;
  }
  auto LookUp = [&](uint32_t Flag, const char *Suffix, CUfunction &Fn,
                    std::string &Problem) {
    if (!(K.Info.flags & Flag))
      return;
    std::string Name = K.Mangled + Suffix;
    CUresult Res = Api.ModuleGetFunction(&Fn, Module, Name.c_str());
    if (Res != CUDA_SUCCESS) {
      Fn = nullptr;
      Problem = "cannot find " + Name +
                " in the kernel's module: " + driver::resultText(Res);
    }
  };
  LookUp(SMC_INFO_HAS_SMC, SMC_SUFFIX_SMC, K.Smc, K.SmcProblem);
  LookUp(SMC_INFO_HAS_SLICE, SMC_SUFFIX_SLICE, K.Slice, K.SliceProblem);
  LookUp(SMC_INFO_HAS_REMAP, SMC_SUFFIX_REMAP, K.Remap, K.RemapProblem);
  LookUp(SMC_INFO_HAS_REMAP, SMC_SUFFIX_REMAP_KEYS, K.RemapKeys,
         K.RemapProblem);
}

} // namespace

const Policy &kernelPolicy(const KernelEntry &K) {
  return policyById(policyIdOf(K.Symbol, K.Source, K.Mangled));
}

void tellKernel(const KernelEntry &K, const std::string &What) {
  tell("kernel '" + K.Source + "': " + What);
}

KernelEntry *kernelEntry(const void *Symbol, DeviceState &Dev,
                         const driver::Api &Api) {
  Kernels &G = forever<Kernels>();
  std::unique_ptr<KernelEntry> &Slot = G.Entries[{Symbol, Dev.Ordinal}];
  if (Slot)
    return Slot.get();

  cudaFunction_t Function = nullptr;
  cudaError_t Err = cudaGetFuncBySymbol(&Function, Symbol);
  if (Err != cudaSuccess || !Function) {
    if (Err != cudaSuccess)
      cudaGetLastError();
    G.Entries.erase({Symbol, Dev.Ordinal});
    return nullptr;
  }
  auto K = std::make_unique<KernelEntry>();
  K->Symbol = Symbol;
  K->Device = &Dev;
  K->Original = reinterpret_cast<CUfunction>(Function);
  const char *Name = nullptr;
  CUresult R = Api.FuncGetName(&Name, K->Original);
  if (R != CUDA_SUCCESS || !Name) {
    char Address[32];
    std::snprintf(Address, sizeof Address, "%p", Symbol);
    K->Mangled = K->Source = std::string("<kernel ") + Address + ">";
    K->InfoProblem = "cannot get the kernel's name: " + driver::resultText(R);
  } else {
    K->Mangled = Name;
    K->Source = kernelSourceName(K->Mangled);
    findVariants(*K, Api);
    if (K->Smc)
      G.SmcVariants[K->Smc] = K.get();
  }
  G.Originals[K->Original] = K.get();
  Slot = std::move(K);
  return Slot.get();
}

KernelEntry *kernelOfSmcVariant(CUfunction Variant) {
  auto It = forever<Kernels>().SmcVariants.find(Variant);
  return It == forever<Kernels>().SmcVariants.end() ? nullptr : It->second;
}

KernelEntry *kernelOfOriginal(CUfunction Original) {
  auto It = forever<Kernels>().Originals.find(Original);
  return It == forever<Kernels>().Originals.end() ? nullptr : It->second;
}

bool anySmcVariant() { return !forever<Kernels>().SmcVariants.empty(); }

void retireKernels(int Ordinal) {
  Kernels &G = forever<Kernels>();
  for (auto *Functions : {&G.SmcVariants, &G.Originals})
    for (auto It = Functions->begin(); It != Functions->end();) {
      if (It->second->Device->Ordinal == Ordinal)
        It = Functions->erase(It);
      else
        ++It;
    }
  for (auto It = G.Entries.begin(); It != G.Entries.end();) {
    if (It->first.second == Ordinal) {
      G.Retired.push_back(std::move(It->second));
      It = G.Entries.erase(It);
    } else {
      ++It;
    }
  }
}

bool matchAttributes(const KernelEntry &K, CUfunction Variant, size_t SharedMem,
                     const driver::Api &Api, std::string &Error) {
  cudaFuncAttributes Attrs;
  cudaError_t Err = cudaFuncGetAttributes(&Attrs, K.Symbol);
  if (Err != cudaSuccess) {
    Error = failed("cudaFuncGetAttributes", Err);
    return false;
  }
  if (SharedMem > DefaultSharedLimit) {
    CUresult R = Api.FuncSetAttribute(
        Variant, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        Attrs.maxDynamicSharedSizeBytes);
    if (R != CUDA_SUCCESS) {
      Error = "cannot give the variant " +
              std::to_string(Attrs.maxDynamicSharedSizeBytes) +
              " bytes of dynamic shared memory: " + driver::resultText(R);
      return false;
    }
  }
  if (Attrs.preferredShmemCarveout >= 0) {
    CUresult R = Api.FuncSetAttribute(
        Variant, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
        Attrs.preferredShmemCarveout);
    if (R != CUDA_SUCCESS) {
      Error = "cannot set the variant's shared memory carveout: " +
              driver::resultText(R);
      return false;
    }
  }
  return true;
}

bool paramSizes(CUfunction Function, uint32_t Count, const driver::Api &Api,
                std::vector<size_t> &Sizes, CUresult &Result) {
  Sizes.assign(Count, 0);
  for (uint32_t I = 0; I < Count; ++I) {
    size_t Offset = 0;
    Result = Api.FuncGetParamInfo(Function, I, &Offset, &Sizes[I]);
    if (Result != CUDA_SUCCESS)
      return false;
  }
  return true;
}

std::vector<std::vector<char>> copyArgs(void *const *Args,
                                        const std::vector<size_t> &Sizes) {
  std::vector<std::vector<char>> Values(Sizes.size());
  for (size_t I = 0; I < Sizes.size(); ++I) {
    const char *Value = static_cast<const char *>(Args[I]);
    Values[I].assign(Value, Value + Sizes[I]);
  }
  return Values;
}

bool occupancy(KernelEntry &K, dim3 Block, size_t SharedMem,
               const driver::Api &Api, Occupancy &Out) {
  uint64_t Threads = uint64_t(Block.x) * Block.y * Block.z;
  if (Threads == 0 || Threads > INT_MAX)
    return false;
  auto Key = std::make_pair(Threads, SharedMem);
  auto It = K.Occupancies.find(Key);
  if (It != K.Occupancies.end()) {
    Out = It->second;
    return true;
  }
  Occupancy Occ;
  if (Api.Occupancy(&Occ.Original, K.Original, int(Threads), SharedMem) !=
          CUDA_SUCCESS ||
      Api.Occupancy(&Occ.Variant, K.Smc, int(Threads), SharedMem) !=
          CUDA_SUCCESS)
    return false;
  K.Occupancies[Key] = Occ;
  Out = Occ;
  return true;
}

bool lockedOccupancy(KernelEntry &K, const LaunchShape &Shape, Occupancy &Out) {
  const driver::Api *Api = driver::api();
  if (!Api)
    return false;
  Guard Lock(registryMutex());
  return occupancy(K, Shape.Block, Shape.SharedMem, *Api, Out);
}

} // namespace smc
