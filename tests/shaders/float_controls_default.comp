#version 450
// Float controls: no execution modes (denormals kept, rounding to nearest even).
#extension GL_GOOGLE_include_directive : require
#include "float_controls_body.glsl"
