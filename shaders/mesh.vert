#version 330 core
// Mesh instances (app/MeshDraw.h): the mesh's vertices placed by a per-instance world matrix
// (attributes 2-5, one column each, advancing once per instance), or by u_model when u_single is
// set (one highlighted instance). The normal goes through the inverse transpose of the linear
// part, as the core maps a hit's normals, so mirrored and non-uniformly scaled instances keep
// their normals.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec4 a_model0;
layout(location = 3) in vec4 a_model1;
layout(location = 4) in vec4 a_model2;
layout(location = 5) in vec4 a_model3;

uniform mat4 u_view_projection;
uniform mat4 u_model;
uniform int u_single;

out vec3 v_normal;
flat out int v_one_sided;  // solid.frag: meshes draw both sides

void main() {
    mat4 model = u_single != 0 ? u_model : mat4(a_model0, a_model1, a_model2, a_model3);
    v_normal = transpose(inverse(mat3(model))) * a_normal;
    v_one_sided = 0;
    gl_Position = u_view_projection * (model * vec4(a_position, 1.0));
}
