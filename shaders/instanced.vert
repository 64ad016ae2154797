#version 330 core
// The scene's wireframes, instanced by vertex pulling (one indexed GL_LINES draw per unit mesh and
// level of detail, no vertex attributes): index k * u_mesh_count + j is vertex j of the unit mesh
// (app/ShapeMeshes.h, UnitMesh) placed by the draw's k-th instance, u_instances' instance
// u_instance_first + k (the renderer writes the drawn shapes' instances in draw order).
// Per-instance attributes with glVertexAttribDivisor draw the same, but Mesa's llvmpipe runs its
// whole vertex pipeline once per instance, which for 10 000 small shapes costs more than the lines.
// The arithmetic is raypick::app::gpu_instance_point() (= instance_point()), which the tests check.
uniform samplerBuffer u_instances;  // four RGBA32F texels an instance: the transform's rows 0-2, offset
uniform samplerBuffer u_mesh;       // unit-mesh vertices: xyz, w = 1 for a capsule's end b
uniform int u_mesh_first;
uniform int u_mesh_count;
uniform int u_instance_first;
uniform mat4 u_view_projection;

void main() {
    int instance = gl_VertexID / u_mesh_count;
    int corner = gl_VertexID - instance * u_mesh_count;
    int base = (u_instance_first + instance) * 4;
    vec4 p = texelFetch(u_mesh, u_mesh_first + corner);
    // The rows transposed into columns: the same products summed in the same order as
    // instance_point() (app/ShapeMeshes.h).
    mat4 transform = transpose(mat4(texelFetch(u_instances, base), texelFetch(u_instances, base + 1),
                                    texelFetch(u_instances, base + 2), vec4(0.0, 0.0, 0.0, 1.0)));
    vec3 world = (transform * vec4(p.xyz, 1.0)).xyz + p.w * texelFetch(u_instances, base + 3).xyz;
    gl_Position = u_view_projection * vec4(world, 1.0);
}
