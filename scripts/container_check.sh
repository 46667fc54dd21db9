#!/usr/bin/env bash
# Build the Dockerfile's image with podman and run it as a deployment would: the data volume filled
# once, then mounted read-only; the server as a non-root user; /health answers; a tool call works over
# HTTP with a bearer token. Needs root, podman and runc (apt-get install podman runc), and, where Docker
# Hub cannot be reached, debootstrap: the base image is then made from Debian's packages
# (bookworm's Python 3.11) and passed as PYTHON_IMAGE.
#
#   scripts/container_check.sh [PYTHON_IMAGE]
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
data_root="${PRAMANA_TEST_DATA:-$(cd .. && pwd)/shared/data}"
work=$(mktemp -d)
port=18765
token=$(python3 -c "import secrets; print(secrets.token_hex(16))")
trap 'podman rm -f pramana-check >/dev/null 2>&1 || true; [ -n "${mirror_pid:-}" ] && kill "$mirror_pid"; rm -rf "$work"' EXIT

# podman's defaults set rlimits and cgroups that an unprivileged sandbox may refuse (crun:
# "setrlimit RLIMIT_NOFILE: Operation not permitted", "cgroups in hybrid mode not supported").
printf '[containers]\ndefault_ulimits = []\n' > "$work/containers.conf"
export CONTAINERS_CONF="$work/containers.conf"
podman() { command podman --runtime runc "$@"; }

base="${1:-}"
if [ -z "$base" ]; then
    if podman pull -q docker.io/library/python:3.11-slim >/dev/null 2>&1; then
        base=docker.io/library/python:3.11-slim
    else
        echo "== Docker Hub unreachable: a Python 3.11 base from Debian's packages (debootstrap)"
        base=localhost/debian-python:3.11
        if ! podman image exists "$base"; then
            debootstrap --variant=minbase --include=python3,python3-venv,python3-pip,python-is-python3,ca-certificates,passwd \
                bookworm "$work/root" http://deb.debian.org/debian >"$work/debootstrap.log"
            rm -f "$work"/root/usr/lib/python3.*/EXTERNALLY-MANAGED  # as in the official image: pip may install
            # This machine's own extra certificate authorities (a proxy's), so pip and uv in the build trust it.
            cp /usr/local/share/ca-certificates/*.crt "$work/root/usr/local/share/ca-certificates/" 2>/dev/null || true
            chroot "$work/root" update-ca-certificates >/dev/null
            tar -C "$work/root" -c . | podman import --change 'CMD ["python3"]' \
                --change 'ENV SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt' - "$base" >/dev/null
        fi
    fi
fi

echo "== build (base $base)"
start=$(date +%s)
if ! podman build --format docker --network=host --build-arg "PYTHON_IMAGE=$base" -t localhost/pramana:check . \
    >"$work/build.log" 2>&1; then
    tail -20 "$work/build.log"
    exit 1
fi
echo "built in $(( $(date +%s) - start )) s"

echo "== fill the data volume once (gita seed from a loopback mirror, one csl-orig dictionary)"
mkdir -p "$work/data"
chown 10001 "$work/data"
python3 -m http.server 18766 --bind 127.0.0.1 -d "$data_root/gita/mirror" >/dev/null 2>&1 &
mirror_pid=$!
sleep 1
podman run --rm --no-healthcheck --network=host -v "$work/data:/data" localhost/pramana:check \
    gita seed --source http://127.0.0.1:18766 | tail -1
podman run --rm --no-healthcheck -v "$work/data:/data" -v "$data_root/sanskrit:/csl:ro" localhost/pramana:check \
    sanskrit install ap90 --source /csl | tail -1

echo "== serve from the volume mounted read-only, root filesystem read-only too"
podman run -d --name pramana-check --network=host --read-only -v "$work/data:/data:ro" \
    -e PRAMANA_TOKENS="$token" -e PRAMANA_PORT=$port localhost/pramana:check >/dev/null 2>"$work/run.err"
for _ in $(seq 1 60); do
    curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
    sleep 0.5
done
echo "user in the container: $(podman exec pramana-check id)"
echo "writing to /data: $(podman exec pramana-check touch /data/probe 2>&1 || true)"
echo "GET /health: $(curl -sS "http://127.0.0.1:$port/health")"
# The image's own HEALTHCHECK, run once by hand (no systemd here to run its timer).
echo "HEALTHCHECK: $(podman healthcheck run pramana-check 2>&1 && echo healthy)"
echo "GET /mcp without a token: HTTP $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/mcp")"

echo "== tool calls over streamable HTTP with the token"
PYTHONPATH="$repo" "$repo/.venv/bin/python" - "http://127.0.0.1:$port/mcp" "$token" <<'EOF'
import asyncio
import sys

from benchmarks._mcp_client import http_session


async def main(url: str, token: str) -> None:
    async with http_session(url, token) as session:
        tools = await session.list_tools()
        print(f"{len(tools.tools)} tools")
        for name, arguments in [
            ("lookup_verse", {"reference": "BG 2.47"}),
            ("fuzzy_match_verse", {"garbled_sanskrit": "man mana bhava mad bhakto mad yaji mam namaskuru"}),
            ("sanskrit_search", {"query": "kṛṣṇa", "limit": 2}),
        ]:
            result = await session.call_tool(name, arguments)
            text = result.content[0].text.replace("\n", " ")[:110]
            print(f"{name}: is_error={result.is_error}: {text}")
            assert not result.is_error


asyncio.run(main(sys.argv[1], sys.argv[2]))
EOF
podman stop -t 10 pramana-check >/dev/null 2>&1
echo "stopped: exit code $(podman inspect -f '{{.State.ExitCode}}' pramana-check)"
