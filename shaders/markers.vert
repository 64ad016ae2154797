#version 330 core
// Entry/exit points and handles: screen-space squares (GL points) of a fixed pixel size.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec4 a_color;

uniform mat4 u_view_projection;
uniform float u_point_size;

out vec4 v_color;

void main() {
    v_color = a_color;
    gl_Position = u_view_projection * vec4(a_position, 1.0);
    gl_PointSize = u_point_size;
}
