# Quick start: `make serve` (set up, build and serve the seeds site), `make test`.
PYTHON ?= python3
export NO_MKDOCS_2_WARNING := 1
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
KATEX := docs/assets/vendor/katex

.PHONY: setup serve build test browser-deps clean

setup: $(VENV)/.installed $(KATEX)/katex.min.js

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

# KaTeX is served from the site itself (no CDN): copied from its npm package.
$(KATEX)/katex.min.js: node_modules/.package-lock.json
	rm -rf $(KATEX) && mkdir -p $(KATEX)
	cp node_modules/katex/dist/katex.min.js node_modules/katex/dist/katex.min.css $(KATEX)/
	cp -r node_modules/katex/dist/fonts $(KATEX)/fonts

serve: setup
	$(BIN)/mkdocs serve --livereload --dev-addr 127.0.0.1:$(PORT)

build: setup
	$(BIN)/mkdocs build --strict

# Debian's Chromium for the browser tests (Playwright drives it; it never downloads a browser).
browser-deps:
	@test -x /usr/bin/chromium || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; }

test: setup browser-deps
	$(BIN)/pytest -q

clean:
	rm -rf site $(VENV) node_modules $(KATEX) .pytest_cache
