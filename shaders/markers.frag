#version 330 core
// A filled square with a dark one-pixel border so markers stay visible on any background.
in vec4 v_color;
out vec4 frag_color;

uniform float u_point_size;

void main() {
    vec2 p = gl_PointCoord * u_point_size;
    float border = min(min(p.x, p.y), min(u_point_size - p.x, u_point_size - p.y));
    frag_color = border < 1.0 ? vec4(0.0, 0.0, 0.0, 1.0) : v_color;
}
