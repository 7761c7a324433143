# cmake -DDIR=core -P check_core_layers.cmake — the tree is the map (issue 48, STYLE rule 18): core/ is in layers,
# and a file may include only headers of its own folder or of a folder below it. Fails on an upward include, on a
# core source outside the layer folders, and on a folder that is not a layer.
#
# The layers, bottom to top (docs/architecture.md says what each answers):
get_filename_component(DIR "${DIR}" ABSOLUTE)
set(layers base scenario hardware training serving money job explore evidence documents)
# Upward includes not yet turned around (each names the file and the header); the list only shrinks.
set(allowed
  "serving/inference.cpp->money/billing.h"
  "serving/inference.cpp->job/inference_billing.h"
  "serving/inference.cpp->job/result.h"
  "serving/inference.cpp->money/tco.h"
  "money/billing.h->job/result.h"
)

file(GLOB entries RELATIVE "${DIR}" "${DIR}/*")
set(bad "")
set(seen "")
foreach(e IN LISTS entries)
  if(IS_DIRECTORY "${DIR}/${e}")
    list(FIND layers "${e}" known)
    if(known EQUAL -1)
      list(APPEND bad "core/${e}/ is not a layer (add it to cmake/check_core_layers.cmake and docs/architecture.md)")
    endif()
  elseif(e MATCHES "\\.(h|cpp)$")
    list(APPEND bad "core/${e} is outside the layer folders")
  endif()
endforeach()
list(LENGTH layers n)
math(EXPR last "${n} - 1")
foreach(i RANGE ${last})
  list(GET layers ${i} layer)
  file(GLOB_RECURSE files RELATIVE "${DIR}" "${DIR}/${layer}/*.h" "${DIR}/${layer}/*.cpp")
  foreach(f IN LISTS files)
    file(STRINGS "${DIR}/${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line IN LISTS lines)
      if(line MATCHES "\"([a-z_]+)/([^\"]+)\"")
        set(to "${CMAKE_MATCH_1}")
        list(FIND layers "${to}" j)
        if(j GREATER i)
          list(FIND allowed "${f}->${to}/${CMAKE_MATCH_2}" ok)
          list(APPEND seen "${f}->${to}/${CMAKE_MATCH_2}")
          if(ok EQUAL -1)
            list(APPEND bad "core/${f} (${layer}) includes ${to}/${CMAKE_MATCH_2}, a layer above it")
          endif()
        endif()
      elseif(line MATCHES "\"([^\"/]+)\"" AND NOT CMAKE_MATCH_1 STREQUAL "version.h")
        list(APPEND bad "core/${f}: include \"${CMAKE_MATCH_1}\" without its folder (write \"<layer>/${CMAKE_MATCH_1}\")")
      endif()
    endforeach()
  endforeach()
endforeach()
foreach(a IN LISTS allowed)
  list(FIND seen "${a}" still)
  if(still EQUAL -1)
    list(APPEND bad "${a} is listed as allowed but no longer found: take it off the list")
  endif()
endforeach()
if(bad)
  list(JOIN bad "\n  " text)
  message(FATAL_ERROR "core/ layers (bottom to top: ${layers}); calls go down only:\n  ${text}")
endif()
