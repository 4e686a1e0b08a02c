// Which image views and samplers exist now. A descriptor may name one that
// was destroyed when no shader invocation uses it (descriptorBindingPartiallyBound,
// or an element a shader reaches only in a branch not taken): code that
// resolves descriptors before the shader runs asks here before reading one.
#pragma once

namespace duet {

void MarkLive(const void* object);
void MarkDead(const void* object);
bool IsLive(const void* object);

}  // namespace duet
