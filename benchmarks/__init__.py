"""Benchmarks and the GPU check; each writes its own section of BENCHMARKS.md (report.py)."""
