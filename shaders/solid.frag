#version 330 core
// The normal mapped to a colour (x -> red, y -> green, z -> blue, each from [-1, 1] to [0, 1]),
// so a wrong normal shows as a wrong colour at a glance.
in vec3 v_normal;
out vec4 frag_color;

void main() {
    vec3 n = normalize(v_normal);
    frag_color = vec4(n * 0.5 + 0.5, 1.0);
}
