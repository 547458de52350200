"""Arcade Gym HTTP client: standard library only.

    from arcade_gym import ArcadeGymEnv, ArcadeGymVectorEnv

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

import http.client
import json
import os
import random
import time
import urllib.parse
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from . import api_types as api
from ._extras import _gym, _np, _spaces
from .wire import BINARY_TYPE, Pixels, _decode_batch, _decode_info, _decode_observation, decode_frame

__all__ = ["ArcadeGymClient", "ArcadeGymEnv", "ArcadeGymError", "ArcadeGymVectorEnv", "Pixels", "decode_frame"]

DEFAULT_URL = "http://127.0.0.1:8787"


class ArcadeGymError(Exception):
    """An error answer from the server: `code` is stable (e.g. SESSION_NOT_FOUND, BUSY)."""

    def __init__(self, status: int, code: str, message: str, retry_after_ms: Optional[int] = None):
        super().__init__(f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.retry_after_ms = retry_after_ms


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

    def health(self) -> api.Health:
        return self.request("GET", "/health")[0]

    def games(self) -> List[api.Game]:
        return self.request("GET", "/v1/games")[0]["games"]

    def create_session(self, game: str, **options: Any) -> api.CreateSessionResponse:
        """Options as in the API (camelCase or snake_case): seed, observation, pixels, max_steps, ..."""
        body = {"game": game}
        for k, v in options.items():
            if v is not None:
                body[_camel(k)] = v
        return self.request("POST", "/v1/sessions", body)[0]

    def create_session_retrying(self, game: str, wait_s: float = 60.0, **options: Any) -> api.CreateSessionResponse:
        """create_session, waiting as the server asks while it is BUSY (up to wait_s)."""
        return _retrying_busy(lambda: self.create_session(game, **options), wait_s)

    def create_vector(self, game: str, num_envs: int, **options: Any) -> api.CreateVectorResponse:
        """A vector session: num_envs sub-envs of one game, stepped by one request (options as create_session's, plus autoreset and include)."""
        body: Dict[str, Any] = {"game": game, "numEnvs": num_envs}
        for k, v in options.items():
            if v is not None:
                body[_camel(k)] = v
        return self.request("POST", "/v1/vectors", body)[0]

    def vector_reset(
        self, vector_id: str, seed: Union[None, int, Sequence[Optional[int]]] = None, binary: bool = True
    ) -> Tuple[api.VectorResetResponse, bytes]:
        """Resets every sub-env; returns the raw answer and its payload (see ArcadeGymVectorEnv for the decoded form)."""
        body: Dict[str, Any] = {}
        if seed is not None:
            body["seed"] = int(seed) if isinstance(seed, int) else [None if x is None else int(x) for x in seed]
        return self.request("POST", f"/v1/vectors/{vector_id}/reset", body, binary)

    def vector_step(self, vector_id: str, actions: Sequence[Union[int, Dict[str, Any]]], binary: bool = True) -> Tuple[api.VectorStepResponse, bytes]:
        return self.request("POST", f"/v1/vectors/{vector_id}/step", {"actions": [a if isinstance(a, dict) else int(a) for a in actions]}, binary)

    def vector(self, vector_id: str) -> api.VectorStatus:
        return self.request("GET", f"/v1/vectors/{vector_id}")[0]

    def close_vector(self, vector_id: str) -> api.CloseVectorResponse:
        return self.request("DELETE", f"/v1/vectors/{vector_id}")[0]

    def session(self, session_id: str) -> api.SessionStatus:
        return self.request("GET", f"/v1/sessions/{session_id}")[0]

    def sessions(self) -> List[api.SessionStatus]:
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

    def close_session(self, session_id: str) -> api.CloseSessionResponse:
        return self.request("DELETE", f"/v1/sessions/{session_id}")[0]


def _retrying_busy(call: Any, wait_s: float) -> Any:
    """call(), waiting as the server asks while it answers BUSY (up to wait_s)."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            return call()
        except ArcadeGymError as e:
            if e.code != "BUSY" or time.monotonic() > deadline:
                raise
            time.sleep(min((e.retry_after_ms or 1000) / 1000, max(0.0, deadline - time.monotonic())))


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
    try:
        from gymnasium.vector import AutoresetMode as _AutoresetMode  # type: ignore
    except ImportError:  # pragma: no cover - gymnasium before 1.1 names the mode by string
        _AutoresetMode = None
else:
    _to_gym_space = None  # type: ignore[assignment]
    _batch_space = None
    _AutoresetMode = None
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

    @staticmethod
    def live(server_url: str, token: str, agent: str, **ticket: Any) -> Any:
        """A live ticket of the leaderboard at `server_url` (see `arcade_gym.live.LiveEnv`): the
        server plays its episodes on seeds it keeps, and submits the run under `agent` at the end.
        `ticket`: game= or suite=, seeds_per_game=, observation=, step_deadline_ms=."""
        from .live import LiveEnv

        return LiveEnv(server_url, token, agent, **ticket)

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
    """`num_envs` sub-envs of one game as a Gymnasium 1.0 vector env: one server vector session.

    Each reset and step is one round trip (`/v1/vectors/{id}/...`); the server steps the sub-envs
    together, several game instances to a browser page where the game allows. Autoreset is
    Gymnasium 1.0's, as `autoreset_mode` says:

    - "next-step" (default): the step that ends env i's episode returns its last observation with
      terminated/truncated; the next step ignores env i's action, resets it and returns the new
      episode's first observation with reward 0, terminated = truncated = False and
      infos["autoreset"][i] = True.
    - "same-step": env i resets within the step that ends its episode; that step returns the new
      first observation, with the last one in infos["final_obs"][i] and its info in
      infos["final_info"][i].

    `reset(seed=n)` seeds env i with n + i and reseeds its sequence, so later episodes follow a
    sequence of env i's own; a list gives each env its own seed (None: its sequence goes on). Made
    without `seed`, env i's sequence starts at a random base + i: no two sub-envs play in
    lockstep. Observations are batched per kind: "vector" (float32) and "pixels" (uint8) stacked
    on a leading axis (numpy arrays, or lists without numpy), "state" and "screenshot" as lists; a
    dict of those when several kinds are asked for. Infos are Gymnasium's dict of per-env values,
    each key with a boolean mask "_key". They carry step, score, virtual time, the action mask and
    faults; `include=("state", "record")` adds the verifier state and, on the step that ends an
    episode, its record (info["episode"]): each costs bytes on every step, so neither is sent
    unless asked for.
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
        include: Sequence[str] = (),
        max_episode_steps: Optional[int] = None,
        **options: Any,
    ):
        # gymnasium.make_vec passes the registered max_episode_steps: the server's step budget.
        max_steps = max_steps if max_steps is not None else max_episode_steps
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if autoreset_mode not in ("next-step", "same-step"):
            raise ValueError(f'autoreset_mode must be "next-step" or "same-step", got {autoreset_mode!r}')
        self.client = client or ArcadeGymClient(server_url, token)
        self.num_envs = num_envs
        self.autoreset_mode = autoreset_mode
        # Wrappers compare metadata["autoreset_mode"] with gymnasium's enum where it has one.
        mode: Any = autoreset_mode
        if _AutoresetMode is not None:
            mode = _AutoresetMode.NEXT_STEP if autoreset_mode == "next-step" else _AutoresetMode.SAME_STEP
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        self._kinds = _kinds_of(observation)
        # Blocks of raw floats and bytes: a binary frame unless JSON is asked for.
        self._binary = True if binary is None else binary
        self._closed = False
        # Sub-envs made with one seed would follow one sequence after their first episodes.
        base = seed if seed is not None else random.SystemRandom().getrandbits(32)
        created = _retrying_busy(
            lambda: self.client.create_vector(
                game,
                num_envs,
                seed=base % 2**32,
                observation=self._kinds,
                pixels=pixels,
                max_steps=max_steps,
                autoreset=autoreset_mode,
                include=list(include),
                **options,
            ),
            60.0,
        )
        self.vector_id: str = created["vector"]["id"]
        single = {"actionSpace": created["singleActionSpace"], "observationSpace": created["singleObservationSpace"]}
        self.spaces_json: Dict[str, Any] = {"action": single["actionSpace"], "observation": single["observationSpace"]}
        self.single_action_space, self.single_observation_space = _spaces_of(single, self._kinds)
        if _batch_space is not None:
            self.action_space = _batch_space(self.single_action_space, num_envs)
            self.observation_space = _batch_space(self.single_observation_space, num_envs)
        else:
            self.action_space = {"type": "MultiDiscrete", "nvec": [single["actionSpace"].get("n")] * num_envs}
            self.observation_space = {"type": "Tuple", "spaces": [self.single_observation_space] * num_envs}

    def reset(
        self, *, seed: Union[None, int, Sequence[Optional[int]]] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Any, Dict[str, Any]]:
        if seed is not None and not isinstance(seed, int):
            seed = list(seed)
            if len(seed) != self.num_envs:
                raise ValueError(f"reset(seed=...) got {len(seed)} seeds for {self.num_envs} envs")
        # The pages are leased at the first reset: wait while the server's pool is full.
        res, payload = _retrying_busy(lambda: self.client.vector_reset(self.vector_id, seed, self._binary), 60.0)
        return self._shape(_decode_batch(res["observations"], payload)), self._batch_infos([self._info(i, payload) for i in res["infos"]])

    def step(self, actions: Any) -> Tuple[Any, Any, Any, Any, Dict[str, Any]]:
        acts = [_plain_action(a) for a in actions]
        if len(acts) != self.num_envs:
            raise ValueError(f"step() got {len(acts)} actions for {self.num_envs} envs")
        res, payload = self.client.vector_step(self.vector_id, acts, self._binary)
        rewards: Any = [float(r) for r in res["rewards"]]
        terminations: Any = list(res["terminated"])
        truncations: Any = list(res["truncated"])
        if _np is not None:
            rewards, terminations, truncations = _np.asarray(rewards), _np.asarray(terminations), _np.asarray(truncations)
        observations = self._shape(_decode_batch(res["observations"], payload))
        return observations, rewards, terminations, truncations, self._batch_infos([self._info(i, payload) for i in res["infos"]])

    def _info(self, info: Dict[str, Any], payload: bytes) -> Dict[str, Any]:
        """One sub-env's info as Gymnasium names it: same-step finals as final_obs / final_info."""
        final_obs = info.pop("finalObservation", None)
        final_info = info.pop("finalInfo", None)
        if final_obs is not None:
            info["final_obs"] = self._shape(_decode_observation(final_obs, payload))
        if final_info is not None:
            info["final_info"] = _decode_info(final_info)
        return _decode_info(info)

    def _shape(self, obs: Dict[str, Any]) -> Any:
        return obs[self._kinds[0]] if len(self._kinds) == 1 else obs

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

    def status(self) -> Dict[str, Any]:
        return self.client.vector(self.vector_id)

    def close(self, **kwargs: Any) -> List[Optional[Dict[str, Any]]]:
        """Closes the vector session; returns, per env, the outcome of an episode it cut short (or None)."""
        if self._closed:
            return []
        self._closed = True
        outcomes: List[Optional[Dict[str, Any]]] = [None] * self.num_envs
        try:
            for o in self.client.close_vector(self.vector_id).get("outcomes", []):
                outcomes[o.pop("index")] = o
        except ArcadeGymError as e:
            if e.code not in ("SESSION_CLOSED", "SESSION_NOT_FOUND"):
                raise
        finally:
            self.client.close()
        return outcomes
