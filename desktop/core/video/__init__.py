"""Video files: their facts, subtitle tracks put into a copy (soft subtitles) and text burned into the
picture (the drawing itself is Qt's, handed in by the caller)."""
