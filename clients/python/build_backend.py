"""A PEP 517 / PEP 660 build backend on the standard library alone.

Builds the wheel, the editable wheel and the sdist of this folder's one pure-Python package,
so `pip install ./clients/python` (and `pip install -e`) needs no package index: pip's build
isolation installs `[build-system] requires`, which is empty here.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import tarfile
import time
import zipfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    try:
        import tomli as tomllib  # type: ignore[no-redef]
    except ModuleNotFoundError as e:
        raise RuntimeError("building arcade-gym needs Python 3.11+ (tomllib) or the tomli package") from e

HERE = Path(__file__).resolve().parent
TAG = "py3-none-any"


def _project() -> Dict[str, Any]:
    with open(HERE / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


def _dist_name(name: str) -> str:
    return name.replace("-", "_")


def _metadata(pyproject: Dict[str, Any]) -> str:
    p = pyproject["project"]
    lines = ["Metadata-Version: 2.1", f"Name: {p['name']}", f"Version: {p['version']}", f"Summary: {p['description']}"]
    lines.append(f"Requires-Python: {p['requires-python']}")
    if "license" in p:
        lines.append(f"License: {p['license']['text']}")
    for req in p.get("dependencies", []):
        lines.append(f"Requires-Dist: {req}")
    for extra, reqs in p.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines.extend(f'Requires-Dist: {req} ; extra == "{extra}"' for req in reqs)
    readme = HERE / p["readme"]
    lines.append("Description-Content-Type: text/markdown")
    return "\n".join(lines) + "\n\n" + readme.read_text(encoding="utf-8")


def _entry_points(pyproject: Dict[str, Any]) -> str:
    out = []
    for group, entries in pyproject["project"].get("entry-points", {}).items():
        out.append(f"[{group}]")
        out.extend(f"{k} = {v}" for k, v in entries.items())
        out.append("")
    return "\n".join(out)


def _package_files(package: str) -> List[Tuple[str, bytes]]:
    root = HERE / package
    files = []
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            files.append((path.relative_to(HERE).as_posix(), path.read_bytes()))
    return files


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _write_wheel(wheel_directory: str, files: List[Tuple[str, bytes]]) -> str:
    pyproject = _project()
    name, version = _dist_name(pyproject["project"]["name"]), pyproject["project"]["version"]
    dist_info = f"{name}-{version}.dist-info"
    meta = [
        (f"{dist_info}/METADATA", _metadata(pyproject).encode()),
        (f"{dist_info}/WHEEL", f"Wheel-Version: 1.0\nGenerator: arcade-gym build_backend\nRoot-Is-Purelib: true\nTag: {TAG}\n".encode()),
        (f"{dist_info}/entry_points.txt", _entry_points(pyproject).encode()),
        (f"{dist_info}/top_level.txt", (pyproject["tool"]["arcade-gym"]["package"] + "\n").encode()),
    ]
    everything = files + meta
    record = "\n".join([_record_line(n, d) for n, d in everything] + [f"{dist_info}/RECORD,,", ""])
    filename = f"{name}-{version}-{TAG}.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w", zipfile.ZIP_DEFLATED) as z:
        for n, d in everything:
            z.writestr(zipfile.ZipInfo(n, date_time=(2020, 1, 1, 0, 0, 0)), d)
        z.writestr(zipfile.ZipInfo(f"{dist_info}/RECORD", date_time=(2020, 1, 1, 0, 0, 0)), record)
    return filename


def get_requires_for_build_wheel(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def get_requires_for_build_editable(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def build_wheel(wheel_directory: str, config_settings: Optional[Dict[str, Any]] = None, metadata_directory: Optional[str] = None) -> str:
    return _write_wheel(wheel_directory, _package_files(_project()["tool"]["arcade-gym"]["package"]))


def build_editable(wheel_directory: str, config_settings: Optional[Dict[str, Any]] = None, metadata_directory: Optional[str] = None) -> str:
    # A .pth file puts this folder on sys.path: edits to the package show without reinstalling.
    name = _dist_name(_project()["project"]["name"])
    return _write_wheel(wheel_directory, [(f"__editable__.{name}.pth", f"{HERE}\n".encode())])


def build_sdist(sdist_directory: str, config_settings: Optional[Dict[str, Any]] = None) -> str:
    pyproject = _project()
    name, version = _dist_name(pyproject["project"]["name"]), pyproject["project"]["version"]
    base = f"{name}-{version}"
    files = [("pyproject.toml", (HERE / "pyproject.toml").read_bytes()), ("build_backend.py", (HERE / "build_backend.py").read_bytes())]
    files.append(("README.md", (HERE / "README.md").read_bytes()))
    files += _package_files(pyproject["tool"]["arcade-gym"]["package"])
    files.append(("PKG-INFO", _metadata(pyproject).encode()))
    filename = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for n, d in files:
            info = tarfile.TarInfo(f"{base}/{n}")
            info.size, info.mtime, info.mode = len(d), int(time.time()), 0o644
            tar.addfile(info, io.BytesIO(d))
    return filename
