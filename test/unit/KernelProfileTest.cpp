//===- KernelProfileTest.cpp - Tests of kernel scaling profiles -----------===//
//
// Samples of one configuration average; times between, above and below the
// measured SM counts follow the documented interpolation; the best worker
// count is the fastest; profile sets survive a JSON round trip, and every
// class of malformed JSON is rejected with a message naming the bad part,
// leaving the set unchanged.
//===----------------------------------------------------------------------===//
#include "measure/KernelProfile.h"

#include <gtest/gtest.h>

using namespace smc;

namespace {

KernelProfile triad() {
  KernelProfile P("triad", "H100", 132);
  EXPECT_TRUE(P.addSample({132, 0, 0.0058}));
  EXPECT_TRUE(P.addSample({66, 0, 0.0097}));
  return P;
}

TEST(KernelProfile, RepeatedSamplesAverage) {
  KernelProfile P("k", "H100", 132);
  EXPECT_TRUE(P.addSample({64, 2, 1.0}));
  EXPECT_TRUE(P.addSample({64, 2, 2.0, 3}));
  EXPECT_TRUE(P.addSample({32, 2, 4.0}));
  ASSERT_EQ(P.points().size(), 2u);
  EXPECT_EQ(P.points()[1].Sms, 64u);
  EXPECT_EQ(P.points()[1].Samples, 4u);
  EXPECT_DOUBLE_EQ(P.points()[1].Seconds, 7.0 / 4);
  EXPECT_EQ(P.points()[0].Sms, 32u); // sorted by SM count
}

TEST(KernelProfile, BadSamplesAreIgnored) {
  KernelProfile P("k", "H100", 132);
  EXPECT_FALSE(P.addSample({0, 0, 1.0}));
  EXPECT_FALSE(P.addSample({133, 0, 1.0}));
  EXPECT_FALSE(P.addSample({10, 0, 0.0}));
  EXPECT_FALSE(P.addSample({10, 0, -1.0}));
  EXPECT_FALSE(P.addSample({10, 0, 1.0 / 0.0}));
  EXPECT_FALSE(P.addSample({10, 0, 1.0, 0}));
  EXPECT_TRUE(P.points().empty());
}

TEST(KernelProfile, TimesAtMeasuredPoints) {
  KernelProfile P = triad();
  EXPECT_DOUBLE_EQ(*P.timeOn(132, 0), 0.0058);
  EXPECT_DOUBLE_EQ(*P.timeOn(66, 0), 0.0097);
}

TEST(KernelProfile, InterpolatesThroughput) {
  KernelProfile P = triad();
  // Halfway between 66 and 132: the mean of the two throughputs.
  double Expected = 1 / ((1 / 0.0097 + 1 / 0.0058) / 2);
  EXPECT_DOUBLE_EQ(*P.timeOn(99, 0), Expected);
  // 16 of the 66 SMs between the points: weights 50/66 and 16/66.
  EXPECT_DOUBLE_EQ(*P.timeOn(82, 0),
                   1 / ((50.0 / 66) / 0.0097 + (16.0 / 66) / 0.0058));
  // Monotone between the points.
  for (unsigned S = 66; S < 132; ++S)
    EXPECT_GT(*P.timeOn(S, 0), *P.timeOn(S + 1, 0)) << S;
}

TEST(KernelProfile, NoSpeedUpAboveNorSlowDownBelowTheRange) {
  KernelProfile P("k", "", 0);
  P.addSample({32, 4, 2.0});
  P.addSample({64, 4, 1.5});
  // Above the largest measured count: the largest's time.
  EXPECT_DOUBLE_EQ(*P.timeOn(128, 4), 1.5);
  // Below the smallest: perfect scaling from the smallest.
  EXPECT_DOUBLE_EQ(*P.timeOn(16, 4), 4.0);
  EXPECT_DOUBLE_EQ(*P.timeOn(8, 4), 8.0);
  EXPECT_FALSE(P.timeOn(0, 4));
  EXPECT_FALSE(P.timeOn(32, 3)); // no point with 3 workers
}

TEST(KernelProfile, BestWorkers) {
  KernelProfile P("k", "H100", 132);
  EXPECT_FALSE(P.bestWorkersOn(64));
  P.addSample({132, 0, 1.0});
  P.addSample({66, 0, 2.0});
  P.addSample({132, 2, 1.2});
  P.addSample({66, 2, 1.8});
  P.addSample({132, 4, 1.0});
  EXPECT_EQ(*P.bestWorkersOn(132), 0u); // the lowest of equals
  EXPECT_EQ(*P.bestWorkersOn(66), 2u);
  EXPECT_DOUBLE_EQ(*P.bestTimeOn(66), 1.8);
  EXPECT_EQ(P.smCountsMeasured(), 2u);
}

TEST(KernelProfile, SmCountsMeasuredIsPerWorkerCount) {
  KernelProfile P("k", "H100", 132);
  P.addSample({132, 0, 1.0});
  P.addSample({66, 2, 2.0});
  EXPECT_EQ(P.smCountsMeasured(), 1u);
  P.addSample({66, 0, 2.0});
  EXPECT_EQ(P.smCountsMeasured(), 2u);
}

const char *Valid = R"({"format": "smc-profile", "version": 1,
  "device": "NVIDIA H100 80GB HBM3", "sms": 132,
  "kernels": [
    {"name": "triad", "points": [
      {"sms": 132, "workers": 0, "seconds": 0.0058, "samples": 3},
      {"sms": 66, "workers": 0, "seconds": 0.0097}]},
    {"name": "gemm", "points": [
      {"sms": 132, "workers": 2, "seconds": 0.004, "samples": 2}]}]})";

TEST(ProfileSet, Loads) {
  ProfileSet Set;
  std::string Error;
  ASSERT_TRUE(Set.load(Valid, Error)) << Error;
  EXPECT_EQ(Set.device(), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(Set.deviceSms(), 132u);
  ASSERT_EQ(Set.profiles().size(), 2u);
  const KernelProfile *Triad = Set.find("triad");
  ASSERT_TRUE(Triad);
  EXPECT_EQ(Triad->deviceSms(), 132u);
  EXPECT_EQ(Triad->device(), "NVIDIA H100 80GB HBM3");
  ASSERT_EQ(Triad->points().size(), 2u);
  EXPECT_EQ(Triad->points()[1].Samples, 3u);
  EXPECT_EQ(Triad->points()[0].Samples, 1u); // the default
  EXPECT_DOUBLE_EQ(*Triad->timeOn(66, 0), 0.0097);
  EXPECT_EQ(Set.find("gemm")->points()[0].WorkersPerSm, 2u);
  EXPECT_FALSE(Set.find("other"));
}

TEST(ProfileSet, RoundTrip) {
  ProfileSet Set("Some GPU", 78);
  Set.profile("a").addSample({78, 0, 0.25, 5});
  Set.profile("a").addSample({13, 3, 1.0 / 3});
  Set.profile("b<int, float>").addSample({1, 1, 12.5});
  ProfileSet Copy;
  std::string Error;
  ASSERT_TRUE(Copy.load(Set.toJson(), Error)) << Error;
  EXPECT_EQ(Copy.toJson(), Set.toJson());
  EXPECT_EQ(Copy.device(), "Some GPU");
  EXPECT_EQ(Copy.deviceSms(), 78u);
  ASSERT_EQ(Copy.profiles().size(), 2u);
  const KernelProfile &A = *Copy.find("a");
  ASSERT_EQ(A.points().size(), 2u);
  EXPECT_EQ(A.points()[0].WorkersPerSm, 0u);
  EXPECT_EQ(A.points()[0].Samples, 5u);
  EXPECT_DOUBLE_EQ(A.points()[1].Seconds, 1.0 / 3); // exact doubles
}

// Loads Text into a set that holds one profile; the load must fail, the
// set stay as it was and the error contain Expected.
void expectError(const std::string &Text, const std::string &Expected) {
  ProfileSet Set("before", 10);
  Set.profile("kept").addSample({5, 0, 1.0});
  std::string Before = Set.toJson(), Error;
  EXPECT_FALSE(Set.load(Text, Error)) << Text;
  EXPECT_NE(Error.find(Expected), std::string::npos)
      << "error '" << Error << "' does not name '" << Expected << "'";
  EXPECT_EQ(Set.toJson(), Before);
}

std::string withPoint(const std::string &Point) {
  return R"({"format":"smc-profile","version":1,"device":"d","sms":132,)"
         R"("kernels":[{"name":"k","points":[{"sms":1,"workers":0,)"
         R"("seconds":1},)" +
         Point + "]}]}";
}

TEST(ProfileSet, RejectsMalformedInput) {
  expectError("{", "not JSON");
  expectError("[]", "not a JSON object");
  expectError(R"({"format":"other","version":1,"device":"d","sms":1,
                 "kernels":[]})",
              "\"format\"");
  expectError(R"({"version":1,"device":"d","sms":1,"kernels":[]})",
              "\"format\"");
  expectError(R"({"format":"smc-profile","version":2,"device":"d","sms":1,
                 "kernels":[]})",
              "\"version\"");
  expectError(R"({"format":"smc-profile","device":"d","sms":1,
                 "kernels":[]})",
              "\"version\" is missing");
  expectError(R"({"format":"smc-profile","version":1,"sms":1,"kernels":[]})",
              "\"device\"");
  expectError(R"({"format":"smc-profile","version":1,"device":"d","sms":0,
                 "kernels":[]})",
              "\"sms\"");
  expectError(R"({"format":"smc-profile","version":1,"device":"d","sms":4})",
              "\"kernels\"");
  expectError(R"({"format":"smc-profile","version":1,"device":"d","sms":4,
                 "kernels":[{"points":[]}]})",
              "kernels[0]: \"name\"");
  expectError(R"({"format":"smc-profile","version":1,"device":"d","sms":4,
                 "kernels":[{"name":"k"}]})",
              "kernels[0] (\"k\"): \"points\"");
  expectError(R"({"format":"smc-profile","version":1,"device":"d","sms":4,
                 "kernels":[{"name":"k","points":[]},
                            {"name":"k","points":[]}]})",
              "kernels[1] (\"k\"): the kernel appears twice");
}

TEST(ProfileSet, RejectsBadPoints) {
  expectError(withPoint("3"), "points[1] is not an object");
  expectError(withPoint(R"({"workers":0,"seconds":1})"),
              "points[1]: \"sms\" is missing");
  expectError(withPoint(R"({"sms":133,"workers":0,"seconds":1})"),
              "points[1]: \"sms\" must be an integer in 1-132, got 133");
  expectError(withPoint(R"({"sms":0,"workers":0,"seconds":1})"),
              "\"sms\" must be an integer in 1-132, got 0");
  expectError(withPoint(R"({"sms":-4,"workers":0,"seconds":1})"),
              "\"sms\" must be an integer");
  expectError(withPoint(R"({"sms":4.5,"workers":0,"seconds":1})"),
              "\"sms\" must be an integer");
  expectError(withPoint(R"({"sms":4,"seconds":1})"), "\"workers\" is missing");
  expectError(withPoint(R"({"sms":4,"workers":-1,"seconds":1})"),
              "\"workers\" must be an integer");
  expectError(withPoint(R"({"sms":4,"workers":0})"), "\"seconds\" is missing");
  expectError(withPoint(R"({"sms":4,"workers":0,"seconds":0})"),
              "kernels[0] (\"k\") points[1]: \"seconds\" must be a positive "
              "number, got 0");
  expectError(withPoint(R"({"sms":4,"workers":0,"seconds":-0.5})"),
              "\"seconds\" must be a positive number");
  expectError(withPoint(R"({"sms":4,"workers":0,"seconds":"1"})"),
              "\"seconds\" must be a positive number");
  expectError(withPoint(R"({"sms":4,"workers":0,"seconds":1,"samples":0})"),
              "\"samples\" must be an integer in 1-");
}

TEST(ProfileSet, IssueRoundTripsAndIsOptional) {
  ProfileSet Set("Some GPU", 78);
  Set.profile("plain").addSample({78, 0, 0.25});
  KernelProfile &Issued = Set.profile("issued");
  EXPECT_TRUE(Issued.setIssue({0.125, 0.5, 0.002}));
  ProfileSet Copy;
  std::string Error;
  ASSERT_TRUE(Copy.load(Set.toJson(), Error)) << Error;
  EXPECT_EQ(Copy.toJson(), Set.toJson());
  EXPECT_FALSE(Copy.find("plain")->issue());
  const std::optional<IssueProfile> &I = Copy.find("issued")->issue();
  ASSERT_TRUE(I);
  EXPECT_DOUBLE_EQ(I->MemRatio, 0.125);
  EXPECT_DOUBLE_EQ(I->Ipc, 0.5);
  EXPECT_DOUBLE_EQ(I->Seconds, 0.002);
  EXPECT_TRUE(Copy.find("issued")->points().empty());
}

TEST(ProfileSet, RejectsBadIssue) {
  KernelProfile P;
  EXPECT_FALSE(P.setIssue({1.5, 0.5, 0.002}));
  EXPECT_FALSE(P.setIssue({0.5, -1, 0.002}));
  EXPECT_FALSE(P.setIssue({0.5, 0.5, 0}));
  EXPECT_FALSE(P.issue());
  auto WithIssue = [](const std::string &Issue) {
    return R"({"format":"smc-profile","version":1,"device":"d","sms":4,)"
           R"("kernels":[{"name":"k","points":[],"issue":)" +
           Issue + "}]}";
  };
  expectError(WithIssue("3"), "kernels[0] (\"k\"): \"issue\" is not an object");
  expectError(WithIssue(R"({"mem_ratio":0.1,"ipc":0.2})"),
              "\"issue\" needs a number \"seconds\"");
  expectError(WithIssue(R"({"mem_ratio":"0.1","ipc":0.2,"seconds":1})"),
              "needs a number \"mem_ratio\"");
  expectError(WithIssue(R"({"mem_ratio":2,"ipc":0.2,"seconds":1})"),
              "mem_ratio in 0-1");
  expectError(WithIssue(R"({"mem_ratio":0.1,"ipc":0.2,"seconds":0})"),
              "seconds > 0");
}

TEST(ProfileSet, ValidPointHelperLoads) {
  // withPoint builds valid JSON around a good point (so the errors above
  // come from the bad point alone).
  ProfileSet Set;
  std::string Error;
  EXPECT_TRUE(
      Set.load(withPoint(R"({"sms":4,"workers":0,"seconds":1})"), Error))
      << Error;
  EXPECT_EQ(Set.find("k")->points().size(), 2u);
}

} // namespace
