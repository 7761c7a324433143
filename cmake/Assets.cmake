# Embeds assets/*.json (and assets/presets/*.json) into a generated C++ file, so the page and the CLI need
# no file system. Call from the directory whose target compiles the output (CMake's custom-command rule).
# The generator runs at build time and re-runs when an asset changes.
function(gpucost_embed_assets out_var)
  file(GLOB_RECURSE files CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/assets/*.json")
  list(FILTER files EXCLUDE REGEX "/assets/probes/")
  set(out "${CMAKE_BINARY_DIR}/generated/assets_data.cpp")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DROOT=${CMAKE_SOURCE_DIR}/assets
            "-DFILES=${files}" -P ${CMAKE_SOURCE_DIR}/cmake/embed_assets.cmake
    DEPENDS ${files} ${CMAKE_SOURCE_DIR}/cmake/embed_assets.cmake
    COMMENT "Embedding assets/*.json"
    VERBATIM)
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()
