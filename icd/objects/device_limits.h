// Numbers the device advertises in more than one place (physical-device
// limits, image format properties, creation checks): one definition each.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>

namespace duet::limits {

inline constexpr uint32_t kMaxImageDimension1D = 16384;
inline constexpr uint32_t kMaxImageDimension2D = 16384;
inline constexpr uint32_t kMaxImageDimension3D = 2048;
inline constexpr uint32_t kMaxImageDimensionCube = 16384;
inline constexpr uint32_t kMaxImageArrayLayers = 2048;
inline constexpr uint32_t kMaxTexelBufferElements = 128u * 1024u * 1024u;
// Largest single image or buffer: bounded so offset arithmetic stays in 64 bits
// with room to spare and a resource always fits the heap on a small machine.
inline constexpr VkDeviceSize kMaxResourceSize = VkDeviceSize{1} << 32;
inline constexpr VkSampleCountFlags kSampleCounts =
    VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_2_BIT | VK_SAMPLE_COUNT_4_BIT | VK_SAMPLE_COUNT_8_BIT;
inline constexpr uint32_t kMaxMemoryAllocationCount = 65536;
inline constexpr VkDeviceSize kBufferAlignment = 64;
inline constexpr VkDeviceSize kImageAlignment = 64;
// PointSize is clamped to this range (pointSizeRange); a point is two
// triangles, so the bound is only how far past the viewport one may reach.
inline constexpr float kMinPointSize = 1.0f;
inline constexpr float kMaxPointSize = 1024.0f;
// Wide lines are rectangles of their width (lineWidthRange [1, this]).
inline constexpr float kMaxLineWidth = 64.0f;
// Samples an anisotropic filter takes at most (maxSamplerAnisotropy).
inline constexpr float kMaxSamplerAnisotropy = 16.0f;
// Viewports and scissors of a pipeline (maxViewports).
inline constexpr uint32_t kMaxViewports = 16;
// Vertex input bindings and attributes (maxVertexInputBindings,
// maxVertexInputAttributes), colour attachments (maxColorAttachments):
// pipeline state holds at most these (util/inline_vector.h).
inline constexpr uint32_t kMaxVertexInputBindings = 32;
inline constexpr uint32_t kMaxVertexInputAttributes = 32;
inline constexpr uint32_t kMaxColorAttachments = 8;
// Descriptor sets bound at once (maxBoundDescriptorSets).
inline constexpr uint32_t kMaxBoundDescriptorSets = 8;
// Descriptors of one push descriptor set (maxPushDescriptors).
inline constexpr uint32_t kMaxPushDescriptors = 32;
// A compute workgroup (maxComputeWorkGroupSize, maxComputeWorkGroupInvocations);
// pipeline creation refuses shaders beyond them.
inline constexpr uint32_t kMaxComputeWorkGroupSize[3] = {1024, 1024, 64};
inline constexpr uint32_t kMaxComputeWorkGroupInvocations = 1024;
// Workgroup memory of one workgroup (maxComputeSharedMemorySize), and the
// Private and Function variables of one invocation (the driver's own
// bound: a wave holds them for each of its lanes); pipeline creation
// refuses shaders that need more.
inline constexpr uint32_t kMaxComputeSharedMemorySize = 32768;
inline constexpr uint32_t kMaxPrivateMemoryPerInvocation = 1u << 20;
// Geometry and tessellation shaders beyond these are refused too.
inline constexpr uint32_t kMaxGeometryShaderInvocations = 127;  // a lane each: no reason for the minimum (32)
inline constexpr uint32_t kMaxGeometryOutputVertices = 256;
inline constexpr uint32_t kMaxTessellationPatchSize = 32;
// The tessellation variables of one patch (a record per patch of a draw):
// four times what the output component limits allow, so that only absurd
// interfaces are refused.
inline constexpr uint32_t kMaxPatchRecordSize = 65536;
// ClipDistance and CullDistance array sizes (maxClipDistances,
// maxCullDistances, maxCombinedClipAndCullDistances).
inline constexpr uint32_t kMaxClipDistances = 8;
inline constexpr uint32_t kMaxCullDistances = 8;
inline constexpr uint32_t kMaxCombinedClipAndCullDistances = 8;
// Interface locations a stage's inputs or outputs may reach: twice what 128
// components need, so that only absurd interfaces are refused.
inline constexpr uint32_t kMaxInterfaceLocations = 64;

}  // namespace duet::limits
