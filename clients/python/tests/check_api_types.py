"""Checks real server answers against the package's API types (arcade_gym/api_types.py).

Usage: check_api_types.py URL. Calls every ArcadeGymClient method that returns a body as the
server sent it, in both encodings where there are two, and checks each answer against the
TypedDict the method's return annotation names: required keys present, no keys the type does not
name (except in OPEN_TYPES), every value of its declared type, recursively. Prints one JSON
object: the methods checked and the problems found.
"""

import json
import sys
import typing

from arcade_gym import ArcadeGymClient, api_types

problems = []
checked = []


def conforms(value, hint, where):
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is typing.Any:
        return True
    if hint is type(None):
        return value is None
    if origin is typing.Union:
        return any(conforms_quiet(value, a) for a in args) or fail(where, f"{short(value)} matches none of {hint}")
    if origin is typing.Literal:
        return value in args or fail(where, f"{value!r} is not one of {args}")
    if origin in (list, typing.List):
        if not isinstance(value, list):
            return fail(where, f"expected a list, got {short(value)}")
        return all([conforms(v, args[0], f"{where}[{i}]") for i, v in enumerate(value)])
    if origin in (tuple, typing.Tuple):
        if not isinstance(value, list) or len(value) != len(args):
            return fail(where, f"expected {len(args)} items, got {short(value)}")
        return all([conforms(v, a, f"{where}[{i}]") for i, (v, a) in enumerate(zip(value, args))])
    if origin in (dict, typing.Dict):
        if not isinstance(value, dict):
            return fail(where, f"expected an object, got {short(value)}")
        return all([conforms(v, args[1], f"{where}.{k}") for k, v in value.items()])
    if isinstance(hint, type) and hasattr(hint, "__required_keys__"):
        if not isinstance(value, dict):
            return fail(where, f"expected {hint.__name__}, got {short(value)}")
        hints = typing.get_type_hints(hint)
        ok = True
        for k in hint.__required_keys__:
            if k not in value:
                ok = fail(where, f"{hint.__name__} requires {k!r}")
        for k, v in value.items():
            if k not in hints:
                if hint.__name__ not in api_types.OPEN_TYPES:
                    ok = fail(where, f"{k!r} is not a key of {hint.__name__}")
                continue
            ok = conforms(v, hints[k], f"{where}.{k}") and ok
        return ok
    if hint is float:
        return (isinstance(value, (int, float)) and not isinstance(value, bool)) or fail(where, f"expected a number, got {short(value)}")
    if hint is int:
        return (isinstance(value, int) and not isinstance(value, bool)) or fail(where, f"expected an integer, got {short(value)}")
    if hint in (str, bool):
        return isinstance(value, hint) or fail(where, f"expected {hint.__name__}, got {short(value)}")
    return fail(where, f"no check for {hint}")


def conforms_quiet(value, hint):
    before = len(problems)
    ok = conforms(value, hint, "")
    del problems[before:]
    return ok


def fail(where, what):
    problems.append(f"{where}: {what}")
    return False


def short(v):
    return json.dumps(v)[:80] if not isinstance(v, bytes) else f"<{len(v)} bytes>"


def check(method, value):
    hint = typing.get_type_hints(getattr(ArcadeGymClient, method))["return"]
    if typing.get_origin(hint) in (tuple, typing.Tuple):
        hint, value = typing.get_args(hint)[0], value[0]
    conforms(value, hint, method)
    checked.append(method)


client = ArcadeGymClient(sys.argv[1])
check("health", client.health())
check("games", client.games())
created = client.create_session("snake", seed=3, observation=["state", "vector", "pixels"], max_steps=3)
check("create_session", created)
sid = created["session"]["id"]
client.reset(sid)
check("session", client.session(sid))
check("sessions", client.sessions())
client.step(sid, 1)
check("close_session", client.close_session(sid))
vec = client.create_vector("snake", 2, seed=5, observation=["state", "vector", "pixels"], max_steps=2, include=["state", "record"], autoreset="same-step")
check("create_vector", vec)
vid = vec["vector"]["id"]
for binary in (True, False):
    check("vector_reset", client.vector_reset(vid, seed=5, binary=binary))
    for _ in range(2):
        # The second step ends both episodes: same-step finals, records and outcomes.
        check("vector_step", client.vector_step(vid, [0, 1], binary=binary))
check("vector", client.vector(vid))
check("close_vector", client.close_vector(vid))
# Controls: the check must fail an answer that lacks a required key or has one its type lacks.
before = len(problems)
health = client.health()
controls = [
    conforms({k: v for k, v in health.items() if k != "ok"}, api_types.Health, "control"),
    conforms({**health, "surprise": 1}, api_types.Health, "control"),
    conforms({**health, "ok": "yes"}, api_types.Health, "control"),
]
del problems[before:]
print(json.dumps({"checked": checked, "problems": problems, "controls_passed": controls}))
