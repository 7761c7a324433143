# One generated table (cmake/embed_assets.cmake): `files` below `root`, as the C++ array `table`, in `out`.
function(gpucost_embed_table out table root files comment)
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DROOT=${root} -DTABLE=${table} "-DFILES=${files}"
            -P ${CMAKE_SOURCE_DIR}/cmake/embed_assets.cmake
    DEPENDS ${files} ${CMAKE_SOURCE_DIR}/cmake/embed_assets.cmake
    COMMENT "${comment}"
    VERBATIM)
endfunction()

# Embeds assets/*.json (and assets/presets/*.json) into a generated C++ file, so the page and the CLI need
# no file system. Call from the directory whose target compiles the output (CMake's custom-command rule).
# The generator runs at build time and re-runs when an asset changes.
# out_var: every asset but the string tables (kEmbeddedAssets);
# lang_var: the string tables of assets/i18n (kLanguageAssets), linked into every program but the page, which
# embeds its own copy of English (without the CLI's keys) and fetches the others when its language needs them
# (core/CMakeLists.txt, web/CMakeLists.txt, gpucost_embed_page_strings below).
# fetched_var: the data files the page fetches instead of embedding (kFetchedAssets): the published runs of
# assets/validation (its Evidence view fetches them when it first opens: 6.2 KB gzip) and the offers (fetched
# after the first frame: 8.3 KB gzip), linked into every other program. The page's copy of the offers is the compact
# one, written to generated/page-assets/offers.json (web/CMakeLists.txt copies it into the site).
function(gpucost_embed_assets out_var lang_var fetched_var)
  file(GLOB_RECURSE files CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/assets/*.json")
  list(FILTER files EXCLUDE REGEX "/assets/probes/")
  set(lang_files ${files})
  list(FILTER lang_files INCLUDE REGEX "/assets/i18n/")
  set(fetched_files ${files})
  list(FILTER fetched_files INCLUDE REGEX "/assets/(validation/[^/]*|offers|held_out)\\.json$")
  # The presets likewise (~12 KB of the page's first load): the page fetches them as one file, presets.json,
  # after its first frame (written with the compact copies below; core/documents/presets.cpp reads it).
  find_program(GPUCOST_ASSETS_PYTHON python3)
  set(preset_files ${files})
  list(FILTER preset_files INCLUDE REGEX "/assets/presets/[^/]*\\.json$")
  if(GPUCOST_ASSETS_PYTHON)
    list(APPEND fetched_files ${preset_files})
  endif()
  list(REMOVE_ITEM files ${lang_files} ${fetched_files})
  set(out "${CMAKE_BINARY_DIR}/generated/assets_data.cpp")
  set(lang_out "${CMAKE_BINARY_DIR}/generated/assets_lang.cpp")
  set(fetched_out "${CMAKE_BINARY_DIR}/generated/assets_fetched.cpp")
  # The WebAssembly build embeds compact copies (scripts/page_assets.py: no whitespace, no documentation-only keys):
  # its first load carries them. Without python3, the files as they are (and the presets embedded).
  if(CMAKE_SYSTEM_NAME STREQUAL "Emscripten" AND GPUCOST_ASSETS_PYTHON)
    set(compact_root "${CMAKE_BINARY_DIR}/generated/page-assets")
    set(compact_files "")
    foreach(f IN LISTS files)
      file(RELATIVE_PATH rel "${CMAKE_SOURCE_DIR}/assets" "${f}")
      list(APPEND compact_files "${compact_root}/${rel}")
    endforeach()
    add_custom_command(OUTPUT ${compact_files} ${compact_root}/offers.json ${compact_root}/presets.json
                       COMMAND ${GPUCOST_ASSETS_PYTHON} ${CMAKE_SOURCE_DIR}/scripts/page_assets.py
                               ${CMAKE_SOURCE_DIR}/assets ${compact_root} ${files} ${CMAKE_SOURCE_DIR}/assets/offers.json
                               ${preset_files}
                       DEPENDS ${files} ${CMAKE_SOURCE_DIR}/assets/offers.json ${preset_files}
                               ${CMAKE_SOURCE_DIR}/scripts/page_assets.py
                       COMMENT "Compact copies of assets/*.json for the page" VERBATIM)
    gpucost_embed_table("${out}" kEmbeddedAssets ${compact_root} "${compact_files}" "Embedding assets/*.json (compact)")
  else()
    gpucost_embed_table("${out}" kEmbeddedAssets ${CMAKE_SOURCE_DIR}/assets "${files}" "Embedding assets/*.json")
  endif()
  gpucost_embed_table("${lang_out}" kLanguageAssets ${CMAKE_SOURCE_DIR}/assets "${lang_files}"
                      "Embedding the string tables of assets/i18n")
  gpucost_embed_table("${fetched_out}" kFetchedAssets ${CMAKE_SOURCE_DIR}/assets "${fetched_files}"
                      "Embedding the offers and the published runs of assets/validation")
  set(${out_var} "${out}" PARENT_SCOPE)
  set(${lang_var} "${lang_out}" PARENT_SCOPE)
  set(${fetched_var} "${fetched_out}" PARENT_SCOPE)
endfunction()

# The page's copy of a string table (scripts/page_strings.py: without the keys only the CLI uses), written to
# out_file; a plain copy when python3 is missing.
# With more_file (issue 47): cut in two by web/first_frame_keys.txt, the keys the first frames look up; the rest in
# more_file, which the page loads as more_path (core/base/i18n.h).
function(gpucost_page_strings in_file out_file)
  set(more_file "${ARGV2}")
  set(more_path "${ARGV3}")
  set(first_keys ${CMAKE_SOURCE_DIR}/web/first_frame_keys.txt)
  find_program(GPUCOST_STRINGS_PYTHON python3)
  set(outputs ${out_file})
  if(GPUCOST_STRINGS_PYTHON)
    set(cmd ${GPUCOST_STRINGS_PYTHON} ${CMAKE_SOURCE_DIR}/scripts/page_strings.py ${in_file} ${out_file})
    if(more_file)
      list(APPEND cmd --first ${first_keys} --more ${more_file} --more-path ${more_path})
      list(APPEND outputs ${more_file})
    endif()
  else()
    set(cmd ${CMAKE_COMMAND} -E copy ${in_file} ${out_file})
    if(more_file)
      set(cmd ${cmd} COMMAND ${CMAKE_COMMAND} -E echo "{}" > ${more_file})
      list(APPEND outputs ${more_file})
    endif()
  endif()
  set(depends ${in_file} ${CMAKE_SOURCE_DIR}/scripts/page_strings.py)
  if(more_file AND EXISTS ${first_keys})
    list(APPEND depends ${first_keys})
  endif()
  add_custom_command(OUTPUT ${outputs} COMMAND ${cmd} DEPENDS ${depends}
                     COMMENT "The page's copy of ${in_file}" VERBATIM)
endfunction()

# The page's English table, embedded as its kLanguageAssets (in place of gpucost_lang_assets): out_var names
# the generated source to compile into the page.
function(gpucost_embed_page_strings out_var more_file)
  set(root "${CMAKE_BINARY_DIR}/generated/page")
  gpucost_page_strings(${CMAKE_SOURCE_DIR}/assets/i18n/en.json ${root}/i18n/en.json ${more_file} i18n/en-more.json)
  set(out "${CMAKE_BINARY_DIR}/generated/assets_page_lang.cpp")
  gpucost_embed_table("${out}" kLanguageAssets ${root} "${root}/i18n/en.json" "Embedding the page's English table")
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()
