#version 330 core
// Writes (shape index + 1) into RGB8, low byte in red; 0 (the clear colour) is the background.
flat in float v_shape;
out vec4 frag_color;

void main() {
    uint id = uint(v_shape + 0.5) + 1u;
    frag_color = vec4(float(id & 255u), float((id >> 8) & 255u), float((id >> 16) & 255u), 255.0) / 255.0;
}
