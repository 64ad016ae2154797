#version 330 core
// The vertex's colour, or a dark outline colour when u_dark is set.
in vec4 v_color;
out vec4 frag_color;

uniform float u_dark;

void main() {
    frag_color = u_dark > 0.5 ? vec4(0.0, 0.0, 0.0, 0.85) : v_color;
}
