"""Every setting of the gateway, read from the environment in one place (prefix `FABRIC_`)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Gateway configuration. Each field is the environment variable `FABRIC_<NAME>`."""

    model_config = SettingsConfigDict(env_prefix="FABRIC_", extra="ignore")

    graph_uri: str = Field(
        "embedded",
        description="`embedded` (a FalkorDB server started in the data directory), a FalkorDB "
        "server (`redis://host:port`, `falkordb://host:port`, `unix:///path`), or Neo4j "
        "(`bolt://`, `neo4j://`, `neo4j+s://`).",
    )
    data_dir: Path = Field(Path("fabric-data"), description="Embedded server data directory.")
    embedded_restart_delay_s: float = Field(
        0.5,
        gt=0,
        le=60,
        description="Wait before restarting a crashed embedded server (doubled after each "
        "failed attempt, up to 30 s).",
    )
    embedded_start_limit_s: float | None = Field(
        None,
        gt=0,
        description="Hard limit on starting the embedded server, loading its data included "
        "(unset: none). Start-up never gives up while the server is loading or working; "
        "it reports progress on stderr and fails only after 60 s of neither.",
    )
    host: str = Field("127.0.0.1", description="Address the HTTP server binds.")
    port: int = Field(8000, ge=0, le=65535, description="Port the HTTP server binds.")
    workers: int = Field(
        0,
        ge=0,
        le=64,
        description="Gateway processes serving the port (`fabric serve --workers`); 0: the "
        "number of cores, at most 8. They share the graph server; docs/operations.md says how "
        "to size them against its threads.",
    )
    neo4j_user: str | None = Field(None, description="Neo4j user name.")
    neo4j_password: SecretStr | None = Field(None, description="Neo4j password.")
    neo4j_database: str = Field(
        "neo4j", min_length=1, description="Neo4j database (named: never looked up per call)."
    )
    graph_pool_size: int = Field(32, ge=1, le=1024, description="Graph connection pool size.")
    statement_timeout_ms: int | None = Field(
        15_000, ge=1, description="Server-side limit on one read statement."
    )
    demo_token: SecretStr | None = Field(
        None,
        description="Bearer token `fabric serve --demo` accepts (default: a key minted on the "
        "first start and kept in the data directory's `demo-token` file).",
    )
    demo_org: str = Field("demo", description="Organisation the demo data is loaded into.")
    demo_records: int = Field(20_000, ge=100, description="Size of the demo organisation.")
    request_timeout_s: float = Field(15.0, gt=0, description="Per-request time limit.")
    index_build_timeout_s: float = Field(
        120.0,
        gt=0,
        description="Per-request time limit while the graph server still builds the "
        "organisation's indexes after a start (FalkorDB builds them in the background; "
        "statements read without them meanwhile, correct but slower, and no statement limit "
        "applies); never shorter than the request time limit.",
    )
    gc_interval_s: float = Field(
        1.0,
        ge=0,
        le=3600,
        description="Seconds between the gateway's own garbage collections; Python's automatic "
        "collection is off while it runs (0: automatic collection, as Python does it). A "
        "dashboard page allocates tens of thousands of objects; collecting by allocation count "
        "cost a quarter of its CPU.",
    )
    max_concurrent_requests: int = Field(
        16,
        ge=1,
        le=10_000,
        description="GraphQL requests executing at once; more wait (at most the request time "
        "limit, then 503 OVERLOADED).",
    )
    max_body_bytes: int = Field(1_000_000, ge=1_024, description="Request body size limit.")
    introspection: bool = Field(True, description="Allow schema introspection.")
    graphiql: bool = Field(True, description="Serve GraphiQL on GET /graphql.")
    dashboard: bool = Field(
        True, description="Serve the dashboard (static pages on the public API) at /dashboard."
    )
    graphiql_assets_dir: Path | None = Field(
        None,
        description="GraphiQL's local assets, written by `fabric graphiql-assets` or the first "
        "`fabric serve --demo` (default: gateway/static/graphiql in the package); without them "
        "the GraphiQL page loads the same pinned files from a CDN.",
    )
    graphiql_registry: str = Field(
        "https://registry.npmjs.org",
        description="npm registry (or mirror) GraphiQL's pinned assets are fetched from, by "
        "`fabric graphiql-assets` and by `fabric serve --demo` on its first start.",
    )
    max_page_size: int = Field(500, ge=1, description="Largest `first` a connection accepts.")
    max_depth: int = Field(12, ge=1, description="Deepest selection nesting accepted.")
    max_aliases: int = Field(30, ge=1, description="Most aliases in one document.")
    max_tokens: int = Field(5_000, ge=10, description="Most lexer tokens in one document.")
    max_directives: int = Field(50, ge=0, description="Most directive uses in one document.")
    max_cost: int = Field(
        200_000,
        ge=1,
        description="Cost budget: rows a query may read from the graph plus objects it may "
        "return (list fields count their `first`, or a default, multiplied through nesting; "
        'docs/graphql.md, "Query cost").',
    )
    allow_batching: bool = Field(False, description="Accept arrays of operations in one POST.")
    max_batch: int = Field(
        10, ge=1, le=100, description="Most operations in one batched POST (when allowed)."
    )
    cors_origins: list[str] = Field(
        default_factory=list, description="Origins allowed by CORS (empty: CORS off)."
    )
    embedder: str = Field(
        "local",
        description="`local` (deterministic character n-gram hashing, no download), `http` "
        "(an OpenAI-compatible embeddings endpoint) or `none` (lexical search only).",
    )
    embedding_dimension: int = Field(128, ge=8, le=4096, description="Vector width.")
    embedder_url: str | None = Field(None, description="Base URL, e.g. http://host:1234/v1.")
    embedder_model: str | None = Field(None, description="Model the endpoint must answer with.")
    embedder_api_key: SecretStr | None = Field(None, description="Bearer key for the endpoint.")
    epoch_grace_s: float = Field(
        86_400.0, ge=0, description="How long a replaced projection epoch can be rolled back to."
    )
    epoch_drain_s: float = Field(
        120.0,
        ge=0,
        description="How long a retired epoch stays readable before its data is deleted "
        "(at least the epoch pointer TTL plus the request timeout: raised to that when lower).",
    )
    epoch_sweep_interval_s: float = Field(
        60.0,
        ge=0,
        description="Seconds between the server's epoch sweeps (grace expiry, deletion of "
        "drained epochs); 0 turns them off (then `fabric epochs retire` does it).",
    )
    epoch_build_bound_s: float = Field(
        86_400.0,
        ge=0,
        description="A projection build open longer than this is reported "
        "(fabric_epoch_over_bound_seconds), not stopped.",
    )
    epoch_watch_interval_s: float = Field(
        60.0,
        ge=0,
        description="Seconds between the server's looks at each organisation's lifecycle for "
        "builds and grace periods past their bound (whether or not it sweeps); 0 turns them off.",
    )
    epoch_pointer_ttl_s: float = Field(
        1.0,
        ge=0,
        description="How long an instance caches which epoch serves an organisation.",
    )
    answer_reuse_max_age: int | None = Field(
        None, ge=1, description="Seconds a saved answer may be reused (unset: reuse off)."
    )
    jwt_secret: SecretStr | None = Field(None, description="HS256 secret for JWT bearer tokens.")
    jwt_public_key: str | None = Field(
        None, description="RS256 public key (PEM) for JWT bearer tokens."
    )
    jwt_issuer: str | None = Field(None, description="Required `iss` of JWT bearer tokens.")
    jwt_audience: str | None = Field(None, description="Required `aud` of JWT bearer tokens.")
    jwt_org_claim: str = Field("org", description="JWT claim naming the organisation.")
    jwt_actor_claim: str = Field("sub", description="JWT claim naming the actor.")
    jwt_scope_claim: str = Field("scope", description="JWT claim with space-separated scopes.")
    log_format: Literal["json", "text"] = Field(
        "json", description="`fabric serve` log lines: one JSON object each, or plain text."
    )
    log_level: Literal["debug", "info", "warning", "error"] = Field(
        "info", description="Lowest level `fabric serve` logs."
    )
    redis_url: str | None = Field(
        None,
        description="With Neo4j: a FalkorDB or Redis server (`redis://host:port`) that carries "
        "revisions, subscription events and persisted documents between gateway processes "
        "(unset: they stay in one process, HTTP caching is off and trusted documents are "
        "refused). With FalkorDB the graph server itself does this.",
    )
    http_cache: bool = Field(
        True,
        description="GET queries answer with an ETag (query, variables, principal, the "
        "organisation's revision) and revalidate with If-None-Match (304).",
    )
    compiled_documents: bool = Field(
        True,
        description="A query document seen before runs from a compiled plan (parsed, "
        'validated and compiled once; docs/graphql.md, "Compiled documents"); what a plan '
        "does not cover runs the plain path, counted in fabric_compiled_fallbacks_total.",
    )
    persisted_queries: bool = Field(
        True, description="Accept Apollo's automatic persisted queries (sha256 hashes)."
    )
    max_persisted_queries: int = Field(
        10_000,
        ge=1,
        description="Automatic persisted queries kept per organisation (least recently used "
        "go first).",
    )
    max_persisted_query_bytes: int = Field(
        10_000_000,
        ge=1_024,
        description="Bytes of automatic persisted queries kept per organisation, counted as "
        "the graph server holds them (the minified text in its allocation, 304 bytes of entry "
        "each, and the organisation's keys); the least recently used go first, so a document "
        "larger than this is never kept.",
    )
    trusted_documents: bool = Field(
        False,
        description="Run only documents registered with `fabric documents register` (by hash "
        "or text, as written or minified); anything else is refused with DOCUMENT_NOT_TRUSTED, "
        "before any parse.",
    )
    max_subscription_connections: int = Field(
        1_000,
        ge=1,
        description="WebSocket connections (graphql-transport-ws) one gateway process holds; "
        "more are closed with 1013 (try again later).",
    )
    max_subscriptions_per_connection: int = Field(
        20, ge=1, le=1_000, description="Subscriptions one WebSocket connection may run at once."
    )
    subscription_buffer: int = Field(
        100,
        ge=1,
        le=100_000,
        description="Changes queued for one subscription; a subscriber further behind loses "
        "them and gets one `Resync` event instead.",
    )
    subscription_recheck_s: float = Field(
        30.0,
        gt=0,
        le=3_600,
        description="Seconds between re-checks of a WebSocket connection's credentials: a "
        "revoked key or an expired JWT closes it (4403) within this time.",
    )
    tracing: bool = Field(
        False,
        description="Emit OpenTelemetry spans for requests, resolvers and graph statements "
        "(needs `pip install '.[otel]'`; a no-op without it). `fabric serve` exports them over "
        "OTLP/HTTP, configured by the standard `OTEL_EXPORTER_OTLP_*` and `OTEL_SERVICE_NAME` "
        "variables.",
    )


class SettingsError(ValueError):
    """A setting its field refuses (`FABRIC_PORT=70000`), said as the variable and the flag
    that set it: pydantic's own error ended `fabric serve --port 70000` in a traceback."""


_FLAGS = {"host": "--host", "port": "--port", "data_dir": "--data-dir", "graph_uri": "--graph-uri"}


def load_settings(**overrides: object) -> Settings:
    """Settings from the environment, with explicit overrides (CLI flags) on top; a value
    a field refuses is a SettingsError naming it (never its value: it may be a secret)."""
    values = {k: v for k, v in overrides.items() if v is not None}
    try:
        return Settings(**values)  # type: ignore[arg-type]
    except ValidationError as exc:
        raise SettingsError(_refused(exc)) from None


def _refused(exc: ValidationError) -> str:
    said = []
    for error in exc.errors(include_url=False, include_input=False):
        field = str(error["loc"][0]) if error["loc"] else ""
        name = f"FABRIC_{field.upper()}"
        where = f"{_FLAGS[field]} or {name}" if field in _FLAGS else name
        said.append(f"{where}: {error['msg']}" if field else error["msg"])
    return "invalid setting: " + "; ".join(said)
