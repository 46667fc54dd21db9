# pramana over HTTP: every server from one endpoint, bearer tokens required.
#
#   docker build -t pramana .
#   docker run -p 8000:8000 -v pramana-data:/data -e PRAMANA_TOKENS="$(openssl rand -hex 32)" \
#       -e PRAMANA_ALLOWED_HOSTS=mcp.example.org pramana
#
# Data lives in the /data volume: fill it once with the same image, e.g.
#   docker run --rm -v pramana-data:/data pramana gita seed
# Replicas: mount the volume read-only in each (`-v pramana-data:/data:ro`) and add --stateless.
# Optional extras (local embeddings, Milvus, Pinecone) are not in this image: add them with
# `uv sync --extra ...` in the build stage.

FROM python:3.11-slim AS build
RUN pip install --no-cache-dir "uv>=0.9"
WORKDIR /app
COPY pyproject.toml uv.lock README.md ./
COPY src ./src
RUN uv sync --frozen --no-dev --no-editable --compile-bytecode

FROM python:3.11-slim
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
USER pramana
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/health', timeout=2)"
# SIGTERM (docker stop) drains in-flight requests for up to 5 s, then exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["pramana"]
CMD ["serve", "all", "--transport", "http"]
