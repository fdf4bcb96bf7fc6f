"""The learned models are arguments (issue 54): enrich and link given models read those, never
the shipped ones, so the lab derives with the models it trains and nothing is swapped."""

from __future__ import annotations

from helpers import corpus_file, hidden, only_models_given

# Three papers introducing one name: linking titles them again without it (link.drop_common_names).
SHARED_NAME = [
    f"We propose FooNet, a graph network for {topic}. FooNet learns node embeddings with message passing and beats baselines."
    for topic in ("traffic forecasting", "molecule property prediction", "citation classification")
]


def test_enrich_and_link_read_the_models_given_not_the_shipped_ones(monkeypatch):
    from generator.enrich.paper import enrich_batch
    from generator.errors import Report
    from generator.link.corpus import link
    from generator.model import Origin, Record
    from generator.sources.readers import read_file

    records = [hidden(r) for r in read_file(corpus_file("3dv2025.jsonl"), Report())[:80]]
    records += [Record(abstract, Origin("t.txt", i + 1, i + 1), "C") for i, abstract in enumerate(SHARED_NAME)]
    enriched = enrich_batch(records)
    shipped = link(enriched, related_count=5)
    assert [p.name for p in enriched[-3:]] == ["FooNet"] * 3 and "FooNet" not in {p.name for p in shipped}  # titled again
    given = only_models_given(monkeypatch)
    derived = link(enrich_batch(records, models=given), related_count=5, models=given)
    assert derived == shipped  # equal models, equal papers: the copies were read throughout
