"""The subtitle editor: one open transcript, its table, its edits and the helpers that work on it."""
