// The dashboard: four pages on the public GraphQL API (gateway/dashboard).
// Plain browser JavaScript, no build step. Every request is a named document of
// operations.graphql sent as a persisted query: GET for queries (answers revalidate with
// ETags), POST for the one mutation; subscriptions over graphql-ws.
"use strict";

const DOCUMENTS = JSON.parse(document.getElementById("fabric-documents").textContent);
const ENDPOINT = new URL("../graphql", window.location.href);
const TOKEN_KEY = "fabric-token";
const KNOWN_KEY = "fabric-known-documents"; // hashes the gateway has been sent the text of
const DAY_MS = 86400000;
const main = document.getElementById("main");

// ---- DOM ------------------------------------------------------------------------------
// Text from the API is untrusted: it only ever becomes text nodes, never markup.
function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "class") node.className = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

const UTC_DATE = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const UTC_TIME = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZone: "UTC" });
const fmtDate = (iso) => (iso ? UTC_DATE.format(new Date(iso)) : "");
const fmtTime = (iso) => (iso ? UTC_TIME.format(new Date(iso)) + " UTC" : "");
const timeTag = (iso, text) => h("time", { datetime: iso }, text || fmtTime(iso));
const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10);
const label = (enumValue) => enumValue.toLowerCase().replace(/_/g, " ");
const subjectHref = (key) => "#/subject/" + encodeURIComponent(key);

function subjectLink(subject) {
  if (!subject) return "";
  return h("a", { href: subjectHref(subject.key) + timeQuery() }, subject.name || subject.key);
}

// A sparkline: an SVG polyline of a series' values, described for screen readers.
// fluid: as wide as its box (the line keeps its width).
function sparkline(values, description, width = 120, height = 28, fluid = false) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "spark");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", fluid ? "100%" : width);
  svg.setAttribute("height", height);
  if (fluid) svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `${description}: ${values.join(", ")}`);
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const points = values.map((v, i) => `${(i * step).toFixed(1)},${(height - 2 - (v / max) * (height - 4)).toFixed(1)}`);
  const make = (name, attrs) => {
    const el = document.createElementNS("http://www.w3.org/2000/svg", name);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    svg.append(el);
  };
  make("line", { x1: 0, y1: height - 1, x2: width, y2: height - 1 });
  if (points.length) {
    make("polygon", { points: `0,${height - 1} ${points.join(" ")} ${width},${height - 1}` });
    make("polyline", { points: points.join(" ") });
  }
  return svg;
}

// ---- the token ------------------------------------------------------------------------
const tokenForm = document.getElementById("token-form");
const tokenInput = document.getElementById("token");
const forget = document.getElementById("forget-token");
const token = () => sessionStorage.getItem(TOKEN_KEY);

function askForToken(message) {
  tokenForm.hidden = false;
  forget.hidden = true;
  document.getElementById("token-error").textContent = message || "";
  main.replaceChildren(h("p", { class: "muted" }, "Set a bearer token to see the organisation."));
  main.setAttribute("aria-busy", "false");
  tokenInput.focus();
}

tokenForm.addEventListener("submit", (event) => {
  event.preventDefault(); // never a GET with the token in the URL
  const value = tokenInput.value.trim();
  if (!value) return;
  sessionStorage.setItem(TOKEN_KEY, value);
  performance.mark("fabric-token"); // the browser test times the first render from here
  tokenInput.value = "";
  tokenForm.hidden = true;
  forget.hidden = false;
  Live.restart();
  route();
});
forget.addEventListener("click", () => {
  sessionStorage.removeItem(TOKEN_KEY);
  Live.stop();
  askForToken();
});

// ---- GraphQL over HTTP: persisted documents --------------------------------------------
class ApiError extends Error {
  constructor(message, code) { super(message); this.code = code; }
}

function known() {
  return new Set(JSON.parse(sessionStorage.getItem(KNOWN_KEY) || "[]"));
}

function remember(hash) {
  const hashes = known();
  hashes.add(hash);
  sessionStorage.setItem(KNOWN_KEY, JSON.stringify([...hashes]));
}

// Answers by operation and variables, with their ETags: asked again, the gateway answers
// 304 Not Modified (no query runs) while the organisation has not changed. The tag is the
// same whether the request carried the document's text or its hash alone.
const answers = new Map();

async function send(name, variables, withText) {
  const doc = DOCUMENTS[name];
  const extensions = { persistedQuery: { version: 1, sha256Hash: doc.sha256 } };
  const headers = { Authorization: "Bearer " + token(), Accept: "application/graphql-response+json, application/json" };
  let response;
  if (doc.query.startsWith("mutation")) {
    const body = { operationName: name, variables, extensions };
    if (withText) body.query = doc.query;
    response = await fetch(ENDPOINT, { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  } else {
    const url = new URL(ENDPOINT);
    url.searchParams.set("operationName", name);
    url.searchParams.set("variables", JSON.stringify(variables));
    url.searchParams.set("extensions", JSON.stringify(extensions));
    if (withText) url.searchParams.set("query", doc.query);
    const key = name + " " + JSON.stringify(variables);
    const kept = answers.get(key);
    if (kept) headers["If-None-Match"] = kept.tag;
    response = await fetch(url, { headers, cache: "no-store" }); // the tags are kept here
    if (response.status === 304 && kept) return kept.body;
    if (response.ok && response.headers.get("ETag")) {
      const body = await response.json();
      answers.delete(key); // re-inserted last: the oldest go first past 100
      answers.set(key, { tag: response.headers.get("ETag"), body });
      if (answers.size > 100) answers.delete(answers.keys().next().value);
      return body;
    }
  }
  if (response.status === 401) throw new ApiError("The gateway refused the token.", "UNAUTHENTICATED");
  return response.json();
}

// Hash alone once the gateway has been sent the text in this tab; the text again when it
// answers PERSISTED_QUERY_NOT_FOUND (another gateway, or its store evicted the document).
async function gql(name, variables = {}) {
  const doc = DOCUMENTS[name];
  let body = await send(name, variables, !known().has(doc.sha256));
  const code = (body.errors || [])[0]?.extensions?.code;
  if (code === "PERSISTED_QUERY_NOT_FOUND") body = await send(name, variables, true);
  if (body.errors && body.errors.length) {
    const first = body.errors[0];
    throw new ApiError(first.message, first.extensions?.code);
  }
  remember(doc.sha256);
  return body.data;
}

// ---- time: asOf (a day; the instant is that day's end) and the window ------------------
const timeForm = document.getElementById("time");
const asOfInput = document.getElementById("as-of");
const windowSelect = document.getElementById("window");
let latestDay = null; // the organisation's latest active day, once the clock read it

function parseHash() {
  const [path, query] = window.location.hash.replace(/^#\/?/, "").split("?");
  const [page, ...rest] = path.split("/");
  return { page: page || "org", arg: rest.length ? decodeURIComponent(rest.join("/")) : null, params: new URLSearchParams(query || "") };
}

function timeParams() {
  const params = parseHash().params;
  return { asOf: params.get("asOf"), window: Number(params.get("window")) || 90 };
}

function timeQuery() {
  const { asOf, window: days } = timeParams();
  const params = new URLSearchParams();
  if (asOf) params.set("asOf", asOf);
  if (days !== 90) params.set("window", String(days));
  const text = params.toString();
  return text ? "?" + text : "";
}

function setTime(asOf, days) {
  const { page, arg } = parseHash();
  const params = new URLSearchParams();
  if (asOf) params.set("asOf", asOf);
  if (days && days !== 90) params.set("window", String(days));
  const text = params.toString();
  window.location.hash = "#/" + page + (arg ? "/" + encodeURIComponent(arg) : "") + (text ? "?" + text : "");
}

// The variables every panel's time follows.
function span(day, days) {
  const end = Date.parse(day + "T00:00:00Z") + DAY_MS; // the end of the chosen day
  return {
    asOf: new Date(end).toISOString(),
    window: { from: new Date(end - days * DAY_MS).toISOString(), to: new Date(end).toISOString() },
    bucket: days <= 31 ? "DAY" : "WEEK",
    earlier: new Date(end - days * DAY_MS).toISOString(),
    days, day,
  };
}

// The day to open at when the URL names none: the latest day with activity on the most
// recently active repository or service (within 400 days), else today.
async function clock() {
  if (latestDay) return latestDay;
  const end = Date.parse(isoDay(Date.now()) + "T00:00:00Z") + DAY_MS; // stable all day: ETags hold
  const data = await gql("DashboardClock", { window: { from: new Date(end - 399 * DAY_MS).toISOString(), to: new Date(end).toISOString() } });
  let last = null;
  for (const edge of data.subjects.edges) {
    for (const series of ["opened", "merged", "commits", "deploys", "incidents"]) {
      for (const point of edge.node[series].points) {
        if (point.value > 0 && (!last || point.start > last)) last = point.start;
      }
    }
  }
  latestDay = last ? last.slice(0, 10) : isoDay(Date.now());
  return latestDay;
}

async function currentSpan() {
  const { asOf, window: days } = timeParams();
  const day = asOf || (await clock());
  asOfInput.value = day;
  windowSelect.value = String(days);
  document.getElementById("time-label").textContent =
    `${fmtDate(span(day, days).window.from)} – end of ${fmtDate(day + "T00:00:00Z")}` + (asOf ? "" : " (latest activity)");
  return span(day, days);
}

timeForm.addEventListener("submit", (event) => event.preventDefault());
asOfInput.addEventListener("change", () => setTime(asOfInput.value || null, Number(windowSelect.value)));
windowSelect.addEventListener("change", () => setTime(timeParams().asOf, Number(windowSelect.value)));
document.getElementById("latest").addEventListener("click", () => setTime(null, Number(windowSelect.value)));

// ---- pages ----------------------------------------------------------------------------
function card(title, ...content) {
  const id = "h-" + title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  return h("section", { class: "card", "aria-labelledby": id }, h("h2", { id }, title), ...content);
}

function stat(n, text, name) {
  return h("div", { class: "stat", "data-stat": name }, h("span", { class: "n" }, n.toLocaleString("en")), h("span", { class: "l" }, text));
}

function ranked(items, value, unit) {
  if (!items.length) return h("p", { class: "muted" }, "None in this window.");
  return h("ol", { class: "rank" }, items.map((item) =>
    h("li", {}, h("span", { class: "row-main" }, subjectLink(item)), h("span", { class: "badge" }, `${value(item)} ${unit}`))));
}

const byTotal = (series) => (a, b) => b[series].total - a[series].total;

// Rows beyond `shown` wait behind a button, so a phone does not scroll through 300 rows.
function table(headers, rows, shown, caption) {
  const body = h("tbody", {}, rows.slice(0, shown));
  const wrap = h("div", { class: "scroll" }, h("table", {}, h("caption", { class: "muted", style: "text-align:left" }, caption),
    h("thead", {}, h("tr", {}, headers.map(([text, cls]) => h("th", { scope: "col", class: cls }, text)))), body));
  if (rows.length > shown) {
    const more = h("button", { type: "button", class: "secondary", onclick: () => { body.replaceChildren(...rows); more.remove(); } }, `Show all ${rows.length}`);
    wrap.append(more);
  }
  return wrap;
}

// A record without a title (a metric rollup): what it measured.
const recordName = (r) => (r.metric ? `${label(r.metric)}: ${r.value}` : label(r.recordKind));

function recordLine(r, ...rest) {
  return h("li", {}, timeTag(r.start), h("span", { class: "row-main" },
    h("button", { type: "button", class: "linkish", onclick: () => openRecord(r.id) }, r.title || recordName(r)), ...rest));
}

function recentList(records, t) {
  const none = "None in the last " + (t.bucket === "DAY" ? "two days." : "two weeks.");
  return records.length
    ? h("ul", { class: "plain timeline" }, records.slice(0, 8).map((r) =>
      recordLine(r, " · ", subjectLink(r.subject), r.status ? ` · ${r.status}` : "", r.severity ? ` · ${r.severity}` : "")))
    : h("p", { class: "muted" }, none);
}

async function organisationPage() {
  const t = await currentSpan();
  const vars = { asOf: t.asOf, window: t.window, bucket: t.bucket };
  const unit = t.bucket === "DAY" ? "day" : "week";
  const [repos, services] = await Promise.all([gql("OrgRepositories", vars), gql("OrgServices", vars)]);
  const byName = (a, b) => a.name.localeCompare(b.name);
  // Busiest first: the window's merges (deploys, then incidents for services), then by name.
  const repoNodes = repos.subjects.edges.map((e) => e.node)
    .sort((a, b) => byTotal("merged")(a, b) || byName(a, b));
  const serviceNodes = services.subjects.edges.map((e) => e.node)
    .sort((a, b) => byTotal("deploys")(a, b) || byTotal("incidents")(a, b) || byName(a, b));
  // Recent: the services whose series show an incident or a deploy in the last two buckets,
  // read once the page is drawn (they need the series first).
  const lastTwo = (s) => s.points.slice(-2).some((p) => p.value > 0);
  const recentIds = serviceNodes.filter((s) => lastTwo(s.deploys) || lastTwo(s.incidents)).slice(0, 25).map((s) => s.id);
  const recentFrom = new Date(Date.parse(t.asOf) - (t.bucket === "DAY" ? 2 : 14) * DAY_MS).toISOString();
  const incidents = h("div", { "data-panel": "recent-incidents" }, h("p", { class: "muted" }, "Loading…"));
  const deploys = h("div", { "data-panel": "recent-deploys" }, h("p", { class: "muted" }, "Loading…"));
  const recent = recentIds.length ? gql("OrgRecent", { ids: recentIds, window: { from: recentFrom, to: t.asOf } }) : Promise.resolve({ nodes: [] });
  recent.then((data) => {
    const records = [];
    for (const node of data.nodes) {
      for (const r of node?.sourceRecords || []) {
        if (r.start >= recentFrom && r.start <= t.asOf) records.push({ ...r, subject: node });
      }
    }
    records.sort((a, b) => (a.start < b.start ? 1 : -1));
    incidents.replaceChildren(recentList(records.filter((r) => r.recordKind === "INCIDENT"), t));
    deploys.replaceChildren(recentList(records.filter((r) => r.recordKind === "DEPLOY"), t));
    incidents.parentElement?.setAttribute("data-loaded", "1");
  }).catch((error) => incidents.replaceChildren(h("p", { class: "error" }, error.message)));

  const sum = (nodes, series) => nodes.reduce((n, s) => n + s[series].total, 0);
  const busiestRepos = repoNodes.slice(0, 5);
  const quietRepos = repoNodes.slice(-5).reverse(); // fewest merges
  const busiestServices = serviceNodes.slice(0, 5);
  const incidentServices = serviceNodes.filter((s) => s.incidents.total > 0).sort(byTotal("incidents")).slice(0, 5);

  const repoRows = repoNodes.map((s) => h("tr", { "data-key": s.key },
    h("td", {}, subjectLink(s)), h("td", { class: "hide-narrow" }, s.owner.map(subjectLink)),
    h("td", {}, sparkline(s.merged.points.map((p) => p.value), `Merged pull requests per ${unit}`)),
    h("td", { class: "num" }, s.merged.total)));
  const serviceRows = serviceNodes.map((s) => h("tr", { "data-key": s.key },
    h("td", {}, subjectLink(s)), h("td", { class: "hide-narrow" }, s.owner.map(subjectLink)),
    h("td", {}, sparkline(s.deploys.points.map((p) => p.value), `Deploys per ${unit}`)),
    h("td", { class: "num" }, s.deploys.total), h("td", { class: "num" }, s.incidents.total)));
  const shownOf = (conn, nodes) => (conn.totalCount > nodes.length ? ` (the first ${nodes.length} of ${conn.totalCount} by key)` : "");

  return [
    h("h1", {}, "Organisation"),
    h("div", { class: "stats" },
      stat(repos.subjects.totalCount, "repositories", "repositories"),
      stat(services.subjects.totalCount, "services", "services"),
      stat(sum(repoNodes, "merged"), "pull requests merged", "merged"),
      stat(sum(serviceNodes, "deploys"), "deploys", "deploys"),
      stat(sum(serviceNodes, "incidents"), "incidents started", "incidents")),
    h("div", { class: "grid" },
      card("Busiest repositories", ranked(busiestRepos, (s) => s.merged.total, "merged")),
      card("Quietest repositories", ranked(quietRepos, (s) => s.merged.total, "merged")),
      card("Busiest services", ranked(busiestServices, (s) => s.deploys.total, "deploys")),
      card("Most incidents", ranked(incidentServices, (s) => s.incidents.total, "incidents")),
      h("div", { class: "wide grid" }, card("Recent incidents", incidents), card("Recent deploys", deploys)),
      h("div", { class: "wide" }, card("Repositories",
        table([["Repository"], ["Owner", "hide-narrow"], [`Merged per ${unit}`], ["Merged", "num"]], repoRows, 15,
          `Pull requests merged in the window, busiest first${shownOf(repos.subjects, repoNodes)}.`))),
      h("div", { class: "wide" }, card("Services",
        table([["Service"], ["Owner", "hide-narrow"], [`Deploys per ${unit}`], ["Deploys", "num"], ["Incidents", "num"]], serviceRows, 15,
          `Deploys and incidents started in the window, busiest first${shownOf(services.subjects, serviceNodes)}.`)))),
  ];
}

// An incoming relationship, read from this subject's side.
const PASSIVE = {
  OWNS: "owned by", MEMBER_OF: "has member", DEPENDS_ON: "depended on by", CONTRIBUTES_TO: "contributed to by",
  PART_OF: "has part", AFFECTS: "affected by", ASSIGNED_TO: "has assigned", AUTHORED: "authored by",
  REVIEWED: "reviewed by", LEADS: "led by",
};

async function subjectPage(key) {
  if (!key) return subjectSearch();
  const t = await currentSpan();
  const data = await gql("SubjectPage", { key, asOf: t.asOf, earlier: t.earlier, window: t.window, bucket: t.bucket });
  const s = data.subject;
  if (!s) return [h("h1", {}, "Subject"), h("p", {}, `Nothing is known as ${key} at the end of ${fmtDate(t.day + "T00:00:00Z")}.`), subjectSearchForm()];
  const unit = t.bucket === "DAY" ? "day" : "week";

  // Relationships valid at the window's start or at its end: each drawn over the window.
  const relationships = new Map();
  for (const conn of [s.before, s.now]) for (const e of conn.edges) relationships.set(e.node.id, e.node);
  const from = Date.parse(t.window.from), to = Date.parse(t.asOf);
  const relRows = [...relationships.values()].sort((a, b) => a.type.localeCompare(b.type)).map((r) => {
    const outgoing = r.from.key === s.key;
    const other = outgoing ? r.to : r.from;
    const start = Math.max(from, r.validFrom ? Date.parse(r.validFrom) : from);
    const end = Math.min(to, r.validTo ? Date.parse(r.validTo) : to);
    const left = ((start - from) / (to - from)) * 100, width = Math.max(1, ((end - start) / (to - from)) * 100);
    const validity = `${r.validFrom ? fmtDate(r.validFrom) : "always"} – ${r.validTo ? fmtDate(r.validTo) : "now"}`;
    return h("tr", {}, h("td", {}, outgoing ? label(r.type) : PASSIVE[r.type] || label(r.type)), h("td", {}, subjectLink(other), h("span", { class: "muted" }, ` ${label(other.kind)}`)),
      h("td", { class: "hide-narrow" }, h("div", { class: "rel-bar", role: "img", "aria-label": "valid " + validity }, h("span", { style: `left:${left}%;width:${width}%` }))),
      h("td", {}, validity));
  });

  const people = new Map();
  for (const r of s.records) {
    if (!r.actor) continue;
    const entry = people.get(r.actor.key) || { subject: r.actor, n: 0 };
    entry.n += 1;
    people.set(r.actor.key, entry);
  }
  const changers = [...people.values()].sort((a, b) => b.n - a.n || a.subject.name.localeCompare(b.subject.name));

  const events = [
    ...s.records.map((r) => ({ at: r.start, node: recordLine(r, " ", h("span", { class: "badge kind " + r.recordKind }, label(r.recordKind)),
      r.actor ? [" · ", subjectLink(r.actor)] : "", r.status ? ` · ${r.status}` : "") })),
    ...s.episodes.edges.map(({ node: e }) => ({ at: e.occurredAt, node: h("li", {}, timeTag(e.occurredAt), h("span", { class: "badge" }, "episode"),
      h("span", { class: "row-main" }, e.text, e.mentions.filter((m) => m.key !== s.key).map((m) => [" · ", subjectLink(m)]))) })),
  ].sort((a, b) => (a.at < b.at ? 1 : -1));

  const series = (name, text) => h("div", {}, h("h3", {}, `${text}: ${s[name].total}`), sparkline(s[name].points.map((p) => p.value), `${text} per ${unit}`, 300, 44, true));
  return [
    h("h1", {}, s.name, " ", h("span", { class: "badge kind" }, label(s.kind))),
    h("p", { class: "muted" }, s.key, s.aliases.length ? ` · also ${s.aliases.join(", ")}` : "", s.previousNames.length ? ` · formerly ${s.previousNames.join(", ")}` : "",
      ` · valid ${s.validFrom ? "from " + fmtDate(s.validFrom) : "since always"}${s.validTo ? " to " + fmtDate(s.validTo) : ""}`),
    s.description ? h("p", {}, s.description) : "",
    h("div", { class: "grid" },
      h("div", { class: "wide grid" },
        card("Activity", series("activity", "Pull requests merged"), series("deploys", "Deploys"), series("incidents", "Incidents started")),
      card("People who changed it", changers.length ? h("ol", { class: "rank" }, changers.slice(0, 10).map((p) =>
        h("li", {}, h("span", { class: "row-main" }, subjectLink(p.subject)), h("span", { class: "badge" }, `${p.n} record${p.n === 1 ? "" : "s"}`)))) : h("p", { class: "muted" }, "No records with an actor in this window."))),
      h("div", { class: "wide" }, card("Relationships over the window", relRows.length
        ? table([["Relationship"], ["Subject"], [`${fmtDate(t.window.from)} – ${fmtDate(t.asOf)}`, "hide-narrow"], ["Valid"]], relRows, 40, `${relationships.size} relationships valid at the window's start or end.`)
        : h("p", { class: "muted" }, "No relationships in this window."))),
      h("div", { class: "wide" }, card("Timeline", events.length ? h("ul", { class: "plain timeline" }, events.slice(0, 60).map((e) => e.node))
        : h("p", { class: "muted" }, "No episodes or records in this window.")))),
  ];
}

function subjectSearchForm(results) {
  const input = h("input", { id: "subject-search", type: "search", placeholder: "payments, checkout, Alex…", required: true });
  const form = h("form", { class: "ask", role: "search", onsubmit: async (event) => {
    event.preventDefault();
    const data = await gql("SubjectSearch", { search: input.value.trim() });
    const list = data.subjects.edges.map((e) => e.node);
    results.replaceChildren(list.length ? h("ul", { class: "plain" }, list.map((n) => h("li", {}, subjectLink(n), h("span", { class: "badge kind" }, label(n.kind)))))
      : h("p", { class: "muted" }, "No subject has that in its name."));
  } }, h("label", { for: "subject-search" }, "Find a subject"), input, h("button", { type: "submit" }, "Search"));
  return form;
}

function subjectSearch() {
  const results = h("div", { "aria-live": "polite" });
  return [h("h1", {}, "Subject"), card("Find a subject", subjectSearchForm(results), results)];
}

// ---- Ask ------------------------------------------------------------------------------
function askPage() {
  const input = h("input", { id: "question", type: "text", value: "why is payments-api behind?", required: true });
  const answer = h("div", { id: "answer", "aria-live": "polite" });
  const run = async (question, receipts) => {
    answer.replaceChildren(h("p", { class: "muted" }, "Investigating…"));
    // As the API answers now: a question names its own time ("last month", "in 2025").
    const data = await gql("Ask", { question, receipts: receipts || null });
    answer.replaceChildren(...renderAnswer(data.investigate, question, run));
    answer.querySelector("h2")?.focus();
  };
  const form = h("form", { class: "ask", onsubmit: (event) => { event.preventDefault(); run(input.value.trim()).catch(showError); } },
    h("label", { for: "question" }, "Question"), input, h("button", { type: "submit" }, "Ask"));
  return [h("h1", {}, "Ask"), card("Investigate", form, h("p", { class: "muted" }, "Answers come from the organisation's records; every driver links to its evidence.")), answer];
}

function renderAnswer(payload, question, run) {
  const r = payload.result;
  const parts = [h("h2", { tabindex: "-1" }, "Answer"),
    h("p", { class: "outcome" }, h("span", { class: "badge " + (r.outcome === "ANSWERED" ? "on" : r.outcome === "FAILED" ? "bad" : "wait"), "data-outcome": r.outcome }, label(r.outcome)),
      r.temporalLabel ? h("span", { class: "muted" }, ` ${label(r.temporalLabel.axis)}: ${fmtDate(r.temporalLabel.effectiveFrom)} – ${fmtDate(r.temporalLabel.effectiveTo)}`) : "",
      payload.reused ? h("span", { class: "muted" }, " · a saved answer, reused") : "")];
  if (r.directJudgment) parts.push(h("p", { class: "judgment" }, r.directJudgment));
  if (r.currentState) parts.push(h("p", { class: "muted" }, r.currentState));
  if (r.outcome === "CLARIFICATION_REQUIRED") {
    parts.push(h("p", {}, r.clarificationPrompt || "Which one do you mean?"),
      h("div", { class: "choices", role: "group", "aria-label": "Choices" }, r.candidates.map((c) =>
        h("button", { type: "button", "data-receipt": c.receipt, onclick: () => run(question, [c.receipt]).catch(showError) },
          c.subject ? `${c.subject.name} (${label(c.subject.kind)})` : c.name))));
  }
  if (r.drivers.length) {
    parts.push(h("h3", {}, "Drivers"), h("ol", { class: "rank drivers" }, r.drivers.map((d) => h("li", { "data-driver": d.category },
      h("span", { class: "badge" }, label(d.standing)), " ", h("strong", {}, label(d.category)), h("p", {}, d.statement),
      d.subjects.length ? h("p", { class: "muted" }, "About ", d.subjects.map((s, i) => [i ? ", " : "", subjectLink(s)])) : "",
      h("div", { class: "evidence" }, d.claimedFacts.flatMap((f) => f.evidence.edges.map(({ node }) =>
        h("button", { type: "button", class: "secondary", "data-record": node.key, onclick: () => openRecord(node.id) }, `${label(node.recordKind)}: ${node.title}`))),
        d.claimedFacts.map((f) => (f.evidenceTotal > f.evidence.edges.length ? h("span", { class: "muted" }, `and ${f.evidenceTotal - f.evidence.edges.length} more`) : "")))))));
  }
  if (r.limitations.length) parts.push(h("h3", {}, "Limitations"), h("ul", {}, r.limitations.map((l) => h("li", {}, l))));
  return [card("Answer to “" + question + "”", ...parts.slice(1))];
}

async function openRecord(id) {
  const dialog = document.getElementById("record");
  const body = document.getElementById("record-body");
  body.replaceChildren(h("p", { class: "muted" }, "Loading…"));
  if (!dialog.open) dialog.showModal();
  try {
    const r = (await gql("RecordDetail", { id })).node;
    if (!r) { body.replaceChildren(h("p", {}, "That record is not known.")); return; }
    document.getElementById("record-title").textContent = r.title;
    const rows = [["Kind", label(r.recordKind)], ["Key", r.key], ["Subject", subjectLink(r.subject)], ["By", subjectLink(r.actor)],
      ["Start", fmtTime(r.start)], ["End", fmtTime(r.end)], ["Due", fmtTime(r.due)], ["Status", r.status], ["Severity", r.severity],
      ["Environment", r.environment], ["Metric", r.metric ? `${r.metric} = ${r.value}` : ""], ["Source", r.source]];
    body.replaceChildren(h("dl", {}, rows.filter(([, v]) => v).map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)])));
    body.querySelectorAll("a").forEach((a) => a.addEventListener("click", () => dialog.close()));
  } catch (error) {
    body.replaceChildren(h("p", { class: "error" }, error.message));
  }
}

// ---- Live -----------------------------------------------------------------------------
const Live = {
  client: null, state: "off", listeners: new Set(),
  badge: document.getElementById("live-badge"),
  setState(state, text) {
    this.state = state;
    this.badge.className = "badge " + { live: "on", connecting: "wait", off: "", error: "bad" }[state];
    this.badge.textContent = "Live: " + text;
    this.badge.dataset.state = state;
  },
  start() {
    if (this.client || !token()) return;
    if (!window.graphqlWs) { this.setState("error", "unavailable"); return; }
    const url = new URL(ENDPOINT);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    this.setState("connecting", "connecting");
    this.client = window.graphqlWs.createClient({
      url: url.href, lazy: false, retryAttempts: Infinity,
      connectionParams: () => ({ Authorization: "Bearer " + token() }),
      on: {
        connecting: () => this.setState("connecting", "connecting"),
        connected: () => this.setState("live", "connected"),
        closed: () => this.client && this.setState("connecting", "reconnecting"),
        error: () => this.setState("error", "error"),
      },
    });
    for (const name of ["LiveRecords", "LiveSubjects"]) {
      this.client.subscribe({ query: DOCUMENTS[name].query, operationName: name }, {
        next: (message) => { for (const listener of this.listeners) listener(name, message.data); },
        error: () => this.setState("error", "error"),
        complete: () => {},
      });
    }
  },
  stop() {
    if (this.client) { const client = this.client; this.client = null; client.dispose(); }
    this.setState("off", "off");
  },
  restart() { const was = Boolean(this.client); this.stop(); if (was) this.start(); },
};

function livePage() {
  Live.start();
  const active = h("ol", { class: "rank", "data-panel": "active" });
  const batches = h("ul", { class: "plain timeline", "data-panel": "batches" }, h("li", { class: "muted" }, "Waiting for the next ingest…"));
  const changed = h("ul", { class: "plain timeline", "data-panel": "changed" }, h("li", { class: "muted" }, "Waiting for changes…"));
  const shown = { batches: 0, changed: 0 };
  let previous = new Set();
  const refresh = async () => {
    const data = await gql("LiveActive");
    const keys = data.subjects.edges.map((e) => e.node.key);
    active.replaceChildren(...data.subjects.edges.map(({ node }) => h("li", { class: previous.size && !previous.has(node.key) ? "fresh" : "", "data-key": node.key },
      h("span", { class: "row-main" }, subjectLink(node), h("span", { class: "muted" }, " " + label(node.kind))), h("span", { class: "muted" }, node.owner.map((o) => o.name).join(", ")))));
    previous = new Set(keys);
  };
  let pending = null;
  const prepend = (list, item, which) => {
    if (!shown[which]++) list.replaceChildren();
    list.prepend(item);
    while (list.children.length > 20) list.lastChild.remove();
  };
  const listener = (name, data) => {
    if (!main.contains(active)) { Live.listeners.delete(listener); return; }
    const event = data && (data.recordsIngested || data.subjectChanged);
    if (!event) return;
    const at = new Date().toISOString();
    if (event.reason !== undefined) {
      prepend(name === "LiveRecords" ? batches : changed, h("li", { class: "fresh" }, timeTag(at), `Resync: ${event.reason}`), name === "LiveRecords" ? "batches" : "changed");
    } else if (name === "LiveRecords") {
      prepend(batches, h("li", { class: "fresh", "data-revision": event.revision }, timeTag(event.at),
        h("span", { class: "row-main" }, `${event.count} element${event.count === 1 ? "" : "s"} from ${event.source}`,
          event.recordKinds.length ? ` (${event.recordKinds.map(label).join(", ")})` : "",
          event.subjectKeys.slice(0, 5).map((k) => [" · ", h("a", { href: subjectHref(k) }, k)]))), "batches");
    } else {
      prepend(changed, h("li", { class: "fresh", "data-key": event.key }, timeTag(at), h("span", { class: "badge kind" }, label(event.kind)),
        h("span", { class: "row-main" }, h("a", { href: subjectHref(event.key) }, event.key), ` · ${event.source}`)), "changed");
    }
    clearTimeout(pending); // one refetch for a burst of events
    pending = setTimeout(() => refresh().catch(showError), 250);
  };
  Live.listeners.add(listener);
  const page = [h("h1", {}, "Live"), h("p", { class: "muted" }, "These panels follow the gateway's subscriptions (recordsIngested, subjectChanged): no reload needed."),
    h("div", { class: "grid" }, card("Most recently active", active), card("Ingest batches", batches), card("Subjects changed", changed))];
  return refresh().then(() => page);
}

// ---- routing --------------------------------------------------------------------------
function showError(error) {
  if (error.code === "UNAUTHENTICATED") { sessionStorage.removeItem(TOKEN_KEY); askForToken(error.message + " Enter another."); return; }
  main.replaceChildren(h("p", { class: "error", role: "alert" }, `The gateway answered: ${error.message}${error.code ? ` (${error.code})` : ""}`));
  main.setAttribute("aria-busy", "false");
}

let generation = 0;
async function route() {
  const { page, arg } = parseHash();
  for (const a of document.querySelectorAll("nav a")) {
    if (a.dataset.page === page) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
  }
  if (!token()) { askForToken(); return; }
  tokenForm.hidden = true;
  forget.hidden = false;
  timeForm.hidden = !(page === "org" || page === "subject");
  const mine = ++generation;
  main.setAttribute("aria-busy", "true");
  main.dataset.page = page;
  delete main.dataset.ready;
  const build = { org: organisationPage, subject: () => subjectPage(arg), ask: askPage, live: livePage }[page] || organisationPage;
  try {
    const content = await build();
    if (mine !== generation) return; // the user went elsewhere meanwhile
    main.replaceChildren(...[content].flat());
    main.setAttribute("aria-busy", "false");
    main.dataset.ready = "1";
    if (!performance.getEntriesByName("fabric-rendered").length) performance.mark("fabric-rendered");
  } catch (error) {
    if (mine === generation) showError(error);
  }
}

window.addEventListener("hashchange", route);
if (token()) Live.setState("off", "off");
route();
