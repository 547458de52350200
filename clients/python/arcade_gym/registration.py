"""Gymnasium registration: every game as `ArcadeGym/<id>-v<major>`.

    import gymnasium, arcade_gym
    env = gymnasium.make("ArcadeGym/snake-v1", server_url="http://127.0.0.1:8787")
    envs = gymnasium.make_vec("ArcadeGym/snake-v1", num_envs=16, server_url=...)   # the server's vector env

The id's version is the major version of the game's manifest (a new major version means
different episodes for the same seed and actions); `max_episode_steps` is the game's official
step budget. `import arcade_gym` registers the project's own games (games.json beside this
file); `register_server_games(server_url)` adds whatever a running server offers, third-party
games included.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterable, List, Optional

NAMESPACE = "ArcadeGym"
ENV_ENTRY_POINT = "arcade_gym.client:ArcadeGymEnv"
VECTOR_ENTRY_POINT = "arcade_gym.client:ArcadeGymVectorEnv"


def env_id(game: str, version: str) -> str:
    major = version.split(".", 1)[0]
    if not major.isdigit():
        raise ValueError(f"{game}: version {version!r} does not start with a major number")
    return f"{NAMESPACE}/{game}-v{int(major)}"


def bundled_games() -> List[Dict[str, Any]]:
    """The project's own games as this package was built with them: id, title, version, stepBudget."""
    with open(os.path.join(os.path.dirname(__file__), "games.json"), encoding="utf-8") as f:
        return json.load(f)["games"]


def registrations(games: Iterable[Dict[str, Any]], server_url: Optional[str] = None) -> List[Dict[str, Any]]:
    """The keyword arguments of gymnasium.register for each game (no gymnasium needed)."""
    out = []
    for g in games:
        kwargs: Dict[str, Any] = {"game": g["id"]}
        if server_url is not None:
            kwargs["server_url"] = server_url
        out.append(
            {
                "id": env_id(g["id"], g["version"]),
                "entry_point": ENV_ENTRY_POINT,
                "vector_entry_point": VECTOR_ENTRY_POINT,
                "max_episode_steps": g["stepBudget"],
                "kwargs": kwargs,
            }
        )
    return out


def register_envs(games: Optional[Iterable[Dict[str, Any]]] = None, server_url: Optional[str] = None) -> List[str]:
    """Registers `games` (default: the bundled list) with gymnasium; returns the ids. Ids already registered are kept."""
    import gymnasium  # only called where gymnasium is importable

    ids = []
    for r in registrations(games if games is not None else bundled_games(), server_url):
        if r["id"] not in gymnasium.registry:
            gymnasium.register(**r)
        ids.append(r["id"])
    return ids


def register_server_games(server_url: str, token: Optional[str] = None) -> List[str]:
    """Registers every game a running server offers (its /v1/games), with that server as the default URL."""
    from .client import ArcadeGymClient

    client = ArcadeGymClient(server_url, token)
    try:
        return register_envs(client.games(), server_url=server_url)
    finally:
        client.close()
