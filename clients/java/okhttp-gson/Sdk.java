// The okhttp-gson library's side of the scenario: a client with the bearer token, error bodies read by the model's
// Gson reader, and each call the scenario makes with the library's request object (the call's named parameters, then
// execute), so the shared scenario names what it sets (`r -> r.limit(3)`) whichever library runs it.
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
    client.setBasePath(api);
    client.setBearerToken(token);
    return client;
  }

  static GeneralError generalError(ApiException error) throws IOException {
    return GeneralError.fromJson(error.getResponseBody());
  }

  static ApiResponse<List<VesselListItem>> listVessels(VesselApi api, UnaryOperator<VesselApi.APIlistVesselsRequest> set) throws ApiException {
    return set.apply(api.listVessels()).executeWithHttpInfo();
  }

  static ApiResponse<List<VesselDetail>> listVesselsInDetailView(VesselApi api, UnaryOperator<VesselApi.APIlistVesselsInDetailViewRequest> set) throws ApiException {
    return set.apply(api.listVesselsInDetailView()).executeWithHttpInfo();
  }

  static ApiResponse<VesselDetail> getVessel(VesselApi api, long id) throws ApiException {
    return api.getVessel(id).executeWithHttpInfo();
  }

  static ApiResponse<List<VesselDetail>> queryVesselsByExample(VesselApi api, VesselExample example) throws ApiException {
    return api.queryVesselsByExample(example).executeWithHttpInfo();
  }

  static ApiResponse<SightingDetail> getSighting(SightingApi api, long id) throws ApiException {
    return api.getSighting(id).executeWithHttpInfo();
  }

  static ApiResponse<List<SightingListItem>> listSightings(SightingApi api, UnaryOperator<SightingApi.APIlistSightingsRequest> set) throws ApiException {
    return set.apply(api.listSightings()).executeWithHttpInfo();
  }

  static ApiResponse<List<SightingDetail>> listSightingsInDetailView(SightingApi api, UnaryOperator<SightingApi.APIlistSightingsInDetailViewRequest> set) throws ApiException {
    return set.apply(api.listSightingsInDetailView()).executeWithHttpInfo();
  }

  static ApiResponse<Void> createSighting(SightingApi api, SightingCreate record, UnaryOperator<SightingApi.APIcreateSightingRequest> set) throws ApiException {
    return set.apply(api.createSighting(record)).executeWithHttpInfo();
  }

  static ApiResponse<SightingDetail> createSightingReturningRecord(SightingApi api, SightingCreate record) throws ApiException {
    return api.createSightingReturningRecord(record).executeWithHttpInfo();
  }

  static ApiResponse<List<SightingBatchCreatedInner>> createSightingBatch(SightingApi api, List<Object> records) throws ApiException {
    return api.createSightingBatch(records).executeWithHttpInfo();
  }

  static ApiResponse<SightingDetail> updateSighting(SightingApi api, long id, SightingUpdate body, UnaryOperator<SightingApi.APIupdateSightingRequest> set) throws ApiException {
    return set.apply(api.updateSighting(id, body)).executeWithHttpInfo();
  }

  static ApiResponse<SightingDetail> patchSighting(SightingApi api, long id, SightingPatch body, UnaryOperator<SightingApi.APIpatchSightingRequest> set) throws ApiException {
    return set.apply(api.patchSighting(id, body)).executeWithHttpInfo();
  }

  static ApiResponse<List<SightingVersion>> listSightingVersions(SightingApi api, long id, UnaryOperator<SightingApi.APIlistSightingVersionsRequest> set) throws ApiException {
    return set.apply(api.listSightingVersions(id)).executeWithHttpInfo();
  }

  @SuppressWarnings("deprecation")
  static ApiResponse<SightingDetail> getSightingVersion(SightingApi api, long id, int version) throws ApiException {
    return api.getSightingVersion(id, version).executeWithHttpInfo();
  }

  static ApiResponse<List<SightingDetail>> querySightingsByExample(SightingApi api, SightingExample example, UnaryOperator<SightingApi.APIquerySightingsByExampleRequest> set) throws ApiException {
    return set.apply(api.querySightingsByExample(example)).executeWithHttpInfo();
  }

  static ApiResponse<List<SightingListItem>> querySightingsByExampleInListView(SightingApi api, SightingExample example, UnaryOperator<SightingApi.APIquerySightingsByExampleInListViewRequest> set) throws ApiException {
    return set.apply(api.querySightingsByExampleInListView(example)).executeWithHttpInfo();
  }

  static ApiResponse<Void> deleteSighting(SightingApi api, long id) throws ApiException {
    return api.deleteSighting(id).executeWithHttpInfo();
  }

  static ApiResponse<TimezoneDetail> createTimezoneReturningRecord(TimezoneApi api, TimezoneCreate record) throws ApiException {
    return api.createTimezoneReturningRecord(record).executeWithHttpInfo();
  }

  static ApiResponse<VesselDetail> createVesselReturningRecord(VesselApi api, VesselCreate record) throws ApiException {
    return api.createVesselReturningRecord(record).executeWithHttpInfo();
  }

  /**
   * A collection's change feed through its generated call: the request object's buildCall gives the OkHttp call, whose
   * response body is read as it comes (execute() would read it whole, and a feed's body never ends).
   */
  static String createdEvent(ApiClient client, String collection, java.util.concurrent.Callable<Long> create) throws Exception {
    okhttp3.Call call = switch (collection) {
      case "timezone" -> new TimezoneApi(client).timezoneEvents().buildCall(null);
      case "vessel" -> new VesselApi(client).vesselEvents().buildCall(null);
      default -> new SightingApi(client).sightingEvents().buildCall(null);
    };
    try (okhttp3.Response response = call.execute()) {
      if (response.code() != 200) throw new AssertionError("the feed answered " + response.code());
      return Scenario.createdEvent(response.body().byteStream(), create);
    }
  }

  /** The paging recipe in okhttp-gson's terms (its request objects are fluent calls, not builders). */
  static Paged paging(SightingApi sightings) throws ApiException {
    List<Long> seen = new java.util.ArrayList<>();
    List<SightingListItem> page = sightings.listSightings().limit(100).execute();
    while (!page.isEmpty()) {
      page.forEach(row -> seen.add(row.getSightingId()));
      page = sightings.listSightings().limit(100).after(page.get(page.size() - 1).getSightingId()).execute();
    }
    ApiResponse<List<SightingListItem>> first = sightings.listSightings().limit(100).sort("-sightingDate").executeWithHttpInfo();
    String cursor = first.getHeaders().getOrDefault("Link", List.of()).stream()
        .map(link -> java.util.regex.Pattern.compile("[?&]cursor=([^&>]+)[^>]*>; rel=\"next\"").matcher(link))
        .filter(java.util.regex.Matcher::find).map(m -> m.group(1)).findFirst().orElse(null);
    return new Paged(seen, cursor == null ? null : java.net.URLDecoder.decode(cursor, java.nio.charset.StandardCharsets.UTF_8));
  }
}
