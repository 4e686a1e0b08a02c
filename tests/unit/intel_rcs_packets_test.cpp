// The Intel command encoder (backends/intel_rcs/packets): every packet's
// dwords against values worked out by hand from the PRM field tables, on
// each generation (the fields used have the same places on all three).
#include <gtest/gtest.h>

#include "backends/intel_rcs/batch.h"
#include "backends/intel_rcs/blit_rules.h"
#include "backends/intel_rcs/packets.h"
#include "backends/intel_rcs/tiling.h"

namespace duet::intel_rcs {
namespace {

class IntelPackets : public ::testing::TestWithParam<Generation> {};

TEST_P(IntelPackets, MiNoopAndBatchBufferEnd) {
  Dwords out;
  EncodeMiNoop(out);
  EncodeMiBatchBufferEnd(out);
  // MI opcode 0x0A in bits 28:23; 0x0A000000 would be opcode 0x14
  // (MI_DISPLAY_FLIP).
  EXPECT_EQ(out, (Dwords{0x00000000, 0x05000000}));
}

TEST_P(IntelPackets, MiStoreDwordImm) {
  Dwords out;
  EncodeMiStoreDwordImm(out, GetParam(), 0x0000123456789ABCull, 0xCAFEF00D);
  // opcode 0x20 << 23, length 2 (4 dwords), PPGTT; address bits 31:2, then
  // 47:32.
  EXPECT_EQ(out, (Dwords{0x10000002, 0x56789ABC, 0x00001234, 0xCAFEF00D}));
}

TEST_P(IntelPackets, MiFlushDwWithPostSyncWrite) {
  Dwords out;
  EncodeMiFlushDw(out, GetParam(), 0x0000000100000040ull, 7);
  // opcode 0x26 << 23, post-sync op 1 (write immediate) at 15:14, length 2.
  EXPECT_EQ(out, (Dwords{0x13004002, 0x00000040, 0x00000001, 7}));
}

TEST_P(IntelPackets, PipeControlWithCsStallAndPostSyncWrite) {
  Dwords out;
  EncodePipeControl(out, GetParam(), 0x0000000200000008ull, 0x0000000100000002ull);
  // 3D client 3, subtype 3, opcode 2, length 4; dword 1: CS stall (bit 20),
  // write immediate (14).
  EXPECT_EQ(out, (Dwords{0x7A000004, 0x00104000, 0x00000008, 0x00000002, 0x00000002, 0x00000001}));
}

TEST_P(IntelPackets, MiCopyMemMemPutsTheDestinationFirst) {
  Dwords out;
  EncodeMiCopyMemMem(out, GetParam(), 0x1000, 0x0000000300002004ull);
  EXPECT_EQ(out, (Dwords{0x17000003, 0x00001000, 0, 0x00002004, 0x00000003}));
}

TEST_P(IntelPackets, XyColorBlt32BitLinear) {
  Dwords out;
  EncodeXyColorBlt(out, GetParam(), {0x0000000100000040ull, 256, Tiling::kLinear}, {2, 3, 10, 20}, 4, 0x11223344);
  // 2D client, opcode 0x50 << 22, write alpha + RGB (21:20), length 5; depth 3
  // (32 bpp) at 25:24, ROP 0xF0 at 23:16, pitch 256 bytes.
  EXPECT_EQ(out, (Dwords{0x54300005, 0x03F00100, 0x00030002, 0x0014000A, 0x00000040, 0x00000001, 0x11223344}));
}

TEST_P(IntelPackets, XyColorBlt8BitXTiledPitchInDwords) {
  Dwords out;
  EncodeXyColorBlt(out, GetParam(), {0x2000, 1024, Tiling::kX}, {0, 0, 1, 1}, 1, 0xAB);
  EXPECT_EQ(out, (Dwords{0x54000805, 0x00F00100, 0x00000000, 0x00010001, 0x00002000, 0, 0xAB}));
}

TEST_P(IntelPackets, XySrcCopyBlt16BitFromXTiled) {
  Dwords out;
  EncodeXySrcCopyBlt(out, GetParam(), {0x10000, 128, Tiling::kLinear}, {0, 0, 8, 4}, {0x20000, 512, Tiling::kX}, {1, 2},
                     2);
  // opcode 0x53 << 22, source tiled (bit 15), length 8; depth 1 (565), ROP
  // 0xCC; source pitch 512/4 dwords.
  EXPECT_EQ(out, (Dwords{0x54C08008, 0x01CC0080, 0x00000000, 0x00040008, 0x00010000, 0, 0x00020001, 0x00000080,
                         0x00020000, 0}));
}

TEST_P(IntelPackets, XyFastCopyBlt128BitToYTiled) {
  Dwords out;
  EncodeXyFastCopyBlt(out, GetParam(), {0x40000, 256, Tiling::kY}, {4, 1, 12, 9},
                      {0x0000000500080000ull, 1024, Tiling::kLinear}, {0, 3}, 16);
  // opcode 0x42 << 22, source tiling 0 (21:20), destination tiling 2 = Y
  // (14:13), length 8; depth 5 (128 bpp) at 26:24, destination pitch 256/4
  // dwords; source pitch 1024 bytes.
  EXPECT_EQ(out, (Dwords{0x50804008, 0x05000040, 0x00010004, 0x0009000C, 0x00040000, 0, 0x00030000, 0x00000400,
                         0x00080000, 0x00000005}));
}

TEST_P(IntelPackets, FastCopyDepthCodesSkipTwo) {
  EXPECT_EQ(packet::FastCopyDepthCode(1), 0u);
  EXPECT_EQ(packet::FastCopyDepthCode(2), 1u);
  EXPECT_EQ(packet::FastCopyDepthCode(4), 3u);
  EXPECT_EQ(packet::FastCopyDepthCode(8), 4u);
  EXPECT_EQ(packet::FastCopyDepthCode(16), 5u);
  EXPECT_EQ(packet::FastCopyDepthCode(3), ~0u);
  EXPECT_EQ(packet::LegacyDepthCode(8), ~0u);
}

TEST_P(IntelPackets, BatchesEndInASeqnoWriteAndWholeQwords) {
  BatchBuilder blitter(GetParam(), Engine::kBlitter);
  EncodeMiStoreDwordImm(blitter.packets(), GetParam(), 0x1000, 1);
  blitter.Finish(0x2040, 9);
  // The store, MI_FLUSH_DW writing 9, the end, one MI_NOOP: 10 dwords.
  EXPECT_EQ(blitter.dwords(), (Dwords{0x10000002, 0x1000, 0, 1, 0x13004002, 0x2040, 0, 9, 0x05000000, 0}));
  EXPECT_EQ(blitter.bytes(), 40u);

  BatchBuilder render(GetParam(), Engine::kRender);
  render.Finish(0x2040, 9);
  // PIPE_CONTROL writing 9, the end, one MI_NOOP: 8 dwords.
  EXPECT_EQ(render.dwords(), (Dwords{0x7A000004, 0x00104000, 0x2040, 0, 9, 0, 0x05000000, 0}));
}

INSTANTIATE_TEST_SUITE_P(EachGeneration, IntelPackets,
                         ::testing::Values(Generation::kGen9, Generation::kGen11, Generation::kGen12),
                         [](const auto& info) { return std::string(GenerationName(info.param)); });

TEST(IntelTiling, OffsetsOfXAndYTiles) {
  // X: 512-byte rows of 8 per 4 KiB tile; a 1024-byte pitch holds two tiles per
  // tile row.
  EXPECT_EQ(SurfaceOffset(Tiling::kX, 1024, 0, 0), 0u);
  EXPECT_EQ(SurfaceOffset(Tiling::kX, 1024, 5, 1), 512u + 5);
  EXPECT_EQ(SurfaceOffset(Tiling::kX, 1024, 512, 0), 4096u);
  EXPECT_EQ(SurfaceOffset(Tiling::kX, 1024, 513, 9), 3 * 4096u + 512 + 1);
  // Y: 16-byte OWords down columns of 32 rows; 128 bytes wide.
  EXPECT_EQ(SurfaceOffset(Tiling::kY, 256, 15, 0), 15u);
  EXPECT_EQ(SurfaceOffset(Tiling::kY, 256, 16, 0), 512u);
  EXPECT_EQ(SurfaceOffset(Tiling::kY, 256, 0, 1), 16u);
  EXPECT_EQ(SurfaceOffset(Tiling::kY, 256, 128, 0), 4096u);
  EXPECT_EQ(SurfaceOffset(Tiling::kY, 256, 130, 33), 3 * 4096u + 16 + 2);
}

TEST(IntelBlitRules, EachGenerationsLimits) {
  const BlitSurface linear{0x1000, 256, Tiling::kLinear};
  EXPECT_TRUE(BlitAllowed(Generation::kGen9, BlitKind::kColor, linear, {0, 0, 64, 4}, nullptr, {}, 4));
  EXPECT_FALSE(BlitAllowed(Generation::kGen9, BlitKind::kColor, linear, {0, 0, 64, 4}, nullptr, {}, 8));
  EXPECT_FALSE(BlitAllowed(Generation::kGen9, BlitKind::kColor, {0x1000, 258, Tiling::kLinear}, {0, 0, 1, 1}, nullptr,
                           {}, 1));  // pitch not a multiple of 4
  EXPECT_FALSE(BlitAllowed(Generation::kGen9, BlitKind::kColor, {0x1004, 256, Tiling::kLinear}, {0, 0, 1, 1}, nullptr,
                           {}, 4));  // base not 64-byte aligned
  EXPECT_FALSE(BlitAllowed(Generation::kGen12, BlitKind::kColor, {0x1000, 512, Tiling::kY}, {0, 0, 1, 1}, nullptr, {},
                           4));  // legacy Y needs BCS_SWCTRL
  EXPECT_FALSE(BlitAllowed(Generation::kGen12, BlitKind::kFastCopy, {0x1000, 96, Tiling::kLinear}, {0, 0, 4, 4},
                           &linear, {}, 4));  // fast linear pitch: 64s
  EXPECT_FALSE(BlitAllowed(Generation::kGen12, BlitKind::kFastCopy, linear, {1, 0, 4, 4}, &linear, {}, 4));  // OWord
  // Wa_1209644611: Gen11 fast copies are never 3 or 7 rows high.
  EXPECT_FALSE(BlitAllowed(Generation::kGen11, BlitKind::kFastCopy, linear, {0, 0, 4, 3}, &linear, {}, 4));
  EXPECT_TRUE(BlitAllowed(Generation::kGen12, BlitKind::kFastCopy, linear, {0, 0, 4, 3}, &linear, {}, 4));
  EXPECT_FALSE(BlitAllowed(Generation::kGen12, BlitKind::kSrcCopy, linear, {0, 0, 4, 1}, &linear, {32765, 0}, 4));
}

}  // namespace
}  // namespace duet::intel_rcs
