# pramana over HTTP: every server from one endpoint, bearer tokens required.
#
#   docker build -t pramana .
#   docker run -p 8000:8000 -v pramana-data:/data -e PRAMANA_TOKENS="$(openssl rand -hex 32)" \
#       -e PRAMANA_ALLOWED_HOSTS=mcp.example.org pramana
#
# Data lives in the /data volume: fill it once with the same image, e.g.
#   docker run --rm -v pramana-data:/data pramana gita seed
# Replicas: mount the volume read-only in each (`-v pramana-data:/data:ro`) and add --stateless, or
# share one PostgreSQL (PRAMANA_DATABASE_URL; compose.yaml runs it with two replicas).
# The postgres extra is in the image; the others (local embeddings, Milvus, Pinecone) are not: add
# them with `uv sync --extra ...` in the build stage.

# Any image with Python 3.11+ as `python` and pip (scripts/container_check.sh builds one from Debian's
# packages where Docker Hub cannot be reached).
ARG PYTHON_IMAGE=python:3.11-slim

FROM ${PYTHON_IMAGE} AS build
# A C compiler in the build stage only: the wheel's build compiles the Sanskrit analyzer with mypyc
# (hatch_build.py; without one it stays pure Python, slower). The version is the base image's Debian's.
# hadolint ignore=DL3008
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
RUN pip install --no-cache-dir "uv>=0.9"
WORKDIR /app
COPY pyproject.toml uv.lock README.md ./
COPY src ./src
RUN uv sync --frozen --no-dev --no-editable --compile-bytecode --extra postgres

FROM ${PYTHON_IMAGE}
# The MCP registry ties an OCI image to its server entry by this label.
LABEL io.modelcontextprotocol.server.name="io.github.pramana/pramana" \
      org.opencontainers.image.title="pramana-lookup" \
      org.opencontainers.image.description="Grounded-lookup MCP servers: Bhagavad Gita, Sanskrit and Pali dictionaries, code search"
RUN useradd --create-home --uid 10001 pramana && mkdir /data && chown pramana /data
COPY --from=build /app/.venv /app/.venv
ENV PATH=/app/.venv/bin:$PATH \
    PRAMANA_DATA_DIR=/data \
    PRAMANA_HOST=0.0.0.0 \
    PRAMANA_PORT=8000 \
    PRAMANA_AUTH=token \
    PRAMANA_LOG_LEVEL=INFO
# Numeric, so a runtime can check it is not root (Kubernetes runAsNonRoot) without the image's passwd.
USER 10001
VOLUME /data
EXPOSE 8000
# The port the server listens on: PRAMANA_PORT, which `docker run -e` may change.
HEALTHCHECK --interval=30s --timeout=3s \
    CMD ["python", "-c", "import os, urllib.request as r; r.urlopen('http://127.0.0.1:%s/health' % os.environ.get('PRAMANA_PORT', '8000'), timeout=2)"]
# SIGTERM (docker stop) drains in-flight requests for up to 5 s, then exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["pramana"]
CMD ["serve", "all", "--transport", "http"]
