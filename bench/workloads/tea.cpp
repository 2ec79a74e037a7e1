//===- tea.cpp - tea: inputs, CPU reference, self-check, registry ---------===//
#include "tea.h"

#include "Check.h"
#include "Random.h"

namespace smc::workloads::tea {

namespace {
constexpr uint32_t kDelta = 0x9E3779B9u;
}

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  Rng rng(seed, 1);
  for (uint32_t &k : p.key)
    k = rng.nextU32();
  p.plain.resize(2 * size_t(params.get("blocks")));
  Rng data(seed, 2);
  for (uint32_t &w : p.plain)
    w = data.nextU32();
  return p;
}

void encryptBlock(uint32_t v[2], const uint32_t key[4]) {
  uint32_t v0 = v[0], v1 = v[1], sum = 0;
  for (int i = 0; i < 32; ++i) {
    sum += kDelta;
    v0 += ((v1 << 4) + key[0]) ^ (v1 + sum) ^ ((v1 >> 5) + key[1]);
    v1 += ((v0 << 4) + key[2]) ^ (v0 + sum) ^ ((v0 >> 5) + key[3]);
  }
  v[0] = v0;
  v[1] = v1;
}

void decryptBlock(uint32_t v[2], const uint32_t key[4]) {
  uint32_t v0 = v[0], v1 = v[1], sum = kDelta * 32u;
  for (int i = 0; i < 32; ++i) {
    v1 -= ((v0 << 4) + key[2]) ^ (v0 + sum) ^ ((v0 >> 5) + key[3]);
    v0 -= ((v1 << 4) + key[0]) ^ (v1 + sum) ^ ((v1 >> 5) + key[1]);
    sum -= kDelta;
  }
  v[0] = v0;
  v[1] = v1;
}

void cpuReference(const Problem &p, const std::vector<size_t> &blocks,
                  std::vector<uint32_t> &cipher) {
  cipher.resize(2 * blocks.size());
  for (size_t k = 0; k < blocks.size(); ++k) {
    uint32_t v[2] = {p.plain[2 * blocks[k]], p.plain[2 * blocks[k] + 1]};
    encryptBlock(v, p.key);
    cipher[2 * k] = v[0];
    cipher[2 * k + 1] = v[1];
  }
}

CheckResult cpuSelfCheck(uint64_t seed) {
  // Known answer: zero key, zero block.
  const uint32_t zeroKey[4] = {0, 0, 0, 0};
  uint32_t known[2] = {0, 0};
  encryptBlock(known, zeroKey);
  if (known[0] != 0x41EA3A0Au || known[1] != 0x94BAA940u)
    return failure("known answer", "TEA(0, 0) is not 41ea3a0a 94baa940");
  // Round trip on the Small input.
  Problem p = generate(info().params(Size::Small), seed);
  std::vector<size_t> all(p.blocks());
  for (size_t i = 0; i < all.size(); ++i)
    all[i] = i;
  std::vector<uint32_t> cipher;
  cpuReference(p, all, cipher);
  std::vector<uint32_t> back(cipher);
  size_t unchanged = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    decryptBlock(&back[2 * i], p.key);
    unchanged += cipher[2 * i] == p.plain[2 * i];
  }
  if (unchanged > all.size() / 1000)
    return failure("diffusion", "ciphertext words equal to the plaintext");
  CheckResult r = compareExact(back, p.plain, "decrypt(encrypt(x))");
  r.detail = "known answer TEA(0,0); decrypt(encrypt(x)) == x";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "tea",
      "Tiny Encryption Algorithm, 32 cycles per 64-bit block, fixed grid with "
      "a grid-stride loop (Kernelet TEA)",
      1,
      Regularity::Regular,
      Locality::Unclassified,
      PaperKernelet,
      FeatureGridStride,
      {"tea_encrypt"},
      {{"blocks", 1 << 16, 1 << 25, 1 << 26, "64-bit blocks"}},
      &create,
      &cpuSelfCheck,
      "ciphertext exact; Default/Large: 2^20 sampled blocks, no block left "
      "at the 0xFF poison",
  };
  return entry;
}

} // namespace smc::workloads::tea
