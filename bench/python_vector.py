"""One timed run of the Python vector env, for bench/python.ts (argv[1]: its settings as JSON).

Creates an ArcadeGymVectorEnv, resets it, steps `warmup` vector steps untimed and then `steps`
timed ones with seeded random actions, and prints {"env_steps_per_s", "vector_steps", ...}.
"""

import json
import random
import sys
import time

from arcade_gym import ArcadeGymVectorEnv

cfg = json.loads(sys.argv[1])
envs = ArcadeGymVectorEnv(
    cfg["game"],
    num_envs=cfg["numEnvs"],
    server_url=cfg["url"],
    observation=cfg["observation"],
    pixels=cfg.get("pixels"),
    seed=cfg["seed"],
)
n_actions = envs.spaces_json["action"]["n"]
rng = random.Random(cfg["seed"])
obs, _ = envs.reset(seed=cfg["seed"])
for _ in range(cfg["warmup"]):
    envs.step([rng.randrange(n_actions) for _ in range(cfg["numEnvs"])])
start = time.perf_counter()
cpu = time.process_time()
for _ in range(cfg["steps"]):
    obs, rewards, terms, truncs, infos = envs.step([rng.randrange(n_actions) for _ in range(cfg["numEnvs"])])
wall = time.perf_counter() - start
python_cpu = time.process_time() - cpu
shape = list(getattr(obs, "shape", []))
envs.close()
print(json.dumps({"env_steps_per_s": cfg["steps"] * cfg["numEnvs"] / wall, "vector_steps": cfg["steps"], "seconds": wall, "python_cpu_s": python_cpu, "obs_shape": shape}))
