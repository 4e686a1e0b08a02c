// Name -> function lookups with the spec's visibility rules:
//  vkGetInstanceProcAddr: global commands with or without an instance; with
//    an instance, every instance-, physical-device- and device-level command
//    of core Vulkan, of enabled instance extensions, and of device extensions
//    the physical device supports.
//  vkGetDeviceProcAddr: device-level commands only, of core versions up to
//    the one the application asked for, and of extensions enabled on the
//    device (or, for instance extensions with device commands, the instance).
#include "entry/proc_addr.h"

#include <atomic>

#include "dispatch/entrypoints.h"
#include "objects/device.h"
#include "objects/instance.h"

namespace duet {
namespace {

std::atomic<uint32_t> loader_interface_version{0};

using dispatch::CommandLevel;
using dispatch::EntryPoint;
using dispatch::Extension;

// Whether any extension exposing the command is enabled; `device` may be null.
bool ExtensionEnabled(const EntryPoint& entry, const Instance& instance, const Device* device) {
  for (Extension e : entry.extensions) {
    if (e == Extension::kNone) break;
    const auto index = static_cast<size_t>(e);
    bool instance_extension = false;
    for (const dispatch::ExtensionInfo& info : dispatch::InstanceExtensions())
      instance_extension |= info.id == e;
    if (instance_extension ? instance.enabled_extensions[index]
                           : device == nullptr || device->enabled_extensions[index])
      return true;
  }
  return false;
}

}  // namespace

void NoteLoaderInterfaceVersion(uint32_t version) { loader_interface_version = version; }
uint32_t LoaderInterfaceVersion() { return loader_interface_version; }

PFN_vkVoidFunction GetPhysicalDeviceProcAddr(VkInstance _instance, const char* name) {
  Instance* instance = FromHandle<Instance>(_instance);
  const EntryPoint* entry = dispatch::FindEntryPoint(name);
  if (instance == nullptr || entry == nullptr || entry->level != CommandLevel::kPhysicalDevice) return nullptr;
  if (entry->core_version == 0 && !ExtensionEnabled(*entry, *instance, nullptr)) return nullptr;
  return entry->function;
}

}  // namespace duet

namespace duet::api {

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance _instance, const char* pName) {
  const dispatch::EntryPoint* entry = dispatch::FindEntryPoint(pName);
  if (entry == nullptr) return nullptr;
  if (entry->level == dispatch::CommandLevel::kGlobal) return entry->function;
  Instance* instance = FromHandle<Instance>(_instance);
  if (instance == nullptr) return nullptr;
  if (entry->core_version == 0 && !ExtensionEnabled(*entry, *instance, nullptr)) return nullptr;
  return entry->function;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice _device, const char* pName) {
  Device* device = FromHandle<Device>(_device);
  const dispatch::EntryPoint* entry = dispatch::FindEntryPoint(pName);
  if (device == nullptr || entry == nullptr || entry->level != dispatch::CommandLevel::kDevice) return nullptr;
  if (entry->core_version != 0) {
    if (entry->core_version > device->api_version) return nullptr;
  } else if (!ExtensionEnabled(*entry, *device->instance, device)) {
    return nullptr;
  }
  return entry->function;
}

}  // namespace duet::api
