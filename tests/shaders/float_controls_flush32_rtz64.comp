#version 450
// Float controls: 32-bit denormals flushed, 64-bit results rounded toward zero
// with denormals kept (each width its own modes: independence ALL).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_spirv_intrinsics : require
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4465], 4460, 32);  // DenormFlushToZero
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4468], 4463, 64);  // RoundingModeRTZ
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4464], 4459, 64);  // DenormPreserve
#include "float_controls_body.glsl"
