// render_webgl.cpp — see render_webgl.h. WebGL2 only (Emscripten build).
#include "render_webgl.h"

#include <emscripten.h>

#include <GLES3/gl3.h>
#include <imgui.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace gpucost::web {
namespace {

// Vertex positions arrive in clip space (converted on the CPU), so the program has no uniforms to look up:
// the sampler defaults to texture unit 0.
const char* kVertexShader = R"(#version 300 es
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec2 a_uv;
layout(location = 2) in vec4 a_color;
out vec2 v_uv;
out vec4 v_color;
void main() {
  v_uv = a_uv;
  v_color = a_color;
  gl_Position = vec4(a_position, 0.0, 1.0);
})";

const char* kFragmentShader = R"(#version 300 es
precision mediump float;
uniform sampler2D u_texture;
in vec2 v_uv;
in vec4 v_color;
out vec4 o_color;
void main() { o_color = v_color * texture(u_texture, v_uv); })";

struct Renderer {
  GLuint program = 0, vertex_shader = 0, fragment_shader = 0;
  GLuint vertex_array = 0, vertex_buffer = 0, index_buffer = 0, font_texture = 0;
  std::vector<ImDrawVert> clip_vertices;  // one draw list's vertices in clip space
  GLsync first_frame_fence = nullptr;
  double first_frame_issued_ms = -1, first_frame_done_ms = -1;
  bool program_checked = false;
  std::string error;
};
Renderer g;

GLuint CompileShader(GLenum type, const char* source) {
  const GLuint shader = glCreateShader(type);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);  // status read later (RendererPoll): reading it now would wait for the compiler
  return shader;
}

std::string ShaderLog(GLuint shader) {
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok) return {};
  char log[1024] = {};
  glGetShaderInfoLog(shader, sizeof log, nullptr, log);
  return log;
}

// The whole pipeline state, set every frame: this renderer owns the GL context, so nothing is backed up.
void SetRenderState(int width, int height) {
  glViewport(0, 0, width, height);
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_CULL_FACE);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_STENCIL_TEST);
  glEnable(GL_SCISSOR_TEST);
  glUseProgram(g.program);
  glActiveTexture(GL_TEXTURE0);
  glBindVertexArray(g.vertex_array);
  glBindBuffer(GL_ARRAY_BUFFER, g.vertex_buffer);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g.index_buffer);
}

}  // namespace

bool RendererInit() {
  g.vertex_shader = CompileShader(GL_VERTEX_SHADER, kVertexShader);
  g.fragment_shader = CompileShader(GL_FRAGMENT_SHADER, kFragmentShader);
  g.program = glCreateProgram();
  if (!g.program || !g.vertex_shader || !g.fragment_shader) return false;
  glAttachShader(g.program, g.vertex_shader);
  glAttachShader(g.program, g.fragment_shader);
  glLinkProgram(g.program);
  glGenVertexArrays(1, &g.vertex_array);
  glGenBuffers(1, &g.vertex_buffer);
  glGenBuffers(1, &g.index_buffer);
  glBindVertexArray(g.vertex_array);
  glBindBuffer(GL_ARRAY_BUFFER, g.vertex_buffer);
  const GLsizei stride = sizeof(ImDrawVert);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(IM_OFFSETOF(ImDrawVert, pos)));
  glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(IM_OFFSETOF(ImDrawVert, uv)));
  glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, reinterpret_cast<void*>(IM_OFFSETOF(ImDrawVert, col)));
  // Warm-up: one invisible triangle (alpha 0) with the real pipeline state, flushed now, so that the GPU
  // process compiles the program and builds its pipeline while the page prepares its first frame.
  const ImDrawVert warm[3] = {{{-1, -1}, {0, 0}, 0}, {{-1, -0.99f}, {0, 0}, 0}, {{-0.99f, -1}, {0, 0}, 0}};
  const ImDrawIdx warm_indices[3] = {0, 1, 2};
  SetRenderState(1, 1);
  glBufferData(GL_ARRAY_BUFFER, sizeof warm, warm, GL_STREAM_DRAW);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof warm_indices, warm_indices, GL_STREAM_DRAW);
  glScissor(0, 0, 1, 1);
  glDrawElements(GL_TRIANGLES, 3, sizeof(ImDrawIdx) == 2 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT, nullptr);
  glDisable(GL_SCISSOR_TEST);
  glFlush();
  return true;
}

void RendererCreateFontTexture() {
  ImGuiIO& io = ImGui::GetIO();
  unsigned char* pixels = nullptr;
  int width = 0, height = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
  if (g.font_texture) glDeleteTextures(1, &g.font_texture);
  glGenTextures(1, &g.font_texture);
  glBindTexture(GL_TEXTURE_2D, g.font_texture);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  io.Fonts->SetTexID(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(g.font_texture)));
}

void RendererDraw(const ImDrawData* draw_data, int framebuffer_width, int framebuffer_height) {
  if (!draw_data || framebuffer_width <= 0 || framebuffer_height <= 0) return;
  SetRenderState(framebuffer_width, framebuffer_height);
  const ImVec2 origin = draw_data->DisplayPos, size = draw_data->DisplaySize;
  const ImVec2 scale = draw_data->FramebufferScale;
  const float to_clip_x = 2.0f / size.x, to_clip_y = -2.0f / size.y;
  for (int n = 0; n < draw_data->CmdListsCount; ++n) {
    const ImDrawList* list = draw_data->CmdLists[n];
    g.clip_vertices.assign(list->VtxBuffer.Data, list->VtxBuffer.Data + list->VtxBuffer.Size);
    for (ImDrawVert& v : g.clip_vertices) {
      v.pos.x = (v.pos.x - origin.x) * to_clip_x - 1.0f;
      v.pos.y = (v.pos.y - origin.y) * to_clip_y + 1.0f;
    }
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(g.clip_vertices.size() * sizeof(ImDrawVert)),
                 g.clip_vertices.data(), GL_STREAM_DRAW);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(list->IdxBuffer.Size * sizeof(ImDrawIdx)),
                 list->IdxBuffer.Data, GL_STREAM_DRAW);
    for (const ImDrawCmd& cmd : list->CmdBuffer) {
      if (cmd.UserCallback) {
        if (cmd.UserCallback != ImDrawCallback_ResetRenderState) cmd.UserCallback(list, &cmd);
        SetRenderState(framebuffer_width, framebuffer_height);
        continue;
      }
      const float x0 = (cmd.ClipRect.x - origin.x) * scale.x, y0 = (cmd.ClipRect.y - origin.y) * scale.y;
      const float x1 = (cmd.ClipRect.z - origin.x) * scale.x, y1 = (cmd.ClipRect.w - origin.y) * scale.y;
      if (x1 <= x0 || y1 <= y0) continue;
      glScissor(static_cast<GLint>(x0), static_cast<GLint>(framebuffer_height - y1), static_cast<GLsizei>(x1 - x0),
                static_cast<GLsizei>(y1 - y0));
      glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(reinterpret_cast<intptr_t>(cmd.GetTexID())));
      glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(cmd.ElemCount),
                     sizeof(ImDrawIdx) == 2 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT,
                     reinterpret_cast<void*>(static_cast<intptr_t>(cmd.IdxOffset * sizeof(ImDrawIdx))));
    }
  }
  glDisable(GL_SCISSOR_TEST);  // the next frame's glClear covers the whole canvas
  if (g.first_frame_issued_ms < 0) {
    g.first_frame_issued_ms = emscripten_get_now();
    g.first_frame_fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    glFlush();
  }
}

void RendererPoll() {
  if (g.first_frame_fence) {
    GLint status = GL_UNSIGNALED;  // non-blocking: WebGL updates a sync object's status between tasks
    glGetSynciv(g.first_frame_fence, GL_SYNC_STATUS, 1, nullptr, &status);
    if (status != GL_SIGNALED) return;
    g.first_frame_done_ms = emscripten_get_now();
    glDeleteSync(g.first_frame_fence);
    g.first_frame_fence = nullptr;
  }
  if (g.program_checked || g.first_frame_done_ms < 0) return;
  g.program_checked = true;  // the compiler has long finished: these queries no longer wait
  GLint linked = GL_FALSE;
  glGetProgramiv(g.program, GL_LINK_STATUS, &linked);
  if (linked) return;
  char log[1024] = {};
  glGetProgramInfoLog(g.program, sizeof log, nullptr, log);
  g.error = "the WebGL shader program failed: " + ShaderLog(g.vertex_shader) + ShaderLog(g.fragment_shader) + log;
  std::fprintf(stderr, "%s\n", g.error.c_str());
}

double RendererFirstFrameIssuedMs() { return g.first_frame_issued_ms; }
double RendererFirstFrameDoneMs() { return g.first_frame_done_ms; }
const char* RendererError() { return g.error.c_str(); }

}  // namespace gpucost::web
