// VK_KHR_pipeline_library and VK_EXT_graphics_pipeline_library: a graphics
// pipeline built in parts (vertex input, pre-rasterization shaders,
// fragment shader, fragment output), each part a library pipeline of its
// own, linked by copying the parts' state into the pipeline that names
// them (fast linking: nothing is compiled again).
#pragma once

#include <vulkan/vulkan_core.h>

#include "raster/graphics_state.h"

namespace duet {

inline constexpr VkGraphicsPipelineLibraryFlagsEXT kAllGraphicsParts =
    VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT |
    VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT |
    VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT |
    VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT;

// The parts a create info itself describes: its library flags, none for
// a library or a link without them, else all of them.
VkGraphicsPipelineLibraryFlagsEXT OwnGraphicsParts(const VkGraphicsPipelineCreateInfo& info);

// Copies the state of `parts` (and every dynamic state) from a library.
void CopyGraphicsParts(const raster::GraphicsPipelineState& from, VkGraphicsPipelineLibraryFlagsEXT parts,
                       raster::GraphicsPipelineState* to);

}  // namespace duet
