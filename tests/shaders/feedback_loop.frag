#version 450
// Reads the attachment being rendered at this fragment's own pixel (an
// attachment feedback loop) and writes half of it back.
layout(set = 0, binding = 0) uniform sampler2D attachment;
layout(location = 0) out vec4 color;
void main() { color = vec4(texelFetch(attachment, ivec2(gl_FragCoord.xy), 0).rgb * 0.5, 1.0); }
