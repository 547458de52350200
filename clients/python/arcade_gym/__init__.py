"""Arcade Gym's Python client: the gym's browser games as Gymnasium envs over its HTTP API.

    import arcade_gym
    env = arcade_gym.ArcadeGymEnv("snake", server_url="http://127.0.0.1:8787", observation="vector")

With gymnasium installed, every game is registered too: gymnasium.make("ArcadeGym/snake-v1").
Start a server with `npx arcade-gym serve`; the API is described at its /openapi.json.
"""

from .client import ArcadeGymClient, ArcadeGymEnv, ArcadeGymError, ArcadeGymVectorEnv, Pixels, decode_frame, _gym
from .live import LiveEnv
from .registration import NAMESPACE, bundled_games, env_id, register_envs, register_server_games

__all__ = [
    "NAMESPACE",
    "ArcadeGymClient",
    "ArcadeGymEnv",
    "ArcadeGymError",
    "ArcadeGymVectorEnv",
    "LiveEnv",
    "Pixels",
    "bundled_games",
    "decode_frame",
    "env_id",
    "register_envs",
    "register_server_games",
]

if _gym is not None:
    register_envs()
