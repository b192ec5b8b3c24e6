package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
	"github.com/stealkit/stealkit/benchmarks/internal/report"
	"github.com/stealkit/stealkit/benchmarks/internal/runner"
)

// errorHook, put first in <head>, records every error the page raises or logs.
const errorHook = `<script>
window.pageErrors = [];
window.addEventListener("error", function (e) { pageErrors.push("error: " + (e.message || e.target.outerHTML)); }, true);
window.addEventListener("securitypolicyviolation", function (e) { pageErrors.push("csp: " + e.violatedDirective); });
console.error = function () { pageErrors.push("console.error: " + Array.prototype.join.call(arguments, " ")); };
console.warn = function () { pageErrors.push("console.warn: " + Array.prototype.join.call(arguments, " ")); };
</script>`

// verdictScript, put last in <body>, waits for the page's load event (so that failed loads
// have reported), then measures every text element against the viewBox of its svg (its
// width and height if it has none), and every svg inside another against the outermost, and
// writes the verdict, as JSON, into a <pre id="verdict">.
const verdictScript = `<script>
window.addEventListener("load", function () {
  var v = { svgs: 0, texts: 0, outside: [], errors: pageErrors };
  document.querySelectorAll("svg").forEach(function (svg) {
    v.svgs++;
    var root = svg;
    while (root.ownerSVGElement) { root = root.ownerSVGElement; }
    var vb = svg.viewBox.baseVal;
    var box = vb && vb.width > 0 ? { x: vb.x, y: vb.y, w: vb.width, h: vb.height }
      : { x: 0, y: 0, w: svg.width.baseVal.value, h: svg.height.baseVal.value };
    if (root !== svg) {
      var r = root.getBoundingClientRect(), m = svg.getScreenCTM();
      var a = new DOMPoint(box.x, box.y).matrixTransform(m), b = new DOMPoint(box.x + box.w, box.y + box.h).matrixTransform(m);
      if (a.x < r.left - 0.5 || a.y < r.top - 0.5 || b.x > r.right + 0.5 || b.y > r.bottom + 0.5) {
        v.outside.push("an svg of " + box.w + " x " + box.h + " reaches outside its outermost svg");
      }
    }
    svg.querySelectorAll("text").forEach(function (t) {
      if (t.closest("svg") !== svg) { return; }
      v.texts++;
      var b = t.getBBox();
      if (b.x < box.x - 0.5 || b.y < box.y - 0.5 || b.x + b.width > box.x + box.w + 0.5 || b.y + b.height > box.y + box.h + 0.5) {
        v.outside.push(JSON.stringify(t.textContent) + " spans x " + b.x.toFixed(1) + " to " + (b.x + b.width).toFixed(1) +
          ", y " + b.y.toFixed(1) + " to " + (b.y + b.height).toFixed(1) + "; its svg " + box.w + " x " + box.h);
      }
    });
  });
  var pre = document.createElement("pre");
  pre.id = "verdict";
  pre.textContent = JSON.stringify(v);
  document.body.appendChild(pre);
});
</script>`

// verdict is what verdictScript reports.
type verdict struct {
	SVGs    int      `json:"svgs"`
	Texts   int      `json:"texts"`
	Outside []string `json:"outside"`
	Errors  []string `json:"errors"`
}

// chromium returns the path of a Chromium to run headless, or skips the test saying why.
func chromium(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium on PATH, so the report is not checked in a browser: install Debian's chromium package (.ci/run does)")
	}
	return path
}

// inBrowser loads page, with errorHook and verdictScript added, in headless Chromium and
// returns the verdict and the browser's log lines that report console messages.
func inBrowser(t *testing.T, page string) (verdict, []string) {
	t.Helper()
	bin := chromium(t)
	dir := t.TempDir()
	page = strings.Replace(page, "<head>", "<head>\n"+errorHook, 1)
	page = strings.Replace(page, "</body>", verdictScript+"\n</body>", 1)
	file := filepath.Join(dir, "report.html")
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--enable-logging=stderr", "--v=0", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--dump-dom", "file://"+file)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, stderr.String())
	}
	_, rest, ok := strings.Cut(stdout.String(), `<pre id="verdict">`)
	body, _, ok2 := strings.Cut(rest, "</pre>")
	if !ok || !ok2 {
		t.Fatalf("the page wrote no verdict (did its script run?); browser log:\n%s", stderr.String())
	}
	var v verdict
	if err := json.Unmarshal([]byte(unescapeHTML(body)), &v); err != nil {
		t.Fatalf("verdict %q: %v", body, err)
	}
	var console []string
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(l, ":CONSOLE") { // "INFO:CONSOLE:1] \"message\", source: ..."
			console = append(console, l)
		}
	}
	return v, console
}

// unescapeHTML undoes the escaping of text content in Chromium's DOM dump.
func unescapeHTML(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'", "&nbsp;", "\u00a0", "&amp;", "&").Replace(s)
}

// browserReport is sample() with a speedup chart of every implementation on the query
// workload, where the names are longest ("plinq-aggregateby").
func browserReport() *report.Report {
	r := sample()
	seq := runner.Result{Workload: "query", Impl: "sequential", Group: "baseline", Workers: 1, N: 4096, Calls: 1, MedianNs: 40e6, Speedup: 1, Efficiency: 1}
	r.Results = append(r.Results, seq)
	for i, im := range impls.All() {
		if im.Name == "sequential" {
			continue
		}
		ns := 20e6 + 1e6*float64(i)
		r.Results = append(r.Results, runner.Result{Workload: "query", Impl: im.Name, Group: string(im.Group), Workers: 2, N: 4096, Calls: 1,
			MedianNs: ns, Speedup: seq.MedianNs / ns, Efficiency: seq.MedianNs / ns / 2})
	}
	return r
}

// TestReportInBrowser renders the report in headless Chromium and checks that every text of
// every chart lies inside its svg, and that the page raises and logs no error.
func TestReportInBrowser(t *testing.T) {
	var b bytes.Buffer
	if err := report.WriteHTML(&b, browserReport()); err != nil {
		t.Fatal(err)
	}
	v, console := inBrowser(t, b.String())
	// 3 speedup charts (tailheavy, tiny, query), 1 timeline, 2 simulator charts.
	if v.SVGs != 6 || v.Texts < 6*3 {
		t.Errorf("the browser found %d svg elements with %d texts; want 6 charts with their texts", v.SVGs, v.Texts)
	}
	for _, o := range v.Outside {
		t.Errorf("text outside its chart: %s", o)
	}
	for _, e := range append(v.Errors, console...) {
		t.Errorf("the page logged: %s", e)
	}
}

// TestStandaloneSVGInBrowser checks WriteSVG's image as TestReportInBrowser checks the page:
// every text inside its svg, every chart inside the image.
func TestStandaloneSVGInBrowser(t *testing.T) {
	var b bytes.Buffer
	if err := report.WriteSVG(&b, browserReport()); err != nil {
		t.Fatal(err)
	}
	page := "<!DOCTYPE html>\n<html><head><title>t</title></head><body>\n" + b.String() + "</body></html>"
	v, console := inBrowser(t, page)
	// The image and its 3 speedup charts (tailheavy, tiny, query).
	if v.SVGs != 4 || v.Texts < 4*3 {
		t.Errorf("the browser found %d svg elements with %d texts; want the image, 3 charts and their texts", v.SVGs, v.Texts)
	}
	for _, o := range v.Outside {
		t.Errorf("outside: %s", o)
	}
	for _, e := range append(v.Errors, console...) {
		t.Errorf("the page logged: %s", e)
	}
}

// TestBrowserCheckSeesFaults: the check itself reports a text outside its svg and an error
// the page raises, so that TestReportInBrowser's silence means something.
func TestBrowserCheckSeesFaults(t *testing.T) {
	page := `<!DOCTYPE html>
<html><head><title>t</title></head><body>
<svg xmlns="http://www.w3.org/2000/svg" width="100" height="40"><text x="90" y="20">plinq-aggregate</text><text x="5" y="20">in</text>
<g transform="translate(50,0)"><svg width="60" height="20"><text x="0" y="12" font-size="8">ok</text></svg></g></svg>
<script>undefinedFunction();</script>
</body></html>`
	v, console := inBrowser(t, page)
	if v.SVGs != 2 || v.Texts != 3 || len(v.Outside) != 2 || !strings.Contains(v.Outside[0], "plinq-aggregate") || !strings.Contains(v.Outside[1], "reaches outside") {
		t.Errorf("verdict %+v; want 2 svgs, 3 texts, plinq-aggregate and the inner svg outside", v)
	}
	if len(v.Errors) != 1 || !strings.Contains(fmt.Sprint(v.Errors), "undefinedFunction") {
		t.Errorf("errors %q; want the call of undefinedFunction", v.Errors)
	}
	if len(console) != 1 || !strings.Contains(console[0], "undefinedFunction") {
		t.Errorf("browser log's console lines %q; want the uncaught call of undefinedFunction", console)
	}
}
