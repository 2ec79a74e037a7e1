//===- KernelNameTest.cpp - Tests of kernel source names ------------------===//
//
// Mangled kernel names turn into the names users write in -smc-kernels and
// policies: no parameter list, no return type, templates and nested names
// intact.  The plugin and the runtime share this one function.
//===----------------------------------------------------------------------===//
#include "base/KernelName.h"

#include <gtest/gtest.h>

using namespace smc;

TEST(KernelName, PlainFunction) {
  EXPECT_EQ(kernelSourceName("_Z6vecAddPKfS0_Pfi"), "vecAdd");
}

TEST(KernelName, TemplateDropsReturnType) {
  EXPECT_EQ(kernelSourceName("_ZN2ns5scaleIfEEvPT_i"), "ns::scale<float>");
  EXPECT_EQ(kernelSourceName("_ZN2ns2k2IjLi3EEEvT_"),
            "ns::k2<unsigned int, 3>");
  EXPECT_EQ(kernelSourceName("_Z6nestedIiEv1VIS0_IT_EE"), "nested<int>");
  EXPECT_EQ(kernelSourceName("_Z2bkILb1EEvPFiiE"), "bk<true>");
}

TEST(KernelName, AnonymousNamespaceAndLambdas) {
  EXPECT_EQ(kernelSourceName("_ZN12_GLOBAL__N_14anonEi"),
            "(anonymous namespace)::anon");
  EXPECT_EQ(kernelSourceName("_ZN12_GLOBAL__N_15anonTIN2ns1SEEEvT_"),
            "(anonymous namespace)::anonT<ns::S>");
  EXPECT_EQ(kernelSourceName("_Z3lamIZ3usevE3$_0EvT_"), "lam<use()::$_0>");
}

TEST(KernelName, UnmangledNamesUnchanged) {
  EXPECT_EQ(kernelSourceName("vecAddC"), "vecAddC");
  EXPECT_EQ(kernelSourceName("my_kernel_v2"), "my_kernel_v2");
  // Not a valid mangling: left as it is.
  EXPECT_EQ(kernelSourceName("_Zgarbage"), "_Zgarbage");
}

// The signature goes, nested types, operator names and template arguments
// stay.  Each name below is the mangling of the demangled text in its
// comment; the expected names are spelled as LLVM's demangler spells them.
TEST(KernelName, SignatureWithNestedTypes) {
  // void f<int (*)(int)>(int (*)(int), float)
  EXPECT_EQ(kernelSourceName("_Z1fIPFiiEEvT_f"), "f<int (*)(int)>");
  // k(void (*)(int, V<int>), int)
  EXPECT_EQ(kernelSourceName("_Z1kPFvi1VIiEEi"), "k");
  // void (anonymous namespace)::k<use()::'lambda'(int)>(...)
  EXPECT_EQ(kernelSourceName("_ZN12_GLOBAL__N_11kIZ3usevEUliE_EEvT_"),
            "(anonymous namespace)::k<use()::'lambda'(int)>");
  // void k<1 < 2>(int): '<' in a template argument expression
  EXPECT_EQ(kernelSourceName("_Z1kIXltLi1ELi2EEEvi"), "k<1 < 2>");
  // void k<V<V<int> > >(V<V<int> >)
  EXPECT_EQ(normalizeKernelName(kernelSourceName("_Z1kI1VIS0_IiEEEvT_")),
            normalizeKernelName("k<V<V<int> > >"));
}

TEST(KernelName, OperatorNames) {
  // ns::Op::operator()(int)
  EXPECT_EQ(kernelSourceName("_ZN2ns2OpclEi"), "ns::Op::operator()");
  // void k<&Op::operator()(int)>(int)
  EXPECT_EQ(kernelSourceName("_Z1kITnDaXadL_ZN2OpclEiEEEvi"),
            "k<&Op::operator()(int)>");
  // void k<&Op::operator<(Op const&) const>(int)
  EXPECT_EQ(kernelSourceName("_Z1kITnDaXadL_ZNK2OpltERKS0_EEEvi"),
            "k<&Op::operator<(Op const&) const>");
  // operator new[](unsigned long)
  EXPECT_EQ(kernelSourceName("_Znam"), "operator new[]");
  // bool ns::operator<=<int>(int, int)
  EXPECT_EQ(kernelSourceName("_ZN2nsleIiEEbii"), "ns::operator<=<int>");
}

TEST(KernelName, SourceNamesUnchanged) {
  EXPECT_EQ(kernelSourceName("vecAdd"), "vecAdd");
  EXPECT_EQ(kernelSourceName("ns::scale<float>"), "ns::scale<float>");
}

TEST(KernelName, Normalize) {
  EXPECT_EQ(normalizeKernelName("V<V<int> >"), "V<V<int>>");
  EXPECT_EQ(normalizeKernelName(" ns::k2< unsigned   int , 3 > "),
            "ns::k2<unsigned int,3>");
  EXPECT_EQ(normalizeKernelName("(anonymous namespace)::k"),
            "(anonymous namespace)::k");
  EXPECT_EQ(normalizeKernelName("vecAdd"), "vecAdd");
}
