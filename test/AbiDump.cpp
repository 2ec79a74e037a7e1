//===- AbiDump.cpp - Print the host side of the SMC ABI
//--------------------===//
//
// Prints one line per field of SmcDescriptor and SmcKernelInfo as compiled
// for the host: "<struct> <field> <offset> <size>", then each struct's size.
// test/passes/abi-layout.ll compares this with what the pass builds for
// nvptx64 (opt -passes=smc-print-abi): invariant 4, one ABI.
//
// USAGE: smc-abi-dump
//===----------------------------------------------------------------------===//
#include "smc/abi.h"

#include <cstddef>
#include <cstdio>

int main() {
#define SMC_DUMP_DESC(name)                                                    \
  std::printf("desc %s %zu %zu\n", #name, offsetof(SmcDescriptor, name),       \
              sizeof(SmcDescriptor::name));
  SMC_DESC_FIELDS(SMC_DUMP_DESC, SMC_DUMP_DESC)
#undef SMC_DUMP_DESC
  std::printf("desc-size %zu\n", sizeof(SmcDescriptor));
#define SMC_DUMP_INFO(name)                                                    \
  std::printf("info %s %zu %zu\n", #name, offsetof(SmcKernelInfo, name),       \
              sizeof(SmcKernelInfo::name));
  SMC_INFO_FIELDS(SMC_DUMP_INFO)
#undef SMC_DUMP_INFO
  std::printf("info-size %zu\n", sizeof(SmcKernelInfo));
  std::printf("abi-version %u\n", SMC_ABI_VERSION);
  return 0;
}
