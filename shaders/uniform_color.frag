#version 330 core
// The scene's wireframes: one colour for the whole draw (no per-vertex colour to interpolate).
uniform vec4 u_color;
out vec4 frag_color;

void main() {
    frag_color = u_color;
}
