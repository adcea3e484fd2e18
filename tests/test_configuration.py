"""The configuration reference is generated from the settings model and kept in step with it."""

from __future__ import annotations

from pathlib import Path

from gateway.cli import main
from gateway.configuration import DOC_PATH, env_names, reference
from gateway.settings import Settings

ROOT = Path(__file__).resolve().parent.parent


def test_configuration_doc_matches_the_settings_model() -> None:
    committed = (ROOT / DOC_PATH).read_text(encoding="utf-8")
    assert committed == reference(), (
        "docs/configuration.md differs from gateway/settings.py: "
        "run `fabric config-reference --out docs/configuration.md`"
    )


def test_every_setting_is_documented_with_its_variable() -> None:
    text = reference()
    for name, field in Settings.model_fields.items():
        assert field.description, f"setting {name} has no description"
    for variable in env_names():
        assert f"| `{variable}` |" in text
    assert "FABRIC_NEO4J_PASSWORD` | secret, optional |" in text


def test_cli_writes_the_reference(tmp_path: Path, capsys: object) -> None:
    out = tmp_path / "configuration.md"
    assert main(["config-reference", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == reference()
