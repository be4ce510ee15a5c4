"""A PEP 517 build backend in the standard library alone, so `pip install sdk/python` needs
nothing from a package index (the machine may be offline): it packs `pig_ext/*.py` into a wheel.

The version is pyproject.toml's, or the `version` config setting (pig's release script builds
the wheel at the release's version: `--config-settings version=1.2.0`). The built package's
`__version__` and, in an sdist, pyproject.toml say the version built.
"""
from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import tarfile
import tomllib
import zipfile

NAME, DIST = "pig-ext", "pig_ext"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "pig_ext")
TAG = "py3-none-any"
# A public version as PEP 440 writes it in normal form (what a wheel's file name carries).
_VERSION = re.compile(r"^\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?$")
_VERSION_LINE = re.compile(r'^__version__ = "[^"]*"$', re.M)
_PYPROJECT_VERSION = re.compile(r'^version = "[^"]*"$', re.M)


def _read(rel: str) -> bytes:
    with open(os.path.join(ROOT, rel), "rb") as f:
        return f.read()


def _version(config_settings=None) -> str:
    given = (config_settings or {}).get("version")
    if given is not None:
        if not isinstance(given, str) or not _VERSION.match(given):
            raise ValueError(f"config setting version={given!r}: not a version in PEP 440's normal form (e.g. 1.2.0, 1.2.0rc1)")
        return given
    version = tomllib.loads(_read("pyproject.toml").decode())["project"]["version"]
    if not _VERSION.match(version):
        raise ValueError(f"{os.path.join(ROOT, 'pyproject.toml')}: project.version {version!r} is not in PEP 440's normal form")
    return version


def _metadata(version: str) -> str:
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {version}\n"
            "Summary: Write pig extensions in Python (pig-ext/1), standard library only\nRequires-Python: >=3.11\n"
            "Description-Content-Type: text/markdown\n\n") + _read("README.md").decode()


def _wheel_file() -> str:
    return f"Wheel-Version: 1.0\nGenerator: pig_ext_build\nRoot-Is-Purelib: true\nTag: {TAG}\n"


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _write_wheel(directory: str, files: dict[str, bytes], version: str) -> str:
    info = f"{DIST}-{version}.dist-info"
    files = {**files, f"{info}/METADATA": _metadata(version).encode(), f"{info}/WHEEL": _wheel_file().encode()}
    record = [_record_line(n, d) for n, d in files.items()] + [f"{info}/RECORD,,"]
    name = f"{DIST}-{version}-{TAG}.whl"
    with zipfile.ZipFile(os.path.join(directory, name), "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files.items():
            wheel.writestr(path, data)
        wheel.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    return name


def _with_version(pattern: re.Pattern, data: bytes, line: str, name: str) -> bytes:
    text, count = pattern.subn(line, data.decode())
    if count != 1:
        raise ValueError(f"{os.path.join(ROOT, name)}: expected one line matching {pattern.pattern}, found {count}")
    return text.encode()


def _sources(version: str) -> dict[str, bytes]:
    out = {}
    for entry in sorted(os.listdir(PACKAGE)):
        if entry.endswith(".py"):
            out[f"pig_ext/{entry}"] = _read(f"pig_ext/{entry}")
    out["pig_ext/__init__.py"] = _with_version(_VERSION_LINE, out["pig_ext/__init__.py"], f'__version__ = "{version}"', "pig_ext/__init__.py")
    return out


def get_requires_for_build_wheel(config_settings=None):
    return []


get_requires_for_build_sdist = get_requires_for_build_editable = get_requires_for_build_wheel


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    version = _version(config_settings)
    info = os.path.join(metadata_directory, f"{DIST}-{version}.dist-info")
    os.makedirs(info, exist_ok=True)
    for name, text in (("METADATA", _metadata(version)), ("WHEEL", _wheel_file())):
        with open(os.path.join(info, name), "w") as f:
            f.write(text)
    return os.path.basename(info)


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    version = _version(config_settings)
    return _write_wheel(wheel_directory, _sources(version), version)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    # A .pth file that puts this directory on sys.path: edits to the SDK take effect at once.
    return _write_wheel(wheel_directory, {f"{DIST}.pth": (ROOT + "\n").encode()}, _version(config_settings))


def build_sdist(sdist_directory, config_settings=None):
    version = _version(config_settings)
    base = f"{DIST}-{version}"
    name = f"{base}.tar.gz"
    files = {
        "pyproject.toml": _with_version(_PYPROJECT_VERSION, _read("pyproject.toml"), f'version = "{version}"', "pyproject.toml"),
        "README.md": _read("README.md"),
        "_build/pig_ext_build.py": _read("_build/pig_ext_build.py"),
        **_sources(version),
        "PKG-INFO": _metadata(version).encode(),
    }
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as sdist:
        for rel, data in files.items():
            info = tarfile.TarInfo(f"{base}/{rel}")
            info.size, info.mode = len(data), 0o644
            sdist.addfile(info, io.BytesIO(data))
    return name
