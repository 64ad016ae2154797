#version 330 core
// Solid mode: surfaces coloured by their outward normal.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;

uniform mat4 u_view_projection;

out vec3 v_normal;

void main() {
    v_normal = a_normal;
    gl_Position = u_view_projection * vec4(a_position, 1.0);
}
