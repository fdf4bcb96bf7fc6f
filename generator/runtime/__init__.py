"""What wraps the stages: reuse between runs under `mkdocs serve`, caches on disk, processes on both cores."""
