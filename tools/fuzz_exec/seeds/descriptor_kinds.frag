#version 450
// A fuzzing seed (scripts/fuzz_exec.sh): depth, multisampled and
// runtime-array descriptors read by a fragment shader.
#extension GL_EXT_nonuniform_qualifier : require
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform texture2D textures[];
layout(set = 0, binding = 1) uniform sampler samplers[];
layout(set = 0, binding = 2) uniform sampler2DArrayShadow shadow;
layout(set = 0, binding = 3) uniform sampler2DMSArray ms;
layout(push_constant) uniform Push { uint index; float depth; } push;
void main() {
  vec2 uv = gl_FragCoord.xy / 8.0;
  color = texture(sampler2D(textures[nonuniformEXT(push.index)], samplers[push.index % 7u]), uv);
  color.x += texture(shadow, vec4(uv, float(push.index), push.depth));
  color += texelFetch(ms, ivec3(gl_FragCoord.xy, push.index), gl_SampleID + int(push.index));
}
