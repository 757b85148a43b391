# dicechess — build, lint and test recipes (GNU make).
#
#   make study      run the main job (the luck-vs-skill study)
#   make test       everything CI runs: venvs (incl. the RL libraries), lint, mypy, Rust tests,
#                   extension, wheel, pytest, notebooks
#   make help       list all targets
#
# Every recipe works from a fresh clone: the first target that needs Python
# creates .venv from requirements-dev.txt (plus requirements-rl.txt for the
# test targets), and rustfmt/clippy are installed with rustup if they are missing.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:
# One recipe at a time, even under `make -j`: the steps share target/ and .venv.
.NOTPARALLEL:
MAKEFLAGS += --no-builtin-rules --no-builtin-variables

PYTHON ?= python3
VENV ?= .venv
VENV_ABS := $(abspath $(VENV))
VPY := $(VENV)/bin/python
CARGO ?= cargo
# `cargo test` builds tests with [profile.test] (opt-level 2, debug assertions
# and overflow checks on). `cargo test --release` would instead use the
# `bench` profile, i.e. the release profile's fat LTO + codegen-units=1 for
# every test binary, with debug assertions off. Override to taste:
#   make test CARGO_TEST_FLAGS=--release
CARGO_TEST_FLAGS ?=
PYTEST_ARGS ?=
STUDY_ARGS ?=
BENCH_ARGS ?=
# Seconds per fuzz target for `make fuzz`.
FUZZ_SECONDS ?= 30

# On CI: the lockfile must be up to date, and no interactive progress bars.
# A fresh clone gains nothing from incremental compilation, whose caches were
# half of target/debug; CI's disk is shared and once ran out (see rust-test).
ifdef CI
CARGO_LOCKED := --locked
export PIP_PROGRESS_BAR := off
export CARGO_TERM_PROGRESS_WHEN := never
export CARGO_INCREMENTAL := 0
else
CARGO_LOCKED :=
endif
export PIP_NO_INPUT := 1
export PIP_DISABLE_PIP_VERSION_CHECK := 1

VENV_STAMP := $(VENV)/.requirements-dev.stamp

.PHONY: help venv rust-tools lint fmt rust-test develop wheel pytest notebooks notebooks-update zero-reference browser \
        test test-slow perft bench bench-instructions bench-strength fuzz study typecheck clean distclean \
        docs sdist wheel-musl venv-rl test-rl test-rl-slow test-fresh-venv

help:
	@echo "make study       run the main job (dicechess study)"
	@echo "make test        venv + lint + typecheck + Rust tests + develop + wheel + venv-rl + pytest (not slow) + notebooks"
	@echo "make test-slow   slow pytest tests (incl. the documented RLlib run) and ignored Rust tests"
	@echo "make test-rl     only the RL-library tests and the RL notebook (installs requirements-rl.txt)"
	@echo "make test-rl-slow  the documented RLlib training run (score against random)"
	@echo "make test-fresh-venv  (slow, opt-in) wheel + 'dicechess[all]' in a fresh venv, then tests/rl"
	@echo "make venv-rl     install requirements-rl.txt (torch, SB3, RLlib deps, Tianshou) into .venv"
	@echo "make perft       the (ignored) perft tests"
	@echo "make bench       cargo bench and the Python peer benches (VecEnv, dicechess.sb3 vs DummyVecEnv, ...)"
	@echo "make bench-strength  search agent vs Stockfish, budget ladders, dice baselines (docs/search.md)"
	@echo "make bench-instructions  the search's instructions per node (callgrind; needs valgrind)"
	@echo "make fuzz        run every cargo-fuzz target for FUZZ_SECONDS=$(FUZZ_SECONDS) s"
	@echo "make lint        rustfmt, clippy (with and without 'python'), ruff"
	@echo "make fmt         apply rustfmt and ruff format"
	@echo "make typecheck   mypy on python/dicechess"
	@echo "make venv        create .venv from requirements-dev.txt"
	@echo "make browser     install Chromium (Debian) for the docs screenshot tests, if missing"
	@echo "make develop     build the extension (release) into .venv"
	@echo "make wheel       build the manylinux2014 abi3 wheel into dist/ (checked by auditwheel)"
	@echo "make wheel-musl  build the musllinux_1_2 abi3 wheel into dist/"
	@echo "make sdist       build the source distribution into dist/"
	@echo "make notebooks   run the notebooks; fails unless their stored outputs are current"
	@echo "make notebooks-update  run the notebooks and store their fresh outputs"
	@echo "make zero-reference  the self-play reference runs (Gardner, Fluky): train, evaluate, store in data/zero/"
	@echo "make docs        build the documentation site into site/ (mkdocs --strict)"
	@echo "make clean       remove build outputs; make distclean also removes .venv"

# ---------------------------------------------------------------- setup

venv: $(VENV_STAMP)

$(VENV_STAMP): requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	scripts/pip_install.sh $(VPY) -r requirements-dev.txt
	touch $@

# The torch-based RL libraries (requirements-rl.txt: ~2.8 GB of wheels, +5.7 GB
# in .venv, about 4 min to download and install), for every target that runs
# pytest or the notebooks: `make test` tests the real libraries.
RL_STAMP := $(VENV)/.requirements-rl.stamp
venv-rl: $(RL_STAMP)

# --no-deps: the file is the full resolved set (see its header for why).
$(RL_STAMP): requirements-rl.txt $(VENV_STAMP)
	scripts/pip_install.sh $(VPY) --no-deps -r requirements-rl.txt
	touch $@

rust-tools:
	@$(CARGO) fmt --version >/dev/null 2>&1 || rustup component add rustfmt
	@$(CARGO) clippy --version >/dev/null 2>&1 || rustup component add clippy

# ---------------------------------------------------------------- lint

lint: rust-tools venv
	$(CARGO) fmt --all --check
	$(CARGO) clippy $(CARGO_LOCKED) --all-targets -- -D warnings
	$(CARGO) clippy $(CARGO_LOCKED) --all-targets --features python -- -D warnings
	$(VENV)/bin/ruff check python tests scripts benches examples
	$(VENV)/bin/ruff format --check python tests scripts benches examples
	$(VENV)/bin/actionlint

fmt: rust-tools venv
	$(CARGO) fmt --all
	$(VENV)/bin/ruff check --fix python tests scripts benches examples
	$(VENV)/bin/ruff format python tests scripts benches examples

typecheck: venv
	$(VENV)/bin/mypy

# ---------------------------------------------------------------- build

# maturin develop builds the extension with the release profile and installs
# the package into .venv in editable form: python/dicechess/*.py are used in
# place and the compiled module lands in python/dicechess/_core.abi3.so.
develop: venv
	VIRTUAL_ENV=$(VENV_ABS) $(VENV)/bin/maturin develop --release $(CARGO_LOCKED)

# The wheel targets glibc 2.17 (manylinux2014) whatever this machine's glibc
# is: maturin links through zig (the `ziglang` package in .venv, found as
# `python3 -m ziglang` with .venv/bin first on PATH) against old glibc
# symbols; auditwheel then checks the platform tag it earned.
WHEEL_COMPAT ?= manylinux2014
MATURIN_ENV := VIRTUAL_ENV=$(VENV_ABS) PATH=$(VENV_ABS)/bin:$$PATH

wheel: venv
	rm -f dist/dicechess-*manylinux*.whl
	$(MATURIN_ENV) maturin build --release --zig --compatibility $(WHEEL_COMPAT) $(CARGO_LOCKED) -o dist
	$(VENV)/bin/auditwheel show dist/dicechess-*manylinux*.whl
	$(VPY) scripts/check_wheel_policy.py dist/dicechess-*manylinux*.whl

# musllinux (Alpine) wheel, also linked by zig; the Rust std for musl comes from rustup.
MUSL_TARGET := x86_64-unknown-linux-musl
wheel-musl: venv
	rustup target list --installed | grep -qx $(MUSL_TARGET) || rustup target add $(MUSL_TARGET)
	rm -f dist/dicechess-*musllinux*.whl
	$(MATURIN_ENV) maturin build --release --zig --target $(MUSL_TARGET) --compatibility musllinux_1_2 $(CARGO_LOCKED) -o dist
	$(VPY) scripts/check_wheel_policy.py dist/dicechess-*musllinux*.whl

sdist: venv
	rm -f dist/dicechess-*.tar.gz
	$(MATURIN_ENV) maturin sdist -o dist

# ---------------------------------------------------------------- docs

# README.md (home page), docs/*.md and an API reference generated from
# python/dicechess and its stubs; any warning fails the build.
docs: venv
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet

# ---------------------------------------------------------------- tests

rust-test:
	$(CARGO) test $(CARGO_LOCKED) $(CARGO_TEST_FLAGS)
ifdef CI
	@# No later step reads the test build; on CI it goes before the RL
	@# libraries (about 6 GB) come in, as the disk there once filled up.
	rm -rf target/debug
endif

# Headless Chromium for tests/project/test_site_screenshots.py (the docs site's
# pages as a reader sees them): Debian's package, installed when missing if we
# are root (CI is; about 30 s with the package lists' update), else a message.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing chromium (apt-get) for the docs screenshot tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      --no-install-recommends chromium >/dev/null; \
	  else echo "the docs screenshot tests need Chromium: sudo apt-get install chromium"; exit 1; fi; }

# tests/rl/test_rl_libraries.py imports torch, SB3, RLlib and Tianshou
# outright (an ImportError, never a skip), hence venv-rl.
pytest: venv venv-rl browser
	DICECHESS_REQUIRE_TIANSHOU=1 $(VENV)/bin/pytest -m "not slow" -q $(PYTEST_ARGS)

# Notebooks that need the torch-based RL libraries (also run alone by `make test-rl`).
RL_NOTEBOOKS := notebooks/06_maskable_ppo.ipynb notebooks/08_zero.ipynb
KERNEL_ENV := JUPYTER_PATH=$(VENV_ABS)/share/jupyter JUPYTER_PREFER_ENV_PATH=1

# The notebooks are committed with their outputs (GitHub and the docs site show
# them). `make notebooks` runs each top to bottom (scripts/notebooks.py, nbclient)
# and fails when a cell raises or the stored outputs are not current (the code
# cells, and the kinds of output each cell shows; not the numbers, which vary);
# `make notebooks-update` runs them and writes the fresh outputs back. They need
# the extension: on a fresh clone (dicechess not importable yet) this builds it.
# Their kernel ("python3") must be the venv's ipykernel, never a kernelspec in
# the home directory: JUPYTER_PATH puts the venv's kernelspecs first and
# JUPYTER_PREFER_ENV_PATH ranks the environment above user directories.
NOTEBOOKS_RUN = $(KERNEL_ENV) $(VPY) scripts/notebooks.py
notebooks: venv venv-rl
	@if compgen -G 'notebooks/*.ipynb' >/dev/null; then \
	  $(VPY) -c 'import dicechess._core' 2>/dev/null || $(MAKE) develop; \
	  echo "$(NOTEBOOKS_RUN)"; \
	  $(NOTEBOOKS_RUN); \
	else echo "no notebooks to run"; fi

# dicechess.zero's reference runs (docs/notes/zero-reference-runs.md): train
# into runs/zero/ (resuming what is there), evaluate, store in data/zero/.
ZERO_ARGS ?=
zero-reference: venv venv-rl develop
	$(VPY) scripts/zero_reference.py $(ZERO_ARGS)

notebooks-update: venv venv-rl
	$(VPY) -c 'import dicechess._core' 2>/dev/null || $(MAKE) develop
	$(NOTEBOOKS_RUN) --update

# The order matters and is kept (.NOTPARALLEL): cheap checks first (lint,
# mypy on the package against its stubs, the docs site), then the Rust tests,
# then the release builds: develop's (target/release) and the manylinux2014
# wheel's (zig, target/x86_64-unknown-linux-gnu), which tests/project/test_wheel.py
# installs into a fresh virtualenv. The RL libraries (venv-rl) are installed
# just before pytest, which needs them. The sdist build is `make test-slow`'s.
test: venv lint typecheck docs rust-test develop wheel venv-rl pytest notebooks

test-slow: venv venv-rl develop
	$(CARGO) test $(CARGO_LOCKED) $(CARGO_TEST_FLAGS) -- --ignored
	@# pytest exits 5 when no test is marked slow yet; that is not a failure.
	$(VENV)/bin/pytest -m slow -q $(PYTEST_ARGS) || [ $$? -eq 5 ]

# Only the RL-library part of `make test` (which runs it too): Stable-Baselines3 /
# sb3-contrib, RLlib and Tianshou on the envs (tests/rl/test_rl_libraries.py)
# and the RL notebooks (MaskablePPO's learning curve); a few minutes once the
# libraries are installed.
test-rl: venv-rl develop
	DICECHESS_REQUIRE_TIANSHOU=1 $(VENV)/bin/pytest -m "not slow" -q tests/rl/test_rl_libraries.py $(PYTEST_ARGS)
	$(NOTEBOOKS_RUN) $(RL_NOTEBOOKS)

test-rl-slow: venv-rl develop
	$(VENV)/bin/pytest -m slow -q tests/rl/test_rl_libraries.py $(PYTEST_ARGS)

perft:
	$(CARGO) test $(CARGO_LOCKED) $(CARGO_TEST_FLAGS) -- --ignored perft

bench: venv develop venv-rl
	$(CARGO) bench $(CARGO_LOCKED) $(BENCH_ARGS) | tee target/bench-playouts.txt
	$(VPY) benches/vegas_vs_python_chess.py --rust-bench-output target/bench-playouts.txt
	$(VPY) benches/vecenv.py
	$(VPY) benches/sb3_vecenv.py
	$(VPY) benches/zero_selfplay.py
	$(VPY) benches/episode_loop.py
	$(VPY) benches/ray_scaling.py

# Slow and opt-in (not part of `make test`): the wheel with every extra in a
# fresh venv in a temporary directory (deleted afterwards), then the RL test
# module against that install, as a user would have it (issue 71). Needs the
# package index and a few GB of disk for torch and ray.
test-fresh-venv: wheel
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	whl=$$(ls dist/dicechess-*manylinux*.whl); \
	$(PYTHON) -m venv "$$tmp/venv"; \
	"$$tmp/venv/bin/python" -m pip install --quiet "$$whl[all]" \
		"$$(grep -m1 '^pytest==' requirements-dev.txt)" "$$(grep -m1 '^pytest-timeout==' requirements-dev.txt)"; \
	"$$tmp/venv/bin/python" -m pip list --format=freeze | grep -iE '^(dicechess|gymnasium|pandas|torch|stable.baselines3)=='; \
	"$$tmp/venv/bin/python" -c 'import dicechess, sys; assert sys.prefix in dicechess.__file__, dicechess.__file__'; \
	"$$tmp/venv/bin/python" -m pytest tests/rl -m "not slow" -p no:cacheprovider $(PYTEST_ARGS)

# Instructions per node of the search (callgrind; machine-independent where
# nodes/s are not). Needs valgrind (skipped with a message otherwise).
INSTRUCTIONS_ARGS ?=
bench-instructions: venv
	$(VPY) benches/instructions.py $(INSTRUCTIONS_ARGS)

# Long: about an hour with the defaults (STRENGTH_ARGS="--games 100" for the
# issue's 100-game Stockfish matches). Needs `apt-get install stockfish`
# for the first table (skipped with a message otherwise).
STRENGTH_ARGS ?=
bench-strength: venv develop
	$(VPY) benches/strength.py $(STRENGTH_ARGS)

# cargo-fuzz targets live in fuzz/ (a separate cargo workspace). With a
# nightly toolchain (rustup toolchain list) they run with AddressSanitizer;
# without one they run on stable with RUSTC_BOOTSTRAP=1 (cargo-fuzz passes
# -Z flags) and --sanitizer none (sanitizers need a nightly std), which still
# finds panics, overflows (debug assertions) and timeouts.
fuzz:
	@if [ ! -d fuzz ]; then echo "no fuzz/ directory yet: nothing to fuzz"; exit 0; fi; \
	command -v cargo-fuzz >/dev/null 2>&1 || $(CARGO) install cargo-fuzz --locked; \
	if rustup toolchain list 2>/dev/null | grep '^nightly' >/dev/null; then \
	  run="$(CARGO) +nightly fuzz run"; \
	else \
	  echo "no nightly toolchain: fuzzing on stable (RUSTC_BOOTSTRAP=1, --sanitizer none)"; \
	  export RUSTC_BOOTSTRAP=1; run="$(CARGO) fuzz run --sanitizer none"; \
	fi; \
	targets=$$($(CARGO) fuzz list); \
	if [ -z "$$targets" ]; then echo "fuzz/ has no targets"; exit 0; fi; \
	for t in $$targets; do \
	  echo "== fuzz $$t ($(FUZZ_SECONDS) s)"; \
	  $$run $$t -- -max_total_time=$(FUZZ_SECONDS); \
	done

# ---------------------------------------------------------------- the main job

study: develop
	$(VENV)/bin/dicechess study $(STUDY_ARGS)

# ---------------------------------------------------------------- cleaning

clean:
	$(CARGO) clean
	rm -rf dist build site .pytest_cache .ruff_cache .mypy_cache
	rm -f python/dicechess/_core*.so python/dicechess/_core*.pyd
	find python tests -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
