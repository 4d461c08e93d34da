# swarm-guard. `make test` and `make demo` are what CI runs (.ci/run); see README.md.
GO       ?= go
BIN      ?= bin
FUZZTIME ?= 60s
# A static binary starts about a millisecond faster than one linked against
# libc (pflag imports net, mvdan.cc/sh imports os/user): that millisecond is
# paid on every Claude Code tool call.
BUILD_ENV := CGO_ENABLED=0
# Releases are v0.x.y tags (v0: the policy format and CLI may still change
# between minor versions); a build between tags is stamped v0.x.y-N-g<sha>.
VERSION ?= $(shell git describe --tags --match 'v0.*' 2>/dev/null || echo v0.0.0-dev)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
BUILD_FLAGS := -trimpath -ldflags '-s -w -X main.buildVersion=$(VERSION) -X main.buildCommit=$(COMMIT)'

.PHONY: action-test actionlint dist dist-archives dist-test hook-managers all build install test test-short bench bench-all fuzz lint scan-self demo clean e2e e2e-clients e2e-cost mcp-real

all: build

build:
	$(BUILD_ENV) $(GO) build $(BUILD_FLAGS) -o $(BIN)/ ./cmd/...

# Each installed binary is then rewritten in one pass: the linker writes
# 4 KB at a time, and a binary the page cache holds in 4 KB pages starts
# about 0.25 ms slower on every hook call (docs/performance.md).
install:
	$(BUILD_ENV) GOBIN="$$($(GO) env GOPATH)/bin" $(GO) install $(BUILD_FLAGS) ./cmd/...
	@bin="$$($(GO) env GOPATH)/bin"; for b in swarm-guard swarm-guard-secrets swarm-guard-post; do \
		cat "$$bin/$$b" > "$$bin/.$$b.tmp" && chmod 755 "$$bin/.$$b.tmp" && mv -f "$$bin/.$$b.tmp" "$$bin/$$b" || exit 1; done
	@echo "installed into $$($(GO) env GOPATH)/bin; next: cd <your repo> && swarm-guard install && swarm-guard doctor"

# The engine and hook packages also run under the race detector (needs cgo
# and a C compiler). RACE_SKIP names long single-goroutine tests that the
# plain run above already covers: under -race they would cost a minute.
RACE_PKGS ?= ./guard/... ./policy/... ./hooks/...
RACE_SKIP ?= TestCheckCatchesUpOverCalls|TestMayDecodeAgreesWithGitleaks|TestWindowedScanAgrees|TestCorpusIsRealShell|FuzzCheckCommand|TestSoloScanAgrees|TestSoloConditionsAreNecessary|TestMayGenericIsNecessary
test: lint scan-self
	$(GO) test -count=1 ./...
	CGO_ENABLED=1 $(GO) test -race -short -count=1 -skip '$(RACE_SKIP)' $(RACE_PKGS)

test-short:
	$(GO) test -short ./...

# docs/benchmarks.md, the results file: every Claude Code hook path as a
# whole process, as a multiple of an empty Go program timed in the same
# run, and PostToolUse after an opaque command in a generated 50,000-file
# monorepo, with the date, the machine and the commit (method:
# docs/performance.md). bench-all runs every benchmark of the module.
BENCHTIME ?= 20x
BENCH_OUT ?= docs/benchmarks.md
bench:
	@mkdir -p $(BIN)
	$(GO) test -run '^$$' -bench 'HookPaths|HookPostOpaqueMonorepo' -benchtime $(BENCHTIME) ./cmd/swarm-guard-secrets > $(BIN)/bench.txt || { cat $(BIN)/bench.txt; exit 1; }
	@$(GO) run ./hooks/internal/benchtable -o $(BENCH_OUT) -commit "$(VERSION) ($(COMMIT))" -benchtime $(BENCHTIME) < $(BIN)/bench.txt
	@# swarm-guard replay of a generated 10,000-call history (goal: 2 s on two cores).
	@$(GO) test -run '^$$' -bench 'Replay10K' -benchtime 3x ./hooks/replay | grep '^Benchmark'

bench-all:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 2s ./...

# Each fuzz target runs for FUZZTIME; the engine's gets the most.
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzCheckCommand -fuzztime $(FUZZTIME) ./guard
	$(GO) test -run '^$$' -fuzz FuzzBashRunsWhatTheGuardSees -fuzztime 30s ./guard/internal/shell
	$(GO) test -run '^$$' -fuzz FuzzDestructive -fuzztime 20s ./guard/internal/sqlcheck
	$(GO) test -run '^$$' -fuzz FuzzAdd -fuzztime 20s ./guard/trailer
	$(GO) test -run '^$$' -fuzz FuzzValid -fuzztime 20s ./hooks/identity

lint:
	@out="$$(gofmt -l .)"; if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# The repository passes its own secret scan, the working tree and every
# commit in its history: test credentials are made up at test time, never
# committed.
scan-self: build
	$(BIN)/swarm-guard scan .
	$(BIN)/swarm-guard scan --range HEAD

# The real Claude Code client (pinned, installed with npm into a cache
# directory once) against a scripted API stand-in: hooks/claude/e2e.
e2e:
	GO="$(GO)" BIN="$(BIN)" bash hooks/claude/e2e/e2e.sh

# The real Codex, Gemini CLI, Copilot CLI, opencode, Qwen Code and Droid
# (pinned, installed with npm into a cache directory once) against a
# scripted model stand-in on 127.0.0.1: hooks/clients/e2e.
e2e-clients:
	GO="$(GO)" BIN="$(BIN)" bash hooks/clients/e2e/e2e-clients.sh

# docs/clients-cost.md, the results file of what swarm-guard adds to a tool
# call in each client over a no-op hook: only the timing tests of make e2e
# and make e2e-clients, with E2E_ROUNDS rounds (method: docs/clients.md).
E2E_ROUNDS ?= 7
e2e-cost:
	SWARM_GUARD_E2E_ROUNDS=$(E2E_ROUNDS) COST_FILE="$(CURDIR)/docs/clients-cost.md" GO="$(GO)" BIN="$(BIN)" \
		bash hooks/claude/e2e/e2e.sh -run TestTiming -timeout 30m
	SWARM_GUARD_E2E_ROUNDS=$(E2E_ROUNDS) COST_FILE="$(CURDIR)/docs/clients-cost.md" GO="$(GO)" BIN="$(BIN)" \
		bash hooks/clients/e2e/e2e-clients.sh -test.run TestTiming -test.timeout 60m

# The reference filesystem MCP server (npm, pinned, installed into a cache
# directory once) driven for real through the PreToolUse hook:
# hooks/claude/mcp_real_test.go.
MCP_FS_VERSION ?= 2026.8.31
MCP_REAL_DIR   ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/swarm-guard/mcp-real
mcp-real:
	test -f "$(MCP_REAL_DIR)/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js" || \
		npm install --prefix "$(MCP_REAL_DIR)" --no-audit --no-fund @modelcontextprotocol/server-filesystem@$(MCP_FS_VERSION)
	SWARM_GUARD_MCP_FILESYSTEM="$(MCP_REAL_DIR)/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js" \
		$(GO) test -count=1 -run TestRealFilesystemServer -v ./hooks/claude/

demo: build
	bash testdata/demo/demo.sh "$(CURDIR)/$(BIN)/swarm-guard"

clean:
	rm -rf $(BIN)

# The real lefthook (npm) for the hook-manager scripts: without it they skip
# with a message and the reproduction in hook_managers.txtar still runs.
# The pre-commit framework comes from Debian (apt-get install pre-commit;
# .ci/run installs it), its migration-mode layout is also reproduced in
# hook_managers.txtar.
LEFTHOOK_VERSION ?= 2.2.2
hook-managers:
	dir="$${XDG_CACHE_HOME:-$$HOME/.cache}/swarm-guard-dist/lefthook"; mkdir -p "$$dir" && cd "$$dir" && \
	  { [ -f package.json ] || echo '{"private":true}' > package.json; } && \
	  npm install --no-audit --no-fund lefthook@$(LEFTHOOK_VERSION)
	$(GO) test -count=1 ./cmd/swarm-guard -run 'TestScript/hook_managers'

# Release artifacts in dist/: static binaries for linux and darwin on amd64
# and arm64 (Windows is not supported: the guard parses POSIX shell and the
# hooks are sh scripts), a tar.gz per platform, checksums.txt, and the npm
# packages (npm/build.sh). Each archive and the npm package swarm-guard carry
# the documentation, README.md with docs/ (docs/ship.sh). Nothing is published.
DIST ?= dist
DIST_TARGETS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64
dist: dist-archives
	npm/build.sh $(DIST) $(patsubst v%,%,$(VERSION)) $(COMMIT)

# The release archives alone (what the GitHub Action downloads), for
# DIST_TARGETS; make dist-archives DIST_TARGETS=linux/amd64 builds one.
dist-archives:
	rm -rf $(DIST) && mkdir -p $(DIST)
	for t in $(DIST_TARGETS); do \
	  os=$${t%/*}; arch=$${t#*/}; d=$(DIST)/swarm-guard_$${os}_$${arch}; \
	  $(BUILD_ENV) GOOS=$$os GOARCH=$$arch $(GO) build $(BUILD_FLAGS) -o $$d/ ./cmd/... || exit 1; \
	  docs/ship.sh $$d $(COMMIT) && tar -C $(DIST) -czf $$d.tar.gz swarm-guard_$${os}_$${arch} || exit 1; \
	done
	cd $(DIST) && sha256sum *.tar.gz > checksums.txt

# Checks that every archive carries docs/, then installs the packed npm
# tarballs into a throwaway project offline and runs the binary through npx
# and node_modules/.bin, as a hook would.
dist-test: dist
	for a in $(DIST)/*.tar.gz; do tar -tzf $$a | grep -q '/docs/policy.md$$' || { echo "$$a lacks docs/" >&2; exit 1; }; done
	npm/test.sh $(DIST) $(patsubst v%,%,$(VERSION))

# The GitHub Action's own steps (action.yml) run as a runner would, against
# a release of this checkout built for this machine and served from a
# directory (the action's download-url input): install with the checksum
# check, then verify a pull request's range (install/action_test.go).
ACTION_TEST_DIR ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/swarm-guard/action-test
ACTION_TEST_VERSION := v0.0.0-actiontest
action-test:
	$(MAKE) --no-print-directory dist-archives DIST="$(ACTION_TEST_DIR)/$(ACTION_TEST_VERSION)" VERSION=$(ACTION_TEST_VERSION) \
		DIST_TARGETS="$$($(GO) env GOOS)/$$($(GO) env GOARCH)"
	SWARM_GUARD_ACTION_RELEASES="$(ACTION_TEST_DIR)" SWARM_GUARD_ACTION_VERSION=$(ACTION_TEST_VERSION) \
		$(GO) test -count=1 -run TestActionInstallsAndVerifies -v ./install/

# actionlint for the workflow test (install/actionlint_test.go), built in
# the cache, not added to go.mod.
ACTIONLINT_VERSION ?= v1.7.7
actionlint:
	GOBIN="$${XDG_CACHE_HOME:-$$HOME/.cache}/swarm-guard-dist/actionlint" $(GO) install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION)
	$(GO) test -count=1 ./install -run TestWorkflowsPassActionlint -v
