"""Arcade Gym HTTP client: standard library only.

    from arcade_gym_client import ArcadeGymEnv, ArcadeGymVectorEnv

    env = ArcadeGymEnv("snake", server_url="http://127.0.0.1:8787", observation=["state", "vector"])
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(0)
    env.close()

    envs = ArcadeGymVectorEnv("snake", num_envs=8, observation="vector")   # one round trip a step
    obs, infos = envs.reset(seed=1)                                         # env i: seed 1 + i
    obs, rewards, terminations, truncations, infos = envs.step([0] * 8)
    envs.close()

`ArcadeGymEnv` subclasses `gymnasium.Env` and `ArcadeGymVectorEnv` subclasses
`gymnasium.vector.VectorEnv` when gymnasium is importable (with gymnasium spaces); they are plain
classes with the same reset/step/close signatures otherwise. Pixel and
vector observations are numpy arrays when numpy is importable, plain Python values otherwise.

The server is started with `npx arcade-gym serve`; its API is described at /openapi.json.
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import random
import struct
import time
import urllib.parse
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

__all__ = ["ArcadeGymClient", "ArcadeGymEnv", "ArcadeGymError", "ArcadeGymVectorEnv", "Pixels", "decode_frame"]

# Optional extras; ARCADE_GYM_CLIENT_PLAIN=1 ignores them (tests use it to check the plain path).
_PLAIN = os.environ.get("ARCADE_GYM_CLIENT_PLAIN") == "1"
try:
    if _PLAIN:
        raise ImportError
    import numpy as _np  # type: ignore
except ImportError:  # pragma: no cover - depends on the environment
    _np = None
try:
    if _PLAIN:
        raise ImportError
    import gymnasium as _gym  # type: ignore
    from gymnasium import spaces as _spaces  # type: ignore
except ImportError:  # pragma: no cover - depends on the environment
    _gym = None
    _spaces = None

DEFAULT_URL = "http://127.0.0.1:8787"
FRAME_MAGIC = b"AGYM"
BINARY_TYPE = "application/octet-stream"


class ArcadeGymError(Exception):
    """An error answer from the server: `code` is stable (e.g. SESSION_NOT_FOUND, BUSY)."""

    def __init__(self, status: int, code: str, message: str, retry_after_ms: Optional[int] = None):
        super().__init__(f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.retry_after_ms = retry_after_ms


def _decode_info(info: Dict[str, Any]) -> Dict[str, Any]:
    """The server's info, with Gymnasium's `action_mask` (int8 per action, 1 = may change the game)
    beside `actionMask` for games whose verifier gives one: a numpy array, or a list without numpy."""
    mask = info.get("actionMask")
    if mask is not None:
        info["action_mask"] = _np.asarray(mask, dtype=_np.int8) if _np is not None else list(mask)
    return info


class Pixels:
    """Pixel observation without numpy: height x width x channels bytes, row-major."""

    __slots__ = ("width", "height", "channels", "data")

    def __init__(self, width: int, height: int, channels: int, data: bytes):
        self.width, self.height, self.channels, self.data = width, height, channels, data

    @property
    def shape(self) -> Tuple[int, int, int]:
        return (self.height, self.width, self.channels)

    def __getitem__(self, yxc: Tuple[int, int, int]) -> int:
        y, x, c = yxc
        return self.data[(y * self.width + x) * self.channels + c]

    def __repr__(self) -> str:
        return f"Pixels(shape={self.shape})"


def decode_frame(body: bytes) -> Tuple[Dict[str, Any], bytes]:
    """Splits a binary response into its JSON header and payload (see the README)."""
    if body[:4] != FRAME_MAGIC:
        raise ValueError("not an arcade-gym frame")
    (n,) = struct.unpack(">I", body[4:8])
    return json.loads(body[8 : 8 + n].decode("utf-8")), body[8 + n :]


def _bytes_of(field: Dict[str, Any], payload: bytes) -> bytes:
    if field.get("encoding") == "binary":
        return payload[field["offset"] : field["offset"] + field["length"]]
    return base64.b64decode(field["data"])


def _decode_observation(obs: Dict[str, Any], payload: bytes = b"") -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    if "state" in obs:
        out["state"] = obs["state"]
    if "vector" in obs:
        out["vector"] = _np.asarray(obs["vector"], dtype=_np.float32) if _np is not None else list(obs["vector"])
    if "pixels" in obs:
        p = obs["pixels"]
        raw = _bytes_of(p, payload)
        if _np is not None:
            out["pixels"] = _np.frombuffer(raw, dtype=_np.uint8).reshape(p["height"], p["width"], p["channels"])
        else:
            out["pixels"] = Pixels(p["width"], p["height"], p["channels"], raw)
    if "screenshot" in obs:
        out["screenshot"] = _bytes_of(obs["screenshot"], payload)
    return out


class ArcadeGymClient:
    """Thin wrapper over the HTTP API, one keep-alive connection per client."""

    def __init__(self, server_url: Optional[str] = None, token: Optional[str] = None, timeout: float = 120.0):
        server_url = server_url or os.environ.get("ARCADE_GYM_URL") or DEFAULT_URL
        url = urllib.parse.urlsplit(server_url)
        if url.scheme not in ("http", "https"):
            raise ValueError(f"server_url must be http(s)://host:port, got {server_url!r}")
        self._scheme = url.scheme
        self._host = url.hostname or "127.0.0.1"
        self._port = url.port or (443 if url.scheme == "https" else 80)
        self._prefix = url.path.rstrip("/")
        self._token = token if token is not None else os.environ.get("ARCADE_GYM_TOKEN")
        self._timeout = timeout
        self._conn: Optional[http.client.HTTPConnection] = None

    def _connection(self) -> http.client.HTTPConnection:
        if self._conn is None:
            cls = http.client.HTTPSConnection if self._scheme == "https" else http.client.HTTPConnection
            self._conn = cls(self._host, self._port, timeout=self._timeout)
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def request(self, method: str, path: str, body: Any = None, binary: bool = False) -> Tuple[Dict[str, Any], bytes]:
        """Sends one request; returns (json, payload). Raises ArcadeGymError on an error answer."""
        headers = {"Accept": BINARY_TYPE if binary else "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if self._token:
            headers["Authorization"] = f"Bearer {self._token}"
        for attempt in (1, 2):
            conn = self._connection()
            try:
                conn.request(method, self._prefix + path, body=data, headers=headers)
                res = conn.getresponse()
                raw = res.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # A keep-alive connection the server closed meanwhile: reconnect once.
                self.close()
                if attempt == 2:
                    raise
        if res.status >= 400:
            try:
                err = json.loads(raw.decode("utf-8"))["error"]
                raise ArcadeGymError(res.status, err["code"], err["message"], err.get("retryAfterMs"))
            except (ValueError, KeyError, TypeError):
                raise ArcadeGymError(res.status, "HTTP_ERROR", raw[:200].decode("utf-8", "replace")) from None
        if res.getheader("Content-Type", "").startswith(BINARY_TYPE):
            return decode_frame(raw)
        return json.loads(raw.decode("utf-8")), b""

    # ---- endpoints ----

    def health(self) -> Dict[str, Any]:
        return self.request("GET", "/health")[0]

    def games(self) -> List[Dict[str, Any]]:
        return self.request("GET", "/v1/games")[0]["games"]

    def create_session(self, game: str, **options: Any) -> Dict[str, Any]:
        """Options as in the API (camelCase or snake_case): seed, observation, pixels, max_steps, ..."""
        body = {"game": game}
        for k, v in options.items():
            if v is not None:
                body[_camel(k)] = v
        return self.request("POST", "/v1/sessions", body)[0]

    def create_session_retrying(self, game: str, wait_s: float = 60.0, **options: Any) -> Dict[str, Any]:
        """create_session, waiting as the server asks while it is BUSY (up to wait_s)."""
        deadline = time.monotonic() + wait_s
        while True:
            try:
                return self.create_session(game, **options)
            except ArcadeGymError as e:
                if e.code != "BUSY" or time.monotonic() > deadline:
                    raise
                time.sleep(min((e.retry_after_ms or 1000) / 1000, max(0.0, deadline - time.monotonic())))

    def session(self, session_id: str) -> Dict[str, Any]:
        return self.request("GET", f"/v1/sessions/{session_id}")[0]

    def sessions(self) -> List[Dict[str, Any]]:
        return self.request("GET", "/v1/sessions")[0]["sessions"]

    def reset(self, session_id: str, seed: Optional[int] = None, binary: bool = False) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        body = {} if seed is None else {"seed": int(seed)}
        res, payload = self.request("POST", f"/v1/sessions/{session_id}/reset", body, binary)
        return _decode_observation(res["observation"], payload), _decode_info(res["info"])

    def step(self, session_id: str, action: Union[int, Dict[str, Any]], binary: bool = False) -> Tuple[Dict[str, Any], float, bool, bool, Dict[str, Any]]:
        if not isinstance(action, dict):
            action = int(action)
        res, payload = self.request("POST", f"/v1/sessions/{session_id}/step", {"action": action}, binary)
        return _decode_observation(res["observation"], payload), res["reward"], res["terminated"], res["truncated"], _decode_info(res["info"])

    def step_many(
        self, steps: Sequence[Tuple[str, Union[int, Dict[str, Any]]]], binary: bool = False
    ) -> List[Union[Tuple[Dict[str, Any], float, bool, bool, Dict[str, Any]], ArcadeGymError]]:
        """One step in each of several sessions, in one round trip (the server steps them at once).

        `steps` is a list of (session_id, action). An unknown session or an invalid action raises
        before any step runs; otherwise each item is a step tuple, as step() returns, or the
        ArcadeGymError of that step alone (the other steps still ran).
        """
        body = {"steps": [{"session": sid, "action": a if isinstance(a, dict) else int(a)} for sid, a in steps]}
        res, payload = self.request("POST", "/v1/steps", body, binary)
        out: List[Union[Tuple[Dict[str, Any], float, bool, bool, Dict[str, Any]], ArcadeGymError]] = []
        for r in res["results"]:
            if "error" in r:
                e = r["error"]
                out.append(ArcadeGymError(r["status"], e["code"], e["message"], e.get("retryAfterMs")))
            else:
                out.append((_decode_observation(r["observation"], payload), r["reward"], r["terminated"], r["truncated"], _decode_info(r["info"])))
        return out

    def close_session(self, session_id: str) -> Dict[str, Any]:
        return self.request("DELETE", f"/v1/sessions/{session_id}")[0]


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def _bound(v: Any) -> float:
    """Box bounds: numbers, or "inf" / "-inf" (JSON has no infinities)."""
    return float(v)


if _gym is not None:

    class _JsonSpace(_spaces.Space):  # type: ignore[misc]
        """The verifier state: a JSON object, not a tensor."""

        def __init__(self) -> None:
            super().__init__(shape=None, dtype=None)

        def contains(self, x: Any) -> bool:
            return isinstance(x, dict)

        def sample(self, mask: Any = None, probability: Any = None) -> Any:
            return {}

    def _to_gym_space(space: Dict[str, Any]) -> Any:
        t = space["type"]
        if t == "Discrete":
            return _spaces.Discrete(space["n"])
        if t == "Box":
            dtype = _np.float32 if space["dtype"] == "float32" else _np.uint8
            return _spaces.Box(low=_bound(space["low"]), high=_bound(space["high"]), shape=tuple(space["shape"]), dtype=dtype)
        if t == "Dict":
            return _spaces.Dict({k: _to_gym_space(v) for k, v in space["spaces"].items()})
        return _JsonSpace()

    _EnvBase: Any = _gym.Env
    try:
        from gymnasium.vector import VectorEnv as _GymVectorEnv  # type: ignore
        from gymnasium.vector.utils import batch_space as _batch_space  # type: ignore

        _VectorEnvBase: Any = _GymVectorEnv
    except ImportError:  # pragma: no cover - a gymnasium without the vector API
        _batch_space = None
        _VectorEnvBase = object
else:
    _to_gym_space = None  # type: ignore[assignment]
    _batch_space = None
    _EnvBase = object
    _VectorEnvBase = object


def _kinds_of(observation: Union[str, Sequence[str]]) -> List[str]:
    return [observation] if isinstance(observation, str) else list(observation)


def _wants_binary(binary: Optional[bool], kinds: Sequence[str]) -> bool:
    # Raw bytes travel better than base64: on by default when pixels or screenshots are asked for.
    return binary if binary is not None else any(k in ("pixels", "screenshot") for k in kinds)


def _spaces_of(created: Dict[str, Any], kinds: Sequence[str]) -> Tuple[Any, Any]:
    """(action space, observation space) of a created session: gymnasium spaces when importable, JSON otherwise."""
    if _to_gym_space is not None:
        obs_space = _to_gym_space(created["observationSpace"])
        return _to_gym_space(created["actionSpace"]), obs_space[kinds[0]] if len(kinds) == 1 else obs_space
    obs = created["observationSpace"]
    return created["actionSpace"], obs["spaces"][kinds[0]] if len(kinds) == 1 else obs


def _plain_action(action: Any) -> Union[int, Dict[str, Any]]:
    return action if isinstance(action, dict) else int(action)


class ArcadeGymEnv(_EnvBase):  # type: ignore[misc, valid-type]
    """One server session as a Gymnasium-shaped env.

    The observation is a dict keyed by kind ("state", "vector", "pixels", "screenshot") when
    several kinds are asked for, and the bare value when only one is.
    """

    metadata: Dict[str, Any] = {"render_modes": []}

    def __init__(
        self,
        game: str,
        server_url: Optional[str] = None,
        token: Optional[str] = None,
        seed: Optional[int] = None,
        observation: Union[str, Sequence[str]] = ("state", "vector"),
        pixels: Optional[Dict[str, Any]] = None,
        max_steps: Optional[int] = None,
        binary: Optional[bool] = None,
        client: Optional[ArcadeGymClient] = None,
        **options: Any,
    ):
        self.client = client or ArcadeGymClient(server_url, token)
        kinds = _kinds_of(observation)
        self._kinds = kinds
        self._binary = _wants_binary(binary, kinds)
        created = self.client.create_session_retrying(game, seed=seed, observation=kinds, pixels=pixels, max_steps=max_steps, **options)
        self.session_id: str = created["session"]["id"]
        self.spaces_json: Dict[str, Any] = {"action": created["actionSpace"], "observation": created["observationSpace"]}
        self._closed = False
        self.action_space, self.observation_space = _spaces_of(created, kinds)

    def _shape(self, obs: Dict[str, Any]) -> Any:
        return obs[self._kinds[0]] if len(self._kinds) == 1 else obs

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[Any, Dict[str, Any]]:
        if _gym is not None:
            super().reset(seed=seed)  # seeds self.np_random, as gymnasium.Env.reset does
        obs, info = self.client.reset(self.session_id, seed=seed, binary=self._binary)
        return self._shape(obs), info

    def step(self, action: Any) -> Tuple[Any, float, bool, bool, Dict[str, Any]]:
        action = _plain_action(action)
        obs, reward, terminated, truncated, info = self.client.step(self.session_id, action, binary=self._binary)
        return self._shape(obs), float(reward), bool(terminated), bool(truncated), info

    def status(self) -> Dict[str, Any]:
        return self.client.session(self.session_id)

    def close(self) -> Optional[Dict[str, Any]]:
        """Closes the session; returns the record of an episode it cut short, if any."""
        if self._closed:
            return None
        self._closed = True
        try:
            return self.client.close_session(self.session_id).get("outcome")
        except ArcadeGymError as e:
            if e.code in ("SESSION_CLOSED", "SESSION_NOT_FOUND"):
                return None
            raise
        finally:
            self.client.close()


class ArcadeGymVectorEnv(_VectorEnvBase):  # type: ignore[misc, valid-type]
    """`num_envs` server sessions of one game as a Gymnasium 1.0 vector env.

    Each step is one round trip (`POST /v1/steps`) for every sub-env that steps. Autoreset is
    Gymnasium 1.0's, as `autoreset_mode` says:

    - "next-step" (default): the step that ends env i's episode returns its last observation with
      terminated/truncated; the next step ignores env i's action, resets it and returns the new
      episode's first observation with reward 0, terminated = truncated = False and
      infos["autoreset"][i] = True.
    - "same-step": env i resets within the step that ends its episode; that step returns the new
      first observation, with the last one in infos["final_obs"][i] and its info in
      infos["final_info"][i].

    `reset(seed=n)` seeds env i with n + i and reseeds its sequence, so later episodes follow a
    sequence of env i's own; a list gives each env its own seed. Made without `seed`, env i's
    sequence starts at a random base + i: no two sub-envs play in lockstep. Observations are
    batched per kind: "vector" and "pixels" stacked on a leading axis (numpy arrays, or lists
    without numpy), "state" and "screenshot" as lists; a dict of those when several kinds are
    asked for. Infos are Gymnasium's dict of per-env values, each key with a boolean mask "_key".
    """

    metadata: Dict[str, Any] = {"render_modes": [], "autoreset_mode": "next-step"}

    def __init__(
        self,
        game: str,
        num_envs: int,
        server_url: Optional[str] = None,
        token: Optional[str] = None,
        observation: Union[str, Sequence[str]] = ("state", "vector"),
        pixels: Optional[Dict[str, Any]] = None,
        max_steps: Optional[int] = None,
        binary: Optional[bool] = None,
        autoreset_mode: str = "next-step",
        client: Optional[ArcadeGymClient] = None,
        seed: Optional[int] = None,
        **options: Any,
    ):
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if autoreset_mode not in ("next-step", "same-step"):
            raise ValueError(f'autoreset_mode must be "next-step" or "same-step", got {autoreset_mode!r}')
        self.client = client or ArcadeGymClient(server_url, token)
        self.num_envs = num_envs
        self.autoreset_mode = autoreset_mode
        self.metadata = {**self.metadata, "autoreset_mode": autoreset_mode}
        self._kinds = _kinds_of(observation)
        self._binary = _wants_binary(binary, self._kinds)
        self.session_ids: List[str] = []
        self._closed = False
        # Sessions made with one seed would follow one sequence after their first episodes.
        base = seed if seed is not None else random.SystemRandom().getrandbits(32)
        try:
            for i in range(num_envs):
                created = self.client.create_session_retrying(
                    game, seed=(base + i) % 2**32, observation=self._kinds, pixels=pixels, max_steps=max_steps, **options
                )
                self.session_ids.append(created["session"]["id"])
        except BaseException:
            self.close()
            raise
        self.spaces_json: Dict[str, Any] = {"action": created["actionSpace"], "observation": created["observationSpace"]}
        self.single_action_space, self.single_observation_space = _spaces_of(created, self._kinds)
        if _batch_space is not None:
            self.action_space = _batch_space(self.single_action_space, num_envs)
            self.observation_space = _batch_space(self.single_observation_space, num_envs)
        else:
            self.action_space = {"type": "MultiDiscrete", "nvec": [created["actionSpace"].get("n")] * num_envs}
            self.observation_space = {"type": "Tuple", "spaces": [self.single_observation_space] * num_envs}
        self._needs_reset = [False] * num_envs

    def _seeds(self, seed: Union[None, int, Sequence[Optional[int]]]) -> List[Optional[int]]:
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, int):
            return [seed + i for i in range(self.num_envs)]
        seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"reset(seed=...) got {len(seeds)} seeds for {self.num_envs} envs")
        return seeds

    def reset(
        self, *, seed: Union[None, int, Sequence[Optional[int]]] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Any, Dict[str, Any]]:
        seeds = self._seeds(seed)
        results = [self.client.reset(sid, seed=s, binary=self._binary) for sid, s in zip(self.session_ids, seeds)]
        self._needs_reset = [False] * self.num_envs
        return self._batch_observations([o for o, _ in results]), self._batch_infos([i for _, i in results])

    def step(self, actions: Any) -> Tuple[Any, Any, Any, Any, Dict[str, Any]]:
        acts = [_plain_action(a) for a in actions]
        if len(acts) != self.num_envs:
            raise ValueError(f"step() got {len(acts)} actions for {self.num_envs} envs")
        results: List[Any] = [None] * self.num_envs
        stepping = [i for i in range(self.num_envs) if not self._needs_reset[i]]
        if stepping:
            answers = self.client.step_many([(self.session_ids[i], acts[i]) for i in stepping], binary=self._binary)
            for i, answer in zip(stepping, answers):
                if isinstance(answer, ArcadeGymError):
                    raise answer
                results[i] = answer
        for i in range(self.num_envs):
            if self._needs_reset[i]:
                obs, info = self.client.reset(self.session_ids[i], binary=self._binary)
                results[i] = (obs, 0.0, False, False, {**info, "autoreset": True})
            elif self.autoreset_mode == "same-step" and (results[i][2] or results[i][3]):
                final_obs, reward, terminated, truncated, final_info = results[i]
                obs, info = self.client.reset(self.session_ids[i], binary=self._binary)
                results[i] = (obs, reward, terminated, truncated, {**info, "final_obs": self._shape(final_obs), "final_info": final_info})
        self._needs_reset = [self.autoreset_mode == "next-step" and bool(r[2] or r[3]) for r in results]
        rewards = [float(r[1]) for r in results]
        terminations = [bool(r[2]) for r in results]
        truncations = [bool(r[3]) for r in results]
        if _np is not None:
            rewards, terminations, truncations = _np.asarray(rewards), _np.asarray(terminations), _np.asarray(truncations)
        return self._batch_observations([r[0] for r in results]), rewards, terminations, truncations, self._batch_infos([r[4] for r in results])

    def _shape(self, obs: Dict[str, Any]) -> Any:
        return obs[self._kinds[0]] if len(self._kinds) == 1 else obs

    def _batch_observations(self, observations: List[Dict[str, Any]]) -> Any:
        batched: Dict[str, Any] = {}
        for kind in self._kinds:
            values = [o[kind] for o in observations]
            batched[kind] = _np.stack(values) if _np is not None and kind in ("vector", "pixels") else values
        return batched[self._kinds[0]] if len(self._kinds) == 1 else batched

    def _batch_infos(self, infos: List[Dict[str, Any]]) -> Dict[str, Any]:
        keys: List[str] = []
        for info in infos:
            keys.extend(k for k in info if k not in keys)
        out: Dict[str, Any] = {}
        for key in keys:
            present = [key in info for info in infos]
            values = [info.get(key) for info in infos]
            if _np is not None:
                if key == "action_mask" and all(present):
                    # One row per env, as MaskablePPO-style learners index it.
                    out[key] = _np.stack(values)
                elif all(isinstance(v, (bool, int, float)) for v, p in zip(values, present) if p):
                    out[key] = _np.asarray([v if p else 0 for v, p in zip(values, present)])
                else:
                    # Filled one by one: handing numpy a list of lists would make it a 2-D array.
                    out[key] = _np.empty(len(values), dtype=object)
                    for i, v in enumerate(values):
                        out[key][i] = v
                out["_" + key] = _np.asarray(present)
            else:
                out[key], out["_" + key] = values, present
        return out

    def close(self, **kwargs: Any) -> List[Optional[Dict[str, Any]]]:
        """Closes every session; returns, per env, the record of an episode it cut short (or None)."""
        if self._closed:
            return []
        self._closed = True
        outcomes: List[Optional[Dict[str, Any]]] = []
        try:
            for sid in self.session_ids:
                try:
                    outcomes.append(self.client.close_session(sid).get("outcome"))
                except ArcadeGymError as e:
                    if e.code not in ("SESSION_CLOSED", "SESSION_NOT_FOUND"):
                        raise
                    outcomes.append(None)
        finally:
            self.client.close()
        return outcomes
