"""The `voxdesk` command line: the same code paths as the window, without Qt widgets."""
