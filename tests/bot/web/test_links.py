"""The game pages' links: signed with the bot's secret, so none can be guessed or changed."""

from __future__ import annotations

from bot.web.links import PageLinks

LINKS = PageLinks("one secret that is long enough", "https://crib.example/")


def test_a_link_is_the_game_and_its_signature() -> None:
    signature = LINKS.signature(7)
    assert LINKS.path(7) == f"/g/7/{signature}"
    assert LINKS.url(7) == f"https://crib.example/g/7/{signature}"
    assert len(signature) == 22 and signature.replace("-", "").replace("_", "").isalnum()
    assert LINKS.check(7, signature)


def test_each_game_and_each_secret_signs_differently() -> None:
    other = PageLinks("another secret, long enough too")
    signatures = {LINKS.signature(n) for n in range(200)}
    assert len(signatures) == 200
    assert other.signature(7) != LINKS.signature(7)
    assert not other.check(7, LINKS.signature(7))


def test_a_changed_or_borrowed_signature_is_refused() -> None:
    signature = LINKS.signature(7)
    for bad in (
        signature[:-1],
        signature + "A",
        ("A" if signature[0] != "A" else "B") + signature[1:],
        "",
        LINKS.signature(8),
        "é" * 22,
    ):
        assert not LINKS.check(7, bad), bad


def test_without_a_public_address_there_is_no_link_to_post() -> None:
    assert PageLinks("one secret that is long enough").url(7) is None
