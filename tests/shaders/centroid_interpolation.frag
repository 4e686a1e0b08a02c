#version 450
// The same position interpolated at the centroid (red) and the pixel
// centre (green).
layout(location = 0) centroid in vec2 pixel_centroid;
layout(location = 1) in vec2 pixel_centre;
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(fract(pixel_centroid.x), fract(pixel_centre.x), 0.0, 1.0); }
