"""PPO in PyTorch through Arcade Gym's Python vector env: one file, every setting in `Args`.

    npx arcade-gym serve &
    python3 clients/python/examples/ppo_torch.py --game snake --total-steps 100000 --seed 1

Shaped after CleanRL's ppo.py (discrete actions, MLP actor-critic, GAE, clipped surrogate,
minibatch epochs), with what this gym adds: feature-vector observations, invalid actions
masked out of the policy where the game offers `info["action_mask"]`, observations and
rewards normalised by running statistics. Prints one JSON line per update; the last line
compares the trained policy with a uniform random one on the same held-out seeds.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from dataclasses import dataclass
from typing import List, Optional, Tuple

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from arcade_gym import ArcadeGymVectorEnv  # noqa: E402  (runs from a checkout without installing too)

MASKED_LOGIT = -1e9


@dataclass
class Args:
    game: str = "snake"
    server_url: Optional[str] = None  # default: $ARCADE_GYM_URL, else http://127.0.0.1:8787
    token: Optional[str] = None
    seed: int = 1
    total_steps: int = 100_000
    num_envs: int = 16
    num_steps: int = 64  # steps per env per rollout
    learning_rate: float = 1e-3
    anneal_lr: bool = True
    gamma: float = 0.99
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 4
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    hidden: int = 128
    norm_obs: bool = True
    norm_reward: bool = True
    mask_actions: bool = True
    max_steps: Optional[int] = None  # episode budget; default the game's official one
    eval_episodes: int = 10
    eval_seed: int = 8_000_000  # held-out seeds: eval_seed + i, far from the training seeds
    torch_threads: int = 1


def parse_args(argv: Optional[List[str]] = None) -> Args:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for f in dataclasses.fields(Args):
        flag = "--" + f.name.replace("_", "-")
        if f.type in ("bool", bool):
            p.add_argument(flag, type=lambda s: s.lower() in ("1", "true", "yes"), default=f.default)
        elif f.name in ("server_url", "token"):
            p.add_argument(flag, type=str, default=f.default)
        elif f.name == "max_steps":
            p.add_argument(flag, type=int, default=f.default)
        else:
            p.add_argument(flag, type=type(f.default), default=f.default)
    return Args(**vars(p.parse_args(argv)))


class RunningMeanStd:
    """Running mean and variance (Chan et al.'s parallel update), as gymnasium's NormalizeObservation keeps."""

    def __init__(self, shape: Tuple[int, ...]):
        self.mean = np.zeros(shape, np.float64)
        self.var = np.ones(shape, np.float64)
        self.count = 1e-4

    def update(self, x: np.ndarray) -> None:
        b_mean, b_var, b_count = x.mean(0), x.var(0), x.shape[0]
        delta, total = b_mean - self.mean, self.count + b_count
        self.mean = self.mean + delta * b_count / total
        self.var = (self.var * self.count + b_var * b_count + delta**2 * self.count * b_count / total) / total
        self.count = total


class ObsNormalizer:
    def __init__(self, size: int, enabled: bool):
        self.rms, self.enabled = RunningMeanStd((size,)), enabled

    def __call__(self, obs: np.ndarray, update: bool = True) -> np.ndarray:
        obs = np.asarray(obs, np.float64)
        if not self.enabled:
            return obs.astype(np.float32)
        if update:
            self.rms.update(obs)
        return np.clip((obs - self.rms.mean) / np.sqrt(self.rms.var + 1e-8), -10, 10).astype(np.float32)


class RewardScaler:
    """Scales rewards by the running std of the discounted return (gymnasium's NormalizeReward)."""

    def __init__(self, num_envs: int, gamma: float, enabled: bool):
        self.rms, self.ret, self.gamma, self.enabled = RunningMeanStd(()), np.zeros(num_envs), gamma, enabled

    def __call__(self, rewards: np.ndarray, dones: np.ndarray) -> np.ndarray:
        if not self.enabled:
            return rewards.astype(np.float32)
        self.ret = self.ret * self.gamma + rewards
        self.rms.update(self.ret)
        self.ret[dones] = 0.0
        return (rewards / np.sqrt(self.rms.var + 1e-8)).astype(np.float32)


def layer(n_in: int, n_out: int, std: float = np.sqrt(2)) -> nn.Linear:
    lin = nn.Linear(n_in, n_out)
    nn.init.orthogonal_(lin.weight, std)
    nn.init.constant_(lin.bias, 0.0)
    return lin


class Agent(nn.Module):
    def __init__(self, obs_size: int, n_actions: int, hidden: int):
        super().__init__()
        self.critic = nn.Sequential(layer(obs_size, hidden), nn.Tanh(), layer(hidden, hidden), nn.Tanh(), layer(hidden, 1, 1.0))
        self.actor = nn.Sequential(layer(obs_size, hidden), nn.Tanh(), layer(hidden, hidden), nn.Tanh(), layer(hidden, n_actions, 0.01))

    def value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x).squeeze(-1)

    def act(self, x: torch.Tensor, mask: Optional[torch.Tensor], action: Optional[torch.Tensor] = None):
        logits = self.actor(x)
        if mask is not None:
            logits = torch.where(mask, logits, torch.full_like(logits, MASKED_LOGIT))
        dist = Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.value(x)


def masks_of(infos: dict, num_envs: int, n_actions: int, enabled: bool) -> Optional[np.ndarray]:
    if not enabled or "action_mask" not in infos:
        return None
    m = np.asarray(infos["action_mask"]).reshape(num_envs, n_actions).astype(bool)
    # An env with no valid action (should not happen) falls back to every action.
    m[~m.any(1)] = True
    return m


def make_envs(args: Args, num_envs: int, seed: int) -> ArcadeGymVectorEnv:
    return ArcadeGymVectorEnv(
        args.game,
        num_envs=num_envs,
        server_url=args.server_url,
        token=args.token,
        observation="vector",
        max_steps=args.max_steps,
        autoreset_mode="same-step",  # every step is a real transition of the env that took it
        seed=seed,
    )


def evaluate(args: Args, policy, n_actions: int) -> List[float]:
    """One episode on each held-out seed (eval_seed + i), at most num_envs at a time; `policy(obs, mask) -> actions`."""
    returns: List[float] = []
    width = min(args.eval_episodes, args.num_envs)
    for start in range(0, args.eval_episodes, width):
        n = min(width, args.eval_episodes - start)
        envs = make_envs(args, n, args.eval_seed + start)
        try:
            obs, infos = envs.reset(seed=args.eval_seed + start)
            totals = np.zeros(n)
            finished = np.zeros(n, bool)
            while not finished.all():
                actions = policy(obs, masks_of(infos, n, n_actions, args.mask_actions))
                obs, rewards, terms, truncs, infos = envs.step(actions)
                totals += np.where(finished, 0.0, rewards)
                finished |= terms | truncs
            returns.extend(totals.tolist())
        finally:
            envs.close()
    return returns


def main(args: Args) -> dict:
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads)
    envs = make_envs(args, args.num_envs, args.seed)
    n_actions = int(envs.spaces_json["action"]["n"])
    obs_size = int(envs.spaces_json["observation"]["spaces"]["vector"]["shape"][0])
    agent = Agent(obs_size, n_actions, args.hidden)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    norm_obs = ObsNormalizer(obs_size, args.norm_obs)
    scale_reward = RewardScaler(args.num_envs, args.gamma, args.norm_reward)

    T, N = args.num_steps, args.num_envs
    batch = T * N
    updates = max(1, args.total_steps // batch)
    obs_buf = torch.zeros((T, N, obs_size))
    mask_buf = torch.ones((T, N, n_actions), dtype=torch.bool)
    act_buf = torch.zeros((T, N), dtype=torch.long)
    logp_buf, rew_buf, done_buf, val_buf = (torch.zeros((T, N)) for _ in range(4))

    raw_obs, infos = envs.reset(seed=args.seed)
    next_obs = torch.tensor(norm_obs(raw_obs))
    next_mask = masks_of(infos, N, n_actions, args.mask_actions)
    next_done = torch.zeros(N)
    episode_return = np.zeros(N)
    finished_returns: List[float] = []
    started = time.time()
    for update in range(1, updates + 1):
        if args.anneal_lr:
            optimizer.param_groups[0]["lr"] = args.learning_rate * (1.0 - (update - 1.0) / updates)
        for t in range(T):
            obs_buf[t], done_buf[t] = next_obs, next_done
            mask_t = torch.tensor(next_mask) if next_mask is not None else None
            if mask_t is not None:
                mask_buf[t] = mask_t
            with torch.no_grad():
                action, logp, _, value = agent.act(next_obs, mask_t)
            act_buf[t], logp_buf[t], val_buf[t] = action, logp, value
            raw_obs, rewards, terms, truncs, infos = envs.step(action.numpy())
            dones = np.logical_or(terms, truncs)
            episode_return += rewards
            finished_returns.extend(episode_return[dones].tolist())
            episode_return[dones] = 0.0
            rew_buf[t] = torch.tensor(scale_reward(np.asarray(rewards, np.float64), dones))
            next_obs = torch.tensor(norm_obs(raw_obs))
            next_mask = masks_of(infos, N, n_actions, args.mask_actions)
            next_done = torch.tensor(dones, dtype=torch.float32)

        with torch.no_grad():
            next_value = agent.value(next_obs)
            adv = torch.zeros((T, N))
            last = torch.zeros(N)
            for t in reversed(range(T)):
                not_done = 1.0 - (next_done if t == T - 1 else done_buf[t + 1])
                nv = next_value if t == T - 1 else val_buf[t + 1]
                delta = rew_buf[t] + args.gamma * nv * not_done - val_buf[t]
                last = delta + args.gamma * args.gae_lambda * not_done * last
                adv[t] = last
            returns = adv + val_buf

        b_obs, b_mask, b_act = obs_buf.reshape(batch, -1), mask_buf.reshape(batch, -1), act_buf.reshape(-1)
        b_logp, b_adv, b_ret, b_val = logp_buf.reshape(-1), adv.reshape(-1), returns.reshape(-1), val_buf.reshape(-1)
        minibatch = batch // args.num_minibatches
        for _ in range(args.update_epochs):
            order = torch.randperm(batch)
            for start in range(0, batch, minibatch):
                idx = order[start : start + minibatch]
                _, logp, entropy, value = agent.act(b_obs[idx], b_mask[idx], b_act[idx])
                ratio = (logp - b_logp[idx]).exp()
                mb_adv = b_adv[idx]
                mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
                pg_loss = torch.max(-mb_adv * ratio, -mb_adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
                v_clipped = b_val[idx] + (value - b_val[idx]).clamp(-args.clip_coef, args.clip_coef)
                v_loss = 0.5 * torch.max((value - b_ret[idx]) ** 2, (v_clipped - b_ret[idx]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        recent = finished_returns[-50:]
        line = {
            "update": update,
            "steps": update * batch,
            "episodes": len(finished_returns),
            "mean_return_last_50": float(np.mean(recent)) if recent else None,
            "steps_per_s": round(update * batch / (time.time() - started), 1),
        }
        print(json.dumps(line), flush=True)
    envs.close()

    def trained(obs, mask):
        with torch.no_grad():
            m = torch.tensor(mask) if mask is not None else None
            return agent.act(torch.tensor(norm_obs(obs, update=False)), m)[0].numpy()

    rng = np.random.default_rng(args.seed)

    def uniform(obs, mask):
        n = len(obs)
        if mask is None:
            return rng.integers(0, n_actions, n)
        return np.array([rng.choice(np.flatnonzero(row)) for row in mask])

    ppo, rand = evaluate(args, trained, n_actions), evaluate(args, uniform, n_actions)
    result = {
        "game": args.game,
        "total_steps": updates * batch,
        "eval_seeds": [args.eval_seed, args.eval_seed + args.eval_episodes - 1],
        "ppo_mean": float(np.mean(ppo)),
        "ppo_std": float(np.std(ppo)),
        "random_mean": float(np.mean(rand)),
        "random_std": float(np.std(rand)),
        "ppo_returns": ppo,
        "random_returns": rand,
        "wall_s": round(time.time() - started, 1),
        "args": dataclasses.asdict(args),
    }
    print(json.dumps(result), flush=True)
    return result


if __name__ == "__main__":
    main(parse_args())
