"""Builds a pure-Python wheel (PEP 427) of a generated package with the standard library only: no `wheel` or `build`
package is installed here and PyPI is out of reach. Usage: build_wheel.py <project dir> <package> <version> <dist dir>"""
import base64
import csv
import hashlib
import io
import pathlib
import sys
import zipfile

project, package, version, dist = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3], pathlib.Path(sys.argv[4])
name = package.replace("_", "-")
info = f"{package}-{version}.dist-info"
# What the generated pyproject.toml asks for (OpenAPI Generator 7.25, python generator).
requires = ["urllib3 (>=2.1.0,<3.0.0)", "python-dateutil (>=2.8.2)", "pydantic (>=2)", "typing-extensions (>=4.7.1)"]
readme = (project / "README.md").read_text(encoding="utf-8")
metadata = "\n".join([
    "Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}",
    "Summary: Client of the sighting registry (OpenAPI Generator, python)", "Requires-Python: >=3.9",
    *[f"Requires-Dist: {r}" for r in requires], "Description-Content-Type: text/markdown", "", readme])
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
