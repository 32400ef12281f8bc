// The native library's side of the scenario: a client that sends the bearer token, error bodies read by its Jackson
// mapper, and each call the scenario makes with the library's request object (a builder of named parameters), so the
// shared scenario names what it sets (`r -> r.limit(3)`) whichever library runs it.
package org.sighting.scenario;

import java.io.IOException;
import java.util.List;
import java.util.function.UnaryOperator;
import org.sighting.client.ApiClient;
import org.sighting.client.ApiException;
import org.sighting.client.ApiResponse;
import org.sighting.client.api.SightingApi;
import org.sighting.client.api.VesselApi;
import org.sighting.client.api.TimezoneApi;
import org.sighting.client.model.TimezoneCreate;
import org.sighting.client.model.TimezoneDetail;
import org.sighting.client.model.VesselCreate;
import org.sighting.client.model.GeneralError;
import org.sighting.client.model.SightingBatchCreatedInner;
import org.sighting.client.model.SightingCreate;
import org.sighting.client.model.SightingDetail;
import org.sighting.client.model.SightingExample;
import org.sighting.client.model.SightingListItem;
import org.sighting.client.model.SightingPatch;
import org.sighting.client.model.SightingUpdate;
import org.sighting.client.model.SightingVersion;
import org.sighting.client.model.VesselDetail;
import org.sighting.client.model.VesselExample;
import org.sighting.client.model.VesselListItem;

final class Sdk {
  private Sdk() {}

  static ApiClient client(String api, String token) {
    ApiClient client = new ApiClient();
    client.updateBaseUri(api);
    // The native library has no authentication support of its own (no setBearerToken): every request gets the header here.
    client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + token));
    return client;
  }

  static GeneralError generalError(ApiException error) throws IOException {
    return ApiClient.createDefaultObjectMapper().readValue(error.getResponseBody(), GeneralError.class);
  }

  static ApiResponse<List<VesselListItem>> listVessels(VesselApi api, UnaryOperator<VesselApi.APIListVesselsRequest.Builder> set) throws ApiException {
    return api.listVesselsWithHttpInfo(set.apply(VesselApi.APIListVesselsRequest.newBuilder()).build());
  }

  static ApiResponse<List<VesselDetail>> listVesselsInDetailView(VesselApi api, UnaryOperator<VesselApi.APIListVesselsInDetailViewRequest.Builder> set) throws ApiException {
    return api.listVesselsInDetailViewWithHttpInfo(set.apply(VesselApi.APIListVesselsInDetailViewRequest.newBuilder()).build());
  }

  static ApiResponse<VesselDetail> getVessel(VesselApi api, long id) throws ApiException {
    return api.getVesselWithHttpInfo(VesselApi.APIGetVesselRequest.newBuilder().id(id).build());
  }

  static ApiResponse<List<VesselDetail>> queryVesselsByExample(VesselApi api, VesselExample example) throws ApiException {
    return api.queryVesselsByExampleWithHttpInfo(VesselApi.APIQueryVesselsByExampleRequest.newBuilder().vesselExample(example).build());
  }

  static ApiResponse<SightingDetail> getSighting(SightingApi api, long id) throws ApiException {
    return api.getSightingWithHttpInfo(SightingApi.APIGetSightingRequest.newBuilder().id(id).build());
  }

  static ApiResponse<List<SightingListItem>> listSightings(SightingApi api, UnaryOperator<SightingApi.APIListSightingsRequest.Builder> set) throws ApiException {
    return api.listSightingsWithHttpInfo(set.apply(SightingApi.APIListSightingsRequest.newBuilder()).build());
  }

  static ApiResponse<List<SightingDetail>> listSightingsInDetailView(SightingApi api, UnaryOperator<SightingApi.APIListSightingsInDetailViewRequest.Builder> set) throws ApiException {
    return api.listSightingsInDetailViewWithHttpInfo(set.apply(SightingApi.APIListSightingsInDetailViewRequest.newBuilder()).build());
  }

  static ApiResponse<Void> createSighting(SightingApi api, SightingCreate record, UnaryOperator<SightingApi.APICreateSightingRequest.Builder> set) throws ApiException {
    return api.createSightingWithHttpInfo(set.apply(SightingApi.APICreateSightingRequest.newBuilder().sightingCreate(record)).build());
  }

  static ApiResponse<SightingDetail> createSightingReturningRecord(SightingApi api, SightingCreate record) throws ApiException {
    return api.createSightingReturningRecordWithHttpInfo(SightingApi.APICreateSightingReturningRecordRequest.newBuilder().sightingCreate(record).build());
  }

  static ApiResponse<List<SightingBatchCreatedInner>> createSightingBatch(SightingApi api, List<Object> records) throws ApiException {
    return api.createSightingBatchWithHttpInfo(SightingApi.APICreateSightingBatchRequest.newBuilder().requestBody(records).build());
  }

  static ApiResponse<SightingDetail> updateSighting(SightingApi api, long id, SightingUpdate body, UnaryOperator<SightingApi.APIUpdateSightingRequest.Builder> set) throws ApiException {
    return api.updateSightingWithHttpInfo(set.apply(SightingApi.APIUpdateSightingRequest.newBuilder().id(id).sightingUpdate(body)).build());
  }

  static ApiResponse<SightingDetail> patchSighting(SightingApi api, long id, SightingPatch body, UnaryOperator<SightingApi.APIPatchSightingRequest.Builder> set) throws ApiException {
    return api.patchSightingWithHttpInfo(set.apply(SightingApi.APIPatchSightingRequest.newBuilder().id(id).sightingPatch(body)).build());
  }

  static ApiResponse<List<SightingVersion>> listSightingVersions(SightingApi api, long id, UnaryOperator<SightingApi.APIListSightingVersionsRequest.Builder> set) throws ApiException {
    return api.listSightingVersionsWithHttpInfo(set.apply(SightingApi.APIListSightingVersionsRequest.newBuilder().id(id)).build());
  }

  @SuppressWarnings("deprecation")
  static ApiResponse<SightingDetail> getSightingVersion(SightingApi api, long id, int version) throws ApiException {
    return api.getSightingVersionWithHttpInfo(SightingApi.APIGetSightingVersionRequest.newBuilder().id(id).version(version).build());
  }

  static ApiResponse<List<SightingDetail>> querySightingsByExample(SightingApi api, SightingExample example, UnaryOperator<SightingApi.APIQuerySightingsByExampleRequest.Builder> set) throws ApiException {
    return api.querySightingsByExampleWithHttpInfo(set.apply(SightingApi.APIQuerySightingsByExampleRequest.newBuilder().sightingExample(example)).build());
  }

  static ApiResponse<List<SightingListItem>> querySightingsByExampleInListView(SightingApi api, SightingExample example, UnaryOperator<SightingApi.APIQuerySightingsByExampleInListViewRequest.Builder> set) throws ApiException {
    return api.querySightingsByExampleInListViewWithHttpInfo(set.apply(SightingApi.APIQuerySightingsByExampleInListViewRequest.newBuilder().sightingExample(example)).build());
  }

  static ApiResponse<Void> deleteSighting(SightingApi api, long id) throws ApiException {
    return api.deleteSightingWithHttpInfo(SightingApi.APIDeleteSightingRequest.newBuilder().id(id).build());
  }

  static ApiResponse<TimezoneDetail> createTimezoneReturningRecord(TimezoneApi api, TimezoneCreate record) throws ApiException {
    return api.createTimezoneReturningRecordWithHttpInfo(TimezoneApi.APICreateTimezoneReturningRecordRequest.newBuilder().timezoneCreate(record).build());
  }

  static ApiResponse<VesselDetail> createVesselReturningRecord(VesselApi api, VesselCreate record) throws ApiException {
    return api.createVesselReturningRecordWithHttpInfo(VesselApi.APICreateVesselReturningRecordRequest.newBuilder().vesselCreate(record).build());
  }

  /**
   * A collection's change feed through its generated call. That call reads the whole body before it returns, and a
   * feed's body never ends; the client's response interceptor sees the answer first, its body still a stream, so the
   * events are read there (Scenario.createdEvent); closing the body then ends the call.
   */
  static String createdEvent(ApiClient client, String collection, java.util.concurrent.Callable<Long> create) throws Exception {
    var event = new java.util.concurrent.atomic.AtomicReference<String>();
    var failed = new java.util.concurrent.atomic.AtomicReference<Exception>();
    client.setResponseInterceptor(response -> {
      if (response.statusCode() != 200) return;
      try (var body = response.body()) {
        event.set(Scenario.createdEvent(body, create));
      } catch (Exception | AssertionError error) {
        failed.set(error instanceof Exception e ? e : new RuntimeException(error));
      }
    });
    try {
      switch (collection) {
        case "timezone" -> new TimezoneApi(client).timezoneEvents(TimezoneApi.APITimezoneEventsRequest.newBuilder().build());
        case "vessel" -> new VesselApi(client).vesselEvents(VesselApi.APIVesselEventsRequest.newBuilder().build());
        default -> new SightingApi(client).sightingEvents(SightingApi.APISightingEventsRequest.newBuilder().build());
      }
    } catch (ApiException closed) {
      // The call reading the body the interceptor closed; an error answer has no event and is thrown.
      if (event.get() == null && failed.get() == null) throw closed;
    } finally {
      client.setResponseInterceptor(null);
    }
    if (failed.get() != null) throw failed.get();
    return event.get();
  }

  /** The paging recipe of docs/sdk.md (Java native): every id by `after`, then the sorted list's next-page cursor. */
  static Paged paging(SightingApi sightings) throws ApiException {
    // recipe: paging
    List<Long> seen = new java.util.ArrayList<>();
    List<SightingListItem> page = sightings.listSightings(SightingApi.APIListSightingsRequest.newBuilder().limit(100).build());
    while (!page.isEmpty()) {
      page.forEach(row -> seen.add(row.getSightingId()));
      page = sightings.listSightings(SightingApi.APIListSightingsRequest.newBuilder().limit(100)
          .after(page.get(page.size() - 1).getSightingId()).build());
    }
    ApiResponse<List<SightingListItem>> first = sightings.listSightingsWithHttpInfo(
        SightingApi.APIListSightingsRequest.newBuilder().limit(100).sort("-sightingDate").build());
    String cursor = first.getHeaders().getOrDefault("Link", List.of()).stream()
        .map(link -> java.util.regex.Pattern.compile("[?&]cursor=([^&>]+)[^>]*>; rel=\"next\"").matcher(link))
        .filter(java.util.regex.Matcher::find).map(m -> m.group(1)).findFirst().orElse(null);
    // end recipe
    return new Paged(seen, cursor == null ? null : java.net.URLDecoder.decode(cursor, java.nio.charset.StandardCharsets.UTF_8));
  }
}
