"""The client scenario with the Python SDK package (sighting_client wheel): every step against the running service.
Usage (clients/consume.sh python installs the wheel and runs it): python scenario.py <api base URL> <token endpoint URL>"""
import json
import re
import sys
import urllib.parse
import urllib.request
import uuid
import warnings

import sighting_client
from sighting_client import (SightingCreate, SightingDetail, SightingExample, SightingListItem, SightingPatch, SightingUpdate,
                             SightingVesselLink, VesselDetail, VesselListItem)
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


def list_rows():
    rows = vessels.list_vessels()
    # The list view's name is one text (null for a vessel without names, which other clients may have made).
    check(all(type(row) is VesselListItem and (row.vessel_name is None or isinstance(row.vessel_name, str))
              for row in rows), f"list-view rows: {rows[:2]}")
    check(all(isinstance(row.vessel_name, str) for row in rows if row.vessel_id in (-1, -2)), f"demo rows: {rows[:2]}")
    ids = [row.vessel_id for row in rows]
    check(-1 in ids and -2 in ids, f"the demo vessels -1 and -2 are listed: {ids}")
    [row] = sightings.list_sightings(sighting_id=-1)
    detail = sightings.get_sighting(-1)
    expected = {"sightingId": -1, "vessel": {"vesselId": -1, "vesselName": detail.vessel.vessel_name},
                "sightingTimezone": detail.sighting_timezone, "sightingDate": detail.sighting_date}
    check(type(row) is SightingListItem and row.to_dict() == expected, f"{row!r} is not {expected}")


def detail_rows():
    rows = vessels.list_vessels_in_detail_view(vessel_id=-1)
    check([type(row) for row in rows] == [VesselDetail] and rows == [vessels.get_vessel(-1)], f"detail-view rows: {rows}")
    rows = sightings.list_sightings_in_detail_view(sighting_id=-1)
    check([(type(row), row.sighting_memo) for row in rows] == [(SightingDetail, "unheimlich!")], f"detail-view rows: {rows}")


def read_headers():
    answer = sightings.get_sighting_with_http_info(-1)
    sighting = answer.data
    check((sighting.sighting_id, sighting.sighting_memo, sighting.vessel.vessel_id) == (-1, "unheimlich!", -1), str(sighting))
    check(answer.headers["ETag"] == f'"{sighting.version}"', f"ETag {answer.headers.get('ETag')}")
    check(re.fullmatch(r"2\.\d+\.\d+", answer.headers.get("API-Version", "")), f"API-Version 2.x.y, got {answer.headers.get('API-Version')}")


def create_plain():
    record = SightingCreate(sighting_memo=memo, vessel=SightingVesselLink(vessel_id=-1), sighting_timezone="Europe/Berlin", sighting_date="2026-11-22T21:30")
    # The plain call returns normally (the 201 declares no body); the _with_http_info call has its Location.
    check(sightings.create_sighting(record.model_copy(update={"sighting_memo": f"{memo} (plain)"})) is None, "create_sighting returns None")
    answer = sightings.create_sighting_with_http_info(record)
    check((answer.status_code, answer.data, answer.raw_data, answer.headers["ETag"]) == (201, None, b"", '"0"'), f"{answer.status_code} {answer.raw_data!r}")
    state["id"] = int(answer.headers["Location"].rsplit("/", 1)[1])
    created = sightings.get_sighting(state["id"])
    check((created.version, created.sighting_memo, created.sighting_date) == (0, memo, "2026-11-22T21:30:00.000"), str(created))


def create_represented():
    created = sightings.create_sighting_returning_record(SightingCreate(sighting_memo=f"{memo} (represented)", vessel=SightingVesselLink(vessel_id=-1)))
    check(type(created) is SightingDetail, repr(created))
    check((created.version, created.sighting_memo, created.vessel.vessel_id) == (0, f"{memo} (represented)", -1), str(created))
    check(sightings.get_sighting(created.sighting_id) == created, "the returned record is the stored one")


def create_batch():
    # The default call sends the records as a JSON array and returns the new ids and versions in input order.
    records = [SightingCreate(sighting_memo=f"{memo} (batch 1)", vessel=SightingVesselLink(vessel_id=-1)),
               SightingCreate(sighting_memo=f"{memo} (batch 2)", vessel=SightingVesselLink(vessel_id=-2), sighting_timezone="Europe/Berlin")]
    stored = sightings.create_sighting_batch(records)
    check([one.version for one in stored] == [0, 0] and stored[1].sighting_id > stored[0].sighting_id, str(stored))
    read_back = [sightings.get_sighting(one.sighting_id) for one in stored]
    check([(r.sighting_memo, r.vessel.vessel_id, r.sighting_timezone) for r in read_back]
          == [(f"{memo} (batch 1)", -1, None), (f"{memo} (batch 2)", -2, "Europe/Berlin")], str(read_back))


def paging():
    # recipe: paging
    seen = []
    page = sightings.list_sightings(limit=100)
    while page:
        seen += [row.sighting_id for row in page]
        page = sightings.list_sightings(limit=100, after=page[-1].sighting_id)
    first = sightings.list_sightings_with_http_info(limit=100, sort="-sightingDate")
    found = re.search(r'<([^>]+)>; rel="next"', first.headers.get("Link", ""))
    cursor = found and urllib.parse.parse_qs(urllib.parse.urlsplit(found[1]).query)["cursor"][0]
    # end recipe
    check(seen == sorted(set(seen)) and state["id"] in seen, f"ids ascending with {state['id']}: {len(seen)} rows")
    if cursor:
        check(len(sightings.list_sightings(limit=100, sort="-sightingDate", cursor=cursor)) > 0, "the page after the cursor")


def created_event(open_feed, create):
    """Opens a change feed by its generated call without preloading (the plain call would read the whole body, and a
    feed's body never ends; its `Accept: application/json` gets the stream too); creates a record; reads events until
    the one about it, then leaves the stream."""
    response = open_feed(_request_timeout=60)
    try:
        check(response.status == 200 and response.headers["Content-Type"].startswith("text/event-stream"), str(response.headers))
        record_id = create()
        event = {}
        while True:
            line = response.readline().decode()
            check(line != "", f"the feed ended before an event about {record_id}")
            if line.strip() == "":
                if event.get("data") and json.loads(event["data"])["id"] == record_id:
                    return record_id, event.get("event")
                event = {}
            elif ": " in line and not line.startswith(":"):
                name, value = line.rstrip("\n").split(": ", 1)
                event[name] = value
    finally:
        # Closed, not only released: a connection given back to the pool mid-stream would carry the next call's
        # request and answer after the stream's unread bytes (urllib3 then retries an idempotent call: a second DELETE).
        response.close()
        response.release_conn()


def feeds():
    admin = sighting_client.ApiClient(sighting_client.Configuration(host=api, access_token=token("admin")))
    timezones, admin_vessels = sighting_client.TimezoneApi(admin), sighting_client.VesselApi(admin)
    for open_feed, create in [
        (timezones.timezone_events_without_preload_content, lambda: timezones.create_timezone_returning_record(
            sighting_client.TimezoneCreate(timezone_name=f"Scenario/{uuid.uuid4()}")).timezone_id),
        (admin_vessels.vessel_events_without_preload_content, lambda: admin_vessels.create_vessel_returning_record(
            sighting_client.VesselCreate(vessel_name={"en": f"scenario {uuid.uuid4()}"})).vessel_id),
        (sightings.sighting_events_without_preload_content, lambda: sightings.create_sighting_returning_record(
            SightingCreate(sighting_memo=f"{memo} (feed)", vessel=SightingVesselLink(vessel_id=-1))).sighting_id),
    ]:
        record_id, event = created_event(open_feed, create)
        check(event == "created", f"the created event of {record_id}: {event}")


def update():
    updated = sightings.update_sighting(state["id"], SightingUpdate(version=0, sighting_memo=f"{memo} (updated)", vessel=SightingVesselLink(vessel_id=-1)), prefer="return=representation")
    check((updated.version, updated.sighting_memo) == (1, f"{memo} (updated)"), str(updated))


def stale_update():
    error = failure(lambda: sightings.update_sighting(state["id"], SightingUpdate(version=0, sighting_memo=memo, vessel=SightingVesselLink(vessel_id=-1))))
    check(error.status == 409 and json.loads(error.body)["general"], f"{error.status} {error.body}")


def patch():
    patched = sightings.patch_sighting(state["id"], SightingPatch(sighting_memo=f"{memo} (patched)"), if_match='"1"', prefer="return=representation")
    check((patched.version, patched.sighting_memo, patched.vessel.vessel_id) == (2, f"{memo} (patched)", -1), str(patched))



def stale_patch():
    error = failure(lambda: sightings.patch_sighting(state["id"], SightingPatch(sighting_memo=f"{memo} (stale)"), if_match='"0"'))
    check(error.status == 412 and json.loads(error.body)["general"], f"{error.status} {error.body}")

def history():
    versions = sightings.list_sighting_versions(state["id"])
    check([(v.version, v.change.value) for v in versions] == [(2, "updated"), (1, "updated"), (0, "created")], str(versions))


def one_version():
    # The successor of get_sighting_version (deprecated since 1.2.0; the SDK warns with a DeprecationWarning).
    versions = sightings.list_sighting_versions(state["id"], version=1)
    check([(v.version, v.change.value, v.record.sighting_memo) for v in versions] == [(1, "updated", f"{memo} (updated)")], str(versions))


def deprecated_call():
    # The SDK marks the call (a DeprecationWarning); the answer's headers say when it goes.
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        answer = sightings.get_sighting_version_with_http_info(state["id"], 1)
    check(any(issubclass(w.category, DeprecationWarning) for w in warned), "a DeprecationWarning at the call")
    deprecation, sunset, link = (answer.headers.get(name, "") for name in ("Deprecation", "Sunset", "Link"))
    check(re.fullmatch(r"@\d+", deprecation), f"Deprecation: @<unix seconds> (RFC 9745), got {deprecation}")
    check(sunset.endswith(" GMT"), f"Sunset: an HTTP date (RFC 8594), got {sunset}")
    check(re.match(r'</changelog\.md#contract-[\d.]+>; rel="deprecation"', link), f"Link to the changelog entry, got {link}")
    check(answer.data.sighting_memo == f"{memo} (updated)", str(answer.data))


def query_by_example():
    example = SightingExample(sighting_memo=f"{memo} (patched)".upper())
    found = sightings.query_sightings_by_example(example)
    check([(type(s), s.sighting_id) for s in found] == [(SightingDetail, state["id"])], str(found))
    rows = sightings.query_sightings_by_example_in_list_view(example)
    check([type(s) for s in rows] == [SightingListItem] and rows == sightings.list_sightings(sighting_id=state["id"]), str(rows))


def delete():
    check(sightings.delete_sighting_with_http_info(state["id"]).status_code == 204, "204")
    error = failure(lambda: sightings.get_sighting(state["id"]))
    check(error.status == 404 and json.loads(error.body)["general"], f"{error.status} {error.body}")


step("list rows in the list view: typed list items", list_rows)
step("list rows in the detail view: typed detail rows", detail_rows)
step("a read with its ETag and API-Version headers", read_headers)
step("the default create: no throw, the new record's Location", create_plain)
step("create returning the record: the typed detail view", create_represented)
step("batch create: the new ids in input order, each read back", create_batch)
step("paging: by id after the last row, and sorted by the Link header's cursor", paging)
step("update with the version read", update)
step("a stale update is a 409, a typed error", stale_update)
step("patch the memo (JSON Merge Patch) with If-Match", patch)
step("a patch on a stale If-Match is a 412, a typed error", stale_patch)
step("the history lists every version, newest first", history)
step("one version: the history filtered by version", one_version)
step("a deprecated call: its Deprecation header", deprecated_call)
step("query by example: the memo, in the detail view and in the list view", query_by_example)
step("the change feed of each collection: a created event from the generated call", feeds)
step("delete, then a read is a 404, a typed error", delete)
print("python scenario: every step passed")
