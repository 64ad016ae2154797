#version 330 core
// Wireframes, grid, axes, rays and normal arrows: one colour per vertex. u_offset shifts the
// picture (in normalised device units) for the annotations' dark outline (see lines.frag).
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec4 a_color;

uniform mat4 u_view_projection;
uniform vec2 u_offset;

out vec4 v_color;

void main() {
    v_color = a_color;
    gl_Position = u_view_projection * vec4(a_position, 1.0);
    gl_Position.xy += u_offset * gl_Position.w;
}
