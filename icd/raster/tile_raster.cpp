#include "raster/tile_raster.h"

#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>

#include "util/thread_pool.h"

namespace duet::raster {
namespace {

using spirv_exec::kWaveWidth;
using spirv_exec::LaneMask;

constexpr uint32_t kQuadsPerWave = kWaveWidth / 4;

struct Lane {
  int32_t x, y;
  uint32_t triangle;
  uint32_t coverage;  // covered samples; 0 for a helper pixel
};

// Registers of the fragment program's built-ins, looked up once per draw.
struct FragmentBuiltins {
  uint32_t frag_coord, front_facing, helper, sample_id, frag_depth, sample_mask, view_index, point_coord;
  explicit FragmentBuiltins(const spirv_exec::Program& p)
      : frag_coord(p.BuiltinInput(uint32_t(spv::BuiltIn::FragCoord))),
        front_facing(p.BuiltinInput(uint32_t(spv::BuiltIn::FrontFacing))),
        helper(p.BuiltinInput(uint32_t(spv::BuiltIn::HelperInvocation))),
        sample_id(p.BuiltinInput(uint32_t(spv::BuiltIn::SampleId))),
        frag_depth(p.BuiltinOutput(uint32_t(spv::BuiltIn::FragDepth))),
        sample_mask(p.BuiltinOutput(uint32_t(spv::BuiltIn::SampleMask))),
        view_index(p.BuiltinInput(uint32_t(spv::BuiltIn::ViewIndex))),
        point_coord(p.BuiltinInput(uint32_t(spv::BuiltIn::PointCoord))) {}
};

class TileRasterizer {
 public:
  TileRasterizer(const TriangleSetup& setup, const FragmentStage& fragment, const OutputTargets& outputs)
      : setup_(setup), fragment_(fragment), outputs_(outputs), samples_(std::max(outputs.samples, 1u)),
        builtins_(fragment.program != nullptr ? *fragment.program : empty_program_) {}

  uint64_t Run(int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
    for (uint32_t t = 0; t < setup_.triangles.size(); ++t) {
      const Triangle& tri = setup_.triangles[t];
      const int32_t bx0 = std::max(tri.min_x, x0) & ~1, by0 = std::max(tri.min_y, y0) & ~1;
      const int32_t bx1 = std::min(tri.max_x, x1), by1 = std::min(tri.max_y, y1);
      if (bx0 >= bx1 || by0 >= by1) continue;
      for (int32_t qy = by0; qy < by1; qy += 2) {
        for (int32_t qx = bx0; qx < bx1; qx += 2) {
          uint32_t coverage[4];
          bool any = false;
          for (int i = 0; i < 4; ++i) {
            const int32_t px = qx + (i & 1), py = qy + (i >> 1);
            const bool inside_box =
                px >= std::max(tri.min_x, x0) && px < bx1 && py >= std::max(tri.min_y, y0) && py < by1;
            coverage[i] = inside_box ? Coverage(tri, px, py) : 0;
            any |= coverage[i] != 0;
          }
          if (!any) continue;
          for (int i = 0; i < 4; ++i) lanes_[quads_ * 4 + i] = {qx + (i & 1), qy + (i >> 1), t, coverage[i]};
          if (++quads_ == kQuadsPerWave) Flush();
        }
      }
    }
    Flush();
    return passed_;
  }

 private:
  static bool Inside(const Triangle& t, int64_t sx, int64_t sy) {
    for (int e = 0; e < 3; ++e)
      if (t.a[e] * sx + t.b[e] * sy + t.c[e] - t.bias[e] < 0) return false;
    return true;
  }

  // Sample positions in sub-pixel units: the centre, or the standard 4x pattern.
  void SamplePosition(int32_t px, int32_t py, uint32_t s, int64_t* sx, int64_t* sy) const {
    constexpr int64_t kToSubpixel = kSubpixelOne / 16;
    const int64_t ox = samples_ == 1 ? 8 : kSampleLocations4[s][0], oy = samples_ == 1 ? 8 : kSampleLocations4[s][1];
    *sx = (int64_t(px) << kSubpixelBits) + ox * kToSubpixel;
    *sy = (int64_t(py) << kSubpixelBits) + oy * kToSubpixel;
  }

  uint32_t Coverage(const Triangle& t, int32_t px, int32_t py) const {
    uint32_t mask = 0;
    for (uint32_t s = 0; s < samples_; ++s) {
      int64_t sx, sy;
      SamplePosition(px, py, s, &sx, &sy);
      if (Inside(t, sx, sy)) mask |= 1u << s;
    }
    return mask;
  }

  // Screen-space barycentrics at the pixel centre (extrapolated for helpers).
  static void Barycentrics(const Triangle& t, int32_t px, int32_t py, double lambda[3]) {
    const int64_t sx = (int64_t(px) << kSubpixelBits) + kSubpixelOne / 2;
    const int64_t sy = (int64_t(py) << kSubpixelBits) + kSubpixelOne / 2;
    for (int e = 0; e < 3; ++e) lambda[e] = double(t.a[e] * sx + t.b[e] * sy + t.c[e]) * t.inverse_area;
  }

  void Flush() {
    if (quads_ == 0) return;
    const uint32_t lanes = quads_ * 4;
    const LaneMask launched = lanes == kWaveWidth ? spirv_exec::kAllLanes : (LaneMask{1} << lanes) - 1;
    float depth[kWaveWidth];
    float sample_depth[kWaveWidth][4];
    const spirv_exec::Program* program = fragment_.program;
    if (program != nullptr) {
      spirv_exec::ResetWave(*program, launched, &wave_);
      // Uncovered pixels of a quad run as helpers: for derivatives only.
      spirv_exec::LaneMask helpers = 0;
      for (uint32_t l = 0; l < lanes; ++l)
        if (lanes_[l].coverage == 0) helpers |= spirv_exec::LaneMask{1} << l;
      wave_.helpers = helpers;
    }
    for (uint32_t l = 0; l < lanes; ++l) {
      const Lane& lane = lanes_[l];
      const Triangle& tri = setup_.triangles[lane.triangle];
      double lambda[3];
      Barycentrics(tri, lane.x, lane.y, lambda);
      const double z = lambda[0] * tri.z[0] + lambda[1] * tri.z[1] + lambda[2] * tri.z[2];
      depth[l] = float(z) + tri.depth_offset;
      // Depth is evaluated at each sample, colour once per pixel.
      for (uint32_t s = 0; s < samples_; ++s) {
        if (samples_ == 1) {
          sample_depth[l][s] = depth[l];
          continue;
        }
        int64_t sx, sy;
        SamplePosition(lane.x, lane.y, s, &sx, &sy);
        double zs = 0;
        for (int e = 0; e < 3; ++e) zs += double(tri.a[e] * sx + tri.b[e] * sy + tri.c[e]) * tri.inverse_area * tri.z[e];
        sample_depth[l][s] = float(zs) + tri.depth_offset;
      }
      if (program == nullptr) continue;
      const double inv_w = lambda[0] * tri.inv_w[0] + lambda[1] * tri.inv_w[1] + lambda[2] * tri.inv_w[2];
      double perspective[3];
      for (int i = 0; i < 3; ++i) perspective[i] = lambda[i] * tri.inv_w[i] / inv_w;
      const float* v = &setup_.varyings[tri.varyings];
      const uint32_t stride = setup_.varying_floats;
      const std::vector<spirv_exec::InterfaceSlot>& inputs = program->inputs;
      for (size_t s = 0; s < inputs.size(); ++s) {
        const spirv_exec::InterfaceSlot& slot = inputs[s];
        const uint32_t offset = fragment_.layout->varyings[s].offset;
        for (uint32_t c = 0; c < slot.count; ++c) {
          uint32_t* reg = wave_.Register(slot.reg + c);
          const float a = v[offset + c], b = v[stride + offset + c], d = v[2 * stride + offset + c];
          if (slot.flat || slot.integer) {
            std::memcpy(&reg[l], &a, 4);  // the provoking (first) vertex
            continue;
          }
          const double* w = slot.noperspective ? lambda : perspective;
          reg[l] = std::bit_cast<uint32_t>(float(w[0] * a + w[1] * b + w[2] * d));
        }
      }
      if (builtins_.frag_coord != UINT32_MAX) {
        const float coord[4] = {float(lane.x) + 0.5f, float(lane.y) + 0.5f, depth[l], float(inv_w)};
        for (int c = 0; c < 4; ++c) wave_.Register(builtins_.frag_coord + c)[l] = std::bit_cast<uint32_t>(coord[c]);
      }
      if (builtins_.front_facing != UINT32_MAX) wave_.Register(builtins_.front_facing)[l] = tri.front_facing;
      if (builtins_.helper != UINT32_MAX) wave_.Register(builtins_.helper)[l] = lane.coverage == 0;
      if (builtins_.sample_id != UINT32_MAX) wave_.Register(builtins_.sample_id)[l] = 0;
      if (builtins_.view_index != UINT32_MAX) wave_.Register(builtins_.view_index)[l] = fragment_.view_index;
      if (builtins_.point_coord != UINT32_MAX && tri.point) {
        const float s = 0.5f + (float(lane.x) + 0.5f - tri.point_x) / tri.point_size;
        const float t = 0.5f + (float(lane.y) + 0.5f - tri.point_y) / tri.point_size;
        wave_.Register(builtins_.point_coord)[l] = std::bit_cast<uint32_t>(s);
        wave_.Register(builtins_.point_coord + 1)[l] = std::bit_cast<uint32_t>(t);
      }
    }
    if (program != nullptr)
      spirv_exec::RunWave(*program, fragment_.resources->roots.data(), fragment_.resources->images.data(),
                          fragment_.resources->sampled.data(), &wave_);

    // Output merge in lane order, which is primitive order for each pixel.
    for (uint32_t l = 0; l < lanes; ++l) {
      const Lane& lane = lanes_[l];
      if (lane.coverage == 0) continue;
      FragmentValues values;
      values.front_facing = setup_.triangles[lane.triangle].front_facing;
      values.coverage = lane.coverage;
      for (uint32_t s = 0; s < samples_; ++s) values.depth[s] = sample_depth[l][s];
      uint32_t colors[8][4];
      if (program != nullptr) {
        if (((wave_.killed | wave_.demoted) >> l) & 1) continue;
        if (builtins_.frag_depth != UINT32_MAX)
          for (uint32_t s = 0; s < samples_; ++s)
            values.depth[s] = std::bit_cast<float>(wave_.Register(builtins_.frag_depth)[l]);
        if (builtins_.sample_mask != UINT32_MAX) values.coverage &= wave_.Register(builtins_.sample_mask)[l];
        for (const spirv_exec::InterfaceSlot& out : program->outputs) {
          if (out.location >= 8) continue;
          uint32_t* color = colors[out.location];
          color[0] = color[1] = color[2] = 0;
          color[3] = out.integer ? 1u : std::bit_cast<uint32_t>(1.0f);
          for (uint32_t c = 0; c < out.count && out.component + c < 4; ++c)
            color[out.component + c] = wave_.Register(out.reg + c)[l];
          values.colors[out.location] = color;
        }
      }
      passed_ += WriteFragment(outputs_, uint32_t(lane.x), uint32_t(lane.y), values);
    }
    quads_ = 0;
  }

  const TriangleSetup& setup_;
  const FragmentStage& fragment_;
  const OutputTargets& outputs_;
  const uint32_t samples_;
  static inline const spirv_exec::Program empty_program_{};
  FragmentBuiltins builtins_;
  spirv_exec::WaveState wave_;
  Lane lanes_[kWaveWidth];
  uint32_t quads_ = 0;
  uint64_t passed_ = 0;
};

}  // namespace

void RasterizeTriangles(const TriangleSetup& setup, const FragmentStage& fragment, const OutputTargets& outputs,
                        uint64_t* samples_passed) {
  if (setup.triangles.empty()) return;
  int32_t x0 = INT32_MAX, y0 = INT32_MAX, x1 = INT32_MIN, y1 = INT32_MIN;
  for (const Triangle& t : setup.triangles) {
    x0 = std::min(x0, t.min_x);
    y0 = std::min(y0, t.min_y);
    x1 = std::max(x1, t.max_x);
    y1 = std::max(y1, t.max_y);
  }
  // Tiles are aligned to the tile grid so quads never straddle two tiles.
  const int32_t tx0 = x0 & ~(kTileSize - 1), ty0 = y0 & ~(kTileSize - 1);
  const uint32_t columns = uint32_t((x1 - tx0 + kTileSize - 1) / kTileSize);
  const uint32_t rows = uint32_t((y1 - ty0 + kTileSize - 1) / kTileSize);
  std::atomic<uint64_t> passed{0};
  ParallelFor(columns * rows, [&](uint32_t index) {
    const int32_t tx = tx0 + int32_t(index % columns) * kTileSize;
    const int32_t ty = ty0 + int32_t(index / columns) * kTileSize;
    TileRasterizer rasterizer(setup, fragment, outputs);
    passed += rasterizer.Run(tx, ty, tx + kTileSize, ty + kTileSize);
  });
  if (samples_passed != nullptr) *samples_passed += passed.load();
}

}  // namespace duet::raster
