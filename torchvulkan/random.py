"""Random number generator state per device, shaped like torch.cuda.random."""

from __future__ import annotations

import torch

from . import _C
from .device import _index, device_count


def _generator(device=None) -> torch.Generator:
    return _C.default_generator(_index(device))


def get_rng_state(device="vulkan") -> torch.Tensor:
    return _generator(device).get_state()


def get_rng_state_all() -> list[torch.Tensor]:
    return [get_rng_state(i) for i in range(device_count())]


def set_rng_state(new_state: torch.Tensor, device="vulkan") -> None:
    _generator(device).set_state(new_state.clone())


def set_rng_state_all(new_states) -> None:
    for i, state in enumerate(new_states):
        set_rng_state(state, i)


def manual_seed(seed: int) -> None:
    _generator().manual_seed(int(seed))


def manual_seed_all(seed: int) -> None:
    for i in range(device_count()):
        _generator(i).manual_seed(int(seed))


def seed() -> None:
    _generator().seed()


def seed_all() -> None:
    random_seed = _generator().seed()
    for i in range(1, device_count()):
        _generator(i).manual_seed(random_seed)


def initial_seed() -> int:
    return _generator().initial_seed()
