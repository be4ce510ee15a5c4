package jsonscan

import "testing"

func TestSkipValue(t *testing.T) {
	cases := []struct {
		in   string
		want int
	}{
		{`"a\"b" rest`, 6},
		{`{"k": [1, {"x": "}"}]}, next`, 22},
		{`[[[]]]`, 6},
		{`123,`, 3},
		{`true}`, 4},
		{`"unterminated`, -1},
		{`{"open": [1, 2}`, -1},
		{``, -1},
	}
	for _, c := range cases {
		if got := SkipValue([]byte(c.in), 0); got != c.want {
			t.Errorf("SkipValue(%q) = %d, want %d", c.in, got, c.want)
		}
	}
	if got := SkipSpace([]byte(" \t\r\n x"), 0); got != 5 {
		t.Errorf("SkipSpace = %d, want 5", got)
	}
}
