#version 450
// Float controls: 32-bit results rounded toward zero with denormals kept,
// 64-bit denormals flushed.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_spirv_intrinsics : require
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4468], 4463, 32);  // RoundingModeRTZ
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4464], 4459, 32);  // DenormPreserve
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4465], 4460, 64);  // DenormFlushToZero
#include "float_controls_body.glsl"
