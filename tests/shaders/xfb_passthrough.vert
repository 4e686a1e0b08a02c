#version 450
// No outputs of its own: the geometry shader after it makes the vertices.
void main() { gl_Position = vec4(float(gl_VertexIndex), 0.0, 0.0, 1.0); }
