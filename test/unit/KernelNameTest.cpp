//===- KernelNameTest.cpp - Tests of kernel source names ------------------===//
//
// Mangled kernel names turn into the names users write in policies: no
// parameter list, no return type, templates and nested names intact.
//===----------------------------------------------------------------------===//
#include "KernelName.h"

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

TEST(KernelName, StripNestedParameterTypes) {
  EXPECT_EQ(stripSignature("void f<int (*)(int)>(int (*)(int), float)"),
            "f<int (*)(int)>");
  EXPECT_EQ(stripSignature("k(void (*)(int, V<int>), int)"), "k");
  EXPECT_EQ(stripSignature("void (anonymous namespace)::k<{lambda(int)#1}>("
                           "{lambda(int)#1})"),
            "(anonymous namespace)::k<{lambda(int)#1}>");
  EXPECT_EQ(stripSignature("void k<(1<2)>(int)"), "k<(1<2)>");
  EXPECT_EQ(stripSignature("void k<V<V<int> > >(V<V<int> >)"),
            "k<V<V<int> > >");
}

TEST(KernelName, StripOperatorNames) {
  EXPECT_EQ(stripSignature("ns::Op::operator()(int)"), "ns::Op::operator()");
  EXPECT_EQ(stripSignature("void k<&Op::operator()>(int)"),
            "k<&Op::operator()>");
  EXPECT_EQ(stripSignature("void k<&Op::operator< >(int)"),
            "k<&Op::operator< >");
  EXPECT_EQ(stripSignature("operator new[](unsigned long)"), "operator new[]");
  EXPECT_EQ(stripSignature("bool ns::operator<=<int>(int, int)"),
            "ns::operator<=<int>");
}

TEST(KernelName, StripWithoutParameters) {
  EXPECT_EQ(stripSignature("vecAdd"), "vecAdd");
  EXPECT_EQ(stripSignature("ns::scale<float>"), "ns::scale<float>");
}

TEST(KernelName, Normalize) {
  EXPECT_EQ(normalizeKernelName("V<V<int> >"), "V<V<int>>");
  EXPECT_EQ(normalizeKernelName(" ns::k2< unsigned   int , 3 > "),
            "ns::k2<unsigned int,3>");
  EXPECT_EQ(normalizeKernelName("(anonymous namespace)::k"),
            "(anonymous namespace)::k");
  EXPECT_EQ(normalizeKernelName("vecAdd"), "vecAdd");
}
