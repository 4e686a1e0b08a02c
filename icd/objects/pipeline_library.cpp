#include "objects/pipeline_library.h"

#include "util/vk_util.h"

namespace duet {

VkGraphicsPipelineLibraryFlagsEXT OwnGraphicsParts(const VkGraphicsPipelineCreateInfo& info) {
  if (const auto* library = FindInChain<VkGraphicsPipelineLibraryCreateInfoEXT>(
          info.pNext, VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT))
    return library->flags & kAllGraphicsParts;
  const auto* linked =
      FindInChain<VkPipelineLibraryCreateInfoKHR>(info.pNext, VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR);
  if ((info.flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR) != 0 || (linked != nullptr && linked->libraryCount > 0))
    return 0;
  return kAllGraphicsParts;
}

void CopyGraphicsParts(const raster::GraphicsPipelineState& from, VkGraphicsPipelineLibraryFlagsEXT parts,
                       raster::GraphicsPipelineState* to) {
  raster::GraphicsState& s = to->state;
  const raster::GraphicsState& f = from.state;
  if ((parts & VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT) != 0) {
    s.vertex_input = f.vertex_input;
    s.topology = f.topology;
    s.primitive_restart = f.primitive_restart;
  }
  if ((parts & VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT) != 0) {
    to->vertex = from.vertex;
    to->tess_control = from.tess_control;
    to->tess_evaluation = from.tess_evaluation;
    to->geometry = from.geometry;
    to->has_vertex = from.has_vertex;
    to->has_tessellation = from.has_tessellation;
    to->has_geometry = from.has_geometry;
    to->tessellation = from.tessellation;
    s.patch_control_points = f.patch_control_points;
    s.domain_origin_lower_left = f.domain_origin_lower_left;
    s.viewports = f.viewports;
    s.scissors = f.scissors;
    s.rasterization = f.rasterization;
  }
  if ((parts & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT) != 0) {
    to->fragment = from.fragment;
    to->has_fragment = from.has_fragment;
    s.depth_stencil = f.depth_stencil;
    // Both fragment parts take the multisample state: sample shading is the
    // fragment shader's, the rest the fragment output's.
    s.multisample.sample_shading = f.multisample.sample_shading;
    s.multisample.min_sample_shading = f.multisample.min_sample_shading;
  }
  if ((parts & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT) != 0) {
    s.blend = f.blend;
    s.multisample.samples = f.multisample.samples;
    s.multisample.sample_mask = f.multisample.sample_mask;
    s.multisample.alpha_to_coverage = f.multisample.alpha_to_coverage;
    s.multisample.alpha_to_one = f.multisample.alpha_to_one;
  }
  to->dynamic |= from.dynamic;
}

}  // namespace duet
