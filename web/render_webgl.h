// render_webgl.h — draws Dear ImGui's draw data with WebGL2 (OpenGL ES 3.0), and never asks the GL anything.
//
// Why not ImGui's OpenGL3 backend: it backs up and restores GL state around every frame with ~20 glGetIntegerv
// calls, and checks shaders with glGetShaderiv. In a browser each of those is a synchronous round trip to the
// GPU process, so the page's main thread waits for the previous frame (and, at start-up, for shader compilation)
// to finish: under software GL (headless Chromium) that was most of the time to the first frame. This renderer
// owns all GL state, transforms vertices to clip space on the CPU (no uniforms to look up), and checks the
// shader program only once the first frame is known to be drawn (a fence), when the answer is ready anyway.
#pragma once

struct ImDrawData;

namespace gpucost::web {

// Compiles the program and creates the buffers; issues a tiny warm-up draw so that the GPU process prepares
// its pipeline while the page is still building its first frame. Returns false if the GL refused.
bool RendererInit();
// (Re)creates the font texture from ImGui's font atlas (after the atlas is built or rebuilt).
void RendererCreateFontTexture();
// Draws one frame's draw data into the default framebuffer (framebuffer size in pixels).
void RendererDraw(const ImDrawData* draw_data, int framebuffer_width, int framebuffer_height);
// Called on every tick: notes when the GPU has finished the first frame and then checks the program's link
// status once. first_frame_issued_ms / first_frame_done_ms are emscripten_get_now() times (-1 until known).
void RendererPoll();
double RendererFirstFrameIssuedMs();
double RendererFirstFrameDoneMs();
// "" or the shader program's compile/link log (known after the first frame is done).
const char* RendererError();

}  // namespace gpucost::web
