#version 450
// Float controls: 16-bit denormals flushed and results rounded toward zero.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_spirv_intrinsics : require
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4465], 4460, 16);  // DenormFlushToZero
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4468], 4463, 16);  // RoundingModeRTZ
#include "float_controls_body.glsl"
