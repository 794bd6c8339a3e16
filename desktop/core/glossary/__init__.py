"""The office's own words: glossary files, where they are kept, and the correction pass."""
