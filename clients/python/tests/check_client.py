"""Exercises the arcade_gym client against a running server; prints one JSON line of findings.

    python3 check_client.py http://127.0.0.1:8787 [token]

Used by client.test.ts (which starts the real server); also handy by hand.
"""

import json
import sys

import arcade_gym  # noqa: F401  (registers the games with gymnasium when it is importable)
from arcade_gym.client import ArcadeGymClient, ArcadeGymEnv, ArcadeGymError, ArcadeGymVectorEnv, _gym, _np


def play(env, seed, actions):
    obs, info = env.reset(seed=seed)
    trace = [info["state"]]
    rewards = []
    ended = None
    for a in actions:
        obs, reward, terminated, truncated, info = env.step(a)
        trace.append(info["state"])
        rewards.append(reward)
        if terminated or truncated:
            ended = {"terminated": terminated, "truncated": truncated, "episode": info.get("episode"), "outcome": info.get("outcome")}
            break
    return obs, trace, rewards, ended


def main():
    url = sys.argv[1]
    token = sys.argv[2] if len(sys.argv) > 2 else None
    out = {"gymnasium": _gym is not None, "numpy": _np is not None}
    client = ArcadeGymClient(url, token)
    games = client.games()
    out["games"] = [g["id"] for g in games]

    env = ArcadeGymEnv("snake", server_url=url, token=token, observation=["state", "vector"], max_steps=12)
    out["env_is_gymnasium"] = _gym is not None and isinstance(env, _gym.Env)
    out["action_n"] = int(env.action_space.n) if _gym is not None else env.action_space["n"]
    actions = [1, 1, 2, 2, 3, 3, 0, 0, 4, 1, 1, 2]
    obs, trace, rewards, ended = play(env, 7, actions)
    out["vector_len"] = len(obs["vector"])
    out["ended"] = {k: ended[k] for k in ("terminated", "truncated")} if ended else None
    out["record_actions"] = ended["episode"]["actions"] if ended else None
    out["outcome"] = ended["outcome"]["status"] if ended else None
    # Same seed and actions in a second session: the same states (determinism across sessions).
    env2 = ArcadeGymEnv("snake", server_url=url, token=token, observation="state", max_steps=12)
    _, trace2, rewards2, _ = play(env2, 7, actions)
    out["deterministic"] = trace == trace2 and rewards == rewards2
    out["single_kind_obs_is_state"] = isinstance(env2.reset(seed=1)[0], dict) and "score" in env2.reset(seed=1)[0]

    # Pixels: binary frames and base64 JSON give the same bytes.
    pb = ArcadeGymEnv("snake", server_url=url, token=token, observation=["pixels"], binary=True)
    pj = ArcadeGymEnv("snake", server_url=url, token=token, observation=["pixels"], binary=False)
    ob, _ = pb.reset(seed=3)
    oj, _ = pj.reset(seed=3)
    raw = lambda p: p.tobytes() if _np is not None else p.data
    out["pixels_shape"] = list(ob.shape)
    out["pixels_binary_equals_json"] = raw(ob) == raw(oj)
    ob2 = pb.step(1)[0]
    oj2 = pj.step(1)[0]
    out["pixels_step_equal"] = raw(ob2) == raw(oj2)

    # Errors arrive as ArcadeGymError with the server's codes.
    codes = {}
    for name, fn in {
        "unknown_session": lambda: client.step("ses_nope", 0),
        "bad_action": lambda: client.step(env2.session_id, 99),
        "malformed_action": lambda: client.request("POST", f"/v1/sessions/{env.session_id}/step", {"action": "up"}),
        "unknown_game": lambda: client.create_session("pacmann"),
    }.items():
        try:
            fn()
            codes[name] = None
        except ArcadeGymError as e:
            codes[name] = [e.status, e.code]
    out["errors"] = codes

    # Closing mid-episode records the episode as truncated.
    pb.reset(seed=4)
    pb.step(0)
    closed = pb.close()
    out["close_outcome"] = closed and {"status": closed["status"], "cause": closed["cause"]["code"], "length": closed["episode"]["totals"]["length"]}
    try:
        client.step(pb.session_id, 0)
        out["step_after_close"] = None
    except ArcadeGymError as e:
        out["step_after_close"] = [e.status, e.code]
    for e in (env, env2, pj):
        e.close()

    # Batch steps: one round trip for several sessions, each as if stepped alone.
    ids = [client.create_session("snake", observation="state", max_steps=3)["session"]["id"] for _ in range(3)]
    for sid, seed in zip(ids, (5, 6, 5)):
        client.reset(sid, seed=seed)
    batch = client.step_many([(ids[0], 1), (ids[1], 2)])
    alone = client.step(ids[2], 1)
    out["batch_equals_single"] = batch[0][0] == alone[0] and batch[0][1:4] == alone[1:4] and batch[1][4]["step"] == 1
    client.step_many([(ids[0], 1), (ids[1], 1)])
    client.step_many([(ids[0], 1)])  # the last step of ids[0]'s budget
    mixed = client.step_many([(ids[0], 1), (ids[1], 1)])
    out["batch_item_error"] = [mixed[0].status, mixed[0].code] if isinstance(mixed[0], ArcadeGymError) else None
    out["batch_other_ran"] = isinstance(mixed[1], tuple) and mixed[1][3] is True
    try:
        client.step_many([(ids[1], 1), (ids[2], 99)])
        out["batch_refused"] = None
    except ArcadeGymError as e:
        out["batch_refused"] = [e.status, e.code]
    for sid in ids:
        client.close_session(sid)

    out["vector"] = check_vector_env(url, token)
    out["action_mask"] = check_action_mask(url, token)
    out["seeds"] = check_seeds(url, token)
    out["registered"] = check_registration()

    # A full server answers BUSY (503) with a retry hint; nothing is queued.
    held = []
    out["busy"] = None
    for _ in range(client.health()["sessions"]["max"] + 1):
        try:
            held.append(client.create_session("snake", observation="state")["session"]["id"])
        except ArcadeGymError as e:
            out["busy"] = [e.status, e.code, (e.retry_after_ms or 0) >= 1000]
            break
    for sid in held:
        client.close_session(sid)
    out["open_after"] = len(client.sessions())
    print(json.dumps(out))


def check_action_mask(url, token):
    """A game with an action mask (2048): info["action_mask"] per env, one int8 per action (a list without numpy)."""
    env = ArcadeGymEnv("g2048", server_url=url, token=token, observation="vector", max_steps=3)
    _, info = env.reset(seed=2)
    mask = info["action_mask"]
    step_mask = env.step(0)[4]["action_mask"]
    env.close()
    venv = ArcadeGymVectorEnv("g2048", num_envs=2, server_url=url, token=token, observation="vector", max_steps=3)
    _, infos = venv.reset(seed=2)
    batched = infos["action_mask"]
    venv.close()
    return {
        "length": len(mask),
        "values": sorted({int(x) for x in list(mask) + list(step_mask)}) in ([0, 1], [1]),
        "equals_camel_case": [int(x) for x in mask] == info["actionMask"],
        "numpy_int8": _np is not None and isinstance(mask, _np.ndarray) and str(mask.dtype) == "int8",
        "batched_shape": list(batched.shape) if _np is not None else [len(batched), len(batched[0])],
    }


def check_vector_env(url, token):
    """ArcadeGymVectorEnv: the same episodes as single envs, and Gymnasium 1.0 autoreset in both modes."""
    found = {}
    seeds = [5, 6, 5]
    actions = [1, 2, 1]
    singles = []
    for seed, a in zip(seeds, actions):
        env = ArcadeGymEnv("snake", server_url=url, token=token, observation="state", max_steps=2)
        obs, _ = env.reset(seed=seed)
        trace = [obs]
        for _ in range(2):
            obs, reward, terminated, truncated, _ = env.step(a)
            trace.append([obs, reward, terminated, truncated])
        singles.append(trace)
        env.close()

    venv = ArcadeGymVectorEnv("snake", num_envs=3, server_url=url, token=token, observation="state", max_steps=2)
    found["is_gymnasium_vector"] = _gym is not None and isinstance(venv, _gym.vector.VectorEnv)
    found["action_nvec"] = list(venv.action_space.nvec) if _gym is not None else venv.action_space["nvec"]
    obs, infos = venv.reset(seed=seeds)
    traces = [[o] for o in obs]
    ended = None
    for _ in range(2):
        obs, rewards, terms, truncs, infos = venv.step(actions)
        for i in range(3):
            traces[i].append([obs[i], float(rewards[i]), bool(terms[i]), bool(truncs[i])])
        ended = [bool(t or u) for t, u in zip(terms, truncs)]
    found["equals_single_envs"] = traces == singles
    found["same_seed_same_episode"] = traces[0] == traces[2]
    found["ended_after_budget"] = ended
    # next-step: this step resets every env (actions ignored), reward 0, not done, flagged.
    obs, rewards, terms, truncs, infos = venv.step([0, 0, 0])
    found["next_step_reset"] = {
        "rewards": [float(r) for r in rewards],
        "done": [bool(t or u) for t, u in zip(terms, truncs)],
        "autoreset": [bool(x) for x in infos["autoreset"]],
        "first_obs_is_new_episode": obs[0] != traces[0][-1][0],
    }
    try:
        venv.step([0, 0])
        found["wrong_action_count"] = None
    except ValueError as e:
        found["wrong_action_count"] = str(e)
    venv.close()

    same = ArcadeGymVectorEnv("snake", num_envs=2, server_url=url, token=token, observation=["state", "vector"], max_steps=2, autoreset_mode="same-step")
    obs, _ = same.reset(seed=5)
    found["dict_obs_batched"] = sorted(obs.keys()) == ["state", "vector"] and len(obs["vector"]) == 2
    for _ in range(2):
        obs, rewards, terms, truncs, infos = same.step([1, 2])
    found["same_step"] = {
        "done": [bool(t or u) for t, u in zip(terms, truncs)],
        "final_obs_is_last": infos["final_obs"][0]["state"] == traces[0][-1][0],
        "final_mask": [bool(x) for x in infos["_final_obs"]],
        "obs_is_new_episode": obs["state"][0]["score"] == 0 and obs["state"][0] != traces[0][-1][0],
    }
    # The step after a same-step reset plays on at once (no reset transition).
    obs, rewards, terms, truncs, infos = same.step([1, 2])
    found["same_step_continues"] = "autoreset" not in infos
    found["close_outcomes"] = [o is not None for o in same.close()]
    return found


def check_seeds(url, token):
    """Episode seeds of a vector env's sub-envs: distinct unseeded, s + i and their own sequences seeded."""

    def run(venv, seed):
        _, infos = venv.reset(seed=seed)
        seeds = [[int(s)] for s in infos["seed"]]
        for _ in range(6):  # max_steps=1: every other step autoresets every env
            _, _, _, _, infos = venv.step([0] * venv.num_envs)
            if "autoreset" in infos:
                for i, m in enumerate(infos["_autoreset"]):
                    if m:
                        seeds[i].append(int(infos["seed"][i]))
        return seeds

    venv = ArcadeGymVectorEnv("snake", num_envs=3, server_url=url, token=token, observation="state", max_steps=1)
    try:
        unseeded = run(venv, None)
        seeded = run(venv, 10)
        again = run(venv, 10)
    finally:
        venv.close()
    flat = lambda runs: [s for r in runs for s in r]
    return {
        "episodes": len(flat(unseeded)),
        "unseeded_distinct": len(set(flat(unseeded))) == len(flat(unseeded)),
        "seeded_first": [r[0] for r in seeded],
        "seeded_distinct": len(set(flat(seeded))) == len(flat(seeded)),
        "reseeded_repeats": again == seeded,
    }


def check_registration():
    """What `import arcade_gym` registered with gymnasium, and whether its entry points resolve to the client's classes."""
    if _gym is None:
        return None
    import importlib

    def resolve(entry):
        module, attr = entry.split(":")
        return getattr(importlib.import_module(module), attr)

    specs = {k: v for k, v in _gym.registry.items() if k.startswith("ArcadeGym/")}
    return {
        "ids": {k: [v["max_episode_steps"], v["kwargs"]["game"]] for k, v in specs.items()},
        "entry_points_resolve": all(
            resolve(v["entry_point"]) is ArcadeGymEnv and resolve(v["vector_entry_point"]) is ArcadeGymVectorEnv for v in specs.values()
        ),
    }


if __name__ == "__main__":
    main()
