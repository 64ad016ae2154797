#version 330 core
// Object-id picture (the ray-cast view's difference mode): each vertex carries its shape's index
// (a float, exact below 2^24).
layout(location = 0) in vec3 a_position;
layout(location = 1) in float a_shape;

uniform mat4 u_view_projection;

flat out float v_shape;

void main() {
    v_shape = a_shape;
    gl_Position = u_view_projection * vec4(a_position, 1.0);
}
