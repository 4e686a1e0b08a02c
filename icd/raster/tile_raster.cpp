#include "raster/tile_raster.h"

#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstring>
#include <utility>

#include "raster/deferred_clear.h"
#include "raster/early_depth.h"
#include "raster/interpolation.h"
#include "raster/small_coverage.h"
#include "util/thread_pool.h"
#include "util/thread_scratch.h"

namespace duet::raster {
namespace {

using spirv_exec::kWaveWidth;
using spirv_exec::LaneMask;

constexpr uint32_t kQuadsPerWave = kWaveWidth / 4;

// Registers of the fragment program's built-ins, looked up once per draw.
struct FragmentBuiltins {
  uint32_t frag_coord, front_facing, helper, sample_id, frag_depth, stencil_ref, sample_mask, view_index, point_coord;
  uint32_t layer, viewport_index;
  uint32_t sample_position, sample_mask_in, primitive_id;
  explicit FragmentBuiltins(const spirv_exec::Program& p)
      : frag_coord(p.BuiltinInput(uint32_t(spv::BuiltIn::FragCoord))),
        front_facing(p.BuiltinInput(uint32_t(spv::BuiltIn::FrontFacing))),
        helper(p.BuiltinInput(uint32_t(spv::BuiltIn::HelperInvocation))),
        sample_id(p.BuiltinInput(uint32_t(spv::BuiltIn::SampleId))),
        frag_depth(p.BuiltinOutput(uint32_t(spv::BuiltIn::FragDepth))),
        stencil_ref(p.BuiltinOutput(uint32_t(spv::BuiltIn::FragStencilRefEXT))),
        sample_mask(p.BuiltinOutput(uint32_t(spv::BuiltIn::SampleMask))),
        view_index(p.BuiltinInput(uint32_t(spv::BuiltIn::ViewIndex))),
        point_coord(p.BuiltinInput(uint32_t(spv::BuiltIn::PointCoord))),
        layer(p.BuiltinInput(uint32_t(spv::BuiltIn::Layer))),
        viewport_index(p.BuiltinInput(uint32_t(spv::BuiltIn::ViewportIndex))),
        sample_position(p.BuiltinInput(uint32_t(spv::BuiltIn::SamplePosition))),
        sample_mask_in(p.BuiltinInput(uint32_t(spv::BuiltIn::SampleMask))),
        primitive_id(p.BuiltinInput(uint32_t(spv::BuiltIn::PrimitiveId))) {}
};

enum class Interpolation : uint8_t { kPerspective, kLinear, kFlat };
enum class Location : uint8_t { kCentre, kCentroid };  // where a pixel-rate input is interpolated

// One register of a fragment shader input and where its value comes from.
struct InputComponent {
  uint32_t reg;
  uint32_t varying;  // float index within a vertex's varyings
  Interpolation mode;
  Location location;
};

// A triangle's interpolation planes: values at the centre of its reference
// pixel (rx, ry) and their steps per pixel, so a fragment costs two
// multiply-adds per value. Planes are in double, like the barycentrics
// they come from, so a value rounds to float once.
struct TrianglePlanes {
  int32_t rx, ry;
  double z, zdx, zdy;  // window depth before the depth bias
  double w, wdx, wdy;  // 1 / clip w
};

// A thread's fragment wave, reused from tile to tile and draw to draw.
struct TileWave {
  spirv_exec::WaveState wave;
};

// The per-triangle arrays of a draw, kept by each calling thread from draw
// to draw (fresh large allocations are fresh pages to fault in).
struct RasterScratch {
  std::vector<TrianglePlanes> planes;
  std::vector<double> attributes;
  std::vector<std::vector<uint32_t>> bins;
};

// A colour location MergeDirect writes: the registers of its components
// (several variables may share one), or for those the shader leaves
// unwritten, lanes of their default (0, 0, 0, 1).
struct DirectOutput {
  uint32_t location;
  uint32_t reg[4];
  const uint32_t* unwritten[4];
  bool constant_alpha = false;  // the same alpha in every lane (Program::constant_outputs)
  uint32_t alpha = 0;           // its float bits
};

// Everything the tiles of one draw share.
struct DrawRaster {
  const TriangleSetup& setup;
  const FragmentStage& fragment;
  const OutputTargets& outputs;
  OutputTargets late;  // after kFull early tests: colour writes only
  uint32_t samples = 1;
  EarlyDepth early = EarlyDepth::kNone;
  bool direct = false;  // MergeDirect applies
  std::vector<DirectOutput> direct_outputs;  // what it packs
  // Early tests of one sample against D16/D32 depth only, without clamping:
  // EarlyTests runs this on each quad.
  EarlyQuadDepthFn early_quad = nullptr;
  EarlyBlockDepthFn early_block = nullptr;  // the same for an 8x8 block
  // Sample shading: one invocation per covered sample, interpolated at it.
  bool per_sample = false;
  bool any_centroid = false;
  // Which per-lane positions ShadeInputs needs: some input is interpolated
  // (not flat); some is perspective-correct at the centre (1/w per lane).
  bool any_interpolated = false, any_perspective = false;
  // Sample offsets from the pixel centre, in sub-pixel units and in pixels.
  int64_t sample_dx[kMaxSamples] = {}, sample_dy[kMaxSamples] = {};
  double sample_fx[kMaxSamples] = {}, sample_fy[kMaxSamples] = {};
  std::vector<InputComponent> components;
  std::vector<TrianglePlanes>& planes;
  std::vector<double>& attributes;  // per triangle: value, x step, y step of each non-flat component
  uint32_t attribute_stride = 0;   // 3 * components
  // Triangles binned by tile, in primitive order.
  int32_t tx0 = 0, ty0 = 0;
  uint32_t columns = 0, rows = 0;
  std::vector<std::vector<uint32_t>>& bins;

  DrawRaster(const TriangleSetup& s, const FragmentStage& f, const OutputTargets& o, RasterScratch& scratch)
      : setup(s),
        fragment(f),
        outputs(o),
        samples(std::max(o.samples, 1u)),
        planes(scratch.planes),
        attributes(scratch.attributes),
        bins(scratch.bins) {}
};

void ComputePlanes(const DrawRaster& d, uint32_t index, TrianglePlanes* p, double* attributes) {
  const Triangle& t = d.setup.triangles[index];
  p->rx = t.min_x;
  p->ry = t.min_y;
  const int64_t sx = (int64_t(t.min_x) << kSubpixelBits) + kSubpixelOne / 2;
  const int64_t sy = (int64_t(t.min_y) << kSubpixelBits) + kSubpixelOne / 2;
  double l[3], ldx[3], ldy[3];
  for (int e = 0; e < 3; ++e) {
    l[e] = double(t.a[e] * sx + t.b[e] * sy + t.c[e]) * t.inverse_area;
    ldx[e] = double(t.a[e] * kSubpixelOne) * t.inverse_area;
    ldy[e] = double(t.b[e] * kSubpixelOne) * t.inverse_area;
  }
  auto plane = [&](double v0, double v1, double v2, double* value, double* dx, double* dy) {
    *value = l[0] * v0 + l[1] * v1 + l[2] * v2;
    *dx = ldx[0] * v0 + ldx[1] * v1 + ldx[2] * v2;
    *dy = ldy[0] * v0 + ldy[1] * v1 + ldy[2] * v2;
  };
  plane(t.z[0], t.z[1], t.z[2], &p->z, &p->zdx, &p->zdy);
  plane(t.inv_w[0], t.inv_w[1], t.inv_w[2], &p->w, &p->wdx, &p->wdy);
  const float* v = &d.setup.varyings[t.varyings];
  const uint32_t stride = d.setup.varying_floats;
  for (size_t k = 0; k < d.components.size(); ++k) {
    const InputComponent& c = d.components[k];
    double* out = attributes + 3 * k;
    if (c.mode == Interpolation::kFlat) continue;
    double a = v[c.varying], b = v[stride + c.varying], e = v[2 * stride + c.varying];
    if (c.mode == Interpolation::kPerspective) {
      a *= t.inv_w[0];
      b *= t.inv_w[1];
      e *= t.inv_w[2];
    }
    plane(a, b, e, &out[0], &out[1], &out[2]);
  }
}

// Lane words of the components a shader leaves unwritten: (0, 0, 0, 1).
constexpr std::array<uint32_t, kWaveWidth> SameLanes(uint32_t value) {
  std::array<uint32_t, kWaveWidth> lanes{};
  lanes.fill(value);
  return lanes;
}
// The lanes' coverage words of a quad with one sample, by pixel mask.
constexpr std::array<std::array<uint32_t, 4>, 16> MaskLanes() {
  std::array<std::array<uint32_t, 4>, 16> lanes{};
  for (uint32_t mask = 0; mask < 16; ++mask)
    for (uint32_t i = 0; i < 4; ++i) lanes[mask][i] = (mask >> i) & 1;
  return lanes;
}
constexpr std::array<std::array<uint32_t, 4>, 16> kMaskLanes = MaskLanes();

constexpr std::array<uint32_t, kWaveWidth> kZeroLanes = SameLanes(0), kOneLanes = SameLanes(1),
                                           kOneFloatLanes = SameLanes(0x3F800000u);

// The set bits of a lane mask (std::popcount is a libgcc call on the
// baseline instruction set).
inline uint32_t LaneCount(uint64_t mask) {
  mask -= (mask >> 1) & 0x5555555555555555ull;
  mask = (mask & 0x3333333333333333ull) + ((mask >> 2) & 0x3333333333333333ull);
  mask = (mask + (mask >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return uint32_t((mask * 0x0101010101010101ull) >> 56);
}

// A quad of a wave: its lanes are 4 * slot .. 4 * slot + 3.
struct QuadSlot {
  int32_t x, y;  // its top-left pixel
  uint32_t triangle;
  uint32_t sample;  // per-sample shading: the sample its lanes shade
};

// The quads of one fragment wave, gathered until it is full.
struct QuadBatch {
  QuadSlot slots[kQuadsPerWave];
  uint32_t coverage[kWaveWidth];        // per lane: the samples it shades; 0 for a helper
  uint32_t pixel_coverage[kWaveWidth];  // per lane: the samples the rasterizer covered in its pixel
  LaneMask covered = 0;                 // the lanes that are not helpers
  float depth[kMaxSamples][kWaveWidth];  // by sample, then lane
  uint32_t quads = 0;
  // The quads are the 16 of one 8x8 block, row by row, every pixel covered
  // and passing the early tests: slots[0] alone is filled.
  bool block = false;

  // Lane l is pixel l % 4 of quad l / 4: top-left, top-right, bottom-left, bottom-right.
  int32_t LaneX(uint32_t l) const {
    return block ? slots[0].x + int32_t(2 * ((l >> 2) & 3) + (l & 1)) : slots[l >> 2].x + int32_t(l & 1);
  }
  int32_t LaneY(uint32_t l) const {
    return block ? slots[0].y + int32_t(2 * (l >> 4) + ((l >> 1) & 1)) : slots[l >> 2].y + int32_t((l >> 1) & 1);
  }
  uint32_t LaneSample(uint32_t l) const { return slots[block ? 0 : l >> 2].sample; }
  uint32_t Triangle(uint32_t q) const { return slots[block ? 0 : q].triangle; }
};

// Walks the triangles binned to one tile and turns their covered 2x2 quads
// into fragment waves.
class TileRasterizer {
 public:
  explicit TileRasterizer(const DrawRaster& d, spirv_exec::WaveState* wave)
      : d_(d), wave_(*wave), builtins_(d.fragment.program != nullptr ? *d.fragment.program : empty_program_) {
    // A block's pixels are all covered, with one sample.
    std::fill_n(block_.coverage, kWaveWidth, 1u);
    std::fill_n(block_.pixel_coverage, kWaveWidth, 1u);
    for (const DirectOutput& out : d_.direct_outputs) direct_texels_.location[out.location] = packed_[out.location];
  }

  // The samples that passed their tests in the tile: occlusion queries
  // count them, and a tile without any was not written (DrawWrote). Every
  // path that writes an attachment counts its samples, query or not.
  uint64_t Run(uint32_t tile) {
    const int32_t x0 = d_.tx0 + int32_t(tile % d_.columns) * kTileSize;
    const int32_t y0 = d_.ty0 + int32_t(tile / d_.columns) * kTileSize;
    tile_x_ = x0;
    tile_y_ = y0;
    anchored_triangle_ = UINT32_MAX;
    // A bin's triangles lie all over the draw's arrays: their data is asked
    // for a few triangles ahead (the setup, then the planes and the
    // provoking vertex's varyings once the setup is in).
    const std::vector<uint32_t>& bin = d_.bins[tile];
    for (size_t i = 0; i < bin.size(); ++i) {
      if (i + 8 < bin.size()) __builtin_prefetch(&d_.setup.triangles[bin[i + 8]]);
      if (i + 4 < bin.size()) {
        const uint32_t next = bin[i + 4];
        __builtin_prefetch(&d_.planes[next]);
        if (!d_.setup.varyings.empty())
          __builtin_prefetch(&d_.setup.varyings[d_.setup.triangles[next].varyings]);
        if (d_.attribute_stride != 0) __builtin_prefetch(&d_.attributes[size_t(next) * d_.attribute_stride]);
      }
      RasterizeTriangle(bin[i], x0, y0, x0 + kTileSize, y0 + kTileSize);
    }
    Flush(pending_);
    return passed_;
  }
  // Fragment shader invocations of the tiles run so far (pipeline statistics).
  uint64_t Invocations() const { return invocations_; }

 private:
  void RasterizeTriangle(uint32_t index, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
    const Triangle& tri = d_.setup.triangles[index];
    const int32_t xs = std::max(tri.min_x, x0), ys = std::max(tri.min_y, y0);
    const int32_t xe = std::min(tri.max_x, x1), ye = std::min(tri.max_y, y1);
    if (xs >= xe || ys >= ye) return;
    const int32_t qx0 = xs & ~1, qy0 = ys & ~1;
    // Edge functions at the centre of pixel (qx0, qy0), the fill rule's bias
    // folded in, so a sample is inside when all three are >= 0.
    const int64_t cx = (int64_t(qx0) << kSubpixelBits) + kSubpixelOne / 2;
    const int64_t cy = (int64_t(qy0) << kSubpixelBits) + kSubpixelOne / 2;
    int64_t origin[3], step_x[3], step_y[3];
    for (int e = 0; e < 3; ++e) {
      origin[e] = tri.a[e] * cx + tri.b[e] * cy + tri.c[e] - tri.bias[e];
      step_x[e] = tri.a[e] * kSubpixelOne;
      step_y[e] = tri.b[e] * kSubpixelOne;
    }
    // Each pixel of a quad relative to its top-left one.
    int64_t pixel[4][3];
    for (int i = 0; i < 4; ++i)
      for (int e = 0; e < 3; ++e) pixel[i][e] = (i & 1) * step_x[e] + (i >> 1) * step_y[e];
    // The largest value of each edge over a quad's samples, from its top-left
    // pixel centre: a quad below zero on any edge is empty.
    int64_t quad_max[3];
    for (int e = 0; e < 3; ++e) {
      const int64_t margin = d_.samples == 1 ? 0 : (std::abs(step_x[e]) + std::abs(step_y[e])) / 2;
      quad_max[e] = std::max<int64_t>(step_x[e], 0) + std::max<int64_t>(step_y[e], 0) + margin;
    }
    if (d_.samples == 1 && xe - qx0 <= 16 && ye - qy0 <= 16) {
      // Within 16x16 pixels from (qx0, qy0) the edge functions fit in 32
      // bits when they do at the corners (they are linear).
      int64_t reach = 0;
      for (int e = 0; e < 3; ++e)
        reach = std::max(reach, std::abs(origin[e]) + 15 * (std::abs(step_x[e]) + std::abs(step_y[e])));
      if (reach < (int64_t{1} << 31)) return RasterizeSmall(index, origin, step_x, step_y, qx0, qy0, xs, ys, xe, ye);
    }
    // 8x8 blocks: one outside an edge is skipped whole, one inside all
    // edges (single sample, inside the bounds) needs no per-pixel tests.
    // Small triangles are one block, without the classification.
    const bool small = xe - xs <= 16 && ye - ys <= 16;
    const int32_t block = small ? 32 : 8, bx0 = small ? qx0 : xs & ~(block - 1), by0 = small ? qy0 : ys & ~(block - 1);
    // Each edge's lowest and highest value over a block's pixel centres
    // (samples lie within half a pixel of them), from its top-left one.
    int64_t block_lo[3], block_hi[3], row_start[3];
    for (int e = 0; e < 3; ++e) {
      const int64_t ex = (block - 1) * step_x[e], ey = (block - 1) * step_y[e];
      const int64_t margin = d_.samples == 1 ? 0 : (std::abs(step_x[e]) + std::abs(step_y[e])) / 2;
      block_lo[e] = std::min<int64_t>(ex, 0) + std::min<int64_t>(ey, 0);
      block_hi[e] = std::max<int64_t>(ex, 0) + std::max<int64_t>(ey, 0) + margin;
      row_start[e] = origin[e] + (bx0 - qx0) * step_x[e] + (by0 - qy0) * step_y[e];
    }
    for (int32_t by = by0; by < ye; by += block) {
      // The edges at the top-left pixel centre of each block of the row.
      int64_t e00[3] = {row_start[0], row_start[1], row_start[2]};
      for (int e = 0; e < 3; ++e) row_start[e] += block * step_y[e];
      for (int32_t bx = bx0; bx < xe; bx += block) {
        bool outside = false, inside = !small;
        for (int e = 0; e < 3 && !small; ++e) {
          outside |= e00[e] + block_hi[e] < 0;
          inside &= e00[e] + block_lo[e] >= 0;
          e00[e] += block * step_x[e];
        }
        if (outside) continue;
        const bool full = inside && d_.samples == 1 && bx >= xs && bx + block <= xe && by >= ys && by + block <= ye;
        const int32_t qys = std::max(by, qy0), qye = std::min(by + block, ye);
        const int32_t qxs = std::max(bx, qx0), qxe = std::min(bx + block, xe);
        if (full) {  // (8x8: only large triangles have inside blocks)
          AddCoveredBlock(index, bx, by);
          continue;
        }
        if (d_.samples == 1 && !small) {
          // A block crossing an edge: its pixels with 32-bit edge functions
          // when they fit, from its first quad inside the bounds.
          // (qxs, qys) is (max(xs, bx) & ~1, max(ys, by) & ~1).
          int64_t corner[3], reach = 0;
          for (int e = 0; e < 3; ++e) {
            corner[e] = origin[e] + (qxs - qx0) * step_x[e] + (qys - qy0) * step_y[e];
            reach = std::max(reach, std::abs(corner[e]) + 7 * (std::abs(step_x[e]) + std::abs(step_y[e])));
          }
          if (reach < (int64_t{1} << 31)) {
            RasterizeSmall(index, corner, step_x, step_y, qxs, qys, std::max(xs, bx), std::max(ys, by), qxe, qye);
            continue;
          }
        }
        for (int32_t qy = qys; qy < qye; qy += 2) {
          const int64_t dy = qy - qy0;
          int64_t row[3];
          for (int e = 0; e < 3; ++e) row[e] = origin[e] + dy * step_y[e] + (qxs - qx0) * step_x[e];
          // Pixels outside the bounds (scissor, tile) only occur on the first
          // and last rows and columns.
          const uint32_t row_mask = (qy >= ys ? 0x3u : 0u) | (qy + 1 < ye ? 0xCu : 0u);
          for (int32_t qx = qxs; qx < qxe; qx += 2, row[0] += 2 * step_x[0], row[1] += 2 * step_x[1],
                       row[2] += 2 * step_x[2]) {
            if (((row[0] + quad_max[0]) | (row[1] + quad_max[1]) | (row[2] + quad_max[2])) < 0) continue;
            // The quad's pixels inside the bounds.
            const uint32_t box = row_mask & ((qx >= xs ? 0x5u : 0u) | (qx + 1 < xe ? 0xAu : 0u));
            if (d_.samples == 1) {
              // One sample: coverage as a mask of the quad's pixels.
              uint32_t mask = box;
              for (int i = 0; i < 4; ++i) {
                const int64_t inside = (row[0] + pixel[i][0]) | (row[1] + pixel[i][1]) | (row[2] + pixel[i][2]);
                mask &= ~(uint32_t(inside < 0) << i);  // sign: outside
              }
              if (mask != 0) AddCoveredQuad(index, qx, qy, mask);
              continue;
            }
            uint32_t coverage[4];
            if (!QuadCoverage(tri, row, pixel, box, coverage)) continue;
            // What the rasterizer covered: SampleMaskIn and centroid
            // locations come from it, not from what passed early tests.
            const uint32_t rasterized[4] = {coverage[0], coverage[1], coverage[2], coverage[3]};
            if (d_.early != EarlyDepth::kNone && !EarlyTests(index, qx, qy, coverage)) continue;
            if (d_.per_sample) {
              // The quad once per sample: each lane shades that sample of its pixel.
              for (uint32_t sample = 0; sample < d_.samples; ++sample) {
                const uint32_t bit = 1u << sample;
                if (((coverage[0] | coverage[1] | coverage[2] | coverage[3]) & bit) == 0) continue;
                const uint32_t shaded[4] = {coverage[0] & bit, coverage[1] & bit, coverage[2] & bit,
                                            coverage[3] & bit};
                AddQuad(qx, qy, index, sample, shaded, rasterized, nullptr);
              }
              continue;
            }
            AddQuad(qx, qy, index, 0, coverage, rasterized, nullptr);
          }
        }
      }
    }
  }

  // Appends a quad to the wave: `shaded`, the samples each of its lanes
  // shades (0: a helper); `pixel`, the samples the rasterizer covered in
  // each pixel (before any test);
  // `depth`, one sample's depths (nullptr: ShadeInputs computes them).
  void AddQuad(int32_t qx, int32_t qy, uint32_t index, uint32_t sample, const uint32_t* shaded, const uint32_t* pixel,
               const float* depth) {
    QuadBatch& b = pending_;
    const uint32_t q = b.quads;
    b.slots[q] = {qx, qy, index, sample};
    uint32_t bits = 0;
    for (uint32_t i = 0; i < 4; ++i) {
      b.coverage[q * 4 + i] = shaded[i];
      b.pixel_coverage[q * 4 + i] = pixel[i];
      bits |= uint32_t(shaded[i] != 0) << i;
    }
    b.covered |= LaneMask{bits} << (q * 4);
    if (depth != nullptr)
      std::memcpy(&b.depth[0][q * 4], depth, 16);
    if (++b.quads == kQuadsPerWave) Flush(b);
  }

  // One sample, the triangle's pixels in [xs, xe) x [ys, ye) within 16x16
  // pixels from (qx0, qy0) = (xs & ~1, ys & ~1), where its edge functions
  // (`origin` at that pixel) fit in 32 bits.
  void RasterizeSmall(uint32_t index, const int64_t* origin, const int64_t* step_x, const int64_t* step_y, int32_t qx0,
                      int32_t qy0, int32_t xs, int32_t ys, int32_t xe, int32_t ye) {
    int32_t o[3], sx[3], sy[3];
    for (int e = 0; e < 3; ++e) {
      o[e] = int32_t(origin[e]);
      sx[e] = int32_t(step_x[e]);
      sy[e] = int32_t(step_y[e]);
    }
    const uint32_t rows = uint32_t(ye - qy0);
    uint16_t outside[16];
    OutsideRows(o, sx, sy, uint32_t(xe - qx0), rows, outside);
    // The columns inside the bounds.
    const uint32_t columns = ((1u << (xe - qx0)) - 1) & ~((1u << (xs - qx0)) - 1);
    for (uint32_t r = 0; r < rows; r += 2) {
      const uint32_t top = qy0 + int32_t(r) >= ys ? ~uint32_t(outside[r]) & columns : 0;
      const uint32_t bottom = r + 1 < rows ? ~uint32_t(outside[r + 1]) & columns : 0;
      const uint32_t either = top | bottom;
      for (uint32_t pairs = (either | either >> 1) & 0x5555u; pairs != 0; pairs &= pairs - 1) {
        const uint32_t c = uint32_t(std::countr_zero(pairs));  // the quad's left column
        AddCoveredQuad(index, qx0 + int32_t(c), qy0 + int32_t(r), ((top >> c) & 3) | ((bottom >> c) & 3) << 2);
      }
    }
  }

  // One sample: the quad's depths, early tests, and the wave.
  void AddCoveredQuad(uint32_t index, int32_t qx, int32_t qy, uint32_t mask) {
    float quad_depth[4];
    QuadDepths(index, qx, qy, quad_depth);
    if (d_.early != EarlyDepth::kNone) {
      mask = EarlySingleSample(index, qx, qy, quad_depth, mask);
      if (mask == 0) return;
    }
    AddSingleSampleQuad(qx, qy, index, mask, quad_depth);
  }

  // One sample, every pixel of the 8x8 block at (bx, by) covered: its
  // depths at once, the early tests, and a wave of its own when every
  // pixel passes (else its passing quads join the pending wave).
  void AddCoveredBlock(uint32_t index, int32_t bx, int32_t by) {
    const TrianglePlanes& p = d_.planes[index];
    // (Into block_, which is empty: blocks flush at once.)
    float* depth = block_.depth[0];
    BlockDepths(p.z, p.zdx, p.zdy, d_.setup.triangles[index].depth_offset, double(bx - p.rx), double(by - p.ry),
                depth);
    auto quad_x = [&](uint32_t q) { return bx + 2 * int32_t(q & 3); };
    auto quad_y = [&](uint32_t q) { return by + 2 * int32_t(q >> 2); };
    // The pixels passing the early tests, bit 4 * quad + pixel.
    uint64_t pass = ~uint64_t{0};
    const OutputTargets& t = d_.outputs;
    if (d_.early_block != nullptr && uint32_t(bx) + 8 <= t.depth.extent.width &&
        uint32_t(by) + 8 <= t.depth.extent.height) {
      pass = d_.early_block(t.depth.Block(uint32_t(bx), uint32_t(by), 0), t.depth.row_pitch, depth);
      if (d_.early == EarlyDepth::kFull) passed_ += LaneCount(pass);
    } else if (d_.early != EarlyDepth::kNone) {
      pass = 0;
      for (uint32_t q = 0; q < kQuadsPerWave; ++q)
        pass |= uint64_t(EarlySingleSample(index, quad_x(q), quad_y(q), &depth[4 * q], 0xF)) << (4 * q);
    }
    if (pass != ~uint64_t{0}) {
      for (uint32_t q = 0; q < kQuadsPerWave; ++q) {
        const uint32_t quad = uint32_t(pass >> (4 * q)) & 0xF;
        if (quad != 0) AddSingleSampleQuad(quad_x(q), quad_y(q), index, quad, &depth[4 * q]);
      }
      return;
    }
    // Pending quads of earlier triangles in the block merge first.
    for (uint32_t q = 0; q < pending_.quads; ++q)
      if (uint32_t(pending_.slots[q].x - bx) < 8 && uint32_t(pending_.slots[q].y - by) < 8) {
        Flush(pending_);
        break;
      }
    QuadBatch& b = block_;
    b.slots[0] = {bx, by, index, 0};
    b.covered = spirv_exec::kAllLanes;
    b.quads = kQuadsPerWave;
    b.block = true;
    Flush(b);
  }

  // AddQuad for one sample: `mask` the covered pixels, `depth` theirs.
  void AddSingleSampleQuad(int32_t qx, int32_t qy, uint32_t index, uint32_t mask, const float* depth) {
    QuadBatch& b = pending_;
    const uint32_t q = b.quads;
    b.slots[q] = {qx, qy, index, 0};
    std::memcpy(&b.coverage[q * 4], kMaskLanes[mask].data(), 16);
    std::memcpy(&b.pixel_coverage[q * 4], kMaskLanes[mask].data(), 16);
    b.covered |= LaneMask{mask} << (q * 4);
    std::memcpy(&b.depth[0][q * 4], depth, 16);
    if (++b.quads == kQuadsPerWave) Flush(b);
  }

  // Several samples: the covered samples of each pixel of a quad whose
  // top-left pixel centre has edge values `row`; `box`: the pixels inside
  // the bounds. False when nothing is covered.
  bool QuadCoverage(const Triangle& tri, const int64_t* row, const int64_t (*pixel)[3], uint32_t box,
                    uint32_t coverage[4]) const {
    uint32_t any = 0;
    const uint32_t all_samples = (1u << d_.samples) - 1;
    for (int i = 0; i < 4; ++i) {
      coverage[i] = 0;
      if (((box >> i) & 1) == 0) continue;
      if (tri.whole_pixels) {
        const int64_t centre = (row[0] + pixel[i][0]) | (row[1] + pixel[i][1]) | (row[2] + pixel[i][2]);
        coverage[i] = centre >= 0 ? all_samples & d_.outputs.sample_mask : 0;
        any |= coverage[i];
        continue;
      }
      for (uint32_t s = 0; s < d_.samples; ++s) {
        int64_t inside = 0;
        for (int e = 0; e < 3; ++e)
          inside |= row[e] + pixel[i][e] + tri.a[e] * d_.sample_dx[s] + tri.b[e] * d_.sample_dy[s];
        coverage[i] |= uint32_t(inside >= 0) << s;
      }
      coverage[i] &= d_.outputs.sample_mask;  // the sample mask test comes before shading
      any |= coverage[i];
    }
    return any != 0;
  }

  double SampleDepth(const TrianglePlanes& p, double fx, double fy) const {
    return p.z + p.zdx * fx + p.zdy * fy;
  }

  // Per-sample depths of pixel (x, y) of triangle `index`, bias included.
  // Sample s's goes to depth[s * stride].
  void PixelDepths(uint32_t index, int32_t x, int32_t y, float* depth, uint32_t stride = 1) const {
    const TrianglePlanes& p = d_.planes[index];
    const float offset = d_.setup.triangles[index].depth_offset;
    const double fx = x - p.rx, fy = y - p.ry;
    if (d_.samples == 1) {
      depth[0] = float(SampleDepth(p, fx, fy)) + offset;
      return;
    }
    for (uint32_t s = 0; s < d_.samples; ++s)
      depth[s * stride] = float(SampleDepth(p, fx + d_.sample_fx[s], fy + d_.sample_fy[s])) + offset;
  }

  // The depths of a quad's four pixel centres (one sample), bias included:
  // PixelDepths' values.
  void QuadDepths(uint32_t index, int32_t qx, int32_t qy, float depth[4]) const {
    const TrianglePlanes& p = d_.planes[index];
    const float offset = d_.setup.triangles[index].depth_offset;
    const double fx = qx - p.rx, fy = qy - p.ry;
    for (int i = 0; i < 4; ++i) depth[i] = float(SampleDepth(p, fx + (i & 1), fy + (i >> 1))) + offset;
  }

  // The early tests of a quad with one sample: returns the pixels of `mask`
  // that pass. `depth`: the pixels' depths.
  uint32_t EarlySingleSample(uint32_t index, int32_t qx, int32_t qy, const float* depth, uint32_t mask) {
    const OutputTargets& t = d_.outputs;
    // The quad function reads (and writes back) all four texels: only for
    // quads inside the attachment. At an odd right or bottom edge the
    // texel past it is another row's (another tile's thread) or past the image.
    if (d_.early_quad != nullptr && uint32_t(qx) + 1 < t.depth.extent.width &&
        uint32_t(qy) + 1 < t.depth.extent.height) {
      const uint32_t pass = d_.early_quad(t.depth.Block(uint32_t(qx), uint32_t(qy), 0), t.depth.row_pitch, depth, mask);
      // The number of passing pixels (a nibble table: popcount is a libgcc
      // call on the baseline instruction set).
      if (d_.early == EarlyDepth::kFull) passed_ += (0x4332322132212110ull >> (4 * pass)) & 0xF;
      return pass;
    }
    uint32_t coverage[4];
    for (int i = 0; i < 4; ++i) coverage[i] = (mask >> i) & 1;
    EarlyTests(index, qx, qy, coverage);
    return uint32_t(coverage[0] != 0) | uint32_t(coverage[1] != 0) << 1 | uint32_t(coverage[2] != 0) << 2 |
           uint32_t(coverage[3] != 0) << 3;
  }

  // Depth (and, for kFull, stencil) tests of a quad before shading; clears
  // the coverage of failing pixels. False when no pixel is left.
  bool EarlyTests(uint32_t index, int32_t qx, int32_t qy, uint32_t coverage[4]) {
    const OutputTargets& t = d_.outputs;
    const bool front_facing = d_.setup.triangles[index].front_facing;
    bool any = false;
    for (int i = 0; i < 4; ++i) {
      if (coverage[i] == 0) continue;
      const int32_t x = qx + (i & 1), y = qy + (i >> 1);
      float depth[kMaxSamples];
      PixelDepths(index, x, y, depth);
      if (d_.early == EarlyDepth::kReject) {
        coverage[i] = DepthSurvivors(t, uint32_t(x), uint32_t(y), coverage[i], depth);
      } else {
        uint32_t passed = 0;
        coverage[i] = RunFragmentTests(t, uint32_t(x), uint32_t(y), coverage[i], depth, front_facing, &passed);
        passed_ += passed;
      }
      any |= coverage[i] != 0;
    }
    return any;
  }

  void Flush(QuadBatch& b) {
    if (b.quads == 0) return;
    const uint32_t quads = b.quads, lanes = quads * 4;
    const LaneMask covered = b.covered;
    const LaneMask launched = lanes == kWaveWidth ? spirv_exec::kAllLanes : (LaneMask{1} << lanes) - 1;
    const spirv_exec::Program* program = d_.fragment.program;
    if (program != nullptr) {
      spirv_exec::ResetWave(*program, launched, &wave_);
      // Uncovered pixels of a quad run as helpers: for derivatives only.
      wave_.helpers = launched & ~covered;
    }
    // Lanes come in runs from one triangle; interpolate a run at a time.
    if (b.block) ShadeInputs(b, b.slots[0].triangle, 0, kWaveWidth);
    for (uint32_t begin = 0; begin < quads && !b.block;) {
      const uint32_t index = b.slots[begin].triangle;
      uint32_t end = begin + 1;
      while (end < quads && b.slots[end].triangle == index) ++end;
      ShadeInputs(b, index, begin * 4, end * 4);
      begin = end;
    }
    if (program != nullptr) {
      spirv_exec::RunWave(*program, d_.fragment.resources->roots.data(), d_.fragment.resources->images.data(),
                          d_.fragment.resources->sampled.data(), &wave_);
      invocations_ += uint64_t(std::popcount(covered));
    }
    MergeOutputs(b, lanes, covered);
    b.quads = 0;
    b.covered = 0;
    b.block = false;
  }

  // Depth and the shader's inputs for lanes [begin, end) of triangle `index`.
  void ShadeInputs(QuadBatch& b, uint32_t index, uint32_t begin, uint32_t end) {
    const Triangle& tri = d_.setup.triangles[index];
    const TrianglePlanes& p = d_.planes[index];
    // Where each lane is interpolated, relative to the tile's top-left
    // pixel centre: the pixel centre, or its sample when shading per sample.
    const spirv_exec::Program* program = d_.fragment.program;
    float fx[kWaveWidth], fy[kWaveWidth];
    auto lane_positions = [&] {
      if (b.block) return BlockPositions(float(b.slots[0].x - tile_x_), float(b.slots[0].y - tile_y_), fx, fy);
      for (uint32_t q = begin / 4; q < end / 4; ++q) {  // a quad at a time
        const float x = float(b.slots[q].x - tile_x_), y = float(b.slots[q].y - tile_y_);
        fx[4 * q] = fx[4 * q + 2] = x;
        fx[4 * q + 1] = fx[4 * q + 3] = x + 1;
        fy[4 * q] = fy[4 * q + 1] = y;
        fy[4 * q + 2] = fy[4 * q + 3] = y + 1;
      }
    };
    // A block with one sample and no centroid inputs is interpolated in one
    // pass (InterpolateBlock), positions and w in registers.
    const bool whole_block = b.block && d_.samples == 1 && !d_.per_sample && !d_.any_centroid;
    // (Flat inputs alone need no positions.)
    const bool positions = d_.samples > 1 || (program != nullptr && d_.any_interpolated && !whole_block);
    if (positions) lane_positions();
    if (d_.per_sample) {
      for (uint32_t l = begin; l < end; ++l) {
        fx[l] += float(d_.sample_fx[b.LaneSample(l)]);
        fy[l] += float(d_.sample_fy[b.LaneSample(l)]);
      }
    }
    // One sample: the raster loop stored each pixel's depth.
    if (d_.samples > 1)
      for (uint32_t l = begin; l < end; ++l) PixelDepths(index, b.LaneX(l), b.LaneY(l), &b.depth[0][l], kWaveWidth);
    if (program == nullptr) return;
    // The triangle's planes moved to the tile's corner, in float: a lane's
    // value is a float plane a few pixels from where it was rounded, the
    // same whether the lane came in a block or a quad.
    // (Once per triangle and tile: its waves mostly come one after another.)
    if (anchored_triangle_ != index) {
      anchored_triangle_ = index;
      const double to_x = tile_x_ - p.rx, to_y = tile_y_ - p.ry;
      auto anchor = [&](double v, double vx, double vy) {
        return FloatPlane{float(v + vx * to_x + vy * to_y), float(vx), float(vy)};
      };
      const double* planes = d_.attributes.data() + size_t(index) * d_.attribute_stride;
      anchored_.resize(d_.components.size() + 1);
      for (size_t k = 0; k < d_.components.size(); ++k)  // (flat inputs have no planes)
        if (d_.components[k].mode != Interpolation::kFlat)
          anchored_[k] = anchor(planes[3 * k], planes[3 * k + 1], planes[3 * k + 2]);
      if (d_.any_perspective || builtins_.frag_coord != UINT32_MAX || d_.any_centroid)
        anchored_.back() = anchor(p.w, p.wdx, p.wdy);
    }
    const FloatPlane w_plane = anchored_.back();
    float inv_w[kWaveWidth], w[kWaveWidth];
    // 1/w: for perspective-correct inputs and FragCoord.w (else w is never
    // anchored nor read).
    const bool w_read = d_.any_perspective || builtins_.frag_coord != UINT32_MAX;
    if (whole_block) {
      block_inputs_.clear();
      for (size_t k = 0; k < d_.components.size(); ++k) {
        const InputComponent& c = d_.components[k];
        if (c.mode != Interpolation::kFlat)
          block_inputs_.push_back({anchored_[k], wave_.Register(c.reg), c.mode == Interpolation::kPerspective});
      }
      InterpolateBlock(float(b.slots[0].x - tile_x_), float(b.slots[0].y - tile_y_),
                       w_read ? w_plane : FloatPlane{1.0f, 0.0f, 0.0f}, block_inputs_.data(),
                       uint32_t(block_inputs_.size()), inv_w);
    } else if (w_read) {
      if (!positions) lane_positions();
      InterpolateClipW(w_plane, fx, fy, begin, end, inv_w, w);
    }
    // Centroid inputs of partly covered pixels move to the first covered
    // sample (a sample inside the primitive, as the spec asks).
    float cx[kWaveWidth], cy[kWaveWidth], cw[kWaveWidth];
    if (d_.any_centroid) {
      for (uint32_t l = begin; l < end; ++l) {
        cx[l] = fx[l];
        cy[l] = fy[l];
        const uint32_t all = (1u << d_.samples) - 1;
        const uint32_t covered = b.pixel_coverage[l];
        if (!d_.per_sample && covered != 0 && covered != all) {
          const int first = std::countr_zero(covered);
          cx[l] += float(d_.sample_fx[first]);
          cy[l] += float(d_.sample_fy[first]);
        }
        cw[l] = 1.0f / (w_plane.value + w_plane.dx * cx[l] + w_plane.dy * cy[l]);
      }
    }
    const float* provoking = &d_.setup.varyings[tri.varyings];
    for (size_t k = 0; k < d_.components.size(); ++k) {
      const InputComponent& c = d_.components[k];
      uint32_t* reg = wave_.Register(c.reg);
      if (c.mode == Interpolation::kFlat) {
        uint32_t bits;
        std::memcpy(&bits, &provoking[c.varying], 4);  // integers travel as float bits
        for (uint32_t l = begin; l < end; ++l) reg[l] = bits;
        continue;
      }
      if (whole_block) continue;  // (interpolated above)
      const FloatPlane& plane = anchored_[k];
      const bool centroid = c.location == Location::kCentroid;
      const float* at_x = centroid ? cx : fx;
      const float* at_y = centroid ? cy : fy;
      const float* at_w = centroid ? cw : w;
      if (c.mode == Interpolation::kPerspective) {
        InterpolatePerspective(plane, at_x, at_y, at_w, begin, end, reg);
      } else {
        InterpolateLinear(plane, at_x, at_y, begin, end, reg);
      }
    }
    auto set = [&](uint32_t reg, auto value_of_lane) {
      if (reg == UINT32_MAX) return;
      for (uint32_t l = begin; l < end; ++l) wave_.Register(reg)[l] = value_of_lane(l);
    };
    if (builtins_.frag_coord != UINT32_MAX) {
      uint32_t* coord[4];
      for (int c = 0; c < 4; ++c) coord[c] = wave_.Register(builtins_.frag_coord + c);
      for (uint32_t l = begin; l < end; ++l) {
        const uint32_t sample = b.LaneSample(l);
        const float ox = d_.per_sample ? float(d_.sample_fx[sample]) : 0.0f;
        const float oy = d_.per_sample ? float(d_.sample_fy[sample]) : 0.0f;
        coord[0][l] = std::bit_cast<uint32_t>(float(b.LaneX(l)) + 0.5f + ox);
        coord[1][l] = std::bit_cast<uint32_t>(float(b.LaneY(l)) + 0.5f + oy);
        coord[2][l] = std::bit_cast<uint32_t>(b.depth[d_.per_sample ? sample : 0][l]);
        coord[3][l] = std::bit_cast<uint32_t>(inv_w[l]);
      }
    }
    set(builtins_.front_facing, [&](uint32_t) { return uint32_t(tri.front_facing); });
    set(builtins_.primitive_id, [&](uint32_t) { return tri.primitive_id; });
    set(builtins_.helper, [&](uint32_t l) { return uint32_t(b.coverage[l] == 0); });
    set(builtins_.sample_id, [&](uint32_t l) { return b.LaneSample(l); });
    // Per sample: the lane's own sample; else every sample the rasterizer
    // covered (before the depth and stencil tests).
    // PostDepthCoverage: the samples that passed the tests before shading
    // (the shaded coverage), else those the rasterizer covered.
    const bool post_depth = program->post_depth_coverage && d_.early == EarlyDepth::kFull;
    set(builtins_.sample_mask_in,
        [&](uint32_t l) { return d_.per_sample || post_depth ? b.coverage[l] : b.pixel_coverage[l]; });
    if (builtins_.sample_position != UINT32_MAX) {
      for (uint32_t l = begin; l < end; ++l) {
        const uint32_t sample = b.LaneSample(l);
        const float px = d_.per_sample ? 0.5f + float(d_.sample_fx[sample]) : 0.5f;
        const float py = d_.per_sample ? 0.5f + float(d_.sample_fy[sample]) : 0.5f;
        wave_.Register(builtins_.sample_position)[l] = std::bit_cast<uint32_t>(px);
        wave_.Register(builtins_.sample_position + 1)[l] = std::bit_cast<uint32_t>(py);
      }
    }
    set(builtins_.view_index, [&](uint32_t) { return d_.fragment.view_index; });
    set(builtins_.layer, [&](uint32_t) { return d_.fragment.layer; });
    set(builtins_.viewport_index, [&](uint32_t) { return d_.fragment.viewport_index; });
    if (builtins_.point_coord != UINT32_MAX && tri.point) {
      for (uint32_t l = begin; l < end; ++l) {
        const float s = 0.5f + (float(b.LaneX(l)) + 0.5f - tri.point_x) / tri.point_size;
        const float t = 0.5f + (float(b.LaneY(l)) + 0.5f - tri.point_y) / tri.point_size;
        wave_.Register(builtins_.point_coord)[l] = std::bit_cast<uint32_t>(s);
        wave_.Register(builtins_.point_coord + 1)[l] = std::bit_cast<uint32_t>(t);
      }
    }
  }

  // Output merge in lane order, which is primitive order for each pixel.
  // `covered`: the lanes that are not helpers.
  void MergeOutputs(const QuadBatch& b, uint32_t lanes, LaneMask covered) {
    const spirv_exec::Program* program = d_.fragment.program;
    const OutputTargets& targets = d_.early == EarlyDepth::kFull ? d_.late : d_.outputs;
    const LaneMask dropped = program != nullptr ? wave_.killed | wave_.demoted : 0;
    if (d_.direct) {
      uint32_t x[kQuadsPerWave], y[kQuadsPerWave];
      const uint32_t quads = lanes / 4;
      for (uint32_t q = 0; q < (b.block ? 1 : quads); ++q) {  // (a block needs its corner only)
        x[q] = uint32_t(b.slots[q].x);
        y[q] = uint32_t(b.slots[q].y);
      }
      DirectWave merged;
      merged.quads = quads;
      merged.block = b.block;
      merged.x = x;
      merged.y = y;
      merged.live = covered & ~dropped;
      merged.depth = b.depth[0];
      if (program != nullptr && merged.live != 0) {
        for (const DirectOutput& out : d_.direct_outputs) {
          const uint32_t* written[4];
          for (uint32_t c = 0; c < 4; ++c)
            written[c] = out.reg[c] != UINT32_MAX ? wave_.Register(out.reg[c]) : out.unwritten[c];
          if (out.constant_alpha)
            PackDirectAlpha(targets.colors[out.location].direct, written, out.alpha, lanes, packed_[out.location]);
          else
            PackDirect(targets.colors[out.location].direct, written, lanes, packed_[out.location]);
        }
        merged.texels = &direct_texels_;
      }
      const uint32_t passed = MergeDirect(targets, merged);
      if (d_.early != EarlyDepth::kFull) passed_ += passed;
      return;
    }
    for (uint32_t l = 0; l < lanes; ++l) {
      if (b.coverage[l] == 0) continue;
      FragmentValues values;
      values.front_facing = d_.setup.triangles[b.Triangle(l >> 2)].front_facing;
      values.coverage = b.coverage[l];
      for (uint32_t s = 0; s < d_.samples; ++s) values.depth[s] = b.depth[s][l];
      uint32_t colors[9][4];  // by location; [8]: location 0's second source (Index 1)
      if (program != nullptr) {
        if ((dropped >> l) & 1) continue;
        if (builtins_.frag_depth != UINT32_MAX)
          for (uint32_t s = 0; s < d_.samples; ++s)
            values.depth[s] = std::bit_cast<float>(wave_.Register(builtins_.frag_depth)[l]);
        if (builtins_.sample_mask != UINT32_MAX) values.coverage &= wave_.Register(builtins_.sample_mask)[l];
        if (builtins_.stencil_ref != UINT32_MAX) values.stencil_reference = &wave_.Register(builtins_.stencil_ref)[l];
        uint32_t started = 0;  // colours given their defaults (several variables may share a location)
        for (const spirv_exec::InterfaceSlot& out : program->outputs) {
          if (out.location >= 8 || (out.index != 0 && out.location != 0)) continue;
          const uint32_t slot = out.index != 0 ? 8 : out.location;
          uint32_t* color = colors[slot];
          if ((started & (1u << slot)) == 0) {
            started |= 1u << slot;
            color[0] = color[1] = color[2] = 0;
            color[3] = out.integer ? 1u : std::bit_cast<uint32_t>(1.0f);
          }
          for (uint32_t c = 0; c < out.count && out.component + c < 4; ++c)
            color[out.component + c] = wave_.Register(out.reg + c)[l];
          if (slot == 8) values.src1 = color;
          else values.colors[out.location] = color;
        }
      }
      const Triangle& tri = d_.setup.triangles[b.Triangle(l >> 2)];
      if (tri.smooth_line && values.colors[0] != nullptr) {
        // Smooth lines: colour 0's alpha times the pixel's coverage of the line.
        const float px = float(b.LaneX(l)) + 0.5f - tri.line_x, py = float(b.LaneY(l)) + 0.5f - tri.line_y;
        const float along = px * tri.line_dx + py * tri.line_dy;
        const float across = std::abs(px * tri.line_dy - py * tri.line_dx);
        const float coverage = std::clamp(tri.line_half_width + 0.5f - across, 0.0f, 1.0f) *
                               std::clamp(0.5f + along, 0.0f, 1.0f) *
                               std::clamp(0.5f + tri.line_length - along, 0.0f, 1.0f);
        colors[0][3] = std::bit_cast<uint32_t>(std::bit_cast<float>(colors[0][3]) * coverage);
      }
      const uint32_t passed = WriteFragment(targets, uint32_t(b.LaneX(l)), uint32_t(b.LaneY(l)), values);
      if (d_.early != EarlyDepth::kFull) passed_ += passed;
    }
  }

  const DrawRaster& d_;
  spirv_exec::WaveState& wave_;
  static inline const spirv_exec::Program empty_program_{};
  FragmentBuiltins builtins_;
  QuadBatch pending_;  // quads in primitive order
  QuadBatch block_;    // a fully covered 8x8 block, shaded before pending_ when they do not overlap
  uint32_t packed_[8][kWaveWidth];  // MergeDirect: each location's texels
  DirectTexels direct_texels_;      // ... where it finds them
  int32_t tile_x_ = 0, tile_y_ = 0;  // the tile's top-left pixel
  // The planes of triangle anchored_triangle_ moved to the tile's corner:
  // its inputs' (by component), then 1/w's.
  uint32_t anchored_triangle_ = UINT32_MAX;
  std::vector<FloatPlane> anchored_;
  std::vector<BlockInput> block_inputs_;  // InterpolateBlock's inputs (kept: no allocation per wave)
  uint64_t passed_ = 0;
  uint64_t invocations_ = 0;  // fragment shader invocations, helpers not counted
};

std::vector<DirectOutput> DirectOutputs(const spirv_exec::Program& program, const OutputTargets& targets) {
  std::vector<DirectOutput> outputs;
  for (uint32_t location = 0; location < 8 && location < targets.colors.size(); ++location) {
    if (!targets.colors[location].enabled) continue;
    DirectOutput out{location, {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX}, {}, false, 0};
    bool written = false, integer = false;
    for (const spirv_exec::InterfaceSlot& slot : program.outputs) {
      if (slot.location != location || slot.index != 0) continue;
      for (uint32_t c = 0; c < slot.count && slot.component + c < 4; ++c) out.reg[slot.component + c] = slot.reg + c;
      written = true;
      integer = slot.integer;
    }
    if (!written) continue;
    for (uint32_t c = 0; c < 4; ++c)
      out.unwritten[c] = c < 3 ? kZeroLanes.data() : integer ? kOneLanes.data() : kOneFloatLanes.data();
    if (out.reg[3] == UINT32_MAX) {
      out.constant_alpha = true;
      out.alpha = out.unwritten[3][0];
    }
    for (const auto& [reg, value] : program.constant_outputs)
      if (reg == out.reg[3]) {
        out.constant_alpha = true;
        out.alpha = value;
      }
    outputs.push_back(out);
  }
  return outputs;
}

void BinTriangles(DrawRaster* d) {
  int32_t x0 = INT32_MAX, y0 = INT32_MAX, x1 = INT32_MIN, y1 = INT32_MIN;
  for (const Triangle& t : d->setup.triangles) {
    x0 = std::min(x0, t.min_x);
    y0 = std::min(y0, t.min_y);
    x1 = std::max(x1, t.max_x);
    y1 = std::max(y1, t.max_y);
  }
  // Tiles are aligned to the tile grid so quads never straddle two tiles.
  d->tx0 = x0 & ~(kTileSize - 1);
  d->ty0 = y0 & ~(kTileSize - 1);
  d->columns = uint32_t((x1 - d->tx0 + kTileSize - 1) / kTileSize);
  d->rows = uint32_t((y1 - d->ty0 + kTileSize - 1) / kTileSize);
  d->bins.resize(size_t(d->columns) * d->rows);
  for (std::vector<uint32_t>& bin : d->bins) bin.clear();  // (kept from an earlier draw)
  for (uint32_t i = 0; i < d->setup.triangles.size(); ++i) {
    const Triangle& t = d->setup.triangles[i];
    const uint32_t c0 = uint32_t(t.min_x - d->tx0) / kTileSize, c1 = uint32_t(t.max_x - 1 - d->tx0) / kTileSize;
    const uint32_t r0 = uint32_t(t.min_y - d->ty0) / kTileSize, r1 = uint32_t(t.max_y - 1 - d->ty0) / kTileSize;
    for (uint32_t r = r0; r <= r1; ++r)
      for (uint32_t c = c0; c <= c1; ++c) d->bins[r * d->columns + c].push_back(i);
  }
}

void PrepareInputs(DrawRaster* d) {
  const spirv_exec::Program* program = d->fragment.program;
  if (program == nullptr) return;
  for (size_t s = 0; s < program->inputs.size(); ++s) {
    const spirv_exec::InterfaceSlot& slot = program->inputs[s];
    const uint32_t offset = d->fragment.layout->varyings[s].offset;
    const Interpolation mode = (slot.flat || slot.integer) ? Interpolation::kFlat
                               : slot.noperspective        ? Interpolation::kLinear
                                                           : Interpolation::kPerspective;
    const Location location = slot.centroid && d->samples > 1 ? Location::kCentroid : Location::kCentre;
    d->any_centroid |= location == Location::kCentroid;
    d->any_interpolated |= mode != Interpolation::kFlat;
    d->any_perspective |= mode == Interpolation::kPerspective && location == Location::kCentre;
    for (uint32_t c = 0; c < slot.count; ++c) d->components.push_back({slot.reg + c, offset + c, mode, location});
  }
  // ClipDistance and CullDistance inputs: the vertex shader's values, interpolated.
  const VaryingLayout& layout = *d->fragment.layout;
  for (const spirv_exec::BuiltinSlot& b : program->builtin_inputs) {
    uint32_t offset = 0, count = 0;
    if (b.builtin == uint32_t(spv::BuiltIn::ClipDistance)) {
      offset = layout.clip_offset;
      count = layout.clip_count;
    } else if (b.builtin == uint32_t(spv::BuiltIn::CullDistance)) {
      offset = layout.cull_offset;
      count = layout.cull_count;
    }
    for (uint32_t c = 0; c < std::min(b.count, count); ++c)
      d->components.push_back({b.reg + c, offset + c, Interpolation::kPerspective, Location::kCentre});
    d->any_interpolated |= count != 0;
    d->any_perspective |= count != 0;
  }
  d->attribute_stride = uint32_t(3 * d->components.size());
}

}  // namespace

void RasterizeTriangles(const TriangleSetup& setup, const FragmentStage& fragment, const OutputTargets& outputs,
                        uint64_t* samples_passed, uint64_t* invocations) {
  if (setup.triangles.empty()) return;
  RasterScratch& scratch = ThreadScratch<RasterScratch>();
  DrawRaster d(setup, fragment, outputs, scratch);
  if (d.samples > 1) {
    const uint8_t(*locations)[2] = StandardSampleLocations(d.samples);
    for (uint32_t s = 0; s < d.samples && s < kMaxSamples; ++s) {
      const int64_t ox = int64_t(locations[s][0]) - 8, oy = int64_t(locations[s][1]) - 8;
      d.sample_dx[s] = ox * (kSubpixelOne / 16);
      d.sample_dy[s] = oy * (kSubpixelOne / 16);
      d.sample_fx[s] = double(ox) / 16.0;
      d.sample_fy[s] = double(oy) / 16.0;
    }
  }
  d.early = ChooseEarlyDepth(fragment.program, outputs);
  if (d.early == EarlyDepth::kFull) {
    d.late = outputs;
    d.late.depth_stencil.depth_test = d.late.depth_stencil.stencil_test = false;
    d.late.depth_stencil.depth_bounds_test = false;
  }
  {
    const DepthStencilState& ds = outputs.depth_stencil;
    const bool simple = d.early != EarlyDepth::kNone && d.samples == 1 && !outputs.depth_clamp &&
                        (outputs.sample_mask & 1) != 0 && !(ds.stencil_test && outputs.has_stencil) &&
                        !(ds.depth_bounds_test && outputs.has_depth) && outputs.has_depth && ds.depth_test;
    if (simple) {
      const EarlyDepthTests tests = ChooseEarlyDepthTests(outputs.depth_target.plane, ds.depth_compare,
                                                          d.early == EarlyDepth::kFull && ds.depth_write);
      d.early_quad = tests.quad;
      d.early_block = tests.block;
    }
  }
  {
    const spirv_exec::Program* p = fragment.program;
    const bool shader_coverage_or_depth =
        p != nullptr && (p->BuiltinOutput(uint32_t(spv::BuiltIn::FragDepth)) != UINT32_MAX ||
                         p->BuiltinOutput(uint32_t(spv::BuiltIn::SampleMask)) != UINT32_MAX ||
                         p->BuiltinOutput(uint32_t(spv::BuiltIn::FragStencilRefEXT)) != UINT32_MAX);
    // Smooth lines change colour 0's alpha after the shader: not merged directly.
    const bool smooth_lines = std::any_of(setup.triangles.begin(), setup.triangles.end(),
                                          [](const Triangle& t) { return t.smooth_line; });
    d.direct = !shader_coverage_or_depth && !smooth_lines &&
               MergesDirect(d.early == EarlyDepth::kFull ? d.late : outputs);
    if (d.direct && p != nullptr) d.direct_outputs = DirectOutputs(*p, d.early == EarlyDepth::kFull ? d.late : outputs);
  }
  if (fragment.program != nullptr && d.samples > 1) {
    const spirv_exec::Program& p = *fragment.program;
    bool sample_inputs = p.BuiltinInput(uint32_t(spv::BuiltIn::SampleId)) != UINT32_MAX ||
                         p.BuiltinInput(uint32_t(spv::BuiltIn::SamplePosition)) != UINT32_MAX;
    for (const spirv_exec::InterfaceSlot& slot : p.inputs) sample_inputs |= slot.sample;
    // Any minSampleShading that asks for more than one sample shades them all.
    d.per_sample = sample_inputs || fragment.min_sample_shading * float(d.samples) > 1.0f;
  }
  PrepareInputs(&d);
  const uint32_t count = uint32_t(setup.triangles.size());
  d.planes.resize(count);
  d.attributes.resize(size_t(count) * d.attribute_stride);
  constexpr uint32_t kPlaneChunk = 1024;
  ParallelFor((count + kPlaneChunk - 1) / kPlaneChunk, [&](uint32_t chunk) {
    const uint32_t end = std::min(count, (chunk + 1) * kPlaneChunk);
    for (uint32_t i = chunk * kPlaneChunk; i < end; ++i)
      ComputePlanes(d, i, &d.planes[i], d.attributes.data() + size_t(i) * d.attribute_stride);
  });
  BinTriangles(&d);

  DeferredClears* deferred = outputs.deferred != nullptr && !outputs.deferred->Empty() ? outputs.deferred : nullptr;
  // The tiles the threads visit: the draw's, and with load-op clears still
  // pending, theirs too, cleared here in parallel rather than one after
  // the other when the rendering ends (the grids align: both are multiples
  // of the tile size).
  int32_t gx0 = d.tx0, gy0 = d.ty0;
  int32_t gx1 = d.tx0 + int32_t(d.columns) * kTileSize, gy1 = d.ty0 + int32_t(d.rows) * kTileSize;
  if (deferred != nullptr) {
    deferred->UseTiles(kTileSize);
    int32_t cx0, cy0, cx1, cy1;
    deferred->TileBounds(&cx0, &cy0, &cx1, &cy1);
    if (cx0 < cx1) {
      gx0 = std::min(gx0, cx0);
      gy0 = std::min(gy0, cy0);
      gx1 = std::max(gx1, cx1);
      gy1 = std::max(gy1, cy1);
    }
  }
  const uint32_t grid_columns = uint32_t(gx1 - gx0) / kTileSize, grid_rows = uint32_t(gy1 - gy0) / kTileSize;
  std::atomic<uint64_t> passed{0}, shaded{0};
  // One sample and the sample mask clears it: the sample mask test (before
  // shading) drops every fragment.
  const bool masked_off = d.samples == 1 && (outputs.sample_mask & 1) == 0;
  ParallelFor(grid_columns * grid_rows, [&](uint32_t cell) {
    const int32_t x0 = gx0 + int32_t(cell % grid_columns) * kTileSize, y0 = gy0 + int32_t(cell / grid_columns) * kTileSize;
    const bool inside = x0 >= d.tx0 && y0 >= d.ty0 && uint32_t(x0 - d.tx0) / kTileSize < d.columns &&
                        uint32_t(y0 - d.ty0) / kTileSize < d.rows;
    const uint32_t tile = inside ? uint32_t(y0 - d.ty0) / kTileSize * d.columns + uint32_t(x0 - d.tx0) / kTileSize : 0;
    const bool drawn = inside && !d.bins[tile].empty() && !masked_off;
    if (deferred != nullptr) deferred->ClearTile(x0, y0, drawn);
    if (!drawn) return;
    // Wave registers are reused across tiles and draws by each thread.
    TileRasterizer rasterizer(d, &ThreadScratch<TileWave>().wave);
    const uint64_t tile_passed = rasterizer.Run(tile);
    passed += tile_passed;
    shaded += rasterizer.Invocations();
    // Only samples that pass their tests write (Run counts them all): without
    // any, the tile's attachments are as they were.
    if (deferred != nullptr && tile_passed != 0) deferred->DrawWrote(x0, y0);
  });
  if (samples_passed != nullptr) *samples_passed += passed.load();
  if (invocations != nullptr) *invocations += shaded.load();
}

}  // namespace duet::raster
