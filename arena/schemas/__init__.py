"""JSON Schemas of what the arena writes for others to read, shipped with the package.

``deal-record-1.schema.json`` describes a deal record (format ``tarot-arena/deal-record/1``,
see :mod:`arena.games.french_tarot.record`): what TableEnd.record_json carries, the export writes
and ``replay`` reads. Any language's JSON Schema validator (draft 2020-12) can check a record
with it; the test suite validates every record the engine writes over many random deals.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Final

DEAL_RECORD: Final = "deal-record-1.schema.json"


def load(name: str) -> dict[str, Any]:
    """The schema of that file name, parsed."""
    text = resources.files(__name__).joinpath(name).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def deal_record_schema() -> dict[str, Any]:
    return load(DEAL_RECORD)
