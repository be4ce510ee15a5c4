package sdk

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// pig's chaining cases and event table (test/fixtures/extension-events), which the TypeScript
// runner's and the Python SDK's tests read too.
var fixtures = filepath.Join("..", "..", "test", "fixtures", "extension-events")

type chainingCase struct {
	Name     string            `json:"name"`
	Event    string            `json:"event"`
	Payload  json.RawMessage   `json:"payload"`
	Handlers []json.RawMessage `json:"handlers"`
	Result   json.RawMessage   `json:"result"`
	Calls    int               `json:"calls"`
	Seen     *struct {
		Field  string            `json:"field"`
		Values []json.RawMessage `json:"values"`
	} `json:"seen"`
	Errors int  `json:"errors"`
	Throws bool `json:"throws"`
}

func readFixture(t *testing.T, name string, into any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtures, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, into); err != nil {
		t.Fatal(err)
	}
}

func sameJSON(t *testing.T, got, want json.RawMessage) bool {
	t.Helper()
	var g, w any
	if !isNull(got) {
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("%s: %v", got, err)
		}
	}
	if !isNull(want) {
		if err := json.Unmarshal(want, &w); err != nil {
			t.Fatalf("%s: %v", want, err)
		}
	}
	return reflect.DeepEqual(g, w)
}

func TestEachRequestCombinesByTheRuleOfPigsTable(t *testing.T) {
	var table struct {
		Events map[string]struct {
			Kind    string `json:"kind"`
			Combine struct {
				Rule string `json:"rule"`
			} `json:"combine"`
		} `json:"events"`
	}
	readFixture(t, "events.json", &table)
	want := map[string]string{}
	for name, info := range table.Events {
		if info.Kind == "request" {
			want[name] = info.Combine.Rule
		}
	}
	if !reflect.DeepEqual(rules, want) {
		t.Fatalf("rules = %v\npig's table = %v", rules, want)
	}
}

func TestPigsChainingCases(t *testing.T) {
	var file struct {
		Cases []chainingCase `json:"cases"`
	}
	readFixture(t, "chaining.json", &file)
	if len(file.Cases) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range file.Cases {
		c := c
		t.Run(c.Name, func(t *testing.T) {
			var seen []json.RawMessage
			var handlers []eventHandler
			for _, answer := range c.Handlers {
				answer := answer
				handlers = append(handlers, func(_ *Context, payload json.RawMessage) (json.RawMessage, error) {
					if c.Seen != nil {
						var p fields
						_ = json.Unmarshal(payload, &p)
						seen = append(seen, p[c.Seen.Field])
					}
					var failure struct {
						Throw *string `json:"$throw"`
					}
					if json.Unmarshal(answer, &failure) == nil && failure.Throw != nil {
						return nil, errors.New(*failure.Throw)
					}
					return answer, nil
				})
			}
			calls, reported := 0, 0
			run := func(h eventHandler, p json.RawMessage) (json.RawMessage, error) {
				calls++
				return h(nil, p)
			}
			got, err := chain(c.Event, c.Payload, handlers, run, func(error) { reported++ })
			if c.Throws {
				if err == nil {
					t.Fatalf("answered %s, want an error", got)
				}
			} else if err != nil {
				t.Fatal(err)
			} else if !sameJSON(t, got, c.Result) {
				t.Fatalf("answered %s, want %s", got, c.Result)
			}
			if calls != c.Calls {
				t.Fatalf("%d handlers ran, want %d", calls, c.Calls)
			}
			if c.Seen != nil {
				if len(seen) != len(c.Seen.Values) {
					t.Fatalf("saw %d payloads, want %d", len(seen), len(c.Seen.Values))
				}
				for i := range seen {
					if !sameJSON(t, seen[i], c.Seen.Values[i]) {
						t.Fatalf("handler %d saw %s, want %s", i, seen[i], c.Seen.Values[i])
					}
				}
			}
			if reported != c.Errors {
				t.Fatalf("%d failures reported, want %d", reported, c.Errors)
			}
		})
	}
}
