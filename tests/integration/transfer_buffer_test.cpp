// Buffer transfer commands through the loader: vkCmdFillBuffer,
// vkCmdUpdateBuffer, vkCmdCopyBuffer and vkCmdCopyBuffer2. Expected bytes
// come from a host model of each buffer; every byte is compared, including
// those the commands must leave alone.
#include <algorithm>
#include <cstring>
#include <vector>

#include "vk_fixture.h"

namespace duet_test {
namespace {

class BufferTransfers : public QueueTest {
 protected:
  // Host model of vkCmdFillBuffer (the spec's rules, written out).
  static void ModelFill(std::vector<uint8_t>& model, VkDeviceSize offset, VkDeviceSize size, uint32_t data) {
    if (size == VK_WHOLE_SIZE) size = (model.size() - offset) / 4 * 4;  // rounds down to a multiple of 4
    for (VkDeviceSize i = 0; i < size; ++i) model[offset + i] = uint8_t(data >> (8 * (i % 4)));  // host (little) endian
  }

  // A buffer of `size` bytes filled with pseudo-random bytes (seed) and its model.
  HostBuffer Patterned(VkDeviceSize size, uint64_t seed, std::vector<uint8_t>* model) {
    HostBuffer b = MakeHostBuffer(size);
    if (b.data == nullptr) return b;
    FillPattern(b.bytes(), seed);
    if (model != nullptr) model->assign(b.data, b.data + size);
    return b;
  }

  static ::testing::AssertionResult Matches(const HostBuffer& b, const std::vector<uint8_t>& model) {
    const size_t at = FirstDifference(b.bytes(), model);
    if (at == SIZE_MAX) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "byte " << at << " is 0x" << std::hex << int(b.data[at])
                                         << ", expected 0x" << int(model[at]);
  }
};

// ---------------------------------------------------------------------------
// vkCmdFillBuffer

TEST_F(BufferTransfers, FillOffsetsSizesAndWholeSize) {
  // 1022 bytes: not a multiple of 4, so VK_WHOLE_SIZE must round down.
  std::vector<uint8_t> model;
  HostBuffer b = Patterned(1022, 1, &model);
  ASSERT_NE(b.data, nullptr);
  struct Fill {
    VkDeviceSize offset, size;
    uint32_t data;
  };
  const Fill fills[] = {
      {0, 4, 0xDEADBEEF},         {4, 8, 0x00000001},  {20, 12, 0x80000000},     {36, 4, 0x12345678},
      {44, 100, 0x7F7F7F7E},      {148, 4, 0xFFFFFFFF}, {160, 64, 0x00000000},   {228, 28, 0xA5A5A5A5},
      {516, VK_WHOLE_SIZE, 0x0BADF00D},
      // Two bytes remain past offset 1020: rounded down, nothing is written.
      {1020, VK_WHOLE_SIZE, 0x77777777},
  };
  VkCommandBuffer cb = BeginCommands();
  for (const Fill& f : fills) {
    vkCmdFillBuffer(cb, b.buffer, f.offset, f.size, f.data);
    ModelFill(model, f.offset, f.size, f.data);
  }
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  EXPECT_TRUE(Matches(b, model));
  // The two bytes past the last whole word are untouched.
  EXPECT_NE(model[1020], 0x0D);
  EXPECT_EQ(b.data[1020], model[1020]);
  EXPECT_EQ(b.data[1021], model[1021]);
}

TEST_F(BufferTransfers, FillWholeSizeFromOffsetOfBufferBoundAtOffset) {
  // A buffer bound at a non-zero memory offset: the fill must land inside
  // the buffer, not at the start of the memory.
  VkBuffer buffer = MakeBuffer(4096 + 6, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  ASSERT_NE(buffer, VK_NULL_HANDLE);
  VkMemoryRequirements req{};
  vkGetBufferMemoryRequirements(device_, buffer, &req);
  const VkDeviceSize bind_offset = std::max<VkDeviceSize>(req.alignment, 256);
  ASSERT_EQ(bind_offset % req.alignment, 0u);
  const uint32_t type =
      FindMemoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  ASSERT_NE(type, UINT32_MAX);
  const VkDeviceSize mem_size = bind_offset + req.size + 256;
  VkDeviceMemory mem = MakeMemory(mem_size, type);
  ASSERT_NE(mem, VK_NULL_HANDLE);
  VK_ASSERT_OK(vkBindBufferMemory(device_, buffer, mem, bind_offset));
  uint8_t* map = nullptr;
  VK_ASSERT_OK(vkMapMemory(device_, mem, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(&map)));
  std::vector<uint8_t> model(mem_size);
  FillPattern(model, 2);
  std::memcpy(map, model.data(), mem_size);

  VkCommandBuffer cb = BeginCommands();
  vkCmdFillBuffer(cb, buffer, 8, VK_WHOLE_SIZE, 0xCAFEBABE);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  // Bytes [8, 4104) of the buffer: (4102 - 8) rounded down to 4092.
  for (VkDeviceSize i = 0; i < 4092; ++i) model[bind_offset + 8 + i] = uint8_t(0xCAFEBABEu >> (8 * (i % 4)));
  EXPECT_EQ(FirstDifference({map, size_t(mem_size)}, model), SIZE_MAX);
}

TEST_F(BufferTransfers, ManyOverlappingFillsInOrder) {
  constexpr VkDeviceSize kSize = 1 << 16;
  std::vector<uint8_t> model;
  HostBuffer b = Patterned(kSize, 3, &model);
  ASSERT_NE(b.data, nullptr);
  VkCommandBuffer cb = BeginCommands();
  for (uint32_t i = 0; i < 300; ++i) {
    const uint64_t r = Mix64(i + 1000);
    const VkDeviceSize offset = (r % (kSize / 4)) * 4;
    VkDeviceSize size = ((r >> 20) % 2048 + 1) * 4;
    if (i % 37 == 0) size = VK_WHOLE_SIZE;
    else size = std::min(size, kSize - offset);
    const uint32_t data = uint32_t(r >> 32);
    TransferBarrier(cb);  // successive fills overlap: write-after-write
    vkCmdFillBuffer(cb, b.buffer, offset, size, data);
    ModelFill(model, offset, size, data);
  }
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  EXPECT_TRUE(Matches(b, model));
}

TEST_F(BufferTransfers, Fill64MiB) {
  constexpr VkDeviceSize kSize = 64ull << 20;
  HostBuffer b = MakeHostBuffer(kSize);
  ASSERT_NE(b.data, nullptr);
  std::memset(b.data, 0x5A, kSize);
  VkCommandBuffer cb = BeginCommands();
  vkCmdFillBuffer(cb, b.buffer, 4, kSize - 8, 0x89ABCDEF);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  const uint32_t* w = b.as<uint32_t>();
  EXPECT_EQ(w[0], 0x5A5A5A5Au);
  EXPECT_EQ(w[kSize / 4 - 1], 0x5A5A5A5Au);
  for (size_t i = 1; i + 1 < kSize / 4; ++i) ASSERT_EQ(w[i], 0x89ABCDEFu) << "word " << i;
}

// ---------------------------------------------------------------------------
// vkCmdUpdateBuffer

TEST_F(BufferTransfers, UpdateSizesUpTo65536) {
  constexpr VkDeviceSize kSize = 65536 * 2 + 64;
  std::vector<uint8_t> model;
  HostBuffer b = Patterned(kSize, 4, &model);
  ASSERT_NE(b.data, nullptr);
  struct Update {
    VkDeviceSize offset, size;
  };
  const Update updates[] = {{0, 4}, {8, 8}, {20, 60}, {84, 4}, {100, 1000}, {65536 + 32, 65536}, {2048, 65536}};
  VkCommandBuffer cb = BeginCommands();
  uint64_t seed = 10;
  for (const Update& u : updates) {
    std::vector<uint8_t> data(u.size);
    FillPattern(data, seed++);
    TransferBarrier(cb);
    vkCmdUpdateBuffer(cb, b.buffer, u.offset, u.size, data.data());
    std::copy(data.begin(), data.end(), model.begin() + std::ptrdiff_t(u.offset));
  }
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  EXPECT_TRUE(Matches(b, model));
}

TEST_F(BufferTransfers, UpdateThenCopyInOneCommandBuffer) {
  HostBuffer a = MakeHostBuffer(1024);
  HostBuffer c = MakeHostBuffer(1024);
  ASSERT_NE(c.data, nullptr);
  std::memset(a.data, 0, 1024);
  std::memset(c.data, 0, 1024);
  std::vector<uint8_t> data(512);
  FillPattern(data, 77);
  VkCommandBuffer cb = BeginCommands();
  vkCmdUpdateBuffer(cb, a.buffer, 256, data.size(), data.data());
  TransferBarrier(cb);
  VkBufferCopy region{256, 0, 512};
  vkCmdCopyBuffer(cb, a.buffer, c.buffer, 1, &region);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  EXPECT_EQ(std::memcmp(c.data, data.data(), 512), 0);
  for (size_t i = 512; i < 1024; ++i) ASSERT_EQ(c.data[i], 0) << i;
}

// ---------------------------------------------------------------------------
// vkCmdCopyBuffer / vkCmdCopyBuffer2

TEST_F(BufferTransfers, CopySeveralRegionsWithOddOffsetsAndSizes) {
  std::vector<uint8_t> src_model, dst_model;
  HostBuffer src = Patterned(4099, 20, &src_model);
  HostBuffer dst = Patterned(4101, 21, &dst_model);
  ASSERT_NE(dst.data, nullptr);
  const VkBufferCopy regions[] = {
      {0, 0, 1}, {1, 3, 7}, {13, 100, 333}, {4000, 4000, 99}, {500, 1001, 1}, {777, 2000, 1999}, {4098, 4100, 1},
  };
  VkCommandBuffer cb = BeginCommands();
  vkCmdCopyBuffer(cb, src.buffer, dst.buffer, uint32_t(std::size(regions)), regions);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  for (const VkBufferCopy& r : regions)
    std::memcpy(dst_model.data() + r.dstOffset, src_model.data() + r.srcOffset, r.size);
  EXPECT_TRUE(Matches(dst, dst_model));
  EXPECT_TRUE(Matches(src, src_model)) << "the source changed";
}

TEST_F(BufferTransfers, CopyRandomNonOverlappingRegions) {
  constexpr VkDeviceSize kSize = 1 << 20;
  std::vector<uint8_t> src_model, dst_model;
  HostBuffer src = Patterned(kSize, 30, &src_model);
  HostBuffer dst = Patterned(kSize, 31, &dst_model);
  ASSERT_NE(dst.data, nullptr);
  std::vector<VkBufferCopy> regions;
  for (uint64_t i = 0; regions.size() < 200 && i < 100000; ++i) {
    const uint64_t r = Mix64(i + 555);
    const VkDeviceSize size = (r % 8000) + 1;
    const VkDeviceSize src_off = (r >> 16) % (kSize - size);
    const VkDeviceSize dst_off = (r >> 40) % (kSize - size);
    bool overlaps = false;
    for (const VkBufferCopy& o : regions)
      if (dst_off < o.dstOffset + o.size && o.dstOffset < dst_off + size) overlaps = true;
    if (!overlaps) regions.push_back({src_off, dst_off, size});
  }
  ASSERT_EQ(regions.size(), 200u);
  VkCommandBuffer cb = BeginCommands();
  vkCmdCopyBuffer(cb, src.buffer, dst.buffer, uint32_t(regions.size()), regions.data());
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  for (const VkBufferCopy& r : regions)
    std::memcpy(dst_model.data() + r.dstOffset, src_model.data() + r.srcOffset, r.size);
  EXPECT_TRUE(Matches(dst, dst_model));
}

TEST_F(BufferTransfers, CopyWithinOneBuffer) {
  std::vector<uint8_t> model;
  HostBuffer b = Patterned(8192, 40, &model);
  ASSERT_NE(b.data, nullptr);
  // Source and destination ranges do not overlap each other.
  const VkBufferCopy regions[] = {{0, 4096, 1000}, {1000, 6000, 1500}, {3001, 5096, 904}};
  VkCommandBuffer cb = BeginCommands();
  vkCmdCopyBuffer(cb, b.buffer, b.buffer, 3, regions);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  const std::vector<uint8_t> before = model;
  for (const VkBufferCopy& r : regions)
    std::memcpy(model.data() + r.dstOffset, before.data() + r.srcOffset, r.size);
  EXPECT_TRUE(Matches(b, model));
}

TEST_F(BufferTransfers, CopyBuffer2Regions) {
  std::vector<uint8_t> src_model, dst_model;
  HostBuffer src = Patterned(10000, 50, &src_model);
  HostBuffer dst = Patterned(10000, 51, &dst_model);
  ASSERT_NE(dst.data, nullptr);
  const VkBufferCopy2 regions[] = {
      {VK_STRUCTURE_TYPE_BUFFER_COPY_2, nullptr, 5, 9000, 999},
      {VK_STRUCTURE_TYPE_BUFFER_COPY_2, nullptr, 9000, 3, 1000},
      {VK_STRUCTURE_TYPE_BUFFER_COPY_2, nullptr, 2222, 4444, 1},
  };
  VkCopyBufferInfo2 info{VK_STRUCTURE_TYPE_COPY_BUFFER_INFO_2};
  info.srcBuffer = src.buffer;
  info.dstBuffer = dst.buffer;
  info.regionCount = 3;
  info.pRegions = regions;
  VkCommandBuffer cb = BeginCommands();
  vkCmdCopyBuffer2(cb, &info);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  for (const VkBufferCopy2& r : regions)
    std::memcpy(dst_model.data() + r.dstOffset, src_model.data() + r.srcOffset, r.size);
  EXPECT_TRUE(Matches(dst, dst_model));
}

TEST_F(BufferTransfers, Copy64MiBAtOddOffsets) {
  constexpr VkDeviceSize kSize = 64ull << 20;
  HostBuffer src = MakeHostBuffer(kSize);
  HostBuffer dst = MakeHostBuffer(kSize);
  ASSERT_NE(src.data, nullptr);
  ASSERT_NE(dst.data, nullptr);
  FillPattern(src.bytes(), 60);
  std::memset(dst.data, 0x3C, kSize);
  VkCommandBuffer cb = BeginCommands();
  VkBufferCopy whole{0, 0, kSize};
  vkCmdCopyBuffer(cb, src.buffer, dst.buffer, 1, &whole);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  EXPECT_EQ(FirstDifference(dst.bytes(), src.bytes()), SIZE_MAX);

  std::memset(dst.data, 0x3C, kSize);
  cb = BeginCommands();
  VkBufferCopy odd{1, 3, kSize - 8};
  vkCmdCopyBuffer(cb, src.buffer, dst.buffer, 1, &odd);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  EXPECT_EQ(dst.data[0], 0x3C);
  EXPECT_EQ(dst.data[1], 0x3C);
  EXPECT_EQ(dst.data[2], 0x3C);
  EXPECT_EQ(std::memcmp(dst.data + 3, src.data + 1, kSize - 8), 0);
  for (VkDeviceSize i = kSize - 5; i < kSize; ++i) ASSERT_EQ(dst.data[i], 0x3C) << i;
}

TEST_F(BufferTransfers, FillUpdateCopyChainWithBarriers) {
  // fill a -> update part of a -> copy a to c -> fill part of c.
  std::vector<uint8_t> a_model(4096), c_model(4096);
  HostBuffer a = MakeHostBuffer(4096);
  HostBuffer c = MakeHostBuffer(4096);
  ASSERT_NE(c.data, nullptr);
  std::memset(a.data, 0, 4096);
  std::memset(c.data, 0, 4096);
  std::vector<uint8_t> upd(256);
  FillPattern(upd, 70);
  VkCommandBuffer cb = BeginCommands();
  vkCmdFillBuffer(cb, a.buffer, 0, VK_WHOLE_SIZE, 0x11223344);
  ModelFill(a_model, 0, VK_WHOLE_SIZE, 0x11223344);
  TransferBarrier(cb);
  vkCmdUpdateBuffer(cb, a.buffer, 1024, upd.size(), upd.data());
  std::copy(upd.begin(), upd.end(), a_model.begin() + 1024);
  TransferBarrier(cb);
  VkBufferCopy region{512, 0, 2048};
  vkCmdCopyBuffer(cb, a.buffer, c.buffer, 1, &region);
  std::memcpy(c_model.data(), a_model.data() + 512, 2048);
  TransferBarrier(cb);
  vkCmdFillBuffer(cb, c.buffer, 2044, 8, 0xFEEDFACE);
  ModelFill(c_model, 2044, 8, 0xFEEDFACE);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  EXPECT_TRUE(Matches(a, a_model));
  EXPECT_TRUE(Matches(c, c_model));
}

}  // namespace
}  // namespace duet_test
