"""Stage 1, read: input files -> Records (one reader per format), markup cleaning, the URL policy."""
