//===- particles.cpp - particles: inputs, CPU reference, self-check -------===//
#include "particles.h"

#include "Check.h"
#include "Random.h"

#include <algorithm>
#include <cmath>

namespace smc::workloads::particles {
namespace {

constexpr double kTolerance = 1e-5;

struct State {
  double x[3], v[3], k, c;
};

State initial(const Problem &p, size_t i) {
  State s;
  for (int d = 0; d < 3; ++d) {
    s.x[d] = p.pos[4 * i + size_t(d)];
    s.v[d] = p.vel[4 * i + size_t(d)];
  }
  s.k = p.pos[4 * i + 3];
  s.c = p.vel[4 * i + 3];
  return s;
}

// `steps` steps of the kernel's scheme in arithmetic T (double: the
// reference; float: the emulation of the kernel); out = x, y, z, |v|.
template <typename T> void integrate(const State &s, int steps, T out[4]) {
  T x[3], v[3], k = T(s.k), c = T(s.c), dt = T(kDt);
  for (int d = 0; d < 3; ++d) {
    x[d] = T(s.x[d]);
    v[d] = T(s.v[d]);
  }
  for (int step = 0; step < steps; ++step) {
    T r2 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
    T spring = k / std::sqrt(T(1) + r2);
    for (int d = 0; d < 3; ++d) {
      v[d] += dt * (-spring * x[d] - c * v[d]);
      x[d] += dt * v[d];
    }
  }
  for (int d = 0; d < 3; ++d)
    out[d] = x[d];
  out[3] = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

// Kinetic plus potential energy (the force is -grad k sqrt(1 + |x|^2)).
double energy(const State &s) {
  double r2 = 0, v2 = 0;
  for (int d = 0; d < 3; ++d) {
    r2 += s.x[d] * s.x[d];
    v2 += s.v[d] * s.v[d];
  }
  return 0.5 * v2 + s.k * std::sqrt(1 + r2);
}

} // namespace

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  size_t n = size_t(params.get("n"));
  Rng counts(seed, 1), states(seed, 2);
  p.steps.resize(n);
  for (int32_t &s : p.steps) {
    double u = counts.unit();
    s = std::min(kMaxSteps, int32_t((kMaxSteps + 1) * u * u * u));
  }
  if (params.get("sorted"))
    std::sort(p.steps.begin(), p.steps.end());
  p.pos.resize(4 * n);
  p.vel.resize(4 * n);
  for (size_t i = 0; i < n; ++i) {
    for (int d = 0; d < 3; ++d)
      p.pos[4 * i + size_t(d)] = states.uniform(-2.0f, 2.0f);
    p.pos[4 * i + 3] = states.uniform(1.0f, 4.0f);
    for (int d = 0; d < 3; ++d)
      p.vel[4 * i + size_t(d)] = states.uniform(-1.0f, 1.0f);
    p.vel[4 * i + 3] = states.uniform(0.5f, 1.5f);
  }
  return p;
}

void cpuReference(const Problem &p, const std::vector<size_t> &particles,
                  std::vector<double> &out) {
  out.resize(4 * particles.size());
  for (size_t k = 0; k < particles.size(); ++k)
    integrate<double>(initial(p, particles[k]), p.steps[particles[k]],
                      &out[4 * k]);
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Params params = info().params(Size::Small);
  Problem p = generate(params, seed);
  size_t n = p.particles();
  std::vector<size_t> all(n);
  for (size_t i = 0; i < n; ++i)
    all[i] = i;
  std::vector<double> ref;
  cpuReference(p, all, ref);
  double worst = 0;
  for (size_t i = 0; i < n; ++i) {
    State s = initial(p, i);
    // The float emulation is within a quarter of the tolerance.
    float single[4];
    integrate<float>(s, p.steps[i], single);
    for (int j = 0; j < 4; ++j)
      worst = std::max(worst, std::fabs(single[j] - ref[4 * i + j]) /
                                  std::max(1.0, std::fabs(ref[4 * i + j])));
    if (i % 8)
      continue;
    // (Every 8th particle:) mirrored start, mirrored end (exactly); axes
    // permuted, permuted end; zero steps change nothing; from 64 steps on,
    // damping has taken energy out.
    State mirror = s, turned = s;
    for (int d = 0; d < 3; ++d) {
      mirror.x[d] = -s.x[d];
      mirror.v[d] = -s.v[d];
      turned.x[d] = s.x[(d + 1) % 3];
      turned.v[d] = s.v[(d + 1) % 3];
    }
    double m[4], t[4];
    integrate<double>(mirror, p.steps[i], m);
    integrate<double>(turned, p.steps[i], t);
    for (int d = 0; d < 3; ++d)
      if (m[d] != -ref[4 * i + d] ||
          std::fabs(t[d] - ref[4 * i + (d + 1) % 3]) > 1e-12)
        return failure("symmetry", "particle " + std::to_string(i));
    if (m[3] != ref[4 * i + 3])
      return failure("symmetry", "particle " + std::to_string(i) + " speed");
    State end = s;
    for (int d = 0; d < 3; ++d) {
      end.x[d] = ref[4 * i + d];
      end.v[d] = d == 0 ? ref[4 * i + 3] : 0;
    }
    if (p.steps[i] == 0 &&
        (end.x[0] != s.x[0] || end.x[1] != s.x[1] || end.x[2] != s.x[2] ||
         std::fabs(energy(end) - energy(s)) > 1e-12 * energy(s)))
      return failure("zero steps", "particle " + std::to_string(i));
    if (p.steps[i] >= 64 && !(energy(end) < energy(s)))
      return failure("damping", "particle " + std::to_string(i));
  }
  if (!(worst <= kTolerance / 4))
    return failure("float emulation",
                   "error " + std::to_string(worst) + " in fp32");
  // The step counts: skewed as documented, and sorted=1 only sorts them.
  double mean = 0;
  for (int32_t s : p.steps)
    mean += double(s) / double(n);
  params.set("sorted", 1);
  Problem sorted = generate(params, seed);
  std::vector<int32_t> want = p.steps;
  std::sort(want.begin(), want.end());
  if (sorted.steps != want || sorted.pos != p.pos || mean < 56 || mean > 72)
    return failure("inputs", "mean step count " + std::to_string(mean));
  CheckResult r = success("invariants", n);
  r.maxError = worst;
  r.tolerance = kTolerance / 4;
  r.detail = "fp32 emulation; mirror and axis symmetry; damping; skewed "
             "and sorted counts";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "particles",
      "Damped particles, each integrated for its own number of steps "
      "(G-Streamline particles)",
      1,
      Regularity::Irregular,
      Locality::Unclassified,
      PaperGStreamline,
      0,
      {"particles_integrate"},
      {{"n", 1 << 16, 1 << 22, 1 << 24, "particles"},
       {"sorted", 0, 0, 0,
        "1: step counts sorted ascending, warps uniform (remapping must not "
        "pay)"}},
      &create,
      &cpuSelfCheck,
      "x, y, z, |v|: 1e-5 of max(|ref|, 1); 2^20 sampled particles",
  };
  return entry;
}

} // namespace smc::workloads::particles
