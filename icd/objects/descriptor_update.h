// Descriptor writes, shared by vkUpdateDescriptorSets, update templates and
// push descriptors (VK_KHR_push_descriptor), which write into sets of the
// command buffer's own as they are recorded.
#pragma once

#include <vulkan/vulkan_core.h>

#include "objects/descriptor_set.h"

namespace duet {

// Writes the descriptors `write` names (its dstSet is not looked at).
void ApplyDescriptorWrite(DescriptorSet* set, const VkWriteDescriptorSet& write);

// Writes what the template's entries read from `data` (its type is not
// looked at).
void ApplyDescriptorTemplate(DescriptorSet* set, const DescriptorUpdateTemplate& update_template,
                             const void* data);

}  // namespace duet
