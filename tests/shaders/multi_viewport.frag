#version 450
// The primitive's viewport index (red) and instance (green), 32 levels a
// step, over blue 255.
layout(location = 0) flat in uint v_instance;
layout(location = 0) out vec4 color;
void main() { color = vec4(float(gl_ViewportIndex * 32) / 255.0, float(v_instance * 32u) / 255.0, 1.0, 1.0); }
