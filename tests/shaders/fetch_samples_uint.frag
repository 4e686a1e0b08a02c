#version 450
// The four samples of a 4x unsigned integer image at this pixel, as one
// number: sample 0 + 10 * sample 1 + 100 * sample 2 + 1000 * sample 3.
layout(set = 0, binding = 0) uniform usampler2DMS samples;
layout(location = 0) out uint out_value;
void main() {
  const ivec2 p = ivec2(gl_FragCoord.xy);
  out_value = texelFetch(samples, p, 0).r + 10u * texelFetch(samples, p, 1).r +
              100u * texelFetch(samples, p, 2).r + 1000u * texelFetch(samples, p, 3).r;
}
