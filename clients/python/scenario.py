"""The client scenario with the Python SDK package (sighting_client wheel): every step against the running service.
Usage (clients/consume.sh python installs the wheel and runs it): python scenario.py <api base URL> <token endpoint URL>"""
import json
import sys
import urllib.parse
import urllib.request
import uuid

import sighting_client
from sighting_client import SightingCreate, SightingPatch, SightingUpdate, SightingVesselLink
from sighting_client.exceptions import ApiException

api, token_url = sys.argv[1], sys.argv[2]


def token(user: str) -> str:
    """Resource owner password grant with the public client sighting-cli, as the realm allows for scripts."""
    body = urllib.parse.urlencode({"grant_type": "password", "client_id": "sighting-cli", "username": user, "password": user}).encode()
    with urllib.request.urlopen(urllib.request.Request(token_url, data=body, method="POST")) as answer:
        return json.load(answer)["access_token"]


def step(name, run):
    try:
        run()
    except Exception:
        print(f"  FAILED  {name}", file=sys.stderr)
        raise
    print(f"  ok  {name}")


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def failure(call) -> ApiException:
    try:
        call()
    except ApiException as error:
        return error
    raise AssertionError("the call succeeded, an error was expected")


client = sighting_client.ApiClient(sighting_client.Configuration(host=api, access_token=token("alice")))
sightings, vessels = sighting_client.SightingApi(client), sighting_client.VesselApi(client)
memo = f"python scenario {uuid.uuid4()}"
state = {}


def list_vessels():
    ids = [row.actual_instance.vessel_id for row in vessels.list_vessels()]
    check(-1 in ids and -2 in ids, f"the demo vessels -1 and -2 are listed: {ids}")


def read_demo():
    sighting = sightings.get_sighting(-1)
    check((sighting.sighting_id, sighting.sighting_memo, sighting.vessel.vessel_id) == (-1, "unheimlich!", -1), str(sighting))


def create_plain():
    # Without the preference the 201 has no body: the raw answer carries the new record's Location.
    answer = sightings.create_sighting_without_preload_content(SightingCreate(
        sighting_memo=memo, vessel=SightingVesselLink(vessel_id=-1), sighting_timezone="Europe/Berlin", sighting_date="2026-11-22T21:30"))
    location = answer.headers["Location"]
    check((answer.status, answer.data) == (201, b""), f"{answer.status} {answer.data!r}")
    state["id"] = int(location.rsplit("/", 1)[1])
    created = sightings.get_sighting(state["id"])
    check((created.version, created.sighting_memo, created.sighting_date) == (0, memo, "2026-11-22T21:30:00.000"), str(created))


def create_represented():
    created = sightings.create_sighting(SightingCreate(sighting_memo=f"{memo} (represented)", vessel=SightingVesselLink(vessel_id=-1)), prefer="return=representation")
    check((created.version, created.sighting_memo, created.vessel.vessel_id) == (0, f"{memo} (represented)", -1), str(created))
    check(sightings.get_sighting(created.sighting_id) == created, "the returned record is the stored one")


def update():
    updated = sightings.update_sighting(state["id"], SightingUpdate(version=0, sighting_memo=f"{memo} (updated)", vessel=SightingVesselLink(vessel_id=-1)), prefer="return=representation")
    check((updated.version, updated.sighting_memo) == (1, f"{memo} (updated)"), str(updated))


def stale_update():
    error = failure(lambda: sightings.update_sighting(state["id"], SightingUpdate(version=0, sighting_memo=memo, vessel=SightingVesselLink(vessel_id=-1))))
    check(error.status == 409 and json.loads(error.body)["general"], f"{error.status} {error.body}")


def patch():
    patched = sightings.patch_sighting(state["id"], SightingPatch(sighting_memo=f"{memo} (patched)"), if_match='"1"', prefer="return=representation")
    check((patched.version, patched.sighting_memo, patched.vessel.vessel_id) == (2, f"{memo} (patched)", -1), str(patched))


def history():
    versions = sightings.list_sighting_versions(state["id"])
    check([(v.version, v.change.value) for v in versions] == [(2, "updated"), (1, "updated"), (0, "created")], str(versions))


def one_version():
    # The successor of get_sighting_version (deprecated since 1.2.0; the SDK warns with a DeprecationWarning).
    versions = sightings.list_sighting_versions(state["id"], version=1)
    check([(v.version, v.change.value, v.record.sighting_memo) for v in versions] == [(1, "updated", f"{memo} (updated)")], str(versions))


def delete():
    check(sightings.delete_sighting_with_http_info(state["id"]).status_code == 204, "204")
    error = failure(lambda: sightings.get_sighting(state["id"]))
    check(error.status == 404 and json.loads(error.body)["general"], f"{error.status} {error.body}")


step("list the vessels", list_vessels)
step("read sighting -1", read_demo)
step("create without Prefer: 201, the new id in Location", create_plain)
step("create with Prefer: return=representation: the SDK returns the new record", create_represented)
step("update with the version read", update)
step("a stale update is a 409, a typed error", stale_update)
step("patch the memo (JSON Merge Patch) with If-Match", patch)
step("the history lists every version, newest first", history)
step("one version: the history filtered by version", one_version)
step("delete, then a read is a 404, a typed error", delete)
print("python scenario: every step passed")
