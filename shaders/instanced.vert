#version 330 core
// The scene's wireframes, instanced by vertex pulling (one indexed GL_LINES draw per unit mesh and
// level of detail, no vertex attributes): index k * u_mesh_count + j is vertex j of the unit mesh
// (app/Wireframe.h, UnitMesh) placed by the draw's k-th instance, shape u_list[u_list_first + k].
// Per-instance attributes with glVertexAttribDivisor draw the same, but Mesa's llvmpipe runs its
// whole vertex pipeline once per instance, which for 10 000 small shapes costs more than the lines.
// The arithmetic is raypick::app::instance_point(), which the tests check.
uniform samplerBuffer u_instances;  // six RGBA32F texels a shape: transform columns, offset, colour
uniform samplerBuffer u_mesh;       // unit-mesh vertices: xyz, w = 1 for a capsule's end b
uniform isamplerBuffer u_list;      // the shape index of each instance of this draw
uniform int u_mesh_first;
uniform int u_mesh_count;
uniform int u_list_first;
uniform mat4 u_view_projection;

out vec4 v_color;

void main() {
    int instance = gl_VertexID / u_mesh_count;
    int corner = gl_VertexID - instance * u_mesh_count;
    int base = texelFetch(u_list, u_list_first + instance).r * 6;
    vec4 p = texelFetch(u_mesh, u_mesh_first + corner);
    mat4 transform = mat4(texelFetch(u_instances, base), texelFetch(u_instances, base + 1),
                          texelFetch(u_instances, base + 2), texelFetch(u_instances, base + 3));
    vec3 world = (transform * vec4(p.xyz, 1.0)).xyz + p.w * texelFetch(u_instances, base + 4).xyz;
    v_color = texelFetch(u_instances, base + 5);
    gl_Position = u_view_projection * vec4(world, 1.0);
}
