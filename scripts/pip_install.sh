#!/usr/bin/env bash
# `pip install` with whole-command retries: PYTHON ARGS... runs
# `PYTHON -m pip install --retries 10 ARGS...` up to PIP_INSTALL_ATTEMPTS
# (default 4) times. pip's own --retries covers failed connections, but a
# connection dropped in the middle of a body (seen on CI with the 539 MB torch
# wheel) ends pip at once. Wheels that finished downloading are in pip's HTTP
# cache, so a retry fetches only what was missing.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 PYTHON PIP-INSTALL-ARGS..." >&2
  exit 2
fi
py=$1
shift
attempts=${PIP_INSTALL_ATTEMPTS:-4}
for ((i = 1; ; i++)); do
  if "$py" -m pip install --retries 10 "$@"; then
    exit 0
  fi
  if ((i >= attempts)); then
    echo "pip install failed $attempts times; giving up" >&2
    exit 1
  fi
  echo "pip install failed (attempt $i of $attempts); retrying in $((i * 20)) s" >&2
  sleep $((i * 20))
done
