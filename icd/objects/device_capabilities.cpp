// The features and limits Duet advertises. A feature is VK_TRUE only when
// the spec makes it mandatory for Vulkan 1.3 (the version the device
// reports) or when the driver implements it; limits are what the driver's
// data structures actually allow, never less than the spec's minimums.
#include "objects/device_capabilities.h"

#include <cstring>

#include "objects/device_limits.h"
#include "pipeline_cache/build_id.h"
#include "spirv_exec/ir.h"
#include "texel/sampler_state.h"

namespace duet {
namespace {

// UUIDs derived from readable text, zero-padded.
void CopyUuid(uint8_t (&uuid)[VK_UUID_SIZE], const char* text) {
  std::strncpy(reinterpret_cast<char*>(uuid), text, VK_UUID_SIZE);
}

DeviceFeatures MakeFeatures() {
  DeviceFeatures f{};
  f.vulkan11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
  f.vulkan12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  f.vulkan13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;

  // Mandatory in every Vulkan version.
  f.core.robustBufferAccess = VK_TRUE;

  // Cube array views: sampled, fetched, stored, queried
  // (tests/integration/graphics_sampling_test.cpp).
  f.core.imageCubeArray = VK_TRUE;

  // Implemented and tested (tests/integration/draw_test.cpp).
  f.core.largePoints = VK_TRUE;
  // Lines of any width up to kMaxLineWidth, as rectangles (draw_test.cpp).
  f.core.wideLines = VK_TRUE;
  // VK_EXT_line_rasterization: rectangular lines (the default ones),
  // Bresenham lines (parallelograms along the major axis covering whole
  // pixels), both stippled (the kept runs set up as lines of their own);
  // also as dynamic state (tests/integration/line_rasterization_test.cpp).
  // Smooth lines: rectangles half a pixel wider all round, each fragment's
  // coverage of the line multiplying colour 0's alpha.
  f.extension.rectangularLines = VK_TRUE;
  f.extension.bresenhamLines = VK_TRUE;
  f.extension.smoothLines = VK_TRUE;
  f.extension.stippledRectangularLines = VK_TRUE;
  f.extension.stippledBresenhamLines = VK_TRUE;
  f.extension.stippledSmoothLines = VK_TRUE;
  f.extension.extendedDynamicState3LineRasterizationMode = VK_TRUE;
  f.extension.extendedDynamicState3LineStippleEnable = VK_TRUE;
  // Rasterization runs at the attachments' sample count, which the
  // dynamic count must equal (sample_shading_test.cpp).
  f.extension.extendedDynamicState3RasterizationSamples = VK_TRUE;
  // Implemented and tested (tests/integration/logic_op_test.cpp), also as
  // dynamic state (VK_EXT_extended_dynamic_state2, whose other states are
  // Vulkan 1.3's, and patch control points: tessellation_test.cpp).
  f.core.logicOp = VK_TRUE;
  f.extension.extendedDynamicState2 = VK_TRUE;
  f.extension.extendedDynamicState2LogicOp = VK_TRUE;
  f.extension.extendedDynamicState2PatchControlPoints = VK_TRUE;
  // The VK_EXT_extended_dynamic_state3 states that are plain state of the
  // draw here (tests/integration/dynamic_state3_test.cpp); not the sample
  // count, line rasterization or the vendor states. The tessellation
  // domain origin: tessellation_test.cpp.
  f.extension.extendedDynamicState3TessellationDomainOrigin = VK_TRUE;
  f.extension.extendedDynamicState3DepthClampEnable = VK_TRUE;
  f.extension.extendedDynamicState3PolygonMode = VK_TRUE;
  f.extension.extendedDynamicState3SampleMask = VK_TRUE;
  f.extension.extendedDynamicState3AlphaToCoverageEnable = VK_TRUE;
  f.extension.extendedDynamicState3AlphaToOneEnable = VK_TRUE;
  f.extension.extendedDynamicState3LogicOpEnable = VK_TRUE;
  f.extension.extendedDynamicState3ColorBlendEnable = VK_TRUE;
  f.extension.extendedDynamicState3ColorBlendEquation = VK_TRUE;
  f.extension.extendedDynamicState3ColorWriteMask = VK_TRUE;
  f.extension.extendedDynamicState3RasterizationStream = VK_TRUE;
  f.extension.extendedDynamicState3DepthClipEnable = VK_TRUE;
  f.extension.extendedDynamicState3ProvokingVertexMode = VK_TRUE;
  f.extension.extendedDynamicState3DepthClipNegativeOneToOne = VK_TRUE;
  // Per-sample shading, polygon modes LINE and POINT
  // (tests/integration/sample_shading_test.cpp).
  f.core.sampleRateShading = VK_TRUE;
  f.core.fillModeNonSolid = VK_TRUE;
  // Stores and atomics from fragment and vertex shaders: helper and demoted
  // lanes never store, and storing fragment shaders run before the depth and
  // stencil tests unless they ask for early tests
  // (tests/integration/shader_stores_test.cpp).
  f.core.fragmentStoresAndAtomics = VK_TRUE;
  f.core.vertexPipelineStoresAndAtomics = VK_TRUE;
  // Every BC format is sampled, filtered, blitted from and copied
  // (texel/format_support, tests/integration/texture_compression_bc_test.cpp).
  f.core.textureCompressionBC = VK_TRUE;
  // ETC2 and EAC, decoded the same way (texel/etc2_decode;
  // tests/unit/texel_etc2_decode_test.cpp, texture_compression_etc2_test.cpp).
  f.core.textureCompressionETC2 = VK_TRUE;
  // ASTC LDR, every block size (texel/astc_decode; checked against libastcenc
  // in tests/unit/texel_astc_decode_test.cpp, texture_compression_astc_test.cpp).
  f.core.textureCompressionASTC_LDR = VK_TRUE;

  // Arrays of descriptors indexed per lane (spirv_exec: k*Indexed ops and
  // kImageArray), whatever the index and whatever the descriptors the
  // shader does not reach; descriptors are read when the commands run, so
  // updates after bind are seen (tests/integration/shader_descriptor_array_test.cpp).
  f.core.shaderUniformBufferArrayDynamicIndexing = VK_TRUE;
  f.core.shaderSampledImageArrayDynamicIndexing = VK_TRUE;
  f.core.shaderStorageBufferArrayDynamicIndexing = VK_TRUE;
  f.core.shaderStorageImageArrayDynamicIndexing = VK_TRUE;
  f.vulkan12.shaderUniformTexelBufferArrayDynamicIndexing = VK_TRUE;
  f.vulkan12.shaderStorageTexelBufferArrayDynamicIndexing = VK_TRUE;
  f.vulkan12.shaderUniformBufferArrayNonUniformIndexing = VK_TRUE;
  f.vulkan12.shaderSampledImageArrayNonUniformIndexing = VK_TRUE;
  f.vulkan12.shaderStorageBufferArrayNonUniformIndexing = VK_TRUE;
  f.vulkan12.shaderStorageImageArrayNonUniformIndexing = VK_TRUE;
  f.vulkan12.shaderUniformTexelBufferArrayNonUniformIndexing = VK_TRUE;
  f.vulkan12.shaderStorageTexelBufferArrayNonUniformIndexing = VK_TRUE;
  f.vulkan12.descriptorBindingUniformBufferUpdateAfterBind = VK_TRUE;
  f.vulkan12.descriptorBindingSampledImageUpdateAfterBind = VK_TRUE;
  f.vulkan12.descriptorBindingStorageImageUpdateAfterBind = VK_TRUE;
  f.vulkan12.descriptorBindingStorageBufferUpdateAfterBind = VK_TRUE;
  f.vulkan12.descriptorBindingUniformTexelBufferUpdateAfterBind = VK_TRUE;
  f.vulkan12.descriptorBindingStorageTexelBufferUpdateAfterBind = VK_TRUE;
  f.vulkan12.descriptorBindingPartiallyBound = VK_TRUE;
  f.vulkan12.descriptorBindingVariableDescriptorCount = VK_TRUE;
  f.vulkan12.runtimeDescriptorArray = VK_TRUE;
  // All of the above: VK_EXT_descriptor_indexing's set, which Vulkan 1.3
  // extends to inline uniform blocks updated after binding (their bytes are
  // read when the commands run, like every descriptor).
  f.vulkan12.descriptorIndexing = VK_TRUE;
  f.vulkan13.descriptorBindingInlineUniformBlockUpdateAfterBind = VK_TRUE;
  // Descriptors are read when the commands that use them run: updating the
  // ones a pending command buffer does not use is harmless.
  f.vulkan12.descriptorBindingUpdateUnusedWhilePending = VK_TRUE;

  // Implemented and tested (tests/integration/blend_test.cpp,
  // viewport_depth_test.cpp, draw_call_test.cpp).
  f.core.independentBlend = VK_TRUE;
  f.core.dualSrcBlend = VK_TRUE;  // location 0, index 1 (BlendTest.DualSourceFactors)
  f.core.depthClamp = VK_TRUE;
  // The depth bounds test reads the stored depth per sample (raster/
  // fragment_output.cpp TestSample); the fast paths step aside for it.
  f.core.depthBounds = VK_TRUE;
  f.core.depthBiasClamp = VK_TRUE;
  f.core.multiDrawIndirect = VK_TRUE;
  f.core.drawIndirectFirstInstance = VK_TRUE;
  f.vulkan12.drawIndirectCount = VK_TRUE;

  // Geometry shaders (primitive/geometry_stage: every input and output
  // primitive, instancing, layered rendering, PrimitiveId; stream 0 only,
  // no transform feedback), with PointSize, under multiview too
  // (tests/integration/geometry_shader_test.cpp).
  f.core.geometryShader = VK_TRUE;
  f.core.shaderTessellationAndGeometryPointSize = VK_TRUE;
  f.vulkan11.multiviewGeometryShader = VK_TRUE;
  // Tessellation (primitive/tessellation_stage, tessellator): every domain,
  // spacing, winding and point mode, either domain origin, under multiview
  // too (tests/integration/tessellation_test.cpp).
  f.core.tessellationShader = VK_TRUE;
  f.vulkan11.multiviewTessellationShader = VK_TRUE;

  // A wave's lanes reconverge at the merge of every branch they diverge at
  // (per-block lane masks in structured order): what SubgroupUniformControlFlowKHR
  // asks for (subgroup_uniform_control_flow_test.cpp).
  f.extension.shaderSubgroupUniformControlFlow = VK_TRUE;
  // Mutable descriptors: set records carry their own type already
  // (objects/descriptor_set.h; tests/integration/mutable_descriptor_test.cpp).
  f.extension.mutableDescriptorType = VK_TRUE;
  // Graphics pipelines in parts, linked by copying the parts' compiled
  // stages and state (objects/pipeline_library; tests/integration/
  // pipeline_library_test.cpp): linking is always fast, and interpolation
  // decorations need not match across parts.
  f.extension.graphicsPipelineLibrary = VK_TRUE;
  // Pipelines that promise to be used in unprotected (or only protected)
  // command buffers: nothing differs without protected memory
  // (tests/integration/pipeline_flags_test.cpp).
  f.extension.pipelineProtectedAccess = VK_TRUE;
  // Single-sampled attachments rendered through implicit multisampled images
  // (raster/render_pass_state; tests/integration/multisampled_single_test.cpp).
  f.extension.multisampledRenderToSingleSampled = VK_TRUE;

  // Variable pointers into storage buffers and workgroup memory (selects,
  // phis, pointer access chains, comparisons, pointers kept in variables:
  // held as addresses, which loads resolve in the workgroup's memory too),
  // and selects between arrays of storage buffers
  // (shader_variable_pointers_test.cpp).
  f.vulkan11.variablePointersStorageBuffer = VK_TRUE;
  f.vulkan11.variablePointers = VK_TRUE;

  // Mandatory since Vulkan 1.1.
  f.vulkan11.multiview = VK_TRUE;
  // BaseVertex, BaseInstance and DrawIndex in vertex shaders
  // (tests/integration/draw_parameters_test.cpp).
  f.vulkan11.shaderDrawParameters = VK_TRUE;
  // MIRROR_CLAMP_TO_EDGE addressing (texel/sample_addressing,
  // tests/integration/graphics_sampling_test.cpp).
  f.vulkan12.samplerMirrorClampToEdge = VK_TRUE;

  // Draws: every 32-bit index (restarts are flagged apart from vertex
  // numbers), 8-bit indices, restarts in lists (primitive_setup splits any
  // topology at them), instance-rate divisors, colour writes switched per
  // attachment, the last vertex as the provoking one, depth clipping apart
  // from depth clamping, alpha replaced by one after alpha to coverage
  // (tests/integration/draw_call_test.cpp, draw_state_test.cpp).
  f.core.fullDrawIndexUint32 = VK_TRUE;
  f.core.alphaToOne = VK_TRUE;
  f.extension.indexTypeUint8 = VK_TRUE;
  f.extension.primitiveTopologyListRestart = VK_TRUE;
  // Patch lists too: each run between restarts makes whole patches
  // (primitive/tessellation_stage; tessellation_test.cpp).
  f.extension.primitiveTopologyPatchListRestart = VK_TRUE;
  // Each tile's fragments are shaded and written in primitive order, so an
  // input attachment read of the attachment being written sees every
  // earlier fragment (VK_EXT/ARM_rasterization_order_attachment_access;
  // tests/integration/input_attachment_test.cpp).
  f.extension.rasterizationOrderColorAttachmentAccess = VK_TRUE;
  f.extension.rasterizationOrderDepthAttachmentAccess = VK_TRUE;
  f.extension.rasterizationOrderStencilAttachmentAccess = VK_TRUE;
  f.extension.vertexAttributeInstanceRateDivisor = VK_TRUE;
  f.extension.vertexAttributeInstanceRateZeroDivisor = VK_TRUE;
  f.extension.colorWriteEnable = VK_TRUE;
  f.extension.provokingVertexLast = VK_TRUE;
  // Strips are captured in the provoking-vertex order (transform_feedback_test.cpp).
  f.extension.transformFeedbackPreservesProvokingVertex = VK_TRUE;
  // Transform feedback of vertex and geometry shaders, 4 streams, queries,
  // indirect draws by byte count (primitive/transform_feedback,
  // tests/integration/transform_feedback_test.cpp); primitives-generated
  // queries on every stream, rasterizer discard or not.
  f.extension.transformFeedback = VK_TRUE;
  f.extension.geometryStreams = VK_TRUE;
  f.extension.primitivesGeneratedQuery = VK_TRUE;
  f.extension.primitivesGeneratedQueryWithRasterizerDiscard = VK_TRUE;
  f.extension.primitivesGeneratedQueryWithNonZeroStreams = VK_TRUE;
  f.extension.depthClipEnable = VK_TRUE;
  f.extension.depthClipControl = VK_TRUE;  // clip-space depth -w..w (viewport_depth_test.cpp)
  f.extension.vertexInputDynamicState = VK_TRUE;  // the draw reads vertex input state like any dynamic state

  // User clip and cull distances from vertex shaders: extra clip planes
  // (their values interpolated like varyings) and whole-primitive culling;
  // fragment shaders may read them (raster/primitive_setup,
  // tests/integration/clip_distance_test.cpp).
  f.core.shaderClipDistance = VK_TRUE;
  f.core.shaderCullDistance = VK_TRUE;

  // Viewports and scissors per primitive: the provoking vertex's
  // ViewportIndex picks them and its Layer the framebuffer layer
  // (raster/draw.cpp RasterizeGroups; tests/integration/multi_viewport_test.cpp).
  f.core.multiViewport = VK_TRUE;
  f.vulkan12.shaderOutputViewportIndex = VK_TRUE;
  f.vulkan12.shaderOutputLayer = VK_TRUE;

  // Draws, dispatches and attachment clears skipped by a predicate in a
  // buffer, in secondary command buffers too (cmdtape/replay.cpp;
  // tests/integration/conditional_rendering_test.cpp).
  f.extension.conditionalRendering = VK_TRUE;
  f.extension.inheritedConditionalRendering = VK_TRUE;

  // VK_EXT_robustness2: buffer accesses are checked against the
  // descriptor's exact range, reads outside an image or buffer give zero with
  // alpha 1 where the format has none (texel::OutOfBoundsTexel), and null
  // descriptors and vertex buffers read as nothing bound
  // (tests/integration/robustness2_test.cpp, shader_buffers_test.cpp).
  f.extension.robustBufferAccess2 = VK_TRUE;
  // Robustness is not something pipelines turn on here: every access is
  // always checked as robustness2 says, so a pipeline's
  // VkPipelineRobustnessCreateInfoEXT asks for nothing more (and
  // "disabled" only removes guarantees) (VK_EXT_pipeline_robustness).
  f.extension.pipelineRobustness = VK_TRUE;
  f.extension.robustImageAccess2 = VK_TRUE;
  f.extension.nullDescriptor = VK_TRUE;

  // A4R4G4B4 and A4B4G4R4 (VK_EXT_4444_formats): codecs like every packed
  // format's, from the name (texel/texel_codec.cpp; transfer_convert_test.cpp).
  f.extension.formatA4R4G4B4 = VK_TRUE;
  f.extension.formatA4B4G4R4 = VK_TRUE;

  // 16-, 32- and 64-bit float atomics (VK_EXT_shader_atomic_float, _float2):
  // add, min, max, exchange, load and store on buffers and shared memory,
  // and for 32-bit floats on R32_SFLOAT storage images and texel buffers, as
  // compare-exchange loops on the word (spirv_exec/atomic_operation.h;
  // shader_float_atomic_test.cpp). No sparse images.
  f.extension.shaderBufferFloat32Atomics = VK_TRUE;
  f.extension.shaderBufferFloat32AtomicAdd = VK_TRUE;
  f.extension.shaderSharedFloat32Atomics = VK_TRUE;
  f.extension.shaderSharedFloat32AtomicAdd = VK_TRUE;
  f.extension.shaderImageFloat32Atomics = VK_TRUE;
  f.extension.shaderImageFloat32AtomicAdd = VK_TRUE;
  f.extension.shaderBufferFloat32AtomicMinMax = VK_TRUE;
  f.extension.shaderSharedFloat32AtomicMinMax = VK_TRUE;
  f.extension.shaderImageFloat32AtomicMinMax = VK_TRUE;
  f.extension.shaderBufferFloat64Atomics = VK_TRUE;
  f.extension.shaderBufferFloat64AtomicAdd = VK_TRUE;
  f.extension.shaderSharedFloat64Atomics = VK_TRUE;
  f.extension.shaderSharedFloat64AtomicAdd = VK_TRUE;
  f.extension.shaderBufferFloat64AtomicMinMax = VK_TRUE;
  f.extension.shaderSharedFloat64AtomicMinMax = VK_TRUE;
  f.extension.shaderBufferFloat16Atomics = VK_TRUE;
  f.extension.shaderBufferFloat16AtomicAdd = VK_TRUE;
  f.extension.shaderBufferFloat16AtomicMinMax = VK_TRUE;
  f.extension.shaderSharedFloat16Atomics = VK_TRUE;
  f.extension.shaderSharedFloat16AtomicAdd = VK_TRUE;
  f.extension.shaderSharedFloat16AtomicMinMax = VK_TRUE;

  // 2D views of one slice of a 3D image in descriptors (VK_EXT_image_2d_view_of_3d):
  // a view's layer of a 3D image is a depth slice everywhere (texel/image_layout).
  f.extension.image2DViewOf3D = VK_TRUE;
  f.extension.sampler2DViewOf3D = VK_TRUE;

  // OpReadClockKHR (VK_KHR_shader_clock): a nanosecond steady clock, the
  // same for both scopes (shader_clock_test.cpp).
  f.extension.shaderSubgroupClock = VK_TRUE;
  f.extension.shaderDeviceClock = VK_TRUE;

  // Attachments sampled by the draws that render to them (layout
  // ATTACHMENT_FEEDBACK_LOOP_OPTIMAL): draws run in order, and pending
  // load-op clears are written before a draw reads an attachment
  // (raster/draw.cpp ReadsAttachments; feedback_loop_test.cpp).
  f.extension.attachmentFeedbackLoopLayout = VK_TRUE;

  // Queries: pipeline statistics of every stage, occlusion counts that are always exact, and queries active
  // while secondary command buffers execute (objects/query_pool,
  // tests/integration/query_test.cpp).
  f.core.pipelineStatisticsQuery = VK_TRUE;
  f.core.occlusionQueryPrecise = VK_TRUE;
  f.core.inheritedQueries = VK_TRUE;

  // Samplers: MIN and MAX reductions of the filter footprint
  // (VkSamplerReductionModeCreateInfo), custom border colours read in the
  // view's value class whatever their format, border colours swizzled by
  // the view's component mapping like texels, and cube maps sampled face by
  // face (texel/sample.cpp, sample_resolve.cpp;
  // tests/integration/sampler_modes_test.cpp).
  f.vulkan12.samplerFilterMinmax = VK_TRUE;
  // Anisotropic filtering: up to 16 trilinear probes along the footprint's
  // long axis (texel/sample.cpp; sampler_modes_test.cpp).
  f.core.samplerAnisotropy = VK_TRUE;
  f.extension.customBorderColors = VK_TRUE;
  f.extension.customBorderColorWithoutFormat = VK_TRUE;
  f.extension.borderColorSwizzle = VK_TRUE;
  f.extension.borderColorSwizzleFromImage = VK_TRUE;
  f.extension.nonSeamlessCubeMap = VK_TRUE;

  // Storage images: every SPIR-V storage format (the extended ones too),
  // multisampled ones read and written per sample, and images declared
  // without a format read and written in their view's format, which the
  // interpreter looks up when the instruction runs; gathers with a
  // dynamic offset or four constant ones (spirv_exec/interpreter_image,
  // compile_image; tests/integration/storage_image_test.cpp).
  f.core.shaderStorageImageExtendedFormats = VK_TRUE;
  f.core.shaderStorageImageMultisample = VK_TRUE;
  f.core.shaderStorageImageReadWithoutFormat = VK_TRUE;
  f.core.shaderStorageImageWriteWithoutFormat = VK_TRUE;
  f.core.shaderImageGatherExtended = VK_TRUE;

  // 64-bit integers: pairs of registers, low word first; add, subtract,
  // multiply and conversions as 32-bit ops on the halves, the rest as kWide
  // instructions (spirv_exec/compile_wide.cpp, interpreter_wide.cpp), in
  // subgroup operations too (tests/integration/shader_int64_test.cpp).
  // 64-bit atomics on buffers (through addresses too) and shared memory
  // (spirv_exec/atomic_operation.h; shader_int64_test.cpp).
  f.core.shaderInt64 = VK_TRUE;
  f.vulkan12.shaderBufferInt64Atomics = VK_TRUE;
  f.vulkan12.shaderSharedInt64Atomics = VK_TRUE;

  // 8- and 16-bit integers and 16-bit floats: one register each, integers
  // zero-extended and halves as the float of the same value, results masked
  // or rounded to half after each instruction; 1- and 2-byte loads and
  // stores in buffers and push constants (spirv_exec/compile_narrow.cpp;
  // tests/integration/shader_narrow_types_test.cpp).
  f.core.shaderInt16 = VK_TRUE;
  f.vulkan12.shaderInt8 = VK_TRUE;
  f.vulkan12.shaderFloat16 = VK_TRUE;
  f.vulkan11.storageBuffer16BitAccess = VK_TRUE;
  f.vulkan11.uniformAndStorageBuffer16BitAccess = VK_TRUE;
  f.vulkan11.storagePushConstant16 = VK_TRUE;
  // Stage inputs and outputs: made canonical when loaded, signed integers
  // sign-extended when stored (tests/integration/graphics_narrow_interface_test.cpp).
  f.vulkan11.storageInputOutput16 = VK_TRUE;
  // Doubles: register pairs, kDouble instructions computed as C++ doubles
  // (spirv_exec/compile_double.cpp; tests/integration/shader_float64_test.cpp).
  f.core.shaderFloat64 = VK_TRUE;
  f.vulkan12.storageBuffer8BitAccess = VK_TRUE;
  f.vulkan12.uniformAndStorageBuffer8BitAccess = VK_TRUE;
  f.vulkan12.storagePushConstant8 = VK_TRUE;

  // Blocks may use any layout their Offset, ArrayStride and MatrixStride
  // decorations give (tests/integration/shader_buffers_test.cpp).
  f.vulkan12.scalarBlockLayout = VK_TRUE;

  // Mandatory since Vulkan 1.2.
  f.vulkan12.uniformBufferStandardLayout = VK_TRUE;
  f.vulkan12.shaderSubgroupExtendedTypes = VK_TRUE;
  f.vulkan12.separateDepthStencilLayouts = VK_TRUE;
  f.vulkan12.hostQueryReset = VK_TRUE;
  f.vulkan12.imagelessFramebuffer = VK_TRUE;
  f.vulkan12.timelineSemaphore = VK_TRUE;
  f.vulkan12.subgroupBroadcastDynamicId = VK_TRUE;

  // Mandatory since Vulkan 1.3.
  f.vulkan12.bufferDeviceAddress = VK_TRUE;  // in shaders: tests/integration/shader_buffer_address_test.cpp
  f.vulkan12.vulkanMemoryModel = VK_TRUE;
  f.vulkan12.vulkanMemoryModelDeviceScope = VK_TRUE;
  // Availability and visibility chains of any length: shader memory is host
  // memory, never cached apart from the CPU's coherent caches, and x86 keeps
  // stores in order, so what is available at one scope is at every wider one
  // (memory_model_test.cpp; CTS memory_model.transitive).
  f.vulkan12.vulkanMemoryModelAvailabilityVisibilityChains = VK_TRUE;
  f.vulkan13.robustImageAccess = VK_TRUE;
  f.vulkan13.inlineUniformBlock = VK_TRUE;
  f.vulkan13.pipelineCreationCacheControl = VK_TRUE;
  f.vulkan13.privateData = VK_TRUE;
  f.vulkan13.shaderDemoteToHelperInvocation = VK_TRUE;
  f.vulkan13.shaderTerminateInvocation = VK_TRUE;
  f.vulkan13.subgroupSizeControl = VK_TRUE;
  f.vulkan13.computeFullSubgroups = VK_TRUE;
  f.vulkan13.synchronization2 = VK_TRUE;
  f.vulkan13.shaderZeroInitializeWorkgroupMemory = VK_TRUE;
  f.vulkan13.dynamicRendering = VK_TRUE;
  f.vulkan13.shaderIntegerDotProduct = VK_TRUE;
  f.vulkan13.maintenance4 = VK_TRUE;

  // Extension-only features (ExtensionFeatures), each with its extension
  // in dispatch/extensions.txt.
  // Present fences, per-present modes, image release (wsi/,
  // tests/integration/wsi_maintenance1_test.cpp).
  f.extension.swapchainMaintenance1 = VK_TRUE;
  // Present ids, and waits for the present that carried one to be shown
  // (wsi/present_engine; tests/integration/wsi_present_wait_test.cpp).
  f.extension.presentId = VK_TRUE;
  f.extension.presentWait = VK_TRUE;
  // vkCmdDrawMultiEXT, vkCmdDrawMultiIndexedEXT (tests/integration/draw_parameters_test.cpp).
  f.extension.multiDraw = VK_TRUE;
  // The dynamic states of Vulkan 1.3, under VK_EXT_extended_dynamic_state's name.
  f.extension.extendedDynamicState = VK_TRUE;
  // Texel buffer views at any offset aligned to their texel
  // (storage/uniformTexelBufferOffsetSingleTexelAlignment).
  f.extension.texelBufferAlignment = VK_TRUE;
  return f;
}

DeviceProperties MakeProperties() {
  DeviceProperties p{};
  p.vulkan11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES;
  p.vulkan12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES;
  p.vulkan13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES;

  VkPhysicalDeviceProperties& c = p.core;
  c.apiVersion = VK_HEADER_VERSION_COMPLETE;
  c.driverVersion = VK_MAKE_API_VERSION(0, 0, 1, 0);
  c.vendorID = 0x10005;  // VK_VENDOR_ID_MESA is taken; this is an unregistered id of our own
  c.deviceID = 0xD0E7;
  c.deviceType = VK_PHYSICAL_DEVICE_TYPE_CPU;
  std::strncpy(c.deviceName, "Duet Vulkan (software)", sizeof c.deviceName - 1);
  // Cached compilations are this build's own: another build's are foreign.
  std::memcpy(c.pipelineCacheUUID, pipeline_cache::DriverBuildId().bytes, VK_UUID_SIZE);

  VkPhysicalDeviceLimits& l = c.limits;
  l.maxImageDimension1D = limits::kMaxImageDimension1D;
  l.maxImageDimension2D = limits::kMaxImageDimension2D;
  l.maxImageDimension3D = limits::kMaxImageDimension3D;
  l.maxImageDimensionCube = limits::kMaxImageDimensionCube;
  l.maxImageArrayLayers = limits::kMaxImageArrayLayers;
  l.maxTexelBufferElements = limits::kMaxTexelBufferElements;
  l.maxUniformBufferRange = 65536;
  l.maxStorageBufferRange = 1u << 30;
  l.maxPushConstantsSize = 256;
  l.maxMemoryAllocationCount = limits::kMaxMemoryAllocationCount;
  l.maxSamplerAllocationCount = 32768;
  l.bufferImageGranularity = 64;
  l.sparseAddressSpaceSize = 0;
  l.maxBoundDescriptorSets = limits::kMaxBoundDescriptorSets;
  l.maxPerStageDescriptorSamplers = 1u << 16;
  l.maxPerStageDescriptorUniformBuffers = 1u << 16;
  l.maxPerStageDescriptorStorageBuffers = 1u << 16;
  l.maxPerStageDescriptorSampledImages = 1u << 16;
  l.maxPerStageDescriptorStorageImages = 1u << 16;
  l.maxPerStageDescriptorInputAttachments = 8;
  l.maxPerStageResources = 1u << 16;
  l.maxDescriptorSetSamplers = 1u << 16;
  l.maxDescriptorSetUniformBuffers = 1u << 16;
  l.maxDescriptorSetUniformBuffersDynamic = 16;
  l.maxDescriptorSetStorageBuffers = 1u << 16;
  l.maxDescriptorSetStorageBuffersDynamic = 16;
  l.maxDescriptorSetSampledImages = 1u << 16;
  l.maxDescriptorSetStorageImages = 1u << 16;
  l.maxDescriptorSetInputAttachments = 8;
  l.maxVertexInputAttributes = limits::kMaxVertexInputAttributes;
  l.maxVertexInputBindings = limits::kMaxVertexInputBindings;
  l.maxVertexInputAttributeOffset = 2047;
  l.maxVertexInputBindingStride = 2048;
  l.maxVertexOutputComponents = 128;
  l.maxTessellationGenerationLevel = 64;
  l.maxTessellationPatchSize = limits::kMaxTessellationPatchSize;
  l.maxTessellationControlPerVertexInputComponents = 128;
  l.maxTessellationControlPerVertexOutputComponents = 128;
  l.maxTessellationControlPerPatchOutputComponents = 120;
  l.maxTessellationControlTotalOutputComponents = 4096;
  l.maxTessellationEvaluationInputComponents = 128;
  l.maxTessellationEvaluationOutputComponents = 128;
  l.maxGeometryShaderInvocations = limits::kMaxGeometryShaderInvocations;
  l.maxGeometryInputComponents = 64;
  l.maxGeometryOutputComponents = 128;
  l.maxGeometryOutputVertices = limits::kMaxGeometryOutputVertices;
  l.maxGeometryTotalOutputComponents = 1024;
  l.maxFragmentInputComponents = 128;
  l.maxFragmentOutputAttachments = 8;
  l.maxFragmentDualSrcAttachments = 1;
  l.maxFragmentCombinedOutputResources = 8 + (1u << 16);
  l.maxComputeSharedMemorySize = limits::kMaxComputeSharedMemorySize;
  l.maxComputeWorkGroupCount[0] = l.maxComputeWorkGroupCount[1] = l.maxComputeWorkGroupCount[2] = 65535;
  l.maxComputeWorkGroupInvocations = limits::kMaxComputeWorkGroupInvocations;
  for (int i = 0; i < 3; ++i) l.maxComputeWorkGroupSize[i] = limits::kMaxComputeWorkGroupSize[i];
  l.subPixelPrecisionBits = 8;
  l.subTexelPrecisionBits = 8;
  l.mipmapPrecisionBits = 8;
  l.maxDrawIndexedIndexValue = UINT32_MAX;
  l.maxDrawIndirectCount = UINT32_MAX;  // draws are replayed one by one
  l.maxSamplerLodBias = texel::kMaxSamplerLodBias;
  l.maxSamplerAnisotropy = limits::kMaxSamplerAnisotropy;
  l.maxViewports = limits::kMaxViewports;
  l.maxViewportDimensions[0] = l.maxViewportDimensions[1] = limits::kMaxImageDimension2D;
  l.viewportBoundsRange[0] = -2.0f * limits::kMaxImageDimension2D;
  l.viewportBoundsRange[1] = 2.0f * limits::kMaxImageDimension2D - 1;
  l.viewportSubPixelBits = 8;
  l.minMemoryMapAlignment = 64;
  l.minTexelBufferOffsetAlignment = 16;
  l.minUniformBufferOffsetAlignment = 16;
  l.minStorageBufferOffsetAlignment = 16;
  l.minTexelOffset = -8;
  l.maxTexelOffset = 7;
  l.minTexelGatherOffset = -8;
  l.maxTexelGatherOffset = 7;
  l.minInterpolationOffset = -0.5f;
  l.maxInterpolationOffset = 0.4375f;
  l.subPixelInterpolationOffsetBits = 4;
  l.maxFramebufferWidth = limits::kMaxImageDimension2D;
  l.maxFramebufferHeight = limits::kMaxImageDimension2D;
  l.maxFramebufferLayers = limits::kMaxImageArrayLayers;
  l.framebufferColorSampleCounts = limits::kSampleCounts;
  l.framebufferDepthSampleCounts = limits::kSampleCounts;
  l.framebufferStencilSampleCounts = limits::kSampleCounts;
  l.framebufferNoAttachmentsSampleCounts = limits::kSampleCounts;
  l.maxColorAttachments = limits::kMaxColorAttachments;
  l.sampledImageColorSampleCounts = limits::kSampleCounts;
  l.sampledImageIntegerSampleCounts = limits::kSampleCounts;
  l.sampledImageDepthSampleCounts = limits::kSampleCounts;
  l.sampledImageStencilSampleCounts = limits::kSampleCounts;
  l.storageImageSampleCounts = limits::kSampleCounts;
  l.maxSampleMaskWords = 1;
  l.timestampComputeAndGraphics = VK_TRUE;
  l.timestampPeriod = 1.0f;  // timestamps are CLOCK_MONOTONIC nanoseconds
  l.maxClipDistances = limits::kMaxClipDistances;
  l.maxCullDistances = limits::kMaxCullDistances;
  l.maxCombinedClipAndCullDistances = limits::kMaxCombinedClipAndCullDistances;
  l.discreteQueuePriorities = 2;
  l.pointSizeRange[0] = limits::kMinPointSize;
  l.pointSizeRange[1] = limits::kMaxPointSize;
  l.lineWidthRange[0] = 1.0f;
  l.lineWidthRange[1] = limits::kMaxLineWidth;
  l.pointSizeGranularity = 0.125f;
  l.lineWidthGranularity = 0.125f;  // any width: the rectangle takes it exactly
  l.strictLines = VK_TRUE;
  l.standardSampleLocations = VK_TRUE;
  l.optimalBufferCopyOffsetAlignment = 4;
  l.optimalBufferCopyRowPitchAlignment = 4;
  l.nonCoherentAtomSize = 64;

  VkPhysicalDeviceVulkan11Properties& v11 = p.vulkan11;
  CopyUuid(v11.deviceUUID, "duet-device-0");
  CopyUuid(v11.driverUUID, "duet-drv-" DUET_VERSION_STRING);
  v11.subgroupSize = spirv_exec::kWaveWidth;  // a subgroup is a wave
  v11.subgroupSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_VERTEX_BIT |
                                VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT |
                                VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT | VK_SHADER_STAGE_GEOMETRY_BIT |
                                VK_SHADER_STAGE_FRAGMENT_BIT;
  v11.subgroupSupportedOperations = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT |
                                    VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT |
                                    VK_SUBGROUP_FEATURE_SHUFFLE_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT |
                                    VK_SUBGROUP_FEATURE_CLUSTERED_BIT | VK_SUBGROUP_FEATURE_QUAD_BIT;
  v11.subgroupQuadOperationsInAllStages = VK_TRUE;  // any four consecutive lanes of a wave form a quad
  v11.pointClippingBehavior = VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES;
  v11.maxMultiviewViewCount = 6;
  v11.maxMultiviewInstanceIndex = (1u << 27) - 1;
  v11.maxPerSetDescriptors = 1u << 16;
  v11.maxMemoryAllocationSize = limits::kMaxResourceSize;

  VkPhysicalDeviceVulkan12Properties& v12 = p.vulkan12;
  v12.driverID = static_cast<VkDriverId>(0);  // no registered id: reported as unknown
  std::strncpy(v12.driverName, "duet", sizeof v12.driverName - 1);
  std::strncpy(v12.driverInfo, "Duet Vulkan " DUET_VERSION_STRING " (SPIR-V interpreter, CPU rasterizer)",
               sizeof v12.driverInfo - 1);
  v12.conformanceVersion = {0, 0, 0, 0};  // not submitted for conformance
  v12.denormBehaviorIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
  v12.roundingModeIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
  v12.shaderSignedZeroInfNanPreserveFloat32 = VK_TRUE;
  // 32-bit float arithmetic is IEEE round-to-nearest-even with denormals
  // kept: the RTE and DenormPreserve execution modes ask for what always
  // happens. DenormFlushToZero and RoundingModeRTZ run the instructions of
  // their width under another MXCSR, and flush results (and halves'
  // operands) explicitly where that is not enough
  // (spirv_exec/compile_float_mode.cpp; float_controls_test.cpp).
  v12.shaderRoundingModeRTEFloat32 = VK_TRUE;
  v12.shaderDenormPreserveFloat32 = VK_TRUE;
  v12.shaderDenormFlushToZeroFloat32 = VK_TRUE;
  v12.shaderRoundingModeRTZFloat32 = VK_TRUE;
  v12.shaderDenormFlushToZeroFloat64 = VK_TRUE;
  v12.shaderRoundingModeRTZFloat64 = VK_TRUE;
  v12.shaderRoundingModeRTZFloat16 = VK_TRUE;
  v12.shaderDenormFlushToZeroFloat16 = VK_TRUE;
  // 16-bit floats are computed as 32-bit ones and rounded to nearest even
  // half, denormals, signed zeros, infinities and NaNs kept
  // (spirv_exec/compile_narrow.cpp).
  v12.shaderSignedZeroInfNanPreserveFloat16 = VK_TRUE;
  v12.shaderRoundingModeRTEFloat16 = VK_TRUE;
  v12.shaderDenormPreserveFloat16 = VK_TRUE;
  // 64-bit floats are C++ doubles lane by lane: IEEE round to nearest even,
  // denormals, signed zeros, infinities and NaNs kept (interpreter_double.cpp).
  v12.shaderSignedZeroInfNanPreserveFloat64 = VK_TRUE;
  v12.shaderRoundingModeRTEFloat64 = VK_TRUE;
  v12.shaderDenormPreserveFloat64 = VK_TRUE;
  // The update-after-bind limits bound all descriptors of a layout, not only
  // update-after-bind ones, so they equal the ordinary limits.
  v12.maxUpdateAfterBindDescriptorsInAllPools = 1u << 20;
  // Update-after-bind descriptors are read like any other: robust too.
  v12.robustBufferAccessUpdateAfterBind = VK_TRUE;
  // Update-after-bind sets (descriptorIndexing): the spec's minimum of
  // 500000 for the kinds it names; descriptors are plain memory here.
  constexpr uint32_t kUpdateAfterBindDescriptors = 500000;
  v12.maxPerStageDescriptorUpdateAfterBindSamplers = kUpdateAfterBindDescriptors;
  v12.maxPerStageDescriptorUpdateAfterBindUniformBuffers = l.maxPerStageDescriptorUniformBuffers;
  v12.maxPerStageDescriptorUpdateAfterBindStorageBuffers = kUpdateAfterBindDescriptors;
  v12.maxPerStageDescriptorUpdateAfterBindSampledImages = kUpdateAfterBindDescriptors;
  v12.maxPerStageDescriptorUpdateAfterBindStorageImages = kUpdateAfterBindDescriptors;
  v12.maxPerStageDescriptorUpdateAfterBindInputAttachments = l.maxPerStageDescriptorInputAttachments;
  v12.maxPerStageUpdateAfterBindResources = kUpdateAfterBindDescriptors;
  v12.maxDescriptorSetUpdateAfterBindSamplers = kUpdateAfterBindDescriptors;
  v12.maxDescriptorSetUpdateAfterBindUniformBuffers = l.maxDescriptorSetUniformBuffers;
  v12.maxDescriptorSetUpdateAfterBindUniformBuffersDynamic = l.maxDescriptorSetUniformBuffersDynamic;
  v12.maxDescriptorSetUpdateAfterBindStorageBuffers = kUpdateAfterBindDescriptors;
  v12.maxDescriptorSetUpdateAfterBindStorageBuffersDynamic = l.maxDescriptorSetStorageBuffersDynamic;
  v12.maxDescriptorSetUpdateAfterBindSampledImages = kUpdateAfterBindDescriptors;
  v12.maxDescriptorSetUpdateAfterBindStorageImages = kUpdateAfterBindDescriptors;
  v12.maxDescriptorSetUpdateAfterBindInputAttachments = l.maxDescriptorSetInputAttachments;
  // Every filterable format and every depth format reduces by MIN and MAX
  // (texel/format_support), after which the view's swizzle applies.
  v12.filterMinmaxSingleComponentFormats = VK_TRUE;
  v12.filterMinmaxImageComponentMapping = VK_TRUE;
  // Resolves combine a pixel's samples as the mode says (raster/transfer_resolve:
  // depth averaged as the float it reads as, stencil by min or max).
  v12.supportedDepthResolveModes =
      VK_RESOLVE_MODE_SAMPLE_ZERO_BIT | VK_RESOLVE_MODE_AVERAGE_BIT | VK_RESOLVE_MODE_MIN_BIT | VK_RESOLVE_MODE_MAX_BIT;
  v12.supportedStencilResolveModes = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT | VK_RESOLVE_MODE_MIN_BIT | VK_RESOLVE_MODE_MAX_BIT;
  v12.independentResolveNone = VK_TRUE;
  v12.independentResolve = VK_TRUE;
  v12.maxTimelineSemaphoreValueDifference = UINT64_MAX;
  v12.framebufferIntegerColorSampleCounts = limits::kSampleCounts;

  VkPhysicalDeviceVulkan13Properties& v13 = p.vulkan13;
  // A pipeline stage may ask for subgroups of 8 to 64 lanes: aligned runs of
  // a wave's lanes (spirv_exec/interpreter_group.cpp; subgroup_size_test.cpp).
  v13.minSubgroupSize = spirv_exec::kMinSubgroupSize;
  v13.maxSubgroupSize = v11.subgroupSize;
  v13.maxComputeWorkgroupSubgroups = l.maxComputeWorkGroupInvocations / v13.minSubgroupSize;
  v13.requiredSubgroupSizeStages = v11.subgroupSupportedStages;
  v13.maxInlineUniformBlockSize = 256;
  v13.maxPerStageDescriptorInlineUniformBlocks = 4;
  v13.maxPerStageDescriptorUpdateAfterBindInlineUniformBlocks = 4;
  v13.maxDescriptorSetInlineUniformBlocks = 4;
  v13.maxDescriptorSetUpdateAfterBindInlineUniformBlocks = 4;
  v13.maxInlineUniformTotalSize = 4 * 256;
  v13.storageTexelBufferOffsetAlignmentBytes = 16;
  v13.storageTexelBufferOffsetSingleTexelAlignment = VK_TRUE;
  v13.uniformTexelBufferOffsetAlignmentBytes = 16;
  v13.uniformTexelBufferOffsetSingleTexelAlignment = VK_TRUE;
  v13.maxBufferSize = limits::kMaxResourceSize;

  // Extension-only properties (ExtensionProperties).
  p.extension.maxMultiDrawCount = UINT32_MAX;  // draws are replayed one by one
  p.extension.graphicsPipelineLibraryFastLinking = VK_TRUE;
  p.extension.lineSubPixelPrecisionBits = 8;  // primitive_setup's kSubpixelBits
  p.extension.graphicsPipelineLibraryIndependentInterpolationDecoration = VK_TRUE;
  p.extension.minImportedHostPointerAlignment = 4096;  // memory.cpp's kMemoryAlignment: whole pages
  p.extension.defaultRobustnessStorageBuffers = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT;
  p.extension.defaultRobustnessUniformBuffers = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT;
  p.extension.defaultRobustnessVertexInputs = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT;
  p.extension.defaultRobustnessImages = VK_PIPELINE_ROBUSTNESS_IMAGE_BEHAVIOR_ROBUST_IMAGE_ACCESS_2_EXT;
  p.extension.maxPushDescriptors = limits::kMaxPushDescriptors;
  // Buffer accesses are checked byte-exactly against the descriptor's range.
  p.extension.robustStorageBufferAccessSizeAlignment = 1;
  p.extension.robustUniformBufferAccessSizeAlignment = 1;
  p.extension.maxVertexAttribDivisor = UINT32_MAX;
  p.extension.provokingVertexModePerPipeline = VK_TRUE;  // the mode is pipeline state, nothing more
  // Fans are captured in the provoking-vertex order too (primitive/input_assembly).
  p.extension.transformFeedbackPreservesTriangleFanProvokingVertex = VK_TRUE;
  p.extension.dynamicPrimitiveTopologyUnrestricted = VK_TRUE;  // any topology class at draw time
  p.extension.maxTransformFeedbackStreams = 4;
  p.extension.maxTransformFeedbackBuffers = 4;
  p.extension.maxTransformFeedbackBufferSize = UINT32_MAX;
  p.extension.maxTransformFeedbackStreamDataSize = 512;
  p.extension.maxTransformFeedbackBufferDataSize = 512;
  p.extension.maxTransformFeedbackBufferDataStride = 2048;
  p.extension.transformFeedbackQueries = VK_TRUE;
  p.extension.transformFeedbackStreamsLinesTriangles = VK_TRUE;
  p.extension.transformFeedbackRasterizationStreamSelect = VK_TRUE;
  p.extension.transformFeedbackDraw = VK_TRUE;
  p.extension.maxCustomBorderColorSamplers = 1u << 16;  // a sampler keeps its colour: no table to fill

  return p;
}

}  // namespace

const DeviceFeatures& SupportedFeatures() {
  static const DeviceFeatures features = MakeFeatures();
  return features;
}

const DeviceProperties& SupportedProperties() {
  static const DeviceProperties properties = MakeProperties();
  return properties;
}

}  // namespace duet
