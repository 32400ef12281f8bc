// The native library's side of the scenario: a client that sends the bearer token, and error bodies read by its Jackson mapper.
package org.sighting.scenario;

import java.io.IOException;
import org.sighting.client.ApiClient;
import org.sighting.client.ApiException;
import org.sighting.client.model.GeneralError;

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
}
