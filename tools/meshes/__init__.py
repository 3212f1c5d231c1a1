"""Meshes of parts and their sphere sets (docs/meshes.md): a track shoe with grousers as an OBJ
(shoe_mesh), a mesh beside the spheres mesh_spheres made of it (plot_mesh_spheres); the program
mesh_spheres itself (mesh_spheres.cpp) is built from here into build/tools/. Imports common/ only."""
