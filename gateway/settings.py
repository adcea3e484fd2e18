"""Every setting of the gateway, read from the environment in one place (prefix `FABRIC_`)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr
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
    host: str = Field("127.0.0.1", description="Address the HTTP server binds.")
    port: int = Field(8000, ge=0, le=65535, description="Port the HTTP server binds.")
    neo4j_user: str | None = Field(None, description="Neo4j user name.")
    neo4j_password: SecretStr | None = Field(None, description="Neo4j password.")
    neo4j_database: str | None = Field(None, description="Neo4j database (server default).")
    graph_pool_size: int = Field(32, ge=1, le=1024, description="Graph connection pool size.")
    statement_timeout_ms: int | None = Field(
        15_000, ge=1, description="Server-side limit on one read statement."
    )
    demo_token: SecretStr | None = Field(
        None, description="Bearer token `fabric serve --demo` accepts (default: minted anew)."
    )
    demo_org: str = Field("demo", description="Organisation the demo data is loaded into.")
    demo_records: int = Field(20_000, ge=100, description="Size of the demo organisation.")
    request_timeout_s: float = Field(15.0, gt=0, description="Per-request time limit.")
    max_body_bytes: int = Field(1_000_000, ge=1_024, description="Request body size limit.")
    introspection: bool = Field(True, description="Allow schema introspection.")
    graphiql: bool = Field(True, description="Serve GraphiQL on GET /graphql.")
    max_page_size: int = Field(500, ge=1, description="Largest `first` a connection accepts.")


def load_settings(**overrides: object) -> Settings:
    """Settings from the environment, with explicit overrides (CLI flags) on top."""
    values = {k: v for k, v in overrides.items() if v is not None}
    return Settings(**values)  # type: ignore[arg-type]
