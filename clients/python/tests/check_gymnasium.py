"""Runs gymnasium's own env checker on every bundled game (with gymnasium installed).

Usage: check_gymnasium.py URL. For each game `import arcade_gym` registered, makes
`gymnasium.make("ArcadeGym/<id>-v<major>", observation="vector")` and runs
`gymnasium.utils.env_checker.check_env` on it; then `gymnasium.make_vec` with 2 envs: a
gymnasium VectorEnv whose reset and step observations lie in its observation space. Snake is
also checked with 84x84 pixel observations. Prints one JSON object per game: problems found
(empty when it passes) and the checker's warnings.
"""

import json
import sys
import warnings

import gymnasium as gym
import numpy as np
from gymnasium.utils.env_checker import check_env

import arcade_gym

url = sys.argv[1]
results = {}


def check(name, **kwargs):
    problems = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = gym.make(name, server_url=url, **kwargs)
        try:
            check_env(env.unwrapped)
        except Exception as e:  # the checker's verdict, reported per game
            problems.append(f"check_env: {type(e).__name__}: {e}")
        finally:
            env.close()
        envs = gym.make_vec(name, num_envs=2, server_url=url, **kwargs)
        try:
            if not isinstance(envs, gym.vector.VectorEnv):
                problems.append(f"make_vec gave {type(envs).__name__}")
            obs, _ = envs.reset(seed=3)
            if not envs.observation_space.contains(obs):
                problems.append("make_vec: reset observation outside observation_space")
            for _ in range(3):
                obs, rewards, terms, truncs, _ = envs.step(envs.action_space.sample())
                if not envs.observation_space.contains(obs):
                    problems.append("make_vec: step observation outside observation_space")
                if rewards.shape != (2,) or terms.dtype != np.bool_:
                    problems.append(f"make_vec: rewards {rewards.shape}, terminations {terms.dtype}")
        except Exception as e:
            problems.append(f"make_vec: {type(e).__name__}: {e}")
        finally:
            envs.close()
    return {"problems": problems, "warnings": sorted({str(w.message).replace("\x1b[33m", "").replace("\x1b[0m", "") for w in caught})}


for game in arcade_gym.bundled_games():
    name = arcade_gym.env_id(game["id"], game["version"])
    results[game["id"]] = check(name, observation="vector")
results["snake/pixels"] = check(arcade_gym.env_id("snake", next(g["version"] for g in arcade_gym.bundled_games() if g["id"] == "snake")), observation="pixels")
print(json.dumps(results))
