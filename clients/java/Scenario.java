// The client scenario with a generated Java SDK (native or okhttp-gson): every step against the running service, failing loudly.
// The calls go through Sdk (one per library: each library's request objects differ in shape, their parameter names not).
// Usage: java -cp <sdk classes and dependencies>:<scenario classes> org.sighting.scenario.Scenario <label> <api base URL> <token endpoint URL>
package org.sighting.scenario;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.sighting.client.ApiException;
import org.sighting.client.ApiResponse;
import org.sighting.client.api.SightingApi;
import org.sighting.client.api.TimezoneApi;
import org.sighting.client.api.VesselApi;
import org.sighting.client.model.GeneralError;
import org.sighting.client.model.SightingBatchCreatedInner;
import org.sighting.client.model.SightingCreate;
import org.sighting.client.model.SightingDetail;
import org.sighting.client.model.SightingExample;
import org.sighting.client.model.SightingListItem;
import org.sighting.client.model.SightingPatch;
import org.sighting.client.model.SightingVersion;
import org.sighting.client.model.SightingVesselSummary;
import org.sighting.client.model.SightingUpdate;
import org.sighting.client.model.SightingVesselLink;
import org.sighting.client.model.TimezoneCreate;
import org.sighting.client.model.VesselCreate;
import org.sighting.client.model.VesselDetail;
import org.sighting.client.model.VesselExample;
import org.sighting.client.model.VesselListItem;

public final class Scenario {
  interface Step { void run() throws Exception; }

  private static final String PREFER = "return=representation";
  private static SightingDetail created;

  public static void main(String[] args) throws Exception {
    if (args.length != 3) throw new IllegalArgumentException("usage: Scenario <label> <api base URL> <token endpoint URL>");
    String label = args[0];
    var client = Sdk.client(args[1], token(args[2], "alice"));
    var sightings = new SightingApi(client);
    var vessels = new VesselApi(client);
    String memo = label + " scenario " + UUID.randomUUID();

    step("list rows in the list view: typed list items", () -> {
      // Each view is its own operation, so the rows are typed; the parameters are named on the call's request object.
      List<VesselListItem> rows = Sdk.listVessels(vessels, r -> r).getData();
      List<Long> ids = rows.stream().map(VesselListItem::getVesselId).toList();
      check(ids.contains(-1L) && ids.contains(-2L), "the demo vessels -1 and -2 are listed: " + ids);
      SightingDetail detail = Sdk.getSighting(sightings, -1L).getData();
      List<SightingListItem> sightingRows = Sdk.listSightings(sightings, r -> r.sightingId(-1L)).getData();
      equal(sightingRows, List.of(new SightingListItem().sightingId(-1L).sightingTimezone(detail.getSightingTimezone()).sightingDate(detail.getSightingDate())
          .vessel(new SightingVesselSummary().vesselId(-1L).vesselName(detail.getVessel().getVesselName()))));
    });
    step("list rows in the detail view: typed detail rows", () -> {
      List<VesselDetail> rows = Sdk.listVesselsInDetailView(vessels, r -> r.vesselId(-1L)).getData();
      equal(rows, List.of(Sdk.getVessel(vessels, -1L).getData()));
      check(!rows.get(0).getVesselName().isEmpty(), "the language map: " + rows);
      List<SightingDetail> sightingRows = Sdk.listSightingsInDetailView(sightings, r -> r.sightingId(-1L)).getData();
      equal(sightingRows.stream().map(SightingDetail::getSightingMemo).toList(), List.of("unheimlich!"));
    });
    step("a read with its ETag and API-Version headers", () -> {
      ApiResponse<SightingDetail> answer = Sdk.getSighting(sightings, -1L);
      SightingDetail sighting = answer.getData();
      equal(List.of(sighting.getSightingId(), sighting.getSightingMemo(), sighting.getVessel().getVesselId()), List.of(-1L, "unheimlich!", -1L));
      equal(header(answer.getHeaders(), "ETag"), "\"" + sighting.getVersion() + "\"");
      check(header(answer.getHeaders(), "API-Version").matches("2\\.\\d+\\.\\d+"), "API-Version 2.x.y: " + header(answer.getHeaders(), "API-Version"));
    });
    step("the default create: no throw, the new record's Location", () -> {
      SightingCreate record = new SightingCreate().sightingMemo(memo).vessel(new SightingVesselLink().vesselId(-1L))
          .sightingTimezone("Europe/Berlin").sightingDate("2026-11-22T21:30");
      // The call returns normally (the 201 declares no body); its headers have the new record's Location.
      Sdk.createSighting(sightings, new SightingCreate().sightingMemo(memo + " (plain)").vessel(new SightingVesselLink().vesselId(-1L)), r -> r);
      ApiResponse<Void> answer = Sdk.createSighting(sightings, record, r -> r.idempotencyKey(UUID.randomUUID().toString()));
      String location = header(answer.getHeaders(), "Location");
      long id = Long.parseLong(location.substring(location.lastIndexOf('/') + 1));
      equal(List.of(answer.getStatusCode(), id > 0, header(answer.getHeaders(), "ETag")), List.of(201, true, "\"0\""));
      created = Sdk.getSighting(sightings, id).getData();
      equal(List.of(created.getSightingId(), created.getVersion(), created.getSightingMemo(), created.getSightingDate()), List.of(id, 0, memo, "2026-11-22T21:30:00.000"));
    });
    step("create returning the record: the typed detail view", () -> {
      SightingDetail answer = Sdk.createSightingReturningRecord(sightings, new SightingCreate().sightingMemo(memo + " (represented)").vessel(new SightingVesselLink().vesselId(-1L))).getData();
      equal(List.of(answer.getVersion(), answer.getSightingMemo(), answer.getVessel().getVesselId()), List.of(0, memo + " (represented)", -1L));
      equal(Sdk.getSighting(sightings, answer.getSightingId()).getData(), answer);
    });
    step("batch create: the new ids in input order, each read back", () -> {
      // The default call sends the records as a JSON array and returns the new ids and versions in input order.
      List<Object> records = List.of(new SightingCreate().sightingMemo(memo + " (batch 1)").vessel(new SightingVesselLink().vesselId(-1L)),
          new SightingCreate().sightingMemo(memo + " (batch 2)").vessel(new SightingVesselLink().vesselId(-2L)).sightingTimezone("Europe/Berlin"));
      List<SightingBatchCreatedInner> stored = Sdk.createSightingBatch(sightings, records).getData();
      equal(stored.stream().map(SightingBatchCreatedInner::getVersion).toList(), List.of(0, 0));
      check(stored.get(1).getSightingId() > stored.get(0).getSightingId(), "ids in input order: " + stored);
      List<String> readBack = new java.util.ArrayList<>();
      for (SightingBatchCreatedInner one : stored) {
        SightingDetail record = Sdk.getSighting(sightings, one.getSightingId()).getData();
        readBack.add(record.getSightingMemo() + " " + record.getVessel().getVesselId() + " " + record.getSightingTimezone());
      }
      equal(readBack, List.of(memo + " (batch 1) -1 null", memo + " (batch 2) -2 Europe/Berlin"));
    });
    step("paging: by id after the last row, and sorted by the Link header's cursor", () -> {
      Paged paged = Sdk.paging(sightings);
      for (int i = 1; i < paged.seen().size(); i++) check(paged.seen().get(i) > paged.seen().get(i - 1), "ids ascending at " + i);
      check(paged.seen().contains(created.getSightingId()), created.getSightingId() + " among " + paged.seen().size() + " rows");
      if (paged.cursor() != null) {
        check(!Sdk.listSightings(sightings, r -> r.limit(100).sort("-sightingDate").cursor(paged.cursor())).getData().isEmpty(), "the page after the cursor");
      }
    });
    step("read it back", () -> equal(Sdk.getSighting(sightings, created.getSightingId()).getData(), created));
    step("update with the version read", () -> {
      SightingDetail updated = Sdk.updateSighting(sightings, created.getSightingId(), update(created).sightingMemo(memo + " (updated)"), r -> r.prefer(PREFER)).getData();
      equal(List.of(updated.getVersion(), updated.getSightingMemo()), List.of(1, memo + " (updated)"));
      equal(Sdk.getSighting(sightings, created.getSightingId()).getData(), updated);
    });
    step("a stale update is a 409, a typed error", () -> {
      ApiException error = failure(() -> Sdk.updateSighting(sightings, created.getSightingId(), update(created), r -> r));
      equal(error.getCode(), 409);
      GeneralError body = Sdk.generalError(error);
      check(!body.getGeneral().isEmpty(), "the error says why");
    });
    step("patch the memo (JSON Merge Patch) with If-Match: the other fields stay", () -> {
      SightingDetail patched = Sdk.patchSighting(sightings, created.getSightingId(), new SightingPatch().sightingMemo(memo + " (patched)"), r -> r.ifMatch("\"1\"").prefer(PREFER)).getData();
      equal(List.of(patched.getVersion(), patched.getSightingMemo(), patched.getVessel().getVesselId()), List.of(2, memo + " (patched)", -1L));
    });
    step("a patch on a stale If-Match is a 412, a typed error", () -> {
      ApiException error = failure(() -> Sdk.patchSighting(sightings, created.getSightingId(), new SightingPatch().sightingMemo(memo + " (stale)"), r -> r.ifMatch("\"0\"")));
      equal(error.getCode(), 412);
      check(!Sdk.generalError(error).getGeneral().isEmpty(), "the error says why");
    });
    step("the history lists every version, newest first, each record as it was", () -> {
      List<SightingVersion> versions = Sdk.listSightingVersions(sightings, created.getSightingId(), r -> r).getData();
      equal(versions.stream().map(v -> v.getVersion() + " " + v.getChange().getValue()).toList(), List.of("2 updated", "1 updated", "0 created"));
      equal(versions.get(2).getRecord().getSightingMemo(), memo);
    });
    step("one version: the history filtered by version (the successor of the deprecated getSightingVersion)", () -> {
      List<SightingVersion> versions = Sdk.listSightingVersions(sightings, created.getSightingId(), r -> r.version(1)).getData();
      equal(versions.stream().map(v -> v.getVersion() + " " + v.getChange().getValue() + " " + v.getRecord().getSightingMemo()).toList(),
          List.of("1 updated " + memo + " (updated)"));
    });
    step("a deprecated call: its Deprecation header", () -> {
      ApiResponse<SightingDetail> answer = Sdk.getSightingVersion(sightings, created.getSightingId(), 1);
      check(header(answer.getHeaders(), "Deprecation").matches("@\\d+"), "Deprecation: @<unix seconds> (RFC 9745)");
      check(header(answer.getHeaders(), "Sunset").endsWith(" GMT"), "Sunset: an HTTP date (RFC 8594)");
      check(header(answer.getHeaders(), "Link").matches("</changelog\\.md#contract-[\\d.]+>; rel=\"deprecation\".*"), "Link to the changelog entry");
      equal(answer.getData().getSightingMemo(), memo + " (updated)");
    });
    step("a sorted list: the newest ids first", () -> {
      List<Long> ids = Sdk.listSightings(sightings, r -> r.limit(3).sort("-sightingId")).getData()
          .stream().map(SightingListItem::getSightingId).toList();
      equal(ids, ids.stream().sorted(java.util.Comparator.reverseOrder()).toList());
      check(ids.get(0) >= created.getSightingId(), "the newest first: " + ids);
    });
    step("query by example: the memo, in the detail view and in the list view", () -> {
      SightingExample example = new SightingExample().sightingMemo((memo + " (patched)").toUpperCase());
      List<SightingDetail> found = Sdk.querySightingsByExample(sightings, example, r -> r).getData();
      equal(found.stream().map(SightingDetail::getSightingMemo).toList(), List.of(memo + " (patched)"));
      List<SightingListItem> rows = Sdk.querySightingsByExampleInListView(sightings, example, r -> r).getData();
      equal(rows, Sdk.listSightings(sightings, r -> r.sightingId(created.getSightingId())).getData());
    });
    step("query by example: a vessel name by language, {de: \"J\u00e4ger\"}", () -> {
      List<VesselDetail> found = Sdk.queryVesselsByExample(vessels, new VesselExample().vesselName(Map.of("de", "J\u00e4ger"))).getData();
      List<Long> ids = found.stream().map(VesselDetail::getVesselId).toList();
      check(ids.contains(-1L) && !ids.contains(-2L), "vessel -1 only of the demo vessels: " + ids);
      check(found.stream().allMatch(v -> v.getVesselName().getOrDefault("de", "").toLowerCase().contains("j\u00e4ger")), "every match has J\u00e4ger in its German name");
    });
    step("query by example: no match is a 204", () ->
        equal(Sdk.querySightingsByExample(sightings, new SightingExample().sightingMemo(UUID.randomUUID().toString()), r -> r).getStatusCode(), 204));
    step("the change feed of each collection: a created event from the generated call", () -> {
      // Timezones and vessels are created by role admin.
      var admin = Sdk.client(args[1], token(args[2], "admin"));
      var adminTimezones = new TimezoneApi(admin);
      var adminVessels = new VesselApi(admin);
      equal(Sdk.createdEvent(admin, "timezone", () -> Sdk.createTimezoneReturningRecord(adminTimezones,
          new TimezoneCreate().timezoneName("Scenario/" + UUID.randomUUID())).getData().getTimezoneId()), "created");
      equal(Sdk.createdEvent(admin, "vessel", () -> Sdk.createVesselReturningRecord(adminVessels,
          new VesselCreate().vesselName(Map.of("en", "scenario " + UUID.randomUUID()))).getData().getVesselId()), "created");
      equal(Sdk.createdEvent(client, "sighting", () -> Sdk.createSightingReturningRecord(sightings,
          new SightingCreate().sightingMemo(memo + " (feed)").vessel(new SightingVesselLink().vesselId(-1L))).getData().getSightingId()), "created");
    });
    step("delete", () -> equal(Sdk.deleteSighting(sightings, created.getSightingId()).getStatusCode(), 204));
    step("read after delete is a 404, a typed error", () -> {
      ApiException error = failure(() -> Sdk.getSighting(sightings, created.getSightingId()));
      equal(error.getCode(), 404);
      check(!Sdk.generalError(error).getGeneral().isEmpty(), "the error says why");
    });
    System.out.println(label + " scenario: every step passed");
  }

  /**
   * Reads a change feed's body (Server-Sent Events) as it comes: once it is open, creates a record, then returns the
   * `event` of the first event whose data is about that record.
   */
  static String createdEvent(java.io.InputStream body, java.util.concurrent.Callable<Long> create) throws Exception {
    long id = create.call();
    var lines = new java.io.BufferedReader(new java.io.InputStreamReader(body, StandardCharsets.UTF_8));
    String event = null;
    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
      if (line.startsWith("event: ")) event = line.substring(7);
      if (line.startsWith("data: ") && line.matches("data: \\{\"id\":" + id + ",.*")) return event;
      if (line.isEmpty()) event = null;
    }
    throw new AssertionError("the feed ended before an event about " + id);
  }

  /** Resource owner password grant with the public client sighting-cli, as the realm allows for scripts. */
  private static String token(String tokenUrl, String user) throws Exception {
    String form = "grant_type=password&client_id=sighting-cli&username=" + URLEncoder.encode(user, StandardCharsets.UTF_8)
        + "&password=" + URLEncoder.encode(user, StandardCharsets.UTF_8);
    HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(tokenUrl))
        .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form)).build(),
        HttpResponse.BodyHandlers.ofString());
    var token = java.util.regex.Pattern.compile("\"access_token\"\\s*:\\s*\"([^\"]+)\"").matcher(response.body());
    if (!token.find()) throw new IllegalStateException("no token for " + user + ": " + response.statusCode() + " " + response.body());
    return token.group(1);
  }

  /** A response header by name; the two libraries spell header names differently. */
  private static String header(Map<String, List<String>> headers, String name) {
    return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name)).map(e -> e.getValue().get(0)).findFirst()
        .orElseThrow(() -> new AssertionError("no " + name + " header in " + headers.keySet()));
  }

  /** The update body for a record as read: its version, memo and vessel link. */
  private static SightingUpdate update(SightingDetail sighting) {
    return new SightingUpdate().version(sighting.getVersion()).sightingMemo(sighting.getSightingMemo())
        .vessel(new SightingVesselLink().vesselId(sighting.getVessel().getVesselId()));
  }

  private static ApiException failure(Step call) throws Exception {
    try {
      call.run();
    } catch (ApiException error) {
      return error;
    }
    throw new AssertionError("the call succeeded, an error was expected");
  }

  private static void step(String name, Step step) throws Exception {
    try {
      step.run();
    } catch (Exception | AssertionError error) {
      System.err.println("  FAILED  " + name);
      throw error;
    }
    System.out.println("  ok  " + name);
  }

  private static void check(boolean condition, String what) {
    if (!condition) throw new AssertionError(what);
  }

  private static void equal(Object actual, Object expected) {
    if (!Objects.equals(actual, expected)) throw new AssertionError("expected " + expected + ", got " + actual);
  }
}
