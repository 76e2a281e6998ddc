"""The strict unified-diff applier that rebuilds old migration files
(tests/helpers/unified_diff.py): it rebuilds what ``diff -u`` describes to the byte, and
refuses, naming the line, whatever does not match the text it is applied to."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers.unified_diff import DiffMismatch, apply_unified_diff

TODAY = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n"
# A line changed near each end and one added in the middle: two hunks.
OLD = "one\nTWO\nthree\nfour\nfive\nfive and a half\nsix\nseven\neight\nnine\nTEN\n"
DIFF = """--- today
+++ old
@@ -1,5 +1,5 @@
 one
-two
+TWO
 three
 four
 five
@@ -6,5 +6,6 @@
+five and a half
 six
 seven
 eight
 nine
-ten
+TEN
"""


def test_a_diff_rebuilds_the_old_text() -> None:
    assert apply_unified_diff(TODAY, DIFF) == OLD


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (TODAY, TODAY.rstrip("\n")),  # the newline at the end taken away
        (TODAY.rstrip("\n"), TODAY),  # and given
        (TODAY, TODAY.replace("\n", "\r\n")),  # every line end made CRLF
        (TODAY.replace("four\n", "four\r\n"), TODAY),  # one CRLF made LF
        (TODAY, ""),  # everything removed
        ("", TODAY),  # everything added
        (TODAY, "zero\n" + TODAY),  # a line added before the first
    ],
)
def test_what_diff_u_makes_is_rebuilt_to_the_byte(tmp_path: Path, before: str, after: str) -> None:
    if shutil.which("diff") is None:
        pytest.skip("GNU diff is not installed")
    (tmp_path / "before").write_bytes(before.encode())
    (tmp_path / "after").write_bytes(after.encode())
    made = subprocess.run(
        ["diff", "-u", "--label", "before", "--label", "after", "before", "after"],
        cwd=tmp_path,
        capture_output=True,
        check=False,
    )
    assert made.returncode == 1, made.stderr
    assert apply_unified_diff(before, made.stdout.decode()) == after


@pytest.mark.parametrize(
    ("text", "diff", "said"),
    [
        # A removed line that is not the line there.
        (
            TODAY.replace("two", "deux"),
            DIFF,
            "line 2: the diff expects 'two\\n', the text has 'deux\\n'",
        ),
        # A context line that is not the line there.
        (TODAY.replace("eight", "huit"), DIFF, "line 8: the diff expects 'eight\\n'"),
        # The text is shorter than the hunk says.
        ("one\ntwo\n", DIFF, "the end of the text"),
        # A hunk that names the wrong line (no fuzz: it is not looked for elsewhere).
        ("zero\n" + TODAY, DIFF, "line 1: the diff expects 'one\\n', the text has 'zero\\n'"),
        # The counts in a header that do not match the lines after it.
        (TODAY, DIFF.replace("@@ -1,5 +1,5 @@", "@@ -1,6 +1,6 @@"), "does not fit the hunk"),
        (TODAY, DIFF.replace("@@ -6,5 +6,6 @@", "@@ -6,5 +6,7 @@"), "the diff ends inside"),
        # A new start that does not follow from the hunks before it.
        (TODAY, DIFF.replace("+6,6 @@", "+7,6 @@"), "says it makes line 7"),
        # Hunks out of order.
        (TODAY, DIFF.replace("@@ -6,5", "@@ -2,5"), "overlaps"),
        # A blank context line whose mark was stripped.
        ("a\n\nb\n", "--- x\n+++ y\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n", "does not fit"),
        # No file header, or something that is not a hunk.
        (TODAY, DIFF.split("\n", 2)[2], "starts with"),
        (TODAY, DIFF + "trailing words\n", "expected a hunk header"),
    ],
)
def test_a_diff_that_does_not_match_is_refused(text: str, diff: str, said: str) -> None:
    with pytest.raises(DiffMismatch) as refused:
        apply_unified_diff(text, diff)
    assert said in str(refused.value)
