// The toolexpect HTML report: draws the histogram and the case table from #report-data.
// Every piece of text from the report is set with textContent, never parsed as HTML.
(function () {
  "use strict";

  var PAGE = 200;
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var cases = data.cases;
  var RANK = { pass: 0, fail: 1, error: 2 };
  var state = { sort: null, descending: false, shown: PAGE, open: {} };

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function fixed(value) {
    return typeof value === "number" ? value.toFixed(2) : "-";
  }

  function passRate(item) {
    if (typeof item.pass_rate === "number") return item.pass_rate;
    if (item.runs === 1) return item.status === "pass" ? 1 : 0;
    return null;
  }

  function bar(value, label) {
    var cell = el("div", "bar");
    var fill = el("span", "fill");
    fill.style.width = typeof value === "number" ? Math.round(value * 100) + "%" : "0";
    if (typeof value !== "number") cell.classList.add("none");
    cell.appendChild(fill);
    cell.appendChild(el("span", "num", label));
    return cell;
  }

  // ---- histogram of accuracy -------------------------------------------------------------
  function drawHistogram() {
    var buckets = [];
    var i;
    for (i = 0; i <= 10; i++) buckets.push({ pass: 0, fail: 0, error: 0 });
    var unscored = 0;
    cases.forEach(function (item) {
      if (typeof item.score !== "number") { unscored += 1; return; }
      var at = Math.min(10, Math.floor(item.score * 10 + 1e-9));
      buckets[at][item.status] = (buckets[at][item.status] || 0) + 1;
    });
    var most = 1;
    buckets.forEach(function (b) { most = Math.max(most, b.pass + b.fail + b.error); });
    var box = document.getElementById("histogram");
    buckets.forEach(function (b, index) {
      var column = el("div", "column");
      var total = b.pass + b.fail + b.error;
      var label = index === 10 ? "1.0" : (index / 10).toFixed(1) + "–" + ((index + 1) / 10).toFixed(1);
      column.title = label + ": " + total + " case" + (total === 1 ? "" : "s") +
        " (" + b.pass + " pass, " + b.fail + " fail, " + b.error + " error)";
      var stack = el("div", "stack");
      ["error", "fail", "pass"].forEach(function (status) {
        if (!b[status]) return;
        var part = el("div", "part " + status);
        part.style.height = (100 * b[status] / most) + "%";
        stack.appendChild(part);
      });
      column.appendChild(el("span", "count", total || ""));
      column.appendChild(stack);
      column.appendChild(el("span", "tick", label));
      box.appendChild(column);
    });
    if (unscored) {
      box.after(el("p", "note", unscored + " case" + (unscored === 1 ? " has" : "s have") +
        " no accuracy (requirements only, or an error)"));
    }
  }

  // ---- filtering and sorting ----------------------------------------------------------------
  function value(id) {
    var node = document.getElementById(id);
    return node ? node.value : "";
  }

  function visible() {
    var status = value("filter-status");
    var file = value("filter-file");
    var change = value("filter-change");
    var text = value("filter-text").toLowerCase();
    var rows = [];
    cases.forEach(function (item, index) {
      if (status === "failing" ? item.status === "pass" : status && item.status !== status) return;
      if (file && item.file !== file) return;
      if (change && (item.change || "unchanged") !== change) return;
      if (text && String(item.case).toLowerCase().indexOf(text) < 0) return;
      rows.push(index);
    });
    if (state.sort) {
      var key = state.sort;
      var sign = state.descending ? -1 : 1;
      rows.sort(function (a, b) {
        var x = sortValue(cases[a], key);
        var y = sortValue(cases[b], key);
        if (x === y) return a - b;
        if (x === null) return 1;
        if (y === null) return -1;
        return (x < y ? -1 : 1) * sign;
      });
    }
    return rows;
  }

  function sortValue(item, key) {
    if (key === "status") return RANK[item.status];
    if (key === "pass_rate") return passRate(item);
    if (key === "change") return item.change || "~";
    var found = item[key];
    if (typeof found === "string") return found.toLowerCase();
    return found === undefined ? null : found;
  }

  // ---- the table ----------------------------------------------------------------------------
  function hasDetails(item) {
    return item.failures.length > 0 || item.cut;
  }

  function caseRow(item, index) {
    var row = el("tr", "case-row " + item.status);
    row.dataset.index = index;
    var status = el("td", "status");
    status.appendChild(el("span", "badge " + item.status, item.status));
    row.appendChild(status);
    row.appendChild(el("td", "file", item.file || ""));
    var name = el("td", "case");
    if (hasDetails(item)) {
      var button = el("button", "expand", item.case);
      button.type = "button";
      button.setAttribute("aria-expanded", state.open[index] ? "true" : "false");
      button.addEventListener("click", function () { toggle(index); });
      name.appendChild(button);
    } else {
      name.textContent = item.case;
    }
    row.appendChild(name);
    var score = el("td", "score");
    score.appendChild(bar(item.score, fixed(item.score) +
      (item.runs > 1 && typeof item.lowest === "number" ? " (lowest " + fixed(item.lowest) + ")" : "") +
      (item.allowed_calls ? " (" + item.allowed_calls + " allowed)" : "")));
    row.appendChild(score);
    var rate = el("td", "pass-rate");
    var passed = item.passed_runs !== null ? item.passed_runs : (item.status === "pass" ? item.runs : 0);
    rate.appendChild(bar(passRate(item), item.runs ? passed + "/" + item.runs : "-"));
    row.appendChild(rate);
    row.appendChild(el("td", "runs", item.runs));
    if (data.comparison) {
      var change = el("td", "change");
      if (item.change) change.appendChild(el("span", "badge change-" + item.change.replace(/ /g, "-"), item.change));
      if (item.before) {
        change.appendChild(el("span", "before", " was " + item.before.status + ", " + fixed(item.before.score)));
      } else if (item.change) {
        change.appendChild(el("span", "before", " new case"));
      }
      if (item.calls && item.calls.length) {
        var calls = el("ul", "calls-changed");
        item.calls.forEach(function (line) { calls.appendChild(el("li", null, line)); });
        change.appendChild(calls);
      }
      row.appendChild(change);
    }
    return row;
  }

  function sourceLine(file, line) {
    var lines = data.sources[file];
    return lines ? lines[String(line)] : undefined;
  }

  function failureBlock(item, failure) {
    var block = el("div", "failure");
    var head = el("p", "message");
    head.appendChild(el("span", "kind", failure.kind));
    head.appendChild(document.createTextNode(" " + failure.message));
    block.appendChild(head);
    if (failure.line) {
      var where = el("p", "source");
      where.appendChild(el("span", "where", (item.file || "spec") + ":" + failure.line));
      var text = sourceLine(item.file, failure.line);
      if (text !== undefined) where.appendChild(el("code", "line", text));
      block.appendChild(where);
    }
    if (failure.never_called) {
      var never = "this tool was never called";
      if (failure.similar && failure.similar.length) never += "; similarly named tools called: " + failure.similar.join(", ");
      block.appendChild(el("p", "note", never));
    }
    if (failure.closest) block.appendChild(closestTable(failure.closest));
    return block;
  }

  function closestTable(closest) {
    var table = el("table", "closest");
    var caption = "Closest call #" + (closest.call + 1) + ": " + closest.holds + " of " + closest.total +
      " argument" + (closest.total === 1 ? "" : "s") + " match" + (closest.valid_json ? "" : " (arguments are not valid JSON)");
    table.appendChild(el("caption", null, caption));
    var head = el("tr");
    ["", "argument", "expected", "got"].forEach(function (title) { head.appendChild(el("th", null, title)); });
    table.appendChild(head);
    closest.args.forEach(function (arg) {
      var row = el("tr", arg.holds ? "holds" : "differs");
      row.appendChild(el("td", "mark", arg.holds ? "✓" : "✗"));
      row.appendChild(el("td", "name", arg.name));
      row.appendChild(el("td", "expected", arg.expected));
      row.appendChild(el("td", "got", arg.got === null ? "missing" : arg.got));
      table.appendChild(row);
    });
    return table;
  }

  function detailRow(item, index) {
    var row = el("tr", "detail");
    row.dataset.index = index;
    var cell = el("td");
    cell.colSpan = data.comparison ? 7 : 6;
    item.failures.forEach(function (group) {
      var box = el("div", "run");
      if (group.run !== null) box.appendChild(el("h4", null, "Run " + group.run));
      group.failures.forEach(function (failure) { box.appendChild(failureBlock(item, failure)); });
      cell.appendChild(box);
    });
    if (item.runs_cut) {
      cell.appendChild(el("p", "note", "… and " + item.runs_cut + " more failing run" +
        (item.runs_cut === 1 ? "" : "s") + " not embedded (the JSON report has them all)"));
    }
    if (item.cut) {
      cell.appendChild(el("p", "note", "The failures of this case are not embedded: the page keeps at most " +
        data.cut.max_failures + " failures. The JSON report has them all."));
    }
    row.appendChild(cell);
    return row;
  }

  function toggle(index) {
    state.open[index] = !state.open[index];
    draw();
  }

  function draw() {
    var rows = visible();
    var body = document.getElementById("case-rows");
    var fragment = document.createDocumentFragment();
    rows.slice(0, state.shown).forEach(function (index) {
      var item = cases[index];
      fragment.appendChild(caseRow(item, index));
      if (state.open[index] && hasDetails(item)) fragment.appendChild(detailRow(item, index));
    });
    body.replaceChildren(fragment);
    var shown = Math.min(rows.length, state.shown);
    document.getElementById("shown").textContent = "showing " + shown + " of " + rows.length +
      " matching case" + (rows.length === 1 ? "" : "s") + " (" + cases.length + " in all)";
    var more = document.getElementById("show-more");
    more.hidden = rows.length <= state.shown;
    more.textContent = "Show " + Math.min(PAGE, rows.length - state.shown) + " more";
    document.querySelectorAll("th.sortable").forEach(function (th) {
      var on = th.dataset.sort === state.sort;
      th.setAttribute("aria-sort", on ? (state.descending ? "descending" : "ascending") : "none");
    });
  }

  function noteCuts() {
    var cut = data.cut;
    var parts = [];
    if (cut.runs) parts.push(cut.runs + " failing run" + (cut.runs === 1 ? "" : "s") + " beyond " + cut.runs_per_case + " per case");
    if (cut.cases) parts.push("the failures of " + cut.cases + " case" + (cut.cases === 1 ? "" : "s") + " after the first " + cut.max_failures + " failures");
    if (!parts.length) return;
    var note = document.getElementById("cut-note");
    note.textContent = "Not embedded, to keep this page small: " + parts.join("; ") + ". The JSON report (--format json) has everything.";
    note.hidden = false;
  }

  function restart() {
    state.shown = PAGE;
    draw();
  }

  document.getElementById("filters").addEventListener("submit", function (event) { event.preventDefault(); });
  ["filter-status", "filter-file", "filter-change"].forEach(function (id) {
    var node = document.getElementById(id);
    if (node) node.addEventListener("change", restart);
  });
  document.getElementById("filter-text").addEventListener("input", restart);
  document.getElementById("show-more").addEventListener("click", function () {
    state.shown += PAGE;
    draw();
  });
  document.querySelectorAll("th.sortable").forEach(function (th) {
    th.tabIndex = 0;
    function sort() {
      if (state.sort === th.dataset.sort) state.descending = !state.descending;
      else { state.sort = th.dataset.sort; state.descending = th.dataset.sort === "status"; }
      draw();
    }
    th.addEventListener("click", sort);
    th.addEventListener("keydown", function (event) { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sort(); } });
  });
  document.querySelectorAll("button.change-filter").forEach(function (button) {
    button.addEventListener("click", function () {
      var select = document.getElementById("filter-change");
      select.value = button.dataset.change;
      restart();
      document.getElementById("cases").scrollIntoView();
    });
  });

  drawHistogram();
  noteCuts();
  draw();
})();
