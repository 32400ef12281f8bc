// The client scenario with a generated Java SDK (native or okhttp-gson, the same API): every step against the running service, failing loudly.
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
import org.sighting.client.api.VesselApi;
import org.sighting.client.model.GeneralError;
import org.sighting.client.model.SightingCreate;
import org.sighting.client.model.SightingDetail;
import org.sighting.client.model.SightingExample;
import org.sighting.client.model.SightingListItem;
import org.sighting.client.model.SightingPatch;
import org.sighting.client.model.SightingVersion;
import org.sighting.client.model.SightingVesselSummary;
import org.sighting.client.model.SightingUpdate;
import org.sighting.client.model.SightingVesselLink;
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
      // Each view is its own operation, so the rows are typed (parameters by position; `view`, after `limit`, left out).
      List<VesselListItem> rows = vessels.listVessels(null, null, null, null, null, null, null, null, null);
      List<Long> ids = rows.stream().map(VesselListItem::getVesselId).toList();
      check(ids.contains(-1L) && ids.contains(-2L), "the demo vessels -1 and -2 are listed: " + ids);
      SightingDetail detail = sightings.getSighting(-1L, null);
      List<SightingListItem> sightingRows = sightings.listSightings(-1L, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
      equal(sightingRows, List.of(new SightingListItem().sightingId(-1L).sightingTimezone(detail.getSightingTimezone()).sightingDate(detail.getSightingDate())
          .vessel(new SightingVesselSummary().vesselId(-1L).vesselName(detail.getVessel().getVesselName()))));
    });
    step("list rows in the detail view: typed detail rows", () -> {
      List<VesselDetail> rows = vessels.listVesselsInDetailView(-1L, null, null, null, null, null, null, null, null);
      equal(rows, List.of(vessels.getVessel(-1L, null)));
      check(!rows.get(0).getVesselName().isEmpty(), "the language map: " + rows);
      List<SightingDetail> sightingRows = sightings.listSightingsInDetailView(-1L, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
      equal(sightingRows.stream().map(SightingDetail::getSightingMemo).toList(), List.of("unheimlich!"));
    });
    step("a read with its ETag and API-Version headers", () -> {
      ApiResponse<SightingDetail> answer = sightings.getSightingWithHttpInfo(-1L, null);
      SightingDetail sighting = answer.getData();
      equal(List.of(sighting.getSightingId(), sighting.getSightingMemo(), sighting.getVessel().getVesselId()), List.of(-1L, "unheimlich!", -1L));
      equal(header(answer.getHeaders(), "ETag"), "\"" + sighting.getVersion() + "\"");
      check(header(answer.getHeaders(), "API-Version").matches("2\\.\\d+\\.\\d+"), "API-Version 2.x.y: " + header(answer.getHeaders(), "API-Version"));
    });
    step("the default create: no throw, the new record's Location", () -> {
      SightingCreate record = new SightingCreate().sightingMemo(memo).vessel(new SightingVesselLink().vesselId(-1L))
          .sightingTimezone("Europe/Berlin").sightingDate("2026-11-22T21:30");
      // The plain call returns normally (the 201 declares no body); ...WithHttpInfo has its headers.
      sightings.createSighting(new SightingCreate().sightingMemo(memo + " (plain)").vessel(new SightingVesselLink().vesselId(-1L)), null);
      ApiResponse<Void> answer = sightings.createSightingWithHttpInfo(record, UUID.randomUUID().toString());
      String location = header(answer.getHeaders(), "Location");
      long id = Long.parseLong(location.substring(location.lastIndexOf('/') + 1));
      equal(List.of(answer.getStatusCode(), id > 0, header(answer.getHeaders(), "ETag")), List.of(201, true, "\"0\""));
      created = sightings.getSighting(id, null);
      equal(List.of(created.getSightingId(), created.getVersion(), created.getSightingMemo(), created.getSightingDate()), List.of(id, 0, memo, "2026-11-22T21:30:00.000"));
    });
    step("create returning the record: the typed detail view", () -> {
      SightingDetail answer = sightings.createSightingReturningRecord(new SightingCreate().sightingMemo(memo + " (represented)").vessel(new SightingVesselLink().vesselId(-1L)), null);
      equal(List.of(answer.getVersion(), answer.getSightingMemo(), answer.getVessel().getVesselId()), List.of(0, memo + " (represented)", -1L));
      equal(sightings.getSighting(answer.getSightingId(), null), answer);
    });
    step("read it back", () -> equal(sightings.getSighting(created.getSightingId(), null), created));
    step("update with the version read", () -> {
      SightingDetail updated = sightings.updateSighting(created.getSightingId(), update(created).sightingMemo(memo + " (updated)"), null, PREFER);
      equal(List.of(updated.getVersion(), updated.getSightingMemo()), List.of(1, memo + " (updated)"));
      equal(sightings.getSighting(created.getSightingId(), null), updated);
    });
    step("a stale update is a 409, a typed error", () -> {
      ApiException error = failure(() -> sightings.updateSighting(created.getSightingId(), update(created), null, null));
      equal(error.getCode(), 409);
      GeneralError body = Sdk.generalError(error);
      check(!body.getGeneral().isEmpty(), "the error says why");
    });
    step("patch the memo (JSON Merge Patch) with If-Match: the other fields stay", () -> {
      SightingDetail patched = sightings.patchSighting(created.getSightingId(), new SightingPatch().sightingMemo(memo + " (patched)"), "\"1\"", PREFER);
      equal(List.of(patched.getVersion(), patched.getSightingMemo(), patched.getVessel().getVesselId()), List.of(2, memo + " (patched)", -1L));
    });
    step("the history lists every version, newest first, each record as it was", () -> {
      // The filter `version` (1.2.0) comes before the paging parameters: positional calls were edited for it.
      List<SightingVersion> versions = sightings.listSightingVersions(created.getSightingId(), null, null, null, null);
      equal(versions.stream().map(v -> v.getVersion() + " " + v.getChange().getValue()).toList(), List.of("2 updated", "1 updated", "0 created"));
      equal(versions.get(2).getRecord().getSightingMemo(), memo);
    });
    step("one version: the history filtered by version (the successor of the deprecated getSightingVersion)", () -> {
      List<SightingVersion> versions = sightings.listSightingVersions(created.getSightingId(), 1, null, null, null);
      equal(versions.stream().map(v -> v.getVersion() + " " + v.getChange().getValue() + " " + v.getRecord().getSightingMemo()).toList(),
          List.of("1 updated " + memo + " (updated)"));
    });
    step("a deprecated call: its Deprecation header", () -> {
      @SuppressWarnings("deprecation")
      ApiResponse<SightingDetail> answer = sightings.getSightingVersionWithHttpInfo(created.getSightingId(), 1);
      check(header(answer.getHeaders(), "Deprecation").matches("@\\d+"), "Deprecation: @<unix seconds> (RFC 9745)");
      check(header(answer.getHeaders(), "Sunset").endsWith(" GMT"), "Sunset: an HTTP date (RFC 8594)");
      check(header(answer.getHeaders(), "Link").matches("</changelog\\.md#contract-[\\d.]+>; rel=\"deprecation\".*"), "Link to the changelog entry");
      equal(answer.getData().getSightingMemo(), memo + " (updated)");
    });
    step("a sorted list: the newest ids first", () -> {
      List<Long> ids = sightings.listSightings(null, null, null, null, null, null, null, null, null, 3, null, null, "-sightingId", null, null, null)
          .stream().map(SightingListItem::getSightingId).toList();
      equal(ids, ids.stream().sorted(java.util.Comparator.reverseOrder()).toList());
      check(ids.get(0) >= created.getSightingId(), "the newest first: " + ids);
    });
    step("query by example: the memo, in the detail view and in the list view", () -> {
      SightingExample example = new SightingExample().sightingMemo((memo + " (patched)").toUpperCase());
      List<SightingDetail> found = sightings.querySightingsByExample(example, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
      equal(found.stream().map(SightingDetail::getSightingMemo).toList(), List.of(memo + " (patched)"));
      List<SightingListItem> rows = sightings.querySightingsByExampleInListView(example, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
      equal(rows, sightings.listSightings(created.getSightingId(), null, null, null, null, null, null, null, null, null, null, null, null, null, null, null));
    });
    step("query by example: a vessel name by language, {de: \"J\u00e4ger\"}", () -> {
      List<VesselDetail> found = vessels.queryVesselsByExample(new VesselExample().vesselName(Map.of("de", "J\u00e4ger")), null);
      List<Long> ids = found.stream().map(VesselDetail::getVesselId).toList();
      check(ids.contains(-1L) && !ids.contains(-2L), "vessel -1 only of the demo vessels: " + ids);
      check(found.stream().allMatch(v -> v.getVesselName().getOrDefault("de", "").toLowerCase().contains("j\u00e4ger")), "every match has J\u00e4ger in its German name");
    });
    step("query by example: no match is a 204", () ->
        equal(sightings.querySightingsByExampleWithHttpInfo(new SightingExample().sightingMemo(UUID.randomUUID().toString()), null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null).getStatusCode(), 204));
    step("delete", () -> equal(sightings.deleteSightingWithHttpInfo(created.getSightingId(), null).getStatusCode(), 204));
    step("read after delete is a 404, a typed error", () -> {
      ApiException error = failure(() -> sightings.getSighting(created.getSightingId(), null));
      equal(error.getCode(), 404);
      check(!Sdk.generalError(error).getGeneral().isEmpty(), "the error says why");
    });
    System.out.println(label + " scenario: every step passed");
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
