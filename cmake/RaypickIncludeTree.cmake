# raypick's headers are included as <raypick/geometry/…> and <raypick/scene/…>, in this source tree
# as much as by a project that installed raypick, so the paths cannot collide with a consumer's own
# geometry/ or scene/ folders. The source keeps its top-level layout: raypick_include_tree() makes
# <build>/include/raypick/ with links to the source folders and the generated Version.h there.
function(raypick_include_tree source_dir out_dir version)
  file(MAKE_DIRECTORY ${out_dir}/raypick)
  foreach(part geometry scene)
    file(CREATE_LINK ${source_dir}/${part} ${out_dir}/raypick/${part} SYMBOLIC)
  endforeach()
  string(REPLACE "." ";" parts "${version}")
  list(GET parts 0 RAYPICK_VERSION_MAJOR)
  list(GET parts 1 RAYPICK_VERSION_MINOR)
  list(GET parts 2 RAYPICK_VERSION_PATCH)
  set(RAYPICK_VERSION ${version})
  configure_file(${source_dir}/cmake/Version.h.in ${out_dir}/raypick/Version.h @ONLY)
endfunction()
