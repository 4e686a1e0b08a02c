// vkCreateShaderModule keeps the words after validating them, so invalid
// SPIR-V fails here with a clear message rather than deep in a pipeline.
#include "spirv_exec/shader_module.h"

#include <string>

#include "dispatch/entrypoints.h"
#include "objects/device.h"
#include "spirv_exec/spirv_ingest.h"
#include "util/host_alloc.h"
#include "util/log.h"
#include "util/vk_util.h"

namespace duet {

spirv_exec::ValidationRules ShaderValidationRules(const Device& device) {
  const DeviceFeatures& f = device.enabled_features;
  spirv_exec::ValidationRules rules;
  rules.uniform_buffer_standard_layout = f.vulkan12.uniformBufferStandardLayout;
  rules.scalar_block_layout = f.vulkan12.scalarBlockLayout;
  return rules;
}

std::span<const uint32_t> StageModuleWords(const VkPipelineShaderStageCreateInfo& stage, std::vector<uint32_t>* storage,
                                           std::string* error) {
  if (const ShaderModule* module = FromHandle<ShaderModule>(stage.module)) return module->words;
  const auto* code = FindInChain<VkShaderModuleCreateInfo>(stage.pNext, VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  if (code == nullptr) {
    *error = "no shader module";
    return {};
  }
  if (code->codeSize % 4 != 0 || !spirv_exec::CheckSpirvStructure(code->pCode, code->codeSize / 4, error)) {
    if (error->empty()) *error = "invalid SPIR-V";
    return {};
  }
  storage->assign(code->pCode, code->pCode + code->codeSize / 4);
  return *storage;
}

uint32_t StageSubgroupSize(const VkPipelineShaderStageCreateInfo& stage) {
  const auto* required = FindInChain<VkPipelineShaderStageRequiredSubgroupSizeCreateInfo>(
      stage.pNext, VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO);
  return required != nullptr ? required->requiredSubgroupSize : spirv_exec::kWaveWidth;
}

}  // namespace duet

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL CreateShaderModule(VkDevice _device, const VkShaderModuleCreateInfo* pCreateInfo,
                                                  const VkAllocationCallbacks* pAllocator,
                                                  VkShaderModule* pShaderModule) {
  Device* device = FromHandle<Device>(_device);
  const size_t word_count = pCreateInfo->codeSize / 4;
  std::string error;
  // What is not SPIR-V at all is refused here; what breaks SPIR-V's rules
  // when a pipeline compiles it (a stage from a pipeline cache was
  // validated when it was compiled).
  if (pCreateInfo->codeSize % 4 != 0 || !spirv_exec::CheckSpirvStructure(pCreateInfo->pCode, word_count, &error)) {
    // Invalid SPIR-V is the application's error, which no core result code
    // names: VK_ERROR_UNKNOWN is the spec's answer to such input.
    DUET_ERROR("vkCreateShaderModule: invalid SPIR-V: %s", error.c_str());
    return VK_ERROR_UNKNOWN;
  }
  const VkAllocationCallbacks* allocator = ChooseAllocator(pAllocator, device->Allocator());
  auto* module = HostNew<ShaderModule>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, allocator);
  if (module == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  try {
    module->words.assign(pCreateInfo->pCode, pCreateInfo->pCode + word_count);
  } catch (const std::bad_alloc&) {
    HostDelete(allocator, module);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  *pShaderModule = ToHandle(module);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyShaderModule(VkDevice _device, VkShaderModule shaderModule,
                                               const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  HostDelete(ChooseAllocator(pAllocator, device->Allocator()), FromHandle<ShaderModule>(shaderModule));
}

}  // namespace duet::api
