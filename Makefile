# kurs — make run starts the course, make test runs every test.

GO ?= go
BIN := bin/kurs
WORKSPACE ?= kurs-workspace
ADDR ?= 127.0.0.1:8421

.PHONY: run build install test test-warm vet fmt staticcheck cross lint-ci bench bench-grade mutants clean

## run: build kurs and serve the course in the browser on the default workspace (created once, never overwritten); kurs serve prints the address to open, Ctrl-C stops it
run: build
	@test -f $(WORKSPACE)/kurs.toml || ./$(BIN) init $(WORKSPACE)
	@echo "Edit the files in $(WORKSPACE)/; the page shows each save's result."
	@./$(BIN) serve --workspace $(WORKSPACE) --addr $(ADDR)

# kurs is linked statically (CGO_ENABLED=0), as the Dockerfile builds it:
# it needs no C library, and the dynamic loader made every start of kurs,
# each launcher of a check included, slower (bench/start).
build:
	CGO_ENABLED=0 $(GO) build -o $(BIN) ./cmd/kurs

## install: put kurs on your PATH (into $(go env GOBIN), else $(go env GOPATH)/bin)
install:
	@bin=$$($(GO) env GOBIN); echo "Building and installing kurs into $${bin:-$$($(GO) env GOPATH)/bin}; the first build takes a while …"
	CGO_ENABLED=0 $(GO) install ./cmd/kurs

## test: formatting, vet, staticcheck, all tests, and kurs cross-compiled for macOS and Windows
# The checks before go test run two at a time: each has steps that keep
# only one processor busy (staticcheck's and vet's loading, a link), and
# the other fills it. A failing one stops make test before go test runs.
# go test's own vet is off: go vet ./... has just run all of vet's
# analyzers, a superset of go test's, over the same packages and tests.
# Every go command builds with -trimpath: without it the folder of the
# checkout is part of each compile's key in Go's build cache, so a fresh
# clone or a second worktree compiled every package of kurs again (for
# vet, staticcheck, the cross builds and the tests) although Go's cache
# already held them. kurs's own builds of learner code set GOFLAGS
# themselves and are not affected.
#
# The packages' tests check the whole course several times (the root
# package's kurs validate, internal/validate, checker/corpus,
# internal/explain, internal/cli), and kurs's cache keeps its objects
# under a bound of 256 MiB: kurs validate's programs and
# internal/explain's take 365 MiB together, so a package could link again
# what the one before had just built. make test raises the bound for its
# own run (KURS_CACHE_OBJECTS, in MiB), in a kurs cache of its own
# (KURS_TEST_CACHE): in the user's, the next check of a learner's or a
# developer's, with the default bound, trimmed what the tests had built,
# and the next make test built it again (a quiet run took 562 s instead
# of 434 s after a few checks in between); and the tests left the user's
# cache at a gigabyte.
KURS_CACHE_OBJECTS ?= 1024
KURS_TEST_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/kurs-make-test
# go test starts the packages' tests strictly in the order given, two at a
# time. Alphabetical order (./...) started web's browser tests, a minute
# long, among the last, so they ran with the other processor idle. The
# longest packages come first, the short ones fill the end; ./... adds the
# rest, and a package named twice runs once. A package that moves or goes
# makes go test fail here, so the list cannot go stale unseen.
TEST_FIRST := . ./checker ./internal/build ./internal/cli ./web ./checker/corpus \
	./lessons ./internal/explain ./internal/grade ./internal/validate
test: export GOFLAGS := $(strip $(filter-out -trimpath,$(GOFLAGS)) -trimpath)
test: export KURS_CACHE_OBJECTS := $(KURS_CACHE_OBJECTS)
test: export KURS_CACHE := $(KURS_TEST_CACHE)
test:
	@$(MAKE) --no-print-directory -j2 --output-sync=target fmt vet staticcheck cross lint-ci test-warm
	$(GO) test -count=1 -vet=off -timeout 30m $(TEST_FIRST) ./...

# test-warm fills kurs's cache once before the packages' tests, which go
# test runs two at a time: the kit and the judges of the course (kurs
# init), the launcher, and the race detector's standard library (a check
# of the concurrent exercise's reference, which passes and is checked once
# more under the race detector). Every package's checks use them; on an
# empty cache the first two packages would each build them at once. The
# built-in course is validated by the root package's tests
# (testdata/script/screens_tty_check.txtar), whose checks of every
# misconception then find validate's results. Its output is shown only if
# it fails.
test-warm:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	CGO_ENABLED=0 $(GO) build -o "$$tmp/kurs" ./cmd/kurs && \
	{ "$$tmp/kurs" init "$$tmp/ws" >"$$tmp/warm.log" 2>&1 && \
	cp exercises/bulkheadpool/solution/*.go "$$tmp/ws/bulkheadpool/" && \
	"$$tmp/kurs" check --workspace "$$tmp/ws" bulkheadpool >>"$$tmp/warm.log" 2>&1 || { cat "$$tmp/warm.log" >&2; exit 1; }; }

vet:
	$(GO) vet ./...

# staticcheck at a pinned version, from the module proxy.
staticcheck:
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v '/testdata/submissions/') 2>&1); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

cross:
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./cmd/kurs
	GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null ./cmd/kurs

## bench: every benchmark, kurs against its go baseline interleaved in one run (bench/check, bench/start, bench/grade, bench/web, bench/watch, bench/live, those that exist), then every ratio they found, gathered as a summary (their `summary:` lines, else the lines that name a ratio or a quotient); outputs in bin/bench/. bench/grade alone took 8 minutes at load 20 on 2 cores. BENCH_SCALE=1 adds kurs grade of 10, 100 and 1,000 submissions: minutes on a quiet machine, over an hour at load 30
BENCH_SCALE ?=
bench:
	@mkdir -p bin/bench && rm -f bin/bench/*.txt
	@for b in check start grade web watch live; do \
		test -d bench/$$b || continue; \
		echo "== go run ./bench/$$b"; \
		bash -o pipefail -c '$(GO) run ./bench/'$$b' | tee bin/bench/'$$b'.txt' || exit 1; \
	done
	@if [ -n "$(BENCH_SCALE)" ]; then \
		echo "== go run ./bench/grade -scale"; \
		bash -o pipefail -c '$(GO) run ./bench/grade -scale | tee bin/bench/grade-scale.txt' || exit 1; \
	fi
	@echo; echo "== summary (load average now: $$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null))"; \
	for f in bin/bench/*.txt; do \
		if grep -q '^summary: ' $$f; then grep '^summary: ' $$f | sed 's/^summary: //'; \
		else grep -iE 'ratio|×| / ' $$f | sed "s|^|$$(basename $$f .txt): |"; fi; \
	done

## bench-grade: batch grading against go test in as many lanes as kurs's -j, and kurs's cost per submission from 10 to 1,000 submissions
bench-grade:
	$(GO) run ./bench/grade
	$(GO) run ./bench/grade -scale

## mutants: mutation testing of the hidden tests (about 3 minutes for the whole course)
mutants:
	$(GO) run ./cmd/kurs validate --mutants

clean:
	rm -rf bin

## assets: rebuild the in-page editor (CodeMirror 6 with Go mode) from web/editor/ into web/assets/editor.js.gz (needs npm, which only this target uses), and draw the lessons' diagrams into web/diagrams/*.svg with the Mermaid bundle in web/diagrams/mermaid (needs chromium); both are committed
.PHONY: assets
assets:
	cd web/editor && npm ci --no-audit --no-fund && npm run build
	gzip -9n < web/editor/build/editor.js > web/assets/editor.js.gz
	$(GO) test -count=1 -run '^TestDiagramsDrawn$$' ./web -args -render-diagrams

## lint-ci: the grading recipes of docs/ci as their consumers read them: the GitHub workflow with actionlint, the Kubernetes manifests decoded as strictly as the API server does (docs/ci, offline; -short leaves out running the Kubernetes recipe on a class, which go test ./... does); GitLab's CI schema is not checked, as none is available offline
ACTIONLINT := github.com/rhysd/actionlint/cmd/actionlint@v1.7.12
lint-ci:
	$(GO) run $(ACTIONLINT) docs/ci/github-grade.yml
	$(GO) test -count=1 -short ./docs/ci/
