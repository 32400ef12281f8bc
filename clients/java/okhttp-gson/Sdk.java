// The okhttp-gson library's side of the scenario: a client with the bearer token, and error bodies read by the model's Gson reader.
package org.sighting.scenario;

import java.io.IOException;
import org.sighting.client.ApiClient;
import org.sighting.client.ApiException;
import org.sighting.client.model.GeneralError;

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
}
