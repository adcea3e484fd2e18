# Context Fabric Gateway. Build: `docker build -t context-fabric-gateway .`
# Configuration is FABRIC_* environment only (docs/configuration.md); docker-compose.yml runs
# it against Neo4j 5. Without FABRIC_GRAPH_URI it starts its embedded FalkorDB in /var/lib/fabric.

FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/fabric
WORKDIR /src
COPY pyproject.toml README.md ./
COPY gateway ./gateway
COPY resolvers ./resolvers
COPY engine ./engine
COPY graph ./graph
COPY sources ./sources
# The `otel` extra: OpenTelemetry tracing is available, and off unless FABRIC_TRACING=true.
RUN /opt/fabric/bin/pip install ".[otel]"
# GraphiQL's pinned, checksum-verified assets from the npm registry into the installed
# package, so GET /graphql needs no CDN (without them the page falls back to the CDN).
RUN /opt/fabric/bin/fabric graphiql-assets

FROM python:3.11-slim
# git: `fabric import git` runs it to read a repository's history (graph/git/).
RUN apt-get update \
    && apt-get install -y --no-install-recommends git \
    && rm -rf /var/lib/apt/lists/*
# A fixed, unprivileged user: the gateway needs no root, and a fixed uid keeps volume
# ownership stable across image rebuilds.
RUN groupadd --system --gid 10001 fabric \
    && useradd --system --uid 10001 --gid fabric --home-dir /var/lib/fabric --no-create-home fabric \
    && mkdir -p /var/lib/fabric \
    && chown fabric:fabric /var/lib/fabric
COPY --from=build /opt/fabric /opt/fabric
ENV PATH="/opt/fabric/bin:${PATH}" \
    PYTHONUNBUFFERED=1 \
    FABRIC_HOST=0.0.0.0 \
    FABRIC_PORT=8000 \
    FABRIC_DATA_DIR=/var/lib/fabric \
    FABRIC_LOG_FORMAT=json
USER fabric
WORKDIR /var/lib/fabric
VOLUME ["/var/lib/fabric"]
EXPOSE 8000
# Ready means the graph store answers (503 otherwise); urlopen raises on any non-2xx status.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
    CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/readyz' % os.environ.get('FABRIC_PORT', '8000'), timeout=4)" || exit 1
ENTRYPOINT ["fabric"]
CMD ["serve"]
