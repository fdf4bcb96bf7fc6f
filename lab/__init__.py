"""The lab: what fits, tunes, judges and scores the product against the shared corpora (issue 54).

Each module is a command run from the repository root, `python -m lab.NAME --help`: the
training that writes generator/data/ (`make train`: train, train_tags, train_meaning,
tune_aboutness; tune_related), the evaluation (`make eval`: evaluate), the blind judgements
(judging) and what is read by eye (sample_check, sample_titles, tag_changes, tag_figures,
code_figures). The lab imports the product (generator); the product never imports the lab,
and the wheel does not hold it. The benchmarks are the package beside it, bench.
"""
