"""Live tickets: episodes the leaderboard's server plays on seeds it never shows.

A live ticket (``POST /api/tickets`` with ``"mode": "live"``) has no seeds to give: the server opens
a session for each of its episodes and the agent plays them with ``reset()`` and ``step()``, the
gym API's calls, at the worker that hosts the ticket (``ticket["live"]["endpoint"]``), or through the
site's ``/api/live/<ticket>/...`` where that worker cannot be reached. ``reset()`` takes no seed and starts the ticket's
next episode; an episode is reset once and cannot be rewound. When the last episode ends (or
``close()`` is called) the server closes the ticket, shows its seeds, and submits the run itself:
``result`` is then the closed ticket with the submission's status.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from .client import ArcadeGymClient, _kinds_of, _plain_action
from .wire import _decode_info, _decode_observation

__all__ = ["LiveEnv"]


class LiveEnv:
    """A live ticket's episodes, one after another, in the Gymnasium calls' shape."""

    def __init__(
        self,
        server_url: str,
        token: str,
        agent: str,
        game: Optional[str] = None,
        suite: Optional[str] = None,
        seeds_per_game: Optional[int] = None,
        observation: Union[str, Sequence[str]] = ("state", "vector"),
        step_deadline_ms: Optional[int] = None,
        pixels: Optional[Dict[str, Any]] = None,
        claims: Optional[Dict[str, Any]] = None,
        client: Optional[ArcadeGymClient] = None,
    ):
        """`pixels`: {"width", "height", "grayscale"} of pixel observations (default 84 x 84 grayscale).
        `claims`: what the agent is, stored with the run as claimed: {"harness", "model", "codeVersion",
        "training": {"algorithm", "backend", "totalTimesteps", "checkpointSha256", "config"},
        "learningCurve": [{"step", "meanReturn", ...}]} (the run schema's fields); sent before the first episode."""
        if (game is None) == (suite is None):
            raise ValueError("give exactly one of game= or suite=")
        self.client = client or ArcadeGymClient(server_url, token)
        self._kinds = _kinds_of(observation)
        ask: Dict[str, Any] = {"mode": "live", "agent": agent, "observation": list(self._kinds)}
        ask["game" if game is not None else "suite"] = game if game is not None else suite
        if seeds_per_game is not None:
            ask["seedsPerGame"] = int(seeds_per_game)
        if step_deadline_ms is not None:
            ask["stepDeadlineMs"] = int(step_deadline_ms)
        if pixels is not None:
            ask["pixels"] = dict(pixels)
        self.ticket: Dict[str, Any] = self.client.request("POST", "/api/tickets", ask)[0]["ticket"]
        self._site_base = f"/api/live/{self.ticket['id']}"
        endpoint = self.ticket["live"].get("endpoint")
        # The worker playing the ticket, on a keep-alive connection of its own: one round trip a step.
        self._worker: Optional[ArcadeGymClient] = ArcadeGymClient(endpoint, self.client._token) if endpoint else None
        if claims is not None:
            self._call("claims", dict(claims))
        self.episodes: List[Dict[str, Any]] = self.ticket["live"]["episodes"]
        self.result: Optional[Dict[str, Any]] = None

    @property
    def done(self) -> bool:
        """True once the ticket is closed (every episode played, or close() called)."""
        return self.result is not None

    def _call(self, name: str, body: Dict[str, Any]) -> Tuple[Dict[str, Any], bytes]:
        if self._worker is not None:
            try:
                return self._worker.request("POST", f"/{name}", body)
            except ConnectionRefusedError:
                # Not reachable from here (the call never arrived): play through the site, which forwards.
                self._worker.close()
                self._worker = None
        return self.client.request("POST", f"{self._site_base}/{name}", body)

    def _shape(self, obs: Dict[str, Any]) -> Any:
        return obs[self._kinds[0]] if len(self._kinds) == 1 else obs

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[Any, Dict[str, Any]]:
        """Starts the ticket's next episode; info["episode"] says which ({position, game, of})."""
        if seed is not None:
            raise ValueError("a live episode's seed is the server's: reset() takes none")
        res, payload = self._call("reset", {})
        return self._shape(_decode_observation(res["observation"], payload)), _decode_info(res["info"])

    def step(self, action: Any) -> Tuple[Any, float, bool, bool, Dict[str, Any]]:
        res, payload = self._call("step", {"action": _plain_action(action)})
        info = _decode_info(res["info"])
        if "ticket" in info:
            self.result = info["ticket"]
        obs = self._shape(_decode_observation(res["observation"], payload))
        return obs, float(res["reward"]), bool(res["terminated"]), bool(res["truncated"]), info

    def close(self) -> Optional[Dict[str, Any]]:
        """Closes the ticket (an episode in play is stored truncated); returns the closed ticket."""
        if self.result is None:
            self.result = self._call("close", {})[0]["ticket"]
        if self._worker is not None:
            self._worker.close()
        self.client.close()
        return self.result
