# Installs raypick as a package: the core's headers at include/raypick/ (the same paths as in the
# build tree), the libraries, raypick-cast and the demo with its shaders and assets in
# share/raypick/ (found relative to the executable), the CMake package (find_package(raypick)) and
# a pkg-config file for the header-only core.
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/geometry/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/raypick/geometry
        FILES_MATCHING PATTERN "*.h" PATTERN "*.inl")
install(FILES ${RAYPICK_INCLUDE_TREE}/raypick/Version.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/raypick)

set(raypick_export_targets raypick_core raypick_batch)
if(RAYPICK_WITH_SCENE)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/scene/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/raypick/scene
          FILES_MATCHING PATTERN "*.h" PATTERN "detail" EXCLUDE)
  list(APPEND raypick_export_targets raypick_scene raypick_models)
endif()
install(TARGETS ${raypick_export_targets} EXPORT raypickTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT raypickTargets NAMESPACE raypick:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/raypick)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/raypickConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/raypickConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/raypick)
# 0.x releases promise nothing across minor versions; from 1.0 on, a major version keeps its API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/raypickConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/raypickConfig.cmake ${PROJECT_BINARY_DIR}/raypickConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/raypick)

configure_file(${PROJECT_SOURCE_DIR}/cmake/raypick.pc.in ${PROJECT_BINARY_DIR}/raypick.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/raypick.pc DESTINATION ${CMAKE_INSTALL_DATADIR}/pkgconfig)

if(TARGET raypick_cast)
  install(TARGETS raypick_cast RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
if(TARGET raypick_models_tool)
  install(TARGETS raypick_models_tool RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
if(TARGET raypick_app)
  install(TARGETS raypick_app RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/shaders/ DESTINATION ${CMAKE_INSTALL_DATADIR}/raypick/shaders)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/ DESTINATION ${CMAKE_INSTALL_DATADIR}/raypick/assets)
endif()
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
