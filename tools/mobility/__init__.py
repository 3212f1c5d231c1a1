"""The mobility tests and what a run is judged by: `trackcosim mobility` (mobility_tests, its
points mobility_plan, their figures mobility_results and mobility_plots), the drawbar-pull rig's
steady state (rig_analysis), slip, sprocket power and ground pressure (mobility_metrics), sinkage
(sinkage), an obstacle run (obstacle_analysis) and a finished run's summary (run_outputs).
Imports common/ only."""
