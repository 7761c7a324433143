# Embeds assets/*.json (and assets/presets/*.json) into a generated C++ file, so the page and the CLI need
# no file system. Call from the directory whose target compiles the output (CMake's custom-command rule).
# The generator runs at build time and re-runs when an asset changes.
# out_var: every asset but the string tables of languages other than English (kEmbeddedAssets);
# lang_var: those tables (kLanguageAssets), linked into every program but the page, which fetches them when
# its language needs them (core/CMakeLists.txt).
function(gpucost_embed_assets out_var lang_var)
  file(GLOB_RECURSE files CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/assets/*.json")
  list(FILTER files EXCLUDE REGEX "/assets/probes/")
  set(lang_files ${files})
  list(FILTER lang_files INCLUDE REGEX "/assets/i18n/")
  list(FILTER lang_files EXCLUDE REGEX "/assets/i18n/en\\.json$")
  list(REMOVE_ITEM files ${lang_files})
  set(out "${CMAKE_BINARY_DIR}/generated/assets_data.cpp")
  set(lang_out "${CMAKE_BINARY_DIR}/generated/assets_lang.cpp")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DROOT=${CMAKE_SOURCE_DIR}/assets -DTABLE=kEmbeddedAssets
            "-DFILES=${files}" -P ${CMAKE_SOURCE_DIR}/cmake/embed_assets.cmake
    DEPENDS ${files} ${CMAKE_SOURCE_DIR}/cmake/embed_assets.cmake
    COMMENT "Embedding assets/*.json"
    VERBATIM)
  add_custom_command(
    OUTPUT "${lang_out}"
    COMMAND ${CMAKE_COMMAND} -DOUT=${lang_out} -DROOT=${CMAKE_SOURCE_DIR}/assets -DTABLE=kLanguageAssets
            "-DFILES=${lang_files}" -P ${CMAKE_SOURCE_DIR}/cmake/embed_assets.cmake
    DEPENDS ${lang_files} ${CMAKE_SOURCE_DIR}/cmake/embed_assets.cmake
    COMMENT "Embedding the string tables of assets/i18n"
    VERBATIM)
  set(${out_var} "${out}" PARENT_SCOPE)
  set(${lang_var} "${lang_out}" PARENT_SCOPE)
endfunction()
