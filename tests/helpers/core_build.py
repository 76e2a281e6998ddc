"""The core built for a test: :meth:`Services.build` with the production settings but those a
test names, and what the root would hand it made here (real randomness and the UTC clock but
those a test gives, everyone a member of every server, no worker, no meters, no pages)."""

from __future__ import annotations

import dataclasses
from typing import Any

from bot.core.base.meters import NO_METERS
from bot.core.games.membership import EveryoneStays
from bot.core.services import Services, ServicesStore
from bot.core.settings import CoreSettings, Given

__all__ = ["build_core", "given_for_tests", "settings_for_tests"]

_SETTINGS = {f.name for f in dataclasses.fields(CoreSettings)}
_GIVEN = {f.name for f in dataclasses.fields(Given)}


def settings_for_tests(**settings: Any) -> CoreSettings:
    """The core's settings: the production defaults but ``settings``."""
    return dataclasses.replace(CoreSettings(), **settings)


def given_for_tests(**given: Any) -> Given:
    """What the root hands the core, as a test makes it: real randomness and the UTC clock,
    everyone a member, no worker, no meters, no pages, but what ``given`` names (None for
    ``rng_factory``, ``clock`` or ``computer_rng``: the real one)."""
    real = Given.real(EveryoneStays(), None, NO_METERS, page_link=None, league_link=None)
    return dataclasses.replace(real, **{k: v for k, v in given.items() if v is not None})


def build_core(store: ServicesStore, **options: Any) -> Services:
    """The core on ``store``; ``options`` name :class:`CoreSettings`' fields and
    :class:`Given`'s, each taken where it belongs (an unknown name is a ``TypeError``)."""
    unknown = set(options) - _SETTINGS - _GIVEN
    if unknown:
        raise TypeError(f"neither a core setting nor given: {', '.join(sorted(unknown))}")
    settings = settings_for_tests(**{k: v for k, v in options.items() if k in _SETTINGS})
    given = given_for_tests(**{k: v for k, v in options.items() if k in _GIVEN})
    return Services.build(store, settings, given)
