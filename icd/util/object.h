// Every driver object starts with a base that carries its VkObjectType (and,
// for dispatchable objects, the loader's dispatch slot first, as vk_icd.h
// requires). Handles are pointers to these objects; FromHandle/ToHandle are
// the only casts between the two.
#pragma once

#include <vulkan/vk_icd.h>
#include <vulkan/vulkan_core.h>

#include <cassert>
#include <type_traits>

namespace duet {

struct DispatchableObject {
  VK_LOADER_DATA loader_data;  // the loader writes its dispatch table pointer here
  VkObjectType object_type;

  explicit DispatchableObject(VkObjectType type) : object_type(type) { set_loader_magic_value(this); }
};

struct NonDispatchableObject {
  VkObjectType object_type;

  explicit NonDispatchableObject(VkObjectType type) : object_type(type) {}
};

// Declares the handle type and object type of a driver object class.
#define DUET_OBJECT_TYPE(VkHandle, kVkObjectType) \
  using HandleType = VkHandle;                    \
  static constexpr VkObjectType kObjectType = kVkObjectType

template <typename T>
T* FromHandle(typename T::HandleType handle) {
  static_assert(std::is_base_of_v<DispatchableObject, T> || std::is_base_of_v<NonDispatchableObject, T>);
  T* object = reinterpret_cast<T*>(handle);
  assert(object == nullptr || object->object_type == T::kObjectType);
  return object;
}

template <typename T>
typename T::HandleType ToHandle(T* object) {
  return reinterpret_cast<typename T::HandleType>(object);
}

}  // namespace duet
