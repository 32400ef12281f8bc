"""Builds a pure-Python wheel (PEP 427) of a generated package with the standard library only: no `wheel` or `build`
package is installed here and PyPI is out of reach. Its metadata (PEP 566: Requires-Python, Requires-Dist, Summary) is
the generated pyproject.toml's [project] table, so the wheel asks for what the generated code needs.
Usage: build_wheel.py <project dir> <package> <version> <dist dir>"""
import base64
import csv
import hashlib
import io
import pathlib
import re
import sys
import tomllib
import zipfile

project, package, version, dist = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3], pathlib.Path(sys.argv[4])
name = package.replace("_", "-")
info = f"{package}-{version}.dist-info"
generated = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def requirement(text: str) -> str:
    """PEP 508 from Poetry's `name (specifiers)` spelling: `urllib3 (>=2.7.0,<3.0.0)` is `urllib3>=2.7.0,<3.0.0`."""
    return re.sub(r"^\s*([A-Za-z0-9._-]+)\s*\((.*)\)\s*$", r"\1\2", text)


readme = (project / "README.md").read_text(encoding="utf-8")
metadata = "\n".join([
    "Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}",
    f"Summary: {generated['description']} client (OpenAPI Generator, python)", f"Requires-Python: {generated['requires-python']}",
    *[f"Requires-Dist: {requirement(r)}" for r in generated["dependencies"]], "Description-Content-Type: text/markdown", "", readme])
wheel = "Wheel-Version: 1.0\nGenerator: clients/package/build_wheel.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"

files = {str(path.relative_to(project)): path.read_bytes() for path in sorted((project / package).rglob("*.py"))}
files[f"{package}/py.typed"] = (project / package / "py.typed").read_bytes() if (project / package / "py.typed").exists() else b""
files[f"{info}/METADATA"] = metadata.encode()
files[f"{info}/WHEEL"] = wheel.encode()

def digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()

record = io.StringIO()
writer = csv.writer(record, lineterminator="\n")
for path, data in files.items():
    writer.writerow([path, digest(data), len(data)])
writer.writerow([f"{info}/RECORD", "", ""])
files[f"{info}/RECORD"] = record.getvalue().encode()

dist.mkdir(parents=True, exist_ok=True)
target = dist / f"{package}-{version}-py3-none-any.whl"
with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
    for path, data in files.items():
        archive.writestr(zipfile.ZipInfo(path, date_time=(2026, 1, 1, 0, 0, 0)), data)
print(f"clients: {target}")
