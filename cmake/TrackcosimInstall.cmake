# cmake --install (docs/coupling.md): the programs and the launcher, the coupler library with its C
# and C++ headers, a CMake package (find_package(trackcosim): trackcosim::coupler for C++,
# trackcosim::coupler_c for C), a pkg-config file (trackcosim), the Python client as the module
# trackcosim_client, and the example models, run files and documents under share/trackcosim.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(trackcosim_share ${CMAKE_INSTALL_DATADIR}/trackcosim)
set(trackcosim_cmake ${CMAKE_INSTALL_LIBDIR}/cmake/trackcosim)
# Not the interpreter's own site-packages (a prefix is not on its path): PYTHONPATH names it.
set(trackcosim_python ${CMAKE_INSTALL_LIBDIR}/python3/site-packages)
set(trackcosim_headers ${CMAKE_INSTALL_INCLUDEDIR}/trackcosim)

install(TARGETS terrain_node vehicle_node mesh_spheres RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS trackcosim_coupler trackcosim_coupler_cxx EXPORT trackcosimTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# The coupler's headers and the few they include, at the paths the sources use.
install(FILES cosim/coupler.h cosim/coupler_c.h cosim/protocol.h cosim/shoe_exchange.h cosim/drawbar_rig_c.h
        DESTINATION ${trackcosim_headers}/cosim)
install(FILES comm/channel.h comm/frame.h DESTINATION ${trackcosim_headers}/comm)
install(FILES math/real.h math/vec3.h math/host_device.h DESTINATION ${trackcosim_headers}/math)

install(EXPORT trackcosimTargets NAMESPACE trackcosim:: DESTINATION ${trackcosim_cmake})
configure_package_config_file(cmake/trackcosimConfig.cmake.in ${CMAKE_BINARY_DIR}/trackcosimConfig.cmake
                              INSTALL_DESTINATION ${trackcosim_cmake})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/trackcosimConfigVersion.cmake COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/trackcosimConfig.cmake ${CMAKE_BINARY_DIR}/trackcosimConfigVersion.cmake
        DESTINATION ${trackcosim_cmake})
file(RELATIVE_PATH trackcosim_pc_to_prefix /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" trackcosim_pc_to_prefix "${trackcosim_pc_to_prefix}")
configure_file(cmake/trackcosim.pc.in ${CMAKE_BINARY_DIR}/trackcosim.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/trackcosim.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(FILES examples/python_client.py DESTINATION ${trackcosim_python} RENAME trackcosim_client.py)
install(FILES examples/CMakeLists.txt examples/README.md examples/prescribed_track.c examples/prescribed_track.cpp
              examples/rig_track.c examples/python_client.py DESTINATION ${trackcosim_share}/examples)
# The launcher finds terrain_node and vehicle_node on PATH. The rooms of tools/ come along as its
# sub-folders: the wrapper tools/trackcosim runs launcher/trackcosim.py, which puts tools/ on the import path.
install(DIRECTORY tools/ DESTINATION ${trackcosim_share}/tools USE_SOURCE_PERMISSIONS
        FILES_MATCHING PATTERN "*.py" PATTERN "*.json" PATTERN "trackcosim" PATTERN "*.sh"
        PATTERN "__pycache__" EXCLUDE)
install(CODE "file(CREATE_LINK ../${trackcosim_share}/tools/trackcosim
                   \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/trackcosim SYMBOLIC)")
install(DIRECTORY configs/ DESTINATION ${trackcosim_share}/configs PATTERN "CMakeLists.txt" EXCLUDE)
install(DIRECTORY jobs/ DESTINATION ${trackcosim_share}/jobs USE_SOURCE_PERMISSIONS PATTERN "CMakeLists.txt" EXCLUDE)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
