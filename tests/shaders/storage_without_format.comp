#version 450
// Storage images declared without a format (shaderStorageImageRead/
// WriteWithoutFormat): the texels are read and written in the bound view's
// format, whatever it is.
#extension GL_EXT_shader_image_load_formatted : require
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0) uniform readonly image2D src;
layout(set = 0, binding = 1) uniform writeonly image2D dst;
void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  imageStore(dst, p, imageLoad(src, p).yzwx * 0.5);
}
