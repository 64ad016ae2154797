#version 330 core
// Solid mode, instanced by vertex pulling like shaders/instanced.vert: index k * u_mesh_count + j is
// vertex j of the unit solid (app/ShapeMeshes.h, unit_solid) placed by the draw's k-th instance,
// u_instances' instance u_instance_first + k. The normal goes through the cofactor matrix of the transform's columns
// made unit length (the largest entry divided out first), so flat boxes keep their faces' normals.
// The arithmetic is raypick::app::gpu_instance_point() and instance_normal(), which the tests check.
// A flat instance (a column of its transform zero: a triangle, a flat box) has no inside: its two
// faces lie in one plane, and only the one facing the eye is drawn (v_one_sided, solid.frag), so
// it shows the normal facing the ray, as the core's pick does (solid_one_sided()).
uniform samplerBuffer u_instances;  // four RGBA32F texels an instance: the transform's rows 0-2, offset
uniform samplerBuffer u_mesh;       // two texels a unit-solid vertex: xyz + far flag, normal
uniform int u_mesh_first;
uniform int u_mesh_count;
uniform int u_instance_first;
uniform mat4 u_view_projection;

out vec3 v_normal;
flat out int v_one_sided;

vec3 unit_column(vec4 c) {
    vec3 m = c.xyz;
    float big = max(max(abs(m.x), abs(m.y)), abs(m.z));
    return big > 0.0 ? normalize(m / big) : vec3(0.0);
}

void main() {
    int instance = gl_VertexID / u_mesh_count;
    int corner = gl_VertexID - instance * u_mesh_count;
    int base = (u_instance_first + instance) * 4;
    int at = 2 * (u_mesh_first + corner);
    vec4 p = texelFetch(u_mesh, at);
    vec3 n = texelFetch(u_mesh, at + 1).xyz;
    // The rows transposed into the transform's columns (the same arithmetic as instance_point()).
    mat4 transform = transpose(mat4(texelFetch(u_instances, base), texelFetch(u_instances, base + 1),
                                    texelFetch(u_instances, base + 2), vec4(0.0, 0.0, 0.0, 1.0)));
    vec4 c0 = transform[0], c1 = transform[1], c2 = transform[2];
    vec3 world = (transform * vec4(p.xyz, 1.0)).xyz + p.w * texelFetch(u_instances, base + 3).xyz;
    vec3 a0 = unit_column(c0), a1 = unit_column(c1), a2 = unit_column(c2);
    v_normal = mat3(cross(a1, a2), cross(a2, a0), cross(a0, a1)) * n;
    v_one_sided = (a0 == vec3(0.0) || a1 == vec3(0.0) || a2 == vec3(0.0)) ? 1 : 0;
    gl_Position = u_view_projection * vec4(world, 1.0);
}
