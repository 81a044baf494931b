"""The grades shipped with the game (nestor/graded_deals.bin, read by nestor/graded_deals.py)
against the engine (issue 24 (2)).

The table is written by ``scripts/grade_table.py --table`` from :func:`nestor.grade.grade`;
these tests read it as the module does, grade a sample of its deals again, check that it was
graded with the cut points nestor/grade.py holds now, and that its counts are docs/odds.md's.
``make graded-deals-check`` grades every one of its deals again.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from helpers import script_module

from nestor import NestorError, VariantError
from nestor.grade import CUTS, GRADES, UNWINNABLE, grade
from nestor.graded_deals import (
    CUTS_FINGERPRINT,
    DATA_FILE,
    GRADED_DEALS,
    LETTERS,
    TABLE,
    cuts_fingerprint,
    deals_of_grade,
    known_grade,
    pick_deal,
    unpack,
)
from nestor.variants import VARIANTS

ROOT = Path(__file__).resolve().parent.parent


pack = script_module("grade_table").pack  # scripts/grade_table.py writes the table
SAMPLE = 8
"""Deals graded again per variant, beside the first deal of each grade."""


def test_the_table_holds_the_first_10000_deals_of_every_variant() -> None:
    assert GRADED_DEALS == 10_000
    assert list(TABLE) == list(VARIANTS)
    for variant, letters in TABLE.items():
        assert len(letters) == GRADED_DEALS, variant
        assert set(letters) <= set(LETTERS), variant


def test_the_data_file_holds_the_table_two_bits_a_deal() -> None:
    data = (ROOT / "nestor" / DATA_FILE).read_bytes()
    assert len(data) == GRADED_DEALS // 4 * len(VARIANTS)
    assert pack(TABLE) == data and unpack(data, GRADED_DEALS) == TABLE
    # Four deals a byte, the first in the two highest bits; a grade, its letter's index.
    first = TABLE["standard"][:4]
    assert data[0] == sum(list(LETTERS).index(c) << (6 - 2 * i) for i, c in enumerate(first))


def test_pack_and_unpack_round_trip_any_number_of_deals() -> None:
    for deals in (0, 1, 5, 7, 8):
        table = {v: "".join(random.Random(deals).choices("emhu", k=deals)) for v in VARIANTS}
        data = pack(table)
        assert len(data) == -(-deals // 4) * len(VARIANTS)
        assert unpack(data, deals) == table
    with pytest.raises(ValueError):
        unpack(pack(TABLE), GRADED_DEALS + 4)
    with pytest.raises(ValueError):
        pack({"standard": "emhu"})  # every variant
    with pytest.raises(ValueError):
        pack(dict(TABLE, standard="x" * GRADED_DEALS))


def test_the_table_is_read_out_of_a_zip_archive(tmp_path: Path) -> None:
    # As the page imports the package: from an archive on sys.path, the data through the
    # module's loader.
    archive = tmp_path / "nestor.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path in sorted((ROOT / "nestor").rglob("*")):
            if path.suffix in (".py", ".bin") and "__pycache__" not in path.parts:
                zf.write(path, str(path.relative_to(ROOT)))
    code = (
        f"import sys; sys.path.insert(0, {str(archive)!r})\n"
        "import nestor.graded_deals as g\n"
        "assert g.__spec__.origin.startswith(sys.path[0]), g.__spec__.origin\n"
        "print(''.join(g.TABLE.values()))\n"
    )
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True,
                          cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "".join(TABLE.values())


def test_the_table_was_graded_with_the_cut_points_the_engine_holds() -> None:
    # Fails once nestor/grade.py's CUTS change: write the table again (make graded-deals).
    assert cuts_fingerprint(repr(CUTS)) == CUTS_FINGERPRINT


def _sample(variant: str) -> list[int]:
    letters = TABLE[variant]
    firsts = [letters.index(c) for c in LETTERS if c in letters]
    rng = random.Random(f"graded:{variant}")
    return sorted(set(firsts + rng.sample(range(GRADED_DEALS), SAMPLE)))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_sample_of_the_table_graded_again_by_the_engine(variant: str) -> None:
    for deal in _sample(variant):
        assert known_grade(variant, deal) == grade(variant, deal).grade, (variant, deal)


def test_the_table_counts_each_grade_as_docs_odds_says() -> None:
    doc = (ROOT / "docs" / "odds.md").read_text()
    for variant in VARIANTS:
        for name in (*GRADES, UNWINNABLE):
            row = re.search(rf"^\| {variant} \| {name} \| ([\d,]+) \|", doc, re.M)
            assert row is not None, (variant, name)
            assert len(deals_of_grade(variant, name)) == int(row[1].replace(",", ""))


def test_a_deal_beyond_the_table_has_no_known_grade() -> None:
    assert known_grade("standard", GRADED_DEALS) is None
    assert known_grade("standard", 2**32 - 1) is None
    assert known_grade("Doublets", 0) == LETTERS[TABLE["doublets"][0]]
    with pytest.raises(VariantError):
        known_grade("klondike", 0)


def test_a_deal_is_picked_of_the_grade_asked_and_not_one_played_while_others_remain() -> None:
    rng = random.Random(3)
    for variant in VARIANTS:
        for name in GRADES:
            deals = deals_of_grade(variant, name)
            assert deals and all(known_grade(variant, n) == name for n in deals)
            picked = pick_deal(variant, name, rng)
            assert picked in deals
            played = set(deals[:-1])
            assert pick_deal(variant, name, rng, played) == deals[-1]
            assert pick_deal(variant, name, rng, set(deals)) in deals  # all played: any
    assert pick_deal("doublets", UNWINNABLE, rng) is None  # every Doublets deal is winnable
    with pytest.raises(NestorError) as raised:
        pick_deal("standard", "easiest", rng)
    assert raised.value.code == "grade.unknown"
