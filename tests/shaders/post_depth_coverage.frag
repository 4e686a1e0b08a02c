#version 450
// SampleMaskIn after the early depth test (VK_EXT_post_depth_coverage),
// or-ed per pixel into a buffer.
#extension GL_ARB_post_depth_coverage : require
layout(early_fragment_tests) in;
layout(post_depth_coverage) in;
layout(set = 0, binding = 0) buffer Masks { uint masks[]; };
void main() { atomicOr(masks[uint(gl_FragCoord.y) * 4u + uint(gl_FragCoord.x)], uint(gl_SampleMaskIn[0])); }
