// TEMPORARY benchmark (not for commit)
#include <gtest/gtest.h>
#include <chrono>
#include <ctime>
#include <cstdio>
#include "texel_sample_test_image.h"
namespace duet::texel::sample_test {
namespace {
void Bench(const char* name, VkFilter filter, VkSamplerMipmapMode mip, bool derivatives) {
  TestImage image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {512, 512, 1}, 10);
  const SamplerState sampler = MakeSampler(filter, VK_SAMPLER_ADDRESS_MODE_REPEAT, mip);
  const SampledImageState state = Resolve(image.View(VK_IMAGE_VIEW_TYPE_2D), &sampler);
  float s[32], t[32], dx[32], dy[32], zero[32] = {};
  TexelValue out[32];
  SampleRequest req;
  req.coords[0] = s; req.coords[1] = t;
  req.lod_mode = derivatives ? LodMode::kDerivatives : LodMode::kExplicit;
  req.ddx[0] = dx; req.ddx[1] = zero; req.ddy[0] = zero; req.ddy[1] = dy;
  timespec t0; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
  double sink = 0;
  for (int by = 0; by < 512; by += 4)
    for (int bx = 0; bx < 512; bx += 8) {
      for (int l = 0; l < 32; ++l) {
        int q = l / 4, x = bx + (q % 4) * 2 + (l & 1), y = by + (q / 4) * 2 + ((l >> 1) & 1);
        s[l] = (x + 0.5f) / 512.0f * 1.3f; t[l] = (y + 0.5f) / 512.0f * 1.3f;
        dx[l] = 1.3f / 512; dy[l] = 1.3f / 512;
      }
      Sample(state, req, 0xFFFFFFFFu, out);
      sink += out[0].f[0];
    }
  timespec t1; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1); double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
  std::printf("%s: %.2f ms per 512x512 (%.1f ns/lane) %g\n", name, ms, ms * 1e6 / (512.0 * 512), sink);
}
TEST(ZZSampleBench, Speed) {
  Bench("nearest", VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, false);
  if (getenv("ALL")) Bench("bilinear", VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_NEAREST, false);
  if (getenv("ALL")) Bench("trilinear+deriv", VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR, true);
}
}  // namespace
}  // namespace duet::texel::sample_test
