#!/usr/bin/env bash
# Runs each cargo-fuzz target (fuzz/fuzz_targets) for N seconds and fails on
# the first crash (libFuzzer exits non-zero and leaves the input in
# fuzz/artifacts/<target>/).
#
#   scripts/fuzz.sh [seconds] [target ...]     # default: 30 s, all targets
#
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`). Uses the nightly
# toolchain with AddressSanitizer when it is installed, else the default
# toolchain with RUSTC_BOOTSTRAP=1 and no sanitizer.
set -euo pipefail

secs="${1:-30}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(fen san)
fi

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/fuzz"

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "cargo-fuzz is missing: cargo install cargo-fuzz --locked" >&2
    exit 2
fi
if cargo +nightly --version >/dev/null 2>&1; then
    run=(cargo +nightly fuzz run -O)
else
    export RUSTC_BOOTSTRAP=1
    run=(cargo fuzz run -O --sanitizer none)
fi

# Seed corpora: the perft FENs and a few move texts.
mkdir -p corpus/fen corpus/san
if [ -z "$(ls -A corpus/fen)" ]; then
    i=0
    grep '^epd ' "$root/tests/data/orthodox.perft" | sed 's/^epd //' | while read -r fen; do
        printf '%s' "$fen" >"corpus/fen/seed$i"
        i=$((i + 1))
    done
    printf '%s' "2k2/ppppp/5/PPPPP/2K2 w - - 0 1" >corpus/fen/seed_small
fi
if [ -z "$(ls -A corpus/san)" ]; then
    i=0
    for m in e4 Nf3 O-O-O 0-0 exd8=Q+ e7e8q e2-e4 Ng1-f3 Nbd2 fxe6 Qxh8# R1a3; do
        for pick in A B C D E F G H I J; do
            printf '%s%s' "$pick" "$m" >"corpus/san/seed$i"
            i=$((i + 1))
        done
    done
fi

for t in "${targets[@]}"; do
    echo "== fuzzing $t for ${secs}s"
    log="artifacts/$t.log"
    mkdir -p artifacts
    set +e
    nice "${run[@]}" "$t" -- -max_total_time="$secs" -print_final_stats=1 >"$log" 2>&1
    status=$?
    set -e
    grep -E 'stat::number_of_executed_units|stat::new_units_added|Done ' "$log" || true
    if [ "$status" -ne 0 ]; then
        tail -40 "$log" >&2
        echo "fuzz target $t FAILED (exit $status); log $PWD/$log, inputs in fuzz/artifacts/$t/" >&2
        exit 1
    fi
done
echo "fuzzing passed: ${targets[*]} (${secs}s each)"
