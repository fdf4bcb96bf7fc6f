"""Related papers: candidates by TF-IDF cosine, smoothed and capped, and the reasons shown on each link."""
