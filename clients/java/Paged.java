// What the paging recipe found (each library's Sdk.paging): the ids paged by `after`, the sorted list's next cursor.
package org.sighting.scenario;

import java.util.List;

record Paged(List<Long> seen, String cursor) {}
