// The client scenario with the generated Kotlin SDK (jvm-okhttp, moshi): the calls a team makes first, against the
// running service, failing loudly. Built by clients/build.sh kotlin (Maven, clients/kotlin/pom.xml).
// Usage: java -cp … org.sighting.scenario.ScenarioKt <api base URL> <token endpoint URL>
package org.sighting.scenario

import java.net.URI
import java.net.URLDecoder
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import kotlin.system.exitProcess
import okhttp3.Interceptor
import okhttp3.OkHttpClient
import java.io.IOException
import okhttp3.ResponseBody.Companion.toResponseBody
import org.sighting.client.apis.SightingApi
import org.sighting.client.apis.TimezoneApi
import org.sighting.client.apis.VesselApi
import org.sighting.client.infrastructure.ApiClient
import org.sighting.client.infrastructure.ClientError
import org.sighting.client.infrastructure.ClientException
import org.sighting.client.infrastructure.Serializer
import org.sighting.client.models.GeneralError
import org.sighting.client.models.SightingCreate
import org.sighting.client.models.SightingPatch
import org.sighting.client.models.SightingVesselLink
import org.sighting.client.models.TimezoneCreate
import org.sighting.client.models.VesselCreate

/** Resource owner password grant with the public client sighting-cli, as the realm allows for scripts. */
fun token(tokenUrl: String, user: String): String {
    val form = "grant_type=password&client_id=sighting-cli&username=$user&password=$user"
    val answer = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(tokenUrl)).header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString())
    return Regex("\"access_token\"\\s*:\\s*\"([^\"]+)\"").find(answer.body())?.groupValues?.get(1)
        ?: error("no token for $user: ${answer.statusCode()} ${answer.body()}")
}

fun step(name: String, run: () -> Unit) {
    try {
        run()
    } catch (failure: Throwable) {
        System.err.println("  FAILED  $name: $failure")
        failure.printStackTrace()
        exitProcess(1)
    }
    println("  ok  $name")
}

fun main(args: Array<String>) {
    val (api, tokenUrl) = args
    val aliceToken = token(tokenUrl, "alice")
    // The token of every call of this object (the generated client's bearer authentication).
    val sightings = SightingApi(api).apply { accessTokenProvider = { aliceToken } }
    val memo = "kotlin scenario ${System.nanoTime()}"
    var createdId = 0L

    step("create returning the record: the typed detail view") {
        // recipe: create
        val created = sightings.createSightingReturningRecord(SightingCreate(sightingMemo = memo, vessel = SightingVesselLink(vesselId = -1)))
        // end recipe
        check(created.version == 0 && created.sightingMemo == memo && created.vessel.vesselId == -1L) { "$created" }
        createdId = created.sightingId
    }
    step("the default create: no throw, the new record's Location") {
        // recipe: minimal create
        val answer = sightings.createSightingWithHttpInfo(SightingCreate(sightingMemo = memo, vessel = SightingVesselLink(vesselId = -1)), idempotencyKey = null)
        val location = answer.headers["location"]?.first() // OkHttp's header names are lower case; 201, no body
        // end recipe
        check(answer.statusCode == 201 && location != null && Regex("/sighting/\\d+$").containsMatchIn(location)) { "${answer.statusCode} $location" }
        check(sightings.getSighting(location.substringAfterLast('/').toLong()).sightingMemo == memo)
    }
    step("paging: by id after the last row, and sorted by the Link header's cursor") {
        // recipe: paging
        val seen = mutableListOf<Long>()
        var page = sightings.listSightings(limit = 100)
        while (page.isNotEmpty()) {
            seen += page.map { it.sightingId }
            page = sightings.listSightings(limit = 100, after = page.last().sightingId)
        }
        val first = sightings.listSightingsWithHttpInfo(null, null, null, null, null, null, null, null, null, 100, null, null, "-sightingDate", null, null, null, null)
        val next = Regex("<([^>]+)>; rel=\"next\"").find(first.headers["link"]?.first().orEmpty())?.groupValues?.get(1)
        // end recipe
        check(seen.zipWithNext().all { (a, b) -> a < b } && createdId in seen) { "ids ascending with $createdId: ${seen.size} rows" }
        if (next != null) {
            val cursor = URLDecoder.decode(next.substringAfter("cursor=").substringBefore('&'), Charsets.UTF_8)
            check(sightings.listSightings(limit = 100, sort = "-sightingDate", cursor = cursor).isNotEmpty()) { "the page after $next" }
        }
    }
    step("a patch on a stale If-Match is a 412, a typed error") {
        // recipe: conflict
        val general = try {
            sightings.patchSighting(createdId, SightingPatch(sightingMemo = "later"), ifMatch = "\"7\"")
            null
        } catch (error: ClientException) { // statusCode 412, the body a GeneralError: read again, retry with its ETag
            if (error.statusCode != 412) throw error
            val body = (error.response as ClientError<*>).body as String
            Serializer.moshi.adapter(GeneralError::class.java).fromJson(body)!!.general
        }
        // end recipe
        check(!general.isNullOrEmpty()) { "a 412 with a GeneralError" }
    }
    step("batch create: the new ids in input order, each read back") {
        // recipe: batch
        val ids = sightings.createSightingBatch(listOf(SightingCreate(sightingMemo = "$memo (batch 1)", vessel = SightingVesselLink(vesselId = -1)),
            SightingCreate(sightingMemo = "$memo (batch 2)", vessel = SightingVesselLink(vesselId = -2))))
        // end recipe
        check(ids.size == 2 && ids[1].sightingId > ids[0].sightingId && ids.all { it.version == 0 }) { "$ids" }
        check(ids.mapIndexed { i, id -> sightings.getSighting(id.sightingId).sightingMemo == "$memo (batch ${i + 1})" }.all { it })
    }
    step("the change feed of each collection: a created event from the generated call") {
        // Timezones and vessels are created by role admin.
        val adminToken = token(tokenUrl, "admin")
        val feeds: List<Pair<(OkHttpClient) -> Unit, () -> Long>> = listOf(
            Pair({ client -> TimezoneApi(api, client).apply { accessTokenProvider = { adminToken } }.timezoneEvents() },
                { TimezoneApi(api).apply { accessTokenProvider = { adminToken } }.createTimezoneReturningRecord(TimezoneCreate(timezoneName = "Scenario/${System.nanoTime()}")).timezoneId }),
            Pair({ client -> VesselApi(api, client).apply { accessTokenProvider = { adminToken } }.vesselEvents() },
                { VesselApi(api).apply { accessTokenProvider = { adminToken } }.createVesselReturningRecord(VesselCreate(vesselName = mapOf("en" to memo))).vesselId }),
            Pair({ client -> SightingApi(api, client).apply { accessTokenProvider = { adminToken } }.sightingEvents() },
                { sightings.createSightingReturningRecord(SightingCreate(sightingMemo = "$memo (feed)", vessel = SightingVesselLink(vesselId = -1))).sightingId }),
        )
        for ((open, create) in feeds) {
            val watch = FeedWatch()
            // The generated call opens the stream; the watch, its client's interceptor, reads the events (FeedWatch).
            val client = OkHttpClient.Builder().readTimeout(60, TimeUnit.SECONDS).addNetworkInterceptor(watch).build()
            val call = Thread { runCatching { open(client) } }.apply { start() }
            check(watch.opened.await(60, TimeUnit.SECONDS)) { "the feed did not open" }
            watch.want(create())
            call.join(60_000)
            check(watch.found) { "no created event about ${watch.wanted} in ${watch.seen}" }
        }
    }
    println("kotlin scenario: every step passed")
}

/**
 * An OkHttp network interceptor that reads a feed's events: the generated call gives up on a `text/event-stream` body
 * at once (its responseBody() reads JSON, text/plain and octet-stream only), so the events are read here, where the
 * body is still the open stream, until the wanted one has passed; then the call goes on and throws.
 */
class FeedWatch : Interceptor {
    val opened = CountDownLatch(1)
    val seen = StringBuilder()
    @Volatile var wanted: String? = null
    @Volatile var found = false
    private var call: okhttp3.Call? = null

    override fun intercept(chain: Interceptor.Chain): okhttp3.Response {
        val response = chain.proceed(chain.request())
        val body = response.body
        synchronized(this) { call = chain.call() }
        opened.countDown()
        try {
            while (!found) {
                val line = body.source().readUtf8Line() ?: break
                synchronized(this) { seen.append(line).append('\n'); check() }
            }
        } catch (cancelled: IOException) {
            // want() cancelled the call: the event had been read before the record's id was known.
        }
        body.close()
        return response.newBuilder().body("".toResponseBody(body.contentType())).build()
    }

    fun want(id: Long) = synchronized(this) { wanted = "event: created\ndata: {\"id\":$id,"; check() }

    private fun check() {
        if (wanted != null && seen.contains(wanted!!)) { found = true; call?.cancel() }
    }
}
