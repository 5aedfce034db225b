"""Shared helpers: the repository root and the public hardware rows."""

import os
import re
from pathlib import Path

import pytest

REPO = Path(os.environ.get("AMDGPU_VALU_REPO", Path(__file__).resolve().parents[2]))
HW_PUBLIC = REPO / "tests" / "captures" / "hw-public.tsv"


def parse_assignments(text):
    """{location: value} of a capture column: ('v', n), ('pair', n), ('s', n),
    ('v', n, lane), 'exec', 'wave'."""
    out = {}
    for word in text.split():
        name, value = word.split("=")
        if name == "wave":
            out["wave"] = int(value)
        elif name == "exec":
            out["exec"] = int(value, 16)
        elif m := re.fullmatch(r"v\[(\d+):(\d+)\](?:\[(\d+)\])?", name):
            key = ("pair", int(m[1])) + ((int(m[3]),) if m[3] else ())
            out[key] = int(value, 16)
        elif m := re.fullmatch(r"([vs])(\d+)(?:\[(\d+)\])?", name):
            key = (m[1], int(m[2])) + ((int(m[3]),) if m[3] else ())
            out[key] = int(value, 16)
        else:
            raise ValueError(f"unknown assignment {word}")
    return out


def hw_rows():
    """Every public hardware row as (line, target, mode, instruction, inputs, expected)."""
    rows = []
    for i, line in enumerate(HW_PUBLIC.read_text().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        target, mode, instr, inputs, expected = line.split("\t")[:5]
        rows.append((i, target, int(mode, 16), instr, parse_assignments(inputs), parse_assignments(expected)))
    return rows


@pytest.fixture(scope="session")
def rows():
    return hw_rows()
