// The client scenario with the generated Go SDK (package sighting): the calls a team makes first, against the running
// service, failing loudly. Built by clients/build.sh go (GOPATH mode, Debian's Go and modules: scripts/install-go.sh).
// Usage: scenario <api base URL> <token endpoint URL>
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"sighting"
)

var api, tokenURL string

// token: the resource owner password grant with the public client sighting-cli, as the realm allows for scripts.
func token(user string) string {
	response, err := http.PostForm(tokenURL, url.Values{"grant_type": {"password"}, "client_id": {"sighting-cli"},
		"username": {user}, "password": {user}})
	check(err)
	defer response.Body.Close()
	var body struct {
		AccessToken string `json:"access_token"`
	}
	check(json.NewDecoder(response.Body).Decode(&body))
	if body.AccessToken == "" {
		fail("no token for %s: %s", user, response.Status)
	}
	return body.AccessToken
}

func check(err error) {
	if err != nil {
		fail("%v", err)
	}
}

func fail(format string, args ...interface{}) {
	panic(fmt.Sprintf(format, args...))
}

func step(name string, run func()) {
	defer func() {
		if failure := recover(); failure != nil {
			fmt.Fprintf(os.Stderr, "  FAILED  %s: %v\n", name, failure)
			os.Exit(1)
		}
	}()
	run()
	fmt.Printf("  ok  %s\n", name)
}

// client: the generated client for api; the context carries the bearer token (the SDK's ContextAccessToken).
func client(user string, watch *feedWatch) (*sighting.APIClient, context.Context) {
	configuration := sighting.NewConfiguration()
	configuration.Servers = sighting.ServerConfigurations{{URL: api}}
	if watch != nil {
		configuration.HTTPClient = &http.Client{Transport: watch}
	}
	return sighting.NewAPIClient(configuration), context.WithValue(context.Background(), sighting.ContextAccessToken, token(user))
}

func main() {
	api, tokenURL = os.Args[1], os.Args[2]
	apiClient, ctx := client("alice", nil)
	sightings := apiClient.SightingAPI
	memo := fmt.Sprintf("go scenario %d", time.Now().UnixNano())
	var created *sighting.SightingDetail

	step("create returning the record: the typed detail view", func() {
		// recipe: create
		record := *sighting.NewSightingCreate(memo, *sighting.NewSightingVesselLink(-1))
		created, _, err := sightings.CreateSightingReturningRecord(ctx).SightingCreate(record).Execute()
		// end recipe
		check(err)
		if created.GetVersion() != 0 || created.GetSightingMemo() != memo || created.GetVessel().VesselId != -1 {
			fail("created: %+v", created)
		}
	})
	step("the default create: no throw, the new record's Location", func() {
		// recipe: minimal create
		answer, err := sightings.CreateSighting(ctx).SightingCreate(*sighting.NewSightingCreate(memo, *sighting.NewSightingVesselLink(-1))).Execute()
		location := answer.Header.Get("Location") // the record is not in the answer: 201, no body
		// end recipe
		check(err)
		id := regexp.MustCompile(`/sighting/(\d+)$`).FindStringSubmatch(location)
		if answer.StatusCode != 201 || id == nil {
			fail("201 with Location, got %d %q", answer.StatusCode, location)
		}
		var sightingID int64
		fmt.Sscan(id[1], &sightingID)
		created, _, err = sightings.GetSighting(ctx, sightingID).Execute()
		check(err)
		if created.GetSightingMemo() != memo {
			fail("read back: %+v", created)
		}
	})
	step("paging: by id after the last row, and sorted by the Link header's cursor", func() {
		// recipe: paging
		var seen []int64
		page, _, err := sightings.ListSightings(ctx).Limit(100).Execute()
		for err == nil && len(page) > 0 {
			for _, row := range page {
				seen = append(seen, row.GetSightingId())
			}
			page, _, err = sightings.ListSightings(ctx).Limit(100).After(page[len(page)-1].GetSightingId()).Execute()
		}
		_, first, err := sightings.ListSightings(ctx).Limit(100).Sort("-sightingDate").Execute()
		next := regexp.MustCompile(`<([^>]+)>; rel="next"`).FindStringSubmatch(first.Header.Get("Link"))
		// end recipe
		check(err)
		pagedByID(seen, created.GetSightingId())
		if next != nil {
			link, err := url.Parse(next[1])
			check(err)
			rows, _, err := sightings.ListSightings(ctx).Limit(100).Sort("-sightingDate").Cursor(link.Query().Get("cursor")).Execute()
			check(err)
			if len(rows) == 0 {
				fail("the next page by the cursor is empty")
			}
		}
	})
	step("a patch on a stale If-Match is a 412, a typed error", func() {
		// recipe: conflict
		_, answer, err := sightings.PatchSighting(ctx, created.GetSightingId()).IfMatch(`"7"`).SightingPatch(sighting.SightingPatch{SightingMemo: sighting.PtrString("later")}).Execute()
		var failure *sighting.GenericOpenAPIError
		general := ""
		if errors.As(err, &failure) && answer.StatusCode == 412 {
			body := failure.Model().(sighting.GeneralError) // read again, then retry with its ETag
			general = body.GetGeneral()
		}
		// end recipe
		if general == "" {
			fail("a 412 with a GeneralError, got %v", err)
		}
	})
	step("batch create: the new ids in input order, each read back", func() {
		// recipe: batch
		ids, _, err := sightings.CreateSightingBatch(ctx).RequestBody([]interface{}{
			sighting.NewSightingCreate(memo+" (batch 1)", *sighting.NewSightingVesselLink(-1)),
			sighting.NewSightingCreate(memo+" (batch 2)", *sighting.NewSightingVesselLink(-2))}).Execute()
		// end recipe
		check(err)
		if len(ids) != 2 || ids[1].GetSightingId() <= ids[0].GetSightingId() {
			fail("two ids in input order: %+v", ids)
		}
		for i, id := range ids {
			read, _, err := sightings.GetSighting(ctx, id.GetSightingId()).Execute()
			check(err)
			if read.GetSightingMemo() != fmt.Sprintf("%s (batch %d)", memo, i+1) || id.GetVersion() != 0 {
				fail("read back %d: %+v", i, read)
			}
		}
	})
	step("the change feed of each collection: a created event from the generated call", func() {
		type feed struct {
			open   func(*sighting.APIClient, context.Context) (*http.Response, error)
			create func(*sighting.APIClient, context.Context) int64
		}
		feeds := []feed{
			{func(c *sighting.APIClient, ctx context.Context) (*http.Response, error) {
				_, r, err := c.TimezoneAPI.TimezoneEvents(ctx).Execute()
				return r, err
			}, func(c *sighting.APIClient, ctx context.Context) int64 {
				zone, _, err := c.TimezoneAPI.CreateTimezoneReturningRecord(ctx).TimezoneCreate(*sighting.NewTimezoneCreate(fmt.Sprintf("Scenario/%d", time.Now().UnixNano()))).Execute()
				check(err)
				return zone.GetTimezoneId()
			}},
			{func(c *sighting.APIClient, ctx context.Context) (*http.Response, error) {
				_, r, err := c.VesselAPI.VesselEvents(ctx).Execute()
				return r, err
			}, func(c *sighting.APIClient, ctx context.Context) int64 {
				vessel, _, err := c.VesselAPI.CreateVesselReturningRecord(ctx).VesselCreate(*sighting.NewVesselCreate(map[string]string{"en": memo})).Execute()
				check(err)
				return vessel.GetVesselId()
			}},
			{func(c *sighting.APIClient, ctx context.Context) (*http.Response, error) {
				_, r, err := c.SightingAPI.SightingEvents(ctx).Execute()
				return r, err
			}, func(c *sighting.APIClient, ctx context.Context) int64 {
				record, _, err := c.SightingAPI.CreateSightingReturningRecord(ctx).SightingCreate(*sighting.NewSightingCreate(memo+" (feed)", *sighting.NewSightingVesselLink(-1))).Execute()
				check(err)
				return record.GetSightingId()
			}},
		}
		// Timezones and vessels are created by role admin.
		admin, adminCtx := client("admin", nil)
		for _, f := range feeds {
			watch := newFeedWatch()
			feedClient, feedCtx := client("admin", watch)
			streamCtx, stop := context.WithTimeout(feedCtx, 60*time.Second)
			watch.stop = stop
			answered := make(chan *http.Response, 1)
			go func() {
				// The generated call reads the body to its end, which a feed's never reaches: it returns once its context is
				// cancelled (here by the watch, at the event wanted), with the events read so far as the answer's body.
				response, _ := f.open(feedClient, streamCtx)
				answered <- response
			}()
			<-watch.opened
			watch.want(f.create(admin, adminCtx))
			response := <-answered
			stop()
			body, _ := io.ReadAll(response.Body)
			if !strings.Contains(string(body), "event: created\ndata: "+watch.wanted) {
				fail("no created event about %s in %q", watch.wanted, body)
			}
		}
	})
	fmt.Println("go scenario: every step passed")
}

// pagedByID: the ids paged by `after` are ascending, without a repeat, and include the record made above.
func pagedByID(seen []int64, made int64) {
	found := false
	for i, id := range seen {
		if i > 0 && id <= seen[i-1] {
			fail("ids out of order at %d: %d after %d", i, id, seen[i-1])
		}
		found = found || id == made
	}
	if !found {
		fail("sighting %d not among %d paged rows", made, len(seen))
	}
}

// feedWatch is the HTTP transport of a feed's client: it says when the stream's headers are in, and cancels the
// call's context once the stream has carried the event about the record wanted.
type feedWatch struct {
	opened chan struct{}
	stop   context.CancelFunc
	mutex  sync.Mutex
	wanted string
	seen   strings.Builder
}

func newFeedWatch() *feedWatch { return &feedWatch{opened: make(chan struct{})} }

func (w *feedWatch) RoundTrip(request *http.Request) (*http.Response, error) {
	response, err := http.DefaultTransport.RoundTrip(request)
	if err == nil {
		response.Body = &watchedBody{response.Body, w}
	}
	close(w.opened)
	return response, err
}

func (w *feedWatch) want(id int64) {
	w.mutex.Lock()
	defer w.mutex.Unlock()
	w.wanted = fmt.Sprintf(`{"id":%d,`, id)
	w.check()
}

// check (with the mutex held) cancels the call once the wanted event has passed.
func (w *feedWatch) check() {
	if w.wanted != "" && strings.Contains(w.seen.String(), "event: created\ndata: "+w.wanted) {
		w.stop()
	}
}

type watchedBody struct {
	io.ReadCloser
	watch *feedWatch
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.watch.mutex.Lock()
	b.watch.seen.Write(p[:n])
	b.watch.check()
	b.watch.mutex.Unlock()
	return n, err
}
