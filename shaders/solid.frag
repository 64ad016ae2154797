#version 330 core
// The normal mapped to a colour (x -> red, y -> green, z -> blue, each from [-1, 1] to [0, 1]),
// so a wrong normal shows as a wrong colour at a glance. A one-sided face (of a surface without an
// inside: both its faces in one plane) is drawn only from the side its normal points to.
in vec3 v_normal;
flat in int v_one_sided;
out vec4 frag_color;

void main() {
    if (v_one_sided != 0 && !gl_FrontFacing) discard;
    vec3 n = normalize(v_normal);
    frag_color = vec4(n * 0.5 + 0.5, 1.0);
}
