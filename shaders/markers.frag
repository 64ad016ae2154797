#version 330 core
// A filled square, or a diamond when u_diamond is set, with a dark one-pixel border so markers stay
// visible on any background.
in vec4 v_color;
out vec4 frag_color;

uniform float u_point_size;
uniform int u_diamond;

void main() {
    vec2 p = gl_PointCoord * u_point_size;
    float border;
    if (u_diamond != 0) {
        // Distance to the diamond's edge |x| + |y| = r (in pixels, along the edge's normal).
        vec2 q = abs(p - vec2(0.5 * u_point_size));
        float inside = 0.5 * u_point_size - (q.x + q.y);
        if (inside < 0.0) discard;
        border = inside * 0.70710678;
    } else {
        border = min(min(p.x, p.y), min(u_point_size - p.x, u_point_size - p.y));
    }
    frag_color = border < 1.0 ? vec4(0.0, 0.0, 0.0, 1.0) : v_color;
}
