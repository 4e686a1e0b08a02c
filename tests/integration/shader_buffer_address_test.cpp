// Buffer device addresses in shaders (PhysicalStorageBuffer, GLSL
// GL_EXT_buffer_reference): pointers passed in push constants, indexing,
// struct layouts, pointers stored in and loaded from memory, uvec2
// conversions, linked lists across buffers, atomics, OpPtrAccessChain, and
// addresses that no allocation holds.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "shaders/bda_access.comp.h"
#include "shaders/bda_atomic.comp.h"
#include "shaders/bda_linked_list.comp.h"
#include "shaders/bda_narrow.comp.h"
#include "shaders/bda_pointer_arithmetic.comp.h"
#include "shaders/bda_ptr_access_chain.spvasm.h"

namespace duet_test {
namespace {

class ShaderBufferAddressTest : public ComputeFixture {
 protected:
  ShaderBufferAddressTest() { device_options_.shader_features = true; }

  // A mapped buffer whose memory was allocated for device addresses, and its address.
  struct AddressBuffer : HostBuffer {
    VkDeviceAddress address = 0;
  };

  AddressBuffer MakeAddressBuffer(VkDeviceSize size) {
    AddressBuffer b;
    b.size = size;
    b.buffer = MakeBuffer(size, VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    if (b.buffer == VK_NULL_HANDLE) return b;
    VkMemoryRequirements req{};
    vkGetBufferMemoryRequirements(device_, b.buffer, &req);
    const uint32_t type = FindMemoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                                  VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    b.memory = MakeMemory(req.size, type, &flags);
    if (b.memory == VK_NULL_HANDLE) return b;
    EXPECT_EQ(vkBindBufferMemory(device_, b.buffer, b.memory, 0), VK_SUCCESS);
    void* map = nullptr;
    EXPECT_EQ(vkMapMemory(device_, b.memory, 0, VK_WHOLE_SIZE, 0, &map), VK_SUCCESS);
    b.data = static_cast<uint8_t*>(map);
    std::memset(b.data, 0, size_t(size));
    VkBufferDeviceAddressInfo info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
    info.buffer = b.buffer;
    b.address = vkGetBufferDeviceAddress(device_, &info);
    EXPECT_NE(b.address, 0u);
    return b;
  }

  // A pipeline with no descriptors, only push constants.
  Kernel MakePushKernel(std::span<const uint32_t> code, uint32_t push_bytes) {
    return MakeKernelWithBindings(code, {}, push_bytes);
  }
};

struct AccessPush {
  VkDeviceAddress src, dst, items, ptrs;
  uint32_t raw[2], bogus[2];
  uint32_t n;
};

struct Item {
  float xy[2];
  uint32_t id;
  uint32_t pad;
  float m[2][4];  // two vec3 columns, 16 bytes apart
};
static_assert(sizeof(Item) == 48);

TEST_F(ShaderBufferAddressTest, ReadWriteThroughPointers) {
  constexpr uint32_t n = 100;  // two workgroups of 64, the second partial
  AddressBuffer src = MakeAddressBuffer((n + 8) * 4), dst = MakeAddressBuffer(8 * n * 4),
                items = MakeAddressBuffer(n * sizeof(Item)), ptrs = MakeAddressBuffer(2 * n * 8);
  ASSERT_NE(src.data, nullptr);
  for (uint32_t i = 0; i < n + 8; ++i) src.as<uint32_t>()[i] = 5000 + i * 11;
  Item* it = items.as<Item>();
  for (uint32_t i = 0; i < n; ++i) {
    it[i].xy[0] = float(i % 10);
    it[i].xy[1] = 0.5f;
    it[i].id = i * 3;
    for (int c = 0; c < 2; ++c)
      for (int r = 0; r < 4; ++r) it[i].m[c][r] = float(c * 10 + r);
    it[i].m[1][3] = -1.0f;  // padding after the column: never written
  }
  uint64_t* p = ptrs.as<uint64_t>();
  for (uint32_t i = 0; i < n; ++i) p[i] = i % 2 ? dst.address : src.address;

  // The bogus address: past the end of the address space's user half,
  // where no mapping of this process can be.
  const uint64_t bogus = 0x7ff0000000000000ull;
  AccessPush push{src.address, dst.address, items.address, ptrs.address,
                  {uint32_t(src.address), uint32_t(src.address >> 32)},
                  {uint32_t(bogus), uint32_t(bogus >> 32)},
                  n};
  Kernel k = MakePushKernel(kBdaAccessComp, sizeof push);
  Run(k, 2, 1, 1, &push, sizeof push);

  const uint32_t* s = src.as<uint32_t>();
  const uint32_t* d = dst.as<uint32_t>();
  for (uint32_t i = 0; i < n; ++i) {
    EXPECT_EQ(d[i], s[i] * 3 + 1) << i;
    EXPECT_EQ(d[n + i], s[(i + 1) % n]) << "through a pointer made of two words, " << i;
    EXPECT_EQ(d[2 * n + i], s[i + 8]) << "32 bytes further on, " << i;
    EXPECT_EQ(d[3 * n + 2 * i], uint32_t(dst.address)) << i;
    EXPECT_EQ(d[3 * n + 2 * i + 1], uint32_t(dst.address >> 32)) << i;
    EXPECT_EQ(d[5 * n + i], i * 3 + (i % 10) * 1000 + 12 * 100000) << "item " << i;
    EXPECT_EQ(d[6 * n + i], i % 2 ? s[i] * 3 + 1 : s[i]) << "through a pointer loaded from memory, " << i;
    EXPECT_EQ(p[n + i], i % 3 == 0 ? src.address : dst.address) << "pointer stored, " << i;
    EXPECT_EQ(d[7 * n + i], 7u) << "a bogus address reads 0, " << i;
    EXPECT_FLOAT_EQ(it[i].m[0][1], 0.5f + float(i)) << i;
    EXPECT_FLOAT_EQ(it[i].xy[0], 10.0f) << i;
    EXPECT_FLOAT_EQ(it[i].xy[1], float(i * 6)) << i;
    EXPECT_EQ(it[i].id, i * 3) << i;
    EXPECT_FLOAT_EQ(it[i].m[1][3], -1.0f) << "a column's padding, " << i;
  }
  for (uint32_t i = n; i < n + 8; ++i) EXPECT_EQ(s[i], 5000 + i * 11) << "source word " << i;
}

struct ListPush {
  VkDeviceAddress heads, results;
  uint32_t n;
};

struct Node {
  uint64_t next;
  uint32_t value, visits;
};

TEST_F(ShaderBufferAddressTest, LinkedListsAcrossTwoBuffers) {
  constexpr uint32_t n = 80, kMaxLength = 9;
  AddressBuffer a = MakeAddressBuffer(n * kMaxLength * sizeof(Node)),
                b = MakeAddressBuffer(n * kMaxLength * sizeof(Node)), heads = MakeAddressBuffer(n * 8),
                results = MakeAddressBuffer(n * 16);
  ASSERT_NE(a.data, nullptr);
  // List i has i % kMaxLength nodes; node j of it lives in a (j even) or b.
  std::vector<uint32_t> sums(n, 0);
  std::vector<uint64_t> lasts(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t length = i % kMaxLength;
    uint64_t next = 0;
    for (uint32_t j = length; j-- > 0;) {
      AddressBuffer& home = j % 2 ? b : a;
      const uint32_t slot = i * kMaxLength + j;
      Node& node = home.as<Node>()[slot];
      node.next = next;
      node.value = i * 100 + j;
      sums[i] += node.value;
      next = home.address + slot * sizeof(Node);
      if (j == length - 1) lasts[i] = next;
    }
    heads.as<uint64_t>()[i] = next;
  }
  ListPush push{heads.address, results.address, n};
  Kernel k = MakePushKernel(kBdaLinkedListComp, sizeof push);
  Run(k, (n + 31) / 32, 1, 1, &push, sizeof push);

  const uint32_t* r = results.as<uint32_t>();
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t length = i % kMaxLength;
    EXPECT_EQ(r[4 * i], sums[i]) << "list " << i;
    EXPECT_EQ(r[4 * i + 1], length) << "list " << i;
    const uint64_t last = length == 0 ? heads.as<uint64_t>()[i] : lasts[i];
    EXPECT_EQ(r[4 * i + 2] | uint64_t(r[4 * i + 3]) << 32, last) << "list " << i;
    for (uint32_t j = 0; j < length; ++j)
      EXPECT_EQ((j % 2 ? b : a).as<Node>()[i * kMaxLength + j].visits, i + 1) << "list " << i << " node " << j;
  }
}

struct AtomicPush {
  VkDeviceAddress counters, olds;
  uint32_t n;
};

TEST_F(ShaderBufferAddressTest, AtomicsThroughPointers) {
  constexpr uint32_t n = 1000;
  AddressBuffer counters = MakeAddressBuffer(64), olds = MakeAddressBuffer(n * 4);
  ASSERT_NE(counters.data, nullptr);
  AtomicPush push{counters.address, olds.address, n};
  Kernel k = MakePushKernel(kBdaAtomicComp, sizeof push);
  Run(k, (n + 63) / 64, 1, 1, &push, sizeof push);

  const uint32_t* c = counters.as<uint32_t>();
  EXPECT_EQ(c[0], n * (n - 1) / 2);
  uint32_t maximum = 0;
  for (uint32_t i = 0; i < n; ++i) maximum = std::max(maximum, (i * 37) % 1000);
  EXPECT_EQ(c[1], maximum);
  EXPECT_GE(c[2], 1u);
  EXPECT_LE(c[2], n) << "exactly one compare-exchange wins";
  for (uint32_t bin = 0; bin < 8; ++bin) EXPECT_EQ(c[3 + bin], n / 8) << "bin " << bin;
  // Each bin's old values are 0 .. n/8 - 1, each once.
  std::vector<std::vector<bool>> seen(8, std::vector<bool>(n / 8, false));
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t old = olds.as<uint32_t>()[i];
    ASSERT_LT(old, n / 8) << i;
    EXPECT_FALSE(seen[i % 8][old]) << "old value " << old << " twice in bin " << i % 8;
    seen[i % 8][old] = true;
  }
}


// OpPtrAccessChain (what compilers other than glslang emit for pointer
// arithmetic): the element operand steps by the pointer type's
// ArrayStride, here both forwards and backwards.
TEST_F(ShaderBufferAddressTest, PtrAccessChainStepsByArrayStride) {
  constexpr uint32_t n = 64;
  AddressBuffer buffer = MakeAddressBuffer(3 * n * 16);
  ASSERT_NE(buffer.data, nullptr);
  uint32_t* w = buffer.as<uint32_t>();
  for (uint32_t i = 0; i < 3 * n * 4; ++i) w[i] = i;
  // The shader's base pointer is element n of an array of 16-byte
  // {uint a; uint b; uint c; uint d} structs.
  const VkDeviceAddress push = buffer.address + n * 16;
  Kernel k = MakePushKernel(kBdaPtrAccessChainSpvasm, sizeof push);
  Run(k, 1, 1, 1, &push, sizeof push);
  for (uint32_t i = 0; i < n; ++i) {
    // out = base[i].b + base[-1 - i].c, written to base[i].d.
    const uint32_t forward = (n + i) * 4 + 1, backward = (n - 1 - i) * 4 + 2;
    EXPECT_EQ(w[(n + i) * 4 + 3], forward + backward) << i;
  }
}

struct ArithmeticPush {
  VkDeviceAddress base;
  uint64_t raw;
  VkDeviceAddress wide;
  uint32_t n;
};

// GL_EXT_buffer_reference2's `pointer + n` and `pointer[n]` and uint64_t
// casts: GLSL compiles them through 64-bit integers. The device does not
// advertise shaderInt64 (only this part of it works), so the module's Int64
// capability is an error the validation layer reports.
TEST_F(ShaderBufferAddressTest, PointerArithmeticThrough64BitIntegers) {
  expected_validation_ids_.push_back("VUID-VkShaderModuleCreateInfo-pCode-01091");
  constexpr uint32_t n = 64;
  AddressBuffer vectors = MakeAddressBuffer(2 * n * 16), wide = MakeAddressBuffer(n * 16);
  ASSERT_NE(vectors.data, nullptr);
  uint32_t* v = vectors.as<uint32_t>();
  for (uint32_t i = 0; i < 2 * n * 4; ++i) v[i] = i;
  const VkDeviceAddress base = vectors.address + n * 16;
  ArithmeticPush push{base, base, wide.address, n};
  Kernel k = MakePushKernel(kBdaPointerArithmeticComp, sizeof push);
  Run(k, 1, 1, 1, &push, sizeof push);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t forward_x = (n + i) * 4, back_y = (n - 1 - i) * 4 + 1, from_int_z = (n + i) * 4 + 2;
    EXPECT_EQ(v[(n + i) * 4 + 3], forward_x + back_y + from_int_z + 16 * i * 1000 + 1000000) << i;
    const uint64_t* w = wide.as<uint64_t>() + 2 * i;
    EXPECT_EQ(w[0], 0xFFFFFFF0ull + uint64_t(i) * 0x100000001ull) << i;
    EXPECT_EQ(w[1], uint64_t(int64_t(int32_t(i) - 40)) * 3) << i;
  }
}

struct NarrowPush {
  VkDeviceAddress halves, shorts, bytes;
  uint32_t n;
};

// 8- and 16-bit loads and stores through addresses (VK_KHR_8bit_storage,
// VK_KHR_16bit_storage, shader_narrow_types_test.cpp for the rest).
TEST_F(ShaderBufferAddressTest, NarrowScalarsThroughPointers) {
  constexpr uint32_t n = 100;
  AddressBuffer halves = MakeAddressBuffer(n * 4), shorts = MakeAddressBuffer(n * 4), bytes = MakeAddressBuffer(n * 2);
  auto* h = reinterpret_cast<_Float16*>(halves.data);
  auto* s = reinterpret_cast<int16_t*>(shorts.data);
  for (uint32_t i = 0; i < n; ++i) {
    h[i] = _Float16(float(i) * 0.75f - 30.0f);
    s[i] = int16_t(int32_t(i) * 655 - 32000);
    bytes.data[i] = uint8_t(i * 37);
  }
  NarrowPush push{halves.address, shorts.address, bytes.address, n};
  Kernel k = MakePushKernel(kBdaNarrowComp, sizeof push);
  Run(k, 2, 1, 1, &push, sizeof push);
  for (uint32_t i = 0; i < n; ++i) {
    SCOPED_TRACE(testing::Message() << "invocation " << i);
    EXPECT_EQ(float(h[n + i]), float(_Float16(h[i] * _Float16(-3.0f))));
    EXPECT_EQ(s[n + i], int16_t(s[i] >> 3));
    EXPECT_EQ(bytes.data[n + i], uint8_t(bytes.data[i] + bytes.data[(i + 1) % n]));
  }
}

}  // namespace
}  // namespace duet_test
