"""The benchmarks: what builds whole sites from the shared corpora and measures them (issue 54).

Each module is a command run from the repository root, `python -m bench.NAME --help`: time,
memory and size of builds (`make bench`: bench; profile_build), a reader's first search and
the exploring pages in headless Chromium (search_bench, `make explore-bench`: explore_bench),
the map's region labels (region_quality), two checkouts' sites byte for byte (site_identity)
and the README's screenshots (screenshots). The product (generator) never imports it, and the
wheel does not hold it; it may use the lab's evaluation (lab.evaluate), never the reverse.
"""
