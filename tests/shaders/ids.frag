#version 450
// Writes the flat integer vector it receives (instanced_ids.vert).
layout(location = 0) flat in uvec4 ids;
layout(location = 0) out uvec4 out_ids;
void main() { out_ids = ids; }
