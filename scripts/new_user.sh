#!/usr/bin/env bash
# Play a new user following the README's first steps, timed: a clean clone, a fresh home, empty
# package caches (pip, uv, npm) and no local wheel folder (/opt/wheels and pip's config are not
# used), everything fetched from the package registries.
#
#   scripts/new_user.sh [BRANCH]          (default: the branch checked out here)
#
# The clone has no datasets beside it, as a new user has none: the tests that need them skip, saying so.
# NEW_USER_TEST_DATA=DIR hands them the datasets (a contributor who has them), so that every test runs.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
branch="${1:-$(git -C "$here" rev-parse --abbrev-ref HEAD)}"
sandbox=$(mktemp -d)
trap 'rm -rf "$sandbox"' EXIT

# A fresh home and empty caches; pip and uv see no local wheels or extra indexes.
export HOME="$sandbox/home"
mkdir -p "$HOME"
export UV_CACHE_DIR="$sandbox/uv-cache" PIP_CACHE_DIR="$sandbox/pip-cache" npm_config_cache="$sandbox/npm-cache"
export PIP_CONFIG_FILE=/dev/null UV_NO_CONFIG=1
test_data="${NEW_USER_TEST_DATA:-}"
unset PIP_FIND_LINKS PIP_EXTRA_INDEX_URL PIP_INDEX_URL UV_FIND_LINKS UV_INDEX_URL UV_EXTRA_INDEX_URL \
    UV_OFFLINE VIRTUAL_ENV PRAMANA_TEST_DATA PRAMANA_DATA_DIR 2>/dev/null || true
# Only the system's tools: no venv or uv from the machine that runs this.
export PATH="$HOME/.local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

step() {
    local title=$1
    shift
    echo
    echo "\$ $*"
    local start=$SECONDS
    "$@"
    echo "[$title: $((SECONDS - start)) s]"
}

python=$(command -v python3)
echo "new user: $(uname -sm), $("$python" --version), node $(node --version 2>/dev/null || echo missing)"
echo "home $HOME, empty caches, no /opt/wheels, branch $branch"

step "clone" git clone -q --branch "$branch" "$here" "$sandbox/pramana"
cd "$sandbox/pramana"
step "get uv (pip install uv)" "$python" -m pip install -q --user --break-system-packages uv
step "install (uv tool install .)" uv tool install -q .
if ! command -v pramana >/dev/null; then
    echo "pramana is not on PATH: the README says to run uv tool update-shell" >&2
    exit 1
fi
echo "pramana is $(command -v pramana)"
step "main job" pramana gita match "man manā bhava mad-bhākto mad-yajī mam namāskuru"
step "what the servers have" pramana doctor
if [ -n "$test_data" ]; then
    export PRAMANA_TEST_DATA="$test_data"
fi
step "tests (scripts/test)" scripts/test -q -p no:cacheprovider
