"""A PEP 517 build backend in the standard library alone, so `pip install sdk/python` needs
nothing from a package index (the machine may be offline): it packs `pig_ext/*.py` into a wheel.
"""
from __future__ import annotations

import base64
import hashlib
import os
import tarfile
import zipfile

NAME, DIST, VERSION = "pig-ext", "pig_ext", "0.1.0"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "pig_ext")
TAG = "py3-none-any"


def _metadata() -> str:
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {VERSION}\n"
            "Summary: Write pig extensions in Python (pig-ext/1), standard library only\nRequires-Python: >=3.11\n")


def _wheel_file() -> str:
    return f"Wheel-Version: 1.0\nGenerator: pig_ext_build\nRoot-Is-Purelib: true\nTag: {TAG}\n"


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _write_wheel(directory: str, files: dict[str, bytes]) -> str:
    info = f"{DIST}-{VERSION}.dist-info"
    files = {**files, f"{info}/METADATA": _metadata().encode(), f"{info}/WHEEL": _wheel_file().encode()}
    record = [_record_line(n, d) for n, d in files.items()] + [f"{info}/RECORD,,"]
    name = f"{DIST}-{VERSION}-{TAG}.whl"
    with zipfile.ZipFile(os.path.join(directory, name), "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files.items():
            wheel.writestr(path, data)
        wheel.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    return name


def _sources() -> dict[str, bytes]:
    out = {}
    for entry in sorted(os.listdir(PACKAGE)):
        if entry.endswith(".py"):
            with open(os.path.join(PACKAGE, entry), "rb") as f:
                out[f"pig_ext/{entry}"] = f.read()
    return out


def get_requires_for_build_wheel(config_settings=None):
    return []


get_requires_for_build_sdist = get_requires_for_build_editable = get_requires_for_build_wheel


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = os.path.join(metadata_directory, f"{DIST}-{VERSION}.dist-info")
    os.makedirs(info, exist_ok=True)
    for name, text in (("METADATA", _metadata()), ("WHEEL", _wheel_file())):
        with open(os.path.join(info, name), "w") as f:
            f.write(text)
    return os.path.basename(info)


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, _sources())


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    # A .pth file that puts this directory on sys.path: edits to the SDK take effect at once.
    return _write_wheel(wheel_directory, {f"{DIST}.pth": (ROOT + "\n").encode()})


def build_sdist(sdist_directory, config_settings=None):
    base = f"{DIST}-{VERSION}"
    name = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as sdist:
        for rel in ["pyproject.toml", "README.md", "_build/pig_ext_build.py"] + [f"pig_ext/{n}" for n in sorted(os.listdir(PACKAGE)) if n.endswith(".py")]:
            sdist.add(os.path.join(ROOT, rel), f"{base}/{rel}")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata().encode()
        info.size = len(data)
        import io
        sdist.addfile(info, io.BytesIO(data))
    return name
