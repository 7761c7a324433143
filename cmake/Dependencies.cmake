# Third-party dependencies, all from Debian's packages (see scripts/setup.sh):
#   nlohmann-json3-dev, doctest-dev: header-only, under /usr/include.
#   Dear ImGui 1.86: sources from Debian's source package, unpacked into third_party/ (or -DIMGUI_DIR=...).
#
# The WebAssembly build must not see /usr/include (host headers would leak into the WASM sysroot), so both
# builds read those two header-only libraries through a directory that holds only symlinks to them.

set(GPUCOST_SYSTEM_INCLUDE "/usr/include" CACHE PATH "where nlohmann/ and doctest/ headers live")
set(GPUCOST_DEP_INCLUDE "${CMAKE_BINARY_DIR}/dep-include")
file(MAKE_DIRECTORY "${GPUCOST_DEP_INCLUDE}")
foreach(dep nlohmann doctest)
  if(NOT EXISTS "${GPUCOST_SYSTEM_INCLUDE}/${dep}")
    message(FATAL_ERROR "${dep} headers not found in ${GPUCOST_SYSTEM_INCLUDE}; run scripts/setup.sh "
                        "(Debian packages nlohmann-json3-dev, doctest-dev)")
  endif()
  if(NOT EXISTS "${GPUCOST_DEP_INCLUDE}/${dep}")
    file(CREATE_LINK "${GPUCOST_SYSTEM_INCLUDE}/${dep}" "${GPUCOST_DEP_INCLUDE}/${dep}" SYMBOLIC)
  endif()
endforeach()

add_library(gpucost_json INTERFACE)
target_include_directories(gpucost_json SYSTEM INTERFACE "${GPUCOST_DEP_INCLUDE}")
target_compile_definitions(gpucost_json INTERFACE JSON_USE_IMPLICIT_CONVERSIONS=0)

add_library(gpucost_doctest INTERFACE)
target_include_directories(gpucost_doctest SYSTEM INTERFACE "${GPUCOST_DEP_INCLUDE}")

# Dear ImGui (optional: the web app and the UI smoke test need it; the CLI and the core do not).
set(IMGUI_DIR "${CMAKE_SOURCE_DIR}/third_party/imgui-1.86" CACHE PATH "Dear ImGui source checkout (1.86)")
if(EXISTS "${IMGUI_DIR}/imgui.cpp")
  set(GPUCOST_HAVE_IMGUI ON)
  add_library(imgui STATIC
    ${IMGUI_DIR}/imgui.cpp ${IMGUI_DIR}/imgui_draw.cpp ${IMGUI_DIR}/imgui_tables.cpp ${IMGUI_DIR}/imgui_widgets.cpp)
  target_include_directories(imgui SYSTEM PUBLIC ${IMGUI_DIR})
  target_compile_definitions(imgui PUBLIC IMGUI_DISABLE_DEMO_WINDOWS IMGUI_DISABLE_OBSOLETE_FUNCTIONS)
  target_compile_options(imgui PRIVATE -w)
  set_target_properties(imgui PROPERTIES UNITY_BUILD OFF)  # third-party files, written to be compiled apart
else()
  set(GPUCOST_HAVE_IMGUI OFF)
  message(STATUS "Dear ImGui not found at ${IMGUI_DIR}: web app and UI smoke test skipped (run scripts/setup.sh)")
endif()
