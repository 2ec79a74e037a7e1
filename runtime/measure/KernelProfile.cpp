//===- KernelProfile.cpp - How a kernel's time scales with SMs ------------===//
//
// Merges samples into points, interpolates the time on any SM count and
// reads and writes profile sets as JSON, checking every field.  See
// KernelProfile.h.
//===----------------------------------------------------------------------===//
#include "measure/KernelProfile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace smc {
namespace {

using Json = nlohmann::json;

bool pointBefore(const ScalingPoint &A, const ScalingPoint &B) {
  return std::tie(A.WorkersPerSm, A.Sms) < std::tie(B.WorkersPerSm, B.Sms);
}

// Reads Object[Key] as an unsigned integer in [Min, Max]; Where names the
// object in the error.
bool readUnsigned(const Json &Object, const char *Key, unsigned Min,
                  unsigned Max, const std::string &Where, unsigned &Value,
                  std::string &Error) {
  auto It = Object.find(Key);
  if (It == Object.end()) {
    Error = Where + ": \"" + Key + "\" is missing";
    return false;
  }
  if (!It->is_number_unsigned() || It->get<uint64_t>() < Min ||
      It->get<uint64_t>() > Max) {
    Error = Where + ": \"" + Key + "\" must be an integer in " +
            std::to_string(Min) + "-" + std::to_string(Max) + ", got " +
            It->dump();
    return false;
  }
  Value = static_cast<unsigned>(It->get<uint64_t>());
  return true;
}

bool readPoint(const Json &J, unsigned DeviceSms, const std::string &Where,
               ScalingPoint &Point, std::string &Error) {
  if (!J.is_object()) {
    Error = Where + " is not an object";
    return false;
  }
  if (!readUnsigned(J, "sms", 1, DeviceSms, Where, Point.Sms, Error) ||
      !readUnsigned(J, "workers", 0, UINT32_MAX, Where, Point.WorkersPerSm,
                    Error))
    return false;
  auto Seconds = J.find("seconds");
  if (Seconds == J.end()) {
    Error = Where + ": \"seconds\" is missing";
    return false;
  }
  if (!Seconds->is_number() || !(Seconds->get<double>() > 0) ||
      !std::isfinite(Seconds->get<double>())) {
    Error = Where + ": \"seconds\" must be a positive number, got " +
            Seconds->dump();
    return false;
  }
  Point.Seconds = Seconds->get<double>();
  Point.Samples = 1;
  return !J.contains("samples") ||
         readUnsigned(J, "samples", 1, UINT32_MAX, Where, Point.Samples, Error);
}

// Reads the optional "issue" object of a kernel.
bool readIssue(const Json &J, const std::string &Where, IssueProfile &Issue,
               std::string &Error) {
  if (!J.is_object()) {
    Error = Where + ": \"issue\" is not an object";
    return false;
  }
  const std::pair<const char *, double *> Fields[] = {
      {"mem_ratio", &Issue.MemRatio},
      {"ipc", &Issue.Ipc},
      {"seconds", &Issue.Seconds}};
  for (const auto &[Key, Value] : Fields) {
    auto It = J.find(Key);
    if (It == J.end() || !It->is_number()) {
      Error = Where + ": \"issue\" needs a number \"" + Key + "\"";
      return false;
    }
    *Value = It->get<double>();
  }
  if (!KernelProfile().setIssue(Issue)) {
    Error = Where +
            ": \"issue\" must have mem_ratio in 0-1, ipc >= 0 and "
            "seconds > 0, got " +
            J.dump();
    return false;
  }
  return true;
}

} // namespace

KernelProfile::KernelProfile(std::string Name, std::string Device,
                             unsigned DeviceSms)
    : Name(std::move(Name)), Device(std::move(Device)), DeviceSms(DeviceSms) {}

bool KernelProfile::addSample(const ScalingPoint &Sample) {
  if (Sample.Sms == 0 || (DeviceSms != 0 && Sample.Sms > DeviceSms) ||
      Sample.Samples == 0 || !(Sample.Seconds > 0) ||
      !std::isfinite(Sample.Seconds))
    return false;
  auto It = std::lower_bound(Points.begin(), Points.end(), Sample, pointBefore);
  if (It == Points.end() || pointBefore(Sample, *It)) {
    Points.insert(It, Sample);
    return true;
  }
  double Total = It->Seconds * It->Samples + Sample.Seconds * Sample.Samples;
  It->Samples += Sample.Samples;
  It->Seconds = Total / It->Samples;
  return true;
}

std::optional<double> KernelProfile::timeOn(unsigned Sms,
                                            unsigned WorkersPerSm) const {
  // The points of WorkersPerSm, in increasing SM count.
  auto Begin = std::lower_bound(
      Points.begin(), Points.end(), WorkersPerSm,
      [](const ScalingPoint &P, unsigned W) { return P.WorkersPerSm < W; });
  auto End = std::upper_bound(
      Begin, Points.end(), WorkersPerSm,
      [](unsigned W, const ScalingPoint &P) { return W < P.WorkersPerSm; });
  if (Sms == 0 || Begin == End)
    return std::nullopt;
  const ScalingPoint &Smallest = *Begin, &Largest = *(End - 1);
  if (Sms <= Smallest.Sms)
    return Smallest.Seconds * Smallest.Sms / Sms;
  if (Sms >= Largest.Sms)
    return Largest.Seconds;
  auto Hi =
      std::lower_bound(Begin, End, Sms, [](const ScalingPoint &P, unsigned S) {
        return P.Sms < S;
      });
  if (Hi->Sms == Sms)
    return Hi->Seconds;
  const ScalingPoint &Lo = *(Hi - 1);
  double F = double(Sms - Lo.Sms) / double(Hi->Sms - Lo.Sms);
  return 1.0 / ((1 - F) / Lo.Seconds + F / Hi->Seconds);
}

bool KernelProfile::setIssue(const IssueProfile &NewIssue) {
  const IssueProfile &I = NewIssue;
  if (!std::isfinite(I.MemRatio) || I.MemRatio < 0 || I.MemRatio > 1 ||
      !std::isfinite(I.Ipc) || I.Ipc < 0 || !std::isfinite(I.Seconds) ||
      !(I.Seconds > 0))
    return false;
  Issue = I;
  return true;
}

std::optional<unsigned> KernelProfile::bestWorkersOn(unsigned Sms) const {
  std::optional<unsigned> Best;
  double BestTime = 0;
  for (const ScalingPoint &P : Points) {
    if (Best && *Best == P.WorkersPerSm)
      continue;
    std::optional<double> T = timeOn(Sms, P.WorkersPerSm);
    if (T && (!Best || *T < BestTime)) {
      Best = P.WorkersPerSm;
      BestTime = *T;
    }
  }
  return Best;
}

std::optional<double> KernelProfile::bestTimeOn(unsigned Sms) const {
  std::optional<unsigned> Workers = bestWorkersOn(Sms);
  if (!Workers)
    return std::nullopt;
  return timeOn(Sms, *Workers);
}

unsigned KernelProfile::smCountsMeasured() const {
  unsigned Most = 0, Run = 0;
  for (size_t I = 0; I < Points.size(); ++I) {
    bool Same = I > 0 && Points[I].WorkersPerSm == Points[I - 1].WorkersPerSm;
    Run = Same ? Run + 1 : 1;
    Most = std::max(Most, Run);
  }
  return Most;
}

ProfileSet::ProfileSet(std::string Device, unsigned DeviceSms)
    : Device(std::move(Device)), DeviceSms(DeviceSms) {}

KernelProfile &ProfileSet::profile(const std::string &Name) {
  auto It = Profiles.find(Name);
  if (It == Profiles.end())
    It = Profiles.emplace(Name, KernelProfile(Name, Device, DeviceSms)).first;
  return It->second;
}

const KernelProfile *ProfileSet::find(const std::string &Name) const {
  auto It = Profiles.find(Name);
  return It == Profiles.end() ? nullptr : &It->second;
}

bool ProfileSet::load(const std::string &Text, std::string &Error) {
  Json J;
  try {
    J = Json::parse(Text);
  } catch (const Json::parse_error &E) {
    Error = std::string("not JSON: ") + E.what();
    return false;
  }
  if (!J.is_object()) {
    Error = "the profile is not a JSON object";
    return false;
  }
  auto Format = J.find("format");
  if (Format == J.end() || *Format != "smc-profile") {
    Error = "\"format\" must be \"smc-profile\", got " +
            (Format == J.end() ? std::string("nothing") : Format->dump());
    return false;
  }
  unsigned Version = 0;
  if (!readUnsigned(J, "version", 1, 1, "the profile", Version, Error))
    return false;
  auto DeviceName = J.find("device");
  if (DeviceName == J.end() || !DeviceName->is_string()) {
    Error = "the profile: \"device\" must be a string";
    return false;
  }
  ProfileSet Set(DeviceName->get<std::string>(), 0);
  if (!readUnsigned(J, "sms", 1, UINT32_MAX, "the profile", Set.DeviceSms,
                    Error))
    return false;
  auto Kernels = J.find("kernels");
  if (Kernels == J.end() || !Kernels->is_array()) {
    Error = "the profile: \"kernels\" must be an array";
    return false;
  }
  for (size_t K = 0; K < Kernels->size(); ++K) {
    const Json &Kernel = (*Kernels)[K];
    std::string Where = "kernels[" + std::to_string(K) + "]";
    auto Name = Kernel.is_object() ? Kernel.find("name") : Kernel.end();
    if (!Kernel.is_object() || Name == Kernel.end() || !Name->is_string() ||
        Name->get<std::string>().empty()) {
      Error = Where + ": \"name\" must be a non-empty string";
      return false;
    }
    std::string KernelName = Name->get<std::string>();
    Where += " (\"" + KernelName + "\")";
    if (Set.find(KernelName)) {
      Error = Where + ": the kernel appears twice";
      return false;
    }
    auto Points = Kernel.find("points");
    if (Points == Kernel.end() || !Points->is_array()) {
      Error = Where + ": \"points\" must be an array";
      return false;
    }
    KernelProfile &Profile = Set.profile(KernelName);
    for (size_t P = 0; P < Points->size(); ++P) {
      ScalingPoint Point;
      if (!readPoint((*Points)[P], Set.DeviceSms,
                     Where + " points[" + std::to_string(P) + "]", Point,
                     Error))
        return false;
      Profile.addSample(Point);
    }
    auto Issue = Kernel.find("issue");
    if (Issue != Kernel.end()) {
      IssueProfile Read;
      if (!readIssue(*Issue, Where, Read, Error))
        return false;
      Profile.setIssue(Read);
    }
  }
  *this = std::move(Set);
  return true;
}

std::string ProfileSet::toJson() const {
  nlohmann::ordered_json J;
  J["format"] = "smc-profile";
  J["version"] = 1;
  J["device"] = Device;
  J["sms"] = DeviceSms;
  J["kernels"] = nlohmann::ordered_json::array();
  for (const auto &[Name, Profile] : Profiles) {
    nlohmann::ordered_json Kernel;
    Kernel["name"] = Name;
    Kernel["points"] = nlohmann::ordered_json::array();
    for (const ScalingPoint &P : Profile.points())
      Kernel["points"].push_back({{"sms", P.Sms},
                                  {"workers", P.WorkersPerSm},
                                  {"seconds", P.Seconds},
                                  {"samples", P.Samples}});
    if (const std::optional<IssueProfile> &I = Profile.issue())
      Kernel["issue"] = {
          {"mem_ratio", I->MemRatio}, {"ipc", I->Ipc}, {"seconds", I->Seconds}};
    J["kernels"].push_back(std::move(Kernel));
  }
  return J.dump(2) + "\n";
}

} // namespace smc
