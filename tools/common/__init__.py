"""What more than one room of tools/ uses: reading a user's input (input_checks), --help
(help_option), the launcher's error line, program search and run folders (launcher_common), the
subcommands' command lines (command_line), run files (run_file), run.log (run_log), the files a
terrain config names, for its copies (terrain_files), the figures' style (plot_style) and the VTK
readers (vtk_reader). Imports no other room of tools/."""
