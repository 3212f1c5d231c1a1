"""The figures and pictures of a run folder: `trackcosim plot` (plot_run, reading the folder with
plot_data, the figures plot_vehicle, plot_terrain, plot_timing) and `trackcosim render` (render_run,
which frames render_plan, what they share render_setup, one frame render_frame with its POV-Ray
scene povray_scene, cameras render_camera, colours render_colours, overlay render_overlay).
Imports mobility/ (the figures a run is judged by) and common/."""
