"""The optional extras the client uses when they are importable: numpy arrays and gymnasium spaces."""

import os

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
