"""The learned fact opinion's committed weights are what its training script makes of the dev material."""

from __future__ import annotations

import pytest

from bench import train_fact_model

# bench/ scripts on generated corpora: part of the slow set (pytest -m '')
pytestmark = pytest.mark.slow


def test_the_committed_weights_are_what_the_dev_material_trains() -> None:
    assert train_fact_model.build() == train_fact_model.OUT.read_text(encoding="utf-8")
