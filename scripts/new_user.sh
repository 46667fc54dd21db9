#!/usr/bin/env bash
# Play a new user's first hour with the README, timed step by step: a clean clone, a fresh home,
# empty package caches (pip, uv, npm) and no local wheel folder (/opt/wheels and pip's config are not
# used), everything fetched from the package registries. Every hint pramana prints is followed as
# printed (the command is taken from its output and run), so a hint that does not work shows up as a
# failed step. A failed step does not stop the walk; the summary at the end lists each step's time
# and outcome.
#
#   scripts/new_user.sh [BRANCH]          (default: the branch checked out here)
#
# The user has no internet beyond the package registries, as on this project's machines: the
# upstreams (vedicscriptures, csl-orig) cannot be reached, and the hints say to use --source. With
# NEW_USER_TEST_DATA=DIR (the shared datasets) the walk uses its copies as the user's mirror;
# without it those steps are skipped, saying so. NEW_USER_TESTS=1 also runs the test suite
# (scripts/test) at the end, as a contributor would.
set -uo pipefail
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
    UV_OFFLINE VIRTUAL_ENV PRAMANA_TEST_DATA PRAMANA_DATA_DIR VEDABASE_DB_PATH VEDABASE_API_URL \
    SANSKRIT_DB_PATH SANSKRIT_SOURCE_URL DPD_DB_PATH PRAMANA_CODE_REPO UV_RUN_RECURSION_DEPTH 2>/dev/null || true
# Only the system's tools: no venv or uv from the machine that runs this.
export PATH="$HOME/.local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

summary=()
last_output="$sandbox/last-output"

# step TITLE COMMAND...: run it, show its output, time it, record the outcome.
step() {
    local title=$1
    shift
    echo
    echo "\$ $*"
    local start=$SECONDS
    "$@" 2>&1 | tee "$last_output"
    local status=${PIPESTATUS[0]}
    local took=$((SECONDS - start))
    local outcome="ok"
    [ "$status" -eq 0 ] || outcome="FAILED (exit $status)"
    echo "[$title: $took s, $outcome]"
    summary+=("$(printf '%-58s %5s s  %s' "$title" "$took" "$outcome")")
    return "$status"
}

skip() {
    echo
    echo "[$1: skipped, $2]"
    summary+=("$(printf '%-58s %5s    %s' "$1" "-" "skipped: $2")")
}

# The command a message gave in backquotes, the first one holding WORD.
hint_from_last_output() {
    grep -o '`[^`]*'"$1"'[^`]*`' "$last_output" | head -1 | tr -d '`'
}

# expect says|never PATTERN COMMAND...: run the command; it fails unless it succeeds and its output
# says (or never says) PATTERN.
expect() {
    local mode=$1 pattern=$2
    shift 2
    local output status
    output=$("$@" 2>&1)
    status=$?
    printf '%s\n' "$output"
    [ "$status" -eq 0 ] || return "$status"
    if [ "$mode" = says ]; then
        grep -q -- "$pattern" <<<"$output"
    else
        ! grep -q -- "$pattern" <<<"$output"
    fi
}

python=$(command -v python3)
echo "new user: $(uname -sm), $("$python" --version), node $(node --version 2>/dev/null || echo missing)"
echo "home $HOME, empty caches, no /opt/wheels, branch $branch; load: $(cut -d' ' -f1-3 /proc/loadavg)"

step "clone" git clone -q --branch "$branch" "$here" "$sandbox/pramana"
cd "$sandbox/pramana" || exit 1
step "get uv (pip install uv)" "$python" -m pip install -q --user --break-system-packages uv
step "install (uv tool install .)" uv tool install -q .
if ! command -v pramana >/dev/null; then
    echo "pramana is not on PATH: the README says to run uv tool update-shell" >&2
    exit 1
fi
echo "pramana is $(command -v pramana)"
step "main job: gita match (the whole quote in its header)" \
    expect says 'Matches for "man manā' pramana gita match "man manā bhava mad-bhākto mad-yajī mam namāskuru"
step "what the servers have (doctor)" pramana doctor
seed_hint=$(grep -o 'next: [^ ]* gita seed' "$last_output" | head -1 | sed 's/^next: //')
step "doctor's gita hint, as printed: ${seed_hint:-none}" ${seed_hint:-false}
source_hint=$(hint_from_last_output "--source")
if [ -n "$test_data" ] && [ -n "$source_hint" ]; then
    mirror="$test_data/gita/mirror"
    step "its --source hint, with a local mirror" ${source_hint//URL_OR_DIRECTORY/$mirror}
else
    skip "its --source hint" "no hint, or no NEW_USER_TEST_DATA mirror"
fi
step "question search (gita search)" pramana gita search "how can I control my restless mind?"
extra_hint=$(hint_from_last_output "embeddings")
if [ -n "$extra_hint" ]; then
    step "the embeddings hint, as printed: $extra_hint" bash -c "$extra_hint"
    step "seed again (no --source: the cache remembers it)" pramana gita seed
    step "question search by meaning (not 'by words only')" \
        expect never "Ranked by words only" pramana gita search "how can I control my restless mind?"
else
    skip "the embeddings hint" "no hint printed"
fi
step "chapter summary, offline (no 'could not be reached')" expect never "could not be reached" pramana gita chapter 2
step "client config (pramana config claude-desktop gita)" pramana config claude-desktop gita
# After a tool install the system's python has no pramana: docs/clients.md gives the line to use.
step "the spec's python -m vedabase_mcp (fails after a tool install, as docs say)" \
    "$python" -m vedabase_mcp --help
step "vedabase-mcp --help prints help" expect says "usage" timeout 20 vedabase-mcp --help </dev/null
step "sanskrit install (README quickstart)" pramana sanskrit install ap90 --no-forms
sanskrit_hint=$(hint_from_last_output "--source")
if [ -n "$test_data" ] && [ -n "$sanskrit_hint" ]; then
    step "its --source hint, with a local copy" ${sanskrit_hint//URL_OR_DIRECTORY/$test_data/sanskrit}
    step "sanskrit search" pramana sanskrit search kṛṣṇa
else
    skip "sanskrit's --source hint" "no hint, or no NEW_USER_TEST_DATA copy"
fi
step "pali download (README quickstart)" pramana pali download
step "doctor at the end" pramana doctor
if [ "${NEW_USER_TESTS:-0}" = 1 ]; then
    [ -n "$test_data" ] && export PRAMANA_TEST_DATA="$test_data"
    step "tests (scripts/test)" scripts/test -q -p no:cacheprovider
fi

echo
echo "== summary (branch $branch; load at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%s\n' "${summary[@]}"
