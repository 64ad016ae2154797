# Installs the build tree BUILD into a fresh prefix under WORK, then uses the installation as
# another project would, from a working directory outside both trees:
#   1. a CMake project finds raypick with find_package, casts, picks shapes and meshes, and reads
#      case files, one of them naming model files (OBJ, glTF);
#   2. the header-only core compiles with nothing but pkg-config's flags;
#   3. the installed raypick-cast checks an installed case file;
#   4. the installed demo draws the installed showcase to a screenshot (when a display is set).
# Fails with what went wrong.
function(run what)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${WORK}/elsewhere
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} failed (${status}):\n${out}\n${err}")
  endif()
  message("${what}: ${out}")
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/elsewhere)
set(prefix ${WORK}/prefix)
run("installing" ${CMAKE_COMMAND} --install ${BUILD} --prefix ${prefix})
set(assets ${prefix}/share/raypick/assets)

# 1. find_package
run("configuring the consumer" ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE} -B ${WORK}/consumer
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
run("building the consumer" ${CMAKE_COMMAND} --build ${WORK}/consumer -j2)
run("the consumer" ${WORK}/consumer/consumer)
run("the scene consumer" ${WORK}/consumer/scene_consumer ${assets}/seed001_ray_sphere_table.json)
run("the scene consumer, models" ${WORK}/consumer/scene_consumer ${assets}/mesh_model_files.json)

# 2. pkg-config
find_program(PKG_CONFIG pkg-config REQUIRED)
run("pkg-config" ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${prefix}/share/pkgconfig
    ${PKG_CONFIG} --cflags raypick)
string(STRIP "${last_output}" cflags)
separate_arguments(cflags UNIX_COMMAND "${cflags}")
run("compiling with pkg-config's flags" ${CXX} -std=c++17 ${cflags} ${CONSUMER_SOURCE}/../consumer.cpp
    -o ${WORK}/pkgconfig_consumer)
run("the pkg-config consumer" ${WORK}/pkgconfig_consumer)

# 3. the installed caster
run("installed raypick-cast --check" ${prefix}/bin/raypick-cast --check ${assets}/seed001_ray_sphere_table.json)

# 4. the installed demo, run from elsewhere: it must find its shaders and assets by itself
if(DEFINED ENV{DISPLAY} AND NOT "$ENV{DISPLAY}" STREQUAL "")
  run("installed raypick --screenshot" ${CMAKE_COMMAND} -E env LIBGL_ALWAYS_SOFTWARE=1
      ${prefix}/bin/raypick --scene ${assets}/showcase.json --screenshot ${WORK}/elsewhere/showcase.png)
  if(NOT EXISTS ${WORK}/elsewhere/showcase.png)
    message(FATAL_ERROR "the installed demo wrote no screenshot")
  endif()
  # With no --scene it opens the installed showcase.json, found relative to the executable.
  run("installed raypick, default scene" ${CMAKE_COMMAND} -E env LIBGL_ALWAYS_SOFTWARE=1
      ${prefix}/bin/raypick --screenshot ${WORK}/elsewhere/default.png)
else()
  message("no DISPLAY: the installed demo is not started")
endif()
