"""Plays a live ticket through the Python client (run by live.test.ts): argv = site URL, token."""

import sys

from arcade_gym import ArcadeGymEnv, ArcadeGymError

url, token = sys.argv[1], sys.argv[2]
env = ArcadeGymEnv.live(
    url, token, agent="py-live", game="g2048", seeds_per_game=2, observation="state", claims={"harness": "py-live harness", "model": "none"}
)
assert env.ticket["mode"] == "live" and env.ticket["games"][0]["seeds"] == [], env.ticket
# A worker took the ticket: the client plays it at the worker's endpoint, not through the site.
assert env.ticket["live"].get("endpoint", "").startswith("http://127.0.0.1:"), env.ticket["live"]
assert env._worker is not None
try:
    env.reset(seed=3)
    raise AssertionError("a seeded reset was accepted")
except ValueError:
    pass
scores = []
for episode in range(2):
    obs, info = env.reset()
    assert "seed" not in info and info["episode"]["position"] == episode, info
    try:
        env.client.request("POST", f"/api/live/{env.ticket['id']}/reset", {})
        raise AssertionError("a second reset was accepted")
    except ArcadeGymError as e:
        assert e.code == "EPISODE_IN_PROGRESS", e.code
    step = 0
    while True:
        obs, reward, terminated, truncated, info = env.step(step % 4)
        step += 1
        if terminated or truncated:
            scores.append(info["score"])
            break
assert env.done, "the last step did not close the ticket"
assert env._worker is not None, "the client fell back to the site's routes"
submission = env.result["submission"]["submission"]
print(f"LIVE {submission['id']} {env.result['games'][0]['seeds']} {scores}")
env.close()
