"""The HTTP API's binary frames and observations as Python values (numpy arrays when numpy is
importable, plain values otherwise): a frame is "AGYM", a 4-byte big-endian header length H, H bytes
of JSON whose byte fields point into the payload that follows."""

from __future__ import annotations

import array
import base64
import json
import struct
import sys
from typing import Any, Dict, Tuple

from ._extras import _np

FRAME_MAGIC = b"AGYM"
BINARY_TYPE = "application/octet-stream"


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


def _decode_batch(obs: Dict[str, Any], payload: bytes) -> Dict[str, Any]:
    """A vector session's observations: one block per kind, batched on a leading axis."""
    out: Dict[str, Any] = {}
    if "state" in obs:
        out["state"] = obs["state"]
    if "vector" in obs:
        v = obs["vector"]
        raw = _bytes_of(v, payload)
        n, d = v["shape"]
        if _np is not None:
            out["vector"] = _np.frombuffer(raw, dtype="<f4").reshape(n, d).astype(_np.float32)
        else:
            floats = array.array("f")
            floats.frombytes(raw)
            if sys.byteorder == "big":
                floats.byteswap()
            out["vector"] = [list(floats[i * d : (i + 1) * d]) for i in range(n)]
    if "pixels" in obs:
        p = obs["pixels"]
        raw = _bytes_of(p, payload)
        n, h, w, c = p["shape"]
        if _np is not None:
            out["pixels"] = _np.frombuffer(raw, dtype=_np.uint8).reshape(n, h, w, c).copy()
        else:
            frame = h * w * c
            out["pixels"] = [Pixels(w, h, c, raw[i * frame : (i + 1) * frame]) for i in range(n)]
    if "screenshot" in obs:
        out["screenshot"] = [_bytes_of(f, payload) for f in obs["screenshot"]]
    return out
